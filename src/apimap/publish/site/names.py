"""Names shared by the renderer, the build and the Sphinx extension (kept free of heavy imports).

The folder and name of the per-API pages are facts of the record: :mod:`apimap.record.pages`.
"""

CHART = "_static/coverage.svg"
"""The home page's coverage chart."""

FILTER_PAGES = ("tables", "reverse")
"""Pages with the table filter (and the direct lookup)."""

SEARCH_PAGE = "search"
NOT_FOUND_PAGE = "404"

SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
