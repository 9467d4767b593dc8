"""``apimap new TORCH_API [--paddle PADDLE_API]``: write a draft record from the libraries.

The draft holds everything the installed libraries tell: the API type, both
signatures, the parameter rows paired by name, by a torch-style name paddle
accepts, by a conventional rename (``input`` -> ``x``, ``dim`` -> ``axis``,
...) and then, for required parameters, by position (``vec2`` -> ``y``), the
row kinds that cannot be derived (default_diff, torch_only, paddle_only), the
receiving parameter of a method mapped to a function, the in-place variants
and a call with every required argument. Without a paddle API of the same
name it drafts 功能缺失 and lists the similarly named paddle APIs it looked at.
Values format 2 derives (same-name sides, same/rename kinds, categories 1-3,
default links) are left out; the category is written so a reader sees it. What only a person can write (the Chinese name,
meanings, call inputs, examples, the action for a torch-only parameter, why
something is missing) is written as ``TODO``, so the draft fails
``apimap check`` until it is finished. Without torch or paddle installed,
:mod:`apimap.contrib.offline` drafts what the repository's data tells.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apimap.contrib.draft import Draft, ScaffoldError, call_draft
from apimap.contrib.weights import WEIGHTS_ENUM
from apimap.exit_codes import EXIT_CLEAN, EXIT_USAGE
from apimap.files.canonical import schema_comment
from apimap.files.emit import render
from apimap.files.migrate import minimal
from apimap.files.surface import load_surface
from apimap.files.yamlcomments import Comments
from apimap.record import derived
from apimap.record.categories import Category, RowKind, computed_category, guessed_section
from apimap.record.paths import API_NAME, record_path
from apimap.record.phrases import DEFAULT_DESCRIPTIONS, TODO_MARKER
from apimap.record.signature import ParamKind

CONVENTIONAL_RENAMES = {
    "input": "x",
    "other": "y",
    "dim": "axis",
    "eps": "epsilon",
    "size": "shape",
}
"""Torch parameter -> the paddle name it usually has."""


VALUE_TYPES = frozenset({"attribute", "constant"})
"""API types that are values, not calls: no signature, no parameter rows."""


@dataclass(frozen=True)
class _Param:
    spelled: str
    name: str
    kind: ParamKind
    default: Any
    """:class:`apimap.verify.defaults.Default` or ``None``."""


def guess_paddle_api(torch_api: str) -> tuple[str | None, list[str]]:
    """The paddle API named like ``torch_api`` and every candidate looked at.

    The candidates are the paddle names :func:`apimap.verify.apis.candidates`
    finds in the namespaces a counterpart would live in; an exact spelling wins,
    otherwise a single case-insensitive match does.
    """
    from apimap.verify.apis import candidate_names, candidates

    found = list(dict.fromkeys(candidates(torch_api)))
    exact = [name for name in found if name in candidate_names(torch_api)]
    chosen = exact[:1] or (found if len(found) == 1 else [])
    return (chosen[0] if chosen else None), found


def _params(signatures: list[Any]) -> list[_Param]:
    """Every parameter of every overload, in the order of the longest overload first."""
    seen: dict[str, _Param] = {}
    for signature in sorted(signatures, key=lambda o: -len(o.params)):
        for p in signature.params:
            seen.setdefault(p.spelled, _Param(p.spelled, p.name, p.kind, p.default))
    return list(seen.values())


def _preferred(overloads: list[Any]) -> list[Any]:
    """The overloads of the first source that knows the API (stubs before docstrings)."""
    unique: dict[tuple[str, ...], Any] = {}
    for overload in overloads:
        if overload.source == overloads[0].source:
            unique.setdefault(tuple(p.spelled for p in overload.params), overload)
    return list(unique.values())


def _same_default(torch_param: _Param, paddle_param: _Param, namespaces: Any) -> bool:
    from apimap.verify.defaults import same_default

    if torch_param.default is None:
        return True  # a required torch argument is always passed: paddle's default is unused
    if paddle_param.default is None:
        return False
    return same_default(torch_param.default.text, paddle_param.default, namespaces)


def _required_positional(params: list[_Param]) -> list[_Param]:
    kinds = {ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD}
    return [p for p in params if p.kind in kinds and p.default is None]


def pair_rows(
    torch_params: list[_Param],
    paddle_params: list[_Param],
    aliases: dict[str, str],
    namespaces: Any = (),
) -> list[dict[str, Any]]:
    """Parameter rows: torch order, then paddle-only parameters."""
    by_name = {p.spelled: p for p in paddle_params}
    pairs: dict[str, tuple[str, _Param]] = {}
    taken: set[str] = set()

    def take(torch_name: str, shown: str, paddle_name: str) -> None:
        pairs[torch_name] = (shown, by_name[paddle_name])
        taken.add(paddle_name)

    for t in torch_params:
        target = aliases.get(t.spelled)
        conventional = CONVENTIONAL_RENAMES.get(t.spelled)
        if t.spelled in by_name:
            take(t.spelled, t.spelled, t.spelled)
        elif target in by_name and target not in taken:
            take(t.spelled, t.spelled, target)
        elif conventional in by_name and conventional not in taken:
            take(t.spelled, conventional, conventional)
    required_torch = _required_positional(torch_params)
    required_paddle = _required_positional(paddle_params)
    for t, p in zip(required_torch, required_paddle, strict=False):
        if t.spelled not in pairs and p.spelled not in taken:
            take(t.spelled, p.spelled, p.spelled)
    rows: list[dict[str, Any]] = []
    for t in torch_params:
        if t.spelled not in pairs:
            rows.append({"torch": t.spelled, "kind": str(RowKind.TORCH_ONLY), **_desc(t.spelled)})
            continue
        shown, p = pairs[t.spelled]
        if not _same_default(t, p, namespaces):
            kind = RowKind.DEFAULT_DIFF
        elif shown == t.spelled:
            kind = RowKind.SAME
        else:
            kind = RowKind.RENAME
        rows.append({"torch": t.spelled, "paddle": shown, "kind": str(kind), **_desc(t.spelled)})
    for p in paddle_params:
        if p.spelled not in taken:
            rows.append(
                {"paddle": p.spelled, "kind": str(RowKind.PADDLE_ONLY), "desc": TODO_MARKER}
            )
    return rows


def _inplace(torch_api: str, paddle_api: str) -> dict[str, Any] | None:
    """Both in-place variants (``abs_``), when both libraries have them."""
    from apimap.verify.libraries import ApiNotFound, resolve

    if torch_api.endswith("_"):
        return None
    try:
        resolve(torch_api + "_")
        resolve(paddle_api + "_")
    except ApiNotFound:
        return None
    return {"torch": torch_api + "_", "paddle": paddle_api + "_"}


def _missing(considered: list[str], data: dict[str, Any], unknown: list[str]) -> None:
    """Draft 功能缺失: a person writes why, and why each similar paddle API does not map."""
    data["category"] = str(Category.MISSING)
    data["missing"] = {"detail": TODO_MARKER, "instead": TODO_MARKER}
    if considered:
        data["missing"]["considered"] = [
            {"paddle": name, "why": TODO_MARKER} for name in considered
        ]
    unknown.append(
        "Paddle API：未找到同名 API，按功能缺失起草；若有对应 API 请用 --paddle 指定；"
        "missing 需写原因分类 reason、说明与替代做法 "
        "(no paddle API found: drafted as missing; write the reason, detail and what to do)"
    )
    if considered:
        unknown.append(
            "considered：名称相近的 Paddle API 为什么不能对应 (why each similar API does not map)"
        )


def _resolve(api: str) -> Any:
    """The installed object of ``api``; raises :class:`ScaffoldError` when there is none."""
    from apimap.verify.libraries import ApiNotFound, resolve

    try:
        return resolve(api)
    except ApiNotFound:
        raise ScaffoldError(f"已安装的库中没有 `{api}` (no such API)") from None


def _torch_side(draft: Draft, torch: Any, api_type: str) -> list[Any]:
    """The API type, the name to write and the torch signature; the torch overloads read."""
    from apimap.verify.readers import Unreadable, read

    torch_api = draft.data["torch_api"]
    if api_type != "function":
        draft.data["api_type"] = api_type
    draft.data["zh_name"] = TODO_MARKER
    draft.unknown.append("中文名称 zh_name：如「二维卷积层」(a short Chinese name)")
    aliases = load_surface().unnamed([torch_api])
    if aliases:
        draft.data["torch_aliases"] = aliases
    overloads: list[Any] = []
    if api_type not in VALUE_TYPES:
        try:
            overloads = _preferred(read(torch).overloads)
        except Unreadable:
            draft.unknown.append("PyTorch 签名：库中读不到 (torch signature unreadable)")
        texts = [o.text(torch_api) for o in overloads] or [f"{torch_api}({TODO_MARKER})"]
        draft.data["torch_signature"] = texts[0] if len(texts) == 1 else texts
    return overloads


@dataclass
class _PaddleSide:
    """What the paddle signature tells the rows: its parameters, the aliases it accepts and
    the namespaces its defaults are read in."""

    params: list[_Param] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)
    namespaces: Any = ()


def _paddle_side(draft: Draft, paddle: Any, api_type: str) -> _PaddleSide:
    """The paddle signature, ``self_param``, ``paddle_accepts`` and ``inplace``."""
    from apimap.verify.aliases import documented_aliases
    from apimap.verify.readers import Unreadable, read

    side = _PaddleSide()
    if api_type in VALUE_TYPES:
        return side
    try:
        actual = read(paddle)
        overload = actual.overloads[0]
    except Unreadable:
        raise ScaffoldError(f"读不到 `{paddle.api}` 的签名 (paddle signature unreadable)") from None
    side.namespaces = actual.namespaces
    draft.data["paddle_signature"] = overload.text(paddle.api)
    side.params = [p for p in _params([overload]) if p.name != "name"]
    if api_type == "method" and not paddle.owner_is_class and side.params:
        draft.data["self_param"] = side.params[0].spelled
        side.params = side.params[1:]
    names = {p.spelled for p in side.params}
    side.aliases = {
        alias: target
        for alias, target in documented_aliases(getattr(paddle.obj, "__doc__", None)).items()
        if target in names and alias not in names
    }
    if side.aliases:
        draft.data["paddle_accepts"] = side.aliases
    inplace = _inplace(draft.data["torch_api"], paddle.api)
    if inplace:
        aliases = load_surface().unnamed([inplace["torch"]])
        draft.data["inplace"] = {**inplace, "aliases": aliases} if aliases else inplace
        draft.unknown.append(
            "inplace：请确认原位版本与本 API 映射方式相同 (check the in-place variant)"
        )
    return side


def _category(data: dict[str, Any], paddle_api: str, rows: list[dict[str, Any]]) -> Category:
    """The category the rows imply, unless the APIs' names say context change or other package
    (which then writes ``paddle_package``)."""
    category = computed_category([RowKind(row["kind"]) for row in rows])
    if data["torch_api"].startswith(derived.CONTEXT_FAMILIES) and paddle_api.startswith(
        derived.CONTEXT_OBJECTS
    ):
        category = Category.CONTEXT_CHANGE
    package = paddle_api.split(".", 1)[0]
    if package != "paddle":
        data["paddle_package"] = package
        category = Category.OTHER_PACKAGE
    return category


def _examples(category: Category, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Example skeletons: one per torch-only row, and a whole-API one where the category needs it."""
    examples = [
        {"param": row["torch"], "cases": [{"torch": TODO_MARKER, "paddle": TODO_MARKER}]}
        for row in rows
        if row["kind"] == RowKind.TORCH_ONLY
    ]
    if category in {Category.COMPOSITE, Category.CONTEXT_CHANGE}:
        examples.insert(0, {"cases": [{"torch": TODO_MARKER, "paddle": TODO_MARKER}]})
    return examples


