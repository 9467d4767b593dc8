"""The publish layer: the site, the JSON export, pages for Paddle's docs and the importer of
legacy pages. Imports only the layers below it (see docs/architecture.md).
"""
