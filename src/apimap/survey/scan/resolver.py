"""Resolve the torch and torchvision references of one Python file with :mod:`ast`.

The file is parsed, never imported or run. Every name is looked up through
Python's scopes (module, class body, function, lambda, comprehension): an
assignment, parameter, loop or ``with`` target, ``def`` or ``class`` named
``F`` inside a function shadows the module's ``import torch.nn.functional as F``
there, while class bodies do not leak into their methods. Within one scope an
import of torch wins over other bindings of the same name (see
:meth:`apimap.survey.scan.bindings.NameBindings.choose`).

What comes out, per file (:class:`FileScan`):

- ``refs``: the full dotted torch path of every attribute chain or name that
  resolves to an import of torch or torchvision, with its line and whether it
  is called (``F.relu(x)`` -> ``torch.nn.functional.relu``; ``torch.float32``
  as an argument is a reference);
- ``deferred``: chains rooted at an import of the scanned project, resolved
  once every file's module-level bindings are known (re-exports);
- ``methods``: calls ``expr.name(...)`` whose ``name`` is a public
  ``torch.Tensor`` method and whose receiver is not an import (the Tensor-method
  heuristic; the receiver's type is unknown);
- ``exports``: the module-level bindings to torch or project paths, for
  other files' imports of this module; ``stars``: project modules this module
  star-imports.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from apimap.survey.scan.bindings import (
    LIBRARIES,
    OTHER_IMPORT,
    Binding,
    NameBindings,
    ProjectImport,
    TorchImport,
)
from apimap.survey.scan.files import ReadProblem, SourceFile, decode_source

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LEAVES = frozenset({ast.Constant, ast.Import, ast.ImportFrom, ast.Load, ast.Store, ast.Del})
"""Nodes with nothing to resolve below them."""
_END_OF_FILE = 1 << 30

Ref = tuple[str, int, bool]
"""A torch path, its line, and whether it is called."""
Deferred = tuple[tuple[str, ...], tuple[str, ...], int, bool]
"""Project modules to try, the attribute path below them, line, called."""


@dataclass(frozen=True)
class ResolverConfig:
    """What every file's resolver needs to know about the project and the libraries."""

    project_roots: frozenset[str]
    """Top-level package names of the scanned files (their imports are project imports)."""
    tensor_methods: frozenset[str]
    """Public ``torch.Tensor`` method names."""
    star_names: Callable[[str], Iterable[str]]
    """Names ``from <torch module> import *`` binds."""


@dataclass
class FileProblem:
    """A file that could not be scanned, and where."""

    kind: str
    """``binary``, ``encoding``, ``syntax``, ``unreadable``, ``too-deep`` or ``internal``."""
    line: int
    col: int
    message: str


@dataclass
class FileScan:
    """Everything the scan found in one file."""

    path: str
    module: str
    refs: list[Ref] = field(default_factory=list)
    deferred: list[Deferred] = field(default_factory=list)
    methods: list[tuple[str, int]] = field(default_factory=list)
    exports: dict[str, TorchImport | ProjectImport] = field(default_factory=dict)
    stars: tuple[str, ...] = ()
    imports_torch: bool = False
    problem: FileProblem | None = None


class _Scope:
    __slots__ = ("globals", "kind", "names", "nonlocals", "parent", "stars")

    def __init__(self, kind: str, parent: _Scope | None) -> None:
        self.kind = kind
        self.parent = parent
        self.names: dict[str, NameBindings] = {}
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.stars: list[str] = []

    def entry(self, name: str) -> NameBindings:
        found = self.names.get(name)
        if found is None:
            found = self.names[name] = NameBindings()
        return found

    def local(self, name: str) -> None:
        self.entry(name).local = True


def _bind_target(scope: _Scope, target: ast.expr) -> None:
    if isinstance(target, ast.Name):
        scope.local(target.id)
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            _bind_target(scope, element)
    elif isinstance(target, ast.Starred):
        _bind_target(scope, target.value)


