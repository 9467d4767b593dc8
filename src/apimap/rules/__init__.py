"""The rules of the specification: one package per rule under :mod:`apimap.rules.catalog`.

This package is deliberately empty: the loader and the verifier import single
rules from the catalog without pulling in every rule. :mod:`apimap.rules.registry`
finds them all.
"""
