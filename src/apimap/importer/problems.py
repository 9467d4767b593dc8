"""What the importer reports: failures, losses and notes, each with a stable code.

* a **failure** stops one page (or one table row) from becoming a record;
* a **loss** is source text the record model has no place for: the record is
  written, the text is kept as a comment at the top of the record file and
  reported with its source line — never silently dropped;
* a **note** says what the importer had to decide (a legacy category name, a
  remark without a standard phrase) so that a reviewer can look.

The importer does not fix content; ``apimap check`` reports what the
specification rejects in the records it wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How a problem affects the page."""

    FAILURE = "failure"
    LOSS = "loss"
    NOTE = "note"


@dataclass(frozen=True)
class Reason:
    """One kind of problem: stable code, severity and message (Chinese, English gloss)."""

    code: str
    severity: Severity
    message: str


NO_TITLE = Reason("IM001", Severity.FAILURE, "没有 `[ 分类 ] API` 形式的标题 (no title)")
UNKNOWN_CATEGORY = Reason("IM002", Severity.FAILURE, "无法识别的分类名称 (unknown category)")
BAD_API = Reason("IM003", Severity.FAILURE, "API 名称不合法 (invalid API name)")
UNCLOSED_FENCE = Reason("IM004", Severity.FAILURE, "代码块没有闭合 (unclosed code fence)")
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
    "IM101", Severity.LOSS, "内容无法对应到记录字段，已作为注释保留 (text kept as a comment)"
)
UNMAPPED_ROW = Reason(
    "IM102", Severity.LOSS, "参数映射行无法读取，已作为注释保留 (row kept as a comment)"
)
INVALID_VALUE = Reason(
    "IM103", Severity.LOSS, "取值不符合记录格式，已作为注释保留 (value rejected, kept as a comment)"
)
UNSPLIT_CODE = Reason(
    "IM104",
    Severity.LOSS,
    "代码块无法分成 PyTorch 写法与 Paddle 写法，已作为注释保留 (code kept as a comment)",
)
STATED_DEFAULTS = Reason(
    "IM105",
    Severity.LOSS,
    "备注中的默认值与签名不符，已作为注释保留 (remark's defaults differ from the signatures)",
)
PROSE_IN_CODE = Reason(
    "IM106", Severity.LOSS, "代码块中的说明文字，已作为注释保留 (prose inside code, kept)"
)

LEGACY_CATEGORY = Reason(
    "IM201", Severity.NOTE, "旧的分类名称，已换成现行分类 (legacy category name replaced)"
)
NO_PHRASE = Reason(
    "IM202", Severity.NOTE, "备注中没有规范短语，整句作为参数含义 (remark has no standard phrase)"
)
MERGED_SUMMARY = Reason("IM203", Severity.NOTE, "多段总结合并为一段 (summary paragraphs merged)")
TABLE_CONFLICT = Reason(
    "IM204", Severity.NOTE, "映射表与差异页面不一致，以页面为准 (table and page disagree)"
)
NO_PARAM_TABLE = Reason("IM205", Severity.NOTE, "参数映射一节中没有表格 (no table under 参数映射)")

ALL_REASONS = [
    NO_TITLE,
    UNKNOWN_CATEGORY,
    BAD_API,
    UNCLOSED_FENCE,
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
    LEGACY_CATEGORY,
    NO_PHRASE,
    MERGED_SUMMARY,
    TABLE_CONFLICT,
    NO_PARAM_TABLE,
]


@dataclass(frozen=True)
class Problem:
    """One reported problem of a source file."""

    reason: Reason
    line: int
    detail: str = ""
    kept: str | None = None
    """The source text kept as a comment in the record (losses)."""

    @property
    def code(self) -> str:
        """The stable code, e.g. ``IM101``."""
        return self.reason.code

    @property
    def severity(self) -> Severity:
        """Failure, loss or note."""
        return self.reason.severity

    def message(self) -> str:
        """The message with its detail."""
        return f"{self.reason.message}: {self.detail}" if self.detail else self.reason.message
