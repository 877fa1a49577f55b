"""Move-generation benchmark: ``python -m offline.bench --lexicon WORDLIST --positions FILE``.

Reads positions in the benchmark format ("= name RACK" then 15 board rows; ``?`` a blank in the
rack, lower case a blank on the board), times full move generation several times per position and
prints one TSV line per position, then a summary per number of blanks in the rack and the lexicon's
build time, load time, file size and memory. ``--generator native|python`` picks the move generator
(default: the active one, see ``engine.native``) and ``--flat`` times ``generate_flat`` (one flat int
array) instead of ``generate`` (Placement objects); the first line says which ran. Compare figures
within one run: absolute times vary between machines and runs. ``--sim`` prints the simulation's
figures instead (``offline/bench/simbench.py``): candidate playouts per CPU second in C and in Python, and
per decision of the default ``sim`` and of a fixed-work ``sim`` the time and the iterations reached; the
20 real endgames follow either way unless ``--endgame-seconds 0``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

# The benchmark is a tool beside the engine: it reads word lists the way `dict build` does.
from dictionaries import ENGLISH_WORDS, bundled_path
from dictionaries.build import build_lexicon
from engine import native
from engine.board.board import Board
from engine.board.move import Move, Placement
from engine.board.rack import Rack
from engine.equity.strategy import Situation, Strategy, unseen_tiles
from engine.errors import EngineError
from engine.lexicon.dawg import Dawg
from engine.lookahead.simulation import SimSettings
from engine.movegen.generate import generate, generate_flat
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import Alphabet
from offline.bench import endgames
from offline.bench.simbench import report, sim_strategy


@dataclass(frozen=True)
class Position:
    """One benchmark position: a name, a rack and a board."""

    name: str
    rack: Rack
    board: Board


def read_positions(path: Path, alphabet: Alphabet) -> Iterator[Position]:
    """Parse a positions file; raises EngineError naming the line that is wrong."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line or line.startswith("#"):
            i += 1
            continue
        if not line.startswith("="):
            raise EngineError(f"{path}:{i + 1}: expected '= name RACK', got {line!r}")
        parts = line[1:].split()
        if len(parts) != 2:
            raise EngineError(f"{path}:{i + 1}: expected '= name RACK', got {line!r}")
        name, rack_text = parts
        rows = lines[i + 1 : i + 16]
        try:
            rack = Rack.from_text(rack_text, alphabet)
            board = Board.from_text("\n".join(rows), alphabet)
        except EngineError as exc:
            raise EngineError(f"{path}:{i + 1}: position {name}: {exc}") from None
        yield Position(name, rack, board)
        i += 16


def calibration_ms() -> float:
    """Milliseconds of a fixed pure-Python loop of bit and list operations (best of 5).

    Shared machines change speed from minute to minute; printed at the start and the end of a run,
    it tells whether two runs (or the two ends of one) saw the same machine.
    """
    table = list(range(1024))
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        acc = 0
        for i in range(100_000):
            low = i & -i
            acc += table[(i ^ low) & 1023] + low.bit_length()
        best = min(best, time.perf_counter() - start)
    return best * 1000


#: One full move generation of a position; returns the moves (a list, or a flat array).
Search = Callable[[Position, Dawg, Ruleset], "list[Placement] | array[int] | list[Move]"]


def flat_move_count(flat: array[int]) -> int:
    """The number of moves in a ``generate_flat`` array (per move ``n, direction, score`` and 3 ints per tile)."""
    count = i = 0
    while i < len(flat):
        i += 3 + 3 * flat[i]
        count += 1
    return count


def move_count(moves: list[Placement] | array[int] | list[Move]) -> int:
    """The number of moves in what a ``Search`` returned (counted outside the timed call)."""
    return flat_move_count(moves) if isinstance(moves, array) else len(moves)


def situation_of(pos: Position, lexicon: Dawg, rules: Ruleset) -> Situation:
    """The position as a player sees it mid-game: the unseen tiles are the bag and a full opponent rack."""
    unseen = unseen_tiles(pos.board, pos.rack, rules)
    return Situation(pos.board, pos.rack, rules, lexicon, unseen, max(0, len(unseen) - rules.rack_size))


