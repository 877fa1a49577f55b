"""The translation between API games and engine positions, checked against the sandbox's own encoding."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from bot.api.models import Game, field_problem
from bot.api.submission import Kind
from bot.errors import ProtocolError
from bot.play.convert import ConversionError, placement_from_api, rack_from_api, submission, to_position
from engine.board.board import Board
from engine.board.move import Direction, Placement, format_move, parse_move
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG
from sandbox.api import game_json
from sandbox.state import State
from tests.lexicons import english

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
    rack = rack_from_api(["A", "", "Q", ""], EN, 1)
    assert rack.text() == "AQ??"
    board = Board(EN.alphabet)
    move = parse_move("8G HOuSE", board)
    sent = submission(move, board, EN)
    payload: Any = sent.body()
    assert payload["move"][2] == [8, 7, "U", True] and payload["words"] == ["HOUSE"]
    assert (sent.kind, sent.notation, sent.points, sent.words) == (Kind.MOVE, "8G HOuSE", 0, ("HOUSE",))
    back = placement_from_api([tuple(t) for t in payload["move"]], EN.alphabet, 1)
    assert back.tiles == move.tiles


#: A detailed game object with just the fields the bot needs: user 1 to play the first move.
MINIMAL_GAME: dict[str, object] = {
    "id": 5,
    "ruleset": 5,
    "current_player": 0,
    "is_running": True,
    "move_count": 0,
    "updated": 1,
    "tiles": [],
    "bag_count": 86,
    "players": [{"id": 1, "position": 0, "score": 0, "rack": []}, {"id": 2, "position": 1, "score": 0}],
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiles": None}, "game 5: field 'tiles' is missing"),
        ({"bag_count": None}, "game 5: field 'bag_count' is missing"),
        ({"tiles": [[0, 0, "Å", False]]}, "game 5: field 'tiles': .*not a letter"),
        ({"tiles": [[0, 0, "A", False], [0, 0, "B", False]]}, "game 5: field 'tiles': .*already occupied"),
        ({"ruleset": 42}, "unknown ruleset"),
        ({"players": [{"id": 1, "position": 0, "score": 0, "rack": ["A"] * 8}, {"id": 2, "position": 1, "score": 0}]},
         "game 5: field 'rack': 8 tiles; ruleset 5 racks hold at most 7"),
        ({"players": [{"id": 1, "position": 0, "score": 0, "rack": ["A", "7"]}, {"id": 2, "position": 1, "score": 0}]},
         "game 5: field 'rack'.*'7' is not a letter"),
    ],
)
def test_games_the_engine_cannot_take_name_the_problem(change: dict[str, object], message: str) -> None:
    data = {**MINIMAL_GAME, **change}
    with pytest.raises(ConversionError, match=message):
        to_position(Game.model_validate(data), 1, lambda board_id: [])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"tiles": [[15, 0, "A", False]]}, "tiles.0.0"),
        ({"tiles": [[0, -1, "A", False]]}, "tiles.0.1"),
        ({"tiles": [[0, 0, "A", "yes"]]}, "tiles.0.3"),
        ({"id": 2**63}, "id"),
        ({"current_player": 2}, "current_player"),
        ({"move_count": True}, "move_count"),
        ({"updated": float("nan")}, "updated"),
        ({"players": [{"id": 1, "position": 0, "score": 0}]}, "players"),
        ({"players": [{"id": 1, "position": 0, "score": 0}, {"id": 2, "position": 0, "score": 0}]}, "players"),
        ({"players": [{"id": 1, "position": 5, "score": 0}, {"id": 2, "position": 1}]}, "players.0.position"),
        ({"players": [{"id": 1, "position": 0, "score": 2**63}, {"id": 2, "position": 1}]}, "players.0.score"),
    ],
)
def test_payloads_no_game_can_have_are_refused_naming_the_field(change: dict[str, object], field: str) -> None:
    data = {**MINIMAL_GAME, **change}
    with pytest.raises(ValidationError) as caught:
        Game.model_validate(data)
    assert field_problem(caught.value).startswith(f"field {field!r}: ")


def test_the_bot_must_be_exactly_one_of_the_players() -> None:
    game = Game.model_validate(MINIMAL_GAME)
    assert game.me(1).id == 1 and game.opponent(1).id == 2
    with pytest.raises(ProtocolError, match="game 5: field 'players': user 3 is not one of its players"):
        game.me(3)
    twice = game.model_copy(update={"players": [game.players[0], game.players[0].model_copy(update={"position": 1})]})
    with pytest.raises(ProtocolError, match="user 1 is both of its players"):
        twice.me(1)


def test_the_opponents_last_placement_is_handed_to_the_look_ahead() -> None:
    state = State(lambda r: english(), lambda: 1.0, seed=4)
    me = state.add_user("me", "me@x.org", "pw")
    house = state.add_user("house", "h@x.org", "pw")
    state.house.add(house.id)
    sgame = state.new_game(house, me, 5)  # the house moves first: its placement is the last action
    last = sgame.game.history[-1]
    assert last.player == 0 and isinstance(last.action, Placement)
    api = Game.model_validate(game_json(state, sgame, me, detail=True))
    position = to_position(api, me.id, lambda board_id: [])
    assert position.their_last is not None
    assert position.their_last.tiles == last.action.tiles and position.their_last.score == last.points
    # our own last move, or a swap, is not theirs to infer from
    data = game_json(state, sgame, me, detail=True)
    data["last_move"] = {**data["last_move"], "user_id": me.id}
    assert to_position(Game.model_validate(data), me.id, lambda board_id: []).their_last is None
    data["last_move"] = {"move_type": "swap", "user_id": house.id, "tile_count": 3}
    assert to_position(Game.model_validate(data), me.id, lambda board_id: []).their_last is None


@pytest.mark.parametrize(
    ("before", "tile", "written"),
    [
        ("K13 RE", (10, 14, "I", False), "K13 (RE)I"),  # the opponent's I under RE: not "15K I"
        ("C11 PEE", (2, 13, "L", False), "C11 (PEE)L"),  # not "14C L"
        ("8G RE", (8, 7, "D", False), "8G (RE)D"),
    ],
)
def test_an_opponents_one_tile_move_is_written_as_the_bots_own(
    before: str, tile: tuple[int, int, str, bool], written: str
) -> None:
    """As history, replay and the demo do: the last move's API tiles on the board before it."""
    board = Board(EN.alphabet)
    board.place(parse_move(before, board).tiles)
    theirs = placement_from_api([tile], EN.alphabet, 1)
    assert format_move(theirs, board) == written
    down = written[0].isalpha()
    assert placement_from_api([tile], EN.alphabet, 1, board).direction is (Direction.DOWN if down else Direction.ACROSS)
    ours = submission(parse_move(written, board), board, EN)  # the same move, sent by the bot
    assert ours.notation == written
