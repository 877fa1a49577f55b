"""Scoring and validation: the worked examples of wordfeud-rules.md §3.2, the rules of §3.1 and
the reasons of §3.3.

Coordinates in the notes are (x = column, y = row); engine squares are (row, col), so the
helpers below take (x, y) like the notes and convert: (x, y) -> (row=y, col=x).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from engine.board.board import EMPTY, Board
from engine.board.move import Direction, Placement
from engine.board.rack import Rack
from engine.errors import IllegalMoveError, InvalidMoveError
from engine.lexicon.dawg import Dawg
from engine.movegen.score import score, scored, validate, word_texts, words_formed
from engine.rules.layout import BoardLayout
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import LETTER_MASK

ACROSS, DOWN = Direction.ACROSS, Direction.DOWN


def position(rules: Ruleset, tiles: Iterable[tuple[int, int, str]] = ()) -> Board:
    """A board holding one tile per (x, y, symbol); lower case = blank."""
    board = Board(rules.alphabet)
    placed = [(y, x, rules.alphabet.parse_tiles(symbol)[0]) for x, y, symbol in tiles]
    if placed:
        board.place(placed)
    return board


def from_rows(rules: Ruleset, rows: list[str]) -> Board:
    return Board.from_text("\n".join(rows), rules.alphabet)


def play(board: Board, x: int, y: int, direction: Direction, word: str) -> Placement:
    """The placement that spells ``word`` from (x, y): new tiles on empty squares only; squares
    already holding a tile must hold the word's letter there."""
    tiles = board.alphabet.parse_tiles(word)
    dx, dy = (1, 0) if direction is ACROSS else (0, 1)
    new = []
    for i, tile in enumerate(tiles):
        row, col = y + dy * i, x + dx * i
        on_board = board[row, col]
        if on_board == EMPTY:
            new.append((row, col, tile))
        else:
            assert on_board & LETTER_MASK == tile & LETTER_MASK, f"{word} does not fit at ({x}, {y})"
    return Placement(tuple(new), direction)


def lexicon(rules: Ruleset, *words: str) -> Dawg:
    return Dawg.build([rules.alphabet.parse_word(w) for w in words], rules.alphabet)


def rack(rules: Ruleset, text: str) -> Rack:
    return Rack.from_text(text, rules.alphabet)


def check(
    board: Board,
    move: Placement,
    rack_text: str,
    words: list[str],
    expected: int,
    *,
    rules: Ruleset,
    formed: list[str] | None = None,
) -> None:
    """The move is legal with exactly ``words`` in the lexicon, forms ``formed`` (default: those
    same words, in any order) and scores ``expected``."""
    validate(board, move, rack(rules, rack_text), lexicon(rules, *words), rules)
    assert sorted(word_texts(board, move)) == sorted(words if formed is None else formed)
    assert score(board, move, rules) == expected


EN = Ruleset.for_id(5)
NO = Ruleset.for_id(1)
NL = Ruleset.for_id(2)


# -- §3.2 worked examples -------------------------------------------------------------------------


def test_hoentje_bingo() -> None:
    # NL, empty board, HOENTJE (7,7,→): (4+1+1+1+2+4+1)=14 ×2 (DW at 11,7) = 28 + 40 = 68
    board = position(NL)
    move = play(board, 7, 7, ACROSS, "HOENTJE")
    assert len(move.tiles) == 7
    check(board, move, "HOENTJE", ["HOENTJE"], 68, rules=NL)


def test_heimlana_136() -> None:
    # NO, E at (8,10): 16 × 2 (DW 10,10) × 3 (TW 14,10) = 96 + 40
    board = position(NO, [(8, 10, "E")])
    move = play(board, 7, 10, ACROSS, "HEIMLÅNA")
    check(board, move, "HIMLANÅ", ["HEIMLÅNA"], 136, rules=NO)


