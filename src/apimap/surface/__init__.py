"""The public API surface of the pinned torch and torchvision.

:mod:`apimap.surface.collect` computes it from the installed libraries
(``apimap surface --update``) into the package data file ``data/surface.json``;
:mod:`apimap.surface.table` reads that file without importing either library.
"""
