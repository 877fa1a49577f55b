"""Pydantic models of the API's payloads: lenient on fields we do not use, strict on those we do.

Ids are Python ints (the server's exceed 2**31), timestamps floats (old servers sent fractions,
newer ones whole seconds). A tile on the board is ``[x, y, letter, is_blank]`` with x the column.

>>> game = Game.model_validate({"id": 2226982257, "ruleset": 5, "board": 0, "current_player": 0,
...     "is_running": True, "move_count": 0, "updated": 1521776416, "players": [
...     {"id": 7, "username": "me", "position": 0, "score": 0, "rack": ["A", ""], "is_local": True},
...     {"id": 8, "username": "you", "position": 1, "score": 0}], "unknown_field": 1})
>>> game.me(7).rack, game.is_my_turn(7), game.opponent(7).username
(['A', ''], True, 'you')
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: One board tile as the API sends it: (x = column, y = row, letter, is_blank).
ApiTile = tuple[int, int, str, bool]


class ApiModel(BaseModel):
    """Base: unknown fields are ignored (the server adds ad-unit ids and more), values are frozen."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class LoginUser(ApiModel):
    """What a login answers: the account."""

    id: int
    username: str
    email: str | None = None


class StatusGame(ApiModel):
    """A game in ``user/status/``: enough to see that it changed."""

    id: int
    updated: float
    chat_count: int = 0
    read_chat_count: int = 0


class Invite(ApiModel):
    """An invitation (received or sent)."""

    id: int
    inviter: str = ""
    invitee: str | None = None
    ruleset: int
    board_type: str | int = "normal"

    @property
    def is_random_board(self) -> bool:
        """True for a random premium layout (``"random"``, or 1 in the integer form)."""
        return self.board_type in ("random", 1)


class RandomRequest(ApiModel):
    """A pending request for a random opponent (``board_type`` is an int here on the real server)."""

    id: int
    ruleset: int | None = None
    board_type: str | int | None = None
    created: float | None = None


class Status(ApiModel):
    """``user/status/``: changed games, invites and pending random requests."""

    games: list[StatusGame] = Field(default_factory=list)
    invites_received: list[Invite] = Field(default_factory=list)
    invites_sent: list[Invite] = Field(default_factory=list)
    random_requests: list[RandomRequest] = Field(default_factory=list)


class Player(ApiModel):
    """A player entry of a game; only the logged-in player's has ``rack`` (blank = ``""``)."""

    id: int
    username: str = ""
    position: int
    score: int
    rack: list[str] | None = None
    is_local: bool | None = None


class LastMove(ApiModel):
    """The previous action in a game."""

    move_type: str
    user_id: int | None = None
    move: list[ApiTile] | None = None
    main_word: str | None = None
    points: int | None = None
    tile_count: int | None = None


class Game(ApiModel):
    """A game object: the list form lacks ``tiles``, ``bag_count`` and ``pass_count``."""

    id: int
    ruleset: int
    board: int = 0
    players: list[Player]
    current_player: int
    is_running: bool
    end_game: int = 0
    move_count: int
    updated: float
    created: float | None = None
    tiles: list[ApiTile] | None = None
    bag_count: int | None = None
    pass_count: int | None = None
    last_move: LastMove | None = None
    chat_count: int = 0
    read_chat_count: int = 0

    def me(self, user_id: int) -> Player:
        """The logged-in player's entry (``is_local``, else the matching id); ProtocolError-free:
        raises LookupError when the game is not ours."""
        for player in self.players:
            if player.is_local or player.id == user_id:
                return player
        raise LookupError(f"user {user_id} does not play game {self.id}")

    def opponent(self, user_id: int) -> Player:
        """The other player's entry."""
        mine = self.me(user_id)
        return next(p for p in self.players if p is not mine)

    def is_my_turn(self, user_id: int) -> bool:
        """Running and the player to move is us."""
        return self.is_running and self.current_player == self.me(user_id).position


class MoveResult(ApiModel):
    """Answer to a placement."""

    main_word: str = ""
    points: int
    new_tiles: list[str] = Field(default_factory=list)
    updated: float | None = None
    is_running: bool = True


class SwapResult(ApiModel):
    """Answer to a swap."""

    new_tiles: list[str] = Field(default_factory=list)
    updated: float | None = None


class ChatMessage(ApiModel):
    """One chat line."""

    message: str
    sender: int
    sent: float


class Notification(ApiModel):
    """An entry of ``user/notifications/``; ids may come as strings on some servers."""

    type: str
    game_id: int | None = None
    user_id: int | None = None
    username: str | None = None
    created: float | None = None


class Notifications(ApiModel):
    """``user/notifications/``."""

    entries: list[Notification] = Field(default_factory=list)
    cutoff: bool = False


JSONObject = dict[str, Any]

__all__ = [
    "ApiTile",
    "ChatMessage",
    "Game",
    "Invite",
    "JSONObject",
    "LastMove",
    "LoginUser",
    "MoveResult",
    "Notification",
    "Notifications",
    "Player",
    "RandomRequest",
    "Status",
    "StatusGame",
    "SwapResult",
]