def test_heimlana_139_with_blank_cross_word() -> None:
    # NO, E (8,10) and a blank A at (7,9): 96 + cross "AH" (0+3) + 40
    board = position(NO, [(8, 10, "E"), (7, 9, "a")])
    move = play(board, 7, 10, ACROSS, "HEIMLÅNA")
    check(board, move, "HIMLANÅ", ["HEIMLÅNA", "AH"], 139, rules=NO)
    assert word_texts(board, move) == ["HEIMLÅNA", "AH"]  # main word first


def test_heimlana_148_letter_premium_in_both_words() -> None:
    # NO, H (7,10), B (8,9): main 17×6 = 102 (E on DL) + cross "BE" 4+1·2 = 6 + 40
    board = position(NO, [(7, 10, "H"), (8, 9, "B")])
    move = play(board, 7, 10, ACROSS, "HEIMLÅNA")
    check(board, move, "EIMLANÅ", ["HEIMLÅNA", "BE"], 148, rules=NO)


def test_heimlana_154_word_premium_in_both_words() -> None:
    # NO, H (7,10), Ø (10,9): 102 + cross "ØM" (4+2)×2 = 12 + 40
    board = position(NO, [(7, 10, "H"), (10, 9, "Ø")])
    move = play(board, 7, 10, ACROSS, "HEIMLÅNA")
    check(board, move, "EIMLANÅ", ["HEIMLÅNA", "ØM"], 154, rules=NO)


# ABEL (3,6,↓) = 32, "ABEL 18 + cross AQUA 14" (NL). Reasoning for the position:
# * ABEL down from (3,6) covers (3,6) plain, (3,7) DW, (3,8) plain, (3,9) plain; with all four
#   tiles new that is (A1 + B4 + E1 + L3) × 2 = 18, as stated.
# * AQUA alone is A1 + Q10 + U2 + A1 = 14, so the cross word gets no premium at all: its new
#   tile is on a plain square and no other of its tiles is new. The only letter ABEL shares
#   with AQUA is A, so the cross word runs across row 6 through ABEL's A at (3,6), which is
#   plain. AQUA starting at x=3 puts Q U A already on the board at (4,6), (5,6), (6,6).
# * No other ABEL tile may touch a tile across (or it would make a second cross word), and
#   (3,5) and (3,10) must be empty so the main word is exactly ABEL.
# The row "    qua   ene  " (y=6) of the source's TEST_STATE (jensanjo/wordfeud-solver,
# lib/src/board.rs) has exactly Q U A at x = 4..6, so the full position is tested as well.
TEST_STATE = [
    "    t     c   f",
    "    e    he   o",
    "    r   bis g k",
    "    u  bol te v",
    "    gepof dimme",
    "      la vree e",
    "    qua   ene  ",
    "      Spoelen  ",
    "     s a   n   ",
    "     c d we    ",
    "     hadden    ",
    "    nu o   y   ",
    "  wrat siJzen  ",
    "    k     os   ",
    "   zerk   g    ",
]


def _solver_rows(rows: list[str]) -> list[str]:
    """The solver writes empty squares as spaces, tiles in lower case and blanks in upper case."""
    return [row.replace(" ", ".").swapcase() for row in rows]


def test_abel_minimal_position() -> None:
    board = position(NL, [(4, 6, "Q"), (5, 6, "U"), (6, 6, "A")])
    move = play(board, 3, 6, DOWN, "ABEL")
    assert len(move.tiles) == 4
    check(board, move, "ABEL", ["ABEL", "AQUA"], 18 + 14, rules=NL)
    assert word_texts(board, move) == ["ABEL", "AQUA"]


def test_abel_in_the_source_position() -> None:
    board = from_rows(NL, _solver_rows(TEST_STATE))
    assert board[7, 6] == NL.alphabet.parse_tiles("s")[0]  # the solver's upper-case S is a blank
    move = play(board, 3, 6, DOWN, "ABEL")
    assert len(move.tiles) == 4
    check(board, move, "ABEL", ["ABEL", "AQUA"], 32, rules=NL)


