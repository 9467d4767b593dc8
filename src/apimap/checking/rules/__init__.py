"""The rules of the specification: one package per rule under :mod:`apimap.checking.rules.catalog`.

This package is deliberately empty: the verifier and a few checking modules import
single rules from the catalog without pulling in every rule. :mod:`apimap.checking.rules.registry`
finds them all.
"""
