"""Hostile game payloads: real games from the sandbox, then broken on purpose, seeded.

``base_games`` plays short games in a sandbox state (English rulesets 0 and 5 and Dutch 2, standard
and random boards) and keeps the API's game object at several moves, as the bot would read it.
``MUTATIONS`` are named ways to break such an object (a field missing or of a hostile value, the bot
missing from ``players``, an oversized rack, a tile off the board, two tiles on a square...);
``hostile_case`` picks one to three of them with a ``random.Random``.

``violation`` is the independent referee: given the payload the bot was shown and what it
submitted, it says why the submission breaks the rules, or None. It reads the raw JSON itself
(not through ``bot.play.convert``), so a hole in the bot's checks cannot hide a bad move.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeGuard

from dictionaries.registry import LexiconRegistry
from engine.board.board import Board
from engine.board.move import Direction, Placement
from engine.board.rack import Rack
from engine.errors import EngineError
from engine.movegen.generate import generate
from engine.movegen.score import validate
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG
from sandbox.api import game_json
from sandbox.state import NORMAL, RANDOM, State

JSON = dict[str, Any]
#: The bot's user id in every hostile game, and the id every game is served under.
BOT_ID = 1_000_001
GAME_ID = 2_226_982_257
#: Values no field of a game object should ever hold (each must be refused or survived).
HOSTILE_VALUES: tuple[Any, ...] = (
    None,
    True,
    -1,
    2**63,
    -(2**63) - 1,
    2**64 + 5,
    10**40,
    1.5,
    float("nan"),
    float("inf"),
    "",
    "7",
    "x" * 300,
    [],
    {},
    [[[[[]]]]],
)


@dataclass(frozen=True)
class Case:
    """One hostile game: the payload to serve, the mutation names applied, its board grid if random."""

    name: str
    game: Any
    grid: list[list[int]] | None


@cache
def registry() -> LexiconRegistry:
    return LexiconRegistry()


@cache
def base_games() -> tuple[tuple[JSON, list[list[int]] | None], ...]:
    """Valid detailed game objects from the bot's seat (it is the bot's turn in each), and their grids."""
    games: list[tuple[JSON, list[list[int]] | None]] = []
    clock = iter(range(1_700_000_000, 1_800_000_000))
    state = State(registry().get, lambda: float(next(clock)), seed=3)
    me = state.add_user("bot", "bot@example.org", "pw")
    house = state.add_user("house", "house@example.org", "pw")
    state.house.add(house.id)
    assert me.id == BOT_ID
    for ruleset, board_type, stops in (
        (5, NORMAL, (0, 3, 9)),
        (0, RANDOM, (0, 5)),
        (2, NORMAL, (2, 8)),
        (5, RANDOM, (12,)),
    ):
        sgame = state.new_game(me, house, ruleset, board_type)
        game = sgame.game
        for turn in range(max(stops) + 1):
            if game.is_over:
                break
            if turn in stops:
                grid = state.boards[sgame.board_id].to_api_grid() if sgame.board_id else None
                games.append(({**game_json(state, sgame, me, detail=True), "id": GAME_ID}, grid))
            _play_greedy(game, state, sgame)
    return tuple(games)


def _play_greedy(game: Any, state: State, sgame: Any) -> None:
    moves = generate(game.board, game.rack, game.lexicon, game.rules)
    if moves:
        game.place(max(moves, key=lambda m: (m.score or 0, sorted(m.tiles))))
    else:
        game.pass_turn()
    state.play_house_turns(sgame)


# -- mutations --------------------------------------------------------------------------------

Mutation = Callable[[random.Random, JSON], None]
MUTATIONS: dict[str, Mutation] = {}


def mutation(name: str) -> Callable[[Mutation], Mutation]:
    def register(function: Mutation) -> Mutation:
        MUTATIONS[name] = function
        return function

    return register


def _me(game: JSON) -> JSON:
    return next(p for p in game["players"] if p.get("id") == BOT_ID)


def _other(game: JSON) -> JSON:
    return next(p for p in game["players"] if p.get("id") != BOT_ID)


_GAME_FIELDS = ("id", "ruleset", "board", "players", "current_player", "is_running", "move_count", "updated",
                "tiles", "bag_count", "pass_count", "last_move", "end_game", "created")
_PLAYER_FIELDS = ("id", "username", "position", "score", "rack", "is_local")


@mutation("game field missing")
def _drop_field(rng: random.Random, game: JSON) -> None:
    game.pop(rng.choice(_GAME_FIELDS), None)


@mutation("game field hostile")
def _hostile_field(rng: random.Random, game: JSON) -> None:
    game[rng.choice(_GAME_FIELDS)] = copy.deepcopy(rng.choice(HOSTILE_VALUES))


@mutation("player field missing")
def _drop_player_field(rng: random.Random, game: JSON) -> None:
    rng.choice(game["players"]).pop(rng.choice(_PLAYER_FIELDS), None)


@mutation("player field hostile")
def _hostile_player_field(rng: random.Random, game: JSON) -> None:
    rng.choice(game["players"])[rng.choice(_PLAYER_FIELDS)] = copy.deepcopy(rng.choice(HOSTILE_VALUES))


@mutation("bot not a player")
def _bot_missing(rng: random.Random, game: JSON) -> None:
    me = _me(game)
    me["id"] = 424242
    me["is_local"] = rng.choice([False, None])
    if rng.random() < 0.5:
        me.pop("is_local")


@mutation("single player")
def _single_player(rng: random.Random, game: JSON) -> None:
    game["players"] = [_me(game)] if rng.random() < 0.7 else [_other(game)]


@mutation("no players")
def _no_players(rng: random.Random, game: JSON) -> None:
    game["players"] = rng.choice([[], None, {}, "players"])


@mutation("three players")
def _three_players(rng: random.Random, game: JSON) -> None:
    extra = copy.deepcopy(_other(game))
    extra["id"] += 1
    extra["position"] = rng.choice([2, 1, 0])
    game["players"].append(extra)


@mutation("bot twice")
def _bot_twice(rng: random.Random, game: JSON) -> None:
    other = _other(game)
    other["id"] = BOT_ID
    other["is_local"] = rng.choice([True, False])


@mutation("position out of range")
def _position(rng: random.Random, game: JSON) -> None:
    rng.choice(game["players"])["position"] = rng.choice([2, 5, -1, 2**63, 7])


@mutation("positions equal")
def _positions_equal(rng: random.Random, game: JSON) -> None:
    _other(game)["position"] = _me(game)["position"]


@mutation("current player out of range")
def _current(rng: random.Random, game: JSON) -> None:
    game["current_player"] = rng.choice([2, -1, 5, 2**63])


@mutation("score out of range")
def _score(rng: random.Random, game: JSON) -> None:
    rng.choice(game["players"])["score"] = rng.choice([2**63, -(2**63) - 1, 10**30, 2**31])


@mutation("id out of range")
def _ids(rng: random.Random, game: JSON) -> None:
    value = rng.choice([2**63, 2**64, -1, 0, 10**30])
    target = rng.choice(["game", "player", "board"])
    if target == "game":
        game["id"] = value
    elif target == "player":
        _other(game)["id"] = value
    else:
        game["board"] = value


@mutation("rack oversized")
def _rack_big(rng: random.Random, game: JSON) -> None:
    me = _me(game)
    size = rng.choice([8, 9, 10, 15, 50])
    letters = [letter for letter in (me.get("rack") or ["A"]) if letter] or ["E"]
    me["rack"] = [rng.choice([*letters, ""]) for _ in range(size)]


@mutation("rack letter not in the alphabet")
def _rack_letter(rng: random.Random, game: JSON) -> None:
    me = _me(game)
    rack = list(me.get("rack") or ["A"])
    rack[rng.randrange(len(rack))] = rng.choice(["Ø", "AB", "1", "?", " ", "a", "\u0000", "ÆØÅ", "Ñ"])
    me["rack"] = rack


@mutation("rack of wrong types")
def _rack_types(rng: random.Random, game: JSON) -> None:
    _me(game)["rack"] = rng.choice([[1, 2], [None], "ABC", {"A": 1}, [["A"]], [True]])


@mutation("rack of blanks")
def _rack_blanks(rng: random.Random, game: JSON) -> None:
    _me(game)["rack"] = [""] * rng.choice([3, 7])


@mutation("tile off the board")
def _tile_off(rng: random.Random, game: JSON) -> None:
    tiles = game.setdefault("tiles", [])
    bad = rng.choice([15, -1, 2**63, 100])
    tile = [rng.randrange(15), rng.randrange(15), "A", False]
    tile[rng.randrange(2)] = bad
    tiles.append(tile)


@mutation("two tiles on a square")
def _tile_twice(rng: random.Random, game: JSON) -> None:
    tiles = game.setdefault("tiles", [])
    if tiles:
        x, y, _, _ = rng.choice(tiles)
    else:
        x, y = 7, 7
        tiles.append([x, y, "E", False])
    tiles.append([x, y, rng.choice(["A", "E"]), False])


@mutation("tile letter not in the alphabet")
def _tile_letter(rng: random.Random, game: JSON) -> None:
    tiles = game.setdefault("tiles", [])
    tiles.append([rng.randrange(15), rng.randrange(15), rng.choice(["Ø", "", "AB", "7", None]), False])


@mutation("tile of wrong shape")
def _tile_shape(rng: random.Random, game: JSON) -> None:
    tiles = game.setdefault("tiles", [])
    tiles.append(rng.choice([[7, 7], [7, 7, "A"], [7, 7, "A", False, 1], "7,7,A", None, [7.5, 7, "A", False],
                             ["7", 7, "A", False], [7, 7, "A", "yes"], {"x": 7}]))


@mutation("tiles of wrong type")
def _tiles_type(rng: random.Random, game: JSON) -> None:
    game["tiles"] = rng.choice([None, {}, "tiles", 7, [[[[]]]]])


@mutation("board full of tiles")
def _full_board(rng: random.Random, game: JSON) -> None:
    game["tiles"] = [[x, y, "E", False] for x in range(15) for y in range(15)]


@mutation("ruleset unknown")
def _ruleset(rng: random.Random, game: JSON) -> None:
    game["ruleset"] = rng.choice([13, -1, 99, 2**63, 11])


@mutation("bag count hostile")
def _bag(rng: random.Random, game: JSON) -> None:
    game["bag_count"] = rng.choice([-1, -7, 1000, 2**63, 10**9])


@mutation("move count hostile")
def _move_count(rng: random.Random, game: JSON) -> None:
    game["move_count"] = rng.choice([-1, 2**63, 10**9])


@mutation("updated hostile")
def _updated(rng: random.Random, game: JSON) -> None:
    game["updated"] = rng.choice([float("nan"), float("inf"), -1e308, 1e308, "yesterday", None])


@mutation("last move garbage")
def _last_move(rng: random.Random, game: JSON) -> None:
    game["last_move"] = rng.choice([
        {"move_type": "move", "move": [[99, 99, "Ø", 3]], "points": 2**63},
        {"move_type": None},
        [],
        "move",
        {"move_type": "move", "user_id": 2**64},
    ])


@mutation("not our turn but says it is")
def _not_running(rng: random.Random, game: JSON) -> None:
    game["is_running"] = False


# -- cases ------------------------------------------------------------------------------------


def hostile_case(rng: random.Random) -> Case:
    """One base game broken by one to three mutations (seeded by ``rng``)."""
    games = base_games()
    base, grid = games[rng.randrange(len(games))]
    game = copy.deepcopy(base)
    names = rng.sample(sorted(MUTATIONS), rng.choice([1, 1, 1, 2, 3]))
    for name in names:
        # an earlier mutation may have broken what this one needs: the game stays broken anyway
        with contextlib.suppress(StopIteration, KeyError, TypeError, AttributeError, IndexError, ValueError):
            MUTATIONS[name](rng, game)
    return Case(" + ".join(names), game, grid)


def valid_case(rng: random.Random) -> Case:
    """A base game unchanged (the bot must decide on it)."""
    games = base_games()
    base, grid = games[rng.randrange(len(games))]
    return Case("valid", copy.deepcopy(base), grid)


def dumps(game: Any) -> str:
    """The payload as the server sends it (NaN and Infinity as Python's json writes them)."""
    return json.dumps({"status": "success", "content": {"game": game}})


# -- the referee ------------------------------------------------------------------------------


def _int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def violation(game: Any, kind: str, body: JSON, game_id: int = GAME_ID) -> str | None:
    """Why submitting ``kind`` with ``body`` to ``game/<game_id>/`` whose answer was ``game`` (the raw
    payload) breaks the rules, or None."""
    if not isinstance(game, dict):
        return "acted on a game that is not an object"
    if game.get("id") != game_id:
        return f"acted on game/{game_id}/ although its answer was game {game.get('id')!r}"
    ruleset = game.get("ruleset")
    if not _int(ruleset) or not 0 <= ruleset <= 12:
        return f"acted in a game with ruleset {ruleset!r}"
    rules = Ruleset.for_id(ruleset)
    players = game.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, dict) for p in players):
        return "acted in a game without exactly two players"
    mine = [p for p in players if p.get("id") == BOT_ID]
    if len(mine) != 1:
        return f"acted in a game where the bot appears {len(mine)} times"
    me = mine[0]
    positions = sorted(p.get("position") for p in players if _int(p.get("position")))
    if positions != [0, 1]:
        return f"acted in a game with player positions {positions}"
    if game.get("is_running") is not True or game.get("current_player") != me["position"]:
        return "acted when it was not the bot's turn"
    rack_raw = me.get("rack")
    if not isinstance(rack_raw, list) or not all(isinstance(t, str) for t in rack_raw):
        return f"acted with a rack {rack_raw!r}"
    if len(rack_raw) > rules.rack_size:
        return f"acted with a rack of {len(rack_raw)} tiles"
    tiles_raw = game.get("tiles")
    if isinstance(tiles_raw, list):
        held = Counter("" if isinstance(t, list) and len(t) == 4 and t[3] is True else str(t[2])
                       for t in tiles_raw if isinstance(t, list) and len(t) == 4)
        held.update(rack_raw)
        for letter, count in held.items():
            if letter in rules.alphabet.symbols or letter == "":
                have = rules.alphabet.blanks if letter == "" else rules.alphabet.counts[rules.alphabet.code(letter)]
                if count > have:
                    return f"acted with {count} of {letter or 'blank'} on the board and rack (the bag has {have})"
    try:
        rack = Rack.from_codes(
            rules.alphabet, [rules.alphabet.code(t) for t in rack_raw if t], blanks=rack_raw.count("")
        )
        board = _board(game, rules)
    except (EngineError, ValueError, TypeError) as exc:
        return f"acted on a payload the rules cannot read: {exc}"
    if kind == "move":
        return _move_violation(board, rack, rules, body)
    if kind == "swap":
        in_bag = game.get("bag_count")
        if not _int(in_bag) or in_bag < rules.swap_min_bag:
            return f"swapped with bag_count {in_bag!r}"
        letters = body.get("tiles")
        if not isinstance(letters, list) or not 1 <= len(letters) <= len(rack_raw):
            return f"swapped {letters!r}"
        if Counter(letters) - Counter(rack_raw):
            return f"swapped tiles {letters!r} not all on the rack {rack_raw!r}"
    return None


