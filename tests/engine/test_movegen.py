"""Move generation against the slow oracle, and every generated move against validate/score.

Positions come from seeded random games: at each turn the generator's moves are compared with
the oracle's (same set of moves, same scores), every move is validated and rescored by
``engine.score``, and then a random one is played. Boards thus hold blanks, long words and
crossings, on the standard board and on random layouts, in several alphabets.
"""

from __future__ import annotations

import gc
import gzip
import random
from collections.abc import Iterator
from functools import cache

import pytest

from dictionaries import ENGLISH_WORDS, bundled_path
from engine.board import Board
from engine.dawg import Dawg
from engine.layout import BoardLayout
from engine.move import Direction, Placement, format_move, parse_move
from engine.movegen import generate
from engine.rack import Rack
from engine.rules import Ruleset
from engine.score import score, validate
from tests.engine.oracle import Key, oracle_moves

#: Positions compared with the oracle in the seeded loop (the issue asks for at least 500).
ORACLE_POSITIONS = 520


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


def move_keys(moves: list[Placement]) -> dict[Key, int]:
    keys: dict[Key, int] = {}
    for move in moves:
        key = move.key
        assert key not in keys, f"move {sorted(key)} generated twice"
        assert move.score is not None
        keys[key] = move.score
    return keys


def compare(board: Board, rack: Rack, words: set[str], lexicon: Dawg, rules: Ruleset, label: str) -> list[Placement]:
    """Generator and oracle agree exactly; every generated move validates and rescores the same."""
    moves = generate(board, rack, lexicon, rules)
    got = move_keys(moves)
    want = oracle_moves(board, rack, words, rules)
    missing = [sorted(k) for k in want.keys() - got.keys()]
    extra = [sorted(k) for k in got.keys() - want.keys()]
    assert not missing and not extra, (
        f"{label}: rack {rack.text()}\n{board.text()}\nmissing {missing[:5]}\nextra {extra[:5]}"
    )
    wrong = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
    assert not wrong, f"{label}: rack {rack.text()}\n{board.text()}\nscores differ (movegen, oracle): {wrong}"
    for move in moves:
        validate(board, move, rack, lexicon, rules)
        assert score(board, move, rules) == move.score, f"{label}: {format_move(move, board)}"
    return moves


def random_games(count: int) -> Iterator[tuple[str, Ruleset, set[str], Board, Rack, random.Random]]:
    """Seeded positions from random games; yields before each turn, then plays a random move."""
    produced = 0
    game = 0
    while produced < count:
        rng = random.Random(game)
        rules = Ruleset.for_id(rng.choice((5, 5, 5, 1, 6, 9)))
        if rng.random() < 0.3:
            rules = rules.with_layout(random_layout(rng))
        if rules.alphabet.symbols == Ruleset.for_id(5).alphabet.symbols and rng.random() < 0.6:
            words = english_sample(rng, 300)
        else:
            words = synthetic_words(rng, rules, 300)
        alphabet = rules.alphabet
        letters = sorted({c for w in words for c in alphabet.parse_word(w)})
        board = Board(alphabet)
        for turn in range(rng.randint(3, 10)):
            blanks = rng.choice((0, 0, 0, 1, 1, 2))
            rack = draw_rack(rng, rules, letters, blanks)
            yield f"game {game} turn {turn} ({rules.code})", rules, words, board, rack, rng
            produced += 1
            if produced >= count:
                return
        game += 1


@pytest.fixture(scope="module")
def lexicons() -> dict[frozenset[str], Dawg]:
    return {}


def test_generator_agrees_with_oracle_on_random_positions(lexicons: dict[frozenset[str], Dawg]) -> None:
    checked = moves_seen = with_blanks = nonempty_boards = 0
    for label, rules, words, board, rack, rng in random_games(ORACLE_POSITIONS):
        key = frozenset(words)
        if key not in lexicons:
            lexicons[key] = Dawg.build([rules.alphabet.parse_word(w) for w in words], rules.alphabet)
        moves = compare(board, rack, words, lexicons[key], rules, label)
        checked += 1
        moves_seen += len(moves)
        with_blanks += rack.blanks > 0
        nonempty_boards += not board.is_empty()
        if moves:
            move = rng.choice(sorted(moves, key=lambda m: (sorted(m.tiles), m.direction)))
            board.place(move.tiles)
    assert checked == ORACLE_POSITIONS
    # the loop must really have exercised blanks, full boards and many moves
    assert with_blanks > ORACLE_POSITIONS // 3
    assert nonempty_boards > ORACLE_POSITIONS // 2
    assert moves_seen > 50 * ORACLE_POSITIONS


