"""A whole game recorded in a state file, played once per test session by the demo (bot against the
sandbox's house player over HTTP on 127.0.0.1): the material of the hint, replay and status tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.demo import run_demo
from bot.models import Game
from dictionaries.registry import LexiconRegistry


@dataclass(frozen=True)
class Recorded:
    """The state file of the demo's game, the game as it ended, and the demo's printed lines."""

    state: Path
    game: Game
    lines: list[str]

    @property
    def game_id(self) -> int:
        return self.game.id


def record_demo(directory: Path, seed: int = 1) -> Recorded:
    """Play the demo game into ``directory``/demo.sqlite3 (shipped lexicons only, no user files)."""
    lines: list[str] = []
    # Static equity: the same game on every machine (sim's moves depend on how much it gets done in its time).
    game = run_demo(5, seed, registry=LexiconRegistry([]), out=lines.append, store_dir=directory, strategy="equity")
    return Recorded(directory / "demo.sqlite3", game, lines)
