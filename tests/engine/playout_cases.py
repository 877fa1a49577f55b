"""Hostile input for the C playouts (``engine._native.playouts``), and a workload of real playouts.

Each case is one call that must raise a Python exception naming the problem, never crash or read out
of bounds. ``python -m tests.engine.playout_cases`` runs the cases (the tests run it in a subprocess,
so that a crash fails a test instead of killing pytest) and then real playouts from seeded games,
late ones included (the static endgame inside a playout); the memory checker
(``tests/engine/memcheck.py``) runs the same under valgrind.
"""

from __future__ import annotations

import argparse
import json
import random
from array import array
from collections.abc import Callable
from functools import cache
from typing import Any

from dictionaries import ENGLISH_DAWG, bundled_path
from engine import native
from engine.board.move import Move, Pass, Swap
from engine.board.rack import Rack
from engine.equity import native as leavenative
from engine.equity.leavetable import LearnedLeave
from engine.equity.strategy import Equity, Situation
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.lookahead.playout import Draw, NativePlayouts, encode_moves
from engine.lookahead.simulation import SimSettings, Simulator
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK
from tests.engine.native_cases import SIZE, Case, empty_grid, module, run_cases

EN = Ruleset.for_id(5)


@cache
def english() -> Dawg:
    """The bundled English lexicon, loaded once."""
    return Dawg.load(bundled_path(ENGLISH_DAWG), EN.alphabet)


def seen_by_mover(game: Game) -> Situation:
    """The game as the player to move sees it."""
    seat = game.current
    scores = (game.scores[seat], game.scores[1 - seat])
    return Situation(game.board, game.rack, EN, game.lexicon, tuple(game.unseen(seat)), len(game.bag), scores)


def positions(lexicon: Dawg, seeds: range, every: int) -> list[Situation]:
    """Every ``every``-th position of equity self-play games, one game per seed, while the bag has tiles
    (the last positions before it runs out included)."""
    found = []
    equity = Equity()
    for seed in seeds:
        game = Game(EN, lexicon, random.Random(seed))
        turn = 0
        while not game.is_over and game.bag:
            situation = seen_by_mover(game)
            if turn % every == seed % every or len(game.bag) <= 7:
                found.append(Situation(game.board.copy(), *_rest(situation)))
            game.play(equity.best(situation, 1)[0])
            turn += 1
    return found


def _rest(situation: Situation) -> tuple[Any, ...]:
    s = situation
    return (s.rack, s.rules, s.lexicon, s.unseen, s.bag_count, s.scores)


