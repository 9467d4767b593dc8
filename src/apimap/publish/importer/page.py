"""Read one mapping page, in the layout of the specification, into a record.

The page is read by what its parts say, not by heading depth, so ``##`` and
``###`` titles, the spec's layout and the site renderer's layout all work:

* the title ``[ 分类 ] api`` gives the API and the category;
* the next API headings (links, or bare names when the URL is missing) give
  the PyTorch and Paddle sides, each followed by its signature block(s);
* paragraphs after them are the summary, the alias line and the package line;
* ``参数映射`` holds the table, ``转写示例`` the examples, ``注意事项`` the notes.

Anything else is kept and reported (:mod:`apimap.publish.importer.problems`).
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

import yaml

from apimap.publish.importer import deviations, patterns, variants
from apimap.publish.importer.blocks import (
    Block,
    Break,
    Fence,
    FrontMatter,
    Heading,
    Paragraph,
    Table,
    scan,
)
from apimap.publish.importer.category_names import CategoryName, category_name, key
from apimap.publish.importer.code import code_numbers, code_text, split_block
from apimap.publish.importer.inline import (
    Link,
    code_spans,
    flatten,
    link_or_text,
    links,
    links_nowhere,
    plain_name,
    prose,
    strip_tags,
    tags,
    without_lookalikes,
)
from apimap.publish.importer.problems import Problem
from apimap.publish.importer.record_data import RecordData, validate_data
from apimap.publish.importer.rows import RowDraft, inconsistent_kind, read_row
from apimap.record import derived, phrases, wording
from apimap.record.categories import ApiType, Category, RowKind
from apimap.record.defaults import same_default_text
from apimap.record.import_codes import (
    BAD_API,
    BAD_TABLE,
    DELETABLE,
    EMPTY_LINK,
    HTML_TAG,
    LEGACY_CATEGORY,
    MERGED_SUMMARY,
    NO_PARAM_TABLE,
    NO_TITLE,
    ODD_LABEL,
    OTHER_SECTION,
    PROSE_IN_CODE,
    SIGNATURE_COMMENT,
    STATED_DEFAULTS,
    UNCLOSED_FENCE,
    UNKNOWN_CATEGORY,
    UNMAPPED_ROW,
    UNMAPPED_TEXT,
    UNNAMED_EXAMPLE,
    UNSPLIT_CODE,
    VARIANT_SENTENCE,
    Severity,
)
from apimap.record.location import Path as DataPath
from apimap.record.model import Record
from apimap.record.paths import API_NAME
from apimap.record.phrases import TODO_MARKER
from apimap.record.signature import ParamKind, Signature

_TITLE = re.compile(r"^\[\s*(?P<label>[^\]]*?)\s*\](?!\()\s*(?P<api>.*)$")
_API_PREFIX = re.compile(r"^(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?P<rest>.*)$")
_ALIASES = re.compile(r"^别名\s*[：:]\s*(?P<rest>.+)$")
_PACKAGE = re.compile(r"^所在的包\s*[：:]\s*(?P<rest>.+)$")
_BADGE = re.compile(r"^\[(?P<text>.*)\]\{\.apimap-badge[^}]*\}(?:\s*验证于.*)?$")
"""The badge line, with the verification date and the edit and report links."""
_RELEASES = re.compile(r"^(适用于|只适用于) Paddle ")
"""The paddle releases the matrix measured (generated from the stamp)."""
_UNPROVEN = re.compile(r"^未经验证的部分\s*[：:]")
_NAME_LINE = re.compile(r"^(?P<name>[^`]+?)\s*(?:[（(](?P<kind>[^（）()]+)[）)])?$")
"""The Chinese name, and the API type in a final parenthesis (the name may hold parentheses of
its own: ``符号函数（支持复数）（方法）``)."""
_SENTENCE_END = re.compile(r"[，,。：:；;！？]\s*$|[，,。；;]")
"""A sentence (``api 存在重载情况，分别如下：``), not a name."""
_INPLACE = re.compile(r"^原位版本\s*[：:]\s*`(?P<torch>[^`]+)`\s*→\s*`(?P<paddle>[^`]+)`$")
_INPLACE_ALIASES = re.compile(r"^原位版本的别名\s*[：:]\s*(?P<rest>.+)$")
_LIST_SEPARATOR = re.compile(r"\s*[、,，]\s*")
_PARAM_NAME = re.compile(r"^(?:参数\s*)?(?P<name>\*{0,2}[A-Za-z_]\w*)(?:\s*参数)?$")
"""An example heading's parameter: ``out``, ``*size``, ``out 参数``."""
_OVERLOAD_LABEL = re.compile(
    r"^#\s*(?:用法|重载|写法|签名)\s*[一二三四五六七八九十\d]*\s*[:：]?\s*$"
)
"""A comment that only numbers the overloads of a signature block (``# 用法一：``)."""
_STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
_HEADING_SPLIT = re.compile(r"\s*[：:]\s*")
_SECTIONS = {
    "参数映射": "params",
    "转写示例": "examples",
    "注意事项": "notes",
    "行为对照": "generated",
    "不同 Paddle 版本": "generated",
    "较早的 Paddle 版本": "generated",
}
"""Page sections; 行为对照 and the release sections (不同 Paddle 版本, on older builds 较早的
Paddle 版本) are generated from the verification stamp and never imported."""
_TABLES_DOC = "tables.md"
_GENERATED_FRONT_MATTER = {"orphan", "myst"}
"""Front matter the renderer writes (``orphan`` and the page description): not content."""
_WHEN = patterns.whole(wording.when_line(patterns.DESC))
_REMARK_HEADER = "备注"
_NOTE_LABEL = re.compile(r"^(?:注意|注|说明)\s*[：:]\s*")
"""``注：`` before a remark in the examples section: the record's notes say it."""


@dataclass
class _Case:
    line: int
    when: str | None
    torch: str | None
    paddle: str | None
    torch_lines: list[int] = field(default_factory=list)
    """The page line of each line of ``torch``."""
    paddle_lines: list[int] = field(default_factory=list)


