"""What the bot sends the server for one turn, in the API's terms: a move, a swap or a pass.

A value of its own (not of ``bot.play.convert``), so the client and the store need nothing of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.api.models import ApiTile


class Kind(StrEnum):
    """What a submission does: the endpoint it goes to and the stored ``kind`` of its decision."""

    MOVE = "move"
    SWAP = "swap"
    PASS = "pass"


@dataclass(frozen=True)
class Submission:
    """One action for the server, in the API's terms: what the store records and the client sends.

    ``tiles`` are a move's ``[x, y, LETTER, is_blank]``, ``letters`` a swap's (``""`` a blank),
    ``words`` a move's words, main word first (the server is sent the main word), ``points`` the
    engine's score."""

    kind: Kind
    notation: str
    points: int = 0
    tiles: tuple[ApiTile, ...] = ()
    words: tuple[str, ...] = ()
    ruleset: int = 0
    letters: tuple[str, ...] = ()

    def body(self) -> dict[str, Any]:
        """The request's body, which is also the decision's stored payload (``{}`` for a pass)."""
        if self.kind is Kind.MOVE:
            return {"move": [list(t) for t in self.tiles], "ruleset": self.ruleset, "words": list(self.words[:1])}
        if self.kind is Kind.SWAP:
            return {"tiles": list(self.letters)}
        return {}

    @classmethod
    def from_record(cls, kind: str, notation: str, points: int, payload: dict[str, Any]) -> Submission:
        """A submission from a stored decision (its payload is a ``body()``: a move keeps its main word only)."""
        if kind == Kind.MOVE:
            tiles = tuple((x, y, letter, blank) for x, y, letter, blank in payload["move"])
            return cls(Kind.MOVE, notation, points, tiles, tuple(payload["words"]), payload["ruleset"])
        if kind == Kind.SWAP:
            return cls(Kind.SWAP, notation, points, letters=tuple(payload["tiles"]))
        return cls(Kind.PASS, notation, points)


__all__ = ["Kind", "Submission"]
