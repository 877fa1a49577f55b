"""``python -m cli``: the same as the ``wordfeud-bot`` command."""

import sys

from cli.entry import main

sys.exit(main())
