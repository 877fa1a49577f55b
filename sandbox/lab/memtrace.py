"""``python -m sandbox.lab.memtrace --decisions N``: what the bot's memory grows by, traced line by line.

The bot's service runs in this process (its passes back to back, random-board games kept going) against
``python -m sandbox`` with every fault kind on, under ``tracemalloc``. After ``--warmup`` decisions it
takes a snapshot, then prints the traced memory every ``--every`` passes, and at the end the lines of
code whose allocations grew the most since the snapshot: a cache without a bound shows at the top.
The bot's log (warnings and errors, which the faults cause) goes to a file in a temporary directory.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from bot.api.credentials import Credentials
from bot.play.app import build
from bot.play.service import PassReport
from bot.settings.config import parse_config
from bot.store.store import Store
from sandbox.lab.soak import Options, Soak, SoakError


def traced_mb() -> float:
    return tracemalloc.get_traced_memory()[0] / 1e6


def trace(args: argparse.Namespace, work: Path) -> list[str]:
    """Play until ``args.decisions`` decisions; the growth lines."""
    options = Options(games=args.games, seed=args.seed, kills=0, sandbox_kills=0)
    with Soak(options, work, lambda text: None) as soak:
        soak.start_sandbox()
        config = parse_config(
            {
                "api": {"base_url": soak.base_url, "timeout_seconds": 1.0, "retry_attempts": 4, "retry_seconds": 5.0},
                "schedule": {"quarantine_seconds": 0.2},
                "random_games": {"keep": args.games, "rulesets": [5], "board_type": "random"},
                "invites": {"rulesets": [5]},
                "play": {"strategy": args.strategy, "seconds_per_move": args.seconds_per_move},
            }
        )
        secrets = soak.secrets
        credentials = Credentials.from_password("email", secrets["WORDFEUD_EMAIL"], secrets["WORDFEUD_PASSWORD"])
        wiring = build(config, credentials, store=Store(work / "bot-state.sqlite3"))
        tracemalloc.start(args.depth)
        try:
            return _play(args, wiring.bot.run_pass)
        finally:
            tracemalloc.stop()
            wiring.store.close()


def _play(args: argparse.Namespace, run_pass: Callable[[threading.Event], PassReport]) -> list[str]:
    decisions = passes = 0
    base: tracemalloc.Snapshot | None = None
    started = time.monotonic()
    while decisions < args.decisions:
        decisions += run_pass(threading.Event()).acted
        passes += 1
        if base is None and decisions >= args.warmup:
            gc.collect()
            base = tracemalloc.take_snapshot()
            print(f"snapshot after {decisions} decisions: {traced_mb():.1f} MB traced", flush=True)
        if passes % args.every == 0:
            gc.collect()
            seconds = time.monotonic() - started
            print(
                f"{seconds:6.0f} s  {passes:5d} passes  {decisions:5d} decisions  {traced_mb():6.1f} MB traced",
                flush=True,
            )
    gc.collect()
    end = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    print(f"end after {decisions} decisions: {traced_mb():.1f} MB traced", flush=True)
    if base is None:
        return []
    return [str(stat) for stat in end.compare_to(base, "lineno")[: args.top]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sandbox.lab.memtrace",
        description="Run the bot's service in this process against a sandbox with every fault on, under tracemalloc, "
        "and print the lines of code whose memory grew most between --warmup decisions and the end.",
    )
    parser.add_argument("--decisions", type=int, default=200, help="decisions to play (default 200)")
    parser.add_argument("--warmup", type=int, default=20, help="decisions before the first snapshot (default 20)")
    parser.add_argument("--strategy", default="sim", help="the bot's strategy (default sim)")
    parser.add_argument("--seconds-per-move", type=float, default=0.3, help="thinking time a move (default 0.3)")
    parser.add_argument("--games", type=int, default=3, help="games kept going (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sandbox (default 1)")
    parser.add_argument("--every", type=int, default=20, help="passes between two progress lines (default 20)")
    parser.add_argument("--top", type=int, default=15, help="lines of growth to print (default 15)")
    parser.add_argument("--depth", type=int, default=1, help="frames kept per allocation (default 1)")
    args = parser.parse_args(argv)
    if min(args.decisions, args.games, args.every, args.top, args.depth) < 1 or args.warmup < 0:
        parser.error("--decisions, --games, --every, --top and --depth must be at least 1, --warmup at least 0")
    if args.seconds_per_move <= 0:
        parser.error("--seconds-per-move must be more than 0")
    with tempfile.TemporaryDirectory(prefix="wordfeud-memtrace-") as work:
        # the faults' warnings go to a file, not between the figures
        logging.basicConfig(filename=Path(work) / "bot.log", level=logging.WARNING, force=True)
        try:
            lines = trace(args, Path(work))
        except SoakError as exc:
            print(f"memtrace: {exc}", file=sys.stderr)
            return 2
    print("growth since the snapshot, by line:")
    print("\n".join(f"  {line}" for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
