"""``python -m apimap``."""

import sys

from apimap.cli import main

sys.exit(main())