@dataclass
class _Example:
    line: int
    heading: str | None
    cases: list[_Case] = field(default_factory=list)


@dataclass
class _Note:
    line: int
    text: str
    case: _Case | None = None


@dataclass
class PageResult:
    """A page read into a record (``None`` when it failed) and its problems."""

    record: Record | None
    problems: list[Problem]
    code_lines: dict[DataPath, list[int]] = field(default_factory=dict)
    """Where the record's code came from: the page line of each line of a signature
    (``("torch_signature", 0)``) and of each side of an example case
    (``("examples", 0, "cases", 1, "paddle")``), for reporting what running it finds."""


class _Failed(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message())
        self.problem = problem


def _source(block: Block) -> str:
    """A block as it stood in the page, for keeping it in a comment."""
    if isinstance(block, Heading):
        return f"{'#' * block.level} {block.text}"
    if isinstance(block, Fence):
        return f"```{block.info}\n{block.code}\n```"
    if isinstance(block, Table):
        return block.source
    if isinstance(block, FrontMatter):
        return f"---\n{block.text}\n---"
    if isinstance(block, Paragraph):
        return block.text
    return "---"


def _section(heading: Heading) -> tuple[str | None, str | None]:
    """The section a heading opens, and the name it should have had when it is misspelt by
    one character (``转写实例``)."""
    text = (plain_name(strip_tags(heading.text)) or "").rstrip("：:").strip()
    if text in _SECTIONS:
        return _SECTIONS[text], None
    for name, section in _SECTIONS.items():
        if len(name) >= 4 and _one_apart(text, name):
            return section, name
    return None, None


