"""``wordfeud-bot run``: the long-lived mode, polling the account on an interval with jitter.

APScheduler calls ``Bot.run_pass`` every ``poll_seconds`` (plus up to ``jitter_seconds`` of
random jitter, so many bots do not poll in step). One pass runs at a time (a late pass is
skipped, not queued). SIGINT and SIGTERM stop the daemon gracefully: the pass in progress
finishes the game it is playing, ``run`` waits for it, and only then returns (so the caller can
close the store). SIGHUP asks for the configuration to be re-read: ``reload`` is called (in a
thread of its own, once no pass runs) and the bot it returns plays from the next pass on, at the
poll interval it brings; when it returns None (it logged why) the bot in use goes on. A SIGHUP that
came while the command started (``bot.stopping.RELOAD``) is acted on before the first pass. A
refused login stops the daemon too: ``run`` raises the LoginRefusedError, as retrying a wrong
password every poll helps nobody.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from types import FrameType

from apscheduler.schedulers.blocking import BlockingScheduler

from bot.errors import BotError, DamagedStateError, LoginRefusedError
from bot.play.health import Health
from bot.play.service import Bot, PassReport
from bot.stopping import RELOAD

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reloaded:
    """What re-reading the configuration gave: the bot to play with, its polling, and what to say."""

    bot: Bot
    poll_seconds: float
    jitter_seconds: float
    said: str


class Daemon:
    """Runs ``bot.run_pass`` on a schedule until stopped, or until ``until(report)`` says so."""

    def __init__(
        self,
        bot: Bot,
        *,
        poll_seconds: float,
        jitter_seconds: float = 0.0,
        until: Callable[[PassReport], bool] | None = None,
        health: Health | None = None,
        reload: Callable[[], Reloaded | None] | None = None,
    ) -> None:
        self.bot = bot
        self.reload = reload  # re-reads the configuration (SIGHUP); None when it cannot be used
        self.poll_seconds = poll_seconds
        self.jitter_seconds = jitter_seconds
        self.until = until
        self.health = health  # what the status page and /healthz report
        self.stopping = threading.Event()
        self.passes = 0
        self.reports: deque[PassReport] = deque(maxlen=100)  # the latest passes, for tests and status
        self.fatal: LoginRefusedError | DamagedStateError | None = None  # why the daemon stopped on its own, if it did
        self._pass = threading.Lock()  # held while a pass runs: run() waits for it before returning
        self._scheduler = BlockingScheduler(job_defaults={"coalesce": True, "max_instances": 1})

    def run(self, *, handle_signals: bool = True) -> None:
        """Poll until stopped (blocks); returns once no pass runs any more. With ``handle_signals``,
        SIGINT/SIGTERM stop it gracefully. Raises LoginRefusedError when the server refused the login."""
        previous = {}
        if handle_signals:
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, self._on_signal)
            previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, self._on_hangup)
            if RELOAD.is_set():  # a SIGHUP while the command started: the configuration may have changed since
                RELOAD.clear()
                log.info("SIGHUP received while starting: re-reading the configuration")
                self._reload()
        self._scheduler.add_job(
            self._tick,
            "interval",
            seconds=self.poll_seconds,
            jitter=self.jitter_seconds or None,
            next_run_time=datetime.now().astimezone(),
            id="poll",
            misfire_grace_time=None,
        )
        log.info("polling every %g s (jitter up to %g s); Ctrl-C stops", self.poll_seconds, self.jitter_seconds)
        try:
            self._scheduler.start()
            with self._pass:  # the scheduler lets its worker finish on its own: wait for the pass
                pass
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        log.info("stopped after %d passes", self.passes)
        if self.fatal is not None:
            raise self.fatal

    def stop(self) -> None:
        """Stop after the game being played; safe to call from any thread or a signal handler."""
        if not self.stopping.is_set():
            self.stopping.set()
            self._scheduler.shutdown(wait=False)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        if self.stopping.is_set():
            log.info("%s received: still finishing the move in progress", name)
        else:
            log.info("%s received: finishing the move in progress, then stopping", name)
        self.stop()

    def _on_hangup(self, signum: int, frame: FrameType | None) -> None:
        """SIGHUP: re-read the configuration in a thread of its own (never inside the signal handler)."""
        if self.stopping.is_set():
            log.info("SIGHUP received: stopping already, the configuration is not re-read")
            return
        threading.Thread(target=self._reload, name="reload", daemon=True).start()

    def _reload(self) -> None:
        """Re-read the configuration once no pass runs; the next pass plays with what it gave."""
        with self._pass:
            if self.stopping.is_set():
                return
            if self.reload is None:
                log.info("SIGHUP received: this daemon has no configuration to re-read; it goes on")
                return
            try:
                reloaded = self.reload()
            except Exception:  # a bug in re-reading must not end the daemon: the old configuration goes on
                log.exception("SIGHUP received: re-reading the configuration failed (a bug); the one in use stays")
                return
            if reloaded is None:
                return  # ``reload`` said why in one line
            reloaded.bot.take_over(self.bot)  # the games waiting for a lost answer keep waiting
            self.bot = reloaded.bot
            if (reloaded.poll_seconds, reloaded.jitter_seconds) != (self.poll_seconds, self.jitter_seconds):
                self.poll_seconds, self.jitter_seconds = reloaded.poll_seconds, reloaded.jitter_seconds
                if self._scheduler.running:
                    self._scheduler.reschedule_job(
                        "poll", trigger="interval", seconds=self.poll_seconds, jitter=self.jitter_seconds or None
                    )
            log.info("%s", reloaded.said)

    def _failed(self, problem: str) -> None:
        if self.health is not None:
            self.health.failed(problem)

    def _tick(self) -> None:
        with self._pass:
            if self.stopping.is_set():
                return
            try:
                report = self.bot.run_pass(self.stopping)
            except LoginRefusedError as exc:
                log.error("login refused: %s; stopping", exc)
                self._failed(f"login refused: {exc}")
                self.fatal = exc
                self.stop()
                return
            except DamagedStateError as exc:  # another pass would meet the same pages: stop, exit 2
                log.error("%s", exc)
                self._failed(str(exc))
                self.fatal = exc
                self.stop()
                return
            except BotError as exc:  # a typed failure (the store, the server): one line, then the next poll
                log.error("the pass failed: %s; trying again at the next poll", exc)
                self._failed(str(exc))
                return
            except Exception as exc:  # one bad pass must not end a daemon meant to run for months
                log.exception("the pass failed; trying again at the next poll")
                self._failed(f"unexpected {type(exc).__name__}: {exc}")
                return
            self.passes += 1
            self.reports.append(report)
            if self.health is not None:
                self.health.passed(report)
            if self.until is not None and self.until(report):
                self.stop()