def test_zn() -> None:
    # NL, HULPEN at x 7..12 on y 7; ZN (12,6,→): ZN 11 (Z on DL) + vertical ZN 11
    board = position(NL, [(7 + i, 7, letter) for i, letter in enumerate("HULPEN")])
    move = play(board, 12, 6, ACROSS, "ZN")
    assert [(r, c) for r, c, _ in move.tiles] == [(6, 12), (6, 13)]
    check(board, move, "ZN", ["ZN"], 22, rules=NL, formed=["ZN", "ZN"])  # the across word and the down word


def test_hello_minimal_position() -> None:
    # EN (5): H, E on row 4 at x = 10, 11; L L O new at x = 12..14:
    # (4+1+1+1+1) = 8 × 3 (TW 14,4) = 24; the DW at (10,4) is under the old H.
    board = position(EN, [(10, 4, "H"), (11, 4, "E")])
    move = play(board, 10, 4, ACROSS, "HELLO")
    check(board, move, "LLO", ["HELLO"], 24, rules=EN)


def test_onegame_replay() -> None:
    # The real game of pierrei/WordFeudJavaAPI onegame.json (ruleset 5, board 0), in the order
    # reconstructed in the notes §3.2: TIRES 10, HOPE 28, AXE/HE 31, HELLO 24; the two players'
    # stored scores are 41 (TIRES + AXE) and 52 (HOPE + HELLO).
    lex = lexicon(EN, "TIRES", "HOPE", "AXE", "HE", "HELLO")
    board = Board(EN.alphabet)
    turns = [
        (7, 7, ACROSS, "TIRES", 10),
        (10, 4, DOWN, "HOPE", 28),
        (11, 2, DOWN, "AXE", 31),
        (10, 4, ACROSS, "HELLO", 24),
    ]
    totals = [0, 0]
    for turn, (x, y, direction, word, points) in enumerate(turns):
        move = play(board, x, y, direction, word)
        letters = EN.alphabet.format_word([t for _, _, t in move.tiles])
        validate(board, move, rack(EN, letters), lex, EN)
        assert score(board, move, EN) == points, word
        totals[turn % 2] += points
        board.place(move.tiles)
    assert totals == [41, 52]
    stored = [
        (11, 2, "A"),
        (11, 3, "X"),
        (10, 4, "H"),
        (11, 4, "E"),
        (12, 4, "L"),
        (13, 4, "L"),
        (14, 4, "O"),
        (10, 5, "O"),
        (10, 6, "P"),
        (7, 7, "T"),
        (8, 7, "I"),
        (9, 7, "R"),
        (10, 7, "E"),
        (11, 7, "S"),
    ]  # the game's "tiles" list, [x, y, letter]
    assert sorted(board.tiles()) == sorted((y, x, EN.alphabet.code(s)) for x, y, s in stored)


# jensanjo/wordfeud-ocr lib/tests/screenshot_english.expect (the screenshot says "VEGA gelegd
# (27p)"); the OCR also writes tiles in lower case and blanks in upper case.
SCREENSHOT_ENGLISH = [
    "...............",
    "...............",
    "............z..",
    "............if.",
    ".........dental",
    "..........v.ex.",
    ".......h..e....",
    "......hedonIc..",
    "....r..d..l....",
    "....o..o..y....",
    "....brent......",
    "....o..i..v....",
    ".gaits.S..e....",
    "....i..munged..",
    "....c.....a....",
]


def test_vega() -> None:
    # EN (5), VEGA (10,11,↓): (4+1+3+1) = 9 × 3 (TW 10,14) = 27. The G at (10,13) belongs to
    # MUNGED, so V, E and A are the new tiles; take them off the final position.
    after = from_rows(EN, _solver_rows(SCREENSHOT_ENGLISH))
    rows = [list(row) for row in _solver_rows(SCREENSHOT_ENGLISH)]
    for y in (11, 12, 14):
        rows[y][10] = "."
    before = from_rows(EN, ["".join(row) for row in rows])
    move = play(before, 10, 11, DOWN, "VEGA")
    assert [(r, c) for r, c, _ in move.tiles] == [(11, 10), (12, 10), (14, 10)]
    check(before, move, "AEVQSUM", ["VEGA"], 27, rules=EN)
    before.place(move.tiles)
    assert before == after


