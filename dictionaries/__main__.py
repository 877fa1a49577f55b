"""``python -m dictionaries build|list ...``: the ``wordfeud-bot dict`` commands."""

import sys

from dictionaries.cli import main

sys.exit(main())
