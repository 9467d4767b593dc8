"""Verification against the installed torch and paddle.

The parent process (``apimap verify``) never imports either library: it turns
records into jobs, hands them to a pool of worker processes
(:mod:`apimap.verify.worker`) that import torch and paddle once each, and turns
the issues the workers report into diagnostics.
"""
