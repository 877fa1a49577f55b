"""Runs the ``wordfeud-bot`` command line with one function replaced by work that never ends, so a
test can send a stop signal while the command is at a known point, with no sleep and no race.

    python -m tests.stop_driver MODULE:NAME [ARGUMENT ...]
    python -m tests.stop_driver import:MODULE [ARGUMENT ...]

``MODULE.NAME`` (``os:replace`` for the moment a file written whole is renamed into place) becomes a
function that prints ``READY <pid>`` on stdout, then waits forever; the command line runs with the
arguments and its exit status is the driver's. ``import:MODULE`` makes the import of MODULE wait
forever instead, under the command's entry point (``cli.entry``). Worker processes started by ``fork`` inherit the
replacement, so a pool's workers print their own line.
"""

from __future__ import annotations

import importlib
import importlib.abc
import os
import sys
import threading
from typing import NoReturn

ORPHAN_SECONDS = 600


def never_ends(*args: object, **kwargs: object) -> NoReturn:
    sys.stdout.flush()
    os.write(sys.stdout.fileno(), f"READY {os.getpid()}\n".encode())  # one write: workers' lines never mix
    # a signal's handler runs (and may raise) while the main thread waits here; a process nobody
    # stops (a pool's worker whose parent was killed) ends by itself in the end
    threading.Event().wait(ORPHAN_SECONDS)
    os._exit(99)


class _BlockingImport(importlib.abc.MetaPathFinder):
    """Makes the import of one module (and so of every module importing it) never end."""

    def __init__(self, module: str) -> None:
        self.module = module

    def find_spec(self, fullname: str, path: object, target: object = None) -> None:
        if fullname == self.module:
            never_ends()


def main(argv: list[str]) -> int:
    if argv[0].startswith("import:"):  # stopped while the command line's modules are imported
        sys.meta_path.insert(0, _BlockingImport(argv[0].removeprefix("import:")))
        sys.argv = ["wordfeud-bot", *argv[1:]]
        from cli.entry import main as entry  # noqa: PLC0415 - the light entry point, as the console script

        return entry()
    module_name, _, name = argv[0].partition(":")
    module = importlib.import_module(module_name)
    getattr(module, name)  # it must exist: a typo would make the test wait for a line that never comes
    setattr(module, name, never_ends)
    from cli.main import main as cli  # noqa: PLC0415 - after the replacement, for modules that import it by name

    return cli(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
