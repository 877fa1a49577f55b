"""Hostile input for the C move generator (``engine._native``), and a seeded fuzz of its lexicon arrays.

Each case is one call that must raise a Python exception naming the problem, never crash or read
out of bounds. The fuzz corrupts a real lexicon's arrays: ``Lexicon`` must refuse them with
ValueError or, when they are still structurally valid, search random boards without crashing.
Importable without pytest: the memory checker (``tests/engine/memcheck.py``) runs the same cases
under valgrind. ``python -m tests.engine.native_cases fuzz --seed S --rounds N`` runs the fuzz
(the tests run it in a subprocess, so that a crash fails a test instead of killing pytest).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import native
from engine.equity import native as leavenative
from engine.equity.leavetable import LearnedLeave
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from tests.engine.randomgames import english_sample

SIZE = 15
SQUARES = SIZE * SIZE
EMPTY = -1
BLANK = 64
WORDS = ("AT", "TA", "CAT", "ACT", "TAX", "AX", "XI", "TI", "IT", "CATS", "SCAT", "TACT")


@dataclass(frozen=True)
class Case:
    """A call that must raise ``error`` with a message matching the regular expression ``match``."""

    name: str
    call: Callable[[], object]
    error: type[Exception]
    match: str

    def failure(self) -> str | None:
        """None when the call raised as it must; else what happened instead."""
        try:
            result = self.call()
        except self.error as exc:
            if re.search(self.match, str(exc)):
                return None
            return f"{self.name}: {type(exc).__name__}: {exc!s:.200} (wanted a message matching {self.match!r})"
        except Exception as exc:
            return f"{self.name}: {type(exc).__name__}: {exc!s:.200} (wanted {self.error.__name__})"
        return f"{self.name}: returned a {type(result).__name__} (wanted {self.error.__name__})"


def module() -> Any:
    """The C extension; callers skip (tests) or fail (the memory checker) when it is missing."""
    assert native.NATIVE is not None, native.describe()
    return native.NATIVE


def valid_arguments() -> tuple[dict[str, Any], dict[str, Any]]:
    """Keyword arguments of a valid ``Lexicon`` (a few English words) and of ``Rules`` (ruleset 5)."""
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    dawg = Dawg.build([en.parse_word(w) for w in WORDS], en)
    lexicon: dict[str, Any] = {"child": array("I", dawg.child), "mask": array("I", dawg.mask)}
    lexicon |= {"ends": array("I", dawg.ends), "letters": len(en)}
    layout = rules.layout
    ruleset = {
        "points": bytes(en.points),
        "letter_multipliers": bytes(v for row in layout.letter_multipliers() for v in row),
        "word_multipliers": bytes(v for row in layout.word_multipliers() for v in row),
        "start": 7 * SIZE + 7,
        "rack_size": 7,
        "bingo": 40,
    }
    return lexicon, ruleset


def _changed(values: array[int], index: int, value: int) -> array[int]:
    copy = array("I", values)
    copy[index] = value
    return copy


def lexicon_cases() -> list[Case]:
    """Bad arrays, lengths, edges and letters for ``Lexicon``."""
    lexicon = module().Lexicon
    good, _ = valid_arguments()
    child, mask, ends = good["child"], good["mask"], good["ends"]
    nodes, edges = len(mask), len(child)

    def case(name: str, error: type[Exception], match: str, **changes: object) -> Case:
        arguments = good | changes
        return Case(f"Lexicon: {name}", lambda: lexicon(**arguments), error, match)

    last_with_edges = max(n for n in range(nodes) if mask[n])
    return [
        case("no letters", ValueError, "1 to 32 letters, got 0", letters=0),
        case("40 letters", ValueError, "1 to 32 letters, got 40", letters=40),
        case("negative letters", ValueError, "got -3", letters=-3),
        case("letters not an int", TypeError, "integer", letters="26"),
        case("child a list", TypeError, r"child must be an array\('I'\), not list", child=list(child)),
        case("mask None", TypeError, "mask must be an array", mask=None),
        case("ends bytes", TypeError, "ends must hold unsigned 32-bit ints", ends=ends.tobytes()),
        case("child of 16-bit ints", TypeError, "child must hold unsigned 32-bit", child=array("H", child)),
        case("mask of 64-bit ints", TypeError, "mask must hold unsigned 32-bit", mask=array("Q", mask)),
        case("ends of signed ints", TypeError, "ends must hold unsigned 32-bit", ends=array("i", ends)),
        case("child of floats", TypeError, "child must hold unsigned 32-bit", child=array("f", child)),
        case("child not contiguous", BufferError, "contiguous", child=memoryview(child)[::2]),
        case("ends shorter than mask", ValueError, f"ends has {nodes - 1} entries, expected {nodes}", ends=ends[:-1]),
        case("ends longer than mask", ValueError, f"ends has {nodes + 1} entries", ends=ends + array("I", [0])),
        case("no nodes", ValueError, "mask has no entries", mask=array("I"), ends=array("I")),
        case("edge to the node past the end", ValueError, "edge 3 points outside", child=_changed(child, 3, nodes)),
        case("edge to 2**32-1", ValueError, f"edge {edges - 1} points outside", child=_changed(child, -1, 2**32 - 1)),
        case("mask letter 26", ValueError, "node 0 has a letter outside", mask=_changed(mask, 0, mask[0] | 1 << 26)),
        case("mask letter 31", ValueError, "node 1 has a letter outside", mask=_changed(mask, 1, 1 << 31)),
        case("ends letter 27", ValueError, "node 2 has a letter outside", ends=_changed(ends, 2, 1 << 27)),
        case(
            "a node whose edges run past the end",
            ValueError,
            f"node {last_with_edges} has edges past the end",
            mask=_changed(mask, last_with_edges, (1 << 26) - 1),
        ),
        case(
            "edges but no child array",
            ValueError,
            "node 0 has edges past the end",
            child=array("I"),
        ),
        case("an edge back to the root (a cycle)", ValueError, "cycle", child=_changed(child, edges - 1, 0)),
        case("a word end without its edge", ValueError, "no edge for", ends=_changed(ends, 0, ends[0] | 1 << 25)),
    ]


def patch_cases() -> list[Case]:
    """Bad arguments for ``Lexicon.patch`` (the C copy of a lexicon changed in place)."""
    good, _ = valid_arguments()
    child, mask, ends = good["child"], good["mask"], good["ends"]
    made = module().Lexicon(**good)
    edges = len(child)

    def case(name: str, error: type[Exception], match: str, *arguments: object) -> Case:
        return Case(f"Lexicon.patch: {name}", lambda: made.patch(*arguments), error, match)

    grown = array("I", child) + array("I", [len(mask) + 5])
    return [
        case("first past the edges", ValueError, "does not fit", child, mask, ends, edges + 1, array("I")),
        case("negative first", ValueError, "does not fit", child, mask, ends, -1, array("I")),
        case("changed at first", ValueError, "not below first", child, mask, ends, 1, array("I", [1])),
        case("changed far past the end", ValueError, "not below first", child, mask, ends, 1, array("I", [2**32 - 1])),
        case(
            "an edge past the arrays",
            ValueError,
            "points outside",
            *(grown, mask + array("I", [0]), ends + array("I", [0]), edges, array("I")),
        ),
        case("ends shorter than mask", ValueError, "ends has", child, mask, ends[:-1], edges, array("I")),
        case("child a list", TypeError, "child must be an array", list(child), mask, ends, edges, array("I")),
        case("changed of signed ints", TypeError, "changed must hold", child, mask, ends, edges, array("i")),
        case("shrunk", ValueError, "does not fit", child[:-1], mask[:-1], ends[:-1], edges - 1, array("I")),
        case(
            "a letter outside",
            ValueError,
            "letter outside",
            *(child, mask, _changed(ends, 1, 1 << 30), 1, array("I", [0])),
        ),
    ]


def rules_cases() -> list[Case]:
    """Bad byte strings, multipliers, start squares, rack sizes and bonuses for ``Rules``."""
    rules = module().Rules
    _, good = valid_arguments()
    lm = good["letter_multipliers"]

    def case(name: str, error: type[Exception], match: str, **changes: object) -> Case:
        arguments = good | changes
        return Case(f"Rules: {name}", lambda: rules(**arguments), error, match)

    def square(value: int, at: int) -> bytes:
        return bytes(1 for _ in range(at)) + bytes([value]) + bytes(1 for _ in range(at + 1, SQUARES))

    return [
        case("no points", ValueError, "points must be bytes with one entry per letter", points=b""),
        case("33 letters of points", ValueError, "points must be bytes", points=bytes(33)),
        case("points a list", ValueError, "points must be bytes", points=[1] * 26),
        case(
            "224 letter multipliers",
            ValueError,
            "letter_multipliers has 224 entries, expected 225",
            letter_multipliers=lm[:-1],
        ),
        case("226 word multipliers", ValueError, "word_multipliers has 226 entries", word_multipliers=lm + b"\x01"),
        case(
            "multipliers a bytearray", TypeError, "letter_multipliers must be bytes", letter_multipliers=bytearray(lm)
        ),
        case("word multipliers a str", TypeError, "word_multipliers must be bytes", word_multipliers="1" * 225),
        case("letter multiplier 0", ValueError, "square 17 has multipliers 0/1", letter_multipliers=square(0, 17)),
        case("word multiplier 9", ValueError, r"square 200 has multipliers \d/9", word_multipliers=square(9, 200)),
        case("start -1", ValueError, "start square -1 is off the board", start=-1),
        case("start 225", ValueError, "start square 225 is off the board", start=225),
        case("start 2**40", OverflowError, "", start=2**40),
        case("rack size 0", ValueError, "rack size of 0", rack_size=0),
        case("rack size 99", ValueError, "rack size of 99", rack_size=99),
        case("negative bingo", ValueError, "bingo bonus of -1", bingo=-1),
        case(
            "scores beyond 32 bits",
            ValueError,
            "could score more than a 32-bit int",
            points=bytes([255] * 26),
            rack_size=15,
        ),
    ]


def empty_grid() -> list[list[int]]:
    """An empty board as the C side reads it."""
    return [[EMPTY] * SIZE for _ in range(SIZE)]


def _grid_with(row: int, col: int, value: object) -> list[list[Any]]:
    grid: list[list[Any]] = empty_grid()
    grid[7][7] = 0  # an A: the board is not empty
    grid[row][col] = value
    return grid


def generate_cases() -> list[Case]:
    """Bad boards, racks and argument types for ``generate`` and ``generate_flat``."""
    c = module()
    native.set_types()  # generate builds Placement objects: the types must be set first
    good_lexicon, good_rules = valid_arguments()
    lexicon, rules = c.Lexicon(**good_lexicon), c.Rules(**good_rules)
    spanish = Ruleset.for_id(6).alphabet
    other_rules = c.Rules(**(good_rules | {"points": bytes(spanish.points)}))
    counts = [1, 0, 1] + [0] * 16 + [1] + [0] * 6  # A, C, T

    class ClearsTheList:
        """A count whose __index__ empties the list of counts being read."""

        def __index__(self) -> int:
            shrinking.clear()
            return 1

    shrinking: list[Any] = [ClearsTheList(), *counts[1:]]
    bad: list[tuple[str, type[Exception], str, dict[str, Any]]] = [
        ("14 rows", ValueError, "board must be a list of 15 rows", {"grid": empty_grid()[:14]}),
        ("16 rows", ValueError, "board must be a list of 15 rows", {"grid": [*empty_grid(), [EMPTY] * 15]}),
        ("a row of 16", ValueError, "board row 3 must be a list of 15", {"grid": _row(3, [EMPTY] * 16)}),
        ("a row of 0", ValueError, "board row 14 must be a list of 15", {"grid": _row(14, [])}),
        ("a board tuple", ValueError, "board must be a list", {"grid": tuple(empty_grid())}),
        ("a board None", ValueError, "board must be a list", {"grid": None}),
        ("a row tuple", ValueError, "board row 0 must be a list", {"grid": _row(0, (EMPTY,) * 15)}),
        ("a float square", TypeError, r"board square \(2, 3\) is not an int", {"grid": _grid_with(2, 3, 1.0)}),
        ("a str square", TypeError, r"board square \(0, 0\) is not an int", {"grid": _grid_with(0, 0, "A")}),
        ("a None square", TypeError, r"board square \(14, 14\) is not an int", {"grid": _grid_with(14, 14, None)}),
        ("tile 200", ValueError, r"board square \(7, 8\) holds 200", {"grid": _grid_with(7, 8, 200)}),
        ("tile -5", ValueError, r"board square \(7, 8\) holds -5", {"grid": _grid_with(7, 8, -5)}),
        ("tile 26 (no letter)", ValueError, "holds 26, not a tile of this alphabet", {"grid": _grid_with(6, 7, 26)}),
        ("blank 26", ValueError, "holds 90, not a tile", {"grid": _grid_with(6, 7, BLANK | 26)}),
        ("tile 63", ValueError, "holds 63", {"grid": _grid_with(6, 7, 63)}),
        ("tile 2**70", OverflowError, "too large", {"grid": _grid_with(6, 7, 2**70)}),
        ("a rack of 20 tiles", ValueError, "a rack of 20 tiles; racks hold 7", {"counts": [4, 4, 4, 4, 4] + [0] * 21}),
        ("a rack of 8 tiles", ValueError, "a rack of 8 tiles", {"counts": counts, "blanks": 5}),
        ("counts for 25 letters", ValueError, "counts for 25 letters, the alphabet 26", {"counts": counts[:25]}),
        ("counts for 27 letters", ValueError, "counts for 27 letters", {"counts": [*counts, 0]}),
        ("no counts", ValueError, "counts for 0 letters", {"counts": []}),
        ("a negative count", ValueError, "holds -1 of letter 4", {"counts": _set(counts, 4, -1)}),
        ("a count of 16", ValueError, "holds 16 of letter 0", {"counts": _set(counts, 0, 16)}),
        ("a count of 2**70", OverflowError, "too large", {"counts": _set(counts, 0, 2**70)}),
        ("a float count", TypeError, "count of letter 5 is not an int", {"counts": _set(counts, 5, 1.0)}),
        ("a count that empties the list", TypeError, "count of letter 0 is not an int", {"counts": shrinking}),
        ("counts an int", TypeError, "counts must be a sequence", {"counts": 7}),
        ("50 blanks", ValueError, "a rack with 50 blanks", {"blanks": 50}),
        ("-1 blanks", ValueError, "a rack with -1 blanks", {"blanks": -1}),
        ("blanks 2**40", OverflowError, "", {"blanks": 2**40}),
        ("a Rules for the lexicon", TypeError, "Lexicon", {"lexicon": rules}),
        ("a Lexicon for the rules", TypeError, "Rules", {"rules": lexicon}),
        (
            "alphabets of different sizes",
            ValueError,
            f"lexicon has 26 letters, the ruleset {len(spanish)}",
            {"rules": other_rules},
        ),
    ]
    table = leavenative.leave_table(LearnedLeave.shipped(Ruleset.for_id(5)))

    def top_equity(*arguments: object) -> object:
        return c.top_equity(*arguments, table, 5, 1.0, 5, 0.0)

    top_equity.__name__ = "top_equity"
    cases = []
    for function in (c.generate, c.generate_flat, top_equity):
        for name, error, match, changes in bad:
            arguments = {"lexicon": lexicon, "rules": rules, "grid": empty_grid(), "counts": counts, "blanks": 0}
            arguments |= changes
            cases.append(Case(f"{function.__name__}: {name}", _bind(function, arguments), error, match))
    return cases


def top_equity_cases() -> list[Case]:
    """Bad leaves, k and tables for ``top_equity`` and ``LeaveTable`` (the board and rack are checked as
    for ``generate``, above)."""
    c = module()
    native.set_types()
    good_lexicon, good_rules = valid_arguments()
    lexicon, rules = c.Lexicon(**good_lexicon), c.Rules(**good_rules)
    counts = [1, 0, 1] + [0] * 16 + [1] + [0] * 6  # A, C, T: 8 kept multisets

    class EmptiesTheList:
        """A leave value whose __float__ empties the list of values being read, then is not a number."""

        def __float__(self) -> float:
            values.clear()
            raise ValueError("not a number after all")

    values: list[Any] = [0.0, EmptiesTheList(), *[0.0] * 6]
    weights = array("d", [0.0] * 459)  # 27 tiles x 3 copies, 351 pairs, 27 shapes

    def call(**changes: object) -> Callable[[], object]:
        arguments: dict[str, Any] = {"lexicon": lexicon, "rules": rules, "grid": empty_grid(), "counts": counts}
        arguments |= {"blanks": 0, "leave": [0.0] * 8, "k": 5, "weight": 1.0, "swaps": 5, "swap_cost": 0.0}
        arguments |= changes
        return lambda: c.top_equity(**arguments)

    table = c.LeaveTable(weights, 26, 0, 6)
    return [
        Case("top_equity: 3 leave values", call(leave=[0.0] * 3), ValueError, "3 kept-leave values for a rack with 8"),
        Case("top_equity: a leave of str", call(leave=["x"] * 8), TypeError, "must be real number"),
        Case("top_equity: a leave None", call(leave=None), TypeError, "LeaveTable or a sequence"),
        Case("top_equity: a value that empties the list", call(leave=values), ValueError, "not a number after all"),
        Case("top_equity: k -1", call(k=-1), ValueError, "k=-1"),
        Case("top_equity: swaps 10**9", call(swaps=10**9), ValueError, "swaps=1000000000"),
        Case("top_equity: k 2**40", call(k=2**40), OverflowError, ""),
        Case(
            "top_equity: a table of 3 letters",
            call(leave=c.LeaveTable(array("d", [0.0] * 27), 3, 0, 3)),
            ValueError,
            "leave table has 3 letters, the ruleset 26",
        ),
        Case("LeaveTable: 10 weights", lambda: c.LeaveTable(array("d", [0.0] * 10), 26, 0, 6), ValueError, "459"),
        Case("LeaveTable: ints", lambda: c.LeaveTable(array("i", [0] * 459), 26, 0, 6), ValueError, "array\\('d'\\)"),
        Case("LeaveTable: a list", lambda: c.LeaveTable([0.0] * 459, 26, 0, 6), TypeError, ""),
        Case("LeaveTable: 0 letters", lambda: c.LeaveTable(weights, 0, 0, 6), ValueError, "not supported"),
        Case("LeaveTable: vowel 27", lambda: c.LeaveTable(weights, 26, 1 << 27, 6), ValueError, "vowel outside"),
        Case("LeaveTable: size 99", lambda: c.LeaveTable(weights, 26, 0, 99), ValueError, "not supported"),
        Case("value: 3 counts", lambda: table.value([0, 0, 0], 0), ValueError, "counts for 26 letters"),
        Case("value: a float count", lambda: table.value([1.0] * 26, 0), TypeError, "letter 0 is not an int"),
        Case("value: -1 blanks", lambda: table.value([0] * 26, -1), ValueError, "blanks"),
        Case("value: a count of 99", lambda: table.value([99] + [0] * 25, 0), ValueError, "count of 99"),
    ]


def _row(index: int, row: Sequence[int]) -> list[Any]:
    grid: list[Any] = empty_grid()
    grid[index] = row
    return grid


def _set(values: list[int], index: int, value: object) -> list[Any]:
    copy: list[Any] = list(values)
    copy[index] = value
    return copy


def _bind(function: Callable[..., object], arguments: dict[str, Any]) -> Callable[[], object]:
    order = ("lexicon", "rules", "grid", "counts", "blanks")
    return lambda: function(*(arguments[name] for name in order))


def set_types_cases() -> list[Case]:
    """``set_types`` refuses what ``generate`` could not build moves from (and keeps what it had)."""
    c = module()
    squares = tuple((r, col, t) for r in range(SIZE) for col in range(SIZE) for t in range(2 * BLANK))
    return [
        Case("set_types: Placement a list", lambda: c.set_types(list, 0, 1, squares), TypeError, "tuple subclass"),
        Case("set_types: Placement an instance", lambda: c.set_types((), 0, 1, squares), TypeError, "tuple subclass"),
        Case("set_types: squares short", lambda: c.set_types(tuple, 0, 1, squares[:-1]), ValueError, "28800 entries"),
        Case("set_types: squares a list", lambda: c.set_types(tuple, 0, 1, list(squares)), ValueError, "square-tile"),
        Case("set_types: three arguments", lambda: c.set_types(tuple, 0, 1), TypeError, "4"),
    ]


def all_cases() -> list[Case]:
    """Every hostile-input case."""
    return lexicon_cases() + patch_cases() + rules_cases() + generate_cases() + top_equity_cases() + set_types_cases()


def before_set_types() -> str | None:
    """In a fresh interpreter: ``generate`` before ``set_types`` raises (``generate_flat`` needs no types)."""
    c = module()
    good_lexicon, good_rules = valid_arguments()
    lexicon, rules = c.Lexicon(**good_lexicon), c.Rules(**good_rules)
    counts = [1, 0, 1] + [0] * 16 + [1] + [0] * 6
    if not c.generate_flat(lexicon, rules, empty_grid(), counts, 0):
        return "generate_flat found no moves for CAT on the empty board"
    case = Case(
        "generate before set_types",
        lambda: c.generate(lexicon, rules, empty_grid(), counts, 0),
        RuntimeError,
        "set_types was not called",
    )
    return case.failure()


def _corrupt(rng: random.Random, arrays: list[array[int]]) -> None:
    """One random change to a lexicon's arrays (child, mask, ends): many stay structurally valid."""
    child, mask, ends = arrays
    kind = rng.randrange(8)
    if kind <= 1 and child:  # an edge to another node: valid while inside the arrays
        child[rng.randrange(len(child))] = rng.randrange(len(mask) + (3 if kind else 0))
    elif kind == 2:  # an edge added or taken away: shifts the edges of this node
        mask[rng.randrange(len(mask))] ^= 1 << rng.randrange(26)
    elif kind == 3:  # a word end added or taken away
        ends[rng.randrange(len(ends))] ^= 1 << rng.randrange(26)
    elif kind == 4:  # a node with random edges
        mask[rng.randrange(len(mask))] = rng.getrandbits(rng.choice((4, 26)))
    elif kind == 5:  # a letter beyond the alphabet, or a huge edge
        if rng.random() < 0.5:
            mask[rng.randrange(len(mask))] |= 1 << rng.randrange(26, 32)
        elif child:
            child[rng.randrange(len(child))] = rng.choice((2**31, 2**32 - 1))
    elif kind == 6:  # the root's edges point at random nodes
        for e in range(min(len(child), bin(mask[0]).count("1"))):
            child[e] = rng.randrange(len(mask))
    else:  # an array cut short
        which = rng.randrange(3)
        cut = rng.randrange(len(arrays[which]) + 1)
        del arrays[which][cut:]


