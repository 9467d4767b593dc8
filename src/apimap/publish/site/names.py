"""Names shared by the renderer and the Sphinx extension (kept free of heavy imports)."""

API_FOLDER = "api"
"""Per-API pages live in this folder of the site."""

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


def api_docname(api: str) -> str:
    """``torch.nn.Conv2d`` -> ``api/torch.nn.^Conv2d`` (the record file's case-safe stem)."""
    from apimap.record.paths import encode_name

    return f"{API_FOLDER}/{encode_name(api)}"


def category_docname(category: str) -> str:
    """``category/input_usage_diff``."""
    return f"{CATEGORY_FOLDER}/{category}"
