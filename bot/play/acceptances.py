"""The words a game read proves valid: the opponent's last placement (main and cross words) and the
bot's own accepted placements, worked out from the board the server sends.

>>> from bot.api.models import Game
>>> game = Game.model_validate({"id": 1, "ruleset": 5, "current_player": 0, "is_running": True,
...     "move_count": 2, "updated": 0, "bag_count": 80,
...     "tiles": [[7, 7, "H", False], [8, 7, "I", False], [8, 8, "T", False]],
...     "last_move": {"move_type": "move", "user_id": 8, "move": [[8, 8, "T", False]], "points": 2},
...     "players": [{"id": 7, "position": 0, "score": 5, "rack": ["Q"]}, {"id": 8, "position": 1, "score": 2}]})
>>> opponent_words(game, 7), opponent_words(game, 8)
(['IT'], [])
>>> words_of_move(game, [[9, 7, "S", False]])
['HIS']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.api.models import Game
from bot.play.convert import ConversionError, board_without, placement_from_api, tiles_to_squares
from bot.store.learned import LearnedWords
from bot.store.store import Store
from engine.board.board import Board
from engine.errors import EngineError
from engine.lexicon.dawg import Dawg
from engine.movegen.score import check_placement, word_texts
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK, bag_tile


def _board(game: Game) -> Board:
    """The game's tiles on a board (the premium layout plays no part in which words a move makes)."""
    try:
        alphabet = Ruleset.for_id(game.ruleset).alphabet
        board = Board(alphabet)
        board.place(tiles_to_squares(game.tiles or [], alphabet, game.id))
    except EngineError as exc:
        raise ConversionError(f"game {game.id}: field 'tiles': {exc}") from None
    return board


def opponent_words(game: Game, user_id: int) -> list[str]:
    """The words of the opponent's last move when it was a placement (main word first), else ``[]``.

    The server only lets a valid move through, so each is a word of the game's ruleset. A server that
    says otherwise teaches nothing: the move must be one a player could make on the board before it
    (``engine.movegen.score.check_placement``: a rack's worth of tiles at most, in one line, no gap, touching
    the tiles there or covering the start square), and the words learned are exactly the ones it
    makes there, main and cross words; and the board must be one the ruleset's bag can fill (``fits_the_bag``).
    Raises ConversionError when the game's tiles do not make a board, the move is not such a placement on
    it, or the board holds more of a letter (or of blanks) than the bag."""
    last = game.last_move
    if last is None or last.move_type != "move" or not last.move or last.user_id in (None, user_id):
        return []
    if game.tiles is None:
        return []
    board = _board(game)
    move = placement_from_api(last.move, board.alphabet, game.id, board)
    if any(board.grid[r][c] != tile for r, c, tile in move.tiles):
        raise ConversionError(f"game {game.id}: field 'last_move': its tiles are not on the board")
    try:
        words = check_placement(board_without(board, move.tiles), move, Ruleset.for_id(game.ruleset))
    except EngineError as exc:
        raise ConversionError(f"game {game.id}: field 'last_move': not a move a player could make: {exc}") from None
    fits_the_bag((tile for _, _, tile in board.tiles()), Ruleset.for_id(game.ruleset), game.id)
    return [board.alphabet.format_word([t for _, _, t, _ in word]) for word in words]


def words_of_move(game: Game, tiles: Sequence[Sequence[Any]]) -> list[str]:
    """The words the API tiles of a placement (``[x, y, letter, is_blank]``) make on the game's board
    as it was before the move. Raises ConversionError when they cannot be placed there, or when the board
    with them holds more of a letter (or of blanks) than the ruleset's bag (``fits_the_bag``)."""
    board = _board(game)
    move = placement_from_api([(int(x), int(y), str(letter), bool(blank)) for x, y, letter, blank in tiles],
                              board.alphabet, game.id, board)
    try:
        words = word_texts(board, move)
    except EngineError as exc:
        raise ConversionError(f"game {game.id}: a move of ours: {exc}") from None
    placed = [tile for _, _, tile in board.tiles()] + [tile for _, _, tile in move.tiles]
    fits_the_bag(placed, Ruleset.for_id(game.ruleset), game.id)
    return words


def fits_the_bag(tiles: Iterable[int], rules: Ruleset, game_id: int) -> None:
    """The board tiles of a position (letter codes, ``| BLANK_FLAG`` a blank) could have come from the ruleset's
    bag: no letter there more often than the bag holds it, nor more blanks than its blanks (a blank counts as a
    blank, whatever letter it stands for). ConversionError naming the first that does not fit: a server
    that sends such a board teaches no word."""
    alphabet = rules.alphabet
    counts = Counter(bag_tile(tile) for tile in tiles)
    for code in sorted(counts):
        have = alphabet.blanks if code == BLANK else alphabet.counts[code]
        if counts[code] > have:
            what = "blanks" if code == BLANK else f"{alphabet.symbol(code)} tiles"
            raise ConversionError(
                f"game {game_id}: field 'tiles': the board holds {counts[code]} {what} where the bag of ruleset "
                f"{rules.id} ({rules.code}) holds {have}; no game reaches this position"
            )


#: Seconds in the window of ``LearningBudget.per_day``.
DAY = 24 * 3600


@dataclass(frozen=True)
class LearningBudget:
    """The most words (the bot's lexicon lacked, the server accepted) that one game can teach, and that
    all games together can teach in any 24 hours (the store's clock)."""

    per_game: int = 20
    per_day: int = 200

    def left(self, store: Store, game_id: int) -> int:
        """Words the game may still teach now."""
        in_game = store.learned_count(game_id=game_id)
        in_day = store.learned_count(since=store.clock() - DAY)
        return max(0, min(self.per_game - in_game, self.per_day - in_day))


@dataclass(frozen=True)
class Remembered:
    """What ``remember`` did: the words learned, and those past the budget (not learned, not stored)."""

    learned: tuple[str, ...] = ()
    over_budget: tuple[str, ...] = ()


def remember(
    store: Store,
    learned: LearnedWords,
    lexicon: Dawg,
    game: Game,
    words: Sequence[str],
    source: str,
    budget: LearningBudget,
) -> Remembered:
    """Record words the server accepted in ``game`` (played by ``source``) in the store and in
    ``learned``: those the bot's ``lexicon`` (its current view) has, as proof; those it lacks are
    learned while the ``budget`` lasts (the rest are left out, to be learned from a later game)."""
    new: list[str] = []
    over: list[str] = []
    left: int | None = None
    for word in words:
        known = word in lexicon
        if not known and not store.has_accepted(game.ruleset, word):
            if left is None:
                left = budget.left(store, game.id)
            if left <= 0:
                over.append(word)
                continue
            left -= 1
        learned.accept(game.ruleset, word, in_lexicon=known)
        if store.add_accepted(game.ruleset, word, game.id, source, new=not known) and not known:
            new.append(word)
    return Remembered(tuple(new), tuple(over))
