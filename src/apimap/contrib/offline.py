"""``apimap new`` without torch or paddle: a draft from the data the repository holds.

Two committed sources stand in for the libraries. The public-surface table
(``data/surface.json``, computed from the pinned torch and torchvision) says whether the torch
API exists and what kind of object it is. The paddle signature table is read from the corpus:
the paddle API of every record whose verification stamp is current, with the signature that
verification confirmed against the pinned paddle. The torch signature, the parameter rows and
the calls, which only the libraries could tell, are left as ``TODO`` for a person to copy from
the PyTorch documentation; CI's verification of the pull request then checks what they wrote
against both libraries and writes the stamp.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from apimap.checking.corpus import CorpusError, load_entries
from apimap.contrib.draft import Draft, ScaffoldError, call_draft
from apimap.files.migrate import minimal
from apimap.record.categories import ApiType, computed_category
from apimap.record.paths import API_NAME
from apimap.record.phrases import TODO_MARKER
from apimap.record.signature import SignatureError, parse_signature

API_TYPES = {
    "function": ApiType.FUNCTION,
    "class": ApiType.CLASS,
    "method": ApiType.METHOD,
    "property": ApiType.ATTRIBUTE,
    "attribute": ApiType.ATTRIBUTE,
    "dtype": ApiType.CONSTANT,
    "constant": ApiType.CONSTANT,
}
"""The kind of a public name in the surface table -> the record's ``api_type``."""


def paddle_signatures(mappings: Path) -> dict[str, str]:
    """Paddle API -> its signature, as the records with a current stamp state it (one
    overload only; where records differ, the text most of them write, then the first)."""
    try:
        entries = load_entries(mappings)
    except CorpusError as exc:
        raise ScaffoldError(
            f"记录目录中有无法读取的记录，先运行 apimap check (cannot read the records)：{exc.problems[0]}"
        ) from None
    texts: dict[str, Counter[str]] = {}
    for entry in entries:
        overloads = entry.record.paddle_overloads
        if entry.stamp is not None and entry.record.paddle_api and len(overloads) == 1:
            texts.setdefault(entry.record.paddle_api, Counter())[overloads[0]] += 1
    return {
        api: min(counted, key=lambda text: (-counted[text], text))
        for api, counted in sorted(texts.items())
    }


def _guess(torch_api: str, table: dict[str, str]) -> str | None:
    """The paddle API of the table named like ``torch_api`` (exactly, or else the single one
    that matches ignoring case), in the namespaces a counterpart would live in."""
    from apimap.verify.apis import candidate_names

    names = candidate_names(torch_api)
    exact = [name for name in names if name in table]
    if exact:
        return exact[0]
    wanted = {name.lower() for name in names}
    found = [api for api in table if api.lower() in wanted]
    return found[0] if len(found) == 1 else None


def _api_type(torch_api: str) -> ApiType:
    from apimap.files.surface import load_surface

    surface = load_surface()
    public = surface.names.get(torch_api)
    if public is None:
        raise ScaffoldError(
            f"公开 API 表中没有 `{torch_api}`；没有 torch 时只能为表中的 API 起草 "
            f"(not in the public-surface table: drafting it needs torch)"
        )
    owner = surface.names.get(torch_api.rpartition(".")[0])
    if public.kind == "attribute" and (owner is None or owner.kind != "class"):
        return ApiType.CONSTANT  # a module's variable (cudnn.benchmark): verify reads a value
    return API_TYPES[public.kind]


def build_offline_draft(torch_api: str, paddle_api: str | None, mappings: Path) -> Draft:
    """The draft ``apimap new`` writes when torch or paddle is not installed."""
    api_type = _api_type(torch_api)
    table = paddle_signatures(mappings)
    draft = Draft(
        {"torch_api": torch_api},
        [
            "没有 torch 与 paddle：草稿来自公开 API 表与已验证记录中的 Paddle 签名；提交 Pull Request "
            "后，CI 的验证核对签名、参数行与调用并给出验证标记 (drafted without the libraries: CI "
            "verifies it)",
            "中文名称 zh_name：如「二维卷积层」(a short Chinese name)",
        ],
    )
    if api_type is not ApiType.FUNCTION:
        draft.data["api_type"] = str(api_type)
    draft.data["zh_name"] = TODO_MARKER
    draft.data["paddle_api"] = _paddle_api(draft, paddle_api, table)
    if api_type in {ApiType.ATTRIBUTE, ApiType.CONSTANT}:
        # A value has no parameters: the call that reads it is all there is to run.
        draft.data["category"] = str(computed_category([]))
        call = call_draft(torch_api, str(api_type), [])
        if call is not None:
            draft.data["calls"] = [call]
    else:
        _signatures(draft, api_type, table)
    return Draft(minimal(draft.data), draft.unknown, offline=True)


def _paddle_api(draft: Draft, given: str | None, table: dict[str, str]) -> str:
    """The paddle API named on the command line, or else the one of the table named like the
    torch API."""
    if given is not None:
        if not API_NAME.match(given):
            raise ScaffoldError(f"`{given}` 不是合法的 API 名称 (invalid API name)")
        return given
    guessed = _guess(draft.data["torch_api"], table)
    if guessed is None:
        raise ScaffoldError(
            "没有 paddle 时只能在已验证的记录中按名称查找 Paddle API，没有找到；请用 --paddle 指定 "
            "(no verified record maps to a paddle API named like it: give --paddle)"
        )
    draft.unknown.append(f"Paddle API：按名称推测为 `{guessed}`，请确认 (guessed by name)")
    return guessed


def _signatures(draft: Draft, api_type: ApiType, table: dict[str, str]) -> None:
    """Both signatures (the paddle one from the table, or ``TODO``) and ``self_param``."""
    torch_api, paddle_api = draft.data["torch_api"], draft.data["paddle_api"]
    draft.data["torch_signature"] = f"{torch_api}({TODO_MARKER})"
    draft.unknown.append(
        "PyTorch 签名 torch_signature：照 PyTorch 文档写出 (copy the torch signature)"
    )
    signature = table.get(paddle_api)
    if signature is None:
        draft.data["paddle_signature"] = f"{paddle_api}({TODO_MARKER})"
        draft.unknown.append(
            f"Paddle 签名 paddle_signature：已验证的记录中没有 `{paddle_api}`，照 Paddle 文档写出 "
            "(no verified record states it: copy the paddle signature)"
        )
    else:
        draft.data["paddle_signature"] = signature
        first = _first_param(signature)
        if api_type is ApiType.METHOD and not paddle_api.startswith("paddle.Tensor.") and first:
            draft.data["self_param"] = first
    draft.unknown.append(
        "参数行 params、分类 category 与调用 calls：按两侧签名写出，每行写含义 desc "
        "(write the rows, the category and a call)"
    )


def _first_param(signature: str) -> str | None:
    """The first parameter of a signature text (what receives the tensor of a method)."""
    try:
        params = parse_signature(signature).params
    except SignatureError:
        return None
    return params[0].spelled if params else None
