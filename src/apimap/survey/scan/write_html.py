"""``--format html``: one self-contained page (inline CSS and JS, nothing fetched).

A bar per migration bucket and per mapping category, then the API and
Tensor-method tables, sortable by any column and filterable. Every value that
comes from the scanned code (paths, names, messages) is escaped; the script
reads only ``data-`` attributes and sets text, never markup.
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import TextIO

from apimap.record.categories import GROUP_COLOURS, Category
from apimap.survey.scan.classify import BUCKET_COLOURS, Bucket
from apimap.survey.scan.report import ScanReport, Usage
from apimap.survey.scan.tensor_methods import CONFIDENCE_NOTE
from apimap.survey.scan.write_text import files_line, flag

_STYLE = """
body{font-family:'Noto Sans CJK SC','Microsoft YaHei',system-ui,sans-serif;margin:2rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
.bars{display:grid;grid-template-columns:22rem 1fr 10rem;gap:.35rem .8rem;align-items:center;
max-width:70rem}
.bar{height:1.1rem;border-radius:2px;min-width:1px}
.num{text-align:right;font-variant-numeric:tabular-nums}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top;
overflow-wrap:anywhere}
th{cursor:pointer;background:#f4f4f4;position:sticky;top:0;user-select:none}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;color:#fff;font-size:.8rem}
.flag{color:#c62828}.note{color:#555;font-size:.85rem}
input[type=search]{padding:.3rem;width:20rem;margin:.5rem 0}
code{font-family:ui-monospace,Menlo,Consolas,monospace}
"""

_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, column) {
    th.addEventListener('click', function () {
      var numeric = th.dataset.type === 'number';
      var ascending = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].dataset.key, y = b.cells[column].dataset.key;
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
document.querySelectorAll('input[data-filter]').forEach(function (input) {
  var table = document.getElementById(input.dataset.filter);
  input.addEventListener('input', function () {
    var needle = input.value.toLowerCase();
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      row.hidden = needle !== '' && row.dataset.text.indexOf(needle) < 0;
    });
  });
});
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _bars(rows: list[tuple[str, str, int, str]]) -> str:
    """Label, colour, value, right-hand text -> a grid of bars scaled to the largest value."""
    largest = max((value for _, _, value, _ in rows), default=0) or 1
    parts = ['<div class="bars">']
    for label, colour, value, text in rows:
        width = 100 * value / largest
        parts.append(
            f"<div>{_e(label)}</div>"
            f'<div><div class="bar" style="width:{width:.2f}%;background:{_e(colour)}"></div></div>'
            f'<div class="num">{_e(text)}</div>'
        )
    parts.append("</div>")
    return "\n".join(parts)


def _bucket_bars(usages: list[Usage]) -> str:
    rows = [
        (bucket.label, BUCKET_COLOURS[bucket], count.uses, f"{count.apis} API · {count.uses} 次")
        for bucket, count in ScanReport.summary(usages).items()
    ]
    return _bars(rows)


def _category_bars(usages: list[Usage]) -> str:
    uses: Counter[Category] = Counter()
    apis: Counter[Category] = Counter()
    for usage in usages:
        record = usage.classification.record
        if record is not None:
            uses[record.category] += usage.uses
            apis[record.category] += 1
    rows = [
        (
            f"{category.group}. {category.label}",
            GROUP_COLOURS[category.group],
            uses[category],
            f"{apis[category]} API · {uses[category]} 次",
        )
        for category in Category
        if apis[category]
    ]
    return _bars(rows) if rows else '<p class="note">没有已收录的 API (no recorded API)</p>'


def _cell(text: str, key: object, numeric: bool = False) -> str:
    css = ' class="n"' if numeric else ""
    return f'<td{css} data-key="{_e(key)}">{text}</td>'


def _table(report: ScanReport, usages: list[Usage], table_id: str, limit: int) -> str:
    shown = usages[:limit] if limit else usages
    head = (
        '<tr><th data-type="text">API</th><th data-type="number">使用 uses</th>'
        '<th data-type="number">调用 calls</th><th data-type="text">迁移工作量</th>'
        '<th data-type="text">分类 category</th><th data-type="number">文件 files</th>'
        '<th data-type="text">首次出现 first</th><th data-type="text">说明 notes</th></tr>'
    )
    rows = []
    for usage in shown:
        record = usage.classification.record
        page = report.page(usage)
        name = f"<code>{_e(usage.api)}</code>"
        api = f'<a href="{_e(page)}">{name}</a>' if page else name
        bucket = usage.bucket
        tag = f'<span class="tag" style="background:{BUCKET_COLOURS[bucket]}">{_e(bucket.value)}</span>'
        path, line = usage.first
        notes = [f'<span class="flag">{_e(flag(usage))}</span>'] if flag(usage) else []
        if usage.confidence:
            notes.append(_e(f"confidence {usage.confidence}"))
        if usage.classification.via:
            notes.append(_e(f"记录 (record): {usage.classification.via}"))
        text = f"{usage.api} {record.label if record else ''} {bucket.value}".lower()
        rows.append(
            f'<tr data-text="{_e(text)}">'
            + _cell(api, usage.api)
            + _cell(str(usage.uses), usage.uses, True)
            + _cell(str(usage.calls), usage.calls, True)
            + _cell(tag, list(Bucket).index(bucket))
            + _cell(_e(record.label) if record else "-", record.category.rank if record else 99)
            + _cell(str(len(usage.files)), len(usage.files), True)
            + _cell(f"{_e(path)}:{line}", f"{path}:{line:09d}")
            + _cell("; ".join(notes), " ".join(notes))
            + "</tr>"
        )
    more = (
        f'<p class="note">另有 {len(usages) - len(shown)} 个 ({len(usages) - len(shown)} more)</p>'
        if len(shown) < len(usages)
        else ""
    )
    return (
        f'<input type="search" placeholder="筛选 filter" data-filter="{table_id}">\n'
        f'<table class="sortable" id="{table_id}"><thead>{head}</thead><tbody>\n'
        + "\n".join(rows)
        + f"\n</tbody></table>{more}"
    )


def write_html(report: ScanReport, out: TextIO, limit: int = 0) -> None:
    """The page: counts, bars, sortable tables, problems."""
    problems = "".join(
        f"<li><code>{_e(path)}:{problem.line}:{problem.col}</code> {_e(problem.kind)}: "
        f"{_e(problem.message)}</li>"
        for path, problem in report.problems
    )
    paths = ", ".join(f"<code>{_e(path)}</code>" for path in report.paths)
    versions = ", ".join(f"{_e(name)} {_e(v)}" for name, v in report.surface_versions.items())
    out.write(
        "<!DOCTYPE html>\n"
        '<html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>apimap scan</title>"
        f"<style>{_STYLE}</style></head><body>\n"
        f"<h1>PyTorch → Paddle 迁移扫描 (apimap scan)</h1>\n"
        f"<p>{paths}</p><p>{_e(files_line(report))}</p>"
        f'<p class="note">公开 API 表 (surface): {versions}</p>\n'
        "<h2>torch API：迁移工作量 (migration work, by uses)</h2>\n"
        f"{_bucket_bars(report.apis)}\n"
        "<h2>按映射分类 (by mapping category)</h2>\n"
        f"{_category_bars(report.apis)}\n"
        "<h2>Tensor 方法，启发式 (Tensor methods, heuristic)</h2>\n"
        f"{_bucket_bars(report.methods)}\n"
        "<h2>API</h2>\n"
        f"{_table(report, report.apis, 'apis', limit)}\n"
        "<h2>Tensor 方法（启发式）</h2>\n"
        f'<p class="note">{_e(CONFIDENCE_NOTE)}</p>\n'
        f"{_table(report, report.methods, 'methods', limit)}\n"
        + (f"<h2>无法分析的文件 (problems)</h2>\n<ul>{problems}</ul>\n" if problems else "")
        + f"<script>{_SCRIPT}</script>\n</body></html>\n"
    )
