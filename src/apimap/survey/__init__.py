"""The survey layer: the public API surface, project scans and the coverage of the surface.

Imports only the layers below it (see docs/architecture.md).
"""