def decision_for(generator: str, strategy: Strategy) -> Search:
    """A whole static decision, from the position to the move to play: ``best`` (ranked inside the C
    search) with the native generator, every move generated and ranked in Python with the other."""
    if generator == "native":
        return lambda pos, lexicon, rules: strategy.best(situation_of(pos, lexicon, rules), 1)

    def in_python(pos: Position, lexicon: Dawg, rules: Ruleset) -> list[Move]:
        situation = situation_of(pos, lexicon, rules)
        return strategy.rank(situation, generate(pos.board, pos.rack, lexicon, rules, generator="python"))[:1]

    return in_python


def search_for(generator: str, flat: bool) -> Search:
    """The call the benchmark times: ``generate`` with the given generator, or ``generate_flat``.

    ``generate_flat`` has no generator argument (it runs the active one), so the caller checks that
    ``generator`` is the active one when ``flat`` is set."""
    if flat:
        return lambda pos, lexicon, rules: generate_flat(pos.board, pos.rack, lexicon, rules)
    return lambda pos, lexicon, rules: generate(pos.board, pos.rack, lexicon, rules, generator=generator)


def generator_problem(generator: str, flat: bool) -> str | None:
    """Why ``--generator GENERATOR [--flat]`` cannot run in this process, or None when it can."""
    if generator == "native" and native.NATIVE is None:
        forced = os.environ.get(native.VARIABLE, "").strip().lower() == "python"
        remedy = f"unset {native.VARIABLE}" if forced else "reinstall with a C compiler (pip install -e .)"
        return f"--generator native: the C extension is not in use ({native.describe()}); {remedy}"
    if flat and generator != native.GENERATOR:
        return (
            f"--flat times generate_flat, which runs the active generator ({native.GENERATOR}); "
            f"for the {generator} one run with {native.VARIABLE}={generator}"
        )
    return None


def _timed(search: Search, pos: Position, lexicon: Dawg, rules: Ruleset) -> float:
    """Seconds of one full move generation for the position."""
    start = time.perf_counter()
    search(pos, lexicon, rules)
    return time.perf_counter() - start


def _position_line(pos: Position, count: int, times: list[float]) -> str:
    """The TSV line of one position: name, rack, moves, min and median ms."""
    return f"{pos.name}\t{pos.rack.text()}\t{count}\t{min(times) * 1000:.3f}\t{statistics.median(times) * 1000:.3f}"


def percentile(values: list[float], share: float) -> float:
    """The ``share``-th percentile (nearest rank) of the values.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 50), percentile(list(map(float, range(100))), 95)
    (2.0, 94.0)
    """
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 100))  # ceil(n * share / 100), at least the first
    return ordered[int(rank) - 1]


def default_lexicon() -> Path:
    """The bundled English word list (public-domain ENABLE)."""
    return bundled_path(ENGLISH_WORDS)


