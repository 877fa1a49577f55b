"""A whole local game: the bag, two racks, turns, and the end of the game, as the rules say.

Players act in turn through ``place``, ``swap`` and ``pass_turn``; either may ``resign`` at any
time. Illegal actions raise the engine's errors (``IllegalMoveError`` with the reason,
``GameOverError`` once the game has ended) and change nothing.

>>> import random
>>> from engine.lexicon.dawg import Dawg
>>> from engine.rules.ruleset import Ruleset
>>> rules = Ruleset.for_id(5)
>>> lexicon = Dawg.build([rules.alphabet.parse_word(w) for w in ["AA", "AB"]], rules.alphabet)
>>> game = Game(rules, lexicon, random.Random(1))
>>> len(game.bag), [len(r) for r in game.racks], game.current
(90, [7, 7], 0)
>>> game.pass_turn().action
Pass(score=0)
>>> game.current
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from copy import copy as shallow_copy
from dataclasses import dataclass

from engine.board.board import Board
from engine.board.move import Move, Pass, Placement, Swap
from engine.board.rack import Rack
from engine.errors import GameOverError, IllegalMoveError
from engine.lexicon.dawg import Dawg
from engine.movegen.score import score, validate, word_texts
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK, bag_tile, board_tile

PLAYERS = 2

#: Why a game ended.
OUT = "out"  # the bag was empty and a player emptied the rack
SCORELESS = "scoreless"  # too many scoreless turns in a row
RESIGNED = "resigned"


@dataclass(frozen=True)
class Resign:
    """A player gave up."""

    score: int = 0


@dataclass(frozen=True)
class Turn:
    """One action in the history: who, what, the points it scored, its words and the tiles drawn."""

    player: int
    action: Move | Resign
    points: int
    words: tuple[str, ...] = ()
    drawn: tuple[int, ...] = ()


class Game:
    """Two players, a seeded bag, racks, scores and the turn; the one mutable object is the board."""

    def __init__(
        self,
        rules: Ruleset,
        lexicon: Dawg,
        rng: random.Random,
        *,
        first_player: int = 0,
        swap_counts_as_scoreless: bool = True,
    ) -> None:
        if first_player not in range(PLAYERS):
            raise ValueError(f"first_player must be 0 or 1, got {first_player!r}")
        self.rules = rules
        self.lexicon = lexicon
        self.rng = rng
        self.swap_counts_as_scoreless = swap_counts_as_scoreless
        alphabet = rules.alphabet
        self.board = Board(alphabet)
        self.bag: list[int] = [code for code, n in enumerate(alphabet.counts) for _ in range(n)]
        self.bag += [BLANK] * alphabet.blanks
        rng.shuffle(self.bag)
        self.racks = [Rack.from_codes(alphabet, []) for _ in range(PLAYERS)]
        self.scores = [0] * PLAYERS
        self.current = first_player
        self.scoreless_turns = 0
        self.history: list[Turn] = []
        self.end_reason: str | None = None
        self.resigned: int | None = None
        #: Points each player gained or lost when the game ended (rack penalties and bonus).
        self.end_adjustments = [0] * PLAYERS
        for player in (first_player, 1 - first_player):
            self.racks[player], _ = self._drawn(self.racks[player])

    # -- state -----------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has ended, for whatever reason."""
        return self.end_reason is not None

    @property
    def rack(self) -> Rack:
        """The rack of the player to move."""
        return self.racks[self.current]

    def winner(self) -> int | None:
        """The winning player once the game is over (None for a draw or a running game)."""
        if not self.is_over:
            return None
        if self.resigned is not None:
            return 1 - self.resigned
        if self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def unseen(self, player: int) -> list[int]:
        """Tiles the player cannot see: the bag and the opponent's rack (``BLANK`` for blanks)."""
        return sorted(self.bag + self.racks[1 - player].bag_tiles())

    def all_tiles(self) -> list[int]:
        """Every tile of the game wherever it is (bag, racks, board): always the ruleset's full set."""
        tiles = list(self.bag)
        for rack in self.racks:
            tiles += rack.bag_tiles()
        tiles += [bag_tile(t) for _, _, t in self.board.tiles()]
        return sorted(tiles)

    def copy(self) -> Game:
        """An independent game in the same state (board, bag, racks, scores, turn, history), sharing the rules
        and lexicon: to play on from here without touching this one (the board's undo history is not copied)."""
        other = shallow_copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.board = self.board.copy()
        other.bag = list(self.bag)
        other.racks = list(self.racks)
        other.scores = list(self.scores)
        other.history = list(self.history)
        other.end_adjustments = list(self.end_adjustments)
        return other

    # -- actions ---------------------------------------------------------------------------------

    def place(self, move: Placement) -> Turn:
        """Play a placement for the player to move; raises IllegalMoveError saying why it is not legal."""
        self._check_running()
        rack = self.rack
        validate(self.board, move, rack, self.lexicon, self.rules)
        points = score(self.board, move, self.rules)
        words = tuple(word_texts(self.board, move))
        self.board.place(move.tiles)
        left = rack.leave([t for _, _, t in move.tiles])
        self.racks[self.current], drawn = self._drawn(left)
        self.scores[self.current] += points
        self.scoreless_turns = 0
        return self._record(Turn(self.current, move.with_score(points), points, words, drawn))

    def swap(self, tiles: Sequence[int]) -> Turn:
        """Exchange rack tiles (letter codes, ``BLANK`` for a blank) with the bag; needs a full enough bag."""
        self._check_running()
        if not tiles:
            raise IllegalMoveError("a swap needs at least one tile")
        if len(self.bag) < self.rules.swap_min_bag:
            raise IllegalMoveError(
                f"swapping needs at least {self.rules.swap_min_bag} tiles in the bag, {len(self.bag)} left"
            )
        rack = self.rack
        left = rack.leave([board_tile(t) for t in tiles])  # names a tile the rack lacks
        refilled, drawn = self._drawn(left)
        self.bag.extend(tiles)
        self.rng.shuffle(self.bag)
        self.racks[self.current] = refilled
        if self.swap_counts_as_scoreless:
            self.scoreless_turns += 1
        else:
            self.scoreless_turns = 0
        return self._record(Turn(self.current, Swap(tuple(tiles)), 0, (), drawn))

    def play(self, move: Move) -> Turn:
        """Play any move for the player to move: a placement, a swap or a pass."""
        if isinstance(move, Placement):
            return self.place(move)
        if isinstance(move, Swap):
            return self.swap(list(move.tiles))
        return self.pass_turn()

    def pass_turn(self) -> Turn:
        """Give up the turn; three scoreless turns in a row end the game."""
        self._check_running()
        self.scoreless_turns += 1
        return self._record(Turn(self.current, Pass(), 0))

    def resign(self, player: int | None = None) -> Turn:
        """The player (default: the one to move) gives up; the other wins."""
        self._check_running()
        who = self.current if player is None else player
        if who not in range(PLAYERS):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        self.resigned = who
        self.end_reason = RESIGNED
        turn = Turn(who, Resign(), 0)
        self.history.append(turn)
        return turn

    # -- helpers ---------------------------------------------------------------------------------

    def _check_running(self) -> None:
        if self.is_over:
            raise GameOverError(f"the game is over ({self.end_reason})")

    def _drawn(self, rack: Rack) -> tuple[Rack, tuple[int, ...]]:
        """The rack refilled from the bag as far as it goes, and the tiles drawn."""
        count = min(self.rules.rack_size - len(rack), len(self.bag))
        drawn = tuple(self.bag.pop() for _ in range(count))
        return rack.drawn(drawn), drawn

    def _record(self, turn: Turn) -> Turn:
        """Add the turn to the history, end the game if it is over, else pass the turn on."""
        self.history.append(turn)
        mover = turn.player
        if not self.bag and not len(self.racks[mover]):
            bonus = self.racks[1 - mover].points()
            self._end(OUT, {mover: bonus, 1 - mover: -bonus})
        elif self.scoreless_turns >= self.rules.scoreless_turns_to_end:
            self._end(SCORELESS, {p: -self.racks[p].points() for p in range(PLAYERS)})
        else:
            self.current = 1 - self.current
        return turn

    def _end(self, reason: str, adjustments: dict[int, int]) -> None:
        self.end_reason = reason
        for player, delta in adjustments.items():
            self.end_adjustments[player] = delta
            self.scores[player] += delta
