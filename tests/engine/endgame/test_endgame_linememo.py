"""The C endgame's line memo (``engine/csrc/endgame/linestore.c``): a line the line cache lacks takes the moves
kept for the same state (tiles, cross-checks, rack) before it is generated again. It must change
nothing but the time: every node's moves are compared with a fresh generation (``check_lines``) with the
memo at its default size and with one so small that its entries and its ring of moves are overwritten
all the time, and the searches with and without it visit the same nodes, generate at the same nodes and
find the same move and value."""

from __future__ import annotations

import math

import pytest

from engine import native
from engine.board.board import Board
from engine.board.rack import Rack
from engine.endgame.native import MEMO_BITS, solve_native
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from tests.engine.endgame.test_endgame_linecache import figures, short_racks
from tests.engine.endgame.test_native import real_endgames

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")


def raw(
    board: Board, mine: Rack, theirs: Rack, lexicon: Dawg, rules: Ruleset, max_nodes: int, **options: object
) -> tuple[object, ...]:
    """engine._native.solve_endgame's whole answer (its last value, the nodes that generated their moves,
    is not in EndgameResult)."""
    assert native.NATIVE is not None
    answer: tuple[object, ...] = native.NATIVE.solve_endgame(
        native.lexicon(lexicon), native.rules(rules), board.grid,
        list(mine.counts), mine.blanks, list(theirs.counts), theirs.blanks,
        0, rules.scoreless_turns_to_end, 64, max_nodes, None, 0.0, 18, **options,
    )  # fmt: skip
    return answer


def test_with_and_without_the_memo_the_search_is_the_same_on_every_real_endgame() -> None:
    rules, lexicon, endgames = real_endgames()
    for e in endgames:
        with_memo = raw(e.board, e.mine, e.theirs, lexicon, rules, 60_000)
        without = raw(e.board, e.mine, e.theirs, lexicon, rules, 60_000, line_memo=False)
        small = raw(e.board, e.mine, e.theirs, lexicon, rules, 60_000, memo_bits=4)
        assert with_memo == without == small, e.name


def test_with_and_without_the_memo_short_endgames_end_the_same() -> None:
    rules, lexicon, _ = real_endgames()
    for name, board, mine, theirs in short_racks():
        with_memo = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=100_000)
        without = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=100_000,
                               line_memo=False)  # fmt: skip
        assert figures(with_memo) == figures(without), (name, mine.text(), theirs.text())


@pytest.mark.parametrize("memo_bits", [4, 8, MEMO_BITS])
def test_every_node_gets_the_moves_of_a_fresh_generation_through_the_memo(memo_bits: int) -> None:
    """With 16 states and 32 moves (4 bits) nearly every state is overwritten before it comes back and
    the ring wraps around every few generations: the moves taken from it are still compared with a fresh
    generation at every node."""
    rules, lexicon, endgames = real_endgames()
    nodes = 0
    for e in endgames[::4]:
        result = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=8_000,
                              table_bits=16, check_lines=True, memo_bits=memo_bits)  # fmt: skip
        nodes += result.nodes
    assert nodes >= 30_000
    for name, board, mine, theirs in list(short_racks())[::3]:
        result = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=20_000,
                              check_lines=True, memo_bits=memo_bits)  # fmt: skip
        assert result.nodes > 1, name


@pytest.mark.parametrize("memo_bits", [-1, 0, 3, 23, 1 << 40])
def test_a_memo_size_out_of_range_raises(memo_bits: int) -> None:
    rules, lexicon, endgames = real_endgames()
    e = endgames[0]
    with pytest.raises((ValueError, OverflowError)):
        solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=100, memo_bits=memo_bits)
