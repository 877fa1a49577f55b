"""Move generation against the slow oracle, and every generated move against validate/score.

Positions come from seeded random games: at each turn each generator's moves (the C one and the
pure-Python reference) are compared with the oracle's (same set of moves, same scores), every move
is validated and rescored by ``engine.movegen.score``, and then a random one is played. Boards thus hold
blanks, long words and crossings, on the standard board and on random layouts, in several alphabets.
"""

from __future__ import annotations

import gc
import os

import pytest

from engine import native
from engine.board.board import Board
from engine.board.move import Direction, Placement, format_move, parse_move
from engine.board.rack import Rack
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.movegen.score import score, validate
from engine.rules.ruleset import Ruleset
from tests.engine.oracle import Key, oracle_moves
from tests.engine.randomgames import play_random, random_games

#: Positions compared with the oracle in the seeded loop (the issue asks for at least 500).
ORACLE_POSITIONS = 520

#: Both generators are held to the oracle; the C one only where it was built.
NATIVE_MISSING = f"the C generator is not in use: {native.describe()}"
GENERATORS = [pytest.param("native", marks=pytest.mark.skipif(native.NATIVE is None, reason=NATIVE_MISSING)), "python"]


class OracleCache:
    """Per position: the oracle's moves and the (tiles, direction, score) already validated, so that
    the slow oracle and ``validate``/``score`` run once per position for both generators."""

    def __init__(self) -> None:
        self.moves: dict[tuple[str, str, str], dict[Key, int]] = {}
        self.validated: dict[tuple[str, str, str], set[tuple[object, ...]]] = {}


def move_keys(moves: list[Placement]) -> dict[Key, int]:
    keys: dict[Key, int] = {}
    for move in moves:
        key = move.key
        assert key not in keys, f"move {sorted(key)} generated twice"
        assert move.score is not None
        keys[key] = move.score
    return keys


def compare(
    board: Board,
    rack: Rack,
    words: set[str],
    lexicon: Dawg,
    rules: Ruleset,
    label: str,
    generator: str,
    cache: OracleCache,
) -> list[Placement]:
    """Generator and oracle agree exactly; every generated move validates and rescores the same."""
    moves = generate(board, rack, lexicon, rules, generator=generator)
    got = move_keys(moves)
    position = (label, board.text(), rack.text())
    if position not in cache.moves:
        cache.moves[position] = oracle_moves(board, rack, words, rules)
        cache.validated[position] = set()
    want = cache.moves[position]
    missing = [sorted(k) for k in want.keys() - got.keys()]
    extra = [sorted(k) for k in got.keys() - want.keys()]
    assert not missing and not extra, (
        f"{label} ({generator}): rack {rack.text()}\n{board.text()}\nmissing {missing[:5]}\nextra {extra[:5]}"
    )
    wrong = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
    assert not wrong, (
        f"{label} ({generator}): rack {rack.text()}\n{board.text()}\nscores differ (movegen, oracle): {wrong}"
    )
    validated = cache.validated[position]
    for move in moves:
        if move in validated:
            continue
        validate(board, move, rack, lexicon, rules)
        assert score(board, move, rules) == move.score, f"{label} ({generator}): {format_move(move, board)}"
        validated.add(move)
    return moves


@pytest.fixture(scope="module")
def lexicons() -> dict[frozenset[str], Dawg]:
    return {}


@pytest.fixture(scope="module")
def oracle_cache() -> OracleCache:
    return OracleCache()


@pytest.mark.parametrize("generator", GENERATORS)
def test_generator_agrees_with_oracle_on_random_positions(
    generator: str, lexicons: dict[frozenset[str], Dawg], oracle_cache: OracleCache
) -> None:
    checked = moves_seen = with_blanks = nonempty_boards = 0
    for label, rules, words, board, rack, rng in random_games(ORACLE_POSITIONS):
        key = frozenset(words)
        if key not in lexicons:
            lexicons[key] = Dawg.build([rules.alphabet.parse_word(w) for w in words], rules.alphabet)
        moves = compare(board, rack, words, lexicons[key], rules, label, generator, oracle_cache)
        checked += 1
        moves_seen += len(moves)
        with_blanks += rack.blanks > 0
        nonempty_boards += not board.is_empty()
        play_random(rng, board, moves)
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


def test_ci_builds_the_c_generator() -> None:
    """In CI the C extension must be built: else every test of the native generator is skipped unseen."""
    if os.environ.get("CI") != "true":
        pytest.skip("outside CI, an installation without a C compiler is only slower (CI=true is not set)")
    assert native.NATIVE is not None, native.describe()
