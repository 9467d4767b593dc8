"""Executable parameter maps: derive the paddle side of a call from the record's rows.

A call is torch code that uses the record's API (an expression or a few
statements, with NumPy inputs). Its paddle side is never written by hand: each
use of the API is bound to the torch signature, and every argument goes where
its row says (renamed, converted, dropped, or the paddle default set). A wrong
row therefore makes the derived paddle code fail or differ when verify runs it.

Besides the record's API (its aliases and its in-place variant), a call may use
only the dtypes of :data:`DTYPES`; anything else would need a translation the
record does not state. Everything here is static: no library is imported.
"""

from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from apimap.record import derived, pycode
from apimap.record.categories import Action, ApiType, RowKind
from apimap.record.model import ParamRow, Record
from apimap.record.signature import Param, ParamKind, Signature

DTYPES = {
    "float16": "float16",
    "half": "float16",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float": "float32",
    "float64": "float64",
    "double": "float64",
    "int8": "int8",
    "int16": "int16",
    "short": "int16",
    "int32": "int32",
    "int": "int32",
    "int64": "int64",
    "long": "int64",
    "uint8": "uint8",
    "bool": "bool",
    "complex64": "complex64",
    "cfloat": "complex64",
    "complex128": "complex128",
    "cdouble": "complex128",
}
"""``torch.<name>`` -> ``paddle.<name>``: the only other torch names a call may use."""

RESULT = "result"
"""The name a call that is a single expression assigns its value to."""
LAYER_HOOK = "__apimap_layer__"
"""Wraps every constructed object of a class API (verify copies torch's weights to paddle) and
every call of a function API with literal arguments (a model it returns is made once per job)."""