def test_counting_convention_on_the_empty_board() -> None:
    """Across and down forms of a word on the empty board are two moves; a blank's letters are moves each."""
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    lexicon = Dawg.build([en.parse_word(w) for w in ("AT", "TA")], en)
    moves = generate(Board(en), Rack.from_text("AT", en), lexicon, rules)
    # AT and TA, each across and down, each covering the centre from either side: 2 words * 2 dirs * 2 offsets
    assert len(moves) == 8
    assert {m.direction for m in moves} == {Direction.ACROSS, Direction.DOWN}
    with_blank = generate(Board(en), Rack.from_text("A?", en), lexicon, rules)
    # the blank must be the T of AT and TA, so again 8 moves, each with one blank
    assert len(with_blank) == 8
    assert all(sum(t & 64 != 0 for _, _, t in m.tiles) == 1 for m in with_blank)


def test_single_tile_forming_two_words_is_one_move() -> None:
    """A on 8H and on 9I (diagonal); a T between them makes TA and AT at once: one move, both scored."""
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    lexicon = Dawg.build([en.parse_word(w) for w in ("AT", "TA")], en)
    board = Board(en)
    board.place([(7, 7, en.code("A")), (8, 8, en.code("A"))])
    moves = generate(board, Rack.from_text("T", en), lexicon, rules)
    t = en.code("T")
    by_square = {m.tiles: m.score for m in moves}
    assert len(moves) == len(by_square) == 6
    # between the two A's: across TA + down AT (row 9, col H) and across AT + down TA (row 8, col I)
    assert by_square[((8, 7, t),)] == 4
    assert by_square[((7, 8, t),)] == 4
    assert {sq for (sq,) in by_square} == {(8, 7, t), (7, 8, t), (6, 7, t), (7, 6, t), (9, 8, t), (8, 9, t)}


def test_blank_letters_are_separate_moves() -> None:
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    words = ["AT", "IT", "UT"]
    lexicon = Dawg.build([en.parse_word(w) for w in words], en)
    board = Board(en)
    board.place(parse_move("8H AT", board).tiles)
    moves = generate(board, Rack.from_text("?", en), lexicon, rules)
    texts = sorted(format_move(m, board) for m in moves)
    # the blank before T in column I makes aT/iT/uT down; before (A)T across is impossible (no 3-letter words)
    assert "I7 i(T)" in texts and "I7 u(T)" in texts and "I7 a(T)" in texts
    assert len(texts) == len(set(texts))


def test_empty_rack_and_no_fit() -> None:
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    lexicon = Dawg.build([en.parse_word("QI")], en)
    assert generate(Board(en), Rack.from_text("", en), lexicon, rules) == []
    assert generate(Board(en), Rack.from_text("ZZZ", en), lexicon, rules) == []


def test_mismatched_alphabets_are_refused() -> None:
    en, nb = Ruleset.for_id(5), Ruleset.for_id(1)
    lexicon = Dawg.build([nb.alphabet.parse_word("ÆR")], nb.alphabet)
    with pytest.raises(ValueError, match="alphabet"):
        generate(Board(en.alphabet), Rack.from_text("AB", en.alphabet), lexicon, en)


def test_garbage_collector_is_left_as_found() -> None:
    """generate pauses the cyclic collector while it runs; afterwards (or after an error) it is as before."""
    rules = Ruleset.for_id(5)
    en = rules.alphabet
    lexicon = Dawg.build([en.parse_word(w) for w in ["AT", "TA"]], en)
    other = Ruleset.for_id(1)
    was_enabled = gc.isenabled()
    try:
        for enabled in (True, False):
            if enabled:
                gc.enable()
            else:
                gc.disable()
            assert len(generate(Board(en), Rack.from_text("AT", en), lexicon, rules)) == 8
            assert gc.isenabled() is enabled
            with pytest.raises(ValueError):
                generate(Board(other.alphabet), Rack.from_text("AT", en), lexicon, rules)
            assert gc.isenabled() is enabled
    finally:
        if was_enabled:
            gc.enable()
        else:
            gc.disable()
