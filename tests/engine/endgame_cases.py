"""Hostile input for the C endgame (``engine._native.solve_endgame``), and a seeded fuzz of it on random
boards (words or not) and racks.

Each case is one call that must raise a Python exception naming the problem, never crash. Importable
without pytest: the memory checker (``tests/engine/memcheck.py``) runs the same cases and the fuzz
under valgrind. ``python -m tests.engine.endgame_cases cases|fuzz`` prints a closing JSON line (the tests
run it in a subprocess, so that a crash fails a test instead of killing pytest).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine import native
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from tests.engine.native_cases import BLANK, EMPTY, SIZE, Case, empty_grid, module, run_cases, valid_arguments
from tests.engine.randomgames import english_sample

COUNTS = [1, 0, 1] + [0] * 16 + [1] + [0] * 6  # A, C, T


def solve_call(**changes: object) -> Callable[[], object]:
    """A ``solve_endgame`` call on a small valid position with ``changes`` to its keyword arguments."""
    c = module()
    good_lexicon, good_rules = valid_arguments()
    grid = empty_grid()
    grid[7][7] = 0  # an A
    arguments: dict[str, Any] = {
        "lexicon": c.Lexicon(**good_lexicon), "rules": c.Rules(**good_rules), "grid": grid,
        "mine": COUNTS, "mine_blanks": 0, "theirs": COUNTS, "theirs_blanks": 1,
        "scoreless": 0, "scoreless_to_end": 3, "max_depth": 64, "max_nodes": -1,
        "clock": None, "deadline": 0.0, "table_bits": 10,
    }  # fmt: skip
    arguments |= changes
    return lambda: c.solve_endgame(**arguments)


def endgame_cases() -> list[Case]:
    """Bad boards, racks, budgets and clocks for ``solve_endgame``."""
    c = module()
    _, good_rules = valid_arguments()
    spanish = c.Rules(**(good_rules | {"points": bytes(Ruleset.for_id(6).alphabet.points)}))

    def ticking_then_failing() -> float:
        raise RuntimeError("the clock broke")

    def grid_with(row: int, col: int, value: object) -> list[list[Any]]:
        grid: list[list[Any]] = empty_grid()
        grid[7][7] = 0
        grid[row][col] = value
        return grid

    bad: list[tuple[str, type[Exception], str, dict[str, Any]]] = [
        ("14 rows", ValueError, "board must be a list of 15 rows", {"grid": empty_grid()[:14]}),
        ("a board None", ValueError, "board must be a list", {"grid": None}),
        ("a row of 16", ValueError, "board row 0 must be a list of 15", {"grid": [[EMPTY] * 16, *empty_grid()[1:]]}),
        ("a str square", TypeError, r"board square \(0, 0\) is not an int", {"grid": grid_with(0, 0, "A")}),
        ("tile 200", ValueError, r"board square \(7, 8\) holds 200", {"grid": grid_with(7, 8, 200)}),
        ("blank 26", ValueError, "holds 90, not a tile", {"grid": grid_with(6, 7, BLANK | 26)}),
        ("tile 2**70", OverflowError, "too large", {"grid": grid_with(6, 7, 2**70)}),
        ("8 of a letter", ValueError, "my rack holds 8 of letter 0", {"mine": [8] + [0] * 25}),
        ("my rack of 8", ValueError, "my rack has 8 tiles; racks hold 7", {"mine": [4, 4] + [0] * 24}),
        ("their rack of 9", ValueError, "their rack has 9 tiles", {"theirs": [4, 4] + [0] * 24, "theirs_blanks": 1}),
        ("counts for 25 letters", ValueError, "my rack has counts for 25 letters", {"mine": COUNTS[:25]}),
        ("a negative count", ValueError, "their rack holds -1 of letter 3", {"theirs": [0, 0, 0, -1] + [0] * 22}),
        ("a float count", TypeError, "count of letter 0 is not an int", {"mine": [1.0] + [0] * 25}),
        ("counts an int", TypeError, "counts must be a sequence", {"mine": 7}),
        ("-1 blanks", ValueError, "my rack has -1 blanks", {"mine_blanks": -1}),
        ("9 blanks", ValueError, "their rack has 9 blanks", {"theirs_blanks": 9}),
        ("scoreless -1", ValueError, "scoreless=-1", {"scoreless": -1}),
        ("scoreless at the end", ValueError, "scoreless=3 with a game that ends after 3", {"scoreless": 3}),
        ("a game that never ends", ValueError, "ends after 0", {"scoreless_to_end": 0}),
        ("max_depth 0", ValueError, "max_depth=0", {"max_depth": 0}),
        ("max_depth 10**6", ValueError, "max_depth=1000000", {"max_depth": 10**6}),
        ("table_bits 3", ValueError, "table_bits=3", {"table_bits": 3}),
        ("table_bits 40", ValueError, "table_bits=40", {"table_bits": 40}),
        ("max_nodes 2**70", OverflowError, "", {"max_nodes": 2**70}),
        ("a clock that is not callable", TypeError, "clock must be None or a callable", {"clock": 5}),
        ("a clock that raises", RuntimeError, "the clock broke", {"clock": ticking_then_failing}),
        ("a clock of str", TypeError, "must be real number", {"clock": lambda: "now", "deadline": 1.0}),
        ("a Rules for the lexicon", TypeError, "Lexicon", {"lexicon": c.Rules(**good_rules)}),
        ("alphabets of different sizes", ValueError, "lexicon has 26 letters, the ruleset", {"rules": spanish}),
        (
            "racks of 9",
            ValueError,
            "racks of 9 tiles are not supported",
            {"rules": c.Rules(**(good_rules | {"rack_size": 9}))},
        ),
        ("no arguments", TypeError, "", {"lexicon": None}),
    ]
    # the clock is read every 64 nodes: a position with enough of them makes the failing clocks run
    many = empty_grid()
    for col, tile in enumerate((2, 0, 19, 18)):  # CATS
        many[7][5 + col] = tile
    cases = [Case(f"solve_endgame: {name}", solve_call(**changes), error, match) for name, error, match, changes in bad]
    for case in cases:
        if "clock" in case.name and "not callable" not in case.name:
            cases[cases.index(case)] = Case(case.name, _with_grid(case, many), case.error, case.match)
    return cases


def _with_grid(case: Case, grid: list[list[int]]) -> Callable[[], object]:
    name = case.name
    clock: Callable[[], object] = (lambda: "now") if "str" in name else _raising
    return solve_call(grid=grid, clock=clock, deadline=1.0, mine=[2, 0, 1] + [0] * 16 + [2] + [0] * 6, theirs=COUNTS,
                      theirs_blanks=2)  # fmt: skip


def _raising() -> float:
    raise RuntimeError("the clock broke")


def fuzz(seed: int, rounds: int) -> Counter[str]:
    """Random boards (words or not) and racks of up to 7 tiles: every solve returns a move or a pass."""
    c = module()
    rng = random.Random(seed)
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    dawg = Dawg.build([en.parse_word(w) for w in english_sample(rng, 300)], en)
    lexicon, ruleset = native.lexicon(dawg), native.rules(rules)
    seen: Counter[str] = Counter()
    for _ in range(rounds):
        grid = empty_grid()
        for _ in range(rng.choice((0, 3, 20, 60, 150))):
            tile = rng.randrange(len(en)) | (BLANK if rng.random() < 0.1 else 0)
            grid[rng.randrange(SIZE)][rng.randrange(SIZE)] = tile
        racks = []
        for _ in range(2):
            blanks = rng.choice((0, 0, 1, 2))
            counts = [0] * len(en)
            for _ in range(rng.randint(0, 7 - blanks)):
                counts[rng.randrange(len(en))] += 1
            racks.append((counts, blanks))
        move, _, _, complete, _, _ = c.solve_endgame(
            lexicon, ruleset, grid, racks[0][0], racks[0][1], racks[1][0], racks[1][1],
            rng.randrange(3), 3, 64, rng.choice((64, 640, 3000)), None, 0.0, rng.choice((4, 10, 16)),
        )  # fmt: skip
        seen["pass" if move is None else "placement"] += 1
        seen["complete" if complete else "cut"] += 1
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.endgame_cases", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("cases", "fuzz"), help="the hostile cases, or the fuzz")
    parser.add_argument("--seed", type=int, default=1, help="the fuzz's seed (default 1)")
    parser.add_argument("--rounds", type=int, default=200, help="random positions the fuzz solves (default 200)")
    args = parser.parse_args(argv)
    if args.what == "cases":
        cases = endgame_cases()
        print(json.dumps({"cases": len(cases), "failures": run_cases(cases)}))
    else:
        print(json.dumps(fuzz(args.seed, args.rounds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