def _random_position(rng: random.Random, letters: int) -> tuple[list[list[int]], list[int], int]:
    """A board of random tiles (words or not) and a rack of up to 7 tiles with 0 to 2 blanks."""
    grid = empty_grid()
    for _ in range(rng.choice((0, 3, 20, 60, 150))):
        tile = rng.randrange(letters) | (BLANK if rng.random() < 0.1 else 0)
        grid[rng.randrange(SIZE)][rng.randrange(SIZE)] = tile
    blanks = rng.choice((0, 0, 1, 2))
    counts = [0] * letters
    for _ in range(rng.randint(0, 7 - blanks)):
        counts[rng.randrange(letters)] += 1
    return grid, counts, blanks


def fuzz(seed: int, rounds: int) -> Counter[str]:
    """Corrupted copies of a real lexicon's arrays: refused with ValueError, or searched on random boards."""
    c = module()
    native.set_types()
    rng = random.Random(seed)
    ruleset = Ruleset.for_id(5)
    en = ruleset.alphabet
    dawg = Dawg.build([en.parse_word(w) for w in english_sample(rng, 300)], en)
    base = [array("I", dawg.child), array("I", dawg.mask), array("I", dawg.ends)]
    rules = native.rules(ruleset)
    seen: Counter[str] = Counter()
    for _ in range(rounds):
        arrays = [array("I", values) for values in base]
        for _ in range(rng.randint(1, 4)):
            _corrupt(rng, arrays)
        try:
            lexicon = c.Lexicon(*arrays, len(en))
        except ValueError:
            seen["refused"] += 1
            continue
        seen["accepted"] += 1
        for _ in range(3):
            grid, counts, blanks = _random_position(rng, len(en))
            flat = c.generate_flat(lexicon, rules, grid, counts, blanks)
            moves = c.generate(lexicon, rules, grid, counts, blanks)
            encoded = array("i")
            encoded.frombytes(flat)
            if len(encoded) != sum(3 + 3 * len(m.tiles) for m in moves):
                raise AssertionError("generate_flat and generate disagree on a corrupted lexicon")
            seen["searches"] += 1
            seen["moves"] += len(moves)
    return seen


def run_cases(cases: Sequence[Case]) -> list[str]:
    """Every case, its name printed before it runs (so that a crash names it: ``freshrun.run_module``); the
    failures."""
    failures = []
    for case in cases:
        print(f"case: {case.name}", flush=True)
        failure = case.failure()
        if failure:
            failures.append(failure)
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.native_cases", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("cases", "fuzz", "before-set-types"))
    parser.add_argument("--seed", type=int, default=0, help="fuzz: the random seed")
    parser.add_argument("--rounds", type=int, default=300, help="fuzz: corrupted lexicons to try")
    args = parser.parse_args(argv)
    if args.what == "before-set-types":
        failure = before_set_types()
        print(json.dumps({"failures": [failure] if failure else []}))
    elif args.what == "cases":
        cases = all_cases()
        print(json.dumps({"cases": len(cases), "failures": run_cases(cases)}))
    else:
        print(json.dumps(fuzz(args.seed, args.rounds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
