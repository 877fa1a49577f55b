"""The chance of winning from a lead and the tiles left to draw: a model fitted on our own self-play.

After a move, with the opponent to play and ``bag`` tiles in the bag, the mover's lead (points plus
the weighted difference of the two leaves' values, as the simulation counts it) becomes a chance of
winning ``1 / (1 + exp(-(lead - tempo) / (scale + per_tile * bag)))``: the fewer tiles are left, the
more a given lead is worth; ``tempo`` is what being the one not on turn costs. The simulation ranks
its candidates near the end of the game by this chance rather than by a playout's bare sign (won or
lost at the look-ahead's horizon, where the game is rarely over). The parameters are data
(``data/winprob.toml``, written by ``python -m offline.learning.winfit``), per ruleset; a ruleset not fitted
uses the English (international) fit.

>>> model = WinModel.for_ruleset(5)
>>> model.probability(200.0, 0) > 0.99 and model.probability(-200.0, 0) < 0.01
True
>>> model.probability(40.0, 0) > model.probability(40.0, 60)  # the same lead is safer late
True
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import RulesetError

#: The fit a ruleset without its own uses.
FALLBACK_RULESET = 5


@dataclass(frozen=True)
class WinModel:
    """A logistic win chance in the lead, its width growing with the tiles in the bag."""

    ruleset: int  # the ruleset whose self-play the parameters were fitted on
    tempo: float  # the lead at which the mover (the opponent to play) wins half the time
    scale: float  # the logistic's width with the bag empty
    per_tile: float  # how much wider per tile in the bag
    tiles_per_move: float  # tiles an average placement lays: to guess the bag at a look-ahead's horizon

    def __post_init__(self) -> None:
        if not self.scale > 0 or self.per_tile < 0 or not self.tiles_per_move > 0:
            raise ValueError(f"not a win model: scale {self.scale}, per_tile {self.per_tile}, "
                             f"tiles_per_move {self.tiles_per_move}")

    def probability(self, lead: float, bag: int) -> float:
        """The mover's chance of winning with ``lead`` and ``bag`` tiles in the bag, the opponent to play."""
        z = (lead - self.tempo) / (self.scale + self.per_tile * max(bag, 0))
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    @classmethod
    def for_ruleset(cls, ruleset_id: int) -> WinModel:
        """The fitted model of ``ruleset_id`` (the fallback ruleset's when it has none of its own)."""
        fitted = _fitted()
        key = str(ruleset_id) if str(ruleset_id) in fitted else str(FALLBACK_RULESET)
        if key not in fitted:
            raise RulesetError(f"data/winprob.toml has no win model for ruleset {ruleset_id} nor {FALLBACK_RULESET}")
        entry = fitted[key]
        try:
            return cls(int(key), float(entry["tempo"]), float(entry["scale"]), float(entry["per_tile"]),
                       float(entry["tiles_per_move"]))
        except (KeyError, TypeError, ValueError) as error:
            raise RulesetError(f"data/winprob.toml: ruleset {key}'s win model is malformed: {error}") from None


@cache
def _fitted() -> dict[str, dict[str, Any]]:
    text = resources.files("engine.data").joinpath("winprob.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text).get("ruleset", {})
    return {str(key): value for key, value in table.items()}
