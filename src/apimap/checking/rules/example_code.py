"""What code in a record may do: the analysis behind the example-code rules (AM261–AM264).

``apimap verify`` runs every code field of a record on the maintainer's machine
and in CI: calls and their setup, example cases, note examples, the ``inputs``
expressions and the ``convert`` / ``paddle_value`` expressions of the rows.
The operating-system sandbox is the real barrier; these rules say, before
anything runs and with a location, what no honest example needs:

* imports (AM261): only the frameworks, the packages records name, and a
  short list of harmless modules; of ``os`` only ``os.path`` (pure path
  functions) and ``os.sep``, of ``io`` the in-memory files and ``open``, of
  ``pathlib`` the path classes, of ``tempfile`` the temporary directories;
  of ``pickle`` only writing (``dump``, ``dumps``: loading a pickle runs
  arbitrary code), of ``tarfile`` and ``gzip`` only ``open`` (the synthetic
  files a dataset reads: CIFAR's pickled batches, VOC's archive);
* dynamic code (AM262): no ``exec``, ``eval``, ``compile``, ``__import__``,
  ``globals`` and the like (``input`` and ``help`` only when called: examples name their
  input Tensor ``input``), and ``getattr`` (``setattr`` …) only with a string
  literal, or a framework's own zero-argument answer such as
  ``getattr(paddle, paddle.get_default_dtype())``;
* internals (AM263): no attribute path into ``os``, ``sys``, ``subprocess``,
  ``socket``, ``shutil``, ``ctypes``, ``importlib``, ``pathlib`` … through any
  module (``torch.serialization.os``, ``tempfile._os``), no dunder attribute or
  name (``__class__``, ``__globals__``, ``__builtins__``) beyond a few harmless
  ones, no frame objects; of the framework modules that run code from outside
  the record (``torch.hub``, ``cpp_extension``) only the members that do not
  (:data:`GATED`), written out from the module;
* files (AM264): ``open``, ``io.open``, ``tarfile.open``, ``gzip.open`` and
  ``pathlib`` paths only inside a
  directory made by ``tempfile`` (``os.path.join(tempfile.mkdtemp(), 'x.pt')``,
  ``pathlib.Path(tempfile.mkdtemp()) / 'x.pt'``): a path is temporary when every
  assignment to its name builds it that way, with literal parts that neither
  start at the root nor climb with ``..``.

Code marked ``needs: foreign_code`` never runs, so none of this applies to it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from apimap.checking.context import RecordContext
from apimap.checking.rules.base import Finding
from apimap.checking.rules.catalog.am232_example_python import walked_code
from apimap.record import derived, pycode
from apimap.record.location import Path
from apimap.record.model import Record, TextRole
from apimap.record.pins import PACKAGE_PINS


class Concern(StrEnum):
    """Which rule an issue belongs to."""

    IMPORT = "import"
    DYNAMIC = "dynamic"
    INTERNAL = "internal"
    FILE = "file"


FRAMEWORKS = frozenset(
    {"torch", "torchvision", "functorch", "paddle", "numpy", "PIL", *PACKAGE_PINS}
)
HARMLESS = frozenset(
    {"math", "cmath", "random", "itertools", "functools", "collections", "copy", "numbers"}
    | {"warnings"}
)
PURE_PATH = frozenset(
    {"join", "basename", "dirname", "exists", "isfile", "isdir", "getsize", "splitext", "split"}
)
RESTRICTED: dict[str, frozenset[str]] = {
    "os": frozenset({"path", "sep", "makedirs", "mkdir", "listdir"}),
    "os.path": PURE_PATH,
    "io": frozenset({"BytesIO", "StringIO", "open"}),
    "pathlib": frozenset({"Path", "PurePath", "PosixPath", "PurePosixPath"}),
    "tempfile": frozenset({"mkdtemp", "gettempdir", "TemporaryDirectory", "NamedTemporaryFile"}),
    "pickle": frozenset({"dump", "dumps", "HIGHEST_PROTOCOL"}),
    "tarfile": frozenset({"open"}),
    "gzip": frozenset({"open"}),
}
"""Modules of which only some members may be used (and imported by name)."""
_TORCH_HUB_CONSTANTS = {"DEFAULT_CACHE_DIR", "MODULE_HUBCONF", "VAR_DEPENDENCY", "READ_DATA_CHUNK"}
_TORCH_BUILD_CONSTANTS = (
    {"ABI_INCOMPATIBILITY_WARNING", "WRONG_COMPILER_WARNING"}
    | {"COMMON_MSVC_FLAGS", "COMMON_NVCC_FLAGS", "COMMON_HIP_FLAGS", "COMMON_HIPCC_FLAGS"}
    | {"IS_WINDOWS", "IS_MACOS", "IS_LINUX", "MINIMUM_GCC_VERSION", "MINIMUM_MSVC_VERSION"}
    | {"TORCH_LIB_PATH", "CUDA_HOME", "ROCM_HOME", "SYCL_HOME"}
)
GATED: dict[str, frozenset[str]] = {
    "torch.hub": frozenset(
        {"get_dir", "set_dir", "download_url_to_file", "load_state_dict_from_url"}
        | {"ENV_TORCH_HOME", "ENV_XDG_CACHE_HOME", "ENV_GITHUB_TOKEN"}
        | _TORCH_HUB_CONSTANTS
    ),
    "paddle.hub": frozenset({"load_state_dict_from_url"}),
    "torch.utils.cpp_extension": frozenset(
        {"CppExtension", "CUDAExtension", "SyclExtension", "include_paths", "library_paths"}
        | {"get_default_build_root", "get_compiler_abi_compatibility_and_version"}
        | {"check_compiler_ok_for_platform", "check_compiler_is_gcc", "get_cxx_compiler"}
        | {"is_ninja_available", "verify_ninja_availability"}
        | _TORCH_BUILD_CONSTANTS
    ),
    "paddle.utils.cpp_extension": frozenset(
        {"CppExtension", "CUDAExtension", "get_build_directory", "IS_WINDOWS", "CUDA_HOME"}
    ),
}
"""Framework modules that can run code from outside a record — a downloaded repository's
``hubconf.py`` (``hub.load``, ``hub.list``, ``hub.help``), C++ compiled and loaded
(``cpp_extension.load``, ``load_inline``, ``setup``, ``BuildExtension``) — of which code that
verify runs may use only these members, each written out from the module (``torch.hub.get_dir()``,
``from torch.hub import get_dir``). Code that needs the others is marked ``needs: foreign_code``
and never runs."""
_GATED_MEMBERS = frozenset().union(*GATED.values())
"""Every member of every :data:`GATED` module: an attribute named otherwise is no gated use."""
ALLOWED_MODULES = FRAMEWORKS | HARMLESS | frozenset(RESTRICTED)

SYSTEM = frozenset(
    {"os", "sys", "subprocess", "socket", "shutil", "ctypes", "ctypeslib", "importlib"}
    | {"pathlib", "builtins", "posix", "nt", "pty", "signal", "runpy", "marshal", "pickle"}
    | {"inspect", "gc", "cpp_extension", "load_library", "hub", "f2py"}
)
"""Attribute names (with or without leading or trailing underscores) that lead to the
operating system, the interpreter's internals or native code, whatever module they hang on."""
FRAMEWORK_MODULES = frozenset({"paddle.signal", "torch.signal"})
"""Framework modules named like a system module (``paddle.signal`` holds ``stft``,
``torch.signal`` window functions, not the operating system's signals): allowed by their
full name only."""
FRAME_ATTRIBUTES = frozenset(
    {"f_globals", "f_locals", "f_builtins", "f_back", "f_code", "gi_frame", "gi_code"}
    | {"cr_frame", "cr_code", "ag_frame", "tb_frame", "tb_next", "func_globals"}
)
HARMLESS_DUNDERS = frozenset(
    {"__init__", "__call__", "__name__", "__doc__", "__version__", "__len__", "__getitem__"}
    | {"__iter__", "__next__", "__enter__", "__exit__"}
)
DYNAMIC = frozenset(
    {"exec", "eval", "compile", "__import__", "breakpoint", "globals", "locals", "vars"}
    | {"input", "help"}
)
COMMON_NAMES = frozenset({"input", "help"})
"""Builtins that examples use as plain variable names (``torch.abs(input)``, ``input.sum()``):
reported only when called."""
ATTRIBUTE_BUILTINS = frozenset({"getattr", "setattr", "delattr", "hasattr"})
OPENERS = frozenset({"open", "io.open", "pathlib.Path", "pathlib.PurePath"}) | frozenset(
    {"pathlib.PosixPath", "pathlib.PurePosixPath", "tarfile.open", "gzip.open"}
)
FOLDER_FUNCTIONS = frozenset({"os.makedirs", "os.mkdir", "os.listdir"})
"""Functions of ``os`` allowed on a temporary folder only."""
PATH_ESCAPES = frozenset({"parent", "parents", "home", "cwd", "expanduser", "readlink"})
TEMP_SOURCES = frozenset({"tempfile.mkdtemp", "tempfile.gettempdir"})
PRELOADED = {"np": "numpy", "torch": "torch", "paddle": "paddle", "torchvision": "torchvision"}
"""Names a worker defines before the code runs."""


