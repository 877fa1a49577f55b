"""The C move generator's workload for a memory checker: ``python -m tests.engine.memcheck``.

Runs, in one interpreter, ``generate`` before ``set_types``, then both entry points on every
benchmark position (the shared files when they are there, else positions of seeded random games),
every hostile-input case of ``tests/engine/native_cases.py`` and a short fuzz of corrupted lexicons;
then the endgame's hostile cases and fuzz (``tests/engine/endgame_cases.py``) and a few real endgames.
Exits 1 when a case does not raise as it must. Under valgrind (``tests/engine/test_native_memcheck.py``
says how) any read or write out of bounds, use after free or bad free in the C code is reported.
"""

from __future__ import annotations

import argparse
import math
import time
from array import array
from collections.abc import Iterator
from pathlib import Path

from dictionaries import ENGLISH_DAWG, bundled_path
from engine import native
from engine.board import Board
from engine.dawg import Dawg
from engine.nativeendgame import solve_native
from engine.rack import Rack
from engine.rules import Ruleset
from offline.bench import read_positions
from offline.endgames import DEFAULT_FILE, english, read
from tests.engine import endgame_cases
from tests.engine.native_cases import before_set_types, fuzz, module, run_cases
from tests.engine.randomgames import play_random, random_games

#: The shared benchmark positions (``../shared/bench`` beside the repository, in CI).
BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "bench"
#: Positions of random games searched when the shared files are missing.
FALLBACK_POSITIONS = 40


def positions() -> Iterator[tuple[str, Ruleset, Dawg, Board, Rack]]:
    """The shared bench positions with the bundled English lexicon, else positions of random games."""
    files = sorted(BENCH.glob("positions-*.txt"))
    if files:
        rules = Ruleset.for_id(5)
        english = Dawg.load(bundled_path(ENGLISH_DAWG), rules.alphabet)
        for path in files:
            for pos in read_positions(path, rules.alphabet):
                yield f"{path.name} {pos.name}", rules, english, pos.board, pos.rack
        return
    lexicons: dict[frozenset[str], Dawg] = {}
    for label, rules, words, board, rack, rng in random_games(FALLBACK_POSITIONS, rulesets=(5, 1, 6, 9)):
        key = frozenset(words)
        if key not in lexicons:
            lexicons[key] = Dawg.build([rules.alphabet.parse_word(w) for w in words], rules.alphabet)
        yield label, rules, lexicons[key], board, rack
        play_random(rng, board, module().generate(*arguments(rules, lexicons[key], board, rack)))


def arguments(rules: Ruleset, lexicon: Dawg, board: Board, rack: Rack) -> tuple[object, ...]:
    """What engine.movegen hands the C side."""
    return native.lexicon(lexicon), native.rules(rules), board.grid, list(rack.counts), rack.blanks


def search_positions() -> tuple[int, int, list[str]]:
    """Both entry points on every position: (positions, moves, failures)."""
    from engine.native import set_types  # noqa: PLC0415 - after before_set_types ran

    set_types()
    c = module()
    count = moves = 0
    failures = []
    for label, rules, lexicon, board, rack in positions():
        found = c.generate(*arguments(rules, lexicon, board, rack))
        flat = array("i")
        flat.frombytes(c.generate_flat(*arguments(rules, lexicon, board, rack)))
        if len(flat) != sum(3 + 3 * len(m.tiles) for m in found):
            failures.append(f"{label}: generate_flat and generate disagree")
        count += 1
        moves += len(found)
    return count, moves, failures


def real_endgames() -> int:
    """The C endgame on the bench's first real 7-tile endgames, under a node budget: how many were searched."""
    rules, lexicon = english()
    count = 0
    for e in read(DEFAULT_FILE, rules)[:4]:
        solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=3000, table_bits=14)
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.memcheck", description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz-rounds", type=int, default=100, help="corrupted lexicons to try (default 100)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    failure = before_set_types()
    failures = [failure] if failure else []
    count, moves, more = search_positions()
    failures += more
    print(f"positions: {count} searched, {moves} moves ({time.perf_counter() - start:.1f} s)", flush=True)
    failures += run_cases()
    print(f"hostile cases done ({time.perf_counter() - start:.1f} s)", flush=True)
    seen = fuzz(seed=7, rounds=args.fuzz_rounds)
    print(f"fuzz: {dict(seen)} ({time.perf_counter() - start:.1f} s)")
    failures += endgame_cases.run_cases()
    endgames = endgame_cases.fuzz(seed=5, rounds=args.fuzz_rounds // 5)
    solved = real_endgames()
    print(
        f"endgame: hostile cases, fuzz {dict(endgames)}, {solved} real endgames ({time.perf_counter() - start:.1f} s)"
    )
    for line in failures:
        print(f"FAILED {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
