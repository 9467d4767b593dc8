"""``apimap import``: bring legacy Markdown mapping pages and mapping tables over as records.

* :mod:`~apimap.importer.blocks` and :mod:`~apimap.importer.inline` read Markdown;
* :mod:`~apimap.importer.patterns` recognises the fixed phrases, derived from the renderer;
* :mod:`~apimap.importer.page` reads one page, :mod:`~apimap.importer.rows` its table rows,
  :mod:`~apimap.importer.code` its example code;
* :mod:`~apimap.importer.table` reads a mapping-table page;
* :mod:`~apimap.importer.record_data` validates, keeping what the model rejects;
* :mod:`~apimap.importer.writer` writes records; :mod:`~apimap.importer.run` runs an import;
* :mod:`~apimap.importer.problems` and :mod:`~apimap.importer.report` report it.
"""
