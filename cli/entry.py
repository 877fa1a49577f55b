"""The entry point of the ``wordfeud-bot`` command and of ``python -m cli``: stop signals are taken
from the first moment, before the command line's modules are imported (a second or more on a busy
machine), so that Ctrl-C, SIGTERM or SIGHUP right after the start is one line and exit 130/143/129 too,
never a traceback or a death by the signal's default action (``run`` and ``sandbox``, whose stop is their
normal end, exit 0 as they do later; ``run`` takes SIGHUP as a request to re-read its configuration
from the start, see ``bot.stopping.RELOAD``). ``cli.main.main`` does the rest."""

from __future__ import annotations

import sys

from bot.stopping import Stopped, stop_signals, stopped_line


def main() -> int:
    """Import the command line and run it; returns the exit status."""
    try:
        with stop_signals(reloads=sys.argv[1:2] == ["run"]):
            from cli.main import main as command_line  # noqa: PLC0415 - the heavy imports, under the handlers

            return command_line()
    except Stopped as stop:  # stopped while importing (a command stopped later says so itself)
        print(stopped_line("wordfeud-bot", stop), file=sys.stderr)
        return 0 if sys.argv[1:2] in (["run"], ["sandbox"]) else stop.status  # the servers' normal end


if __name__ == "__main__":
    sys.exit(main())
