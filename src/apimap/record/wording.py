"""The sentences a page says about a record, composed from :mod:`apimap.record.phrases`.

Contributors write only the meaning of a parameter (``desc``), how its usage
differs (``diff``) and how to set Paddle (``setting`` or ``paddle_value``); the
phrases around those come from the row's kind and action and from the record's
category. The renderer, the exporter and the importer (which recognises these
sentences in legacy pages) all compose them here.
"""

from __future__ import annotations

import re
import signal

from apimap.record import derived, phrases
from apimap.record.categories import Action, ApiType, Category, RowKind
from apimap.record.defaults import shown
from apimap.record.model import Example, ParamRow, Record


def _setting(row: ParamRow, fallback: str) -> str:
    if row.setting:
        return row.setting
    if row.paddle_value is not None:
        return phrases.SET_TO.format(value=f"`{row.paddle_value}`")
    return fallback


def _default(template: str, absent: str, default: str | None) -> str:
    """``PyTorch 默认值为 `0.1``` or, without a default, ``PyTorch 无默认值``."""
    return absent if default is None else template.format(value=shown(default))


def defaults_clause(torch: str | None, paddle: str | None) -> str:
    """Both defaults as a remark words them: ``PyTorch 默认值为 `0.1`，Paddle 无默认值``."""
    return "，".join(
        [
            _default(phrases.TORCH_DEFAULT, phrases.TORCH_NO_DEFAULT, torch),
            _default(phrases.PADDLE_DEFAULT, phrases.PADDLE_NO_DEFAULT, paddle),
        ]
    )


def remark(record: Record, row: ParamRow) -> str:
    """The 备注 cell of a row: the contributor's meaning (if any) plus the fixed phrase."""
    kind = derived.row_kind(row)
    parts: list[str | None] = [derived.desc(row)]
    if kind is RowKind.RENAME:
        parts.append(phrases.RENAMED)
    elif kind is RowKind.PADDLE_ONLY:
        parts += [phrases.TORCH_LACKS, _setting(row, phrases.KEEP_DEFAULT)]
    elif kind is RowKind.DEFAULT_DIFF:
        defaults = derived.row_defaults(record, row)
        parts += [
            _default(phrases.TORCH_DEFAULT, phrases.TORCH_NO_DEFAULT, defaults.torch),
            _default(phrases.PADDLE_DEFAULT, phrases.PADDLE_NO_DEFAULT, defaults.paddle),
            _setting(row, phrases.MATCH_TORCH),
        ]
    elif kind is RowKind.TORCH_ONLY:
        parts += [phrases.PADDLE_LACKS, action_phrase(row)]
    elif kind is not RowKind.SAME:
        parts += [row.diff, action_phrase(row)]
    written = [part for part in parts if part]
    text = "，".join(written) + "。" if written else ""
    if row.note:
        text += row.note
    return text


def action(row: ParamRow) -> Action:
    """The row's action; rows without one are reported by AM216 and read as 暂无转写方式."""
    return row.action or Action.NONE


def action_phrase(row: ParamRow) -> str:
    """What to do: the action's phrase, or one ``条件时…`` clause per conditional action."""
    if row.actions:
        return "，".join(
            phrases.CONDITIONAL_ACTION.format(when=_spaced(entry.when), phrase=entry.action.phrase)
            for entry in row.actions
        )
    return action(row).phrase


def _spaced(text: str) -> str:
    """A space between ASCII text (``None``, a code span) and the Chinese that follows."""
    last = text[-1:]
    return f"{text} " if last == "`" or (last.isascii() and last.isalnum()) else text


def table_names(row: ParamRow) -> tuple[str, str]:
    """The PyTorch and Paddle cells of a row (``-`` where a side has no parameter)."""
    if derived.row_kind(row) is RowKind.RETURN_DIFF:
        return phrases.RETURN_LABEL, phrases.RETURN_LABEL
    torch_side = derived.torch_names(row)
    paddle_side = derived.paddle_names(row)
    return ", ".join(torch_side) or "-", ", ".join(paddle_side) or "-"


_INCONSISTENT = (RowKind.TYPE_DIFF, RowKind.USAGE_DIFF)


def inconsistency_summary(record: Record) -> str:
    """Category 3: name the torch parameters whose usage differs, in backticks."""
    names = [
        f"`{name}`"
        for row in record.params
        if derived.row_kind(row) in _INCONSISTENT
        for name in derived.torch_names(row)[:1]
    ]
    returns = any(derived.row_kind(row) is RowKind.RETURN_DIFF for row in record.params)
    if names and returns:
        lead = phrases.PARAMS_DIFFER.format(names="、".join(names))
        return f"{lead}，{phrases.RETURNS_DIFFER}{phrases.FOLLOWED}"
    if names:
        return phrases.PARAMS_DIFFER.format(names="、".join(names)) + phrases.FOLLOWED
    if returns:
        return phrases.ONLY_RETURNS_DIFFER + phrases.FOLLOWED
    return phrases.USAGE_DIFFERS + phrases.FOLLOWED


