"""The C endgame's killer moves (``engine/csrc/endgame/killers.c``): a move going out that cut off a node is
replayed at the next node of the same depth before that node's moves are generated. A replayed move
must be a move of the board it is replayed on, with the generator's score (``check_lines=True``
compares every killer with a fresh generation at every node and raises AssertionError where they
differ); killers change which nodes are searched and how many generate their moves, never the value."""

from __future__ import annotations

import math

import pytest

from engine import native
from engine.board.board import Board
from engine.board.rack import Rack
from engine.endgame.native import solve_native
from tests.engine.endgame.test_endgame_linecache import short_racks
from tests.engine.endgame.test_native import real_endgames

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

#: Real endgames the search finishes within 100,000 nodes, with killers and without.
QUICK = ("g22", "g26", "g51", "g52")


def generations(board: Board, mine: Rack, theirs: Rack, *, killers: bool, max_nodes: int) -> tuple[int, bool, int]:
    """The value, whether the search finished, and how many nodes generated their moves."""
    rules, lexicon, _ = real_endgames()
    assert native.NATIVE is not None
    _, value, _, complete, _, generated = native.NATIVE.solve_endgame(
        native.lexicon(lexicon), native.rules(rules), board.grid, list(mine.counts), mine.blanks,
        list(theirs.counts), theirs.blanks, 0, rules.scoreless_turns_to_end, 64, max_nodes, None, 0.0, 16,
        killers=killers,
    )  # fmt: skip
    return value, complete, generated


def test_every_replayed_killer_is_a_move_of_the_board_with_the_generators_score() -> None:
    rules, lexicon, endgames = real_endgames()
    for e in endgames[::2]:
        solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=12_000, table_bits=16,
                     check_lines=True)  # fmt: skip
    finished = 0
    for _, board, mine, theirs in short_racks():
        finished += solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=100_000,
                                 check_lines=True).complete  # fmt: skip
    assert finished >= 12


def test_killers_spare_generations_and_keep_the_value() -> None:
    _, _, endgames = real_endgames()
    positions = [(e.board, e.mine, e.theirs) for e in endgames if e.name in QUICK]
    positions += [(board, mine, theirs) for _, board, mine, theirs in short_racks()]
    finished = 0
    ratios = []
    for board, mine, theirs in positions:
        value, complete, with_killers = generations(board, mine, theirs, killers=True, max_nodes=300_000)
        plain, plain_complete, without = generations(board, mine, theirs, killers=False, max_nodes=300_000)
        label = (mine.text(), theirs.text())
        assert complete == plain_complete, label
        if complete:
            assert value == plain, label
            finished += 1
        ratios.append(with_killers / without)
    assert finished >= len(QUICK) + 12
    # on the real 7-tile endgames most of the nodes that generated their moves no longer do
    assert all(ratio < 0.5 for ratio in ratios[: len(QUICK)]), ratios[: len(QUICK)]
