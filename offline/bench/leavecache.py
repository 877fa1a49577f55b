"""``python -m offline.bench.leavecache``: the learned leave model's value cache, measured for a few sizes.

The simulation (``sim``) values the leaves of racks both players hold after moves drawn at random, so the
leaves it asks the learned model for are spread over millions of possible racks, and an unbounded
cache grew with every decision. This command plays seeded ``sim`` self-play games on the local engine
(English, the shipped table), records every leave the model was asked for, then replays that sequence
through an ``engine.lru.LruCache`` of each size and prints, per size: the hit rate, the memory the
full cache takes (``tracemalloc``, keys and values included) and, once, the time a value takes to
compute and to find. ``engine.equity.leavetable.VALUE_CACHE_SIZE`` was chosen from its output.
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
import time
import tracemalloc
from collections.abc import Sequence

from dictionaries import bundled_path
from engine.board.rack import Rack
from engine.equity.leavetable import VALUE_CACHE_SIZE, LearnedLeave
from engine.equity.strategy import EndgameBudget, Equity
from engine.lexicon.dawg import Dawg
from engine.lookahead.simulation import Sim, SimSettings
from engine.lru import LruCache
from engine.players.arena import pair_seed, play_game
from engine.rules.ruleset import Ruleset

Key = tuple[tuple[int, ...], int]
DEFAULT_SIZES = (0, 1_024, 4_096, 16_384, 32_768, 65_536, 262_144)


class KeyLog(LruCache[Key, float]):
    """A cache that keeps nothing and remembers every key it was asked for, in order."""

    def __init__(self) -> None:
        super().__init__(0)
        self.keys: list[Key] = []

    def get(self, key: Key) -> float | None:
        self.keys.append(key)
        return super().get(key)


def record(games: int, seed: int, iterations: int) -> list[Key]:
    """The leaves a ``sim`` player asks the learned model for over ``games`` self-play games."""
    rules = Ruleset.for_id(5)
    lexicon = Dawg.load(bundled_path("en/enable.dawg"), rules.alphabet)
    shipped = LearnedLeave.shipped(rules)
    assert shipped is not None, "the English table ships"
    log = KeyLog()
    model = shipped.with_cache(log)
    settings = SimSettings(max_iterations=iterations, seconds=math.inf)
    static = Equity(model, solver=EndgameBudget(seconds=math.inf, nodes=60_000))
    player = Sim(static, settings, native=False)  # the Python playouts: the C kernel reads the table itself
    for game in range(games):
        play_game((player, player), rules, lexicon, pair_seed(seed, game), 0)
    return log.keys


def hit_rate(keys: Sequence[Key], size: int) -> float:
    cache: LruCache[Key, float] = LruCache(size)
    for key in keys:
        if cache.get(key) is None:
            cache.put(key, 0.0)
    return cache.hits / max(1, cache.hits + cache.misses)


def memory(keys: Sequence[Key], size: int) -> int:
    """Bytes a cache of ``size`` distinct keys takes (new copies of the keys, as a real cache holds
    the keys of racks that would otherwise be gone)."""
    distinct = list(dict.fromkeys(keys))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        cache: LruCache[Key, float] = LruCache(size)
        for counts, blanks in distinct[:size]:
            cache.put((tuple(list(counts)), blanks), float(blanks) + 0.5)
        used: int = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return used


def timings(keys: Sequence[Key]) -> tuple[float, float]:
    """Microseconds per ``value`` computed (a cache of 0) and found (every key in the cache)."""
    rules = Ruleset.for_id(5)
    shipped = LearnedLeave.shipped(rules)
    assert shipped is not None
    racks = [Rack(rules.alphabet, counts, blanks) for counts, blanks in dict.fromkeys(keys)][:20_000]
    result = []
    for size in (0, len(racks)):
        model = shipped.with_cache(LruCache(size))
        for rack in racks:
            model.value(rack)
        started = time.perf_counter()
        for rack in racks:
            model.value(rack)
        result.append((time.perf_counter() - started) / len(racks) * 1e6)
    return result[0], result[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m offline.bench.leavecache",
        description="Play seeded sim self-play games (English), record the leaves valued by the learned model, and "
        "print the hit rate and memory of its value cache for a few sizes.",
    )
    parser.add_argument("--games", type=int, default=2, help="self-play games to record (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games' bags (default 1)")
    parser.add_argument(
        "--iterations", type=int, default=100, help="sim iterations per move, no time limit (default 100)"
    )
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, DEFAULT_SIZES)),
        help="cache sizes to replay, comma-separated (default %(default)s)",
    )
    args = parser.parse_args(argv)
    try:
        sizes = [int(part) for part in args.sizes.split(",") if part.strip()]
    except ValueError:
        parser.error(f"--sizes {args.sizes!r}: expected whole numbers separated by commas")
    if args.games < 1 or args.iterations < 1 or any(size < 0 for size in sizes):
        parser.error("--games and --iterations must be at least 1, --sizes at least 0")
    started = time.perf_counter()
    keys = record(args.games, args.seed, args.iterations)
    distinct = len(set(keys))
    print(
        f"# {args.games} games of sim:iterations={args.iterations},seconds=0 (seed {args.seed}), "
        f"{time.perf_counter() - started:.0f} s: {len(keys):,} leave values asked for, {distinct:,} distinct"
    )
    print(f"# VALUE_CACHE_SIZE = {VALUE_CACHE_SIZE:,}")
    print("size\thit_rate\tmemory_MB\tbytes_per_entry")
    for size in sizes:
        used = memory(keys, size)
        held = min(size, distinct)
        per = used / held if held else 0.0
        print(f"{size}\t{hit_rate(keys, size):.3f}\t{used / 1e6:.2f}\t{per:.0f}")
    unbounded = memory(keys, distinct)
    print(f"unbounded ({distinct})\t{hit_rate(keys, distinct):.3f}\t{unbounded / 1e6:.2f}\t{unbounded / distinct:.0f}")
    computed, found = timings(keys)
    print(f"# a value computed: {computed:.2f} us; found in the cache: {found:.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
