"""The checking layer: the rules of the specification and the runner of ``apimap check``.

Imports only the files and record layers (see docs/architecture.md).
"""
