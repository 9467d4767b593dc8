"""The exit codes every ``apimap`` subcommand uses."""

EXIT_CLEAN = 0
"""Nothing to report."""
EXIT_FINDINGS = 1
"""Findings (errors, or warnings under ``--strict``), or a failed build or import."""
EXIT_USAGE = 2
"""Usage error, missing path, wrong environment or internal error."""
