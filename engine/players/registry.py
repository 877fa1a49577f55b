"""Every strategy by name: the registry the command line, the config and the arena choose from.

``strategy_named`` reads ``greedy``, ``equity`` (and its variants), ``equity:FILE``, ``sim`` and
``sim:OPTIONS``, and ``level:NAME``; it sits above the strategies it builds, so none of them imports it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import cache

from engine.equity.fulltable import read_leave_model
from engine.equity.leave import HandLeave, LeaveModel
from engine.equity.leavetable import learned_leave
from engine.equity.strategy import EndgameBudget, Equity, Greedy, Strategy
from engine.lookahead.simulation import MAX_PLIES, Sim, SimSettings
from engine.players.levels import level_strategy
from engine.rules.ruleset import Ruleset

#: The exact endgame search's node budget a move in ``sim`` (about 0.3 CPU seconds for a 7-tile endgame
#: with the C solver, 1.4 at most; 12 of the 20 real 7-tile endgames of offline/data/endgames-7.txt finish
#: within it: README, "the exact endgame").
SIM_ENDGAME_NODES = 500_000


#: The options of ``sim:NAME=VALUE,...`` and the SimSettings field each sets (``_simulating`` says what they mean).
SIM_OPTIONS = {
    "candidates": "candidates", "iterations": "max_iterations", "playouts": "max_playouts", "z": "z",
    "seconds": "seconds", "winmodel": "win_model", "endgame": "endgame", "winsbelow": "by_wins_below",
    "plies": "plies", "pliesbelow": "plies_below", "exact": "exact_candidates", "exactnodes": "exact_nodes",
    "infer": "inference_temperature", "toend": "to_end",
}  # fmt: skip


#: The strategies by name, for the command line and the config.
def _simulating(options: str = "") -> Strategy:
    """``sim``, or ``sim:candidates=6,iterations=60,playouts=2000,z=2.5,endgame=100000,seconds=0`` (0
    seconds: no time limit, so the same moves on every machine; playouts: candidate playouts, the
    iterations times the candidates still in the running; z: the standard errors of the stopping rule;
    endgame: the exact endgame search's nodes a move with the bag empty; ``winmodel=0`` ranks by the bare
    sign of a playout's lead near the end instead of by engine.lookahead.winprob's chance; ``winsbelow=N`` ranks by
    the chance of winning with fewer than N tiles in the bag, by points above: 16 by default; ``plies=N``
    plays N static replies after each candidate in a playout, 2 by default, at most 8; ``pliesbelow=N``
    plays them only with fewer than N tiles in the bag, 2 above; ``toend=1`` plays on to the game's end when the
    bag is empty after them (0: not, the default); ``exact=N`` re-ranks the N best placements
    with one tile in the bag by their exact value, engine.lookahead.preendgame, 8 by default, 0: none; ``exactnodes=N``:
    the nodes of each of its endgame searches, 50,000 by default; ``infer=T``: the inference's temperature, the
    equity points the opponent's last play may give up before a rack that explains it so weighs 1/e, 2 by
    default)."""
    values: dict[str, float] = {}
    for part in filter(None, options.split(",")):
        key, _, text = part.partition("=")
        if key not in SIM_OPTIONS:
            raise ValueError(f"sim option {key!r} is not one of {', '.join(SIM_OPTIONS)}")
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"sim option {key}={text!r}: expected a number") from None
        if key == "exact":
            if value < 0 or value != int(value):
                raise ValueError(f"sim option exact={text!r}: expected a whole number of placements (0: none)")
        elif key in ("winmodel", "toend"):
            if value not in (0, 1):
                raise ValueError(f"sim option {key}={text!r}: expected 0 or 1")
        elif key == "z" and not 0 < value < math.inf:
            raise ValueError(f"sim option z={text!r}: expected a positive number of standard errors")
        elif key == "infer" and not 0 < value < math.inf:
            raise ValueError(f"sim option infer={text!r}: expected a positive temperature in points")
        elif value < 0 or (key not in ("seconds", "z", "infer") and (value < 1 or value != int(value))):
            raise ValueError(f"sim option {key}={text!r}: expected a whole number of at least 1")
        elif key == "plies" and not 2 <= value <= MAX_PLIES:
            raise ValueError(f"sim option plies={text!r}: expected 2 to {MAX_PLIES} replies")
        values[SIM_OPTIONS[key]] = value
    settings = SimSettings()
    if values:
        seconds = values.get("seconds", settings.seconds)
        settings = replace(
            settings,
            candidates=int(values.get("candidates", settings.candidates)),
            max_iterations=int(values.get("max_iterations", settings.max_iterations)),
            max_playouts=int(values.get("max_playouts", settings.max_playouts)),
            z=values.get("z", settings.z),
            seconds=seconds if seconds > 0 else float("inf"),
            win_model=bool(values.get("win_model", settings.win_model)),
            by_wins_below=int(values.get("by_wins_below", settings.by_wins_below)),
            plies=int(values.get("plies", settings.plies)),
            plies_below=int(values["plies_below"]) if "plies_below" in values else settings.plies_below,
            to_end=bool(values.get("to_end", settings.to_end)),
            exact_candidates=int(values.get("exact_candidates", settings.exact_candidates)),
            exact_nodes=int(values.get("exact_nodes", settings.exact_nodes)),
            inference_temperature=values.get("inference_temperature", settings.inference_temperature),
        )
    # fixed work: without a time limit every budget is a count, the endgame's too (its nodes); with one,
    # the endgame search gets the move's time as well
    solver = EndgameBudget(seconds=settings.seconds, nodes=int(values.get("endgame", SIM_ENDGAME_NODES)))
    name = f"sim:{options}" if options else "sim"
    return Sim(Equity(solver=solver), settings=settings, name=name)


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "greedy": Greedy,
    "equity": Equity,  # the learned leave table when one ships for the ruleset, else the hand-made model
    "equity-hand": lambda: Equity(source=HandLeave.for_ruleset, name="equity-hand"),
    "equity-learned": lambda: Equity(source=learned_leave, name="equity-learned"),
    # with the bag empty, the exact endgame search (node budget: the same moves on every machine)
    "equity+endgame": lambda: Equity(name="equity+endgame", solver=EndgameBudget(seconds=10.0, nodes=60_000)),
    "sim": _simulating,  # a 2-ply simulation of the best static candidates, and the endgame
}
#: ``equity:FILE`` plays equity with the leave table in FILE (from ``wordfeud-bot learn-leaves``: factorised or full).
TABLE_PREFIX = "equity:"
#: ``sim:candidates=N,iterations=N,playouts=N,z=Z,seconds=S,winmodel=0|1,winsbelow=N,plies=N,pliesbelow=N,toend=0|1``
#: simulates with other settings.
SIM_PREFIX = "sim:"
#: ``level:NAME`` plays like a person of that level (``engine/players/levels.py``).
LEVEL_PREFIX = "level:"


def table_file(name: str) -> str | None:
    """The leave table file a strategy name ``equity:FILE`` asks for (None for other names)."""
    if name.startswith(TABLE_PREFIX) and len(name) > len(TABLE_PREFIX):
        return name[len(TABLE_PREFIX) :]
    return None


def strategy_named(name: str) -> Strategy:
    """A strategy by name (or ``equity:FILE``); ValueError lists the known names."""
    path = table_file(name)
    if path is not None:
        return Equity(source=lambda rules: _table(path, rules.id), name=name)
    if name.startswith(SIM_PREFIX):
        return _simulating(name[len(SIM_PREFIX) :])
    if name.startswith(LEVEL_PREFIX):
        return level_strategy(name[len(LEVEL_PREFIX) :], _simulating, strategy_named)
    try:
        return STRATEGIES[name]()
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(
            f"unknown strategy {name!r}; known: {known}, or {TABLE_PREFIX}FILE, or {SIM_PREFIX}OPTIONS, "
            f"or {LEVEL_PREFIX}NAME"
        ) from None


@cache
def _table(path: str, ruleset_id: int) -> LeaveModel:
    """A table file read once per ruleset (by id: every random board is another ``Ruleset``, and a cache
    keyed by it would read and keep the table again for each)."""
    return read_leave_model(path, Ruleset.for_id(ruleset_id))


__all__ = [
    "LEVEL_PREFIX", "SIM_ENDGAME_NODES", "SIM_OPTIONS", "SIM_PREFIX", "STRATEGIES", "TABLE_PREFIX", "strategy_named",
    "table_file",
]  # fmt: skip
