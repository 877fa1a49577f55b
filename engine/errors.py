"""The engine's exceptions: each names the input that was wrong and why."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class RulesetError(EngineError, ValueError):
    """An unknown ruleset, or ruleset data that is inconsistent."""


class TileError(EngineError, ValueError):
    """A tile symbol, word or rack text that the ruleset's alphabet cannot read."""


class LayoutError(EngineError, ValueError):
    """A board layout (premium grid) that is malformed."""


class BoardError(EngineError, ValueError):
    """A board text or board operation that is malformed (bad size, occupied square...)."""


class PositionError(EngineError, ValueError):
    """A position that cannot occur under its ruleset: a rack larger than a rack, more unseen tiles than
    the bag and one rack can hold."""


class InvalidMoveError(EngineError, ValueError):
    """A move that is malformed: unreadable notation, squares off the board, duplicated squares."""


class IllegalMoveError(EngineError, ValueError):
    """A well-formed move that is not legal in this position; ``reason`` says why.

    ``word`` names the offending word when the reason is a word missing from the lexicon.
    """

    def __init__(self, reason: str, *, word: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.word = word


class LexiconError(EngineError):
    """A lexicon file that is missing, truncated, corrupt or built for another alphabet."""


class GameOverError(EngineError):
    """An action on a game that has already ended."""


class LeaveTableError(EngineError, ValueError):
    """A leave table file that is malformed, of another format version, or made for another ruleset."""
