"""Names shared by the renderer and the Sphinx extension (kept free of heavy imports)."""

API_FOLDER = "api"
"""Per-API pages live in this folder of the site."""

CATEGORY_FOLDER = "category"
"""One page per category lives in this folder."""

TABLES_DOC = "tables"
"""The mapping tables page, the only page with the filter."""

INDEX_SCRIPT = "_static/apimap-index.js"
"""The filter's JSON index, generated next to the pages."""

CHART = "coverage.svg"
"""The home page's coverage chart."""
