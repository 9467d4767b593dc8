"""Sphinx configuration of the apimap site.

``apimap build`` renders the generated pages itself and gives Sphinx a source folder
(``site/_generated``) with the hand-written pages and a stub per generated page, whose output is
that page's layout (see ``apimap.publish.site.frames``). The layout is ``_templates/page.html``:
furo's, in Chinese, with the build's origin in the footer (``-A apimap_commit=…``).
"""

project = "PyTorch → Paddle API 映射"
author = "apimap"
copyright = "apimap contributors"
language = "zh_CN"
root_doc = "index"
source_suffix = {".md": "markdown"}

extensions = ["myst_parser", "apimap.publish.site.sphinx_ext"]
myst_heading_anchors = 0
# Chinese text has no typographic quotes to fix, and the pass over every page costs time.
smartquotes = False

html_theme = "furo"
html_title = "PyTorch → Paddle API 映射"
html_theme_options = {"navigation_with_keys": True}
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["apimap.css"]
html_favicon = "_static/favicon.svg"
html_permalinks_icon = "#"
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_use_index = False
html_domain_indices = False
# `apimap build` sets the published address ($APIMAP_SITE_URL: canonical links, the not-found
# page's base) with -D html_baseurl=… -A apimap_base=…, and the build's origin with -A.
html_baseurl = ""
html_context = {"apimap_base": "", "apimap_commit": "", "apimap_date": "", "apimap_versions": ""}
