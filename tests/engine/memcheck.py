"""The C move generator's workload for a memory checker: ``python -m tests.engine.memcheck``.

Runs, in one interpreter, ``generate`` before ``set_types``, then ``generate_flat`` on every benchmark
position (the shared files when they are there, else positions of seeded random games) and ``generate``
on every ``OBJECTS_EVERY``-th of the shared ones (on each of the random ones),
every hostile-input case of ``tests/engine/native_cases.py``, searches of a lexicon overlay whose C
copy is patched word by word, a short fuzz of corrupted lexicons, the playout kernel's hostile
cases and real playouts (``tests/engine/playout_cases.py``), some with blanks on the racks, the self-play
loop's hostile cases and a game (``tests/engine/selfplay_cases.py``); then the
endgame's hostile cases and fuzz (``tests/engine/endgame_cases.py``) and a few real endgames.
Exits 1 when a case does not raise as it must. Under valgrind (``tests/engine/test_native_memcheck.py``
says how) any read or write out of bounds, use after free or bad free in the C code is reported.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dictionaries import ENGLISH_DAWG, bundled_path
from engine import native
from engine.board.board import Board
from engine.board.rack import Rack
from engine.endgame.native import solve_native
from engine.lexicon.dawg import Dawg
from engine.lexicon.overlay import LexiconOverlay
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG
from offline.bench.endgames import DEFAULT_FILE, english, read
from offline.bench.movegen import read_positions
from tests.engine import endgame_cases
from tests.engine.native_cases import WORDS, all_cases, before_set_types, fuzz, module, run_cases
from tests.engine.playout_cases import blank_workload, playout_cases
from tests.engine.playout_cases import workload as playout_workload
from tests.engine.randomgames import play_random, random_games
from tests.engine.selfplay_cases import selfplay_cases
from tests.engine.selfplay_cases import workload as selfplay_workload

#: The shared benchmark positions (``../shared/bench`` beside the repository, in CI).
BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "bench"
#: Positions of random games searched when the shared files are missing.
FALLBACK_POSITIONS = 40
#: ``generate`` is ``generate_flat``'s search followed by a Placement object per move, and under valgrind
#: the 400,000 objects of the 332 shared positions cost more than their searches: so every position is
#: searched by ``generate_flat`` and every this-many-th of the shared ones by ``generate`` too (which
#: still makes moves of every size, both directions and blanks: ``main`` prints them, the test checks).
OBJECTS_EVERY = 8


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
    """What engine.movegen.generate hands the C side."""
    return native.lexicon(lexicon), native.rules(rules), board.grid, list(rack.counts), rack.blanks


@dataclass
class Made:
    """What ``generate`` made: on how many positions, how many moves, of which sizes and directions, and on
    how many positions a move with a blank."""

    positions: int = 0
    moves: int = 0
    sizes: set[int] = field(default_factory=set)
    directions: set[str] = field(default_factory=set)
    with_blanks: int = 0

    def text(self) -> str:
        sizes = ",".join(map(str, sorted(self.sizes)))
        return (f"{self.moves} moves made on {self.positions} (tiles {sizes}; {' and '.join(sorted(self.directions))};"
                f" blanks on {self.with_blanks})")


def search_positions() -> tuple[int, Made, list[str]]:
    """``generate_flat`` on every position and ``generate`` on every ``OBJECTS_EVERY``-th of the shared
    ones (on all random ones): (positions, what ``generate`` made, failures)."""
    from engine.native import set_types  # noqa: PLC0415 - after before_set_types ran

    set_types()
    c = module()
    every = OBJECTS_EVERY if sorted(BENCH.glob("positions-*.txt")) else 1
    count = 0
    made = Made()
    failures = []
    for index, (label, rules, lexicon, board, rack) in enumerate(positions()):
        flat = array("i")
        flat.frombytes(c.generate_flat(*arguments(rules, lexicon, board, rack)))
        count += 1
        if index % every:
            continue
        found = c.generate(*arguments(rules, lexicon, board, rack))
        if len(flat) != sum(3 + 3 * len(m.tiles) for m in found):
            failures.append(f"{label}: generate_flat and generate disagree")
        made.positions += 1
        made.moves += len(found)
        made.sizes.update(len(m.tiles) for m in found)
        made.directions.update(m.direction.name.lower() for m in found)
        made.with_blanks += any(tile & BLANK_FLAG for m in found for _, _, tile in m.tiles)
    return count, made, failures


def search_overlay(seed: int, words: int) -> tuple[int, list[str]]:
    """Words added to and removed from an overlay one at a time, its C copy patched each time and
    searched on random boards: (searches, failures). Under valgrind: the patched arrays are read in bounds."""
    rng = random.Random(seed)
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    overlay = LexiconOverlay(Dawg.build([en.parse_word(w) for w in WORDS], en))
    lexicon = native.lexicon(overlay.dawg)
    searches = 0
    failures = []
    for _ in range(words):
        word = [rng.randrange(len(en)) for _ in range(rng.randint(1, 15))]
        if rng.random() < 0.8:
            overlay.add([word])
        else:
            overlay.remove([word, en.parse_word(rng.choice(WORDS))])
        if overlay.dawg.native is not lexicon:
            failures.append("the overlay's C copy was made again instead of patched")
        board = Board(en)
        board.place([(7, c, rng.randrange(len(en))) for c in range(rng.randint(5, 9), 10)])
        rack = Rack.from_codes(en, [rng.randrange(len(en)) for _ in range(7)])
        module().generate(*arguments(rules, overlay.dawg, board, rack))
        searches += 1
    return searches, failures


def real_endgames() -> int:
    """The C endgame on the bench's first real 7-tile endgames, under a node budget (the line cache checked
    against a fresh generation at every node): how many were searched."""
    rules, lexicon = english()
    count = 0
    for e in read(DEFAULT_FILE, rules)[:4]:
        solve_native(
            e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=3000, table_bits=14, check_lines=True
        )
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.memcheck", description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz-rounds", type=int, default=100, help="corrupted lexicons to try (default 100)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    failure = before_set_types()
    failures = [failure] if failure else []
    count, made, more = search_positions()
    failures += more
    print(f"positions: {count} searched, {made.text()} ({time.perf_counter() - start:.1f} s)", flush=True)
    failures += run_cases(all_cases())
    print(f"hostile cases done ({time.perf_counter() - start:.1f} s)", flush=True)
    searched, more = search_overlay(seed=7, words=200)
    failures += more
    print(f"overlay: {searched} searches after patches ({time.perf_counter() - start:.1f} s)", flush=True)
    seen = fuzz(seed=7, rounds=args.fuzz_rounds)
    print(f"fuzz: {dict(seen)} ({time.perf_counter() - start:.1f} s)")
    failures += [f"playouts: {case}" for case in run_cases(playout_cases())]
    playouts, mismatches = playout_workload(games=1, draws=1, reference=False)
    failures += mismatches
    with_blanks, mismatches = blank_workload(games=1, reference=False)
    failures += mismatches
    print(
        f"playouts: {playouts} played, {with_blanks} with blanks on the racks, hostile cases done"
        f" ({time.perf_counter() - start:.1f} s)",
        flush=True,
    )
    failures += [f"selfplay: {case}" for case in run_cases(selfplay_cases())]
    turns, mismatches = selfplay_workload(games=1, reference=False)
    failures += mismatches
    print(f"selfplay: {turns} turns played, hostile cases done ({time.perf_counter() - start:.1f} s)", flush=True)
    failures += run_cases(endgame_cases.endgame_cases())
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