def playout_cases() -> list[Case]:
    """Bad candidates, draws and arguments for ``playouts``."""
    c = module()
    native.set_types()
    lexicon = english()
    model = Equity().leave_model(EN)
    assert isinstance(model, LearnedLeave)
    table = leavenative.leave_table(model)
    counts = [0] * 26
    for letter in "CATSXIE":
        counts[EN.alphabet.code(letter)] += 1
    a, t = EN.alphabet.code("A"), EN.alphabet.code("T")
    good = array("i", [0, 2, 4, 7, 7, a, 7, 8, t])  # 8H AT
    draws = array("i", [a] * 7 + list(range(20)))  # the opponent's rack, then 20 bag tiles

    def given(**changes: object) -> dict[str, Any]:
        arguments: dict[str, Any] = {"lexicon": native.lexicon(lexicon), "rules": native.rules(EN), "leave": table}
        arguments |= {"grid": empty_grid(), "counts": counts, "blanks": 0, "candidates": good, "ncandidates": 1}
        arguments |= {"draws": draws, "held": 7, "bag": 20, "swap_cost": 0.0, "swap_min_bag": 7, "endgame_width": 12}
        return arguments | changes

    def call(**changes: object) -> Callable[[], object]:
        arguments = given(**changes)
        return lambda: c.playouts(**arguments)

    occupied = empty_grid()
    occupied[7][7] = a
    small = c.LeaveTable(array("d", [0.0] * 27), 3, 0, 3)

    def moves(*values: int) -> array[int]:
        return array("i", values)

    # lexicons whose words the anchor bounds' multiset set (engine/csrc/lexicon/anagrams.c) cannot hold: it is not
    # built, and the playouts run as without it
    many_words = c.Lexicon(*fanned_out(words_from=7), 26)

    return [
        Case("playouts: the valid call runs", lambda: _expect_values(call()), ValueError, "^ran$"),
        Case("playouts: 25^9 long words", lambda: _expect_values(call(lexicon=many_words)), ValueError, "^ran$"),
        Case("playouts: a square off the board", call(candidates=moves(0, 1, 4, 7, 15, a)), ValueError, "off the"),
        Case("playouts: a negative row", call(candidates=moves(0, 1, 4, -1, 7, a)), ValueError, "off the board"),
        Case("playouts: a taken square", call(grid=occupied), ValueError, r"square \(7, 7\), off the board or taken"),
        Case("playouts: one square twice", call(candidates=moves(0, 2, 4, 7, 7, a, 7, 7, t)), ValueError, "taken"),
        Case("playouts: a tile not held", call(candidates=moves(0, 1, 4, 7, 7, 25)), ValueError, "does not hold"),
        Case("playouts: a blank not held", call(candidates=moves(0, 1, 0, 7, 7, 64 | a)), ValueError, "does not hold"),
        Case("playouts: tile 99", call(candidates=moves(0, 1, 4, 7, 7, 99)), ValueError, "not a tile of this"),
        Case("playouts: tile 30", call(candidates=moves(0, 1, 4, 7, 7, 30)), ValueError, "not a tile of this"),
        Case("playouts: a swap of -2", call(candidates=moves(1, 1, 0, -2)), ValueError, "swaps tile -2"),
        Case("playouts: a swap with points", call(candidates=moves(1, 1, 5, a)), ValueError, "not a move of this"),
        Case("playouts: kind 7", call(candidates=moves(7, 1, 4, 7, 7, a)), ValueError, "kind 7"),
        Case("playouts: 8 tiles", call(candidates=moves(0, 8, 4, *[7, 7, a] * 8)), ValueError, "8 tiles"),
        Case("playouts: a pass with tiles", call(candidates=moves(2, 1, 0, a)), ValueError, "not a move of this"),
        Case("playouts: a negative score", call(candidates=moves(0, 1, -5, 7, 7, a)), ValueError, "score -5"),
        Case("playouts: cut short", call(candidates=good[:-1]), ValueError, "cut short"),
        Case("playouts: no header", call(candidates=moves(0, 2)), ValueError, "cut short"),
        Case("playouts: trailing ints", call(candidates=array("i", [*good, 0])), ValueError, "1 ints after the 1"),
        Case("playouts: two candidates named, one given", call(ncandidates=2), ValueError, "candidate 1 is cut short"),
        Case("playouts: 0 candidates", call(ncandidates=0), ValueError, "0 candidates"),
        Case("playouts: candidates a list", call(candidates=list(good)), TypeError, ""),
        Case("playouts: candidates array('l')", call(candidates=array("q", good)), TypeError, r"array\('i'\)"),
        Case("playouts: draws array('d')", call(draws=array("d", [0.0] * 27)), TypeError, r"draws must be an array"),
        Case("playouts: a draw cut short", call(draws=draws[:-1]), ValueError, "not whole draws of 27"),
        Case("playouts: a drawn tile 26", call(draws=array("i", [*draws[:-1], 26])), ValueError, "tile 26"),
        Case("playouts: a drawn tile -5", call(draws=array("i", [-5, *draws[1:]])), ValueError, "tile -5"),
        Case("playouts: 8 blanks drawn", call(draws=array("i", [-1] * 8 + list(range(19)))), ValueError, "8 blanks"),
        # a rack of blanks alone: the search of its moves without them has no tile to search with
        Case(
            "playouts: the opponent holds 7 blanks",
            lambda: _expect_values(call(draws=array("i", [-1] * 7 + list(range(20))))),
            ValueError,
            "^ran$",
        ),
        Case("playouts: the opponent holds 8", call(held=8, bag=19), ValueError, "holds 8 tiles"),
        Case("playouts: held -1", call(held=-1, bag=28), ValueError, "holds -1"),
        Case("playouts: a bag of 5000", call(bag=5000), ValueError, "the bag 5000"),
        Case("playouts: nothing held, nothing in the bag", call(held=0, bag=0), ValueError, "not whole draws of 0"),
        Case("playouts: swap_cost NaN", call(swap_cost=float("nan")), ValueError, "not a number"),
        Case("playouts: endgame_width 0", call(endgame_width=0), ValueError, "endgame_width 0"),
        Case("playouts: 8 plies run", lambda: _expect_values(call(plies=8)), ValueError, "^ran$"),
        Case("playouts: 1 ply", call(plies=1), ValueError, "1 plies: a playout plays 2 to 8"),
        Case("playouts: 9 plies", call(plies=9), ValueError, "9 plies"),
        Case("playouts: plies a string", call(plies="4"), TypeError, ""),
        Case("playouts: to the end run", lambda: _expect_values(call(to_end=1)), ValueError, "^ran$"),
        Case("playouts: to_end 2", call(to_end=2), ValueError, "to_end is 2: 0 or 1"),
        Case("playouts: to_end a string", call(to_end="1"), TypeError, ""),
        Case("playouts: a table of 3 letters", call(leave=small), ValueError, "leave table has 3 letters"),
        Case("playouts: a leave list", call(leave=[0.0] * 8), TypeError, "LeaveTable"),
        Case("playouts: a rack of 8", call(counts=[8] + [0] * 25), ValueError, "a rack of 8 tiles"),
        Case("playouts: a board of 14 rows", call(grid=empty_grid()[:-1]), ValueError, f"list of {SIZE} rows"),
        Case("playouts: no arguments", c.playouts, TypeError, ""),
        *session_cases(given, draws, moves),
    ]


