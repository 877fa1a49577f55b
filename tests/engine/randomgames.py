"""Seeded random games for the move-generator tests: word lists, layouts, racks and positions.

Shared by the oracle test (``test_movegen.py``) and the native-against-Python tests
(``test_native_differential.py``); a game's seed fixes its ruleset, layout, words and moves.
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Iterator, Sequence
from functools import cache

from dictionaries import ENGLISH_WORDS, bundled_path
from engine.board.board import Board
from engine.board.move import Placement
from engine.board.rack import Rack
from engine.rules.layout import BoardLayout
from engine.rules.ruleset import Ruleset

#: One position of a random game: label, ruleset, word list, board, rack, and the game's generator.
GamePosition = tuple[str, Ruleset, set[str], Board, Rack, random.Random]


@cache
def _english_words() -> tuple[str, ...]:
    with gzip.open(bundled_path(ENGLISH_WORDS), "rt", encoding="utf-8") as handle:
        return tuple(w.strip().upper() for w in handle if 2 <= len(w.strip()) <= 8)


def english_sample(rng: random.Random, size: int) -> set[str]:
    """A few hundred real English words, short ones favoured so that boards fill up."""
    words = _english_words()
    twos = [w for w in words if len(w) == 2]
    others = [w for w in words if len(w) > 2]
    short = [w for w in others if len(w) <= 4]
    return (
        set(rng.sample(twos, min(60, len(twos))))
        | set(rng.sample(short, size // 2))
        | set(rng.sample(others, size // 2))
    )


def synthetic_words(rng: random.Random, rules: Ruleset, size: int) -> set[str]:
    """Random strings over a few letters of the ruleset (multi-letter tiles included): a dense lexicon."""
    symbols = list(rules.alphabet.symbols)
    multi = [s for s in symbols if len(s) > 1]
    letters = rng.sample(symbols, 7) + multi
    words: set[str] = set()
    while len(words) < size:
        length = rng.choice((2, 2, 3, 3, 3, 4, 4, 5, 6, 7))
        words.add("".join(rng.choice(letters) for _ in range(length)))
    return words


def random_layout(rng: random.Random) -> BoardLayout:
    """A random premium grid such as the API's random boards (plain start square)."""
    grid = [[rng.choice((0, 0, 0, 0, 1, 2, 3, 4)) for _ in range(15)] for _ in range(15)]
    grid[7][7] = 0
    return BoardLayout.from_api_grid(grid)


def draw_rack(rng: random.Random, rules: Ruleset, letters: list[int], blanks: int) -> Rack:
    """A rack of up to 7 tiles with exactly ``blanks`` blanks, the rest drawn from the word letters."""
    size = rng.randint(max(1, blanks), rules.rack_size)
    return Rack.from_codes(rules.alphabet, [rng.choice(letters) for _ in range(size - blanks)], blanks)


def play_random(rng: random.Random, board: Board, moves: Sequence[Placement]) -> None:
    """Play one of ``moves`` chosen by ``rng`` (from a fixed order, so the game does not depend on the
    generator's order of output)."""
    if moves:
        move = rng.choice(sorted(moves, key=lambda m: (sorted(m.tiles), m.direction)))
        board.place(move.tiles)


def random_games(
    count: int,
    *,
    rulesets: Sequence[int] = (5, 5, 5, 1, 6, 9),
    words: int = 300,
    turns: tuple[int, int] = (3, 10),
    first_game: int = 0,
) -> Iterator[GamePosition]:
    """Seeded positions from random games; yields before each turn, and the caller plays a move
    (``play_random``) before asking for the next position.

    Each game draws a ruleset id from ``rulesets``, the standard board or (30%) a random layout,
    ``words`` words (real English ones for most English games, else synthetic ones) and a number of
    turns in ``turns``; a rack has 0, 1 or 2 blanks."""
    produced = 0
    game = first_game
    while produced < count:
        rng = random.Random(game)
        rules = Ruleset.for_id(rng.choice(rulesets))
        if rng.random() < 0.3:
            rules = rules.with_layout(random_layout(rng))
        if rules.alphabet.symbols == Ruleset.for_id(5).alphabet.symbols and rng.random() < 0.6:
            word_list = english_sample(rng, words)
        else:
            word_list = synthetic_words(rng, rules, words)
        alphabet = rules.alphabet
        letters = sorted({c for w in word_list for c in alphabet.parse_word(w)})
        board = Board(alphabet)
        for turn in range(rng.randint(*turns)):
            blanks = rng.choice((0, 0, 0, 1, 1, 2))
            rack = draw_rack(rng, rules, letters, blanks)
            yield f"game {game} turn {turn} ({rules.code})", rules, word_list, board, rack, rng
            produced += 1
            if produced >= count:
                return
        game += 1
