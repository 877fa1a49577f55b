"""Stop signals: Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed terminal) end every command the same way,
but for ``run``, which takes SIGHUP as the daemons' usual request to re-read its configuration.

``stop_signals()`` is entered once, at the command line's entry point: while it is active each
signal raises ``Stopped`` in the main thread, a ``BaseException`` like ``KeyboardInterrupt`` (so no
``except Exception`` swallows it) that unwinds the command: ``finally`` blocks and context managers
close servers, roll back open transactions and remove files half written
(``engine.wholefile.write_whole``). The entry point then prints one line and exits with the
conventional status, 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. Only the first
signal is acted on; one that comes while the command unwinds is ignored, so the clean-up itself is
never cut short.

A command that would rather finish what it is doing (``once`` finishes the game in progress, then
prints its summary) takes the signals as a request instead, for a while: ``stop_requests(event)``
sets ``event`` and lets the work go on.

``stop_signals(reloads=True)`` (``run``) leaves SIGHUP out of the stop signals: it sets ``RELOAD``
instead, and the daemon re-reads its configuration (``bot.play.daemon``), so that a SIGHUP while
the daemon starts is not lost either.

>>> Stopped(signal.SIGTERM).status, Stopped(signal.SIGINT).status, Stopped(signal.SIGHUP).status
(143, 130, 129)
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

#: The signals that stop a command.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
#: Set by SIGHUP under ``stop_signals(reloads=True)``: the configuration is to be re-read (by the daemon).
RELOAD = threading.Event()


class Stopped(BaseException):
    """A stop signal arrived; ``status`` is the exit status that says so (128 + its number).
    A command that has something to add to the line (what was kept, how to go on) sets ``detail``
    on its way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)  # the number alone, so that the exception pickles (a pool's worker)
        self.signum = signum
        self.detail = ""

    @property
    def name(self) -> str:
        """``SIGINT``, ``SIGTERM`` or ``SIGHUP``."""
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        return 128 + self.signum

    def __str__(self) -> str:
        return f"stopped by {self.name}"


def _ignore(signum: int, frame: FrameType | None) -> None:
    """A stop signal while the first one is being handled: the clean-up goes on."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    for sig in STOP_SIGNALS:  # from now on the clean-up must not be cut short
        signal.signal(sig, _ignore)
    raise Stopped(signum)


def _note_reload(signum: int, frame: FrameType | None) -> None:
    """SIGHUP for ``run`` before its daemon takes the signal: the daemon re-reads the configuration."""
    RELOAD.set()


def _install(handler: Any, *, reloads: bool = False) -> dict[int, Any]:
    """Set ``handler`` for the stop signals (SIGHUP: ``_note_reload`` when ``reloads``); returns the
    previous handlers (nothing outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {
        sig: signal.signal(sig, _note_reload if reloads and sig == signal.SIGHUP else handler) for sig in STOP_SIGNALS
    }


def _restore(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)


@contextmanager
def stop_signals(*, reloads: bool = False) -> Iterator[None]:
    """While inside, SIGINT, SIGTERM and SIGHUP raise ``Stopped`` in the main thread (the first one only);
    with ``reloads``, SIGHUP sets ``RELOAD`` instead. Once a stop was taken the process is on its way
    out: further signals stay ignored after the block too (an outer block, such as the entry point's,
    must not take them and cut the clean-up short)."""
    previous = _install(_raise_stopped, reloads=reloads)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is not _ignore:
            _restore(previous)


@dataclass
class StopRequest:
    """The signal taken as a request to stop (None until one came)."""

    signum: int | None = None

    @property
    def status(self) -> int | None:
        """The exit status that says the command was stopped (None if it was not)."""
        return None if self.signum is None else 128 + self.signum

    @property
    def name(self) -> str:
        return "" if self.signum is None else signal.Signals(self.signum).name


@contextmanager
def stop_requests(event: threading.Event, doing: str = "the work in progress") -> Iterator[StopRequest]:
    """While inside, a stop signal sets ``event`` and is remembered instead of raising: the work
    checks the event and ends at a clean point. Each signal is logged (``doing`` says what is being
    finished). Afterwards the handlers that were there before come back."""
    request = StopRequest()

    def requested(signum: int, frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        if request.signum is None:
            request.signum = signum
            log.info("%s received: finishing %s, then stopping", name, doing)
        else:
            log.info("%s received: still finishing %s", name, doing)
        event.set()

    previous = _install(requested)
    try:
        yield request
    finally:
        _restore(previous)


def stopped_line(command: str, stop: Stopped) -> str:
    """The one line a stopped command prints on stderr; on a terminal it starts a new line (after
    the ``^C`` the terminal echoed, or a progress bar)."""
    start = "\n" if sys.stderr.isatty() else ""
    return f"{start}{command}: {stop}{'; ' + stop.detail if stop.detail else ''}"


__all__ = [
    "RELOAD",
    "STOP_SIGNALS",
    "StopRequest",
    "Stopped",
    "stop_requests",
    "stop_signals",
    "stopped_line",
]
