"""The codes of ``apimap import``'s report (IM...): failures, violations and losses.

An imported record carries the violations and losses of its source page in
``imported.findings`` by these codes, until a person has dealt with them; so the table is
part of the record format, and ``apimap check`` reads it (AM704, AM705) without the importer.

* a **failure** stops one page (or one table row) from becoming a record;
* a **violation** is a place where the page breaks the specification and the
  importer had to normalise (a legacy category name, a remark without its
  final 。, half-width punctuation in a fixed phrase, a section the layout does
  not have): nothing is silently fixed;
* a **loss** is source text the page may well hold but the record model has no
  place for (a comment in a signature block, a wordier return-row label).

The IM4xx codes come from running what the page shows (``apimap import --run``).

What the specification rejects in the record itself is left to the other rules of
``apimap check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How a problem affects the page."""

    FAILURE = "failure"
    VIOLATION = "violation"
    LOSS = "loss"


@dataclass(frozen=True)
class Reason:
    """One kind of problem: stable code, severity and message (Chinese, English gloss)."""

    code: str
    severity: Severity
    message: str


NO_TITLE = Reason("IM001", Severity.FAILURE, "没有 `[ 分类 ] API` 形式的标题 (no title)")
UNKNOWN_CATEGORY = Reason("IM002", Severity.FAILURE, "无法识别的分类名称 (unknown category)")
BAD_API = Reason("IM003", Severity.FAILURE, "API 名称不合法 (invalid API name)")
BAD_TABLE = Reason(
    "IM005", Severity.FAILURE, "参数映射表应有 PyTorch、Paddle、备注 3 列 (table needs 3 columns)"
)
DUPLICATE = Reason("IM006", Severity.FAILURE, "同一 API 已从其他页面导入 (API imported twice)")
EXISTS = Reason(
    "IM007", Severity.FAILURE, "记录已存在，未覆盖；用 --force 覆盖 (record exists; use --force)"
)
UNREADABLE = Reason("IM008", Severity.FAILURE, "无法读取或不是 UTF-8 文本 (unreadable file)")
INVALID = Reason("IM009", Severity.FAILURE, "无法构成合法的记录 (cannot form a valid record)")
UNWRITABLE = Reason("IM010", Severity.FAILURE, "无法写入记录 (cannot write the record)")
ROW_NO_CATEGORY = Reason(
    "IM020", Severity.FAILURE, "映射表行没有可识别的分类 (table row has no known category)"
)
ROW_PAGE_MISSING = Reason(
    "IM021", Severity.FAILURE, "映射表行链接的差异页面没有导入 (linked page was not imported)"
)
ALIAS_TARGET_MISSING = Reason(
    "IM022", Severity.FAILURE, "别名指向的 API 没有记录 (alias of an API without a record)"
)

UNMAPPED_TEXT = Reason(
    "IM101", Severity.VIOLATION, "规范的页面结构中没有这段内容，原文保留 (text outside the layout)"
)
UNMAPPED_ROW = Reason(
    "IM102", Severity.VIOLATION, "参数映射行无法读取，原文保留 (unreadable table row)"
)
INVALID_VALUE = Reason(
    "IM103", Severity.LOSS, "取值不符合记录格式，原文保留 (value rejected by the record format)"
)
UNSPLIT_CODE = Reason(
    "IM104",
    Severity.VIOLATION,
    "代码不在「# PyTorch 写法」与「# Paddle 写法」之下，原文保留 (code outside the two sides)",
)
STATED_DEFAULTS = Reason(
    "IM105",
    Severity.VIOLATION,
    "备注中的默认值与签名不符 (the remark's defaults contradict the signatures)",
)
PROSE_IN_CODE = Reason(
    "IM106", Severity.VIOLATION, "代码块中的说明文字，原文保留 (prose inside code)"
)
SIGNATURE_COMMENT = Reason(
    "IM107", Severity.LOSS, "签名代码块中的注释，原文保留 (comment in a signature block)"
)
RETURN_LABEL = Reason(
    "IM108", Severity.LOSS, "返回值行的标签，记录中写作「返回值」(return row label)"
)
ODD_LABEL = Reason(
    "IM109",
    Severity.VIOLATION,
    "示例代码的标签不是「# PyTorch 写法」「# Paddle 写法」(side label worded otherwise)",
)
EMPTY_LINK = Reason(
    "IM110", Severity.VIOLATION, "API 标题的链接为空 (the API heading links to nothing)"
)
UNNAMED_EXAMPLE = Reason(
    "IM111",
    Severity.VIOLATION,
    "转写示例的标题没有写明参数名 (the example's heading does not name its parameter)",
)
OTHER_SECTION = Reason(
    "IM112",
    Severity.LOSS,
    "页面中对应另一个 Paddle API 的一节，记录无法容纳，原文保留 (a section for another paddle API)",
)

