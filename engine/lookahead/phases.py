"""Which algorithm decides at which point of the game: one table, read by the tiles left in the bag.

With the bag empty the exact endgame search decides; with one tile in the bag the simulation's best
placements are valued exactly (``engine.lookahead.preendgame``); up to ``pre_endgame`` tiles every rack the
opponent can hold is played out; below ``by_wins_below`` the candidates are ranked by their chance of
winning (through the win model above the pre-endgame, by the bare sign of the lead in it); above that,
by points. ``SimSettings.phase`` gives the phase of a bag size under its settings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Phase:
    """What the look-ahead does at one bag size."""

    name: str  # "endgame", "one in the bag", "pre-endgame", "by wins" or "by points"
    endgame: bool  # the bag is empty: the static player's exact endgame search decides, no simulation
    exact_one_in_bag: bool  # one tile in the bag: the best placements re-ranked by their exact values
    every_rack: bool  # every rack the opponent can hold is played out, each with its number of ways
    by_wins: bool  # ranked by the share of playouts won, not by points
    win_model: bool  # a playout's lead counts as the win model's chance of winning (else its sign)
    plies: int  # the static replies a playout plays after each candidate


def phase(
    bag_count: int,
    *,
    by_wins_below: int,
    pre_endgame: int,
    win_model: bool,
    plies: int,
    plies_below: int | None,
    exact_candidates: int,
) -> Phase:
    """The phase of a position with ``bag_count`` tiles in the bag, under these settings.

    >>> options = dict(by_wins_below=16, pre_endgame=6, win_model=True, plies=2, plies_below=None, exact_candidates=8)
    >>> [phase(bag, **options).name for bag in (0, 1, 6, 7, 15, 16)]
    ['endgame', 'one in the bag', 'pre-endgame', 'by wins', 'by wins', 'by points']
    """
    by_wins = bag_count < by_wins_below
    every_rack = 1 <= bag_count <= pre_endgame
    exact = bag_count == 1 and exact_candidates > 0
    if bag_count == 0:
        name = "endgame"
    elif exact:
        name = "one in the bag"
    elif every_rack:
        name = "pre-endgame"
    else:
        name = "by wins" if by_wins else "by points"
    return Phase(
        name=name,
        endgame=bag_count == 0,
        exact_one_in_bag=exact,
        every_rack=every_rack,
        by_wins=by_wins,
        win_model=by_wins and win_model and bag_count > pre_endgame,
        plies=plies if plies_below is None or bag_count < plies_below else 2,
    )


__all__ = ["Phase", "phase"]
