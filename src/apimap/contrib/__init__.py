"""The contributor layer: commands that change or compare records (fmt, diff, new, xcheck).

Imports only the layers below it (see docs/architecture.md).
"""