def _bind_pattern(scope: _Scope, pattern: ast.pattern) -> None:
    for node in ast.walk(pattern):
        if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            scope.local(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            scope.local(node.rest)


def _is_literal_or_super(node: ast.expr) -> bool:
    """``"a,b".split(",")`` and ``super().to(...)`` are not Tensor calls."""
    if isinstance(node, ast.Constant | ast.JoinedStr):
        return True
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "super"
    return False


class _FileResolver:
    def __init__(self, source: SourceFile, config: ResolverConfig) -> None:
        self.source = source
        self.config = config
        self.methods_names = config.tensor_methods
        self.result = FileScan(source.path, source.module)
        self.module_scope = _Scope("module", None)
        self._handlers: dict[type[ast.AST], Callable[[Any, _Scope], None]] = {
            ast.Name: self._visit_name,
            ast.Attribute: self._visit_attribute,
            ast.Call: self._visit_call,
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.ClassDef: self._class,
            ast.Lambda: self._lambda,
            **dict.fromkeys(_COMPREHENSIONS, self._comprehension),
        }

    # -- imports -----------------------------------------------------------------

    def _absolute(self, node: ast.ImportFrom) -> str | None:
        if not node.level:
            return node.module
        package = self.source.module
        if not self.source.is_package:
            package = package.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        if not package:
            return None
        return f"{package}.{node.module}" if node.module else package

    def _torch(self, scope: _Scope, name: str, path: str, line: int) -> None:
        scope.entry(name).torch.append(TorchImport(path, line))
        self.result.imports_torch = True

    def _import(self, scope: _Scope, node: ast.Import) -> None:
        for alias in node.names:
            root = alias.name.partition(".")[0]
            bound = alias.asname or root
            target = alias.name if alias.asname else root
            if root in LIBRARIES:
                self._torch(scope, bound, target, node.lineno)
            elif root in self.config.project_roots:
                scope.entry(bound).project.append(ProjectImport((target,), (), node.lineno))
            else:
                scope.entry(bound).other = True

    def _import_from(self, scope: _Scope, node: ast.ImportFrom) -> None:
        module = self._absolute(node)
        root = module.partition(".")[0] if module else ""
        library = root in LIBRARIES
        project = module is not None and (node.level > 0 or root in self.config.project_roots)
        for alias in node.names:
            if alias.name == "*":
                if library and module is not None:
                    for short in self.config.star_names(module):
                        self._torch(scope, short, f"{module}.{short}", node.lineno)
                elif project and module is not None:
                    scope.stars.append(module)
                continue
            bound = alias.asname or alias.name
            if library:
                self._torch(scope, bound, f"{module}.{alias.name}", node.lineno)
            elif project and module is not None:
                imported = ProjectImport((module,), (alias.name,), node.lineno)
                scope.entry(bound).project.append(imported)
            else:
                scope.entry(bound).other = True

    # -- bindings of a scope ---------------------------------------------------------

    def _collect(self, scope: _Scope, body: Iterable[ast.stmt]) -> None:
        """Every binding the statements make in ``scope`` (nested scopes excluded), in source order."""
        stack: list[ast.stmt] = list(reversed(list(body)))
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    _bind_target(scope, target)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                _bind_target(scope, node.target)
            elif isinstance(node, ast.Import):
                self._import(scope, node)
            elif isinstance(node, ast.ImportFrom):
                self._import_from(scope, node)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                scope.local(node.name)
            elif isinstance(node, ast.For | ast.AsyncFor):
                _bind_target(scope, node.target)
                stack.extend(reversed(node.orelse))
                stack.extend(reversed(node.body))
            elif isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    if item.optional_vars is not None:
                        _bind_target(scope, item.optional_vars)
                stack.extend(reversed(node.body))
            elif isinstance(node, ast.If | ast.While):
                stack.extend(reversed(node.orelse))
                stack.extend(reversed(node.body))
            elif isinstance(node, ast.Try | ast.TryStar):
                stack.extend(reversed(node.finalbody))
                stack.extend(reversed(node.orelse))
                for handler in reversed(node.handlers):
                    if handler.name:
                        scope.local(handler.name)
                    stack.extend(reversed(handler.body))
                stack.extend(reversed(node.body))
            elif isinstance(node, ast.Global):
                scope.globals.update(node.names)
            elif isinstance(node, ast.Nonlocal):
                scope.nonlocals.update(node.names)
            elif isinstance(node, ast.Delete):
                for target in node.targets:
                    _bind_target(scope, target)
            elif isinstance(node, ast.Match):
                for case in reversed(node.cases):
                    _bind_pattern(scope, case.pattern)
                    stack.extend(reversed(case.body))

    def _lookup(self, scope: _Scope, name: str, line: int) -> Binding | None:
        current: _Scope | None = scope
        innermost = True
        while current is not None:
            if name in current.globals:
                current = self.module_scope
            elif current.kind == "class" and not innermost:
                current = current.parent
                continue
            elif name in current.nonlocals:
                current, innermost = current.parent, False
                continue
            entry = current.names.get(name)
            if entry is not None:
                return entry.choose(line)
            current, innermost = current.parent, False
        if self.module_scope.stars:
            return ProjectImport(tuple(self.module_scope.stars), (name,), 0)
        return None

    # -- uses --------------------------------------------------------------------

    def _name(self, node: ast.Name, scope: _Scope, call: bool) -> None:
        binding = self._lookup(scope, node.id, node.lineno)
        if isinstance(binding, TorchImport):
            self.result.refs.append((binding.path, node.lineno, call))
        elif isinstance(binding, ProjectImport):
            self.result.deferred.append((binding.modules, binding.attrs, node.lineno, call))

    def _attribute(self, node: ast.Attribute, scope: _Scope, call: bool) -> None:
        attrs = [node.attr]
        base = node.value
        while isinstance(base, ast.Attribute):
            attrs.append(base.attr)
            base = base.value
        line = node.end_lineno or node.lineno
        if isinstance(base, ast.Name):
            binding = self._lookup(scope, base.id, base.lineno)
            if isinstance(binding, TorchImport):
                attrs.reverse()
                self.result.refs.append((f"{binding.path}.{'.'.join(attrs)}", line, call))
                return
            if isinstance(binding, ProjectImport):
                attrs.reverse()
                path = binding.attrs + tuple(attrs)
                self.result.deferred.append((binding.modules, path, line, call))
                return
            if binding is not OTHER_IMPORT and call and node.attr in self.methods_names:
                self.result.methods.append((node.attr, line))
            return
        if call and node.attr in self.methods_names and not _is_literal_or_super(base):
            self.result.methods.append((node.attr, line))
        self._visit(base, scope)

    def _visit_name(self, node: ast.Name, scope: _Scope) -> None:
        if isinstance(node.ctx, ast.Load):
            self._name(node, scope, False)

    def _visit_attribute(self, node: ast.Attribute, scope: _Scope) -> None:
        self._attribute(node, scope, False)

    def _visit_call(self, node: ast.Call, scope: _Scope) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            self._attribute(func, scope, True)
        elif isinstance(func, ast.Name):
            self._name(func, scope, True)
        else:
            self._visit(func, scope)
        for arg in node.args:
            self._visit(arg, scope)
        for keyword in node.keywords:
            self._visit(keyword.value, scope)

    def _visit(self, node: ast.AST, scope: _Scope) -> None:
        handler = self._handlers.get(node.__class__)
        if handler is not None:
            handler(node, scope)
            return
        if node.__class__ in _LEAVES:
            return
        for name in node._fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        self._visit(item, scope)
            elif isinstance(value, ast.AST):
                self._visit(value, scope)

    def _arguments(self, args: ast.arguments, outer: _Scope, inner: _Scope) -> None:
        for default in args.defaults:
            self._visit(default, outer)
        for kw_default in args.kw_defaults:
            if kw_default is not None:
                self._visit(kw_default, outer)
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        every += [arg for arg in (args.vararg, args.kwarg) if arg is not None]
        for arg in every:
            if arg.annotation is not None:
                self._visit(arg.annotation, outer)
            inner.local(arg.arg)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope) -> None:
        for decorator in node.decorator_list:
            self._visit(decorator, scope)
        inner = _Scope("function", scope)
        self._arguments(node.args, scope, inner)
        if node.returns is not None:
            self._visit(node.returns, scope)
        self._collect(inner, node.body)
        for statement in node.body:
            self._visit(statement, inner)

    def _lambda(self, node: ast.Lambda, scope: _Scope) -> None:
        inner = _Scope("function", scope)
        self._arguments(node.args, scope, inner)
        self._visit(node.body, inner)

    def _class(self, node: ast.ClassDef, scope: _Scope) -> None:
        for expression in (*node.decorator_list, *node.bases):
            self._visit(expression, scope)
        for keyword in node.keywords:
            self._visit(keyword.value, scope)
        inner = _Scope("class", scope)
        self._collect(inner, node.body)
        for statement in node.body:
            self._visit(statement, inner)

    def _comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, scope: _Scope
    ) -> None:
        generators = node.generators
        self._visit(generators[0].iter, scope)
        inner = _Scope("function", scope)
        for generator in generators:
            _bind_target(inner, generator.target)
        for index, generator in enumerate(generators):
            if index:
                self._visit(generator.iter, inner)
            for condition in generator.ifs:
                self._visit(condition, inner)
        if isinstance(node, ast.DictComp):
            self._visit(node.key, inner)
            self._visit(node.value, inner)
        else:
            self._visit(node.elt, inner)

    # -- the file ------------------------------------------------------------------

    def run(self, tree: ast.Module) -> FileScan:
        scope = self.module_scope
        self._collect(scope, tree.body)
        for name, entry in scope.names.items():
            binding = entry.choose(_END_OF_FILE)
            if isinstance(binding, TorchImport | ProjectImport):
                self.result.exports[name] = binding
        self.result.stars = tuple(scope.stars)
        for statement in tree.body:
            self._visit(statement, scope)
        return self.result


