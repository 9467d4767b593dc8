"""One file at a time: name resolution through imports and Python's scopes."""

from __future__ import annotations

import textwrap

import pytest

from apimap.files.surface import Surface
from apimap.survey.scan.bindings import ProjectImport, TorchImport
from apimap.survey.scan.files import SourceFile
from apimap.survey.scan.resolver import FileScan, ResolverConfig, scan_text
from apimap.survey.scan.runner import resolver_config


def _scan(
    surface: Surface, code: str, module: str = "m", package: bool = False, roots: str = ""
) -> FileScan:
    source = SourceFile("m.py", module, package)
    base = resolver_config(surface, [])
    config = ResolverConfig(frozenset(roots.split()), base.tensor_methods, base.star_names)
    return scan_text(textwrap.dedent(code).lstrip("\n"), source, config)


def test_attribute_chains_names_and_calls(surface: Surface) -> None:
    scan = _scan(
        surface,
        """
        import torch
        import torch.nn
        x = torch.nn.functional.relu(torch.ones(1))
        y = torch.float32
        torch.backends.cudnn.benchmark = True
        """,
    )
    assert scan.refs == [
        ("torch.nn.functional.relu", 3, True),
        ("torch.ones", 3, True),
        ("torch.float32", 4, False),
        ("torch.backends.cudnn.benchmark", 5, False),
    ]
    assert scan.imports_torch


def test_decorators_defaults_annotations_and_bases_are_outer_scope(surface: Surface) -> None:
    scan = _scan(
        surface,
        """
        import torch
        from torch import nn

        @torch.no_grad()
        def f(x: torch.Tensor, nn=nn.ReLU) -> torch.Tensor:
            return nn(x)

        class M(nn.Module):
            pass
        """,
    )
    assert scan.refs == [
        ("torch.no_grad", 4, True),
        ("torch.nn.ReLU", 5, False),
        ("torch.Tensor", 5, False),
        ("torch.Tensor", 5, False),
        ("torch.nn.Module", 8, False),
    ]


def test_nonlocal_and_nested_functions(surface: Surface) -> None:
    scan = _scan(
        surface,
        """
        import torch.nn.functional as F

        def outer():
            F = None
            def inner():
                nonlocal F
                return F.relu(1)
            def sees_outer():
                return F.gelu(1)
            return inner, sees_outer

        def untouched():
            def inner():
                return F.silu(1)
            return inner
        """,
    )
    assert scan.refs == [("torch.nn.functional.silu", 14, True)]


def test_comprehension_first_iterable_is_outer_scope(surface: Surface) -> None:
    scan = _scan(
        surface,
        """
        import torch
        xs = [torch for torch in torch.arange(3)]
        ys = {k: torch.ones(1) for k in range(2)}
        """,
    )
    assert scan.refs == [("torch.arange", 2, True), ("torch.ones", 3, True)]


def test_a_later_import_rebinds_and_torch_wins_over_other_bindings(surface: Surface) -> None:
    scan = _scan(
        surface,
        """
        try:
            from torch.amp import autocast
        except ImportError:
            from contextlib import nullcontext as autocast
        autocast("cpu")
        from torch.cuda.amp import autocast
        autocast()
        """,
    )
    assert scan.refs == [("torch.amp.autocast", 5, True), ("torch.cuda.amp.autocast", 7, True)]


def test_other_imports_are_neither_torch_nor_tensor_receivers(surface: Surface) -> None:
    scan = _scan(
        surface,
        """
        import numpy as np
        import os.path
        np.reshape(1, 2)
        os.path.split("a")
        """,
    )
    assert scan.refs == [] and scan.methods == [] and not scan.imports_torch


def test_relative_and_project_imports_are_deferred(surface: Surface) -> None:
    scan = _scan(
        surface,
        """
        from . import layers
        from .blocks import Soft as S
        from ...too_far import x
        import pkg.sub as sub
        import pkg.other
        layers.nn.ReLU()
        S(dim=1)
        x.view(1)
        sub.Conv()
        pkg.other.thing
        """,
        module="pkg.models",
        roots="pkg",
    )
    assert scan.deferred == [
        (("pkg",), ("layers", "nn", "ReLU"), 6, True),
        (("pkg.blocks",), ("Soft",), 7, True),
        (("pkg.sub",), ("Conv",), 9, True),
        (("pkg",), ("other", "thing"), 10, False),
    ]
    # `from ...too_far import x` leaves the project: x is another package's name.
    assert scan.methods == []
    assert scan.exports == {
        "layers": ProjectImport(("pkg",), ("layers",), 1),
        "S": ProjectImport(("pkg.blocks",), ("Soft",), 2),
        "sub": ProjectImport(("pkg.sub",), (), 4),
        "pkg": ProjectImport(("pkg",), (), 5),
    }


def test_package_init_relative_imports_start_at_the_package(surface: Surface) -> None:
    scan = _scan(
        surface,
        "from .layers import *\nfrom torch.nn import Conv2d as C\n",
        module="pkg",
        package=True,
        roots="pkg",
    )
    assert scan.stars == ("pkg.layers",)
    assert scan.exports == {"C": TorchImport("torch.nn.Conv2d", 2)}


def test_star_import_of_a_defining_module(surface: Surface) -> None:
    scan = _scan(surface, "from torch.nn.modules.conv import *\nConv2d(1, 1, 1)\n")
    assert scan.refs == [("torch.nn.modules.conv.Conv2d", 2, True)]


def test_syntax_errors_and_deep_nesting_are_problems(surface: Surface) -> None:
    broken = _scan(surface, "x = (\n")
    assert broken.problem is not None and broken.problem.kind == "syntax"
    deep = _scan(surface, "import torch\nx = " + "[" * 3000 + "]" * 3000 + "\n")
    assert deep.problem is not None and deep.problem.kind in ("syntax", "too-deep")
    assert deep.refs == []


def test_a_resolver_crash_is_the_file_s_problem(
    surface: Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr("apimap.survey.scan.resolver._FileResolver._attribute", crash)
    scan = _scan(surface, "import torch\ntorch.abs(1)\n")
    assert scan.problem is not None and scan.problem.kind == "internal"
    assert "KeyError" in scan.problem.message and scan.refs == []