def summary(record: Record) -> list[str]:
    """The summary paragraphs under the signatures (``summary`` overrides the generated one)."""
    category = derived.category(record)
    if category is Category.COMPOSITE:
        return [text for text in (record.summary, phrases.COMPOSITE_LEAD) if text]
    if record.summary:
        return [record.summary]
    if category is Category.NO_PARAMS and not record.api_type.callable:
        return [phrases.ATTRIBUTE_SUMMARY]
    if category.value in phrases.FIXED_SUMMARIES:
        return [phrases.FIXED_SUMMARIES[category.value]]
    if category.group == 3:
        return [inconsistency_summary(record)]
    if category is Category.OTHER_PACKAGE:
        package = f"`{record.paddle_package}`" if record.paddle_package else None
        text = phrases.OTHER_PACKAGE.format(package=package or phrases.OTHER_PACKAGE_UNNAMED)
        return [text + (phrases.FOLLOWED if record.params else "。")]
    return []


def example_heading(record: Record, example: Example) -> str | None:
    """``参数名：功能`` for an example; ``None`` when it shows the whole API."""
    if example.param is not None:
        row = derived.row_for(record, example.param)
        purpose = example.purpose or (derived.desc(row) if row else None)
        if purpose is None:
            return example.param
        return phrases.HEADING.format(param=example.param, purpose=purpose)
    returns = next((r for r in record.params if derived.row_kind(r) is RowKind.RETURN_DIFF), None)
    if returns is not None:
        purpose = example.purpose or derived.desc(returns)
        if purpose is None:
            return phrases.RETURN_LABEL
        return phrases.HEADING.format(param=phrases.RETURN_LABEL, purpose=purpose)
    return example.purpose


def says_no_rewrite(record: Record) -> bool:
    """Categories 2 to 5 with a row that cannot be rewritten and no example at all."""
    return (
        2 <= derived.category(record).group <= 5
        and not record.examples
        and any(Action.NONE in derived.row_actions(row) for row in record.params)
    )


def when_line(when: str) -> str:
    """The line before a case's code."""
    return phrases.WHEN.format(when=when)


def api_kind_line(record: Record) -> str | None:
    """What kind of object the API is, shown for everything but plain functions."""
    if record.api_type is ApiType.FUNCTION:
        return None
    return record.api_type.label


def probe_label(probe: str) -> str:
    """``dtype:uint8`` -> uint8 类型的输入; an unknown probe id is shown as it is."""
    exact = phrases.PROBE_LABELS.get(probe)
    if exact is not None:
        return exact
    name, _, arg = probe.partition(":")
    template = phrases.PROBE_LABELS.get(f"{name}:*" if arg else name)
    template = template or phrases.PROBE_LABELS.get(name)
    if template is None:
        return probe
    param, _, value = arg.partition("=")
    return template.format(arg=arg, param=param, value=value)


_DIED = re.compile(
    re.escape(phrases.WORKER_EXITED).replace(re.escape("{status}"), r"(-?\d+)")
    + "|"
    + re.escape(phrases.WORKER_STILL_RUNNING)
)
"""How verify's worker pool says a worker ended, before its stderr."""


def _died(summary: str) -> str | None:
    """How a worker that died ended, as a page says it; ``None`` when the run raised."""
    died = _DIED.match(summary.removeprefix("✗").strip())
    if died is None:
        return None
    if died.group(1) is None:
        return phrases.OUTCOME_OTHER["timeout"]
    status = int(died.group(1))
    number = -status if status < 0 else status - 128  # a signal: -N, or 128 + N from a shell
    try:
        how = phrases.DIED_BY_SIGNAL.format(name=signal.Signals(number).name)
    except ValueError:
        how = phrases.DIED_WITH_STATUS.format(status=status)
    return phrases.OUTCOME_DIED.format(how=how)


def failed_run(summary: str) -> str:
    """A failed run's summary in a stamp (``✗ TypeError``) as a page says it: the error's
    kind, or that the process died and how, never a fragment of its output."""
    died = _died(summary)
    return died or phrases.OUTCOME_RAISES.format(error=summary.removeprefix("✗").strip())


def result_cell(summary: str) -> str:
    """A run's summary in a stamp as a behaviour table shows it: as recorded (``float32``,
    ``✗ TypeError``), but a process that died is said so instead of its output's fragment."""
    died = _died(summary) if summary.startswith("✗") else None
    return summary if died is None else "✗ " + died


_NOT_EXECUTED = {
    refusal: re.compile(
        re.escape(template)
        .replace(re.escape("{where}"), "(?P<where>.+?)")
        .replace(re.escape("{needs}"), "(?P<needs>.+?)")
    )
    for refusal, template in phrases.NOT_EXECUTED_NEEDS.items()
}


def _not_executed(item: str) -> tuple[str, str, str] | None:
    """(how verify treats it, what is needed, where) of a not-executed sentence."""
    for refusal, pattern in _NOT_EXECUTED.items():
        found = pattern.fullmatch(item)
        if found:
            return refusal, found["needs"], found["where"]
    return None


def unproven_shown(items: list[str]) -> list[str]:
    """What stayed unproven (a stamp's list), each thing said once: the pieces of code that
    need the same device in one sentence (``第 1 个调用、第 2 个调用需要 XPU：…``)."""
    places: dict[tuple[str, str], list[str]] = {}  # (refusal, needs) or ("", text) -> wheres
    for item in items:
        found = _not_executed(item)
        wheres = places.setdefault(found[:2] if found else ("", item), [])
        if found and found[2] not in wheres:
            wheres.append(found[2])
    return [
        phrases.NOT_EXECUTED_NEEDS[refusal].format(where="、".join(wheres), needs=text)
        if refusal
        else text
        for (refusal, text), wheres in places.items()
    ]
