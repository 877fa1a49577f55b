"""The exit statuses of the ``wordfeud-bot`` commands and the one line a failed command prints.

One table for every command group (``cli.main``'s service commands, ``cli.offline``), so that
each number means the same whichever module returns it."""

from __future__ import annotations

import sys

from bot.escapes import escaped

#: Exit statuses of ``once`` (and of the other service commands).
EXIT_OK, EXIT_ERRORS, EXIT_CONFIG, EXIT_LOCKED, EXIT_AUTH = 0, 1, 2, 3, 4


def fail(command: str, message: str, status: int) -> int:
    """Print ``wordfeud-bot COMMAND: MESSAGE`` (escaped) on stderr and return ``status``."""
    print(f"wordfeud-bot {command}: {escaped(message)}", file=sys.stderr)
    return status
