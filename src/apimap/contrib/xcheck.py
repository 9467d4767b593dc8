"""``apimap xcheck --paconvert FILE``: compare the records with PaConvert's conversion rules.

PaConvert ships its rules as ``paconvert/api_mapping.json`` (one entry per
torch API with ``Matcher``, ``paddle_api``, ``args_list``, ``kwargs_change``,
``unsupport_args``, ``paddle_default_kwargs``). ``FILE`` is that JSON file or
the PaConvert wheel itself, read as a zip archive: the package is never
imported. How the rules are read:

* an entry without a ``Matcher`` converts nothing;
* ``ChangePrefixMatcher`` maps ``torch.X`` to ``paddle.X`` and passes every
  argument through under its torch name;
* ``GenericMatcher`` and ``ChangeAPIMatcher`` pass the arguments of
  ``args_list`` through, renamed by ``kwargs_change`` (``""`` drops one);
* other matchers are custom code: only their explicit ``kwargs_change`` is compared.

The result is a report of differences, not an error (``--strict`` makes
disagreements fail). Only entries of ``torch`` and of the packages the records
cover (``torchvision`` …) are compared; PaConvert's other libraries are left out.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO

from apimap.checking.corpus import CorpusError, load_entries
from apimap.publish.export import default_injection
from apimap.record import derived
from apimap.record.categories import Action, RowKind
from apimap.record.model import Record
from apimap.record.signature import SignatureError, parse_signature

MAPPING_MEMBER = "paconvert/api_mapping.json"
TORCH_PACKAGE = "torch"
TORCH_PREFIX = "torch."
CHANGE_PREFIX = "ChangePrefixMatcher"
PASS_THROUGH = {CHANGE_PREFIX, "GenericMatcher", "ChangeAPIMatcher"}
_MARKERS = {"*", "/"}
_NAMING_KINDS = (RowKind.SAME, RowKind.RENAME, RowKind.DEFAULT_DIFF)


class Kind(StrEnum):
    """What differs."""

    ONLY_OURS = "only_apimap"
    ONLY_THEIRS = "only_paconvert"
    NO_RULE = "no_rule"
    TARGET = "target"
    RENAME = "rename"
    ARGS = "args"
    UNSUPPORTED = "unsupported"
    DEFAULT = "default"

    @property
    def heading(self) -> str:
        """Chinese title with an English gloss."""
        return _TITLES[self]

    @property
    def disagreement(self) -> bool:
        """Both sides know the API but say different things (``--strict`` fails on these)."""
        return self not in (Kind.ONLY_OURS, Kind.ONLY_THEIRS)


_TITLES = {
    Kind.ONLY_OURS: "只在 apimap 中 (only in apimap)",
    Kind.ONLY_THEIRS: "只在 PaConvert 中 (only in PaConvert)",
    Kind.NO_RULE: "PaConvert 不转换，apimap 有对应 API (PaConvert has no rule)",
    Kind.TARGET: "Paddle API 不同 (different paddle targets)",
    Kind.RENAME: "参数改名不一致 (renames disagree)",
    Kind.ARGS: "PyTorch 参数列表不同 (torch argument lists differ)",
    Kind.UNSUPPORTED: "能否转换的判断不同 (supported arguments disagree)",
    Kind.DEFAULT: "需设置的默认值不同 (injected defaults disagree)",
}


@dataclass(frozen=True)
class Difference:
    """One difference for one torch API."""

    kind: Kind
    api: str
    apimap: str
    paconvert: str


class RulesError(Exception):
    """The PaConvert file cannot be read."""


def read_rules(path: Path) -> dict[str, dict[str, Any]]:
    """PaConvert's ``api_mapping.json``, from the file or from inside the wheel."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                member = next((n for n in archive.namelist() if n.endswith(MAPPING_MEMBER)), None)
                if member is None:
                    raise RulesError(f"{path}: 压缩包中没有 {MAPPING_MEMBER} (not in the archive)")
                raw = archive.read(member)
        else:
            raw = path.read_bytes()
        data = json.loads(raw)
    except (OSError, zipfile.BadZipFile) as exc:
        raise RulesError(f"{path}: 无法读取 (cannot read): {exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RulesError(f"{path}: 不是 JSON (not JSON): {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise RulesError(f"{path}: 应为 API → 规则的映射 (expected an object of rules)")
    return data


def _target(api: str, rule: dict[str, Any]) -> str | None:
    if isinstance(rule.get("paddle_api"), str):
        return str(rule["paddle_api"])
    if rule.get("Matcher") == CHANGE_PREFIX:
        return "paddle." + api.removeprefix(TORCH_PREFIX)
    return None


def _args(rule: dict[str, Any]) -> list[str] | None:
    args = rule.get("args_list")
    if not isinstance(args, list):
        return None
    return [str(arg) for arg in args if arg not in _MARKERS]


def _their_name(rule: dict[str, Any], param: str) -> str | None:
    """The paddle name PaConvert gives ``param`` (``""``: dropped), or ``None`` if unknown."""
    change = rule.get("kwargs_change")
    if isinstance(change, dict) and param in change:
        value = change[param]
        return value if isinstance(value, str) else None
    matcher = rule.get("Matcher")
    if matcher == CHANGE_PREFIX:
        return param
    args = _args(rule)
    if matcher in PASS_THROUGH and args is not None and param in args:
        return param
    return None


def _our_names(record: Record) -> dict[str, str]:
    """torch parameter -> paddle parameter (``""``: dropped) for rows a converter applies as is."""
    names: dict[str, str] = {}
    for row in record.params:
        torch_side, paddle_side = derived.torch_names(row), derived.paddle_names(row)
        if len(torch_side) != 1:
            continue
        kind = derived.row_kind(row)
        if kind in _NAMING_KINDS and len(paddle_side) == 1:
            names[torch_side[0]] = paddle_side[0]
        elif kind is RowKind.TORCH_ONLY and row.action is Action.DELETE:
            names[torch_side[0]] = ""
    return names


def _same_name(ours: str, theirs: str, aliases: dict[str, str]) -> bool:
    return ours == theirs or aliases.get(theirs) == ours or aliases.get(ours) == theirs


def _literal(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _show(value: Any) -> str:
    if value is None:
        return "无 (none)"
    return "删除 (dropped)" if value == "" else f"`{value}`"


def _compare(record: Record, api: str, rule: dict[str, Any]) -> Iterator[Difference]:
    ours_target, theirs_target = record.paddle_api, _target(api, rule)
    if "Matcher" not in rule:
        if ours_target is not None:
            yield Difference(Kind.NO_RULE, api, f"`{ours_target}`", "无 Matcher (no matcher)")
        return
    if theirs_target is not None and ours_target != theirs_target:
        yield Difference(Kind.TARGET, api, _show(ours_target), _show(theirs_target))
    aliases = record.paddle_accepts
    for param, ours in _our_names(record).items():
        if param.startswith("*"):
            continue  # variadic parameters are positional: their name is not passed on
        theirs = _their_name(rule, param)
        if theirs is not None and not _same_name(ours, theirs, aliases):
            yield Difference(
                Kind.RENAME, api, f"`{param}` → {_show(ours)}", f"`{param}` → {_show(theirs)}"
            )
    yield from _compare_args(record, api, rule)
    yield from _compare_support(record, api, rule)
    yield from _compare_defaults(record, api, rule)


def _compare_args(record: Record, api: str, rule: dict[str, Any]) -> Iterator[Difference]:
    theirs = _args(rule)
    overloads = []
    for text in record.torch_overloads:
        try:
            overloads.append([param.spelled for param in parse_signature(text).params])
        except SignatureError:
            continue
    if theirs is None or not overloads or theirs in overloads:
        return
    shown = " | ".join(", ".join(names) for names in overloads)
    yield Difference(Kind.ARGS, api, f"({shown})", f"({', '.join(theirs)})")


def _compare_support(record: Record, api: str, rule: dict[str, Any]) -> Iterator[Difference]:
    raw = rule.get("unsupport_args")
    theirs = {str(arg) for arg in raw} if isinstance(raw, list) else set()
    for row in record.params:
        for name in derived.torch_names(row):
            ours_none = row.action is Action.NONE
            if name in theirs and not ours_none:
                kind = derived.row_kind(row)
                yield Difference(
                    Kind.UNSUPPORTED, api, f"`{name}` 可转换 ({kind})", "不支持 (unsupported)"
                )
            elif ours_none and name not in theirs and _their_name(rule, name) is not None:
                yield Difference(
                    Kind.UNSUPPORTED, api, f"`{name}` 暂无转写方式", "照常转换 (converted)"
                )


def _compare_defaults(record: Record, api: str, rule: dict[str, Any]) -> Iterator[Difference]:
    raw = rule.get("paddle_default_kwargs")
    theirs = raw if isinstance(raw, dict) else {}
    ours = dict(
        pair
        for row in record.params
        if derived.row_kind(row) is RowKind.DEFAULT_DIFF
        if (pair := default_injection(record, row))
    )
    named = {name for row in record.params for name in derived.paddle_names(row)}
    for param in sorted((set(theirs) | set(ours)) & named):
        mine, other = ours.get(param), theirs.get(param)
        if _literal(mine) != _literal(other):
            yield Difference(
                Kind.DEFAULT,
                api,
                f"`{param}={mine}`" if mine is not None else f"`{param}` 不设置",
                f"`{param}={other}`" if other is not None else f"`{param}` 不设置",
            )


def cross_check(records: list[Record], rules: dict[str, dict[str, Any]]) -> list[Difference]:
    """Every difference between ``records`` and PaConvert's ``rules``, sorted."""
    by_name: dict[str, Record] = {}
    for record in records:
        by_name[record.torch_api] = record
        for alias in record.torch_aliases:
            by_name.setdefault(alias, record)
    packages = {TORCH_PACKAGE} | {name.split(".")[0] for name in by_name}
    torch_rules = {api: rule for api, rule in rules.items() if api.split(".")[0] in packages}
    differences: list[Difference] = []
    for api in sorted(set(by_name) | set(torch_rules)):
        known, rule = by_name.get(api), torch_rules.get(api)
        if rule is None:
            if known is not None and known.torch_api == api:
                differences.append(Difference(Kind.ONLY_OURS, api, _show(known.paddle_api), "-"))
        elif known is None:
            differences.append(Difference(Kind.ONLY_THEIRS, api, "-", _show(_target(api, rule))))
        else:
            differences += _compare(known, api, rule)
    order = list(Kind)
    return sorted(differences, key=lambda d: (order.index(d.kind), d.api, d.apimap, d.paconvert))


def write_text(differences: list[Difference], out: TextIO, limit: int) -> None:
    """Per kind: a title with the count, then up to ``limit`` lines (0: all)."""
    for kind in Kind:
        found = [d for d in differences if d.kind is kind]
        out.write(f"{kind.heading}: {len(found)}\n")
        shown = found if limit == 0 else found[:limit]
        for item in shown:
            out.write(f"  {item.api}: apimap {item.apimap} / PaConvert {item.paconvert}\n")
        if len(shown) < len(found):
            out.write(f"  …… 另有 {len(found) - len(shown)} 项 (more; use --limit 0)\n")


def write_json(differences: list[Difference], out: TextIO) -> None:
    """The differences and their counts as JSON."""
    counts = {kind.value: sum(1 for d in differences if d.kind is kind) for kind in Kind}
    items = [{**asdict(d), "kind": d.kind.value} for d in differences]
    document = {"counts": counts, "differences": items}
    out.write(json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def run_command(args: argparse.Namespace) -> int:
    """Print the report; 0 unless ``--strict`` and the two sides disagree."""
    try:
        rules = read_rules(Path(args.paconvert))
        entries = load_entries(Path(args.mappings))
    except RulesError as exc:
        print(f"apimap xcheck: {exc}", file=sys.stderr)
        return 2
    except CorpusError as exc:
        print("apimap xcheck: 记录有误 (records are broken)", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    differences = cross_check([entry.record for entry in entries], rules)
    if args.format == "json":
        write_json(differences, sys.stdout)
    else:
        write_text(differences, sys.stdout, args.limit)
    disagreements = any(d.kind.disagreement for d in differences)
    return 1 if args.strict and disagreements else 0


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap xcheck``."""
    parser.add_argument(
        "--paconvert", required=True, help="api_mapping.json 或 PaConvert 的 wheel 文件"
    )
    parser.add_argument("--mappings", default="mappings", help="记录目录，默认 mappings/")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--limit", type=int, default=20, help="每类最多列出几项，0 为全部")
    parser.add_argument(
        "--strict", action="store_true", help="两边说法不同时返回 1 (fail on disagreements)"
    )
    parser.set_defaults(handler=run_command)
