"""Pydantic models of the API's payloads: lenient on fields we do not use, strict on those we do.

Ids are Python ints (the server's exceed 2**31, and SQLite holds them up to 2**63), timestamps finite
floats (old servers sent fractions, newer ones whole seconds). A tile on the board is
``[x, y, letter, is_blank]`` with x the column. Everything the bot acts on is checked here, once:
a game has exactly two players in seats 0 and 1, coordinates are 0..14, counts and scores are
bounded numbers (``true`` or ``"7"`` is not a number). What depends on the ruleset (rack size,
letters) is checked by ``bot.play.convert``. In ``user/status/`` one malformed entry is skipped (and
named in ``skipped``), not the whole answer.

Free text is bounded here too, so nothing the server sends grows the state file or a log line
without limit. Names (usernames, an invite's inviter and invitee) are cut to ``NAME_LIMIT`` (64)
characters, an e-mail address to ``EMAIL_LIMIT`` (254, the longest an address can be), a move's
main word in a move's answer to ``WORD_LIMIT``; the first cut of each field is logged once per run
(a warning naming the field and the length), later ones are cut silently. The server's error texts
are cut the same way by the client (``cut``: ``ERROR_TYPE_LIMIT``, ``ERROR_MESSAGE_LIMIT``). Tokens
the bot compares (a last move's type and main word, a board type) are refused when too long, with
the entry that holds them. Chat messages are never read (only their counts).

>>> game = Game.model_validate({"id": 2226982257, "ruleset": 5, "board": 0, "current_player": 0,
...     "is_running": True, "move_count": 0, "updated": 1521776416, "players": [
...     {"id": 7, "username": "me", "position": 0, "score": 0, "rack": ["A", ""], "is_local": True},
...     {"id": 8, "username": "you", "position": 1, "score": 0}], "unknown_field": 1})
>>> game.me(7).rack, game.is_my_turn(7), game.opponent(7).username
(['A', ''], True, 'you')
"""

from __future__ import annotations

import logging
import threading
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)

from bot.errors import ProtocolError

log = logging.getLogger(__name__)

#: The longest username (or inviter, invitee) kept: the real app's names are far shorter (Facebook
#: accounts' ``_fb_<digits>`` among the longest seen); a longer one is cut, and the cut logged once.
NAME_LIMIT = 64
#: The longest e-mail address (RFC 5321 path limit).
EMAIL_LIMIT = 254
#: A word on a 15-square line, each tile up to 4 characters (multi-letter tiles), with room to spare.
WORD_LIMIT = 64
#: An API error's ``type`` (a short code such as ``illegal_word``) and ``message`` (a sentence).
ERROR_TYPE_LIMIT = 64
ERROR_MESSAGE_LIMIT = 500
#: What marks a cut text: its last kept character is replaced by this.
CUT_MARK = "\u2026"

_reported: set[str] = set()  # the fields whose first cut was logged in this run
_reported_lock = threading.Lock()


def cut(text: str, limit: int, what: str) -> str:
    """``text`` if it has at most ``limit`` characters, else its first ``limit - 1`` and ``CUT_MARK``;
    the first cut of each ``what`` (a field's name) is logged as a warning, later ones are not.

    >>> cut("short", 8, "doctest field")
    'short'
    >>> len(cut("x" * 1000, 8, "doctest field"))
    8
    """
    if len(text) <= limit:
        return text
    with _reported_lock:
        first = what not in _reported
        _reported.add(what)
    if first:
        log.warning(
            "the server sent a %s of %d characters; cut to %d (further ones are cut without a message)",
            what,
            len(text),
            limit,
        )
    return text[: limit - 1] + CUT_MARK


def _cut_to(limit: int, what: str) -> BeforeValidator:
    """A validator that cuts a string field to ``limit`` characters (see ``cut``)."""

    def check(value: Any) -> Any:
        return cut(value, limit, what) if isinstance(value, str) else value

    return BeforeValidator(check)


def _no_bool_or_text(value: Any) -> Any:
    """Numbers must come as JSON numbers: ``true`` or ``"7"`` where a count belongs is a broken payload."""
    if isinstance(value, bool | str):
        raise ValueError(f"expected a number, got {type(value).__name__}")
    return value


