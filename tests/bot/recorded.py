"""A whole game recorded in a state file, played once per test session by the demo (bot against the
sandbox's house player over HTTP on 127.0.0.1): the material of the hint, replay and status tests."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.api.models import Game
from cli.demo import run_demo
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


#: The games played so far in this session, by seed, each in a directory of its own that no test is given.
_PLAYED: dict[int, Recorded] = {}
_PLAYED_IN = tempfile.TemporaryDirectory(prefix="recorded-demo-")  # removed when the session's process ends


def record_demo(directory: Path, seed: int = 1) -> Recorded:
    """The demo game of ``seed`` in ``directory``/demo.sqlite3 (shipped lexicons only, no user files): played
    once per test session, and each caller given its own copy of the state file (a test may change it)."""
    played = _PLAYED.get(seed)
    if played is None:
        lines: list[str] = []
        store_dir = Path(_PLAYED_IN.name) / str(seed)
        store_dir.mkdir()
        # Static equity: the same game on every machine (sim's moves depend on how much it gets done in its time).
        game = run_demo(5, seed, registry=LexiconRegistry([]), out=lines.append, store_dir=store_dir, strategy="equity")
        played = _PLAYED[seed] = Recorded(store_dir / "demo.sqlite3", game, lines)
    for file in played.state.parent.iterdir():  # the database, and its write-ahead log if one is left
        shutil.copy(file, directory / file.name)  # with its mode: the state file is private (600)
    return Recorded(directory / played.state.name, played.game, list(played.lines))
