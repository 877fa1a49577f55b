"""The C endgame's bound from the other's replies going out (``engine/csrc/endgame/outreplies.c``): a move that
leaves the other a reply going out (a killer of the child's depth, still a move with the same score
because the move puts no tile in its zone) is not searched when that reply keeps it at most alpha. It
spares nodes, never changes a value: with the bound and without it (``out_bound=False``) every
endgame here gets the same value, and the reference's on the short ones. The positions are short
racks on the boards of the real endgames, among them ones where a move puts a tile just beyond the end
of a run of the reply's words (a zone without those squares gives other values on them). The moves the
bound keeps at most alpha are taken out before the node's moves are sorted, and tried in the loop
again when alpha has risen."""

from __future__ import annotations

import math
import random

import pytest

from engine import native
from engine.board.rack import Rack
from engine.endgame import search as endgame
from engine.endgame.native import solve_native
from tests.engine.endgame.test_native import real_endgames

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

#: (endgame, my rack, their rack): broken variants of the bound give other values than the search without
#: it on these: first a zone that leaves out the squares beyond the runs' ends.
EDGES = (
    ("g5", "AOO", "CD"),
    ("g15", "AAEO", "SW"),
    ("g9", "DGOU", "ADLU"),
    ("g64", "EEKO", "AOO"),
    ("g5", "AAI", "AAC"),
    ("g4", "ILTX", "BPS"),
    ("g30", "EIIP", "ENPT"),
    ("g26", "BEIM", "IOPR"),
    ("g9", "ADGT", "AAGU"),
    ("g4", "EF", "II"),
    ("g30", "EFV", "EIT"),
    ("g64", "EQRV", "EEER"),
    ("g40", "CDX", "LSV"),
    ("g30", "IZ", "EITZ"),
    ("g71", "JL", "EIJS"),
    ("g9", "OOTU", "DOOU"),
    # a bound compared with beta instead of alpha (where the moves are taken out before the sort) gives
    # other values on these
    ("g62", "FLRX", "FGR"),
    ("g57", "NOOU", "NOQR"),
    ("g71", "JJS", "ENUU"),
    ("g32", "ASSZ", "DIIJ"),
    ("g30", "EMS", "IIR"),
    ("g9", "AOO", "BOU"),
    ("g9", "AKMT", "DGPT"),
    ("g33", "LNQ", "AIN"),
)


def positions() -> list[tuple[str, str, str]]:
    """EDGES, then short racks drawn (seeded) from the tiles of each real endgame's racks."""
    _, _, endgames = real_endgames()
    rng = random.Random(35)
    drawn = []
    for _ in range(120):
        e = rng.choice(endgames)
        pool = e.mine.text().replace("?", "") + e.theirs.text().replace("?", "")
        mine, theirs = ("".join(rng.sample(pool, rng.randint(1, 4))) for _ in range(2))
        drawn.append((e.name, mine, theirs))
    return [*EDGES, *drawn]


def test_the_bound_keeps_every_value() -> None:
    rules, lexicon, endgames = real_endgames()
    boards = {e.name: e.board for e in endgames}
    compared = pruned = 0
    for name, mine_text, theirs_text in positions():
        mine, theirs = Rack.from_text(mine_text, rules.alphabet), Rack.from_text(theirs_text, rules.alphabet)
        board = boards[name]
        label = (name, mine_text, theirs_text)
        with_bound = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=300_000)
        without = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=300_000,
                               out_bound=False)  # fmt: skip
        assert with_bound.complete and without.complete, label
        assert with_bound.value == without.value, label
        compared += 1
        pruned += with_bound.nodes < without.nodes
    assert compared == len(EDGES) + 120
    assert pruned >= 40  # the bound spares nodes on many of them


@pytest.mark.parametrize("name, mine_text, theirs_text", EDGES[:6])
def test_the_bound_keeps_the_references_value(name: str, mine_text: str, theirs_text: str) -> None:
    rules, lexicon, endgames = real_endgames()
    board = next(e.board for e in endgames if e.name == name)
    mine, theirs = Rack.from_text(mine_text, rules.alphabet), Rack.from_text(theirs_text, rules.alphabet)
    reference = endgame.solve(board, mine, theirs, lexicon, rules, seconds=math.inf)
    result = solve_native(board, mine, theirs, lexicon, rules, seconds=math.inf, check_lines=True)
    assert reference.complete and result.complete
    assert result.value == reference.value


def test_the_bound_spares_most_nodes_of_real_endgames() -> None:
    rules, lexicon, endgames = real_endgames()
    for e in endgames:
        if e.name not in ("g26", "g51", "g52"):
            continue
        with_bound = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=200_000)
        without = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=200_000,
                               out_bound=False)  # fmt: skip
        assert with_bound.complete and without.complete, e.name
        assert with_bound.value == without.value, e.name
        assert with_bound.nodes < without.nodes / 2, (e.name, with_bound.nodes, without.nodes)
