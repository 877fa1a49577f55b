"""Pure Wordfeud game logic: rulesets, board, lexicon (DAWG), move generation, evaluation and look-ahead.

Nothing in this package touches the network or the clock, and it never imports ``bot``. The names below
are the stable way in for outside code (``from engine import strategy_named``); each is imported on first
use, so importing one part of the engine does not load the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.board.board import Board
    from engine.board.move import Direction, Move, Pass, Placement, Swap
    from engine.board.rack import Rack
    from engine.equity.strategy import Equity, Greedy, Situation, Strategy
    from engine.game import Game
    from engine.lexicon.dawg import Dawg
    from engine.movegen.generate import generate
    from engine.players.arena import pair_seed, play_game
    from engine.players.registry import strategy_named
    from engine.rules.layout import BoardLayout
    from engine.rules.ruleset import Ruleset

#: Each public name and the module that defines it.
FACADE = {
    "Board": "engine.board.board",
    "BoardLayout": "engine.rules.layout",
    "Dawg": "engine.lexicon.dawg",
    "Direction": "engine.board.move",
    "Equity": "engine.equity.strategy",
    "Game": "engine.game",
    "Greedy": "engine.equity.strategy",
    "Move": "engine.board.move",
    "Pass": "engine.board.move",
    "Placement": "engine.board.move",
    "Rack": "engine.board.rack",
    "Ruleset": "engine.rules.ruleset",
    "Situation": "engine.equity.strategy",
    "Strategy": "engine.equity.strategy",
    "Swap": "engine.board.move",
    "generate": "engine.movegen.generate",
    "pair_seed": "engine.players.arena",
    "play_game": "engine.players.arena",
    "strategy_named": "engine.players.registry",
}


def __getattr__(name: str) -> Any:
    module = FACADE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "Board", "BoardLayout", "Dawg", "Direction", "Equity", "Game", "Greedy", "Move", "Pass", "Placement", "Rack",
    "Ruleset", "Situation", "Strategy", "Swap", "generate", "pair_seed", "play_game", "strategy_named",
]  # fmt: skip