def test_vega_minimal_position() -> None:
    board = position(EN, [(7 + i, 13, letter) for i, letter in enumerate("MUNGED")])
    move = play(board, 10, 11, DOWN, "VEGA")
    check(board, move, "VEA", ["VEGA"], 27, rules=EN)


# -- §3.1 scoring rules ---------------------------------------------------------------------------


def _layout(**squares: int) -> BoardLayout:
    """A plain board with premiums at the named squares, e.g. ``r7c8=1`` (API codes 1 DL .. 4 TW)."""
    grid = [[0] * 15 for _ in range(15)]
    for name, code in squares.items():
        row, col = name[1:].split("c")
        grid[int(row)][int(col)] = code
    return BoardLayout.from_api_grid(grid)


def test_word_premium_only_under_new_tiles() -> None:
    # CAT with its T on the DW at (11,7); adding S at (12,7) scores C4 A1 T1 S1 = 7, not 14
    board = position(EN, [(9, 7, "C"), (10, 7, "A"), (11, 7, "T")])
    move = play(board, 9, 7, ACROSS, "CATS")
    check(board, move, "S", ["CATS"], 7, rules=EN)


def test_letter_premium_only_under_new_tiles() -> None:
    # AX with its X on the DL at (14,7); T in front at (12,7) scores 1 + 1 + 8 = 10, not 18
    board = position(EN, [(13, 7, "A"), (14, 7, "X")])
    move = play(board, 12, 7, ACROSS, "TAX")
    check(board, move, "T", ["TAX"], 10, rules=EN)


def test_premium_under_new_tile_counts_in_cross_word_too() -> None:
    # rule 4: on a board whose only premium is a TW at (x=8, y=6), with an A at (x=8, y=7),
    # ZO across from (8,6) puts the Z on the TW: main word ZO (10+1)×3 = 33, and the cross word
    # ZA (down, Z new on the TW, A old) (10+1)×3 = 33
    rules = EN.with_layout(_layout(r6c8=4))
    board = position(rules, [(8, 7, "A")])
    move = play(board, 8, 6, ACROSS, "ZO")
    check(board, move, "ZO", ["ZO", "ZA"], 66, rules=rules)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("CAT", (4 + 1 * 2 + 1) * 2),  # A on the DL doubled, T on the DW doubles the word: 14
        ("CaT", (4 + 0 + 1) * 2),  # blank on the DL: 0 × 2 = 0, the DW still applies: 10
        ("CAt", (4 + 1 * 2 + 0) * 2),  # blank on the DW: worth 0 but still doubles the word: 12
        ("caT", (0 + 0 + 1) * 2),  # two blanks, one of them on the DL: 2
    ],
)
def test_blank_scores_zero_but_word_premium_applies(word: str, expected: int) -> None:
    rules = EN.with_layout(_layout(r7c8=1, r7c9=3))  # DL at (x=8, y=7), DW at (x=9, y=7)
    board = position(rules)
    move = play(board, 7, 7, ACROSS, word)
    check(board, move, "CAT??", ["CAT"], expected, rules=rules)


def test_blank_on_standard_dl_and_dw() -> None:
    # Standard board row 4: DW x=4, DL x=6, DL x=8, DW x=10. ABLE down x=7, y=4..7 was the first
    # move; ROTATES across y=4 from x=4 uses its A. With a blank t on the DL at x=6:
    # R1 + O1 + t0 + A1 + T1·2 + E1 + S1 = 7, × 2 × 2 = 28.
    board = position(EN, [(7, 4 + i, letter) for i, letter in enumerate("ABLE")])
    move = play(board, 4, 4, ACROSS, "ROtATES")
    check(board, move, "ROTES?", ["ROTATES"], 28, rules=EN)