@dataclass(frozen=True)
class Issue:
    """Something a record's code may not do, where it is in that code (1-based)."""

    concern: Concern
    line: int
    col: int
    detail: str


@dataclass(frozen=True)
class Piece:
    """One code field: statements, or one expression (``inputs``, ``convert``, ``paddle_value``)."""

    path: Path
    source: str
    expression: bool = False
    setup: str | None = None
    """Setup code that runs before it in the same namespace (its paths count as temporary)."""
    defined: frozenset[str] = frozenset()
    """Names the namespace holds before it runs: the execution's ``inputs``."""


def pieces(record: Record) -> list[Piece]:
    """Every code field of ``record`` that ``apimap verify`` runs (code marked with a need
    that is never run is not: nothing of it executes)."""
    found: list[Piece] = []
    setups: dict[Path, str] = {}
    for index, call in enumerate(record.calls):
        if call.setup is not None:
            setups[("calls", index, "torch")] = call.setup.torch
    executions = derived.executions(record)
    never_run = [where for where, run in executions if run.needs and not run.needs.runs]
    executions = [(where, run) for where, run in executions if where not in never_run]
    for path, role, text in derived.texts(record):
        if any(path[: len(where)] == where for where in never_run):
            continue
        if role is TextRole.CODE:
            defined = next(
                (frozenset(run.inputs) for where, run in executions if path[: len(where)] == where),
                frozenset(),
            )
            found.append(Piece(path, text, setup=setups.get(path), defined=defined))
    for path, execution in executions:
        for name, expression in execution.inputs.items():
            found.append(Piece((*path, "inputs", name), expression, expression=True))
    for index, row in enumerate(record.params):
        for field in ("convert", "paddle_value"):
            value = getattr(row, field)
            if value is not None:
                found.append(Piece(("params", index, field), value, expression=True))
    return found