LEGACY_CATEGORY = Reason(
    "IM201", Severity.VIOLATION, "旧的分类名称，已换成现行分类 (legacy category name replaced)"
)
NO_PHRASE = Reason(
    "IM202", Severity.VIOLATION, "备注中没有规范短语 (remark has no standard phrase)"
)
MERGED_SUMMARY = Reason(
    "IM203", Severity.VIOLATION, "多段总结合并为一段 (summary paragraphs merged)"
)
TABLE_CONFLICT = Reason(
    "IM204", Severity.VIOLATION, "映射表与差异页面不一致，以页面为准 (table and page disagree)"
)
NO_PARAM_TABLE = Reason(
    "IM205", Severity.VIOLATION, "参数映射一节中没有表格 (no table under 参数映射)"
)
VARIANT_SENTENCE = Reason(
    "IM206",
    Severity.VIOLATION,
    "固定语句的写法与规范不同，按规范语句导入 (a fixed sentence worded otherwise)",
)

NO_FINAL_STOP = Reason(
    "IM301", Severity.VIOLATION, "备注没有以「。」结尾 (remark does not end with 。)"
)
HALF_WIDTH = Reason(
    "IM302", Severity.VIOLATION, "固定短语中用了半角标点 (half-width punctuation in a fixed phrase)"
)
MISSPELT = Reason("IM303", Severity.VIOLATION, "固定短语拼写不规范 (misspelt fixed phrase)")
LOOKALIKE = Reason(
    "IM304", Severity.VIOLATION, "固定短语中有易混淆的字符 (look-alike character in a fixed phrase)"
)
HTML_TAG = Reason("IM305", Severity.VIOLATION, "名称外的 HTML 标签已去除 (HTML tag removed)")
UNCLOSED_FENCE = Reason(
    "IM306", Severity.VIOLATION, "代码块没有闭合，已在下一段内容前闭合 (unclosed code fence)"
)
DELETABLE = Reason(
    "IM307",
    Severity.VIOLATION,
    "「可删除」不是规范的分类，按组合替代实现导入 (可删除 is no category; imported as composite)",
)
EXAMPLE_RAISES = Reason(
    "IM401",
    Severity.VIOLATION,
    "示例代码不能按所写运行 (the example does not run as written)",
)
EXAMPLE_DIFFERS = Reason(
    "IM402",
    Severity.VIOLATION,
    "示例两侧的结果不同 (the example's two sides give different results)",
)
SIGNATURE_DRIFT = Reason(
    "IM403",
    Severity.VIOLATION,
    "签名与已安装的库不符 (the signature differs from the installed library)",
)

ALL_REASONS = [
    NO_TITLE,
    UNKNOWN_CATEGORY,
    BAD_API,
    BAD_TABLE,
    DUPLICATE,
    EXISTS,
    UNREADABLE,
    INVALID,
    UNWRITABLE,
    ROW_NO_CATEGORY,
    ROW_PAGE_MISSING,
    ALIAS_TARGET_MISSING,
    UNMAPPED_TEXT,
    UNMAPPED_ROW,
    INVALID_VALUE,
    UNSPLIT_CODE,
    STATED_DEFAULTS,
    PROSE_IN_CODE,
    SIGNATURE_COMMENT,
    RETURN_LABEL,
    ODD_LABEL,
    EMPTY_LINK,
    UNNAMED_EXAMPLE,
    OTHER_SECTION,
    LEGACY_CATEGORY,
    NO_PHRASE,
    MERGED_SUMMARY,
    TABLE_CONFLICT,
    NO_PARAM_TABLE,
    VARIANT_SENTENCE,
    NO_FINAL_STOP,
    HALF_WIDTH,
    MISSPELT,
    LOOKALIKE,
    HTML_TAG,
    UNCLOSED_FENCE,
    DELETABLE,
    EXAMPLE_RAISES,
    EXAMPLE_DIFFERS,
    SIGNATURE_DRIFT,
]
REASONS_BY_CODE = {reason.code: reason for reason in ALL_REASONS}
