"""The public API surface of the pinned torch and torchvision.

:mod:`apimap.survey.surface.collect` computes it from the installed libraries
(``apimap surface --update``) into the package data file ``data/surface.json``;
:mod:`apimap.survey.surface.table` writes it, and :mod:`apimap.files.surface` reads it without
importing either library (the checker's rules read it too).
"""