def record_issues(ctx: RecordContext) -> list[tuple[Path, Issue]]:
    """Every issue of every code field of the record (computed once per record)."""
    return ctx.memo(
        "example_code",
        lambda: [(piece.path, issue) for piece in pieces(ctx.record) for issue in issues(piece)],
    )


def _nodes(source: str, expression: bool) -> list[ast.AST] | None:
    """The nodes of the code's syntax tree in :func:`~apimap.record.pycode.walk`'s order;
    ``None`` when it does not parse."""
    if expression:
        try:
            return pycode.parse_walked(source, "eval")[1]
        except SyntaxError:
            return None
    return walked_code(source)


def issues(piece: Piece) -> list[Issue]:
    """What ``piece`` may not do, in source order (code that does not parse has none here:
    AM232 and AM221 report it)."""
    nodes = _nodes(piece.source, piece.expression)
    if nodes is None:
        return []
    temporary: frozenset[str] = frozenset()
    defined = piece.defined
    if piece.setup is not None:
        setup = _nodes(piece.setup, False)
        if setup is not None:
            before = _Scope(setup, frozenset(), defined)
            temporary = before.temporary
            defined |= frozenset(before.assigned)
    scope = _Scope(nodes, temporary, defined)
    lines = piece.source.split("\n")
    found = [_in_characters(issue, lines) for issue in _Checker(scope).run(nodes)]
    unique = {(issue.line, issue.col, issue.concern, issue.detail): issue for issue in found}
    return [unique[key] for key in sorted(unique)]