def endgame_lines(seconds: float, solver: str) -> None:
    """Print the 20 real endgames' figures (nodes per CPU second, how many solved within ``seconds``); 0 skips them."""
    if seconds > 0:
        for line in endgames.bench(seconds, solver):
            print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m offline.bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lexicon",
        type=Path,
        default=None,
        help="word list (.txt or .txt.gz) or compiled .dawg; default: the bundled English list",
    )
    parser.add_argument("--positions", type=Path, required=True, help="positions file (benchmark format)")
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset id for tile values (default 5, English)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per position (default 5)")
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="time the whole set once per round instead of each position --repeat times in a row:"
        " steadier when the machine's speed drifts, and with caches that another position filled",
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N positions (default: all)")
    parser.add_argument(
        "--generator",
        choices=("native", "python"),
        default=None,
        help=f"move generator to time: native (the C extension) or python (the reference); default: the active"
        f" one ({native.GENERATOR} here; {native.VARIABLE} chooses it)",
    )
    parser.add_argument(
        "--flat",
        action="store_true",
        help="time generate_flat (the moves as one flat int array) instead of generate (Placement objects)",
    )
    parser.add_argument(
        "--decide",
        metavar="STRATEGY",
        help="time a whole static decision of STRATEGY (e.g. equity) instead of the generation: the move to"
        " play from the position, with the bag holding all unseen tiles but a full opponent rack",
    )
    parser.add_argument(
        "--sim",
        action="store_true",
        help="the simulation's figures instead of the generation's: candidate playouts per CPU second (C"
        " kernel and Python reference), then per decision of --sim-default and of --sim-fixed the time"
        " (median, p95, the slowest) and the iterations reached (offline/bench/simbench.py), then the 20 real"
        " endgames as without --sim (--endgame-seconds 0 skips them)",
    )
    parser.add_argument("--sim-default", default="sim", help="the time-budgeted sim strategy (default: sim)")
    parser.add_argument(
        "--sim-fixed",
        default="sim:candidates=6,iterations=40,seconds=0",
        help="the fixed-work sim strategy (default: sim:candidates=6,iterations=40,seconds=0)",
    )
    parser.add_argument(
        "--sim-candidates",
        type=int,
        nargs="+",
        metavar="N",
        help="--sim: the static best N moves played out for the playouts per CPU second, a line for each N"
        f" (default: 8, the count of every figure before 2026-11-29, and the default sim's {SimSettings().candidates};"
        " the more candidates, the more of the opponent's reply they share)",
    )
    parser.add_argument("--sim-draws", type=int, default=64, help="--sim: draws per position for the kernel")
    parser.add_argument("--sim-python-draws", type=int, default=4, help="--sim: of those, played in Python")
    parser.add_argument(
        "--endgame-seconds",
        type=float,
        default=2.0,
        help="also solve the 20 real 7-tile endgames (offline/bench/endgames.py) within this many seconds each and"
        " print nodes per CPU second and how many were solved exactly (default 2; 0 skips them)",
    )
    parser.add_argument(
        "--endgame-solver",
        choices=sorted(endgames.SOLVERS),
        default="active",
        help="the endgame solver: active (C when built, else Python; default), native or python",
    )
    args = parser.parse_args(argv)
    generator: str = args.generator or native.GENERATOR
    problem = generator_problem(generator, args.flat)
    if problem is not None:
        parser.error(problem)
    if args.decide and args.flat:
        parser.error("--decide times a decision, --flat a generation: choose one")
    if args.sim:
        for option, name in (("--sim-default", args.sim_default), ("--sim-fixed", args.sim_fixed)):
            try:
                sim_strategy(name)
            except ValueError as exc:
                parser.error(f"{option}: {exc}")
        if min(args.sim_draws, args.sim_python_draws) < 1:
            parser.error("--sim-draws and --sim-python-draws must be at least 1")
        if args.sim_candidates is not None and min(args.sim_candidates) < 1:
            parser.error(f"--sim-candidates must be at least 1, not {min(args.sim_candidates)}")
    if args.decide:
        try:
            search = decision_for(generator, strategy_named(args.decide))
        except ValueError as exc:
            parser.error(f"--decide: {exc}")
    else:
        search = search_for(generator, args.flat)
    rules = Ruleset.for_id(args.ruleset)
    alphabet = rules.alphabet
    lexicon_path = args.lexicon or default_lexicon()
    if not lexicon_path.exists():
        parser.error(f"lexicon {lexicon_path} does not exist")
    if not args.positions.exists():
        parser.error(f"positions file {args.positions} does not exist")
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")

    calibration_start = calibration_ms()
    build_s: float | None = None
    with tempfile.TemporaryDirectory() as tmp:
        if lexicon_path.suffix == ".dawg":
            dawg_path = lexicon_path
        else:
            dawg_path = Path(tmp) / "lexicon.dawg"
            build_s = build_lexicon(rules, lexicon_path, dawg_path)[1].seconds
        loads = []
        for _ in range(5):
            start = time.perf_counter()
            lexicon = Dawg.load(dawg_path, alphabet)
            loads.append(time.perf_counter() - start)
        gc.collect()
        tracemalloc.start()
        probe = Dawg.load(dawg_path, alphabet)
        memory = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del probe
        file_size = dawg_path.stat().st_size

    positions = list(read_positions(args.positions, alphabet))
    if args.limit:
        positions = positions[: args.limit]
    if args.sim:
        print(f"# sim figures\tpositions file={args.positions.name}\t{native.describe()}", flush=True)
        report(
            [(pos.name, situation_of(pos, lexicon, rules)) for pos in positions],
            candidates=args.sim_candidates or sorted({8, SimSettings().candidates}),
            draws=args.sim_draws, python_draws=args.sim_python_draws,
            default=args.sim_default, fixed=args.sim_fixed,
        )  # fmt: skip
        endgame_lines(args.endgame_seconds, args.endgame_solver)
        print(f"# machine\tcalibration_ms_start={calibration_start:.1f}\tcalibration_ms_end={calibration_ms():.1f}")
        return 0
    for pos in positions:
        search(pos, lexicon, rules)  # a warm-up (for --decide, the leave tables load here)
    counts = [len(generate(pos.board, pos.rack, lexicon, rules)) for pos in positions]
    times: list[list[float]] = [[] for _ in positions]
    timed = "generate_flat (a flat int array)" if args.flat else "generate (Placement objects)"
    if args.decide:
        timed = f"a whole {args.decide} decision"
    print(f"# generator={generator}\ttimed={timed}\tactive={native.describe()}")
    print("name\track\tmoves\tmin_ms\tmedian_ms", flush=True)
    if args.interleave:
        # the whole set ``--repeat`` times over: a slow spell of a shared machine hits one timing
        # of many positions, and each run starts with caches holding another position's data
        for round_number in range(1, args.repeat + 1):
            for pos, pos_times in zip(positions, times, strict=True):
                pos_times.append(_timed(search, pos, lexicon, rules))
            print(f"round {round_number}/{args.repeat} done", file=sys.stderr, flush=True)
        for pos, count, pos_times in zip(positions, counts, times, strict=True):
            print(_position_line(pos, count, pos_times))
    else:
        for pos, count, pos_times in zip(positions, counts, times, strict=True):
            search(pos, lexicon, rules)  # caches warm with this position, not the last
            pos_times.extend(_timed(search, pos, lexicon, rules) for _ in range(args.repeat))
            print(_position_line(pos, count, pos_times), flush=True)
    # per number of blanks: (median, min, moves) of each position
    per_blanks: dict[int, list[tuple[float, float, int]]] = {}
    for pos, count, pos_times in zip(positions, counts, times, strict=True):
        per_blanks.setdefault(pos.rack.blanks, []).append((statistics.median(pos_times), min(pos_times), count))
    print()
    print(
        "# summary per blanks in rack: positions, median and mean ms (of each position's median),"
        " median of each position's min ms, moves/s"
    )
    for blanks in sorted(per_blanks):
        rows = per_blanks[blanks]
        ms = [t * 1000 for t, _, _ in rows]
        total_moves = sum(n for _, _, n in rows)
        total_time = sum(t for t, _, _ in rows)
        rate = total_moves / total_time if total_time else 0.0
        print(
            f"# blanks={blanks}\tpositions={len(rows)}\tmedian_ms={statistics.median(ms):.3f}\t"
            f"mean_ms={statistics.mean(ms):.3f}\tmedian_of_min_ms={statistics.median(b * 1000 for _, b, _ in rows):.3f}"
            f"\tp95_ms={percentile(ms, 95):.3f}\tmoves_per_s={rate:,.0f}"
        )
    every = [row for rows in per_blanks.values() for row in rows]
    if every:
        all_ms = [t * 1000 for t, _, _ in every]
        best_ms = statistics.median(b * 1000 for _, b, _ in every)
        print(
            f"# all\tpositions={len(all_ms)}\tmedian_ms={statistics.median(all_ms):.3f}\t"
            f"mean_ms={statistics.mean(all_ms):.3f}\tmedian_of_min_ms={best_ms:.3f}"
            f"\tp95_ms={percentile(all_ms, 95):.3f}"
        )
    print(f"# lexicon\t{lexicon_path.name}\twords={len(lexicon)}\tedges={len(lexicon.child)}")
    build_text = f"{build_s:.2f}" if build_s is not None else "n/a (compiled file given)"
    print(
        f"# lexicon\tbuild_s={build_text}\tload_ms={min(loads) * 1000:.1f}\t"
        f"file_bytes={file_size}\tmemory_bytes={memory}"
    )
    endgame_lines(args.endgame_seconds, args.endgame_solver)
    print(f"# machine\tcalibration_ms_start={calibration_start:.1f}\tcalibration_ms_end={calibration_ms():.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