class CallError(Exception):
    """The call cannot be derived; ``detail`` says why (Chinese with an English gloss)."""

    def __init__(self, detail: str, line: int | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.line = line


@dataclass
class Derived:
    """Both sides of a call, ready to run (the code is written out on first use: the rules
    only need what the call passes)."""

    torch_tree: ast.Module
    paddle_tree: ast.Module
    outputs: list[str]
    """The names compared by default."""
    passed: set[str] = field(default_factory=set)
    """Torch parameters some use of the API passes."""
    set_rows: set[int] = field(default_factory=set)
    """Rows whose paddle setting (a default or a value) the derived code passes."""
    portable: bool = False
    """Paddle's own parameter names only (no torch-style name of ``paddle_accepts``): the
    form every paddle release takes."""
    shared: frozenset[str] = frozenset()
    """Names every run of the call binds the same way (its setup's, when the setup does not
    use the inputs): a construction from them and literals can be copied between runs."""

    hooked: Callable[[], ast.Module] | None = None
    """Makes the torch tree with :data:`LAYER_HOOK` around the API's calls (only verify runs
    the code, so the check never pays for it)."""

    @cached_property
    def torch(self) -> str:
        """The torch code (with the layer hooks, see :attr:`hooked`)."""
        return ast.unparse(self.torch_tree if self.hooked is None else self.hooked())

    @cached_property
    def paddle(self) -> str:
        """The paddle code the rows derive."""
        return ast.unparse(self.paddle_tree)


def _is_member(record: Record) -> bool:
    return record.api_type in {ApiType.METHOD, ApiType.ATTRIBUTE}


def _member_names(record: Record) -> dict[str, str]:
    names = {record.torch_api.rsplit(".", 1)[-1]: "api"}
    for alias in record.torch_aliases:
        names[alias.rsplit(".", 1)[-1]] = "api"
    if record.inplace is not None:
        names[record.inplace.torch.rsplit(".", 1)[-1]] = "inplace"
    return names


def _full_names(record: Record) -> dict[str, str]:
    names = {record.torch_api: "api", **dict.fromkeys(record.torch_aliases, "api")}
    if record.inplace is not None:
        names[record.inplace.torch] = "inplace"
    return names


def parse_call(code: str) -> ast.Module:
    """The call's syntax tree; a single expression becomes ``result = <expression>``."""
    try:
        tree = pycode.parse_module(code)
    except SyntaxError as exc:
        reason = exc.msg if isinstance(exc, pycode.CodeTooComplex) else type(exc).__name__
        raise CallError(f"不是合法的 Python (not valid Python)：{reason}", exc.lineno) from None
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
        value = tree.body[0].value
        assign = ast.Assign(targets=[ast.Name(RESULT, ast.Store())], value=value)
        tree.body = [ast.copy_location(assign, tree.body[0])]
        ast.fix_missing_locations(tree)
    return tree


def other_torch_names(record: Record, tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Torch names the call uses besides the API and the dtypes (with their lines)."""
    allowed = set(_full_names(record)) | {f"torch.{name}" for name in DTYPES}
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            name = pycode.dotted_name(node)
            if name is not None and name.startswith("torch.") and id(node) not in inside:
                for child in ast.walk(node):
                    inside.add(id(child))
                if name not in allowed:
                    yield name, node.lineno
        elif isinstance(node, ast.Name) and node.id == "torch" and id(node) not in inside:
            yield "torch", node.lineno
        elif isinstance(node, ast.Import | ast.ImportFrom):
            yield "import", node.lineno


def derive(
    record: Record,
    code: str,
    naive: bool = False,
    portable: bool = False,
    shared: frozenset[str] = frozenset(),
) -> Derived:
    """The torch and the paddle code of a call; raises :class:`CallError`.

    With ``naive``, arguments the torch code passes by position stay where they are
    (only the API name changes, and keywords are renamed): what a person migrating by
    hand writes, which the positional probe runs. With ``portable``, every keyword is
    paddle's own parameter name, never a torch-style name paddle only accepts in newer
    releases (``paddle_accepts``). ``shared`` names what the call's setup binds the same way
    in every run (see :func:`hooked`).
    """
    tree = parse_call(code)
    for name, line in other_torch_names(record, tree):
        raise CallError(
            f"调用中只能使用本 API 与 dtype，不能使用 `{name}` (a call uses only this API)", line
        )
    # each side transforms a tree of its own; parsing again is far cheaper than a deep copy
    state = Derived(tree, parse_call(code), assigned(tree), portable=portable, shared=shared)
    translator = _Translator(record, state, naive)
    paddle_tree = translator.visit(state.paddle_tree)
    if translator.count == 0:
        raise CallError(f"没有调用 `{record.torch_api}` (the code does not use the API)")
    if record.api_type in _HOOKED:
        state.hooked = functools.partial(_hooked_tree, record, code, state.shared)
    state.paddle_tree = paddle_tree
    return state


def drop_in(record: Record, code: str, api: str, shared: frozenset[str] = frozenset()) -> Derived:
    """A call with only the API's name changed to ``api`` (its arguments as torch takes them),
    as for a paddle API that takes the torch call unchanged; raises :class:`CallError`."""
    tree = parse_call(code)
    for name, line in other_torch_names(record, tree):
        raise CallError(
            f"调用中只能使用本 API 与 dtype，不能使用 `{name}` (a call uses only this API)", line
        )
    state = Derived(tree, parse_call(code), assigned(tree), shared=shared)
    translator = _Translator(record, state, False, drop_in=api)
    paddle_tree = translator.visit(state.paddle_tree)
    if translator.count == 0:
        raise CallError(f"没有调用 `{record.torch_api}` (the code does not use the API)")
    if record.api_type in _HOOKED:
        state.hooked = functools.partial(_hooked_tree, record, code, state.shared)
    state.paddle_tree = paddle_tree
    return state


def derived_calls(record: Record) -> list[Derived | CallError]:
    """Every call of the record derived (or why it cannot be), in order."""
    found: list[Derived | CallError] = []
    for call in record.calls:
        try:
            found.append(derive(record, call.torch))
        except CallError as exc:
            found.append(exc)
    return found


def assigned(tree: ast.Module) -> list[str]:
    """Names bound by module-level assignments, in order of first appearance; assignments
    inside ``with``, ``if``, ``for``, ``while`` and ``try`` blocks count (they bind module
    names), those inside functions and classes do not."""
    seen: dict[str, None] = {}
    for statement in _module_level(tree.body):
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = list(statement.targets)
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
            targets = [statement.target]
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    seen.setdefault(node.id)
    return list(seen)


_BLOCKS = (ast.With, ast.If, ast.For, ast.While, ast.Try)


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for statement in body:
        yield statement
        if isinstance(statement, _BLOCKS):
            yield from _module_level(statement.body)
            for handler in getattr(statement, "handlers", []):
                yield from _module_level(handler.body)
            yield from _module_level(getattr(statement, "orelse", []))
            yield from _module_level(getattr(statement, "finalbody", []))


_HOOKED = frozenset({ApiType.CLASS, ApiType.FUNCTION})
"""The kinds of API whose calls go through :data:`LAYER_HOOK`: a class's constructions
(:func:`hooked`), a function's calls with literal arguments (:func:`reused`)."""


def _hook(record: Record, call: ast.expr, index: int, shared: frozenset[str]) -> ast.expr:
    if record.api_type is ApiType.CLASS:
        return hooked(call, index, shared)
    return reused(call, index)


def _hooked_tree(record: Record, code: str, shared: frozenset[str]) -> ast.Module:
    """The call's torch tree with the layer hooks (a function of the call's text, so that the
    derived call holds no reference back to itself)."""
    return _hook_layers(record, parse_call(code), shared)


def _hook_layers(record: Record, tree: ast.Module, shared: frozenset[str]) -> ast.Module:
    """Pass every call of the API through :data:`LAYER_HOOK` (changes ``tree``)."""
    full = _full_names(record)

    class Hook(ast.NodeTransformer):
        def __init__(self) -> None:
            self.index = 0

        def visit_Call(self, node: ast.Call) -> ast.expr:
            self.generic_visit(node)
            if pycode.dotted_name(node.func) not in full:
                return node
            self.index += 1
            return _hook(record, node, self.index, shared)

    result = Hook().visit(tree)
    assert isinstance(result, ast.Module)
    return result


_INVARIANT_BUILTINS = frozenset(
    {"tuple", "list", "dict", "set", "int", "float", "bool", "str", "len"}
)
"""Builtins whose result depends on their arguments only."""
_INVARIANT_NODES = (
    ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Subscript, ast.Slice, ast.IfExp,
    ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Attribute, ast.Name, ast.Call,
    ast.keyword, ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop,
)  # fmt: skip
_LIBRARIES = frozenset({"torch", "paddle", "torchvision"})


def _same_every_run(node: ast.expr, shared: frozenset[str]) -> bool:
    """An argument with the same value in every run of a call: made of constants, ``shared``
    names, the libraries' own names (a dtype, a block class) and what the rows' conversions
    compute from them (``{(2, 2, 2, 2): 18}[tuple(layers)]``, ``A if B.expansion == 4 else C``),
    with no input, no starred argument and no call but a few pure builtins."""
    known = shared | _LIBRARIES | _INVARIANT_BUILTINS
    for part in pycode.walk(node):
        if not isinstance(part, _INVARIANT_NODES):
            return False
        if isinstance(part, ast.Name) and part.id not in known:
            return False
        if isinstance(part, ast.Call) and not (
            isinstance(part.func, ast.Name) and part.func.id in _INVARIANT_BUILTINS
        ):
            return False
        if isinstance(part, ast.keyword) and part.arg is None:
            return False
    return True


def _arguments_same_every_run(call: ast.Call, shared: frozenset[str]) -> bool:
    """Every argument of ``call`` is :func:`_same_every_run` (none starred or ``**``-spread)."""
    return all(
        not isinstance(arg, ast.Starred) and _same_every_run(arg, shared) for arg in call.args
    ) and all(kw.arg is not None and _same_every_run(kw.value, shared) for kw in call.keywords)


def hooked(construction: ast.expr, index: int, shared: frozenset[str] = frozenset()) -> ast.expr:
    """A construction of the class API passed through :data:`LAYER_HOOK`. One whose arguments
    are the same in every run (:func:`_same_every_run`) becomes
    ``__apimap_layer__.build(index, key, Class, *args, **kwargs)``,
    so that a job building it again (the probes of a call) copies the first object instead
    (a VGG takes seconds to build); any other becomes ``__apimap_layer__(Class(...), index)``."""
    if isinstance(construction, ast.Call) and _arguments_same_every_run(construction, shared):
        key = ast.unparse(construction)
        return ast.Call(
            ast.Attribute(ast.Name(LAYER_HOOK, ast.Load()), "build", ast.Load()),
            [ast.Constant(index), ast.Constant(key), construction.func, *construction.args],
            construction.keywords,
        )
    return ast.Call(ast.Name(LAYER_HOOK, ast.Load()), [construction, ast.Constant(index)], [])


def reused(call: ast.expr, index: int) -> ast.expr:
    """A call of the function API whose arguments are literals and the libraries' own names
    (``torchvision.models.vgg16(weights=None)``) becomes
    ``__apimap_layer__.reuse(index, key, function, *args, **kwargs)``: when what it returns is
    a layer, a job calling it again (the probes of a call) copies the first one instead (a
    VGG takes a second to build on each side). Any other call is left as it is."""
    if not isinstance(call, ast.Call) or not _arguments_same_every_run(call, frozenset()):
        return call
    return ast.Call(
        ast.Attribute(ast.Name(LAYER_HOOK, ast.Load()), "reuse", ast.Load()),
        [ast.Constant(index), ast.Constant(ast.unparse(call)), call.func, *call.args],
        call.keywords,
    )


def _paddle_target(record: Record, variant: str) -> str:
    if variant == "inplace":
        assert record.inplace is not None
        return record.inplace.paddle
    if record.paddle_api is None:
        raise CallError("记录没有 paddle_api，无法推导调用 (no paddle API to call)")
    return record.paddle_api


def _paddle_is_member(api: str) -> bool:
    parts = api.split(".")
    return len(parts) >= 3 and parts[-2][:1].isupper()


def _name_node(dotted: str) -> ast.expr:
    parts = dotted.split(".")
    node: ast.expr = ast.Name(parts[0], ast.Load())
    for part in parts[1:]:
        node = ast.Attribute(node, part, ast.Load())
    return node


def _expression(text: str, what: str) -> ast.expr:
    try:
        return pycode.parse_expression(text)
    except SyntaxError:
        raise CallError(f"{what} 不是合法的 Python 表达式 (not a Python expression)") from None


class _Translator(ast.NodeTransformer):
    """Replace every use of the API by its paddle counterpart, bottom-up."""

    def __init__(
        self, record: Record, state: Derived, naive: bool, drop_in: str | None = None
    ) -> None:
        self.record = record
        self.state = state
        self.naive = naive
        self.drop_in = drop_in
        """Another paddle API that takes the torch arguments unchanged: only the name goes."""
        self.full = _full_names(record)
        self.members = _member_names(record) if _is_member(record) else {}
        self.count = 0
        self.hooks = 0

    def _variant(self, node: ast.expr) -> tuple[str, ast.expr | None] | None:
        if not isinstance(node, ast.Attribute):
            return None
        name = pycode.dotted_name(node)
        if name in self.full:
            return self.full[name], None
        if node.attr in self.members and not (pycode.dotted_name(node.value) or "").startswith(
            "torch"
        ):
            return self.members[node.attr], node.value
        return None

    def visit_Call(self, node: ast.Call) -> ast.expr:
        found = self._variant(node.func)
        if found is None:
            self.generic_visit(node)
            return node
        node.args = [self.visit(arg) for arg in node.args]
        for keyword in node.keywords:
            keyword.value = self.visit(keyword.value)
        self.count += 1
        variant, receiver = found
        if receiver is not None:
            receiver = self.visit(receiver)
        if self.drop_in is not None:
            translated: ast.expr = ast.Call(
                _renamed_reference(_drop_in_variant(self.drop_in, variant), receiver),
                node.args,
                node.keywords,
            )
        else:
            translated = _translate_call(
                self.record, self.state, node, variant, receiver, self.naive
            )
        kind = self.record.api_type
        if kind is ApiType.CLASS or (kind is ApiType.FUNCTION and receiver is None):
            self.hooks += 1
            return _hook(self.record, translated, self.hooks, self.state.shared)
        return translated

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        found = self._variant(node)
        if found is None:
            if pycode.dotted_name(node) is not None and (pycode.dotted_name(node) or "").startswith(
                "torch."
            ):
                dtype = (pycode.dotted_name(node) or "").removeprefix("torch.")
                if dtype in DTYPES:
                    return _name_node(f"paddle.{DTYPES[dtype]}")
            self.generic_visit(node)
            return node
        self.count += 1
        variant, receiver = found
        if receiver is not None:
            receiver = self.visit(receiver)
        if self.drop_in is not None:
            return _renamed_reference(_drop_in_variant(self.drop_in, variant), receiver)
        return _translate_reference(self.record, variant, receiver)


def _drop_in_variant(api: str, variant: str) -> str:
    """The drop-in API for a use of the torch API's ``variant``: its in-place form (paddle's
    trailing underscore) for the in-place torch API, so that ``x.clamp_`` stays in place."""
    return f"{api}_" if variant == "inplace" else api


def _renamed_reference(api: str, receiver: ast.expr | None) -> ast.expr:
    """``api`` in place of the torch API: a member of the receiver, or the name itself."""
    if receiver is not None and _paddle_is_member(api):
        return ast.Attribute(receiver, api.rsplit(".", 1)[-1], ast.Load())
    return _name_node(api)


def _translate_reference(record: Record, variant: str, receiver: ast.expr | None) -> ast.expr:
    """A use that is not called: a constant, an attribute, or a function passed on."""
    target = _paddle_target(record, variant)
    if receiver is None:
        return _name_node(target)
    name = target.rsplit(".", 1)[-1]
    if _paddle_is_member(target):
        access: ast.expr = ast.Attribute(receiver, name, ast.Load())
        if record.paddle_signature is not None:
            return ast.Call(access, [], [])
        return access
    return ast.Call(_name_node(target), [receiver], [])


def _translate_call(
    record: Record,
    state: Derived,
    node: ast.Call,
    variant: str,
    receiver: ast.expr | None,
    naive: bool,
) -> ast.expr:
    target = _paddle_target(record, variant)
    bound = bind(record, node)
    state.passed |= set(bound.values)
    if naive:
        keyword_names = {keyword.arg for keyword in node.keywords}
        by_keyword = {k: v for k, v in bound.values.items() if k.lstrip("*") in keyword_names}
        keyword_bound = Bound(bound.signature, by_keyword, [])
        positional, keywords = _paddle_arguments(
            record, state, keyword_bound, node, variant, passed=bound
        )
        positional = [*_kept_in_place(record, bound, node), *positional]
    else:
        positional, keywords = _paddle_arguments(record, state, bound, node, variant)
    if receiver is not None and _paddle_is_member(target):
        name = target.rsplit(".", 1)[-1]
        func: ast.expr = ast.Attribute(receiver, name, ast.Load())
        if record.paddle_signature is None:
            if positional or keywords:
                raise CallError(
                    f"`{target}` 是属性，不接受参数 (paddle side is an attribute)", node.lineno
                )
            return func
    elif receiver is not None:
        func = _name_node(target)
        positional = [receiver, *positional]
    elif _paddle_is_member(target):
        raise CallError(
            f"函数映射为 Paddle 方法 `{target}` 时无法推导调用 (function to method)", node.lineno
        )
    else:
        func = _name_node(target)
    return ast.Call(func, positional, keywords)


def _kept_in_place(record: Record, bound: Bound, node: ast.Call) -> list[ast.expr]:
    """Positional arguments as a person migrating by hand keeps them: in place, converted
    where the row says how, left out where the row says to delete them (later ones move up)."""
    kept: list[ast.expr] = []
    by_position = {
        id(value): name for name, value in bound.values.items() if isinstance(value, ast.expr)
    }
    for arg in node.args:
        row = derived.row_for(record, by_position.get(id(arg), ""))
        if row is not None and _deleted(row):
            continue
        if row is not None and row.convert is not None:
            kept.append(_substitute(_expression(row.convert, "convert"), arg))
        else:
            kept.append(arg)
    return kept


def _deleted(row: ParamRow) -> bool:
    """A torch-only row whose remark says 可直接删除."""
    return derived.row_kind(row) is RowKind.TORCH_ONLY and row.action is Action.DELETE


@dataclass
class Bound:
    """The arguments of one use, by torch parameter (spelled as rows spell them)."""

    signature: Signature
    values: dict[str, ast.expr | list[ast.expr] | dict[str, ast.expr]]
    positional: list[str]
    """Parameters passed by position, in order."""


_TENSOR_NAMES = frozenset(
    {"input", "other", "tensor", "tensors", "x", "y", "vec", "vec2", "mat1", "mat2", "weight"}
)
_NUMBER_NAMES = frozenset(
    {"self", "dim", "dims", "axis", "k", "n", "chunks", "dim0", "dim1", "start_dim", "end_dim"}
)
"""Parameter names that usually take a tensor, or a number (``self`` of ``pow(self, exponent)``
is the number overload)."""


def _fit(bound: Bound) -> int:
    """How well the arguments' look fits the overload: names of inputs go to tensor parameters,
    literal numbers to number parameters."""
    score = 0
    for name, value in bound.values.items():
        if not isinstance(value, ast.expr):
            continue
        number = isinstance(value, ast.Constant) or (
            isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant)
        )
        if isinstance(value, ast.Name):
            score += (name in _TENSOR_NAMES) - (name in _NUMBER_NAMES)
        elif number:
            score += name in _NUMBER_NAMES
    return score


def bind(record: Record, node: ast.Call) -> Bound:
    """Bind a call's arguments to the torch overload that accepts them and fits them best (the
    first one on a tie)."""
    if any(isinstance(arg, ast.Starred) for arg in node.args) or any(
        keyword.arg is None for keyword in node.keywords
    ):
        raise CallError("调用中不能使用 * 或 ** 展开实参 (no unpacking in calls)", node.lineno)
    overloads = [sig for text in record.torch_overloads if (sig := derived.parse(text))]
    if not overloads:
        if node.args or node.keywords:
            raise CallError("没有可解析的 PyTorch 签名 (no parsable torch signature)", node.lineno)
        return Bound(Signature(record.torch_api, ()), {}, [])
    errors: list[str] = []
    found: list[Bound] = []
    for signature in overloads:
        try:
            found.append(_bind_one(signature, node))
        except CallError as exc:
            errors.append(exc.detail)
    if not found:
        raise CallError(errors[0], node.lineno)
    return max(found, key=_fit)


def _bind_one(signature: Signature, node: ast.Call) -> Bound:
    args = list(node.args)
    keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
    values: dict[str, ast.expr | list[ast.expr] | dict[str, ast.expr]] = {}
    positional: list[str] = []
    index = 0
    for param in signature.params:
        if param.kind in {ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD}:
            if index < len(args):
                if param.name in keywords and param.kind is ParamKind.POSITIONAL_OR_KEYWORD:
                    raise CallError(f"`{param.name}` 传了两次 (passed twice)")
                values[param.spelled] = args[index]
                positional.append(param.spelled)
                index += 1
            elif param.kind is ParamKind.POSITIONAL_OR_KEYWORD and param.name in keywords:
                values[param.spelled] = keywords.pop(param.name)
            elif param.default is None:
                raise CallError(f"缺少必需的 `{param.name}` (missing a required argument)")
        elif param.kind is ParamKind.VAR_POSITIONAL:
            if index < len(args):
                values[param.spelled] = args[index:]
                positional.append(param.spelled)
                index = len(args)
        elif param.kind is ParamKind.KEYWORD_ONLY:
            if param.name in keywords:
                values[param.spelled] = keywords.pop(param.name)
            elif param.default is None:
                raise CallError(f"缺少必需的 `{param.name}` (missing a required argument)")
        elif param.kind is ParamKind.VAR_KEYWORD and keywords:
            values[param.spelled] = dict(keywords)
            keywords = {}
    if index < len(args):
        raise CallError(f"位置实参多于 `{signature.api}` 的参数 (too many positional arguments)")
    if keywords:
        raise CallError(f"`{signature.api}` 没有参数 `{next(iter(keywords))}` (no such parameter)")
    return Bound(signature, values, positional)


def _substitute(template: ast.expr, value: ast.expr) -> ast.expr:
    class Replace(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return copy.deepcopy(value) if node.id == "value" else node

    result = Replace().visit(copy.deepcopy(template))
    assert isinstance(result, ast.expr)
    return result


def _row(record: Record, name: str, line: int) -> ParamRow:
    row = derived.row_for(record, name)
    if row is not None:
        return row
    raise CallError(f"`{name}` 没有参数映射行 (no row for it)", line)


def _paddle_arguments(
    record: Record,
    state: Derived,
    bound: Bound,
    node: ast.Call,
    variant: str = "",
    passed: Bound | None = None,
) -> tuple[list[ast.expr], list[ast.keyword]]:
    """Paddle's arguments for the torch arguments in ``bound``; ``passed`` is every argument
    the call passes (also those kept in place), which no default setting may repeat."""
    positional: list[ast.expr] = []
    keywords: list[ast.keyword] = []
    for name, value in bound.values.items():
        row = _row(record, name, node.lineno)
        kind = derived.row_kind(row)
        targets = _targets(record, row, variant, state.portable)
        if kind is RowKind.TORCH_ONLY:
            if row.action is Action.DELETE:
                continue
            raise CallError(
                f"`{name}` 在 Paddle 中没有对应参数，需要转写：调用中不要传它，用转写示例说明 "
                "(a torch-only argument cannot be derived)",
                node.lineno,
            )
        if kind in {RowKind.TYPE_DIFF, RowKind.USAGE_DIFF}:
            if row.convert is None:
                raise CallError(
                    f"`{name}` 的用法不一致，无法推导：写 convert，或调用中不传它 "
                    "(an inconsistent argument needs convert)",
                    node.lineno,
                )
            if isinstance(value, dict):
                raise CallError("不能转换 **kwargs (cannot convert **kwargs)", node.lineno)
            argument = value if isinstance(value, ast.expr) else ast.Tuple(list(value), ast.Load())
            converted = _substitute(_expression(row.convert, "convert"), argument)
            for target in targets:
                if target.startswith("**"):
                    keywords.append(ast.keyword(None, copy.deepcopy(converted)))
                elif target.startswith("*"):  # the converted value is a sequence of arguments
                    positional.append(ast.Starred(copy.deepcopy(converted), ast.Load()))
                else:
                    keywords.append(ast.keyword(target, copy.deepcopy(converted)))
            continue
        if isinstance(value, list):
            if any(target.startswith("*") for target in targets):
                positional += value
                continue
            if name in record.paddle_accepts:
                if state.portable:  # the real parameter takes the values as one sequence
                    keywords.append(ast.keyword(targets[0], _one_sequence(value)))
                else:
                    positional += value
                continue
            raise CallError(
                f"`{name}` 是可变参数，Paddle 的 `{targets[0]}` 不接受可变写法：写 convert "
                "(varargs need convert)",
                node.lineno,
            )
        if isinstance(value, dict):
            keywords += [ast.keyword(key, item) for key, item in value.items()]
            continue
        if _positional_only(record, targets):
            positional.append(value)
            continue
        for target in targets:
            if target.startswith("**"):  # paddle takes it through **kwargs, by its torch name
                keywords.append(ast.keyword(name.lstrip("*"), copy.deepcopy(value)))
            elif target.startswith("*"):
                positional.append(copy.deepcopy(value))
            else:
                keywords.append(ast.keyword(target, copy.deepcopy(value)))
    keywords += _settings(record, state, passed or bound, node.lineno, variant)
    names = [keyword.arg for keyword in keywords if keyword.arg is not None]
    if len(names) != len(set(names)):
        repeated = next(name for name in names if names.count(name) > 1)
        raise CallError(
            f"两个参数都要传给 Paddle 的 `{repeated}`，无法推导 (two arguments go to one paddle "
            "parameter)",
            node.lineno,
        )
    if positional:
        positional, keywords = _before_varargs(record, positional, keywords)
    return positional, keywords


def _one_sequence(values: list[ast.expr]) -> ast.expr:
    """Varargs as the one sequence paddle's parameter takes: ``view(2, 3)`` -> ``[2, 3]``;
    a single argument that is not a number (``view((2, 3))``, ``view(shape)``) is already
    the sequence, as torch takes it too."""
    if len(values) == 1:
        only = values[0]
        number = isinstance(only, ast.Constant) or (
            isinstance(only, ast.UnaryOp) and isinstance(only.operand, ast.Constant)
        )
        if not number:
            return only
    return ast.List(list(values), ast.Load())


def _before_varargs(
    record: Record, positional: list[ast.expr], keywords: list[ast.keyword]
) -> tuple[list[ast.expr], list[ast.keyword]]:
    """Arguments passed by position fill paddle's parameters from the first: a parameter
    before ``*args`` (``einsum(equation, *operands)``) must then come by position too."""
    signature = derived.parse(record.paddle_overloads[0]) if record.paddle_overloads else None
    if signature is None:
        return positional, keywords
    before: list[str] = []
    for param in signature.params:
        if param.kind is ParamKind.VAR_POSITIONAL:
            break
        before.append(param.name)
    else:
        return positional, keywords
    by_name = {keyword.arg: keyword for keyword in keywords if keyword.arg in before}
    names = [name for name in before if name in by_name]
    if names != before[: len(names)]:
        return positional, keywords  # a gap: positions cannot be filled in order
    rest = [keyword for keyword in keywords if keyword.arg not in by_name]
    return [*(by_name[name].value for name in names), *positional], rest


def _targets(record: Record, row: ParamRow, variant: str, portable: bool = False) -> list[str]:
    """The row's paddle names; the in-place variant and the portable form get the real
    parameter names (the torch-style names ``paddle_accepts`` lists are accepted by the API
    itself only, and only by newer releases)."""
    names = derived.paddle_names(row)
    if variant != "inplace" and not portable:
        return names
    return [record.paddle_accepts.get(name, name) for name in names]


_CONVERTED = {RowKind.TYPE_DIFF, RowKind.USAGE_DIFF}


def _positional_only(record: Record, targets: list[str]) -> bool:
    if len(targets) != 1:
        return False
    param = derived.paddle_param(record, targets[0])
    return param is not None and param.kind is ParamKind.POSITIONAL_ONLY


def _settings(
    record: Record, state: Derived, bound: Bound, line: int, variant: str = ""
) -> list[ast.keyword]:
    """Paddle parameters set so that paddle behaves as torch: default_diff and paddle_value."""
    out: list[ast.keyword] = []
    for index, row in enumerate(record.params):
        kind = derived.row_kind(row)
        torch_side = derived.torch_names(row)
        targets = _targets(record, row, variant, state.portable)
        value: ast.expr | None = None
        passed = any(name in bound.values for name in torch_side)
        if kind is RowKind.PADDLE_ONLY and row.paddle_value is not None:
            value = _expression(row.paddle_value, "paddle_value")
        elif kind is RowKind.DEFAULT_DIFF and not passed:
            value = _default_value(row, bound.signature, line)
        elif kind in _CONVERTED and not passed and row.paddle_value is not None:
            value = _expression(row.paddle_value, "paddle_value")
        if value is None:
            continue
        state.set_rows.add(index)
        out += [ast.keyword(target, copy.deepcopy(value)) for target in targets]
    return out


def _default_value(row: ParamRow, signature: Signature, line: int) -> ast.expr | None:
    if row.paddle_value is not None:
        return _expression(row.paddle_value, "paddle_value")
    names = derived.torch_names(row)
    param: Param | None = next(
        (signature.find(name) for name in names if signature.find(name)), None
    )
    if param is None or param.default is None:
        return None
    value = _expression(param.default, "PyTorch 默认值")
    if any(isinstance(node, ast.Name) for node in ast.walk(value)):
        raise CallError(
            f"`{names[0]}` 的 PyTorch 默认值 `{param.default}` 不能直接用于 Paddle：写 paddle_value "
            "(write the paddle value)",
            line,
        )
    return value


def positional_form(record: Record, code: str) -> str | None:
    """The call with every argument that torch accepts by position passed by position.

    Parameters skipped before a passed one get their torch default, when it is a
    literal. ``None`` when no use of the API would have two or more positional arguments.
    """
    tree = parse_call(code)
    full = _full_names(record)
    members = _member_names(record) if _is_member(record) else {}
    changed = False

    class Rewrite(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.expr:
            self.generic_visit(node)
            func = node.func
            is_use = isinstance(func, ast.Attribute) and (
                pycode.dotted_name(func) in full
                or (
                    func.attr in members
                    and not (pycode.dotted_name(func.value) or "").startswith("torch")
                )
            )
            if not is_use:
                return node
            nonlocal changed
            rewritten = _positional_call(record, node)
            if rewritten is not None and len(rewritten.args) >= 2:
                changed = True
                return rewritten
            return node

    result = Rewrite().visit(tree)
    if not changed:
        return None
    ast.fix_missing_locations(result)
    return ast.unparse(result)


def _positional_call(record: Record, node: ast.Call) -> ast.Call | None:
    try:
        bound = bind(record, node)
    except CallError:
        return None
    positional: list[ast.expr] = []
    pending: list[ast.expr] = []
    used: set[str] = set()
    for param in bound.signature.params:
        if param.kind is ParamKind.VAR_POSITIONAL:
            value = bound.values.get(param.spelled)
            if isinstance(value, list):
                positional += pending + value
                pending = []
                used.add(param.spelled)
            break
        if param.kind not in {ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD}:
            break
        value = bound.values.get(param.spelled)
        if isinstance(value, ast.expr):
            positional += [*pending, value]
            pending = []
            used.add(param.spelled)
            continue
        default = _literal_default(param)
        if default is None:
            break
        pending.append(default)
    keywords = [
        ast.keyword(name, value)
        for name, value in bound.values.items()
        if name not in used and isinstance(value, ast.expr)
    ]
    return ast.Call(node.func, positional, keywords)


def _literal_default(param: Param) -> ast.expr | None:
    if param.default is None:
        return None
    try:
        node = pycode.parse_expression(param.default)
        ast.literal_eval(node)
    except (SyntaxError, ValueError):
        return None
    return node


SCALARS = {"scalar": 0.5, "int_scalar": 2}
"""The Python numbers the scalar probes pass in place of a tensor argument."""
_NOT_SCALAR = frozenset({"out"})
"""Parameters that take a tensor to write into: a number there tells nothing."""


def scalar_forms(record: Record, code: str, arrays: set[str]) -> list[tuple[str, str, str]]:
    """``(probe kind, parameter, code)`` for every argument that is one of the ``arrays``
    inputs, passed instead as a Python float or int."""
    tree = parse_call(code)
    full = _full_names(record)
    members = _member_names(record) if _is_member(record) else {}
    found: list[tuple[str, str, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        if not (
            pycode.dotted_name(func) in full
            or (
                func.attr in members
                and not (pycode.dotted_name(func.value) or "").startswith("torch")
            )
        ):
            continue
        try:
            bound = bind(record, node)
        except CallError:
            continue
        for param, value in bound.values.items():
            if param in _NOT_SCALAR or not (isinstance(value, ast.Name) and value.id in arrays):
                continue
            for kind, number in SCALARS.items():
                original = value.id
                value.id = f"__apimap_{kind}__"
                text = ast.unparse(tree).replace(value.id, repr(number))
                value.id = original
                found.append((kind, param, text))
    return found


# --- parameters the call leaves at their defaults (probes) ------------------------------------

NOT_VARIED = frozenset(
    {
        "out",
        "dtype",
        "device",
        "layout",
        "pin_memory",
        "requires_grad",
        "memory_format",
        "generator",
        "name",
        "non_blocking",
        "foreach",
        "fused",
        "capturable",
        "differentiable",
        "verbose",
    }
)
"""Parameters whose other values change where or how the work is done, not what it computes
(or that need a device this machine lacks): the probes leave them alone."""

MODE_VALUES: dict[str, tuple[str, ...]] = {
    "reduction": ("none", "mean", "sum"),
    "padding_mode": ("zeros", "reflect", "replicate", "circular"),
    "mode": (
        "nearest",
        "linear",
        "bilinear",
        "bicubic",
        "trilinear",
        "area",
        "nearest-exact",
        "constant",
        "reflect",
        "replicate",
        "circular",
        "zeros",
        "border",
        "reflection",
        "fan_in",
        "fan_out",
        "max",
        "mean",
        "sum",
    ),
    "approximate": ("none", "tanh"),
    "nonlinearity": ("tanh", "relu", "linear", "sigmoid", "leaky_relu"),
    "norm": ("backward", "ortho", "forward"),
    "rounding_mode": ("trunc", "floor"),
    "side": ("left", "right"),
    "interpolation": ("linear", "lower", "higher", "midpoint", "nearest"),
    "padding": ("same", "valid"),
    "anneal_strategy": ("cos", "linear"),
    "threshold_mode": ("rel", "abs"),
    "scale_mode": ("cycle", "iterations"),
}
"""The documented values of common mode parameters (torch rejects the ones an API lacks, and a
probe torch rejects tells nothing)."""


def _other_value(param: Param) -> tuple[str, list[ast.Constant]] | None:
    """The probe family and the values other than the default for one parameter: a flipped
    boolean, another number, or the other documented modes; ``None`` when none is known."""
    if param.default is None or param.name in NOT_VARIED:
        return None
    try:
        default = ast.literal_eval(pycode.parse_expression(param.default))
    except (SyntaxError, ValueError):
        return None
    if isinstance(default, bool):
        return "flag", [ast.Constant(not default)]
    if isinstance(default, int):
        other = {-1: 2, 0: 1, 1: 2}.get(default, default + 1)
        return "value", [ast.Constant(other)]
    if isinstance(default, float):
        return "value", [ast.Constant(0.25 if default == 0 else default * 0.5)]
    if isinstance(default, str) and param.name in MODE_VALUES:
        others = [value for value in MODE_VALUES[param.name] if value != default]
        return "mode", [ast.Constant(value) for value in others]
    return None


def _uses(record: Record, tree: ast.Module) -> list[ast.Call]:
    """The calls of the record's API (or its aliases, its in-place variant) in ``tree``."""
    full = _full_names(record)
    members = _member_names(record) if _is_member(record) else {}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        if pycode.dotted_name(func) in full or (
            func.attr in members and not (pycode.dotted_name(func.value) or "").startswith("torch")
        ):
            found.append(node)
    return found


def parameter_forms(record: Record, code: str) -> list[tuple[str, str]]:
    """``(probe id, code)`` for each parameter the first use of the API leaves at its default,
    set by keyword to each other value :func:`_other_value` knows."""
    tree = parse_call(code)
    uses = _uses(record, tree)
    if not uses:
        return []
    node = uses[0]
    try:
        bound = bind(record, node)
    except CallError:
        return []
    found: list[tuple[str, str]] = []
    for param in bound.signature.params:
        if param.spelled in bound.values or param.kind in {
            ParamKind.VAR_POSITIONAL,
            ParamKind.VAR_KEYWORD,
        }:
            continue
        other = _other_value(param)
        if other is None:
            continue
        family, values = other
        for value in values:
            node.keywords.append(ast.keyword(param.name, value))
            text = ast.unparse(tree)
            node.keywords.pop()
            label = f"={value.value!s}" if family == "mode" else ""
            found.append((f"{family}:{param.name}{label}", text))
    return found


def positional_forms(record: Record, code: str) -> list[tuple[str, str]]:
    """``(parameter, code)``: the first use of the API with every parameter up to ``parameter``
    passed by position, ``parameter`` itself with another value than its default and those
    before it with the call's own values or their defaults; for each parameter torch accepts
    by position that the call leaves out (up to the first whose default is not a literal)."""
    tree = parse_call(code)
    uses = _uses(record, tree)
    if not uses:
        return []
    node = uses[0]
    try:
        bound = bind(record, node)
    except CallError:
        return []
    original_args, original_keywords = node.args, node.keywords
    found: list[tuple[str, str]] = []
    before: list[ast.expr] = []
    for param in bound.signature.params:
        if param.kind not in {ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD}:
            break
        value = bound.values.get(param.spelled)
        if isinstance(value, ast.expr):
            before.append(value)
            continue
        other = _other_value(param)
        if other is not None and other[0] != "mode":
            used = {param.spelled for param in bound.signature.params[: len(before) + 1]}
            node.args = [*before, other[1][0]]
            node.keywords = [
                ast.keyword(name, item)
                for name, item in bound.values.items()
                if name not in used and isinstance(item, ast.expr)
            ]
            found.append((param.spelled, ast.unparse(tree)))
        default = _literal_default(param)
        if default is None:
            break
        before.append(default)
    node.args, node.keywords = original_args, original_keywords
    return found


def _paddle_uses(api: str, tree: ast.Module) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and pycode.dotted_name(node.func) == api
    ]


def _paddle_keyword(record: Record, param: Param, node: ast.Call) -> str | None:
    """The paddle parameter a torch parameter's value goes to in a hand-written paddle call,
    when its row passes it on unchanged (same, rename, default_diff) and the call does not
    pass that parameter yet; ``None`` otherwise."""
    row = derived.row_for(record, param.spelled)
    if row is None or derived.row_kind(row) not in {
        RowKind.SAME,
        RowKind.RENAME,
        RowKind.DEFAULT_DIFF,
    }:
        return None
    targets = [record.paddle_accepts.get(name, name) for name in derived.paddle_names(row)]
    if len(targets) != 1 or targets[0].startswith("*") or row.convert is not None:
        return None
    target = targets[0]
    if any(keyword.arg == target for keyword in node.keywords):
        return None
    signature = derived.parse(record.paddle_overloads[0]) if record.paddle_overloads else None
    if signature is None:
        return None
    names = [p.name for p in signature.params]
    if target not in names or names.index(target) < len(node.args):
        return None
    return target


def recipe_parameter_forms(
    record: Record, torch_code: str, paddle_code: str
) -> list[tuple[str, str, str]]:
    """``(probe id, torch code, paddle code)``: a hand-written example with one parameter its
    first use of the API leaves at the default set to another value on both sides, where the
    paddle code calls ``paddle_api`` and the row passes the value on unchanged."""
    if record.paddle_api is None:
        return []
    try:
        torch_tree, paddle_tree = parse_call(torch_code), parse_call(paddle_code)
    except CallError:
        return []
    torch_uses, paddle_uses = (
        _uses(record, torch_tree),
        _paddle_uses(record.paddle_api, paddle_tree),
    )
    if not torch_uses or not paddle_uses:
        return []
    node, target_node = torch_uses[0], paddle_uses[0]
    try:
        bound = bind(record, node)
    except CallError:
        return []
    found: list[tuple[str, str, str]] = []
    for param in bound.signature.params:
        if param.spelled in bound.values:
            continue
        other = _other_value(param)
        target = _paddle_keyword(record, param, target_node) if other else None
        if other is None or target is None:
            continue
        family, values = other
        for value in values:
            node.keywords.append(ast.keyword(param.name, value))
            target_node.keywords.append(ast.keyword(target, copy.deepcopy(value)))
            torch_text, paddle_text = ast.unparse(torch_tree), ast.unparse(paddle_tree)
            node.keywords.pop()
            target_node.keywords.pop()
            label = f"={value.value!s}" if family == "mode" else ""
            found.append((f"{family}:{param.name}{label}", torch_text, paddle_text))
    return found
