"""Self-play that records what leaves are worth: the data the learned leave model is fitted on.

One strategy plays both seats of a game. Each time a player keeps a leave (after a placement or a
swap) and then draws a full rack, the sample is that leave, the points the same player scores on
its next turn and the leave it keeps then (``None`` when no full draw follows it). A leave's worth
is not all in the next score: a player holding a blank often keeps it again, so the fit adds the
value of the next leave to the target (``offline.learning.learn``). Turns whose next move falls in the end game
(empty bag) are not recorded, since the end game values tiles differently, so a game is played only
up to the turn its bag runs out. With probability
``explore`` a player picks one of its top few moves at random instead of the best, so leaves the
strategy would avoid are seen too.

>>> from engine.lexicon.dawg import Dawg
>>> rules = Ruleset.for_id(5)
>>> lexicon = Dawg.build([rules.alphabet.parse_word(w) for w in ["AA", "AB", "BA", "BAA"]], rules.alphabet)
>>> samples = sample_game(Greedy(), rules, lexicon, seed=1)
>>> all(len(s.leave) <= 7 and s.score >= 0 for s in samples)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.board.move import Move, Pass, Placement, Swap
from engine.equity.strategy import Greedy, Situation, Strategy
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import board_tile

__all__ = ["EXPLORE_WIDTH", "Greedy", "LeaveSample", "Turn", "played_turns", "sample_game", "samples_of"]

#: How many of the best moves an exploring player picks from.
EXPLORE_WIDTH = 5


@dataclass(frozen=True)
class LeaveSample:
    """A kept leave (rack text, ``?`` for blanks, ``""`` for nothing kept), the next turn's score and
    the leave kept on that turn (``None`` if no full draw followed it)."""

    leave: str
    score: int
    next_leave: str | None


#: A turn as the samples read it: the seat, its score, and the leave it keeps if a full draw follows it.
Turn = tuple[int, int, "str | None"]


def sample_game(
    player: Strategy, rules: Ruleset, lexicon: Dawg, seed: int, *, explore: float = 0.0
) -> list[LeaveSample]:
    """Play one self-play game (bag seeded by ``seed``) and return its leave samples in turn order."""
    return samples_of(played_turns(player, rules, lexicon, seed, explore=explore))


def played_turns(player: Strategy, rules: Ruleset, lexicon: Dawg, seed: int, *, explore: float = 0.0) -> list[Turn]:
    """The turns of a self-play game up to the one the bag runs out on (no sample follows it)."""
    game = Game(rules, lexicon, random.Random(seed))
    chooser = random.Random(f"explore:{seed}")
    turns: list[Turn] = []
    while not game.is_over and game.bag:
        seat = game.current
        rack = game.rack
        situation = Situation(
            game.board,
            rack,
            rules,
            lexicon,
            tuple(game.unseen(seat)),
            len(game.bag),
            (game.scores[seat], game.scores[1 - seat]),
        )
        ranked = player.best(situation, EXPLORE_WIDTH)
        choice = _pick(ranked, chooser, explore)
        leave: str | None = None  # what this move keeps, if a full draw follows
        if isinstance(choice, Placement):
            if len(game.bag) >= len(choice.tiles):
                leave = rack.leave([t for _, _, t in choice.tiles]).text()
        elif isinstance(choice, Swap):
            leave = rack.leave([board_tile(t) for t in choice.tiles]).text()
        turns.append((seat, choice.score or 0, leave))
        game.play(choice)
    return turns


def samples_of(turns: list[Turn]) -> list[LeaveSample]:
    """The samples of a game's turns: each leave kept, the score of its player's next turn and what that keeps."""
    pending: list[str | None] = [None, None]  # per seat: the leave kept on its last turn, if recordable
    samples: list[LeaveSample] = []
    for seat, score, leave in turns:
        kept = pending[seat]
        if kept is not None:
            samples.append(LeaveSample(kept, score, leave))
        pending[seat] = leave
    return samples


def _pick(ranked: list[Move], chooser: random.Random, explore: float) -> Move:
    """The best move, or with probability ``explore`` one of the best few (a pass only if nothing else)."""
    if explore and chooser.random() < explore:
        options = [m for m in ranked[:EXPLORE_WIDTH] if not isinstance(m, Pass)]
        if options:
            return chooser.choice(options)
    return ranked[0]