def test_double_double_is_times_four() -> None:
    # ROTATES across y=4, x=4..10: DW at x=4 and x=10, DL at x=6 and x=8, A already on the board:
    # (1 + 1 + 2 + 1 + 2 + 1 + 1) = 9 × 4 = 36; six new tiles, so no bingo
    lex = lexicon(EN, "ABLE", "ROTATES")
    board = position(EN)
    first = play(board, 7, 4, DOWN, "ABLE")
    validate(board, first, rack(EN, "ABLE"), lex, EN)
    assert score(board, first, EN) == 1 + 4 + 1 + 1  # no premium on x=7, y=4..7
    board.place(first.tiles)
    move = play(board, 4, 4, ACROSS, "ROTATES")
    assert len(move.tiles) == 6
    check(board, move, "ROTTES", ["ROTATES"], 36, rules=EN)


@pytest.mark.parametrize(
    ("squares", "factor"),
    [({"r7c7": 3, "r7c9": 3}, 4), ({"r7c7": 3, "r7c9": 4}, 6), ({"r7c7": 4, "r7c9": 4}, 9), ({"r7c8": 4}, 3)],
)
def test_word_multipliers_multiply(squares: dict[str, int], factor: int) -> None:
    rules = EN.with_layout(_layout(**squares))
    board = position(rules)
    move = play(board, 7, 7, ACROSS, "CAT")
    check(board, move, "CAT", ["CAT"], (4 + 1 + 1) * factor, rules=rules)


def test_bingo_only_for_seven_tiles() -> None:
    board = position(EN)
    seven = play(board, 7, 7, ACROSS, "RETAINS")  # 7 × 1, DW at x=11: 14, + 40
    six = play(board, 7, 7, ACROSS, "RETAIN")  # 6 × 1, DW at x=11: 12
    check(board, seven, "RETAINS", ["RETAINS"], 54, rules=EN)
    check(board, six, "RETAINS", ["RETAIN"], 12, rules=EN)
    # seven letters but only six new tiles: no bingo either
    board.place([(7, 7, EN.alphabet.code("R"))])
    six_new = play(board, 7, 7, ACROSS, "RETAINS")
    assert len(six_new.tiles) == 6
    check(board, six_new, "ETAINS", ["RETAINS"], 14, rules=EN)


def test_single_tile_makes_words_both_ways() -> None:
    # a single S hooking CAT (across) and DOG (down) at once; direction of the move is irrelevant
    board = position(EN, [(7, 7, "C"), (8, 7, "A"), (9, 7, "T"), (10, 4, "D"), (10, 5, "O"), (10, 6, "G")])
    for direction in (ACROSS, DOWN):
        move = Placement(((7, 10, EN.alphabet.code("S")),), direction)
        # CATS 4+1+1+1 = 7, DOGS 2+1+3+1 = 7; (10,7) is plain
        check(board, move, "S", ["CATS", "DOGS"], 14, rules=EN)
        assert len(words_formed(board, move)) == 2


def test_scored_fills_in_scores() -> None:
    board = position(EN)
    moves = [play(board, 7, 7, ACROSS, "RETAINS"), play(board, 7, 7, DOWN, "RETAIN")]
    assert [m.score for m in scored(board, moves, EN)] == [54, 12]
    assert all(m.score is None for m in moves)


# -- §3.3 legality: validate's reasons -----------------------------------------------------------


def _cat_board() -> Board:
    return position(EN, [(7, 7, "C"), (8, 7, "A"), (9, 7, "T")])


