"""The C endgame's search pinned on real endgames: the move, value, depth, completeness, nodes and nodes that
generated their moves under a node budget (or to the end). A change made for speed only (the line cache's
look-ups, the memo, the order's keys, the bound's loop, where the tables live) must leave every figure as it
is; a change of the search itself changes them and must say so here, with the new figures."""

from __future__ import annotations

import pytest

from engine import native
from tests.engine.endgame.test_native import real_endgames

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

#: name: (budget, the answer of engine._native.solve_endgame), as the search of main at 6cbe573 found them.
PINNED = {
    "g4": (30_000, ((((8, 4, 13), (8, 5, 4), (8, 6, 19)), 0, 21), 23, 2, False, 30016, 27368)),
    "g32": (30_000, ((((9, 7, 25), (11, 7, 13)), 1, 24), 27, 2, False, 30016, 20001)),
    "g64": (30_000, ((((0, 3, 16), (1, 3, 0), (2, 3, 19)), 1, 19), 35, 2, False, 30016, 23751)),
    "g26": (30_000, ((((11, 11, 1), (12, 11, 8), (14, 11, 4)), 1, 35), 38, 64, True, 2290, 686)),
    "g51": (30_000, ((((1, 1, 11), (2, 1, 0), (3, 1, 8), (5, 1, 24)), 1, 17), 29, 64, True, 4077, 676)),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_search_visits_the_pinned_nodes(name: str) -> None:
    assert native.NATIVE is not None
    rules, lexicon, endgames = real_endgames()
    e = next(e for e in endgames if e.name == name)
    budget, pinned = PINNED[name]
    answer = native.NATIVE.solve_endgame(
        native.lexicon(lexicon), native.rules(rules), e.board.grid,
        list(e.mine.counts), e.mine.blanks, list(e.theirs.counts), e.theirs.blanks,
        e.scoreless, rules.scoreless_turns_to_end, 64, budget, None, 0.0, 18,
    )  # fmt: skip
    assert answer == pinned