def _one_apart(text: str, name: str) -> bool:
    """One character replaced, added or left out."""
    if abs(len(text) - len(name)) > 1 or text == name:
        return False
    if len(text) == len(name):
        return sum(a != b for a, b in zip(text, name, strict=True)) == 1
    short, long = sorted((text, name), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _signature(code: str) -> str:
    """A signature block as one line (signatures may be split over lines)."""
    text = flatten(code)
    return re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", text))


def _is_footer(paragraph: Paragraph) -> bool:
    targets = [link.target or "" for link in links(paragraph.text)]
    return any(target.endswith(_TABLES_DOC) for target in targets)


def _split_heading(text: str) -> tuple[str | None, str | None]:
    """``参数名：功能`` -> (param, purpose); ``返回值：…`` has no param."""
    flat = prose(strip_tags(text))
    parts = _HEADING_SPLIT.split(flat, maxsplit=1)
    name = plain_name(parts[0]) or ""
    purpose = parts[1].strip() if len(parts) > 1 else None
    if name == phrases.RETURN_LABEL:
        return None, purpose or None
    param = _PARAM_NAME.match(name)
    if param is not None:
        return param.group("name"), purpose or None
    return None, flat or None


def _side(lines: list[str] | None) -> str | None:
    """One side's code, or ``None`` when the side is missing or holds no code."""
    text = code_text(lines) if lines is not None else ""
    return text or None


def _signatures(fence: Fence) -> tuple[list[tuple[int, str]], list[Problem]]:
    """The signatures of a signature block with their first page line: one per call (a block
    may hold overloads), each as one line; comments are taken out (those that only number the
    overloads are dropped)."""
    signatures: list[tuple[int, str]] = []
    problems: list[Problem] = []
    current: list[str] = []
    start = fence.line + 1
    depth = 0
    for offset, line in enumerate(fence.code.split("\n")):
        text = line.strip()
        if text.startswith("#"):
            if not _OVERLOAD_LABEL.match(without_lookalikes(text)):
                problems.append(Problem(SIGNATURE_COMMENT, fence.line + 1 + offset, kept=text))
            continue
        if not text:
            continue
        if not current:
            start = fence.line + 1 + offset
        current.append(text)
        code = _STRING.sub("", text)
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        if depth <= 0:
            signatures.append((start, _signature("\n".join(current))))
            current, depth = [], 0
    if current:
        signatures.append((start, _signature("\n".join(current))))
    return signatures, problems


class _PageReader:
    """Walks the blocks of one page and collects the record's parts."""

    def __init__(self, blocks: list[Block], lines: int) -> None:
        self.blocks = blocks
        self.lines = lines
        self.problems: list[Problem] = []
        self.state = "lead"
        self.api = ""
        self.name: CategoryName | None = None
        self.title_line = 1
        self.sides: list[tuple[Heading, Link]] = []
        self.torch_signatures: list[str] = []
        self.paddle_signatures: list[str] = []
        self.lead: list[tuple[str, Paragraph]] = []
        self.zh_name: str | None = None
        self.api_type: str | None = None
        self.inplace: tuple[str, str] | None = None
        self.inplace_aliases: list[str] = []
        self.params_heading: Heading | None = None
        self.table: Table | None = None
        self.examples: list[_Example] = []
        self.no_rewrite: Paragraph | None = None
        self.notes: list[_Note] = []
        self.when: tuple[int, str] | None = None
        self.signature_lines: dict[str, list[int]] = {"torch": [], "paddle": []}
        """The page line of each signature of ``torch_signatures`` and ``paddle_signatures``."""
        self.extra: tuple[Heading, list[str]] | None = None
        self.sections = 1
        """How many torch/paddle sections the page has (overloads documented one by one)."""
        self.later_tables: list[Table] = []
        self.section_start: tuple[Heading, int] | None = None
        """The torch heading of the current later section, and how many torch signatures came
        before it."""
        self.other: tuple[Heading, list[str]] | None = None
        """A later section for another paddle API: the record cannot hold it."""
        """A section the layout does not have: its heading and the source of what it holds."""
        self.examples_level: int | None = None
        """The level of the 转写示例 heading (one above the first example's when it is missing)."""

    def lose(self, block: Block, detail: str = "") -> None:
        self.problems.append(Problem(UNMAPPED_TEXT, block.line, detail, kept=_source(block)))

    def read(self) -> None:
        for block in self.blocks:
            if isinstance(block, Fence) and block.cut_before is not None:
                where = (
                    "在页面末尾闭合 (closed at the end of the page)"
                    if block.cut_before > self.lines
                    else f"在第 {block.cut_before} 行之前闭合 (closed before line {block.cut_before})"
                )
                self.problems.append(Problem(UNCLOSED_FENCE, block.line, where))
        start = self._title()
        index = start
        while index < len(self.blocks):
            block = self.blocks[index]
            if isinstance(block, Break):
                following = self.blocks[index + 1] if index + 1 < len(self.blocks) else None
                if isinstance(following, Paragraph) and _is_footer(following):
                    index += 1
            elif self._kept_aside(block):
                pass
            elif isinstance(block, Heading):
                self._heading(block, self._following(index))
            elif isinstance(block, Paragraph):
                self._paragraph(block, self._following(index))
            elif isinstance(block, Fence):
                self._fence(block)
            elif isinstance(block, Table):
                self._table(block)
            else:
                self.lose(block)
            index += 1
        self._close_extra()
        self._close_other()
        self._flush_when()

    def _kept_aside(self, block: Block) -> bool:
        """The block belongs to a section the record cannot hold (kept with it)."""
        if self.extra is not None and self._in_extra(block):
            return True
        return self.other is not None and self._in_other(block)

    def _in_other(self, block: Block) -> bool:
        """A section for another paddle API goes on until the next section of the torch API."""
        assert self.other is not None
        if isinstance(block, Heading) and self._names_api(block):
            self._close_other()
            return False
        self.other[1].append(_source(block))
        return True

    def _close_other(self) -> None:
        if self.other is not None:
            heading, kept = self.other
            self.problems.append(Problem(OTHER_SECTION, heading.line, kept="\n\n".join(kept)))
            self.other = None

    def _names_api(self, heading: Heading) -> bool:
        match = _API_PREFIX.match(link_or_text(heading.text).label)
        return match is not None and match.group("name") == self.api

    def _following(self, index: int) -> Block | None:
        return self.blocks[index + 1] if index + 1 < len(self.blocks) else None

    def _in_extra(self, block: Block) -> bool:
        """A block of a section the layout does not have is kept with it; a heading as high
        as the section's own ends it."""
        assert self.extra is not None
        heading, kept = self.extra
        if isinstance(block, Heading) and block.level <= heading.level:
            self._close_extra()
            return False
        kept.append(_source(block))
        return True

    def _close_extra(self) -> None:
        if self.extra is not None:
            heading, kept = self.extra
            detail = "一节不在规范的页面结构中 (a section outside the layout)"
            self.problems.append(Problem(UNMAPPED_TEXT, heading.line, detail, "\n\n".join(kept)))
            self.extra = None

    def _title(self) -> int:
        for index, block in enumerate(self.blocks):
            if isinstance(block, FrontMatter):
                if not _generated_front_matter(block.text):
                    self.lose(block)
                continue
            match = _TITLE.match(block.text) if isinstance(block, Heading) else None
            if match is None:
                continue
            self.title_line = block.line
            api = link_or_text(match.group("api")).label
            if not API_NAME.match(api):
                raise _Failed(Problem(BAD_API, block.line, f"`{api}`"))
            self.api, self.name = api, self._category_name(match.group("label"))
            for earlier in self.blocks[:index]:
                if not isinstance(earlier, FrontMatter):
                    self.lose(earlier)
            return index + 1
        raise _Failed(Problem(NO_TITLE, 1))

    def _category_name(self, written: str) -> CategoryName:
        """The title's category; what had to be normalised in it is reported."""
        line = self.title_line
        found = tags(written)
        if found:
            detail = " ".join(f"`{tag}`" for tag in found)
            self.problems.append(Problem(HTML_TAG, line, detail, kept=written))
        label = strip_tags(written).strip()
        for deviation in deviations.in_fixed_text(label, names=False):
            self.problems.append(Problem(deviation.reason, line, deviation.detail, kept=label))
        if key(label) == key(phrases.DELETABLE_LABEL):
            self.problems.append(Problem(DELETABLE, line, kept=label))
            return CategoryName(Category.COMPOSITE, None, legacy=False)
        name = category_name(label)
        if name is None:
            raise _Failed(Problem(UNKNOWN_CATEGORY, line, f"`{written}`"))
        return name

    def _heading(self, heading: Heading, following: Block | None) -> None:
        section, misspelt = _section(heading)
        if section is not None:
            self._flush_when()
            self.state = section
            if section == "params":
                self.params_heading = heading
            if section == "examples":
                self.examples_level = heading.level
            if misspelt is not None:
                detail = f"标题应为「{misspelt}」(section heading misspelt)"
                self.problems.append(Problem(UNMAPPED_TEXT, heading.line, detail, heading.text))
            return
        if self.state == "generated" and heading.level > 2:
            return  # a release range of the generated release section
        if self.state == "params" and self._example_heading(heading, following):
            detail = "缺少「转写示例」一节的标题 (no 转写示例 heading before the examples)"
            self.problems.append(Problem(UNMAPPED_TEXT, heading.line, detail, heading.text))
            self.state = "examples"
            self.examples_level = heading.level - 1
        if self.state == "examples" and not self._sibling_of_examples(heading):
            self._flush_when()
            found = tags(heading.text)
            if found:
                detail = " ".join(f"`{tag}`" for tag in found)
                self.problems.append(Problem(HTML_TAG, heading.line, detail, kept=heading.text))
            self.examples.append(_Example(heading.line, heading.text))
            return
        if self.state in ("lead", "torch") and self._side(heading):
            return
        later = ("paddle", "params", "examples", "notes", "unknown")
        if self.state in later and len(self.sides) > 1 and self._names_api(heading):
            self._flush_when()
            self.sections += 1  # the page documents the API again: an overload or another case
            self.section_start = (heading, len(self.torch_signatures))
            self.state = "torch"
            return
        if self.state in later:
            self._flush_when()
            self.extra = (heading, [_source(heading)])
            self.state = "unknown"
            return
        self.lose(heading)

    def _sibling_of_examples(self, heading: Heading) -> bool:
        """A heading as high as 转写示例's own starts another section, not an example."""
        return self.examples_level is not None and heading.level <= self.examples_level

    def _example_heading(self, heading: Heading, following: Block | None) -> bool:
        """``参数：功能`` naming a row of the table, followed by code: an example whose section
        heading the page left out."""
        if self.table is None or not isinstance(following, Fence | Paragraph):
            return False
        param, _ = _split_heading(heading.text)
        names = {plain_name(cells[0]) for _, cells in self.table.rows if cells}
        return param is not None and param.lstrip("*") in {
            (name or "").lstrip("*") for name in names
        }

    def _side(self, heading: Heading) -> bool:
        link = link_or_text(heading.text)
        match = _API_PREFIX.match(link.label)
        if match is None:
            return False
        if self.sections > 1:
            if len(self.sides) > 1 and match.group("name") == self.sides[1][1].label:
                self.state = "paddle"  # the same paddle API again: its signatures are overloads
            else:  # another paddle API: the section, its torch signatures too, is kept aside
                start, count = self.section_start or (heading, len(self.torch_signatures))
                kept = [_source(start), *self.torch_signatures[count:], _source(heading)]
                del self.torch_signatures[count:]
                del self.signature_lines["torch"][count:]
                self.other = (start, kept)
                self.state = "unknown"
            return True
        self.sides.append((heading, Link(match.group("name"), link.target)))
        if links_nowhere(heading.text):
            self.problems.append(Problem(EMPTY_LINK, heading.line, kept=heading.text))
        if match.group("rest").strip():
            self.problems.append(
                Problem(UNMAPPED_TEXT, heading.line, "标题中多余的文字", kept=heading.text)
            )
        self.state = "torch" if len(self.sides) == 1 else "paddle"
        return True

    def _paragraph(self, paragraph: Paragraph, following: Block | None = None) -> None:
        text = prose(paragraph.text)
        if self.state == "generated":
            return
        if self.state == "lead":
            self._lead(paragraph, text)
        elif self.state in ("torch", "paddle"):
            inplace = _INPLACE.match(text)
            inplace_aliases = _INPLACE_ALIASES.match(text)
            if inplace is not None and self.state == "torch":
                self.inplace = (inplace.group("torch"), inplace.group("paddle"))
            elif inplace_aliases is not None and self.state == "torch":
                self.inplace_aliases = _alias_names(inplace_aliases.group("rest"))
            else:
                self.lead.append((self.state, paragraph))
        elif self.state == "examples":
            self._flush_when()
            when = _WHEN.match(text)
            no_rewrite = patterns.phrase_match(text, phrases.NO_REWRITE)
            if no_rewrite is not None:
                self.no_rewrite = paragraph
                self.problems += _wording_problems(no_rewrite, paragraph.line)
            elif when is not None:
                self.when = (paragraph.line, when.group("desc").strip())
            elif isinstance(following, Fence) and "\n" not in paragraph.text.strip():
                self.when = (paragraph.line, text.rstrip("。.：: "))  # a condition line
            elif text.endswith("。"):
                self.notes.append(_Note(paragraph.line, _NOTE_LABEL.sub("", text)))
            else:
                self.lose(paragraph)
        elif self.state == "notes":
            self._flush_when()
            when = _WHEN.match(text)
            if when is not None and self.notes and self.notes[-1].case is None:
                self.when = (paragraph.line, when.group("desc").strip())
            else:
                self.notes.append(_Note(paragraph.line, text))
        else:
            self.lose(paragraph)

    def _lead(self, paragraph: Paragraph, text: str) -> None:
        """Under the title: the Chinese name (and API type), the badge and what it left unproven."""
        if _BADGE.match(flatten(paragraph.text)) or _UNPROVEN.match(text) or _RELEASES.match(text):
            return  # generated from the stamp
        name = _NAME_LINE.match(text)
        if self.zh_name is None and name is not None and not _SENTENCE_END.search(text):
            self.zh_name = name.group("name").strip()
            kind = name.group("kind")
            types = {label: value for value, label in phrases.API_TYPE_LABELS.items()}
            if kind is not None and kind in types:
                self.api_type = types[kind]
            elif kind is not None:  # a parenthesis that names no API type is part of the name
                self.zh_name = text.strip()
            return
        self.lose(paragraph)

    def _flush_when(self) -> None:
        """A condition line not followed by code is kept as a loss."""
        if self.when is not None:
            line, text = self.when
            self.problems.append(Problem(UNMAPPED_TEXT, line, kept=text))
            self.when = None

    def _fence(self, fence: Fence) -> None:
        if self.state == "generated":
            return
        if self.state in ("torch", "paddle") and self._example_code(fence):
            detail = "缺少「转写示例」一节的标题 (no 转写示例 heading before the examples)"
            self.problems.append(Problem(UNMAPPED_TEXT, fence.line, detail))
            self.state = "examples"
            self.examples_level = self.sides[0][0].level if self.sides else None
            self._code(fence)
        elif self.state in ("torch", "paddle"):
            signatures, problems = _signatures(fence)
            self.problems += problems
            target = self.torch_signatures if self.state == "torch" else self.paddle_signatures
            for line, text in signatures:
                if text not in target:  # a later section repeats a signature
                    target.append(text)
                    self.signature_lines[self.state].append(line)
        elif self.state in ("examples", "notes"):
            self._code(fence)
        else:
            self.lose(fence)

    def _example_code(self, fence: Fence) -> bool:
        """A block under an API heading that is example code, not signatures: it has side
        labels, or it follows the side's signatures and holds statements rather than calls
        (a 组合替代实现 page's implementation)."""
        if split_block(fence.code, fence.line + 1, loose=False).cases:
            return True
        read = self.torch_signatures if self.state == "torch" else self.paddle_signatures
        signatures, _ = _signatures(fence)
        return bool(read) and not all(_SIGNATURE_SHAPE.match(text) for _, text in signatures)

    def _code(self, fence: Fence) -> None:
        split = split_block(fence.code, fence.line + 1)
        for line, text in split.prose:
            self.problems.append(Problem(PROSE_IN_CODE, line, kept=text))
        if split.odd_labels:  # once for the block: its labels were all written so
            kept = "\n".join(text for _, text in split.odd_labels)
            self.problems.append(Problem(ODD_LABEL, split.odd_labels[0][0], kept=kept))
        for line, text in split.lookalike_markers:
            found = deviations.lookalikes(text)
            if found is not None:
                self.problems.append(Problem(found.reason, line, found.detail, kept=text))
        if split.stray:
            text = "\n".join(line for _, line in split.stray)
            self.problems.append(Problem(UNSPLIT_CODE, split.stray[0][0], kept=text))
        when = self.when[1] if self.when else None
        self.when = None
        cases: list[_Case] = []
        for case in split.cases:
            case_when = case.when or (when if not cases else None)
            torch, paddle = _side(case.torch), _side(case.paddle)
            if torch is not None or paddle is not None:
                torch_lines = code_numbers(case.torch or [], case.torch_numbers)
                paddle_lines = code_numbers(case.paddle or [], case.paddle_numbers)
                cases.append(_Case(case.line, case_when, torch, paddle, torch_lines, paddle_lines))
        unmarked = _side(split.unmarked)
        if unmarked is not None:
            numbers = code_numbers(split.unmarked, split.unmarked_numbers)
            cases.append(_Case(fence.line + 1, when, None, unmarked, [], numbers))
        if not cases:
            if not split.stray and not split.prose:
                self.problems.append(Problem(UNSPLIT_CODE, fence.line, kept=fence.code or None))
            return
        if self.state == "notes":
            self._note_case(fence, cases)
            return
        if not self.examples:
            self.examples.append(_Example(fence.line, None))
        self.examples[-1].cases.extend(cases)

    def _note_case(self, fence: Fence, cases: list[_Case]) -> None:
        note = self.notes[-1] if self.notes else None
        if note is None or note.case is not None:
            self.lose(fence, "注意事项中没有对应说明的代码 (code without a note)")
            return
        note.case = cases[0]
        for extra in cases[1:]:
            sides = [(phrases.TORCH_CODE, extra.torch), (phrases.PADDLE_CODE, extra.paddle)]
            kept = "".join(f"{marker}\n{code}" for marker, code in sides if code is not None)
            self.problems.append(Problem(UNSPLIT_CODE, extra.line, "多余的示例", kept=kept))

    def _table(self, table: Table) -> None:
        if self.state == "generated":
            return
        looks_like_params = table.header and plain_name(table.header[-1]) == _REMARK_HEADER
        if self.table is None and (self.state == "params" or looks_like_params):
            if len(table.header) != 3:
                raise _Failed(Problem(BAD_TABLE, table.line, f"{len(table.header)} 列"))
            self.table = table
        elif self.sections > 1 and self.state == "params" and len(table.header) == 3:
            self.later_tables.append(table)  # another section's rows join the first's
        else:
            self.lose(table)


def _rows(reader: _PageReader) -> tuple[list[RowDraft], list[Problem]]:
    drafts: list[RowDraft] = []
    problems: list[Problem] = []
    if reader.table is None:
        if reader.params_heading is not None:
            problems.append(Problem(NO_PARAM_TABLE, reader.params_heading.line))
        return drafts, problems

    def names(cells: list[str]) -> tuple[str | None, str | None]:
        return (plain_name(cells[0]), plain_name(cells[1])) if len(cells) > 1 else (None, None)

    seen = {names(cells) for _, cells in reader.table.rows}
    later = [
        (line, cells)
        for table in reader.later_tables
        for line, cells in table.rows
        if names(cells) not in seen  # the same row in another section
    ]
    for line, cells in [*reader.table.rows, *later]:
        if len(cells) != 3:
            source = "| " + " | ".join(cells) + " |"
            detail = f"{len(cells)} 列 (expected 3 cells)"
            problems.append(Problem(UNMAPPED_ROW, line, detail, kept=source))
            continue
        draft, row_problems = read_row(line, cells)
        problems += row_problems
        if draft is not None:
            drafts.append(draft)
    return drafts, problems


def _category(reader: _PageReader, drafts: list[RowDraft]) -> tuple[Category, list[Problem]]:
    name = reader.name
    assert name is not None
    declared = name.category
    for draft in drafts:
        if draft.inconsistent:
            draft.fields["kind"] = inconsistent_kind(declared, draft).value
    category = name.resolve([RowKind(draft.fields["kind"]) for draft in drafts])
    problems = []
    if name.legacy:
        problems.append(Problem(LEGACY_CATEGORY, reader.title_line, f"→ {category.label}"))
    return category, problems


def _alias_names(listed: str) -> list[str]:
    """The API names of an alias line (``别名：`a`、`b```), code spans or a plain list."""
    names = code_spans(listed) or _LIST_SEPARATOR.split(listed)
    return [plain_name(name) or name for name in names]


def _summary_paragraphs(reader: _PageReader, data: RecordData) -> list[Paragraph]:
    """Alias and package lines go to their fields; the rest is summary (or lost)."""
    has_paddle_side = len(reader.sides) > 1
    summary: list[Paragraph] = []
    said: set[str] = set()
    for state, paragraph in reader.lead:
        text = prose(paragraph.text)
        if text in said:
            continue  # a later section says it again
        said.add(text)
        aliases = _ALIASES.match(text)
        package = _PACKAGE.match(text)
        if aliases is not None:
            for alias in _alias_names(aliases.group("rest")):
                data.item("torch_aliases", alias, paragraph.line)
        elif package is not None:
            rest = package.group("rest")
            spans = code_spans(rest)
            data.set("paddle_package", spans[0] if spans else rest.strip(), paragraph.line)
        elif state == "torch" and has_paddle_side:
            reader.lose(paragraph)
        else:
            summary.append(paragraph)
    return summary


def _example_fields(
    example: _Example,
    rows: list[dict[str, Any]],
    spellings: dict[str, str],
    sources: dict[int, _Case],
    category: Category,
    problems: list[Problem],
    api: str = "",
    signature: Signature | None = None,
) -> dict[str, Any]:
    """An example; a purpose equal to the row's meaning is left to the renderer. A heading that
    names varargs without their stars (``size：…`` for ``*size``) takes the signature's spelling.
    An example whose heading names no parameter, on a page where only one row is rewritten and
    whose code passes that parameter, is that row's (IM111 says the heading should name it)."""
    param, purpose = _split_heading(example.heading) if example.heading else (None, None)
    if param is None and purpose is not None:
        param, purpose = _spaced_heading(purpose, rows, spellings)
    returns = next((r for r in rows if r.get("kind") == RowKind.RETURN_DIFF.value), None)
    if param is None and returns is None and category.group <= 3:
        param = _only_rewritten(rows)
        if param is not None and not all(
            case.torch and _passes(case.torch, api, param, signature) for case in example.cases
        ):
            param = None
        if param is not None:
            detail = f"应为「{param}：…」(the heading should name `{param}`)"
            problems.append(Problem(UNNAMED_EXAMPLE, example.line, detail, example.heading))
    if param is not None:
        param = spellings.get(param, param)
        row = next((r for r in rows if param in _torch_names(r.get("torch"))), None)
    else:
        row = returns
    if row is not None and purpose == row.get("desc"):
        purpose = None
    cases = [_case_fields(case, sources) for case in example.cases]
    fields = {"param": param, "purpose": purpose, "cases": cases}
    return {key: value for key, value in fields.items() if value is not None}


def _spaced_heading(
    heading: str, rows: list[dict[str, Any]], spellings: dict[str, str]
) -> tuple[str | None, str | None]:
    """``t 浮点张量类型``: a row's parameter and its purpose without the colon."""
    first, _, rest = heading.partition(" ")
    names = {name for row in rows for name in _torch_names(row.get("torch"))}
    if rest.strip() and spellings.get(first, first) in names:
        return first, rest.strip()
    return None, heading


def _passes(code: str, api: str, param: str, signature: Signature | None) -> bool:
    """Whether ``code`` calls ``api`` (or the method of that name) passing ``param``, by
    keyword or at its position."""
    try:
        tree = ast.parse(textwrap.dedent(code))
    except SyntaxError:
        return False
    name = param.lstrip("*")
    member = api.rsplit(".", 1)[-1]
    positional = [
        p.name
        for p in (signature.params if signature else ())
        if p.kind in (ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD)
        or p.kind is ParamKind.VAR_POSITIONAL
    ]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = ast.unparse(node.func)
        if called != api and not called.endswith(f".{member}"):
            continue
        if any(keyword.arg == name for keyword in node.keywords):
            return True
        if name in positional and len(node.args) > positional.index(name):
            return True
    return False


def _only_rewritten(rows: list[dict[str, Any]]) -> str | None:
    """The torch parameter of the one row that is rewritten, when there is exactly one."""
    rewritten = [
        row
        for row in rows
        if row.get("action") == "rewrite"
        and row.get("kind") in ("torch_only", "usage_diff", "type_diff")
        and _torch_names(row.get("torch"))
    ]
    return _torch_names(rewritten[0].get("torch"))[0] if len(rewritten) == 1 else None


def _torch_names(torch: str | list[str] | None) -> list[str]:
    """The torch names of a row (one-to-many rows list several)."""
    if torch is None:
        return []
    return [torch] if isinstance(torch, str) else list(torch)


def _case_fields(case: _Case, sources: dict[int, _Case]) -> dict[str, str]:
    """A case's fields; ``sources`` learns which case of the page they came from."""
    fields = {"when": case.when, "torch": case.torch, "paddle": case.paddle}
    kept = {key: value for key, value in fields.items() if value is not None}
    sources[id(kept)] = case
    return kept


def _code_lines(
    reader: _PageReader, data: RecordData, sources: dict[int, _Case]
) -> dict[DataPath, list[int]]:
    """The page lines of the record's signatures and example code (see ``PageResult``)."""
    lines: dict[DataPath, list[int]] = {}
    for side in ("torch", "paddle"):
        found = reader.signature_lines[side]
        if len(found) == 1:
            lines[(f"{side}_signature",)] = found
        for index, line in enumerate(found if len(found) > 1 else []):
            lines[(f"{side}_signature", index)] = [line]
    places: list[tuple[DataPath, dict[str, Any]]] = []
    for index, example in enumerate(data.fields.get("examples", [])):
        places += [
            (("examples", index, "cases", number), case)
            for number, case in enumerate(example.get("cases", []))
        ]
    for index, note in enumerate(data.fields.get("notes", [])):
        if "example" in note:
            places.append((("notes", index, "example"), note["example"]))
    for path, case in places:
        source = sources.get(id(case))
        if source is not None:
            lines[(*path, "torch")] = source.torch_lines
            lines[(*path, "paddle")] = source.paddle_lines
    return lines


def _decide_summary(
    record: Record, paragraphs: list[Paragraph]
) -> tuple[str | None, list[Problem]]:
    """``None`` when the page says what the renderer generates (how its wording departs from
    the specification's is reported)."""
    texts = [prose(p.text) for p in paragraphs]
    problems: list[Problem] = []
    if record.category is Category.COMPOSITE:
        kept = []
        for paragraph, text in zip(paragraphs, texts, strict=True):
            lead = patterns.phrase_match(text, phrases.COMPOSITE_LEAD)
            if lead is not None:
                problems += _wording_problems(lead, paragraph.line)
            elif variants.COMPOSITE_LEAD.match(text):
                detail = f"规范语句 (standard)：{phrases.COMPOSITE_LEAD}"
                problems.append(Problem(VARIANT_SENTENCE, paragraph.line, detail, kept=text))
            else:
                kept.append((paragraph, text))
        paragraphs, texts = [p for p, _ in kept], [t for _, t in kept]
        # the template's description of the API and its formula: one summary, not a merge
        return (" ".join(texts) or None), problems
    else:
        generated = wording.summary(record)
        matches = [
            patterns.phrase_match(text, expected)
            for text, expected in zip(texts, generated, strict=False)
        ]
        if len(generated) == len(texts) and all(matches):
            return None, [
                problem
                for match, paragraph in zip(matches, paragraphs, strict=True)
                if match is not None
                for problem in _wording_problems(match, paragraph.line)
            ]
    if not texts:
        return None, problems
    if len(texts) > 1:
        problems.append(Problem(MERGED_SUMMARY, paragraphs[1].line, f"{len(texts)} 段"))
    return " ".join(texts), problems


def _wording_problems(match: re.Match[str], line: int) -> list[Problem]:
    """How fixed wording the importer recognised departs from the specification's."""
    return [
        Problem(found.reason, line, found.detail, kept=match.string)
        for found in deviations.in_match(match)
    ]


def _defaults_problems(record: Record, drafts: list[RowDraft]) -> list[Problem]:
    problems = []
    for row, draft in zip(record.params, drafts, strict=True):
        if draft.stated_defaults is None:
            continue
        actual = derived.row_defaults(record, row)
        stated_torch, stated_paddle = draft.stated_defaults
        torch_side, paddle_side = derived.torch_names(row), derived.paddle_names(row)
        known = [  # a parameter the signatures do not name (a torch-style name paddle accepts)
            (found, stated)  # is not judged: its default is unknown, not absent
            for side, found, stated, find in (
                (torch_side, actual.torch, stated_torch, derived.torch_param),
                (paddle_side, actual.paddle, stated_paddle, derived.paddle_param),
            )
            if side and find(record, side[0]) is not None
        ]
        if not all(same_default_text(found, stated) for found, stated in known):
            detail = f"`{row.torch}`"
            problems.append(Problem(STATED_DEFAULTS, draft.line, detail, kept=draft.remark))
    return problems


def _spellings(signatures: list[str]) -> dict[str, str]:
    """Bare name -> ``*name`` / ``**name`` for the varargs of ``signatures``."""
    parsed = [sig for sig in map(derived.parse, signatures) if sig is not None]
    plain = {param.name for sig in parsed for param in sig.params if param.spelled == param.name}
    return {
        param.name: param.spelled
        for sig in parsed
        for param in sig.params
        if param.spelled != param.name and param.name not in plain
    }


def _split_by_example_headings(
    drafts: list[RowDraft], examples: list[_Example], spellings: dict[str, str]
) -> None:
    """A remark joins the meaning and the difference with ``，`` and cannot say where one ends
    when the meaning holds a ``，`` too; an example heading ``参数：功能`` whose purpose the remark
    starts with says it (the renderer writes the row's meaning there)."""
    purposes: dict[str, str] = {}
    for example in examples:
        param, purpose = _split_heading(example.heading) if example.heading else (None, None)
        if param is not None and purpose is not None:
            purposes.setdefault(spellings.get(param, param), purpose)
    for draft in drafts:
        fields = draft.fields
        torch, desc, diff = fields.get("torch"), fields.get("desc"), fields.get("diff")
        if not isinstance(torch, str) or diff is None or torch not in purposes:
            continue
        purpose = purposes[torch]
        joined = "，".join(part for part in (desc, diff) if part)
        if purpose != desc and joined.startswith(f"{purpose}，"):
            fields["desc"], fields["diff"] = purpose, joined.removeprefix(f"{purpose}，")


def _spell_varargs(drafts: list[RowDraft], torch: list[str], paddle: list[str]) -> None:
    """Tables often write varargs without their stars (``size`` for ``*size``): the rows take
    the signature's spelling."""
    for side, spellings in (("torch", _spellings(torch)), ("paddle", _spellings(paddle))):
        for draft in drafts:
            value = draft.fields.get(side)
            if isinstance(value, list):
                draft.fields[side] = [spellings.get(name, name) for name in value]
            elif value is not None:
                draft.fields[side] = spellings.get(value, value)


def _self_param(reader: _PageReader, drafts: list[RowDraft]) -> str | None:
    """The paddle parameter that receives the object when a class member maps to a free
    function (``torch.Tensor.outer(vec2)`` -> ``paddle.outer(x, y)``): the first paddle
    parameter, when no row maps it to a torch parameter. A paddle-only row for it is the
    one the specification says to leave out (its note 3): it is taken out of the rows."""
    if len(reader.sides) < 2 or not derived.is_class_member(reader.api):
        return None
    if derived.is_class_member(reader.sides[1][1].label):
        return None
    signature = next(filter(None, map(derived.parse, reader.paddle_signatures)), None)
    if signature is None or not signature.params:
        return None
    first = signature.params[0].spelled
    own = [
        draft
        for draft in drafts
        if draft.fields.get("torch") is None and draft.fields.get("paddle") == first
    ]
    for draft in own:
        drafts.remove(draft)
    mapped = {name for draft in drafts for name in derived.names(draft.fields.get("paddle"))}
    return None if first in mapped else first


_BARE_NAME = re.compile(r"^[A-Za-z_][\w.]*$")
_SIGNATURE_SHAPE = re.compile(r"^[A-Za-z_][\w.]*\s*(?:\(.*\))?$")
"""A signature (``api(params)``) or a bare name: not an assignment, an import or a block."""
"""A "signature" that is only a name: the page of an attribute or a constant."""


def _without_bare_names(reader: _PageReader) -> None:
    """An attribute or a constant has no signature: a block holding only its name
    (``torch.Tensor.T``, ``torch.float16``) says which it is (a class member is an attribute;
    a name like a class's, ``torch.distributed.ReduceOp``, is an enumeration class whose rows
    are its members).
    A paddle attribute that a callable torch API maps onto keeps its name as its signature."""
    bare = bool(reader.torch_signatures) and all(
        _BARE_NAME.match(text) for text in reader.torch_signatures
    )
    if bare:
        reader.torch_signatures = []
        reader.signature_lines["torch"] = []
        if reader.api_type is None:
            member = derived.is_class_member(reader.api)
            named_as_class = reader.api.rsplit(".", 1)[-1][:1].isupper()
            kind = ApiType.CLASS if named_as_class else ApiType.CONSTANT
            reader.api_type = (ApiType.ATTRIBUTE if member else kind).value
    paddle_bare = all(_BARE_NAME.match(t) for t in reader.paddle_signatures)
    if reader.paddle_signatures and paddle_bare and not reader.torch_signatures:
        # attribute to attribute: neither side has a signature; a callable torch API mapped
        # onto a paddle attribute keeps the attribute's name as the paddle side's
        reader.paddle_signatures = []
        reader.signature_lines["paddle"] = []


def _assemble(reader: _PageReader) -> PageResult:
    _without_bare_names(reader)
    data = RecordData()
    summary_paragraphs = _summary_paragraphs(reader, data)
    problems = list(reader.problems)
    data.set("torch_api", reader.api, reader.title_line)
    data.set("zh_name", reader.zh_name or TODO_MARKER, reader.title_line)
    if reader.api_type is not None:
        data.set("api_type", reader.api_type, reader.title_line)
    if reader.inplace is not None:
        torch_variant, paddle_variant = reader.inplace
        variant: dict[str, Any] = {"torch": torch_variant, "paddle": paddle_variant}
        if reader.inplace_aliases:
            variant["aliases"] = reader.inplace_aliases
        data.set("inplace", variant, reader.title_line)
    sides = reader.sides
    if sides:
        heading, link = sides[0]
        if link.label != reader.api:
            detail = f"PyTorch API `{link.label}` 与标题不同 (differs from the title)"
            problems.append(Problem(UNMAPPED_TEXT, heading.line, detail, kept=heading.text))
        if reader.torch_signatures:
            overloads = reader.torch_signatures
            data.set(
                "torch_signature", overloads[0] if len(overloads) == 1 else overloads, heading.line
            )
        if link.target:
            data.set("torch_url", link.target, heading.line)
    if len(sides) > 1:
        heading, link = sides[1]
        data.set("paddle_api", link.label, heading.line)
        signatures = reader.paddle_signatures
        if signatures:
            value = signatures[0] if len(signatures) == 1 else signatures
            data.set("paddle_signature", value, heading.line)
        if link.target:
            data.set("paddle_url", link.target, heading.line)
    for extra_heading, _ in sides[2:]:
        problems.append(Problem(UNMAPPED_TEXT, extra_heading.line, kept=extra_heading.text))
    drafts, row_problems = _rows(reader)
    _spell_varargs(drafts, reader.torch_signatures, reader.paddle_signatures)
    _split_by_example_headings(drafts, reader.examples, _spellings(reader.torch_signatures))
    lines = {draft.line for draft in drafts}
    self_param = _self_param(reader, drafts)
    left_out = lines - {draft.line for draft in drafts}
    problems += [problem for problem in row_problems if problem.line not in left_out]
    if self_param is not None:
        data.set("self_param", self_param, sides[1][0].line)
        if reader.api_type is None:
            data.set("api_type", ApiType.METHOD.value, reader.title_line)
    category, category_problems = _category(reader, drafts)
    problems += category_problems
    data.set("category", category.value, reader.title_line)
    for draft in drafts:
        data.item("params", draft.fields, draft.line)
    accepts = {name: own for draft in drafts for name, own in draft.accepts.items()}
    if accepts:
        data.set("paddle_accepts", accepts, drafts[0].line)
    rows = data.fields.get("params", [])
    sources: dict[int, _Case] = {}
    for example in reader.examples:
        if example.cases:
            spelt = _example_fields(
                example,
                rows,
                _spellings(reader.torch_signatures),
                sources,
                category,
                problems,
                reader.api,
                next(filter(None, map(derived.parse, reader.torch_signatures)), None),
            )
            data.item("examples", spelt, example.line)
        elif example.heading is not None:
            problems.append(Problem(UNMAPPED_TEXT, example.line, kept=example.heading))
    for note in reader.notes:
        fields: dict[str, Any] = {"text": note.text}
        if note.case is not None:
            fields["example"] = _case_fields(note.case, sources)
        data.item("notes", fields, note.line)
    validated = validate_data(data)
    problems += validated.problems
    record = validated.record
    if record is None:
        return PageResult(None, problems)
    summary, summary_problems = _decide_summary(record, summary_paragraphs)
    problems += summary_problems
    if summary is not None:
        data.set("summary", summary, summary_paragraphs[0].line)
        validated = validate_data(data)
        problems += validated.problems
        record = validated.record
        if record is None:
            return PageResult(None, problems)
    kept_rows = [d for d in drafts if any(d.fields is row for row in data.fields.get("params", []))]
    problems += _defaults_problems(record, kept_rows)
    if reader.no_rewrite is not None and not wording.says_no_rewrite(record):
        problems.append(Problem(UNMAPPED_TEXT, reader.no_rewrite.line, kept=reader.no_rewrite.text))
    return PageResult(record, problems, _code_lines(reader, data, sources))


def read_page(text: str) -> PageResult:
    """Read page ``text`` into a record."""
    reader = _PageReader(scan(text), len(text.splitlines()))
    try:
        reader.read()
    except _Failed as failed:
        return PageResult(None, [*reader.problems, failed.problem])
    result = _assemble(reader)
    order = {Severity.FAILURE: 0, Severity.VIOLATION: 1, Severity.LOSS: 2}
    result.problems.sort(key=lambda p: (p.line, order[p.severity], p.code))
    return result


def _generated_front_matter(text: str) -> bool:
    """``orphan: true`` and ``myst: {html_meta: ...}``, as the renderer writes them."""
    body = "\n".join(line for line in text.strip().splitlines() if line.strip() != "---")
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError:
        return False
    if not isinstance(data, dict) or not set(data) <= _GENERATED_FRONT_MATTER:
        return False
    myst = data.get("myst", {})
    return (
        data.get("orphan", True) is True and isinstance(myst, dict) and set(myst) <= {"html_meta"}
    )
