"""The translation between API games and engine positions, checked against the sandbox's own encoding."""

from __future__ import annotations

from typing import Any

import pytest

from bot.convert import ConversionError, move_payload, placement_from_api, rack_from_api, to_position
from bot.models import Game
from engine.board import Board
from engine.move import parse_move
from engine.rules import Ruleset
from engine.tiles import BLANK_FLAG
from sandbox.api import game_json
from sandbox.state import State
from tests.sandbox.test_http import english

EN = Ruleset.for_id(5)


def test_sandbox_games_convert_to_the_engines_own_position() -> None:
    state = State(lambda r: english(), lambda: 1.0, seed=3)
    me = state.add_user("me", "me@x.org", "pw")
    other = state.add_user("other", "o@x.org", "pw")
    state.house.update({me.id, other.id})
    sgame = state.new_game(me, other, 5, "random")  # plays itself to the end: blanks, random layout
    state.house.clear()
    game = sgame.game
    assert any(tile & BLANK_FLAG for _, _, tile in game.board.tiles())  # the position has blanks to convert
    api = Game.model_validate(game_json(state, sgame, me, detail=True))
    position = to_position(api, me.id, lambda board_id: state.boards[board_id].to_api_grid())
    assert position.board == game.board  # same squares, letters and blank flags: x is the column
    assert position.rules.layout == game.rules.layout  # the [y][x] grid, not transposed
    assert position.rules.layout != position.rules.layout.transposed()
    assert position.rack == game.racks[0] and position.scores == tuple(game.scores)
    assert position.bag_count == len(game.bag) and position.move_count == len(game.history)


def test_blanks_in_rack_and_on_board() -> None:
    rack = rack_from_api(["A", "", "Q", ""], EN.alphabet, 1)
    assert rack.text() == "AQ??"
    board = Board(EN.alphabet)
    move = parse_move("8G HOuSE", board)
    payload: Any = move_payload(move, board, EN)
    assert payload["move"][2] == [8, 7, "U", True] and payload["words"] == ["HOUSE"]
    back = placement_from_api([tuple(t) for t in payload["move"]], EN.alphabet, 1)
    assert back.tiles == move.tiles


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiles": None}, "no 'tiles'"),
        ({"tiles": [[15, 0, "A", False]]}, "off the board"),
        ({"tiles": [[0, 0, "Å", False]]}, "not a letter"),
        ({"ruleset": 42}, "unknown ruleset"),
    ],
)
def test_games_the_engine_cannot_take_name_the_problem(change: dict[str, object], message: str) -> None:
    data = {
        "id": 5,
        "ruleset": 5,
        "current_player": 0,
        "is_running": True,
        "move_count": 0,
        "updated": 1,
        "tiles": [],
        "players": [{"id": 1, "position": 0, "score": 0, "rack": []}, {"id": 2, "position": 1, "score": 0}],
    }
    data.update(change)
    with pytest.raises(ConversionError, match=message):
        to_position(Game.model_validate(data), 1, lambda board_id: [])