def scan_text(text: str, source: SourceFile, config: ResolverConfig) -> FileScan:
    """Resolve one file's text; syntax errors and pathological nesting become a problem."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=source.path)
    except SyntaxError as exc:
        scan = FileScan(source.path, source.module)
        scan.problem = FileProblem(
            "syntax", exc.lineno or 1, exc.offset or 1, f"语法错误 (syntax error): {exc.msg}"
        )
        return scan
    except (ValueError, RecursionError, MemoryError) as exc:
        scan = FileScan(source.path, source.module)
        scan.problem = FileProblem("syntax", 1, 1, f"无法解析 (cannot parse): {exc}")
        return scan
    try:
        return _FileResolver(source, config).run(tree)
    except RecursionError:
        scan = FileScan(source.path, source.module)
        scan.problem = FileProblem(
            "too-deep", 1, 1, "表达式嵌套过深，无法分析 (expressions nested too deeply)"
        )
        return scan
    except Exception as exc:  # a resolver bug on one file must not stop the scan
        scan = FileScan(source.path, source.module)
        scan.problem = FileProblem(
            "internal", 1, 1, f"内部错误 (internal error): {type(exc).__name__}: {exc}"
        )
        return scan


def _read_problem(source: SourceFile, problem: ReadProblem) -> FileScan:
    scan = FileScan(source.path, source.module)
    scan.problem = FileProblem(problem.kind, problem.line, 1, problem.message)
    return scan


def scan_file(source: SourceFile, config: ResolverConfig) -> FileScan:
    """Read, decode and resolve one file; never raises for the file's content."""
    try:
        with open(source.path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return _read_problem(
            source, ReadProblem("unreadable", 1, f"无法读取 (cannot read): {reason}")
        )
    text, problem = decode_source(data)
    if text is None:
        assert problem is not None
        return _read_problem(source, problem)
    return scan_text(text, source, config)
