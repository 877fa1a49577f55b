"""``python -m bot``: the same as the ``wordfeud-bot`` command."""

import sys

from bot.entry import main

sys.exit(main())