def _desc(torch_param: str) -> dict[str, str]:
    """A row's ``desc`` to fill in, unless its parameter name has the common meaning."""
    return {} if torch_param in DEFAULT_DESCRIPTIONS else {"desc": TODO_MARKER}


def _section_guess(torch_api: str) -> str:
    return (
        f"映射表类别 section：按名称推导为「{guessed_section(torch_api)}」，不对时才写 section "
        "(section follows from the name; write it only when it differs)"
    )


def _still_to_decide(category: Category, torch_api: str, rows: list[dict[str, Any]]) -> list[str]:
    """What a person must still decide about a draft with a counterpart."""
    unknown = [
        "参数含义 desc：每行都需要填写 (every row's meaning)",
        f"分类：由参数推断为 `{category}`，类型或用法不一致（type_diff、usage_diff）需人工判断，"
        "apimap verify 的探测会报告行为差异 (category inferred from names and defaults only)",
        _section_guess(torch_api),
    ]
    if any(row["kind"] == RowKind.TORCH_ONLY for row in rows):
        unknown.append(
            "torch_only 行的 action 与转写示例：选择 rewrite / none / delete 并写示例 "
            "(choose each torch-only row's action, write the examples)"
        )
    return unknown


def _weights_enum(draft: Draft) -> Draft:
    """A torchvision weight enum: 功能缺失, written whole from the libraries but for the note
    on its preprocessing (:mod:`apimap.contrib.weights`)."""
    from apimap.contrib.weights import NotAWeightsEnum, draft_weights, read_facts

    try:
        facts = read_facts(draft.data["torch_api"])
    except NotAWeightsEnum:
        raise ScaffoldError(
            f"`{draft.data['torch_api']}` 不是权重枚举 (not a weight enum)"
        ) from None
    draft.data.update(draft_weights(facts))
    draft.data["category"] = str(Category.MISSING)
    if "notes" in draft.data:
        return Draft(minimal(draft.data))
    draft.data["notes"] = [{"text": TODO_MARKER}]
    unknown = [
        "说明 notes：写出各组权重 transforms() 的预处理，并用例子给出 Paddle 组合出的同样预处理 "
        "(describe the preprocessing, with an example run on both sides)"
    ]
    return Draft(minimal(draft.data), unknown)


