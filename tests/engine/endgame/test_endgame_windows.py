"""The endgame solvers' alpha-beta windows: a move is worth its points minus the reply, so the reply is
searched in the window shifted by those points. With the window not shifted both solvers returned
values that depended on their move order and table size (-2 or -4 for EII against EIIM below, where
the true value is -4). Checked against a plain alpha-beta search without a table or ordering tricks,
on real boards of self-play with short racks."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache

import pytest

from engine import native
from engine.board.board import Board
from engine.board.move import Move, Pass, Placement
from engine.board.rack import Rack
from engine.endgame import search as endgame
from engine.endgame.native import solve_native
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.ruleset import Ruleset
from offline.bench.endgames import Endgame, english, from_self_play
from tests.engine.endgame.test_native import real_endgames


def plain(board: Board, mover: Rack, other: Rack, scoreless: int, lexicon: Dawg, rules: Ruleset,
          alpha: int = -(10**9), beta: int = 10**9) -> int:  # fmt: skip
    """The mover's final spread by alpha-beta alone: the moves in reading order of their tiles, the pass
    last, no table, no depth limit."""
    best = -(10**9)
    moves: list[Move] = [*sorted(generate(board, mover, lexicon, rules), key=lambda m: m.tiles), Pass()]
    for move in moves:
        if isinstance(move, Placement):
            left = mover.leave([tile for _, _, tile in move.tiles])
            points = move.score or 0
            if not len(left):
                value = points + 2 * other.points()
            else:
                board.place(move.tiles)
                try:
                    value = points - plain(board, other, left, 0, lexicon, rules, points - beta, points - alpha)
                finally:
                    board.undo()
        elif scoreless + 1 >= rules.scoreless_turns_to_end:
            value = other.points() - mover.points()
        else:
            value = -plain(board, other, mover, scoreless + 1, lexicon, rules, -beta, -alpha)
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


@cache
def positions() -> tuple[tuple[Endgame, Rack, Rack], ...]:
    """Self-play endgames of seed 99 with three tiles against three or four."""
    rules, lexicon = english()
    made = []
    for number, e in enumerate(from_self_play(10, 99, rules, lexicon)):
        if number in (1, 9):
            mine = Rack.from_codes(rules.alphabet, e.mine.letters()[:3], min(e.mine.blanks, 1))
            theirs = Rack.from_codes(rules.alphabet, e.theirs.letters()[: 3 + number % 2])
            made.append((e, mine, theirs))
    return tuple(made)


def test_the_reference_finds_the_value_of_plain_alpha_beta() -> None:
    rules, lexicon = english()
    for e, mine, theirs in positions():
        expected = plain(e.board, mine, theirs, 0, lexicon, rules)
        result = endgame.solve(e.board, mine, theirs, lexicon, rules, seconds=math.inf)
        assert result.complete and result.value == expected, (e.name, mine.text(), theirs.text())
    first = positions()[0]
    assert (first[1].text(), first[2].text()) == ("EII", "EIIM")


@pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")
@pytest.mark.parametrize("table_bits", [4, 6, 20])
def test_the_native_solver_finds_it_whatever_its_table_size(table_bits: int) -> None:
    rules, lexicon = english()
    for e, mine, theirs in positions():
        expected = plain(e.board, mine, theirs, 0, lexicon, rules)
        result = solve_native(e.board, mine, theirs, lexicon, rules, seconds=math.inf, table_bits=table_bits)
        assert result.complete and result.value == expected, (e.name, mine.text(), theirs.text())


@pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")
def test_a_table_that_grows_searches_the_nodes_of_one_that_was_whole_from_the_start() -> None:
    """The C table starts at a sixteenth of its size and grows fourfold as it fills (engine/csrc/endgame/negamax.c's
    table_grown): with 2**14 entries at most it grows from 2**10 in these searches, with 2**20 it never
    does; neither fills (they end within 12,288 nodes), so an entry lost in a move would show as nodes
    searched again."""
    rules, lexicon, endgames = real_endgames()
    quick = [e for e in endgames if e.name in ("g22", "g26", "g51", "g52")]
    assert len(quick) == 4
    for e in quick:
        small, whole = (
            solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=12_000, table_bits=bits)
            for bits in (14, 20)
        )
        assert small.complete and small.nodes > 1_024, e.name  # (more than the small table's first size)
        assert small == replace(whole, seconds=small.seconds), e.name
