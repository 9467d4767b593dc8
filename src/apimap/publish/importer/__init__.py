"""``apimap import``: bring legacy Markdown mapping pages and mapping tables over as records.

* :mod:`~apimap.publish.importer.blocks` and :mod:`~apimap.publish.importer.inline` read Markdown;
* :mod:`~apimap.publish.importer.patterns` recognises the fixed phrases, derived from the renderer;
* :mod:`~apimap.publish.importer.page` reads one page, :mod:`~apimap.publish.importer.rows` its table rows,
  :mod:`~apimap.publish.importer.code` its example code;
* :mod:`~apimap.publish.importer.table` reads a mapping-table page;
* :mod:`~apimap.publish.importer.record_data` validates, keeping what the model rejects;
* :mod:`~apimap.publish.importer.writer` writes records; :mod:`~apimap.publish.importer.run` runs an import;
* :mod:`~apimap.publish.importer.problems` and :mod:`~apimap.publish.importer.report` report it.
"""