def build_draft(torch_api: str, paddle_api: str | None) -> Draft:
    """Read both APIs and infer as much of the record as the libraries allow."""
    from apimap.verify.apis import api_type_of

    torch = _resolve(torch_api)
    guessed = paddle_api is None
    considered: list[str] = []
    if paddle_api is None:
        paddle_api, considered = guess_paddle_api(torch_api)
    elif not API_NAME.match(paddle_api):
        raise ScaffoldError(f"`{paddle_api}` 不是合法的 API 名称 (invalid API name)")
    paddle = None if paddle_api is None else _resolve(paddle_api)
    api_type = api_type_of(torch)
    draft = Draft({"torch_api": torch_api})
    torch_overloads = _torch_side(draft, torch, api_type)
    if WEIGHTS_ENUM.match(torch_api):
        return _weights_enum(draft)
    if paddle is None:
        _missing(considered, draft.data, draft.unknown)
        draft.unknown.append(_section_guess(torch_api))
        return draft
    if guessed:
        draft.unknown.append(f"Paddle API：按名称推测为 `{paddle.api}`，请确认 (guessed by name)")
    draft.data["paddle_api"] = paddle.api
    paddle_side = _paddle_side(draft, paddle, api_type)
    torch_params = _params(torch_overloads)
    rows = pair_rows(torch_params, paddle_side.params, paddle_side.aliases, paddle_side.namespaces)
    category = _category(draft.data, paddle.api, rows)
    draft.data["category"] = str(category)
    if rows:
        draft.data["params"] = rows
    required = [p.spelled for p in _required_positional(torch_params)]
    call = call_draft(torch_api, api_type, required)
    if call is not None and category.computable:
        draft.data["calls"] = [call]
        draft.unknown.append(
            "calls：写出输入（NumPy 表达式）；调用应覆盖每个参数行 "
            "(give the call inputs; calls should exercise every row)"
        )
    examples = _examples(category, rows)
    if examples:
        draft.data["examples"] = examples
    data = minimal(draft.data)
    return Draft(data, draft.unknown + _still_to_decide(category, torch_api, rows))


