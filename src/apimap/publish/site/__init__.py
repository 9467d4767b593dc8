"""The site: Markdown pages rendered from the records with Jinja, built with Sphinx.

* :mod:`~apimap.publish.site.views` — what each page shows, prepared from the records (the
  sentences come from :mod:`apimap.record.wording`);
* :mod:`~apimap.publish.site.site` — every generated file of the Sphinx source folder;
* :mod:`~apimap.publish.site.writer` — writes only files whose content changed;
* :mod:`~apimap.publish.site.build` and :mod:`~apimap.publish.site.serve` — ``apimap build`` / ``serve``.
"""
