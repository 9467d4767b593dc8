"""Sphinx configuration of the apimap site.

``apimap build`` renders the records into a source folder (``site/_generated``)
and runs Sphinx on it with this folder as the configuration folder. Per-API
pages are orphans: no page carries a sidebar tree of every API.
"""

import os
from pathlib import Path

project = "PyTorch → Paddle API 映射"
author = "apimap"
copyright = "apimap contributors"
language = "zh_CN"
root_doc = "index"
source_suffix = {".md": "markdown"}

extensions = ["myst_parser", "apimap.publish.site.sphinx_ext"]
myst_enable_extensions = ["attrs_inline"]  # the verified badge: [text]{.apimap-badge}
myst_heading_anchors = 0
# Chinese text has no typographic quotes to fix, and the pass over every page costs time.
smartquotes = False

html_theme = "furo"
html_title = "PyTorch → Paddle API 映射"
html_theme_options = {"navigation_with_keys": True}
html_static_path = ["_static"]
html_css_files = ["apimap.css"]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_use_index = False
# The published address ($APIMAP_SITE_URL): every page gets a canonical link, and the build
# writes sitemap.xml; unset, neither.
html_baseurl = os.environ.get("APIMAP_SITE_URL", "")
html_domain_indices = False

html_search_language = "zh"
# jieba segments Chinese text for the search index. Without a "dict" option Sphinx loads
# jieba's whole default dictionary a second time as a user dictionary, which only costs
# time; this small dictionary adds deep-learning words jieba does not know (学习率 would
# otherwise be indexed as 学习 + 率 and not be found).
html_search_options = {"dict": str(Path(__file__).parent / "search_words.txt")}
