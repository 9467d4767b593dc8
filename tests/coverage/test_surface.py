"""The public-surface definition on a fake library, and look-ups in the committed table."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from apimap.files.surface import data_path, load_surface, parse_document
from apimap.survey.scan.public import public_api
from apimap.survey.surface import collect
from apimap.survey.surface.namespaces import NamespaceSpec
from apimap.survey.surface.table import dump_document

FAKELIB = {
    "__init__.py": '''
        """A library shaped like torch."""
        import typing
        from typing import Optional
        from fakelib._impl import hidden_impl, _private
        from fakelib.sub import Thing
        from fakelib import sub

        __version__ = "1.0+local"
        ANSWER = 42
        nothing = None


        def own():
            """own() -> None"""


        class Own:
            pass


        alias_own = own


        def documented_alias():
            """documented_alias() -> None

            Alias for :func:`fakelib.own`.
            """


        def other_defaults(flag=True):
            """other_defaults(flag=True) -> None

            Alias for :func:`fakelib.own` with defaults :attr:`flag` `= True`.
            """
        ''',
    "_impl.py": """
        def hidden_impl():
            pass


        def _private():
            pass
        """,
    "sub.py": """
        from typing import Optional

        __all__ = ["Thing", "Optional"]


        class Thing:
            def method(self):
                pass

            @property
            def prop(self):
                return 1

            other = method


        def not_listed():
            pass
        """,
}


@pytest.fixture()
def fakelib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    package = tmp_path / "fakelib"
    package.mkdir()
    for name, text in FAKELIB.items():
        (package / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    specs = (
        NamespaceSpec("fakelib"),
        NamespaceSpec("fakelib.sub", group="other"),
        NamespaceSpec("fakelib.sub.Thing", "class", "other"),
        NamespaceSpec("fakelib.absent", group="other"),
    )
    monkeypatch.setitem(collect.NAMESPACES, "fakelib", specs)
    yield
    for name in [m for m in sys.modules if m == "fakelib" or m.startswith("fakelib.")]:
        del sys.modules[name]


@pytest.mark.usefixtures("fakelib")
def test_public_names_of_a_fake_library() -> None:
    surface = collect.collect("fakelib")
    assert surface.version == "1.0"
    assert surface.skipped == {
        "fakelib.absent": "ModuleNotFoundError: No module named 'fakelib.absent'"
    }
    names = {
        f"{namespace}.{short}": entry
        for namespace, ns in surface.namespaces.items()
        for short, entry in ns.names.items()
    }
    assert {name: entry.kind for name, entry in names.items()} == {
        "fakelib.ANSWER": "constant",
        "fakelib.Own": "class",
        "fakelib.Thing": "class",
        "fakelib.alias_own": "function",
        "fakelib.documented_alias": "function",
        "fakelib.hidden_impl": "function",
        "fakelib.other_defaults": "function",
        "fakelib.own": "function",
        "fakelib.sub.Thing": "class",
        "fakelib.sub.not_listed": "function",
        "fakelib.sub.Thing.method": "method",
        "fakelib.sub.Thing.other": "method",
        "fakelib.sub.Thing.prop": "property",
    }
    aliases = {name: entry.alias_of for name, entry in names.items() if entry.alias_of}
    assert aliases == {
        "fakelib.alias_own": "fakelib.own",
        "fakelib.documented_alias": "fakelib.own",
        "fakelib.Thing": "fakelib.sub.Thing",
        "fakelib.sub.Thing.other": "fakelib.sub.Thing.method",
    }
    assert names["fakelib.hidden_impl"].defined_in == "fakelib._impl.hidden_impl"
    assert "fakelib.sub" in surface.modules and "fakelib._impl" not in surface.modules


def test_committed_table_is_in_canonical_form() -> None:
    text = data_path().read_text(encoding="utf-8")
    assert dump_document(parse_document(text)) == text


def test_public_names_of_paths_written_in_code() -> None:
    surface = load_surface()
    assert public_api(surface, "torch.nn.Conv2d") == "torch.nn.Conv2d"
    assert public_api(surface, "torch.nn.modules.conv.Conv2d") == "torch.nn.Conv2d"
    assert public_api(surface, "torch.nn.modules.Conv2d") == "torch.nn.Conv2d"
    assert public_api(surface, "torch.Tensor.view") == "torch.Tensor.view"
    assert public_api(surface, "torch.nn.Module.__init__") == "torch.nn.Module"
    assert public_api(surface, "torch.float32.itemsize") == "torch.float32"
    assert public_api(surface, "torch.nn.functional") is None
    assert public_api(surface, "torch._C._get_tracing_state") == "torch._C._get_tracing_state"
    assert surface.canonical("torch.concat") == "torch.cat"
    assert surface.alias_group("torch.cat")[:1] == ["torch.cat"]
    assert "torch.concat" in surface.alias_group("torch.concat")
    assert "Conv2d" in surface.star_names("torch.nn")
    assert surface.star_names("torch.nn.modules.conv") == [
        "Conv1d",
        "Conv2d",
        "Conv3d",
        "ConvTranspose1d",
        "ConvTranspose2d",
        "ConvTranspose3d",
        "LazyConv1d",
        "LazyConv2d",
        "LazyConv3d",
        "LazyConvTranspose1d",
        "LazyConvTranspose2d",
        "LazyConvTranspose3d",
    ]
    assert {"view", "permute"} <= surface.tensor_methods and "shape" not in surface.tensor_methods
