"""The record layer: the record format and what follows from it, without I/O.

The model, categories, fixed phrases, signatures, derived values and the other facts
every other layer reads. Imports nothing of apimap above it (see docs/architecture.md).
"""