def session_cases(
    given: Callable[..., dict[str, Any]], draws: array[int], moves: Callable[..., array[int]]
) -> list[Case]:
    """Bad arguments for ``playout_session`` and its ``run``: ``given`` gives the good ``playouts`` call's
    arguments with some changed, and a session takes them all but ``draws``."""
    c = module()
    a, t = EN.alphabet.code("A"), EN.alphabet.code("T")
    two = moves(0, 2, 4, 7, 7, a, 7, 8, t, 0, 1, 2, 7, 7, a)  # 8H AT, 8H A

    def session(**changes: object) -> Any:
        arguments = given(**changes)
        del arguments["draws"]
        return c.playout_session(**arguments)

    def run(tiles: object = draws, playing: object = None, **changes: object) -> Callable[[], object]:
        return lambda: session(**changes).run(tiles, array("i", [0]) if playing is None else playing)

    def patched() -> object:
        child, mask, ends = fanned_out(words_from=2, letters=26)
        lexicon = c.Lexicon(child, mask, ends, 26)
        opened = session(lexicon=lexicon)
        lexicon.patch(child, mask, ends, len(child), array("I"))  # the same words, its DAWG made again
        return opened.run(draws, array("i", [0]))

    second = run(playing=array("i", [1]), candidates=two, ncandidates=2)
    return [
        Case("session: the valid run", lambda: _expect_values(run()), ValueError, "^ran$"),
        Case("session: two candidates, the second", lambda: _expect_values(second), ValueError, "^ran$"),
        Case("session: 1 ply", run(plies=1), ValueError, "1 plies"),
        Case("session: to_end -1", run(to_end=-1), ValueError, "to_end is -1: 0 or 1"),
        Case("session: 0 candidates", run(ncandidates=0), ValueError, "0 candidates"),
        Case("session: a taken square", run(candidates=moves(0, 1, 4, 7, 15, a)), ValueError, "off the board"),
        Case("session: held 8", run(held=8, bag=19), ValueError, "holds 8 tiles"),
        Case("session: swap_cost NaN", run(swap_cost=float("nan")), ValueError, "not a number"),
        Case("session: a board of 14 rows", run(grid=empty_grid()[:-1]), ValueError, f"list of {SIZE} rows"),
        Case("session: a draw cut short", run(draws[:-1]), ValueError, "not whole draws of 27"),
        Case("session: a drawn tile 26", run(array("i", [*draws[:-1], 26])), ValueError, "tile 26"),
        Case("session: 8 blanks drawn", run(array("i", [-1] * 8 + list(range(19)))), ValueError, "8 blanks"),
        Case("session: draws a list", run(list(draws)), TypeError, ""),
        Case("session: candidate 1 of 1", run(playing=array("i", [1])), ValueError, "candidate 1 is not one"),
        Case("session: candidate -1", run(playing=array("i", [-1])), ValueError, "candidate -1 is not one"),
        Case(
            "session: a candidate twice",
            run(playing=array("i", [1, 1]), candidates=two, ncandidates=2),
            ValueError,
            "named twice",
        ),
        Case("session: none playing", run(playing=array("i")), ValueError, "0 candidates playing"),
        Case("session: more playing than made", run(playing=array("i", [0, 0])), ValueError, "2 candidates playing"),
        Case("session: playing a list", run(playing=[0]), TypeError, ""),
        Case("session: playing array('q')", run(playing=array("q", [0])), TypeError, r"playing must be an array"),
        Case("session: no draws", lambda: _expect_none(run(array("i"))), ValueError, "^no values$"),
        Case("session: a patched lexicon", patched, ValueError, "patched after the session"),
        Case("session: no arguments", c.playout_session, TypeError, ""),
        Case("session: run without arguments", lambda: session().run(), TypeError, ""),
    ]


