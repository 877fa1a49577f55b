"""``python -m sandbox``: see ``sandbox.cli``."""

import sys

from sandbox.cli import main

sys.exit(main())
