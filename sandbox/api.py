"""The sandbox's HTTP API: one function from (method, path, body, session) to an API answer.

Every API-level outcome is HTTP 200 with the ``{"status", "content"}`` envelope; errors carry
``{"type": ...}`` with the codes of the API notes (§2.2) and invented ones in the same shape for
what the notes leave open (``unknown_game``, ``not_enough_tiles``, ``bad_request``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.board.move import Direction, Placement, Swap
from engine.errors import EngineError, GameOverError, IllegalMoveError, InvalidMoveError
from engine.game import RESIGNED, Game, Resign, Turn
from engine.rules.layout import BoardLayout
from engine.rules.tiles import BLANK, BLANK_FLAG, LETTER_MASK
from sandbox.state import RANDOM, Invite, RandomRequest, SandboxGame, State, User

JSON = dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """What the server sends: the envelope, and a new session id to set as a cookie (logins)."""

    status: str
    content: JSON
    session: str | None = None

    def body(self) -> bytes:
        return json.dumps({"status": self.status, "content": self.content}).encode("utf-8")


class ApiError(Exception):
    """An API-level error: becomes ``{"status": "error", "content": {"type": ...}}``."""

    def __init__(self, type_: str, message: str = "") -> None:
        super().__init__(type_)
        self.type = type_
        self.message = message


def ok(content: JSON, session: str | None = None) -> Answer:
    return Answer("success", content, session)


def error(type_: str, message: str = "") -> Answer:
    content: JSON = {"type": type_}
    if message:
        content["message"] = message
    return Answer("error", content)


Handler = Callable[[State, User, JSON, tuple[str, ...]], Answer]
_ROUTES: list[tuple[re.Pattern[str], bool, Handler]] = []  # (path pattern, write?, handler)


def route(pattern: str, *, write: bool = False) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _ROUTES.append((re.compile(f"^{pattern}/?$"), write, handler))
        return handler

    return register


def handle(state: State, method: str, path: str, body: bytes, session: str | None) -> Answer:
    """Answer one request; never raises for bad input."""
    path = path.split("?", 1)[0]
    if not path.startswith("/wf/"):
        return error("unknown_endpoint", path)
    endpoint = path[len("/wf/") :].rstrip("/")
    try:
        data = _parse_body(body)
        if endpoint in _LOGINS:
            return _LOGINS[endpoint](state, data)
        for pattern, write, handler in _ROUTES:
            match = pattern.match(endpoint)
            if match is None:
                continue
            if write and method != "POST":
                return error("method_not_allowed", f"{endpoint} needs POST")
            user = state.session_user(session)
            if user is None:
                return error("login_required")
            for number in match.groups():
                if number.isdigit() and int(number) > MAX_ID:
                    return error("bad_request", f"id {number} is out of range (0 to {MAX_ID})")
            play = _PLAY.match(endpoint) if write else None
            if play is None:
                return handler(state, user, data, match.groups())
            return _counted(state, user, data, play, handler, match.groups())
        return error("unknown_endpoint", endpoint)
    except ApiError as exc:
        return error(exc.type, exc.message)


#: The largest id the sandbox takes in a path, as the bot does (``bot.api.models``: SQLite stores an int
#: up to 2**63 - 1); a 19-digit id above it is refused at the seam, before it reaches the state.
MAX_ID = 2**63 - 1
_PLAY = re.compile(r"^game/(\d{1,19})/(move|swap|pass|resign)$")


def _counted(
    state: State, user: User, data: JSON, play: re.Match[str], handler: Handler, groups: tuple[str, ...]
) -> Answer:
    """Answer a game action and log it as a submission (with the turn it arrived at)."""
    sgame = state.games.get(int(play.group(1)))
    turn = len(sgame.game.history) if sgame is not None else -1
    try:
        result = handler(state, user, data, groups)
    except ApiError as exc:
        state.log_submission(int(play.group(1)), user.id, turn, play.group(2), data, exc.type)
        raise
    state.log_submission(int(play.group(1)), user.id, turn, play.group(2), data, result.status)
    return result


#: Deepest nesting of arrays and objects a body may have (the API's deepest is 3: a move's tiles).
MAX_DEPTH = 20
# A bracket, or a whole string (to the end of the body if unterminated: every string matches, so
# the scan stays linear however hostile the body).
_TOKENS = re.compile(rb'[\[{\]}]|"(?:[^"\\]|\\.)*(?:"|\\?\Z)', re.DOTALL)


def _deeper_than(body: bytes, limit: int) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` in a JSON text, found without parsing it:
    ``json.loads`` recurses, and a body of 100,000 ``[`` exhausts the stack (RecursionError)."""
    depth = 0
    for token in _TOKENS.finditer(body):
        first = token.group()[:1]
        if first in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif first in (b"]", b"}"):
            depth -= 1
    return False


