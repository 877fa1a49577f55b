"""Self-play for learning in C: the turns ``leavesamples.played_turns`` plays, at the kernel's speed.

The game is set up here as ``engine.game.Game`` sets it up (the seeded bag, the racks drawn) and the C
kernel plays it on with the same rules, the same ranking of ``Equity.best`` and the same random streams
(their states handed over), so both write the same samples for the same seed. It plays ``equity`` with a
learned (factorised) leave table; for any other player ``native_turns`` is None and the Python loop plays.
"""

from __future__ import annotations

import random

from engine import native
from engine.board.rack import Rack
from engine.equity.leavesamples import EXPLORE_WIDTH, LeaveSample, Turn, samples_of
from engine.equity.leavetable import LearnedLeave
from engine.equity.native import leave_table
from engine.equity.strategy import Equity, Strategy
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset


def plays_natively(player: Strategy, rules: Ruleset) -> bool:
    """Whether the C loop can play ``player`` on ``rules``: ``equity`` with a learned table, the kernel built."""
    return (
        native.GENERATOR == "native" and type(player) is Equity and isinstance(player.leave_model(rules), LearnedLeave)
    )


def native_turns(
    player: Strategy, rules: Ruleset, lexicon: Dawg, seed: int, *, explore: float = 0.0
) -> list[Turn] | None:
    """The turns of ``played_turns(player, rules, lexicon, seed, explore=explore)``, played in C; None
    when the C loop cannot play this player."""
    if not plays_natively(player, rules):
        return None
    assert isinstance(player, Equity)
    model = player.leave_model(rules)
    assert isinstance(model, LearnedLeave)
    game = Game(rules, lexicon, random.Random(seed))
    chooser = random.Random(f"explore:{seed}")
    alphabet = rules.alphabet
    played = native.extension().selfplay_game(
        lexicon=native.lexicon(lexicon), rules=native.rules(rules), leave=leave_table(model), bag=game.bag,
        racks=tuple((*rack.counts, rack.blanks) for rack in game.racks), current=game.current,
        game_state=game.rng.getstate()[1], choose_state=chooser.getstate()[1], explore=explore,
        width=EXPLORE_WIDTH, swap_cost=player.swap_cost, swap_min_bag=rules.swap_min_bag,
        scoreless_to_end=rules.scoreless_turns_to_end, swap_scoreless=int(game.swap_counts_as_scoreless),
    )  # fmt: skip
    letters = len(alphabet.counts)
    texts: dict[bytes, str] = {}
    turns: list[Turn] = []
    for seat, score, kept in played:
        text = None
        if kept is not None:
            text = texts.get(kept)
            if text is None:
                text = texts[kept] = Rack(alphabet, tuple(kept[:letters]), kept[letters]).text()
        turns.append((seat, score, text))
    return turns


def native_sample_game(
    player: Strategy, rules: Ruleset, lexicon: Dawg, seed: int, *, explore: float = 0.0
) -> list[LeaveSample] | None:
    """``sample_game``'s samples, played in C; None when the C loop cannot play this player."""
    turns = native_turns(player, rules, lexicon, seed, explore=explore)
    return None if turns is None else samples_of(turns)


__all__ = ["native_sample_game", "native_turns", "plays_natively"]
