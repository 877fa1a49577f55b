"""The C endgame's line cache (``engine/csrc/endgame/linecache.c``): a node takes the moves of the lines that did
not change since they were generated and generates only the others. It must give every node the very
moves of a fresh generation on the whole board (with cross-checks worked out afresh, so the cache of
cross-checks in ``crosscache.c`` is checked too), in the same order: checked at every node of real
7-tile endgames (under node budgets) and of short-rack endgames searched to the end, and the searches
with and without the cache (without it, depth-1 nodes go through the ordered loop instead of the scan
of ``leafscan.c``) visit the same nodes and find the same move and value."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from engine import native
from engine.board.board import Board
from engine.board.rack import Rack
from engine.endgame.native import solve_native
from engine.endgame.search import EndgameResult
from tests.engine.endgame.test_native import real_endgames, self_play_endgames

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")


def figures(result: EndgameResult) -> tuple[object, ...]:
    return result.move, result.value, result.depth, result.complete, result.nodes


def short_racks() -> Iterator[tuple[str, Board, Rack, Rack]]:
    """Self-play endgames (seed 99) with two to four tiles a side, a blank kept where there was one."""
    rules, _, _ = real_endgames()
    for number, e in enumerate(self_play_endgames(6)):
        for size in (2, 3, 4):
            mine = Rack.from_codes(rules.alphabet, e.mine.letters()[:size], min(e.mine.blanks, 1))
            theirs = Rack.from_codes(rules.alphabet, e.theirs.letters()[: size - number % 2], e.theirs.blanks)
            yield e.name, e.board, mine, theirs


def test_every_node_gets_the_moves_of_a_fresh_generation_on_real_endgames() -> None:
    rules, lexicon, endgames = real_endgames()
    nodes = 0
    for e in endgames:
        result = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=15_000,
                              table_bits=16, check_lines=True)  # fmt: skip
        nodes += result.nodes
    assert nodes >= 200_000  # those that finish take fewer than the budget


def test_every_node_gets_the_moves_of_a_fresh_generation_to_the_end_of_short_endgames() -> None:
    rules, lexicon, _ = real_endgames()
    finished = 0
    for name, board, mine, theirs in short_racks():
        result = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=100_000,
                              check_lines=True)  # fmt: skip
        finished += result.complete
        assert result.nodes > 1, (name, mine.text(), theirs.text())
    assert finished >= 12


def test_with_and_without_the_cache_the_search_visits_the_same_nodes() -> None:
    rules, lexicon, endgames = real_endgames()
    for e in endgames[::3]:
        cached = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=40_000)
        fresh = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=40_000,
                             line_cache=False)  # fmt: skip
        assert figures(cached) == figures(fresh), e.name
    for name, board, mine, theirs in short_racks():
        cached = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=100_000)
        fresh = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=100_000,
                             line_cache=False)  # fmt: skip
        assert figures(cached) == figures(fresh), (name, mine.text(), theirs.text())


@pytest.mark.parametrize("max_depth", [1, 2, 3])
def test_shallow_searches_find_the_same_move_with_the_same_nodes(max_depth: int) -> None:
    """A search one ply deep is the root valued by the scan of the line cache (``leafscan.c``), one
    two or three deep has the scan below it: the same move, value and nodes as the ordered loop over a
    fresh generation, on every real endgame and the short-rack ones."""
    rules, lexicon, endgames = real_endgames()
    positions = [(e.name, e.board, e.mine, e.theirs) for e in endgames] + list(short_racks())
    for name, board, mine, theirs in positions:
        cached = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_depth=max_depth,
                              max_nodes=40_000)  # fmt: skip
        fresh = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_depth=max_depth,
                             max_nodes=40_000, line_cache=False)  # fmt: skip
        assert figures(cached) == figures(fresh), (name, mine.text(), theirs.text())


def test_the_board_and_racks_are_left_as_they_were() -> None:
    """The cache's stamps and occupied squares are undone with every move: a second search of the same
    position, after one of another, gives the same result."""
    rules, lexicon, endgames = real_endgames()
    e, other = endgames[0], endgames[1]
    before = [row[:] for row in e.board.grid]
    first = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=20_000)
    solve_native(other.board, other.mine, other.theirs, lexicon, rules, seconds=math.inf, max_nodes=20_000)
    again = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=20_000)
    assert figures(first) == figures(again)
    assert e.board.grid == before