def _parse_body(body: bytes) -> JSON:
    if not body.strip():
        return {}
    if _deeper_than(body, MAX_DEPTH):
        raise ApiError("bad_request", f"the body nests arrays and objects more than {MAX_DEPTH} deep")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ApiError("bad_request", f"the body is not JSON: {exc}") from None
    if isinstance(data, list) and not data:
        return {}
    if not isinstance(data, dict):
        raise ApiError("bad_request", "the body must be a JSON object")
    return data


def require(data: JSON, name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ApiError("bad_request", f"field {name!r} must be a {kind.__name__}")
    return value


# -- login ------------------------------------------------------------------------------------


def _login(state: State, user: User | None, password: str, unknown: str) -> Answer:
    if user is None:
        return error(unknown)
    if user.password_hash != password.lower():
        return error("wrong_password")
    sid = state.open_session(user)
    return ok({"id": user.id, "username": user.username, "email": user.email, "cookies": False}, session=sid)


def _login_username(state: State, data: JSON) -> Answer:
    name = require(data, "username", str).lower()
    user = next((u for u in state.users.values() if u.username.lower() == name), None)
    return _login(state, user, require(data, "password", str), "unknown_username")


def _login_email(state: State, data: JSON) -> Answer:
    email = require(data, "email", str).lower()
    user = next((u for u in state.users.values() if u.email.lower() == email), None)
    return _login(state, user, require(data, "password", str), "unknown_email")


def _login_id(state: State, data: JSON) -> Answer:
    return _login(state, state.users.get(require(data, "id", int)), require(data, "password", str), "unknown_user_id")


_LOGINS: dict[str, Callable[[State, JSON], Answer]] = {
    "user/login": _login_username,
    "user/login/email": _login_email,
    "user/login/id": _login_id,
}


# -- reading ----------------------------------------------------------------------------------


def my_game(state: State, user: User, game_id: str) -> SandboxGame:
    game = state.games.get(int(game_id))
    if game is None:
        raise ApiError("unknown_game", f"no game {game_id}")
    if user.id not in game.players:
        raise ApiError("access_denied", f"game {game_id} is not yours")
    return game


def _tile_text(game: Game, code: int) -> str:
    return "" if code == BLANK else game.rules.alphabet.symbol(code)


def _api_tiles(game: Game, tiles: tuple[tuple[int, int, int], ...]) -> list[list[Any]]:
    symbol = game.rules.alphabet.symbol
    return [[c, r, symbol(t & LETTER_MASK), bool(t & BLANK_FLAG)] for r, c, t in tiles]


def _last_move(sgame: SandboxGame, turn: Turn) -> JSON:
    action = turn.action
    user_id = sgame.players[turn.player]
    if isinstance(action, Placement):
        return {
            "move_type": "move",
            "user_id": user_id,
            "move": _api_tiles(sgame.game, action.tiles),
            "main_word": turn.words[0] if turn.words else "",
            "points": turn.points,
        }
    if isinstance(action, Swap):
        return {"move_type": "swap", "user_id": user_id, "tile_count": len(action.tiles)}
    kind = "resign" if isinstance(action, Resign) else "pass"
    return {"move_type": kind, "user_id": user_id}


def game_json(state: State, sgame: SandboxGame, me: User, *, detail: bool) -> JSON:
    """A game object as the API shows it to ``me`` (list form without tiles, bag and pass counts)."""
    game = sgame.game
    players = []
    for position, user_id in enumerate(sgame.players):
        user = state.users[user_id]
        entry: JSON = {
            "id": user.id,
            "username": user.username,
            "position": position,
            "score": game.scores[position],
            "is_local": user.id == me.id,
        }
        if user.id == me.id:
            rack = game.racks[position]
            entry["rack"] = [_tile_text(game, t) for t in rack.letters()] + [""] * rack.blanks
        players.append(entry)
    end_game = 0 if not game.is_over else (2 if game.end_reason == RESIGNED else 1)
    data: JSON = {
        "id": sgame.id,
        "ruleset": game.rules.id,
        "board": sgame.board_id,
        "players": players,
        "current_player": game.current,
        "is_running": not game.is_over,
        "end_game": end_game,
        "move_count": len(game.history),
        "chat_count": len(sgame.chat),
        "read_chat_count": len(sgame.chat),
        "created": sgame.created,
        "updated": sgame.updated,
        "last_move": _last_move(sgame, game.history[-1]) if game.history else None,
    }
    if detail:
        data["tiles"] = _api_tiles(game, tuple(game.board.tiles()))
        data["bag_count"] = len(game.bag)
        data["pass_count"] = game.scoreless_turns
    return data


@route(r"user/status")
def _status(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    games = [
        {"id": g.id, "updated": g.updated, "chat_count": len(g.chat), "read_chat_count": len(g.chat)}
        for g in sorted(state.games.values(), key=lambda g: (g.game.is_over, -g.updated))
        if user.id in g.players
    ]
    invites = state.invites.values()
    return ok(
        {
            "games": games,
            "invites_received": [invite_json(state, i) for i in invites if i.invitee == user.id],
            "invites_sent": [invite_json(state, i) for i in invites if i.inviter == user.id],
            "random_requests": [request_json(r) for r in state.random_requests.values() if r.user == user.id],
        }
    )


def invite_json(state: State, invite: Invite) -> JSON:
    """An invitation as ``user/status/`` lists it."""
    return {
        "id": invite.id,
        "inviter": state.users[invite.inviter].username,
        "invitee": state.users[invite.invitee].username,
        "ruleset": invite.ruleset,
        "board_type": invite.board_type,
        "created": invite.created,
    }


def request_json(request: RandomRequest) -> JSON:
    """A random-opponent request (``board_type`` as an int here, as the real server sends it)."""
    return {
        "id": request.id,
        "created": request.created,
        "board_type": 1 if request.board_type == RANDOM else 0,
        "ruleset": request.ruleset,
    }


@route(r"user/games")
def _games(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    mine = [g for g in state.games.values() if user.id in g.players]
    return ok({"games": [game_json(state, g, user, detail=False) for g in mine]})


@route(r"game/(\d{1,19})")
def _game(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    return ok({"game": game_json(state, my_game(state, user, groups[0]), user, detail=True)})


@route(r"board/(\d{1,19})")
def _board(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    board_id = int(groups[0])
    layout = BoardLayout.standard() if board_id == 0 else state.boards.get(board_id)
    if layout is None:
        raise ApiError("unknown_board", f"no board {board_id}")
    return ok({"board": layout.to_api_grid()})


# -- playing ----------------------------------------------------------------------------------


def _my_turn(state: State, user: User, game_id: str) -> SandboxGame:
    sgame = my_game(state, user, game_id)
    if sgame.game.is_over:
        raise ApiError("game_over")
    if sgame.players[sgame.game.current] != user.id:
        raise ApiError("not_your_turn")
    return sgame


def _placement(game: Game, raw: Any) -> Placement:
    if not isinstance(raw, list) or not raw or len(raw) > game.rules.rack_size:
        raise ApiError("illegal_tiles", "move must be a list of 1 to 7 tiles")
    tiles = []
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item[:2])
            or not isinstance(item[2], str)
            or not isinstance(item[3], bool)
        ):
            raise ApiError("illegal_tiles", f"a tile must be [x, y, letter, is_blank], got {item!r}")
        x, y, letter, is_blank = item
        if not (0 <= x < 15 and 0 <= y < 15):
            raise ApiError("illegal_tiles", f"square ({x}, {y}) is off the board")
        try:
            code = game.rules.alphabet.code(letter)
        except EngineError:
            raise ApiError("illegal_tiles", f"{letter!r} is not a letter of ruleset {game.rules.id}") from None
        tiles.append((y, x, code | BLANK_FLAG if is_blank else code))
    rows = {r for r, _, _ in tiles}
    direction = Direction.ACROSS if len(rows) == 1 else Direction.DOWN
    return Placement(tuple(sorted(tiles)), direction)


@route(r"game/(\d{1,19})/move", write=True)
def _move(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    sgame = _my_turn(state, user, groups[0])
    game = sgame.game
    move = _placement(game, data.get("move"))
    try:
        turn = game.place(move)
    except IllegalMoveError as exc:
        if exc.word is not None:
            raise ApiError("illegal_word", exc.word) from None
        raise ApiError("illegal_tiles", exc.reason) from None
    except (InvalidMoveError, GameOverError) as exc:
        raise ApiError("illegal_tiles", str(exc)) from None
    sgame.updated = state.clock()
    answer = ok(
        {
            "main_word": turn.words[0] if turn.words else "",
            "points": turn.points,
            "new_tiles": [_tile_text(game, t) for t in turn.drawn],
            "updated": sgame.updated,
            "is_running": not game.is_over,
        }
    )
    state.play_house_turns(sgame)
    return answer


@route(r"game/(\d{1,19})/swap", write=True)
def _swap(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    sgame = _my_turn(state, user, groups[0])
    game = sgame.game
    raw = data.get("tiles")
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise ApiError("bad_request", "field 'tiles' must be a list of letters ('' for a blank)")
    try:
        tiles = [BLANK if t == "" else game.rules.alphabet.code(t) for t in raw]
        turn = game.swap(tiles)
    except IllegalMoveError as exc:
        kind = "not_enough_tiles" if "in the bag" in exc.reason else "illegal_tiles"
        raise ApiError(kind, exc.reason) from None
    except EngineError as exc:
        raise ApiError("illegal_tiles", str(exc)) from None
    sgame.updated = state.clock()
    answer = ok({"new_tiles": [_tile_text(game, t) for t in turn.drawn], "updated": sgame.updated})
    state.play_house_turns(sgame)
    return answer


@route(r"game/(\d{1,19})/pass", write=True)
def _pass(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    sgame = _my_turn(state, user, groups[0])
    sgame.game.pass_turn()
    sgame.updated = state.clock()
    answer = ok({"updated": sgame.updated, "is_running": not sgame.game.is_over})
    state.play_house_turns(sgame)
    return answer


@route(r"game/(\d{1,19})/resign", write=True)
def _resign(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    sgame = my_game(state, user, groups[0])
    if sgame.game.is_over:
        raise ApiError("game_over")
    sgame.game.resign(sgame.players.index(user.id))
    sgame.updated = state.clock()
    return ok({"updated": sgame.updated, "is_running": False})


# The invite, random-request, chat and notification endpoints register their routes here too.
from sandbox import social  # noqa: E402

__all__ = ["Answer", "error", "game_json", "handle", "ok", "social"]