def _expect_none(call: Callable[[], object]) -> None:
    """A run of no draws: no values, then a ValueError('no values') the case expects."""
    result = call()
    if result != b"":
        raise AssertionError(f"{result!r} for no draws")
    raise ValueError("no values")


def fanned_out(words_from: int, letters: int = 25) -> tuple[array[int], array[int], array[int]]:
    """A DAWG's arrays (child, mask, ends) in which every string of 1 to 15 of the first ``letters``
    letters is a path and those of ``words_from`` letters or more are words (none when above 15): a
    lexicon of up to 25^15 paths."""
    fan = (1 << letters) - 1
    child = array("I", [letters * (level + 1) for level in range(SIZE) for _ in range(letters)])
    mask = array("I", [0] * (letters * SIZE + 1))
    ends = array("I", [0] * (letters * SIZE + 1))
    for level in range(SIZE):
        mask[letters * level] = fan
        ends[letters * level] = fan if level + 1 >= words_from else 0
    return child, mask, ends


def _expect_values(call: Callable[[], object]) -> None:
    """The valid call: one value per draw and candidate, then a ValueError('ran') the case expects."""
    result = call()
    values = array("d")
    values.frombytes(result)  # type: ignore[arg-type]
    if len(values) != 1:
        raise AssertionError(f"{len(values)} values for one draw and one candidate")
    raise ValueError("ran")


def workload(games: int = 3, draws: int = 6, *, reference: bool = True) -> tuple[int, list[str]]:
    """Kernel playouts next to the reference's over positions of seeded games, and the same in a session:
    (playouts, mismatches).
    ``reference=False`` plays the kernel's only (the memory checker's run: tests/engine/lookahead/test_playout.py
    compares the two, and under valgrind the reference's Python costs several times the kernel)."""
    lexicon = english()
    count = 0
    mismatches = []
    for index, situation in enumerate(positions(lexicon, range(games), every=5)):
        equity, kernel, simulator = kernel_and_reference(situation, situation.bag_count)
        # the static best twice too: two candidates that keep the same tiles share our reply
        candidates = [*equity.best(situation, 6), *odd_candidates(situation), *equity.best(situation, 1)]
        dealt = [simulator._deal(situation) for _ in range(draws)]
        plies = 2 + index % 3  # deeper playouts too: their later replies on boards of their own
        to_end = index % 2 == 1  # and playouts on to the game's end once the bag is empty
        rows = kernel.run(candidates, dealt, plies, to_end)
        count += sum(len(row) for row in rows)
        # the same draws one by one in a session, for every other candidate (a simulation's runs)
        session = kernel.session(candidates, len(dealt[0][0]), len(dealt[0][1]), plies, to_end)
        playing = list(range(len(candidates) - 1, -1, -2))
        if [session.run([draw], playing)[0] for draw in dealt] != [[row[i] for i in playing] for row in rows]:
            mismatches.append(f"bag {situation.bag_count} plies {plies}: a session's values are not the call's")
        if reference:
            mismatches += _mismatches(equity, simulator, situation, candidates, dealt, rows, plies, to_end)
        assert len(encode_moves(candidates)) >= 3 * len(candidates)
    return count, mismatches


