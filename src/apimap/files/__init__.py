"""The files layer: reading and writing record files and what lives on disk beside them.

The safe YAML loader, schema validation, the canonical form, stamps and caches. Imports only
the record layer (see docs/architecture.md).
"""
