"""The real-data checks of the API notes §10.3, rebuilt as game states and scored through the sandbox."""

from __future__ import annotations

import pytest

from engine.board.rack import Rack
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from sandbox.server import SandboxServer
from sandbox.state import State
from tests.sandbox.helpers import FakeClock, login, post

EN = Ruleset.for_id(5)
WORDS = ["HE", "HELLO", "BEY", "OB", "FE", "Y"]


@pytest.mark.parametrize(
    ("board", "rack", "move", "main_word", "points"),
    [
        # onegame.json: L, L, O at (12,4), (13,4), (14,4) complete HELLO; (14,4) is TW, the DW at
        # (10,4) under the H was covered before: (4+1+1+1+1) x 3 = 24
        (
            [(10, 4, "H"), (11, 4, "E")],
            "LLOABCD",
            [[12, 4, "L", False], [13, 4, "L", False], [14, 4, "O", False]],
            "HELLO",
            24,
        ),
        # wordza detail: B (8,10) on DL and E (9,10) make BEY with the Y at (10,10) (its DW no longer
        # counts): 8+1+4 = 13, cross words OB 1+8 = 9 and FE 4+1 = 5: 27
        ([(10, 10, "Y"), (8, 9, "O"), (9, 9, "F")], "BEAAAAA", [[8, 10, "B", False], [9, 10, "E", False]], "BEY", 27),
    ],
)
def test_captured_scores(
    board: list[tuple[int, int, str]], rack: str, move: list[list[object]], main_word: str, points: int
) -> None:
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in WORDS if len(w) > 1], EN.alphabet)
    state = State(lambda _: lexicon, FakeClock())
    me = state.add_user("me", "me@example.org", "pw")
    other = state.add_user("other", "other@example.org", "pw2")
    sgame = state.new_game(me, other, 5)
    game = sgame.game
    game.board.place([(y, x, EN.alphabet.code(letter)) for x, y, letter in board])
    game.bag.extend(game.racks[0].letters() + [-1] * game.racks[0].blanks)
    game.racks[0] = Rack.from_text(rack, EN.alphabet)
    with SandboxServer(state) as server:
        session = login(server, "me@example.org", "pw")
        answer = post(session, server, f"game/{sgame.id}/move/", {"move": move, "ruleset": 5, "words": [main_word]})
    assert answer["status"] == "success", answer
    assert answer["content"]["main_word"] == main_word
    assert answer["content"]["points"] == points
