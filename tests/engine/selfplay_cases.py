"""Hostile input for the C self-play loop (``engine._native.selfplay_game``), and a workload of real games.

Each case is one call that must raise a Python exception naming the problem, never crash or read out of
bounds. ``python -m tests.engine.selfplay_cases cases|workload`` runs them in a fresh interpreter (the
tests do, so that a crash fails a test); the memory checker (``tests/engine/memcheck.py``) runs the same.
"""

from __future__ import annotations

import argparse
import json
import random
from array import array
from collections.abc import Callable
from typing import Any

from engine import native
from engine.equity.leavesamples import played_turns
from engine.equity.leavetable import LearnedLeave
from engine.equity.native import leave_table
from engine.equity.nativesamples import native_turns
from engine.equity.strategy import Equity
from engine.game import Game
from engine.rules.ruleset import Ruleset
from tests.engine.native_cases import Case, module, run_cases
from tests.engine.playout_cases import english

EN = Ruleset.for_id(5)


def selfplay_cases() -> list[Case]:
    """Bad bags, racks, random states and settings for ``selfplay_game``."""
    c = module()
    lexicon = english()
    model = Equity().leave_model(EN)
    assert isinstance(model, LearnedLeave)
    game = Game(EN, lexicon, random.Random(1))
    state = list(game.rng.getstate()[1])
    rack = (*game.racks[0].counts, game.racks[0].blanks)
    other = (*game.racks[1].counts, game.racks[1].blanks)

    def call(**changes: object) -> Callable[[], object]:
        arguments: dict[str, Any] = {"lexicon": native.lexicon(lexicon), "rules": native.rules(EN)}
        arguments |= {"leave": leave_table(model), "bag": list(game.bag), "racks": (rack, other), "current": 0}
        arguments |= {"game_state": state, "choose_state": state, "explore": 0.5, "width": 5, "swap_cost": 0.0}
        arguments |= {"swap_min_bag": EN.swap_min_bag, "scoreless_to_end": EN.scoreless_turns_to_end}
        arguments |= {"swap_scoreless": 1}
        arguments |= changes
        return lambda: c.selfplay_game(**arguments)

    def ran() -> object:
        turns = call()()
        raise ValueError("ran" if isinstance(turns, list) and turns else f"no turns: {turns!r}")

    small = c.LeaveTable(array("d", [0.0] * 27), 3, 0, 3)
    seven = [0] * 26 + [7]
    return [
        Case("selfplay: the valid call runs", ran, ValueError, "^ran$"),
        Case("selfplay: a bag tile 26", call(bag=[*game.bag[:-1], 26]), ValueError, "item 89 must be -1 to 25"),
        Case("selfplay: a bag tile -2", call(bag=[-2]), ValueError, "the bag item 0 must be -1 to 25"),
        Case("selfplay: a bag of strings", call(bag=["A"]), TypeError, "the bag item 0 is not an int"),
        Case("selfplay: a bag of 2000", call(bag=[0] * 2000), ValueError, "a bag of 2000 tiles"),
        Case("selfplay: a bag not a sequence", call(bag=5), TypeError, "the bag must be a sequence"),
        Case("selfplay: a huge bag tile", call(bag=[2**70]), ValueError, "the bag item 0 must be"),
        Case("selfplay: a rack of 8", call(racks=((8,) + (0,) * 26, other)), ValueError, "first rack holds 8 tiles"),
        Case("selfplay: a rack of 25 letters", call(racks=(rack[:25], other)), ValueError, "must hold 27 ints"),
        Case("selfplay: 8 blanks", call(racks=(rack, (0,) * 26 + (8,))), ValueError, "second rack item 26 must be"),
        Case("selfplay: a rack of 7 blanks runs", lambda: _ran(call(racks=(rack, tuple(seven)))), ValueError, "^ran$"),
        Case("selfplay: one rack", call(racks=(rack,)), TypeError, ""),
        Case("selfplay: a short state", call(game_state=state[:-1]), ValueError, "game's random state must hold 625"),
        Case("selfplay: 2^32", call(choose_state=[2**32, *state[1:]]), ValueError, "explorer's random state item 0 "),
        Case("selfplay: index 625", call(game_state=[*state[:-1], 625]), ValueError, "state item 624 must be 0 to 624"),
        Case("selfplay: a state of floats", call(game_state=[0.5] * 625), TypeError, "state item 0 is not an int"),
        Case("selfplay: a table of 3 letters", call(leave=small), ValueError, "the leave table 3, the ruleset 26"),
        Case("selfplay: a leave list", call(leave=[0.0]), TypeError, "LeaveTable"),
        Case("selfplay: width 0", call(width=0), ValueError, "width=0"),
        Case("selfplay: explore 2", call(explore=2.0), ValueError, "explore=2"),
        Case("selfplay: explore NaN", call(explore=float("nan")), ValueError, "explore=nan"),
        Case("selfplay: current 2", call(current=2), ValueError, "current=2"),
        Case("selfplay: scoreless_to_end 0", call(scoreless_to_end=0), ValueError, "scoreless_to_end=0"),
        Case("selfplay: swap_cost NaN", call(swap_cost=float("nan")), ValueError, "swap_cost not a number"),
        Case("selfplay: an empty bag", lambda: _none(call(bag=[])), ValueError, "^no turns$"),
        Case("selfplay: no arguments", c.selfplay_game, TypeError, ""),
    ]


def _ran(play: Callable[[], object]) -> object:
    turns = play()
    raise ValueError("ran" if isinstance(turns, list) and turns else f"no turns: {turns!r}")


def _none(play: Callable[[], object]) -> object:
    turns = play()
    raise ValueError("no turns" if turns == [] else f"turns: {turns!r}")


def workload(games: int, *, reference: bool = True) -> tuple[int, list[str]]:
    """``games`` self-play games in C (exploring half the turns); with ``reference``, each against the
    Python loop's turns. The turns played and the mismatches."""
    player = Equity()
    turns, mismatches = 0, []
    for seed in range(games):
        played = native_turns(player, EN, english(), seed, explore=0.5)
        assert played is not None
        turns += len(played)
        if reference and played != played_turns(player, EN, english(), seed, explore=0.5):
            mismatches.append(f"selfplay: game {seed} differs from the Python loop's")
    return turns, mismatches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.selfplay_cases", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("cases", "workload"))
    args = parser.parse_args(argv)
    if args.what == "cases":
        cases = selfplay_cases()
        print(json.dumps({"cases": len(cases), "failures": run_cases(cases)}))
    else:
        turns, mismatches = workload(games=4)
        print(json.dumps({"turns": turns, "mismatches": mismatches}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
