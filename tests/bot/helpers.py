"""The faked Wordfeud API of the client tests (``responses``): its address, a session, answers and a game."""

from __future__ import annotations

from typing import Any

import responses

from bot.api.credentials import Credentials
from bot.api.submission import Kind, Submission

BASE = "https://api.example.test/wf/"
SESSION = "abcdefghij0123456789abcdefghij01"
CREDS = Credentials.from_password("email", "bot@example.org", "hunter22")


def ok(content: dict[str, Any]) -> dict[str, Any]:
    """A successful answer."""
    return {"status": "success", "content": content}


def err(type_: str, message: str = "") -> dict[str, Any]:
    """An API error answer of this type."""
    content = {"type": type_}
    if message:
        content["message"] = message
    return {"status": "error", "content": content}


def game_json(**changes: Any) -> dict[str, Any]:
    """A detailed game as the API sends it (with a field the bot ignores), with these changes."""
    game = {
        "id": 2226982257,
        "ruleset": 5,
        "board": 0,
        "current_player": 0,
        "is_running": True,
        "move_count": 3,
        "updated": 1521776416.5,
        "tiles": [[7, 7, "H", False], [8, 7, "I", True]],
        "bag_count": 80,
        "players": [
            {"id": 7, "username": "bot", "position": 0, "score": 10, "rack": ["A", ""], "is_local": True},
            {"id": 8, "username": "them", "position": 1, "score": 12, "is_local": False},
        ],
        "mopub_ad_unit": "ignored",
    }
    game.update(changes)
    return game


def placed(tiles: list[tuple[int, int, str, bool]], word: str, ruleset: int = 5) -> Submission:
    """A move of these API tiles whose main word is ``word``."""
    return Submission(Kind.MOVE, word, tiles=tuple(tiles), words=(word,), ruleset=ruleset)


def paths() -> list[str]:
    """The API paths called so far, in order."""
    return [str(call.request.url).removeprefix(BASE) for call in responses.calls]


class Sleeps(list[float]):
    """A ``sleep`` that only records how long it was asked to wait."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)