def write_draft(mappings: Path, torch_api: str, paddle_api: str | None) -> tuple[Path, Draft]:
    """Write the draft below ``mappings``, from the libraries or, when torch or paddle is not
    installed, from the repository's data (:mod:`apimap.contrib.offline`); refuses to
    overwrite. Raises :class:`ScaffoldError`."""
    if not API_NAME.match(torch_api):
        raise ScaffoldError(f"`{torch_api}` 不是合法的 API 名称 (invalid API name)")
    relpath = record_path(torch_api)
    target = mappings / relpath
    if target.exists():
        raise ScaffoldError(f"{target} 已存在，不会覆盖 (exists; not overwritten)")
    from apimap.verify.sides import load

    try:
        load("torch")
        load("paddle")
    except ImportError:
        from apimap.contrib.offline import build_offline_draft

        draft = build_offline_draft(torch_api, paddle_api, mappings)
    else:
        draft = build_draft(torch_api, paddle_api)
    text = render(draft.data, Comments(head=[schema_comment(relpath)]))
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("x", encoding="utf-8") as handle:
        handle.write(text)
    return target, draft


def configure(new: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap new``."""
    new.add_argument("torch_api", help="PyTorch API 全称，如 torch.nn.Conv2d")
    new.add_argument("--paddle", help="对应的 Paddle API；省略时按名称推测 (default: guessed)")
    new.add_argument("--mappings", default="mappings", help="记录目录，默认 mappings/")
    new.set_defaults(handler=run_command)


def _drafted_with_torchvision(args: argparse.Namespace) -> int | None:
    """A torchvision name drafted by the interpreter that has torchvision (``.venv-vision``),
    when this one has none; ``None`` when this interpreter drafts it itself."""
    from apimap.verify.environments import vision_python
    from apimap.verify.pool import apimap_pythonpath

    if not args.torch_api.startswith("torchvision.") or importlib.util.find_spec("torchvision"):
        return None
    python = vision_python()
    if python is None:
        return None
    env = {**os.environ, "PYTHONPATH": apimap_pythonpath(os.environ.get("PYTHONPATH"))}
    command = [python, "-m", "apimap", "new", args.torch_api, "--mappings", args.mappings]
    command += ["--paddle", args.paddle] if args.paddle else []
    return subprocess.run(command, env=env, check=False).returncode


def run_command(args: argparse.Namespace) -> int:
    """Write the draft and say what a person still has to do."""
    elsewhere = _drafted_with_torchvision(args)
    if elsewhere is not None:
        return elsewhere
    try:
        target, draft = write_draft(Path(args.mappings), args.torch_api, args.paddle)
    except (ScaffoldError, FileExistsError) as exc:
        print(f"apimap new: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"已写入草稿 (wrote draft) {target}")
    if draft.unknown:
        print("无法推断、需要人工完成 (could not infer)：")
    for item in draft.unknown:
        print(f"  - {item}")
    if draft.offline:
        print(
            f"完成后运行 (then run): apimap check --pending-stamps notice {target}，"
            "然后提交 Pull Request，由 CI 验证并给出验证标记 (then open a pull request: CI verifies it)"
        )
    else:
        print(f"完成后运行 (then run): apimap check {target} && apimap verify {target}")
    return EXIT_CLEAN