def _dropped_if_invalid(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """For informational fields: a malformed value is dropped (None) instead of failing the game."""
    try:
        return handler(value)
    except ValidationError:
        return None


Number = Annotated[int, BeforeValidator(_no_bool_or_text)]
#: Ids of games, users, invites and boards: what SQLite can hold (the server's exceed 2**31).
Id = Annotated[Number, Field(ge=0, lt=2**63)]
#: Move counts, tiles in the bag, passes: never negative, never astronomical.
Count = Annotated[Number, Field(ge=0, lt=2**31)]
#: A score: negative after end-of-game deductions, far below 2**31 in any real game.
Score = Annotated[Number, Field(gt=-(2**31), lt=2**31)]
#: A player's position (seat) in a game: Wordfeud has two.
Seat = Annotated[Number, Field(ge=0, le=1)]
#: A board coordinate.
Coordinate = Annotated[Number, Field(ge=0, le=14)]
#: A timestamp (Unix seconds, float or int); NaN and infinities are refused.
Stamp = Annotated[float, BeforeValidator(_no_bool_or_text), Field(allow_inf_nan=False)]
#: A tile's letter as the API writes it (multi-letter tiles such as Spanish CH are a few characters).
Letter = Annotated[str, Field(strict=True, min_length=1, max_length=4)]
#: A rack entry: a letter, or ``""`` for a blank.
RackLetter = Annotated[str, Field(strict=True, max_length=4)]
#: A player's name: cut to NAME_LIMIT characters.
Name = Annotated[str, Field(strict=True), _cut_to(NAME_LIMIT, "username")]
#: A short token the bot compares (a move type, a board type): refused when longer than 32.
Token = Annotated[str, Field(strict=True, max_length=32)]

#: One board tile as the API sends it: (x = column, y = row, letter, is_blank).
ApiTile = tuple[Coordinate, Coordinate, Letter, StrictBool]


class ApiModel(BaseModel):
    """Base: unknown fields are ignored (the server adds ad-unit ids and more), values are frozen."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class LoginUser(ApiModel):
    """What a login answers: the account."""

    id: Id
    username: Name
    email: Annotated[str, Field(strict=True), _cut_to(EMAIL_LIMIT, "e-mail address")] | None = None


class StatusGame(ApiModel):
    """A game in ``user/status/``: enough to see that it changed."""

    id: Id
    updated: Stamp
    chat_count: int = 0
    read_chat_count: int = 0


class Invite(ApiModel):
    """An invitation (received or sent)."""

    id: Id
    inviter: Annotated[str, Field(strict=True), _cut_to(NAME_LIMIT, "inviter name")] = ""
    invitee: Annotated[str, Field(strict=True), _cut_to(NAME_LIMIT, "invitee name")] | None = None
    ruleset: int
    board_type: Token | int = "normal"

    @property
    def is_random_board(self) -> bool:
        """True for a random premium layout (``"random"``, or 1 in the integer form)."""
        return self.board_type in ("random", 1)


class RandomRequest(ApiModel):
    """A pending request for a random opponent (``board_type`` is an int here on the real server)."""

    id: Id
    ruleset: int | None = None
    board_type: Token | int | None = None
    created: float | None = None


class Status(ApiModel):
    """``user/status/``: changed games, invites and pending random requests."""

    games: list[StatusGame] = Field(default_factory=list)
    invites_received: list[Invite] = Field(default_factory=list)
    invites_sent: list[Invite] = Field(default_factory=list)
    random_requests: list[RandomRequest] = Field(default_factory=list)
    #: Entries left out because they are malformed, each named (``games[2] (id 123): field 'updated': ...``).
    skipped: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _skip_bad_entries(cls, data: Any) -> Any:
        """Keep the well-formed entries of each list; name the others in ``skipped``."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        skipped: list[str] = []
        for key, model in _STATUS_LISTS.items():
            entries = data.get(key)
            if not isinstance(entries, list):
                continue
            kept = []
            for index, entry in enumerate(entries):
                try:
                    kept.append(model.model_validate(entry))
                except ValidationError as exc:
                    skipped.append(f"{key}[{index}]{_id_text(entry)}: {field_problem(exc)}")
            data[key] = kept
        data["skipped"] = skipped
        return data


class Player(ApiModel):
    """A player entry of a game; only the logged-in player's has ``rack`` (blank = ``""``)."""

    id: Id
    username: Name = ""
    position: Seat
    score: Score
    rack: Annotated[list[RackLetter], Field(max_length=100)] | None = None
    is_local: bool | None = None


class LastMove(ApiModel):
    """The previous action in a game."""

    move_type: Token
    user_id: Id | None = None
    move: Annotated[list[ApiTile], Field(max_length=225)] | None = None
    main_word: Annotated[str, Field(strict=True, max_length=WORD_LIMIT)] | None = None
    points: Score | None = None
    tile_count: Count | None = None


class Game(ApiModel):
    """A game object: the list form lacks ``tiles``, ``bag_count`` and ``pass_count``."""

    id: Id
    ruleset: Count
    board: Id = 0
    players: Annotated[list[Player], Field(min_length=2, max_length=2)]
    current_player: Seat
    is_running: StrictBool
    end_game: int = 0
    move_count: Count
    updated: Stamp
    created: Stamp | None = None
    tiles: Annotated[list[ApiTile], Field(max_length=225)] | None = None
    bag_count: Count | None = None
    pass_count: Count | None = None
    #: Informational (replay, the demo, whether a lost submission was followed by a resignation):
    #: a malformed one is dropped rather than failing the game.
    last_move: Annotated[LastMove | None, WrapValidator(_dropped_if_invalid)] = None
    chat_count: int = 0
    read_chat_count: int = 0

    @field_validator("players")
    @classmethod
    def _two_seats(cls, players: list[Player]) -> list[Player]:
        if {p.position for p in players} != {0, 1}:
            raise ValueError(f"the players' positions are {[p.position for p in players]}, not 0 and 1")
        return players

    def me(self, user_id: int) -> Player:
        """The logged-in player's entry (the one with our user id); ProtocolError when the game
        does not have us as exactly one of its two players."""
        mine = [player for player in self.players if player.id == user_id]
        if len(mine) != 1:
            how = "is not one of its players" if not mine else "is both of its players"
            raise ProtocolError(f"game {self.id}: field 'players': user {user_id} {how}")
        return mine[0]

    def opponent(self, user_id: int) -> Player:
        """The other player's entry."""
        mine = self.me(user_id)
        return next(p for p in self.players if p is not mine)

    def is_my_turn(self, user_id: int) -> bool:
        """Running and the player to move is us."""
        return self.is_running and self.current_player == self.me(user_id).position


#: The longest chat message kept (the app's chat is for short lines; anything longer is cut).
CHAT_MESSAGE_LENGTH = 500
#: Chat messages read from one answer at most (the newest are kept).
CHAT_MESSAGES = 200


def _chat_text(value: Any) -> Any:
    """A chat message's text, cut to ``CHAT_MESSAGE_LENGTH`` characters (it is shown, never acted on)."""
    return value[:CHAT_MESSAGE_LENGTH] if isinstance(value, str) else value


class ChatMessage(ApiModel):
    """One message of a game's chat: its text, the sender's user id and when it was sent."""

    message: Annotated[str, Field(strict=True), BeforeValidator(_chat_text)]
    sender: Id
    sent: Stamp


class Chat(ApiModel):
    """``game/<id>/chat/``: the game's messages, oldest first (the newest ``CHAT_MESSAGES``)."""

    messages: list[ChatMessage] = Field(default_factory=list)

    @field_validator("messages", mode="before")
    @classmethod
    def _newest(cls, value: Any) -> Any:
        return value[-CHAT_MESSAGES:] if isinstance(value, list) else value


class MoveResult(ApiModel):
    """Answer to a placement."""

    main_word: Annotated[str, Field(strict=True), _cut_to(WORD_LIMIT, "main word")] = ""
    points: Score
    new_tiles: Annotated[list[RackLetter], Field(max_length=100)] = Field(default_factory=list)
    updated: Stamp | None = None
    is_running: bool = True


class SwapResult(ApiModel):
    """Answer to a swap."""

    new_tiles: Annotated[list[RackLetter], Field(max_length=100)] = Field(default_factory=list)
    updated: Stamp | None = None


JSONObject = dict[str, Any]

_STATUS_LISTS: dict[str, type[ApiModel]] = {
    "games": StatusGame,
    "invites_received": Invite,
    "invites_sent": Invite,
    "random_requests": RandomRequest,
}


def field_problem(exc: ValidationError) -> str:
    """The first problem of a validation error, naming the field: ``field 'players.0.position': ...``."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "content"
    return f"field {where!r}: {first['msg'].removeprefix('Value error, ')}"


def _id_text(entry: Any) -> str:
    """`` (id 123)`` when a malformed entry still has a readable id, to name it in the log."""
    if isinstance(entry, dict) and isinstance(entry.get("id"), int) and not isinstance(entry.get("id"), bool):
        return f" (id {entry['id']})"
    return ""

__all__ = [
    "ERROR_MESSAGE_LIMIT",
    "ERROR_TYPE_LIMIT",
    "NAME_LIMIT",
    "ApiTile",
    "Game",
    "Invite",
    "JSONObject",
    "LastMove",
    "LoginUser",
    "MoveResult",
    "Player",
    "RandomRequest",
    "Status",
    "StatusGame",
    "SwapResult",
    "cut",
    "field_problem",
]
