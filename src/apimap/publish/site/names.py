"""Names shared by the renderer and the Sphinx extension (kept free of heavy imports).

The folder and name of the per-API pages are facts of the record: :mod:`apimap.record.pages`.
"""

CATEGORY_FOLDER = "category"
"""One page per category lives in this folder."""

TABLES_DOC = "tables"
"""The mapping tables page (with the filter)."""

REVERSE_DOC = "reverse"
"""The reverse lookup, paddle → torch (with the filter in paddle mode)."""

INDEX_SCRIPT = "_static/apimap-index.js"
"""The filter's JSON index, generated next to the pages."""

CHART = "coverage.svg"
"""The home page's coverage chart."""


def category_docname(category: str) -> str:
    """``category/input_usage_diff``."""
    return f"{CATEGORY_FOLDER}/{category}"
