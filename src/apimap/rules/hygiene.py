"""AM240-AM245: punctuation and hygiene of the prose."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.rules.base import Finding, Rule, Scope
from apimap.rules.text import INLINE_PROSE, SENTENCE_PROSE, code, prose

_E = Severity.ERROR
_FINAL_PUNCTUATION = "。．.，,；;：:！!？?、"


def check_inline_end(ctx: RecordContext) -> Iterator[Finding]:
    """Meanings and conditions are continued by a generated phrase: no final punctuation."""
    for path, text in prose(ctx):
        if path[-1] in INLINE_PROSE and text.rstrip()[-1:] in _FINAL_PUNCTUATION:
            yield Finding(ctx.loc(*path), f"`{text.rstrip()[-1]}`")


INLINE_END = Rule(
    "AM240",
    "该文本后面会接固定短语，不应以标点结尾 (text is continued by a phrase: no final punctuation)",
    Scope.RECORD,
    _E,
    "删除结尾的标点；备注的“，需要转写。”等由 apimap 生成 (the phrase is generated)",
    check_inline_end,
)


def check_sentence_end(ctx: RecordContext) -> Iterator[Finding]:
    """Notes, reasons and remarks end with 。; a summary ends with 。 or ：."""
    for path, text in prose(ctx):
        end = text.rstrip()[-1:]
        if path[-1] == "summary" and end not in "。：":
            yield Finding(ctx.loc(*path), "summary 应以 。 或 ： 结尾 (summary ends with 。 or ：)")
        elif path[-1] in SENTENCE_PROSE and end != "。":
            yield Finding(ctx.loc(*path), f"`{path[-1]}` 应以 。 结尾 (ends with 。)")


SENTENCE_END = Rule(
    "AM241",
    "句子没有以句号结尾 (sentence does not end with 。)",
    Scope.RECORD,
    _E,
    "每个备注与说明都以全角句号 。 结尾 (end every remark with 。)",
    check_sentence_end,
)

_HTML = re.compile(r"<\s*/?\s*[A-Za-z][A-Za-z0-9-]*(\s+[^<>]*)?/?\s*>")


def check_html(ctx: RecordContext) -> Iterator[Finding]:
    """Prose is plain text: no raw HTML such as ``<font color=red>``."""
    for path, text in prose(ctx):
        match = _HTML.search(text)
        if match:
            yield Finding(ctx.loc(*path), f"`{match.group()}`")


HTML = Rule(
    "AM242",
    "文本中有 HTML 标签 (raw HTML in text)",
    Scope.RECORD,
    _E,
    "删除标签；需要强调参数名时用反引号，如 `dim` (use backticks instead)",
    check_html,
)

_LOOKALIKE = re.compile(
    "[\u2e80-\u2eff\u2f00-\u2fdf\u200b-\u200f\u2060\ufeff\u00a0\u3000"
    "\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]"
)


def lookalike_replacement(char: str) -> str:
    """What a look-alike character should be (``⼀`` -> ``一``, NBSP -> space)."""
    if char in "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff":
        return ""
    return unicodedata.normalize("NFKC", char)


def _strings(ctx: RecordContext) -> Iterator[tuple[tuple[str | int, ...], str]]:
    yield from prose(ctx)
    for path, source, _side in code(ctx):
        yield path, source
    record = ctx.record
    for name in ("torch_api", "paddle_api", "paddle_signature"):
        value = getattr(record, name)
        if value is not None:
            yield (name,), value
    for index, row in enumerate(record.params):
        for side in ("torch", "paddle"):
            value = getattr(row, side)
            if value is not None:
                yield ("params", index, side), value


def check_lookalikes(ctx: RecordContext) -> Iterator[Finding]:
    """No Kangxi radicals, zero-width or full-width look-alikes of ordinary characters."""
    for path, text in _strings(ctx):
        match = _LOOKALIKE.search(text)
        if match:
            char = match.group()
            fix = lookalike_replacement(char)
            shown = repr(fix) if fix.strip() == "" else f"`{fix}`"
            yield Finding(
                ctx.loc(*path),
                f"U+{ord(char):04X} {unicodedata.name(char, '?')}",
                f"替换为 {shown} (replace with {shown})",
            )


LOOKALIKES = Rule(
    "AM243",
    "文本中有易混淆的字符 (look-alike character)",
    Scope.RECORD,
    _E,
    "替换为普通字符 (replace it with the ordinary character)",
    check_lookalikes,
)

_CJK = "\u4e00-\u9fff"
_HALF_WIDTH = re.compile(f"(?<=[{_CJK}])[,;:!?]|[,;:!?](?=[{_CJK}])")
_FULL_WIDTH = {",": "，", ";": "；", ":": "：", "!": "！", "?": "？"}


def check_full_width(ctx: RecordContext) -> Iterator[Finding]:
    """Chinese text uses full-width punctuation."""
    for path, text in prose(ctx):
        match = _HALF_WIDTH.search(text)
        if match:
            char = match.group()
            yield Finding(
                ctx.loc(*path),
                f"`{char}` 应为 `{_FULL_WIDTH[char]}`",
                f"中文之间用全角标点 `{_FULL_WIDTH[char]}` (use full-width punctuation)",
            )


FULL_WIDTH = Rule(
    "AM244",
    "中文文本使用了半角标点 (half-width punctuation in Chinese text)",
    Scope.RECORD,
    _E,
    "中文之间用全角标点 (use full-width punctuation next to Chinese)",
    check_full_width,
)

GENERATED_PHRASES = (
    "需要转写",
    "暂无转写方式",
    "可直接删除",
    "仅参数名不一致",
    "无此参数",
    "保持默认即可",
)


SUMMARY_PHRASES = ("组合替代实现：", "暂无转写方式")
"""Sentences the page adds after a summary (the composite lead, the no-rewrite notice)."""


def check_typed_phrases(ctx: RecordContext) -> Iterator[Finding]:
    """The fixed phrases come from kind, action and category, never typed by hand."""
    for path, text in prose(ctx):
        phrases: tuple[str, ...]
        if path[0] == "params":
            phrases = GENERATED_PHRASES
        elif path[0] == "summary":
            phrases = SUMMARY_PHRASES
        else:
            continue
        for phrase in phrases:
            if phrase in text:
                yield Finding(ctx.loc(*path), f"「{phrase}」")
                break


TYPED_PHRASES = Rule(
    "AM245",
    "手写了应由 kind/action 生成的固定短语 (typed a phrase that kind/action generate)",
    Scope.RECORD,
    _E,
    "删除该短语，用 kind 与 action 表达 (express it with kind and action)",
    check_typed_phrases,
)

RULES = [INLINE_END, SENTENCE_END, HTML, LOOKALIKES, FULL_WIDTH, TYPED_PHRASES]