def _board(game: JSON, rules: Ruleset) -> Board:
    tiles = game.get("tiles")
    if not isinstance(tiles, list):
        raise ValueError(f"tiles {tiles!r}")
    board = Board(rules.alphabet)
    squares = []
    for tile in tiles:
        if not (isinstance(tile, list) and len(tile) == 4 and _int(tile[0]) and _int(tile[1])
                and isinstance(tile[2], str) and isinstance(tile[3], bool)):
            raise ValueError(f"tile {tile!r}")
        code = rules.alphabet.code(tile[2])
        squares.append((tile[1], tile[0], code | BLANK_FLAG if tile[3] else code))
    board.place(squares)  # raises on squares off the board or used twice
    return board


def _move_violation(board: Board, rack: Rack, rules: Ruleset, body: JSON) -> str | None:
    tiles = body.get("move")
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= rules.rack_size:
        return f"a move of {tiles!r}"
    squares = []
    try:
        for x, y, letter, blank in tiles:
            code = rules.alphabet.code(letter)
            squares.append((y, x, code | BLANK_FLAG if blank else code))
    except (EngineError, ValueError, TypeError) as exc:
        return f"a move the rules cannot read: {exc}"
    squares.sort()
    direction = Direction.ACROSS if len({r for r, _, _ in squares}) == 1 else Direction.DOWN
    try:
        validate(board, Placement(tuple(squares), direction), rack, registry().get(rules.id), rules)
    except EngineError as exc:
        return f"an illegal move: {exc}"
    return None


class DeadlineError(Exception):
    """A case ran past its time bound (raised from a SIGALRM handler)."""


__all__ = [
    "BOT_ID",
    "GAME_ID",
    "MUTATIONS",
    "Case",
    "DeadlineError",
    "base_games",
    "dumps",
    "hostile_case",
    "valid_case",
    "violation",
]
