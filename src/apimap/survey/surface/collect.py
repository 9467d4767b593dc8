"""Compute the public surface of an installed library (``apimap surface --update``).

This is the only module that imports torch or torchvision for the surface; it
runs once per environment and its result is committed as ``data/surface.json``.
See :data:`apimap.survey.surface.namespaces.DEFINITION` for what counts as public.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import re
import sys
import types
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from apimap.files.surface import LibrarySurface, NameEntry, NamespaceEntry
from apimap.record.pins import public_version
from apimap.survey.surface.namespaces import NAMESPACES, NamespaceSpec

_PLAIN_VALUES = (bool, int, float, complex, str, bytes, tuple, list, dict, set, frozenset)
_ALIAS_DOC = re.compile(r"\bAlias (?:of|for) :(?:func|meth|class|attr):`~?([\w.]+)`(?!\s+with\b)")
"""A docstring that names another API as its alias; "Alias for X with defaults ..." (like
``torch.linalg.diagonal``) is a variant with other defaults, not another name of X."""
_DOC_HEAD = 400
"""Only the start of a docstring (signature line and first paragraph) can declare an alias."""


@dataclass
class _Found:
    """One public name while the surface is being collected."""

    name: str
    namespace: str
    kind: str
    obj: Any
    doc_owner: Any
    """The object whose docstring may say "Alias of" (the bound attribute for members)."""
    source_defined: bool
    defined_in: str | None


def _top_level_definitions(module: types.ModuleType) -> set[str]:
    """Names the module's own source binds at top level by a definition or an assignment."""
    try:
        path = inspect.getsourcefile(module)
    except TypeError:
        return set()
    if path is None or not os.path.isfile(path):
        return set()
    with open(path, "rb") as handle:
        tree = ast.parse(handle.read())
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While):
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(node, field, []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return names


def _origin(obj: Any) -> str | None:
    """The module that made ``obj``: its ``__module__``, or its class's for plain instances."""
    if inspect.isclass(obj) or inspect.isroutine(obj) or callable(obj):
        module = getattr(obj, "__module__", None)
        if isinstance(module, str):
            return module
    if inspect.isclass(obj) or isinstance(obj, _PLAIN_VALUES) or obj is None:
        return None
    module = getattr(type(obj), "__module__", None)
    return module if isinstance(module, str) else None


def _is_value(obj: Any) -> bool:
    return not (inspect.isclass(obj) or callable(obj))


def _library_root(module: str) -> str:
    return module.split(".", 1)[0]


def _module_kind(obj: Any, library: str) -> str:
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    if type(obj).__name__ == "dtype" and _library_root(type(obj).__module__) == library:
        return "dtype"
    return "constant"


def _is_public_in_module(
    namespace: str,
    name: str,
    obj: Any,
    declared: set[str] | None,
    defined: set[str],
    library: str,
) -> bool:
    if name.startswith("_") or obj is None or isinstance(obj, types.ModuleType):
        return False
    origin = _origin(obj)
    if origin is not None and _library_root(origin) != library:
        return False
    if (declared is not None and name in declared) or name in defined:
        return True
    if origin is None:
        return False
    if _is_value(obj):
        return origin == library
    if any(part.startswith("_") for part in origin.split(".")[1:]):
        return True
    return origin == namespace or origin.startswith(namespace + ".")


def _defined_in(obj: Any, full_name: str) -> str | None:
    """``module.qualname`` where a class or function is defined, when that is another name."""
    if not (inspect.isclass(obj) or inspect.isfunction(obj)):
        return None
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    if qualname.startswith(_library_root(module) + "."):
        return None
    where = f"{module}.{qualname}"
    return None if where == full_name else where


def _module_class_members(module: types.ModuleType, namespace: str) -> Iterator[_Found]:
    """Settings a module exposes through its own module class (``torch.backends.cudnn.benchmark``)."""
    cls = type(module)
    if cls is types.ModuleType:
        return
    plain = set(dir(types.ModuleType))
    for name in sorted(dir(cls)):
        if name.startswith("_") or name in plain:
            continue
        static = inspect.getattr_static(cls, name)
        kind = "function" if inspect.isroutine(static) else "attribute"
        yield _Found(f"{namespace}.{name}", namespace, kind, static, static, False, None)


def _module_names(spec: NamespaceSpec, library: str) -> Iterator[_Found]:
    module = importlib.import_module(spec.name)
    declared_list = getattr(module, "__all__", None)
    declared = set(declared_list) if declared_list is not None else None
    defined = _top_level_definitions(module)
    candidates = set(declared or ()) | {n for n in dir(module) if not n.startswith("_")}
    for name in sorted(candidates):
        try:
            obj = getattr(module, name)
        except Exception:  # a lazy attribute that cannot load is not usable API
            continue
        if not _is_public_in_module(spec.name, name, obj, declared, defined, library):
            continue
        full = f"{spec.name}.{name}"
        yield _Found(
            full,
            spec.name,
            _module_kind(obj, library),
            obj,
            obj,
            name in defined,
            _defined_in(obj, full),
        )
    yield from _module_class_members(module, spec.name)


def _resolve_class(dotted: str) -> type:
    module_name, _, attr = dotted.rpartition(".")
    module = importlib.import_module(module_name)
    cls = getattr(module, attr)
    if not inspect.isclass(cls):
        raise TypeError(f"{dotted} is not a class")
    return cls


def _member_kind(static: Any) -> str:
    if isinstance(static, property | types.GetSetDescriptorType | types.MemberDescriptorType):
        return "property"
    if callable(static) or isinstance(static, classmethod | staticmethod):
        return "method"
    return "attribute"


def _class_members(spec: NamespaceSpec, library: str) -> Iterator[_Found]:
    cls = _resolve_class(spec.name)
    inherited_from_object = set(dir(object))
    for name in sorted(dir(cls)):
        if name.startswith("_") or name in inherited_from_object:
            continue
        static = inspect.getattr_static(cls, name)
        origin = _origin(static)
        if origin is not None and _library_root(origin) not in (library, "builtins"):
            continue
        kind = _member_kind(static)
        try:
            bound = getattr(cls, name)
        except Exception:
            bound = static
        yield _Found(f"{spec.name}.{name}", spec.name, kind, static, bound, False, None)


def _alias_target(
    found: _Found, names: dict[str, _Found], class_namespaces: set[str]
) -> str | None:
    """The name a docstring declares ``found`` an alias of: same kind, same sort of namespace.

    A member is only an alias of a member of its own class (``Tensor.softmax``
    says "Alias for torch.nn.functional.softmax" but is called differently).
    """
    doc = getattr(found.doc_owner, "__doc__", None)
    if not isinstance(doc, str):
        return None
    match = _ALIAS_DOC.search(doc[:_DOC_HEAD])
    if match is None:
        return None
    target = match.group(1)
    member = found.namespace in class_namespaces
    short = target.rpartition(".")[2]
    candidates = (
        [f"{found.namespace}.{short}"]
        if member
        else [target, f"{found.namespace}.{target}", f"{found.name.split('.')[0]}.{target}"]
    )
    for candidate in candidates:
        other = names.get(candidate)
        if other is None or candidate == found.name or other.kind != found.kind:
            continue
        if member or other.namespace not in class_namespaces:
            return candidate
    return None


def _canonical_key(found: _Found) -> tuple[int, int, int, int, int, str]:
    """Sort key: the smallest is the canonical name of a group of names of one object.

    A dtype's canonical name is its ``str()``. For classes and Python functions
    ``__module__`` is reliable, so the namespace closest to it wins first; for C
    functions (whose ``__module__`` is just ``torch``) the namespace whose source
    assigns the name (``conv2d = _add_docstr(...)`` in ``torch.nn.functional``) wins first.
    """
    obj = found.obj
    if type(obj).__name__ == "dtype":
        return (0 if str(obj) == found.name else 1, 0, 0, 0, 0, found.name)
    origin = _origin(obj) or ""
    inside = origin == found.namespace or origin.startswith(found.namespace + ".")
    near = -len(found.namespace) if inside else 0
    defined = 0 if found.source_defined else 1
    reliable = inspect.isclass(obj) or inspect.isfunction(obj)
    first, second = (near, defined) if reliable else (defined, near)
    named = 0 if getattr(obj, "__name__", None) == found.name.rpartition(".")[2] else 1
    return (0, first, second, named, found.name.count("."), found.name)


def _aliases(found: list[_Found], class_namespaces: set[str]) -> dict[str, str]:
    """Alias name -> canonical name, by object identity, then by docstring."""
    groups: dict[int, list[_Found]] = {}
    for item in found:
        if item.kind in ("function", "class", "dtype", "method"):
            groups.setdefault(id(item.obj), []).append(item)
    alias_of: dict[str, str] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        canonical = min(members, key=_canonical_key)
        for member in members:
            if member is not canonical:
                alias_of[member.name] = canonical.name
    names = {item.name: item for item in found}
    for item in found:
        if item.name in alias_of:
            continue
        target = _alias_target(item, names, class_namespaces)
        if target is None:
            continue
        target = alias_of.get(target, target)
        if target != item.name and alias_of.get(target) != item.name:
            alias_of[item.name] = target
    return alias_of


def _parents(module: str) -> Iterator[str]:
    parts = module.split(".")
    for end in range(1, len(parts) + 1):
        yield ".".join(parts[:end])


def collect(library: str) -> LibrarySurface:
    """Import ``library`` and every listed namespace and return its public surface."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _collect(library)


def _collect(library: str) -> LibrarySurface:
    root = importlib.import_module(library)
    found: list[_Found] = []
    skipped: dict[str, str] = {}
    available: list[NamespaceSpec] = []
    for spec in NAMESPACES[library]:
        try:
            members = _class_members if spec.kind == "class" else _module_names
            found.extend(members(spec, library))
        except ImportError as exc:
            skipped[spec.name] = f"{type(exc).__name__}: {exc}"
            continue
        available.append(spec)
    alias_of = _aliases(found, {spec.name for spec in available if spec.kind == "class"})
    modules = {spec.name for spec in available if spec.kind == "module"}
    for item in found:
        origin = _origin(item.obj)
        if item.kind != "method" and origin is not None and _library_root(origin) == library:
            modules.update(_parents(origin))
    modules = {m for m in modules if not any(p.startswith("_") for p in m.split(".")[1:])}
    namespaces: dict[str, NamespaceEntry] = {}
    for order, spec in enumerate(available):
        entries = {
            item.name.rpartition(".")[2]: NameEntry(
                kind=item.kind,
                alias_of=alias_of.get(item.name),
                defined_in=item.defined_in,
            )
            for item in found
            if item.namespace == spec.name
        }
        namespaces[spec.name] = NamespaceEntry(
            kind=spec.kind, group=spec.group, order=order, names=entries
        )
    return LibrarySurface(
        version=public_version(str(root.__version__)),
        python=f"{sys.version_info.major}.{sys.version_info.minor}",
        modules=sorted(modules),
        skipped=skipped,
        namespaces=namespaces,
    )
