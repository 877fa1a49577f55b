"""What the daemon's passes did, for the status page and ``/healthz``: passes, the last success and error."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from bot.play.service import PassReport


class Health:
    """What the daemon's passes did, for the page and ``/healthz``; safe to read from any thread."""

    def __init__(self, interval: float, healthy_polls: int = 3, clock: Callable[[], float] = time.time) -> None:
        self.interval = interval  # seconds between polls at most (poll + jitter)
        self.healthy_polls = healthy_polls
        self.clock = clock
        self.started = clock()
        self.passes = 0
        self.last_success: float | None = None  # end of the last pass that read the account's status
        self.last_error: str | None = None
        self.last_error_at: float | None = None
        self._lock = threading.Lock()

    def passed(self, report: PassReport) -> None:
        """A pass ended; it succeeded when it read the account's status."""
        with self._lock:
            self.passes += 1
            now = self.clock()
            if report.status_read:
                self.last_success = now
            if report.errors:
                self.last_error, self.last_error_at = report.errors[-1], now

    def failed(self, problem: str) -> None:
        """A pass failed as a whole."""
        with self._lock:
            self.passes += 1
            self.last_error, self.last_error_at = problem, self.clock()

    def state(self) -> dict[str, Any]:
        """``healthy`` and why, with the figures behind it."""
        with self._lock:
            now = self.clock()
            limit = self.healthy_polls * self.interval
            if self.last_success is None:
                healthy = now - self.started <= limit
                reason = "starting: no pass has read the account yet" if healthy else "no pass has read the account"
            else:
                healthy = now - self.last_success <= limit
                reason = "ok" if healthy else f"the last successful poll is older than {limit:g} s"
            return {
                "healthy": healthy,
                "reason": reason,
                "passes": self.passes,
                "started": self.started,
                "last_success": self.last_success,
                "last_success_age": None if self.last_success is None else now - self.last_success,
                "last_error": self.last_error,
                "last_error_at": self.last_error_at,
                "limit_seconds": limit,
                "now": now,
            }


__all__ = ["Health"]