def _illegal(board: Board, move: Placement, rack_text: str, *words: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        validate(board, move, rack(EN, rack_text), lexicon(EN, *words), EN)
    assert type(info.value) is IllegalMoveError
    return info.value


def _tiles(*squares: tuple[int, int, str]) -> tuple[tuple[int, int, int], ...]:
    """(x, y, letter) -> engine (row, col, tile)."""
    return tuple((y, x, EN.alphabet.parse_tiles(s)[0]) for x, y, s in squares)


def test_not_in_one_line() -> None:
    move = Placement(_tiles((7, 7, "A"), (8, 8, "T")), ACROSS)
    error = _illegal(position(EN), move, "AT", "AT")
    assert "line" in error.reason


def test_gap() -> None:
    move = Placement(_tiles((6, 7, "A"), (8, 7, "T")), ACROSS)
    error = _illegal(position(EN), move, "AT", "AT")
    assert "gap" in error.reason
    # the same gap filled by a board tile is fine
    board = _cat_board()
    bridged = Placement(_tiles((6, 7, "S"), (10, 7, "S")), ACROSS)
    validate(board, bridged, rack(EN, "SS"), lexicon(EN, "SCATS"), EN)


def test_not_connected() -> None:
    move = play(_cat_board(), 0, 0, ACROSS, "DOG")
    error = _illegal(_cat_board(), move, "DOG", "DOG", "CAT")
    assert "touch" in error.reason


def test_first_move_off_centre() -> None:
    board = position(EN)
    error = _illegal(board, play(board, 0, 0, ACROSS, "CAT"), "CAT", "CAT")
    assert "start square" in error.reason
    error = _illegal(board, play(board, 8, 7, ACROSS, "CAT"), "CAT", "CAT")  # next to the centre
    assert "start square" in error.reason
    validate(board, play(board, 5, 7, ACROSS, "CAT"), rack(EN, "CAT"), lexicon(EN, "CAT"), EN)
    validate(board, play(board, 7, 5, DOWN, "CAT"), rack(EN, "CAT"), lexicon(EN, "CAT"), EN)


def test_first_move_needs_two_letters() -> None:
    board = position(EN)
    error = _illegal(board, Placement(_tiles((7, 7, "A")), ACROSS), "A", "A")
    assert "two letters" in error.reason


def test_tile_not_in_rack() -> None:
    board = position(EN)
    error = _illegal(board, play(board, 7, 7, ACROSS, "CAT"), "CAX", "CAT")
    assert "T" in error.reason
    assert "not in rack" in error.reason
    # a blank-flagged tile needs a blank on the rack
    error = _illegal(board, play(board, 7, 7, ACROSS, "CAt"), "CAT", "CAT")
    assert "blank" in error.reason
    validate(board, play(board, 7, 7, ACROSS, "CAt"), rack(EN, "CA?"), lexicon(EN, "CAT"), EN)


def test_word_not_in_lexicon_names_the_word() -> None:
    board = position(EN)
    error = _illegal(board, play(board, 7, 7, ACROSS, "TAC"), "ACT", "CAT", "ACT")
    assert error.word == "TAC"
    assert "TAC" in error.reason


def test_cross_word_not_in_lexicon_names_it() -> None:
    board = _cat_board()
    # O and X under the C and A of CAT make the main word OX and the cross words CO and AX
    move = Placement(_tiles((7, 8, "O"), (8, 8, "X")), ACROSS)
    validate(board, move, rack(EN, "OX"), lexicon(EN, "OX", "CO", "AX"), EN)
    error = _illegal(board, move, "OX", "OX", "AX")
    assert error.word == "CO"
    error = _illegal(board, move, "OX", "CO", "AX")
    assert error.word == "OX"


def test_blank_word_is_named_in_upper_case() -> None:
    board = position(EN)
    error = _illegal(board, play(board, 7, 7, ACROSS, "tAc"), "A??", "CAT")
    assert error.word == "TAC"


def test_occupied_square() -> None:
    board = _cat_board()
    move = Placement(_tiles((7, 7, "B"), (7, 8, "E")), DOWN)
    error = _illegal(board, move, "BE", "BE")
    assert "occupied" in error.reason


@pytest.mark.parametrize(
    "tiles",
    [
        ((7, 15, 0),),  # off the board
        ((15, 7, 0),),
        ((-1, 7, 0),),
        ((7, 7, 0), (7, 7, 1)),  # the same square twice
        ((7, 7, 0), (7, 8, 26)),  # not a letter of the English alphabet
        (),  # no tile at all
    ],
)
def test_malformed_moves_are_invalid_not_illegal(tiles: tuple[tuple[int, int, int], ...]) -> None:
    board = position(EN)
    with pytest.raises(InvalidMoveError) as info:
        validate(board, Placement(tiles, ACROSS), rack(EN, "ABCDEFG"), lexicon(EN, "AB"), EN)
    assert not isinstance(info.value, IllegalMoveError)


def test_error_types_differ() -> None:
    assert not issubclass(InvalidMoveError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)
