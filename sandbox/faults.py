"""Fault injection for the sandbox: the failures a client must survive, deterministic with a seed.

Kinds: ``http_500``/``http_502``/``http_503`` (an error status, no envelope), ``slow`` (the answer
waits until ``release()`` or ``slow_seconds``, past a client's timeout), ``drop`` (the connection
closes with no answer), ``non_json`` (HTTP 200 with an HTML body), ``expire`` (every session is
forgotten before the request is handled) and ``apply_then_fail`` (the request is carried out, then
the connection closes with no answer: the client must not play twice).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping

KINDS = ("http_500", "http_502", "http_503", "slow", "drop", "non_json", "expire", "apply_then_fail")


class Faults:
    """Which fault, if any, the next request gets: first from ``queue``, else drawn by ``rates``."""

    def __init__(self, rates: Mapping[str, float] | None = None, *, seed: int = 0, slow_seconds: float = 30.0) -> None:
        unknown = set(rates or {}) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; known: {', '.join(KINDS)}")
        for kind, rate in (rates or {}).items():
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"fault rate {kind}={rate} must be between 0 and 1")
        self.rates = dict(rates or {})
        self.rng = random.Random(seed)
        self.queue: list[str] = []
        self.slow_seconds = slow_seconds
        self._release = threading.Event()
        self._lock = threading.Lock()

    def inject(self, *kinds: str) -> None:
        """Give the next requests these faults, in order."""
        for kind in kinds:
            if kind not in KINDS:
                raise ValueError(f"unknown fault kind {kind!r}; known: {', '.join(KINDS)}")
        with self._lock:
            self.queue.extend(kinds)

    def next(self) -> str | None:
        """The fault of the request being answered now (None: answer normally)."""
        with self._lock:
            if self.queue:
                return self.queue.pop(0)
            for kind, rate in self.rates.items():
                if self.rng.random() < rate:
                    return kind
            return None

    def wait_slow(self) -> None:
        """Hold a ``slow`` answer until ``release`` is called or ``slow_seconds`` pass."""
        self._release.wait(self.slow_seconds)

    def release(self) -> None:
        """Let every held ``slow`` answer go."""
        self._release.set()
