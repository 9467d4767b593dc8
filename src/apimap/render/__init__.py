"""The site: Markdown pages rendered from the records with Jinja, built with Sphinx.

* :mod:`~apimap.render.views` — what each page shows, prepared from the records (the
  sentences come from :mod:`apimap.record.wording`);
* :mod:`~apimap.render.site` — every generated file of the Sphinx source folder;
* :mod:`~apimap.render.writer` — writes only files whose content changed;
* :mod:`~apimap.render.build` and :mod:`~apimap.render.serve` — ``apimap build`` / ``serve``.
"""