def _in_characters(issue: Issue, lines: list[str]) -> Issue:
    """``ast`` counts columns in UTF-8 bytes; positions in the file count characters."""
    if not 0 < issue.line <= len(lines):
        return issue
    prefix = lines[issue.line - 1].encode("utf-8")[: issue.col - 1]
    col = len(prefix.decode("utf-8", errors="ignore")) + 1
    return Issue(issue.concern, issue.line, col, issue.detail)


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _system(name: str) -> bool:
    return name.strip("_") in SYSTEM


def _stays_inside(text: str) -> bool:
    """A piece of a path that neither starts at the root (or home) nor climbs with ``..``."""
    parts = text.replace("\\", "/").split("/")
    return not text.startswith(("/", "~")) and ".." not in parts and "\0" not in text


def _safe_suffix(node: ast.expr) -> bool:
    """A literal appended to a folder's path: ``'/x.pt'``."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return False
    rest = node.value.removeprefix("/")
    return bool(rest) and _stays_inside(rest)


def _one_of(values: list[ast.expr]) -> ast.expr:
    """Stands for "one of ``values``": what a loop binds to its target."""
    return ast.Tuple(elts=values, ctx=ast.Load())


_AN_INTEGER = ast.Constant(0)
_BINDING = frozenset(
    {ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.withitem}
    | {ast.For, ast.AsyncFor, ast.comprehension, ast.arg, ast.FunctionDef}
    | {ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar}
    | {ast.MatchMapping}
)
"""The nodes that bind names (what :meth:`_Scope._bind` reads); a name stored to is counted
apart."""


class _Scope:
    """The names of one snippet: which modules they stand for, which hold temporary paths.

    Only ``name = value``, ``with tempfile.TemporaryDirectory() as name`` and a loop over
    literals (``for name in ['a', 'b']``, ``for i in range(n)``, ``for i, name in
    enumerate([...])``) record values; any other binding of a name (unpacking, an argument, a
    definition, an import) counts as an unknown value, so such a name never holds a temporary
    path nor a safe part of one.
    """

    def __init__(
        self, nodes: list[ast.AST], given: frozenset[str], defined: frozenset[str] = frozenset()
    ) -> None:
        """``nodes``: every node of the snippet (:func:`apimap.record.pycode.walk`)."""
        self.modules: dict[str, str] = dict(PRELOADED)
        self.defined = defined
        """Names bound before the snippet runs (they shadow builtins, hold no known value)."""
        self.assigned: dict[str, list[ast.expr | None]] = {}
        stores: dict[str, int] = {}
        for node in nodes:
            kind = type(node)
            if kind in _BINDING:
                self._bind(node)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores[node.id] = stores.get(node.id, 0) + 1
        for name, count in stores.items():
            values = self.assigned.setdefault(name, [])
            values += [None] * (count - len(values))
        self.temporary = self._temporary(given)

    def _bind(self, node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                self.modules[name] = alias.name if alias.asname else name
                self._unknown(name)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                self.modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                self._unknown(alias.asname or alias.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self._value(target, node.value)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            self._value(node.target, node.value)
        elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            entered = self._made_temporary_directory(node.context_expr)
            self._value(node.optional_vars, _ENTERED if entered else None)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            self._loop(node.target, node.iter)
        else:
            bound = _bound_name(node)
            if bound is not None:
                self._unknown(bound)

    def _loop(self, target: ast.expr, iterable: ast.expr) -> None:
        """Values of a loop's targets when it runs over literals (else nothing: unknown)."""
        if isinstance(iterable, ast.List | ast.Tuple | ast.Set):
            self._value(target, _one_of(iterable.elts))
        elif isinstance(iterable, ast.Call) and _is_name(iterable.func, "range"):
            self._value(target, _AN_INTEGER)
        elif (
            isinstance(iterable, ast.Call)
            and _is_name(iterable.func, "enumerate")
            and len(iterable.args) == 1
            and isinstance(iterable.args[0], ast.List | ast.Tuple)
            and isinstance(target, ast.Tuple)
            and len(target.elts) == 2
        ):
            self._value(target.elts[0], _AN_INTEGER)
            self._value(target.elts[1], _one_of(iterable.args[0].elts))

    def safe_part(self, node: ast.expr) -> bool:
        """A part joined to a temporary folder that stays inside it: a literal, a name that
        only ever holds such literals or integers, or an f-string made of them."""
        if isinstance(node, ast.Constant):
            value = node.value
            text = value if isinstance(value, str) else None
            return isinstance(value, int) or (bool(text) and _stays_inside(text or ""))
        if isinstance(node, ast.Tuple):
            return all(self.safe_part(item) for item in node.elts)
        if isinstance(node, ast.Name):
            values = self.assigned.get(node.id)
            return bool(values) and all(
                value is not None and not isinstance(value, ast.Name) and self.safe_part(value)
                for value in values or []
            )
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                str(part.value) if isinstance(part, ast.Constant) else "x" for part in node.values
            )
            return _stays_inside(text) and all(
                isinstance(part, ast.Constant) or self.safe_part(part.value)
                for part in node.values
                if isinstance(part, ast.Constant | ast.FormattedValue)
            )
        return False

    def _unknown(self, name: str) -> None:
        self.assigned.setdefault(name, []).append(None)

    def _value(self, target: ast.expr, value: ast.expr | None) -> None:
        """One value for a plain name; an unpacking target gets nothing here (its names'
        stores are counted as unknown values)."""
        if isinstance(target, ast.Name):
            self.assigned.setdefault(target.id, []).append(value)

    def _temporary(self, given: frozenset[str]) -> frozenset[str]:
        """Names every value of which is a temporary path (the greatest such set); names that
        setup code made temporary stay so unless this snippet binds them again."""
        candidates = {name for name, values in self.assigned.items() if values}
        candidates |= given - set(self.assigned)
        while True:
            kept = {
                name
                for name in candidates
                if (name in given and name not in self.assigned)
                or all(
                    value is not None and self.is_temporary(value, frozenset(candidates))
                    for value in self.assigned.get(name, [])
                )
            }
            if kept == candidates:
                return frozenset(kept)
            candidates = kept

    def dotted(self, node: ast.expr) -> str | None:
        """``os.path.join`` for a name or attribute path rooted at an imported module."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        if node.id in self.modules:
            root = self.modules[node.id]
        elif node.id == "open" and node.id not in self.assigned and not parts:
            return "open"
        else:
            return None
        return ".".join([root, *reversed(parts)])

    def is_temporary(self, node: ast.expr, names: frozenset[str] | None = None) -> bool:
        """Whether ``node`` is a path inside a directory ``tempfile`` made."""
        names = self.temporary if names is None else names
        if node is _ENTERED:
            return True
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.Attribute):
            return node.attr == "name" and self._made_temporary_directory(node.value)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div):
                return self.is_temporary(node.left, names) and self.safe_part(node.right)
            if isinstance(node.op, ast.Add):
                return self.is_temporary(node.left, names) and _safe_suffix(node.right)
            return False
        if isinstance(node, ast.JoinedStr):
            return self._temporary_fstring(node, names)
        if not isinstance(node, ast.Call) or node.keywords:
            return False
        called = self.dotted(node.func)
        if called in TEMP_SOURCES:
            return not node.args
        if called in ("os.path.join", *OPENERS - {"open", "io.open"}):
            return (
                bool(node.args)
                and self.is_temporary(node.args[0], names)
                and all(self.safe_part(part) for part in node.args[1:])
            )
        if _is_name(node.func, "str") and "str" not in self.assigned:
            return len(node.args) == 1 and self.is_temporary(node.args[0], names)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("joinpath", "with_name"):
            return self.is_temporary(node.func.value, names) and all(
                self.safe_part(part) for part in node.args
            )
        return False

    def _made_temporary_directory(self, node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Call)
            and not node.args
            and not node.keywords
            and self.dotted(node.func) == "tempfile.TemporaryDirectory"
        )

    def _temporary_fstring(self, node: ast.JoinedStr, names: frozenset[str]) -> bool:
        if not node.values:
            return False
        first, rest = node.values[0], node.values[1:]
        if not isinstance(first, ast.FormattedValue) or first.format_spec is not None:
            return False
        tail = [part.value for part in rest if isinstance(part, ast.Constant)]
        return (
            self.is_temporary(first.value, names)
            and len(tail) == len(rest)
            and all(isinstance(part, str) for part in tail)
            and _safe_suffix(ast.Constant("".join(map(str, tail))))
        )


_TEMPFILE_CALLS = frozenset(f"tempfile.{name}" for name in RESTRICTED["tempfile"])
_ENTERED = ast.Constant("")
"""Stands for the value a ``with tempfile.TemporaryDirectory() as d`` block binds."""


def _bound_name(node: ast.AST) -> str | None:
    """The name an argument, a definition, an exception handler or a match pattern binds."""
    if isinstance(node, ast.arg):
        return node.arg
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return node.name
    if isinstance(node, ast.MatchMapping):
        return node.rest
    return None


def _internal_name(name: str) -> bool:
    """A dunder beyond the harmless ones, a frame attribute, or a way to a system module."""
    return (
        (_is_dunder(name) and name not in HARMLESS_DUNDERS)
        or name in FRAME_ATTRIBUTES
        or (_system(name))
    )


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


class _Checker:
    """Walks one snippet and yields its issues."""

    def __init__(self, scope: _Scope) -> None:
        self.scope = scope
        self.gated_uses: set[int] = set()
        """Nodes naming a :data:`GATED` module right before one of its allowed members."""

    def run(self, nodes: list[ast.AST]) -> Iterator[Issue]:
        """The issues of a snippet, given every node of it (:func:`pycode.walk`)."""
        called = {id(node.func) for node in nodes if isinstance(node, ast.Call)}
        bases = {id(node.value) for node in nodes if isinstance(node, ast.Attribute)}
        self.gated_uses = {
            id(node.value)
            for node in nodes
            if isinstance(node, ast.Attribute)
            and node.attr in _GATED_MEMBERS
            and node.attr in GATED.get(self.scope.dotted(node.value) or "", ())
        }
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield from self._import(node)
            elif isinstance(node, ast.Attribute):
                yield from self._attribute(node)
            elif isinstance(node, ast.Name):
                yield from self._name(node, id(node) in called, id(node) in bases)
            elif isinstance(node, ast.Call):
                yield from self._call(node)

    def _import(self, node: ast.Import | ast.ImportFrom) -> Iterator[Issue]:
        if isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                yield _issue(Concern.IMPORT, node, "相对导入 (relative import)")
                return
            yield from self._module(node, node.module)
            members = RESTRICTED.get(node.module, GATED.get(node.module))
            for alias in node.names:
                if alias.name == "*" and members is not None:
                    yield _issue(Concern.IMPORT, node, f"`from {node.module} import *`")
                elif members is not None and alias.name not in members:
                    yield _member(node, f"{node.module}.{alias.name}")
                elif f"{node.module}.{alias.name}" in FRAMEWORK_MODULES:
                    continue
                elif _system(alias.name) or _is_dunder(alias.name):
                    yield _internal(node, alias.name)
            return
        for alias in node.names:
            yield from self._module(node, alias.name)

    def _module(self, node: ast.stmt, module: str) -> Iterator[Issue]:
        root, *rest = module.split(".")
        if root not in ALLOWED_MODULES or (root in RESTRICTED and module not in RESTRICTED):
            yield _issue(
                Concern.IMPORT, node, f"`{module}` 不在允许导入的模块中 (module not allowed)"
            )
        elif module in GATED:
            return
        else:
            for allowed in FRAMEWORK_MODULES:
                if module == allowed or module.startswith(f"{allowed}."):
                    rest = module.removeprefix(allowed).split(".")[1:]
            if any(_system(part) or _is_dunder(part) for part in rest):
                yield _internal(node, next(p for p in rest if _system(p) or _is_dunder(p)))

    def _attribute(self, node: ast.Attribute) -> Iterator[Issue]:
        name = node.attr
        base = self.scope.dotted(node.value)
        if f"{base}.{name}" in FRAMEWORK_MODULES:
            return
        if f"{base}.{name}" in GATED:
            if id(node) not in self.gated_uses:
                yield _gated(node, f"{base}.{name}")
            return
        if base in GATED:
            return  # the member was checked with the module's node
        if _internal_name(name):
            yield _internal(node, name)
            return
        if base in RESTRICTED and name not in RESTRICTED[base]:
            yield _member(node, f"{base}.{name}")
        elif name in PATH_ESCAPES and (
            self.scope.is_temporary(node.value) or (base or "").startswith("pathlib.")
        ):
            yield _issue(
                Concern.FILE, node, f"`.{name}` 离开临时目录 (leaves the temporary directory)"
            )

    def _name(self, node: ast.Name, is_called: bool, is_base: bool) -> Iterator[Issue]:
        name = node.id
        module = self.scope.modules.get(name)
        if module in GATED and (not is_base or id(node) not in self.gated_uses):
            yield _gated(node, module)
            return
        if module in RESTRICTED and not is_base and isinstance(node.ctx, ast.Load):
            yield _issue(
                Concern.IMPORT,
                node,
                f"`{name}` 只能用于访问允许的成员，如 `{name}.{min(RESTRICTED[module])}` "
                "(use it only through its allowed members)",
            )
            return
        if name in self.scope.assigned or name in self.scope.defined or module is not None:
            return
        if name in COMMON_NAMES and not is_called:
            return
        if name in DYNAMIC:
            yield _issue(
                Concern.DYNAMIC,
                node,
                f"`{name}` 可以执行或取得任意代码 (runs or reaches arbitrary code)",
            )
        elif _is_dunder(name):
            yield _internal(node, name)
        elif name in ATTRIBUTE_BUILTINS | {"open"} and not is_called:
            yield _issue(
                Concern.DYNAMIC, node, f"`{name}` 只能直接调用 (may only be called directly)"
            )

    def _call(self, node: ast.Call) -> Iterator[Issue]:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ATTRIBUTE_BUILTINS:
            if func.id not in self.scope.assigned:
                yield from self._attribute_by_name(node, func.id)
            return
        called = self.scope.dotted(func)
        if called in OPENERS | FOLDER_FUNCTIONS:
            path = node.args[0] if node.args else _keyword(node, "file", "path", "name", "filename")
            opened = path is not None and self.scope.is_temporary(path)
            if called.startswith("pathlib."):
                opened = self.scope.is_temporary(node)
            if not opened:
                yield _issue(
                    Concern.FILE,
                    node,
                    f"`{called}` 的路径不在 tempfile 创建的临时目录中 "
                    "(path is not inside a tempfile directory)",
                )
        elif called in _TEMPFILE_CALLS and (node.args or _keyword(node, "dir") is not None):
            yield _issue(
                Concern.FILE,
                node,
                f"`{called}` 只能使用默认的临时目录，不写位置参数与 dir "
                "(only the default temporary folder)",
            )

    def _attribute_by_name(self, node: ast.Call, builtin: str) -> Iterator[Issue]:
        if len(node.args) < 2:
            return
        target, name = node.args[0], node.args[1]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            text = name.value
            base = self.scope.dotted(target)
            if _internal_name(text):
                yield _internal(node, text)
            elif base in RESTRICTED and text not in RESTRICTED[base]:
                yield _member(node, f"{base}.{text}")
            return
        if builtin == "getattr" and self._framework_answer(target, name):
            return
        yield _issue(
            Concern.DYNAMIC,
            node,
            f"`{builtin}` 的属性名须是字符串字面量 (attribute name must be a string literal)",
        )

    def _framework_answer(self, target: ast.expr, name: ast.expr) -> bool:
        """``getattr(paddle, paddle.get_default_dtype())``: a framework module and the answer of
        one of its own functions, called with literal arguments none of which names a system
        module or an internal attribute (``np.str_('os')`` is refused)."""
        if not isinstance(target, ast.Name) or self.scope.modules.get(target.id) not in FRAMEWORKS:
            return False
        if not isinstance(name, ast.Call):
            return False
        arguments = [*name.args, *(keyword.value for keyword in name.keywords)]
        if not all(
            isinstance(argument, ast.Constant)
            and not (isinstance(argument.value, str) and _internal_name(argument.value))
            for argument in arguments
        ):
            return False
        called = self.scope.dotted(name.func)
        return called is not None and called.split(".")[0] in FRAMEWORKS


def _keyword(node: ast.Call, *names: str) -> ast.expr | None:
    return next((kw.value for kw in node.keywords if kw.arg in names), None)


def _issue(concern: Concern, node: ast.AST, detail: str) -> Issue:
    """An issue at ``node`` (at the attribute's name for ``a.b``), column in UTF-8 bytes."""
    if isinstance(node, ast.Attribute) and node.end_lineno and node.end_col_offset:
        attribute = node.end_col_offset - len(node.attr.encode("utf-8"))
        return Issue(concern, node.end_lineno, attribute + 1, detail)
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0) + 1
    return Issue(concern, line, col, detail)


def _internal(node: ast.AST, name: str) -> Issue:
    what = "系统模块或内部属性" if _system(name) else "内部属性"
    return _issue(
        Concern.INTERNAL, node, f"`{name}` 是{what} (reaches the system or interpreter internals)"
    )


def _gated(node: ast.AST, module: str) -> Issue:
    return _issue(
        Concern.INTERNAL,
        node,
        f"`{module}` 只能直接访问不运行外来代码的成员，如 `{module}.{min(GATED[module])}`；"
        "其他成员的代码标 `needs: foreign_code`，验证不运行 "
        "(only members that run no outside code; mark other code needs: foreign_code)",
    )


def _member(node: ast.AST, dotted: str) -> Issue:
    return _issue(Concern.IMPORT, node, f"`{dotted}` 不在允许使用的部分中 (member not allowed)")


def findings(ctx: RecordContext, concern: Concern) -> Iterator[Finding]:
    """The issues of one concern as findings, at their place in the file."""
    for path, issue in record_issues(ctx):
        if issue.concern is concern:
            yield Finding(ctx.doc.text_loc(path, issue.line, issue.col), issue.detail)
