"""``python -m sandbox.lab.healthz``: how fast ``/healthz`` answers while the daemon's bot thinks.

In this one process, as ``wordfeud-bot demo`` wires them: a sandbox server on 127.0.0.1 with ``--games`` games
of the bot against the house player (the house moves first, so each is the bot's turn), the bot with the
``sim`` strategy (``--seconds`` a move) and the daemon's status server (``bot.views.status``) on 127.0.0.1.
A thread asks ``/healthz`` every ``--interval-ms`` (each on a new connection, as a liveness probe does) while
the bot plays one pass (``Bot.run_pass``, the daemon's pass: a ``sim`` decision per game), and the answers'
latencies are printed: p50, p99, max, and how many came back. A kernel that keeps the interpreter's lock
while it thinks makes every request wait for it; one that lets it go leaves the status server a core.

Before that, a pass of one game (not measured) loads what the bot loads once (the lexicon, its C copy, the
leave model), and ``/healthz`` is asked for ``--idle-seconds`` (3) with the bot idle: the machine's own latency, to
compare with.

A script for docs/measurements.md, not a test: its figures depend on the machine. Exit status 0, or 1 when a
``/healthz`` answer was not 200 or the pass made no move, 2 on bad options.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bot.api.credentials import Credentials
from bot.arguments import at_least
from bot.play.app import build
from bot.play.health import Health
from bot.settings.config import ApiConfig, BotConfig, PlayConfig, ScheduleConfig
from bot.store.store import Store
from bot.views.status import StatusServer, StatusSettings
from dictionaries.registry import LexiconRegistry
from engine import native
from sandbox.server import SandboxServer
from sandbox.state import State

_PASSWORD = "healthz-password"  # a throwaway account on a server that lives as long as the run


@dataclass(frozen=True)
class Figures:
    """The latencies of the ``/healthz`` answers (seconds) and what the pass did."""

    latencies: list[float]
    failures: int
    moves: int
    pass_seconds: float

    def percentile(self, share: float) -> float:
        """The latency below which ``share`` of the answers came (nearest rank)."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]

    def lines(self) -> list[str]:
        if not self.latencies:
            return ["no /healthz answer came back"]
        ms = 1000.0
        return [
            f"pass: {self.moves} moves in {self.pass_seconds:.1f} s; /healthz: {len(self.latencies)} answers, "
            f"{self.failures} not 200",
            f"latency ms: p50 {self.percentile(0.50) * ms:.1f}  p99 {self.percentile(0.99) * ms:.1f}  "
            f"max {max(self.latencies) * ms:.1f}  (mean {statistics.fmean(self.latencies) * ms:.1f})",
        ]


def hammer(host: str, port: int, interval: float, stop: threading.Event, figures: list[float], bad: list[int]) -> None:
    """Ask ``/healthz`` every ``interval`` seconds (from the last request's start) until ``stop``."""
    while not stop.is_set():
        started = time.perf_counter()
        connection = http.client.HTTPConnection(host, port, timeout=30)
        try:
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                bad.append(response.status)
        finally:
            connection.close()
        figures.append(time.perf_counter() - started)
        stop.wait(max(0.0, interval - (time.perf_counter() - started)))


def hammered(status: StatusServer, interval: float, work: Callable[[], int]) -> Figures:
    """``/healthz`` asked every ``interval`` seconds while ``work`` runs (it returns the moves it made)."""
    where = urlsplit(status.url)
    latencies: list[float] = []
    bad: list[int] = []
    stop = threading.Event()
    thread = threading.Thread(
        target=hammer, args=(where.hostname or "127.0.0.1", where.port or 80, interval, stop, latencies, bad)
    )
    thread.start()
    started = time.perf_counter()
    try:
        moves = work()
    finally:
        took = time.perf_counter() - started
        stop.set()
        thread.join()
    return Figures(latencies, len(bad), moves, took)


def measure(
    games: int, seconds: float, interval: float, seed: int, idle_seconds: float = 3.0, ruleset: int = 5
) -> tuple[Figures, Figures]:
    """``/healthz`` asked every ``interval`` seconds with the bot idle (``idle_seconds``), then
    during one pass of ``games`` sim decisions. A first pass of one game before them (not measured) loads
    what the bot loads once: the lexicon, its C copy, the leave model."""
    registry = LexiconRegistry()
    state = State(registry.get, time.time, seed=seed)
    me = state.add_user("bot", "bot@sandbox.local", _PASSWORD)
    house = state.add_user("house", "house@sandbox.local", "house-password")
    state.house.add(house.id)
    state.new_game(house, me, ruleset)
    with SandboxServer(state) as sandbox, tempfile.TemporaryDirectory() as scratch:
        config = BotConfig(
            api=ApiConfig(base_url=sandbox.base_url),
            schedule=ScheduleConfig(quarantine_seconds=0),
            play=PlayConfig(strategy="sim", seconds_per_move=seconds),
        )
        store_path = Path(scratch) / "bot.sqlite3"
        store = Store(store_path)
        wiring = build(config, Credentials.from_password("email", me.email, _PASSWORD), store=store)
        wiring.client.login()
        health = Health(interval=60.0)
        health.passed(wiring.bot.run_pass())  # the warm-up
        for _ in range(games - 1):  # (the warm-up's game is the bot's turn again)
            state.new_game(house, me, ruleset)
        with StatusServer(StatusSettings("127.0.0.1", 0), store_path, health) as status:
            never = threading.Event()
            idle = hammered(status, interval, lambda: int(never.wait(idle_seconds)))  # 0 moves, idle_seconds on

            def one_pass() -> int:
                report = wiring.bot.run_pass()
                health.passed(report)
                return report.acted

            thinking = hammered(status, interval, one_pass)
        store.close()
    return idle, thinking


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox.lab.healthz", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=at_least(1), default=6, help="games, so sim decisions in the pass (6)")
    parser.add_argument("--seconds", type=float, default=2.0, help="sim's seconds a move (2.0, the default)")
    parser.add_argument("--interval-ms", type=float, default=10.0, help="between /healthz requests (10)")
    parser.add_argument("--seed", type=int, default=1, help="the sandbox's seed (1)")
    parser.add_argument("--idle-seconds", type=float, default=3.0, help="of /healthz with the bot idle first (3)")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or args.interval_ms <= 0 or args.idle_seconds <= 0:
        parser.error(
            f"--seconds {args.seconds} must be in (0, 600], --interval-ms {args.interval_ms} and --idle-seconds "
            f"{args.idle_seconds} above 0"
        )
    print(f"{native.describe()}; {args.games} games, sim {args.seconds} s a move, /healthz every {args.interval_ms} ms")
    idle, thinking = measure(args.games, args.seconds, args.interval_ms / 1000.0, args.seed, args.idle_seconds)
    print("the bot idle:")
    for line in idle.lines()[1:]:
        print("  " + line)
    print("the bot thinking:")
    for line in thinking.lines():
        print("  " + line)
    good = idle.latencies and thinking.latencies and thinking.moves > 0
    return 0 if good and idle.failures == thinking.failures == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