def blank_workload(games: int = 2, deals: int = 1, *, reference: bool = True) -> tuple[int, list[str]]:
    """Kernel playouts of ``deals`` deals per position in which the opponent holds every blank not seen
    (one or both) and, in a second draw of each, our refill after the candidate starts with one, next to
    the reference's: (playouts, mismatches). A rack with blanks is searched in phases
    (engine/csrc/reply/reply.c's blanks_begin) with lists and shared lines of their own, and random draws
    rarely put both blanks on one rack."""
    lexicon = english()
    count = 0
    mismatches = []
    for index, situation in enumerate(positions(lexicon, range(games), every=5)):
        if BLANK not in situation.unseen or situation.bag_count < 2:
            continue
        equity, kernel, simulator = kernel_and_reference(situation, index)
        candidates = [*equity.best(situation, 3), *equity.best(situation, 1)]
        draws = []
        for _ in range(deals):
            theirs, bag, weight = simulator._deal(situation)
            held, rest = theirs.bag_tiles(), [*bag]
            for at in range(len(held)):  # each blank of the bag takes the place of one of the opponent's tiles
                if held[at] != BLANK and BLANK in rest:
                    rest[rest.index(BLANK)], held[at] = held[at], BLANK
            draws.append((Rack.from_bag_tiles(situation.rules.alphabet, held), rest, weight))
            if BLANK in bag:  # the dealt bag with a blank first: our refill takes it
                at = bag.index(BLANK)
                draws.append((theirs, [BLANK, *bag[:at], *bag[at + 1 :]], weight))
        rows = kernel.run(candidates, draws)
        count += sum(len(row) for row in rows)
        if reference:
            mismatches += _mismatches(equity, simulator, situation, candidates, draws, rows)
    return count, mismatches


def _mismatches(
    equity: Equity, simulator: Simulator, situation: Situation, candidates: list[Move], draws: list[Draw],
    rows: list[list[float]], plies: int = 2, to_end: bool = False,
) -> list[str]:  # fmt: skip
    """Where the kernel's ``rows`` (one per draw) differ from the reference's playouts of the same draws."""
    model = equity.leave_model(situation.rules)
    found = []
    for (theirs, bag, _), row in zip(draws, rows, strict=True):
        for move, value in zip(candidates, row, strict=True):
            expected = simulator._play_out(situation, move, theirs, list(bag), model, plies, to_end)
            if value != expected:
                where = f"bag {situation.bag_count} rack {theirs.text()} plies {plies} to_end {to_end} {move}"
                found.append(f"{where}: kernel {value}, reference {expected}")
    return found


def kernel_and_reference(situation: Situation, seed: int) -> tuple[Equity, NativePlayouts, Simulator]:
    """The static player, the C kernel for ``situation`` and the reference simulator (its draws seeded)."""
    equity = Equity()
    kernel = NativePlayouts.for_situation(situation, equity)
    assert kernel is not None
    return equity, kernel, Simulator(equity, SimSettings(), rng=random.Random(seed))


def odd_candidates(situation: Situation) -> list[Move]:
    """A pass, and a swap of the first two tiles when the bag allows swapping: moves a static player
    rarely names first, so that the kernel plays them out too."""
    extra: list[Move] = [Pass()]
    if situation.bag_count >= situation.rules.swap_min_bag and len(situation.rack) >= 2:
        extra.append(Swap(tuple(situation.rack.bag_tiles()[:2])))
    return extra


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.playout_cases", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("cases", "workload"))
    args = parser.parse_args(argv)
    if args.what == "cases":
        cases = playout_cases()
        print(json.dumps({"cases": len(cases), "failures": run_cases(cases)}))
    else:
        count, mismatches = workload()
        print(json.dumps({"playouts": count, "mismatches": mismatches}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
