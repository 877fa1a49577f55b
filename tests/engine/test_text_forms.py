"""Text forms: alphabet words and tiles, racks, boards and move notation, and their round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board.board import EMPTY, Board
from engine.board.move import Direction, Pass, Placement, Swap, format_move, parse_move, square_name
from engine.board.rack import Rack
from engine.errors import BoardError, IllegalMoveError, InvalidMoveError, TileError
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG, BLANK_SYMBOL, Alphabet

EN = Ruleset.for_id(5).alphabet
ES = Ruleset.for_id(6).alphabet
NB = Ruleset.for_id(1).alphabet
DE = Ruleset.for_id(9).alphabet
ALPHABETS = [EN, ES, NB, DE]


def codes(alphabet: Alphabet, *symbols: str) -> tuple[int, ...]:
    return tuple(alphabet.code(s) for s in symbols)


# -- alphabet -----------------------------------------------------------------------------------


def test_spanish_churro_is_four_tiles() -> None:
    word = ES.parse_word("CHURRO")
    assert word == codes(ES, "CH", "U", "RR", "O")
    assert ES.format_word(word) == "CHURRO"
    assert ES.parse_word("churro") == word
    assert ES.parse_word("[CH]U[RR]O") == word


def test_spanish_llama_and_nino() -> None:
    assert ES.parse_word("LLAMA") == codes(ES, "LL", "A", "M", "A")
    assert ES.parse_word("NIÑO") == codes(ES, "N", "I", "Ñ", "O")
    assert ES.parse_word("niño") == codes(ES, "N", "I", "Ñ", "O")


def test_brackets_split_or_join_tiles() -> None:
    assert ES.parse_tiles("[CH]") == codes(ES, "CH")
    assert ES.parse_tiles("[C]H") == codes(ES, "C", "H")
    assert ES.parse_tiles("C[H]") == codes(ES, "C", "H")
    # mixed case is never a multi-letter tile: a blank c then an H tile
    assert ES.parse_tiles("cH") == (ES.code("C") | BLANK_FLAG, ES.code("H"))


def test_lower_case_tiles_are_blanks() -> None:
    tiles = ES.parse_tiles("chUrrO")
    assert tiles == (ES.code("CH") | BLANK_FLAG, ES.code("U"), ES.code("RR") | BLANK_FLAG, ES.code("O"))
    assert ES.format_tiles(tiles) == "chUrrO"
    assert ES.format_word(tiles) == "CHURRO"
    assert [ES.tile_points(t) for t in tiles] == [0, 1, 0, 1]
    assert ES.parse_tiles("[ch]") == (ES.code("CH") | BLANK_FLAG,)


def test_format_tile() -> None:
    ch = ES.code("CH")
    assert ES.format_tile(ch) == "CH"
    assert ES.format_tile(ch, bracket=True) == "[CH]"
    assert ES.format_tile(ch | BLANK_FLAG, bracket=True) == "[ch]"
    assert ES.format_tile(ES.code("A"), bracket=True) == "A"
    assert NB.format_tile(NB.code("Æ") | BLANK_FLAG) == "æ"


def test_format_text_reads_back() -> None:
    for tiles in [
        codes(ES, "C", "H"),
        codes(ES, "L", "L"),
        codes(ES, "R", "R", "R"),
        codes(ES, "C", "CH", "H"),
        (ES.code("C") | BLANK_FLAG, ES.code("H") | BLANK_FLAG),
        codes(ES, "CH", "U", "RR", "O"),
    ]:
        assert ES.parse_tiles(ES.format_text(tiles)) == tiles
    assert EN.format_text(EN.parse_tiles("HOuSE")) == "HOuSE"


def test_nordic_and_german_letters() -> None:
    assert NB.format_word(NB.parse_word("blåbær")) == "BLÅBÆR"
    assert len(NB.parse_word("BLÅBÆR")) == 6
    assert DE.format_word(DE.parse_word("Übung")) == "ÜBUNG"


@pytest.mark.parametrize(
    ("alphabet", "text", "bad"),
    [(EN, "HÉLLO", "É"), (ES, "KIWI", "K"), (NB, "QUIZ", "Q"), (EN, "AB1", "1"), (EN, "A B", " "), (DE, "STRAßE", "ß")],
)
def test_bad_character_is_named(alphabet: Alphabet, text: str, bad: str) -> None:
    with pytest.raises(TileError, match=repr(bad)):
        alphabet.parse_word(text)
    with pytest.raises(TileError, match=repr(bad)):
        alphabet.parse_tiles(text)


@pytest.mark.parametrize("text", ["[CH", "[]", "[XY]", "A?"])
def test_unreadable_words(text: str) -> None:
    with pytest.raises(TileError):
        ES.parse_word(text)


def read_token_by_token(alphabet: Alphabet, text: str) -> tuple[int, ...] | str:
    """What ``parse_word`` gives, read the long way (symbol by symbol): the codes, "blank" for a word
    with a blank, or the message of the error that names the first character of no symbol."""
    codes = []
    try:
        for token, _ in alphabet._tokens(text):
            if token == BLANK_SYMBOL:
                return "blank"
            codes.append(alphabet.code(token))
    except TileError as error:
        return str(error)
    return tuple(codes)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([EN, NB, DE]), st.text(alphabet="ABZÅØÆÜabzåøæü[]?ßé1 ", max_size=8))
def test_a_word_of_one_character_symbols_reads_as_symbol_by_symbol(alphabet: Alphabet, text: str) -> None:
    """The shortcut for an alphabet of one-character symbols (a word's characters looked up at once)
    reads every text as the symbol-by-symbol reading does: lower case, brackets, a blank, ß (whose upper
    case is two letters) and characters of no symbol alike."""
    try:
        got: tuple[int, ...] | str = alphabet.parse_word(text)
    except TileError as error:
        got = "blank" if str(error).startswith("a word cannot contain a blank") else str(error)
    assert got == read_token_by_token(alphabet, text)


def test_code_lookup() -> None:
    assert EN.code("a") == EN.code("A") == 0
    assert EN.symbol(EN.code("Z") | BLANK_FLAG) == "Z"
    with pytest.raises(TileError):
        EN.code("Ñ")


# -- racks --------------------------------------------------------------------------------------


def test_rack_from_text() -> None:
    rack = Rack.from_text("etai?ns", EN)
    assert len(rack) == 7
    assert rack.blanks == 1
    assert rack.text() == "AEINST?"
    assert rack.letters() == sorted(EN.parse_word("ETAINS"))
    assert str(rack) == "AEINST?"


def test_rack_round_trip_with_blanks() -> None:
    for text in ["??", "QZ??", "A", "", "EEEEEEE"]:
        rack = Rack.from_text(text, EN)
        assert rack.text() == text
        assert Rack.from_text(rack.text(), EN) == rack


def test_spanish_rack_round_trip() -> None:
    # two L tiles are not one LL tile, and C + H is not CH
    two_l = Rack.from_codes(ES, codes(ES, "L", "L"))
    c_and_h = Rack.from_codes(ES, codes(ES, "C", "H"))
    ch = Rack.from_codes(ES, codes(ES, "CH"))
    assert len({two_l.text(), c_and_h.text(), ch.text()}) == 3
    for rack in (two_l, c_and_h, ch):
        assert Rack.from_text(rack.text(), ES) == rack
    assert Rack.from_text("CHURRO?", ES) == Rack.from_codes(ES, codes(ES, "CH", "U", "RR", "O"), blanks=1)


def test_rack_too_big() -> None:
    with pytest.raises(TileError, match="8"):
        Rack.from_text("RETAINS?", EN)
    with pytest.raises(TileError):
        Rack.from_text("ABCDEFGH", EN)
    # a Spanish rack of 7 tiles can be written with more than 7 characters
    assert len(Rack.from_text("CHLLRRÑAEI", ES)) == 7


def test_rack_bad_letter() -> None:
    with pytest.raises(TileError, match="'W'"):
        Rack.from_text("AWE", ES)


def test_rack_leave() -> None:
    rack = Rack.from_text("AEINST?", EN)
    left = rack.leave([EN.code("S"), EN.code("T"), EN.code("Z") | BLANK_FLAG])
    assert left == Rack.from_text("AEIN", EN)
    assert rack.text() == "AEINST?"  # racks are values: the original is unchanged


def test_rack_leave_missing_tile() -> None:
    rack = Rack.from_text("AEINST", EN)
    with pytest.raises(IllegalMoveError, match="Q"):
        rack.leave([EN.code("Q")])
    with pytest.raises(IllegalMoveError):
        rack.leave([EN.code("A"), EN.code("A")])
    with pytest.raises(IllegalMoveError, match="blank"):
        rack.leave([EN.code("A") | BLANK_FLAG])


def test_rack_add_and_points() -> None:
    rack = Rack.from_text("QZ?", EN).add([EN.code("A")], blanks=1)
    assert rack.text() == "AQZ??"
    assert rack.points() == 1 + 10 + 10  # §2.2: A 1, Q 10, Z 10, blanks 0


def tricky_codes(alphabet: Alphabet) -> list[int]:
    """Multi-letter tiles and the single letters they are spelt with (Spanish C H L R CH LL RR)."""
    multi = [s for s in alphabet.symbols if len(s) > 1]
    parts = {ch for s in multi for ch in s}
    return [alphabet.code(s) for s in alphabet.symbols if s in multi or s in parts]


def letter_codes(alphabet: Alphabet) -> st.SearchStrategy[int]:
    """Any letter of the alphabet, with the tricky ones (if any) drawn much more often."""
    any_letter = st.integers(0, len(alphabet) - 1)
    tricky = tricky_codes(alphabet)
    return st.one_of(any_letter, st.sampled_from(tricky)) if tricky else any_letter


@st.composite
def racks(draw: st.DrawFn) -> Rack:
    alphabet = draw(st.sampled_from(ALPHABETS))
    blanks = draw(st.integers(0, 2))
    letters = draw(st.lists(letter_codes(alphabet), max_size=7 - blanks))
    return Rack.from_codes(alphabet, letters, blanks)


def test_tricky_codes() -> None:
    assert sorted(ES.format_word([c]) for c in tricky_codes(ES)) == ["C", "CH", "H", "L", "LL", "R", "RR"]
    assert tricky_codes(EN) == []


@settings(max_examples=300)
@given(racks())
def test_rack_text_round_trip(rack: Rack) -> None:
    text = rack.text()
    again = Rack.from_text(text, rack.alphabet)
    assert again == rack
    assert again.text() == text
    assert len(again) == len(rack)


# -- boards -------------------------------------------------------------------------------------


def _board_text(rows: dict[int, str]) -> str:
    return "\n".join(rows.get(r, "." * 15) for r in range(15))


def test_board_text_with_blank() -> None:
    board = Board(EN)
    board.place([(7, 7, EN.code("H")), (7, 8, EN.code("I") | BLANK_FLAG)])
    assert board.text().splitlines()[7] == ".......Hi......"
    assert board.text() == _board_text({7: ".......Hi......"})
    again = Board.from_text(board.text(), EN)
    assert again == board
    assert again[7, 8] == EN.code("I") | BLANK_FLAG


def test_spanish_board_with_ch_tile() -> None:
    text = _board_text({7: "......[CH]E[ch]E.....", 8: ".......CH......"})
    board = Board.from_text(text, ES)
    assert board[7, 6] == ES.code("CH")
    assert board[7, 7] == ES.code("E")
    assert board[7, 8] == ES.code("CH") | BLANK_FLAG
    assert board[8, 7] == ES.code("C")  # unbracketed: two single tiles
    assert board[8, 8] == ES.code("H")
    assert len(board) == 6
    assert board.text() == text
    assert Board.from_text(board.text(), ES) == board


def test_board_text_tolerates_blank_lines_and_indent() -> None:
    text = "\n\n" + "\n".join("  " + line for line in _board_text({0: "A" * 15}).splitlines()) + "\n\n"
    board = Board.from_text(text, EN)
    assert len(board) == 15
    assert [t for _, _, t in board.tiles()] == [EN.code("A")] * 15


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ({2: "." * 14}, r"row 3\b"),
        ({4: "." * 16}, r"row 5\b"),
        ({0: "#" + "." * 14}, r"row 1\b"),
        ({9: "?" + "." * 14}, r"row 10\b"),
        ({1: "[CH" + "." * 14}, r"row 2\b"),
        ({14: "[XY]" + "." * 14}, r"row 15\b"),
    ],
)
def test_malformed_board_row(rows: dict[int, str], message: str) -> None:
    with pytest.raises(BoardError, match=message):
        Board.from_text(_board_text(rows), ES)


@pytest.mark.parametrize("n_rows", [0, 14, 16])
def test_board_text_wrong_row_count(n_rows: int) -> None:
    with pytest.raises(BoardError, match=str(n_rows)):
        Board.from_text("\n".join(["." * 15] * n_rows), EN)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    alphabet = draw(st.sampled_from(ALPHABETS))
    squares = draw(st.sets(st.tuples(st.integers(0, 14), st.integers(0, 14)), max_size=60))
    tiles = []
    for r, c in sorted(squares):
        code = draw(letter_codes(alphabet))
        blank = draw(st.booleans())
        tiles.append((r, c, code | BLANK_FLAG if blank else code))
    board = Board(alphabet)
    board.place(tiles)
    return board


@settings(max_examples=150)
@given(boards())
def test_board_text_round_trip(board: Board) -> None:
    text = board.text()
    again = Board.from_text(text, board.alphabet)
    assert again == board
    assert again.grid == board.grid
    assert again.text() == text
    assert len(again) == len(board)
    lines = text.splitlines()
    assert len(lines) == 15
    assert sum(line.count(".") for line in lines) == 225 - len(board)


def test_place_and_undo() -> None:
    board = Board(EN)
    assert board.is_empty()
    first = ((7, 7, EN.code("H")), (7, 8, EN.code("I")))
    board.place(first)
    second = [(8, 8, EN.code("S"))]
    board.place(second)
    assert len(board) == 3
    assert list(board.tiles()) == [*first, *second]
    assert board.has_neighbour(6, 7)
    assert not board.has_neighbour(0, 0)
    assert board.undo() == tuple(second)
    assert board[8, 8] == EMPTY
    assert board.undo() == first
    assert board.is_empty()
    with pytest.raises(BoardError):
        board.undo()


@pytest.mark.parametrize(
    "batch",
    [
        [(7, 9, 0), (7, 7, 1)],  # (7, 7) is occupied
        [(7, 9, 0), (7, 9, 1)],  # the same square twice
        [(7, 9, 0), (15, 0, 1)],  # off the board
        [(7, 9, 0), (-1, 3, 1)],
        [(7, 9, 0), (3, 3, 26)],  # not an English letter
        [(7, 9, 0), (3, 3, -5)],
    ],
)
def test_place_is_all_or_nothing(batch: list[tuple[int, int, int]]) -> None:
    board = Board(EN)
    board.place([(7, 7, EN.code("A"))])
    before = board.text()
    with pytest.raises(BoardError):
        board.place(batch)
    assert board.text() == before
    assert len(board) == 1
    assert board.undo() == ((7, 7, EN.code("A")),)


def test_copy_is_independent() -> None:
    board = Board(EN)
    board.place([(7, 7, EN.code("A"))])
    other = board.copy()
    assert other == board
    other.place([(7, 8, EN.code("B"))])
    assert board[7, 8] == EMPTY
    assert len(board) == 1
    assert len(other) == 2
    assert other != board
    board.place([(0, 0, EN.code("C"))])
    assert other[0, 0] == EMPTY


def test_transposed_grid() -> None:
    board = Board(EN)
    board.place([(2, 9, EN.code("Q")), (2, 10, EN.code("I")), (14, 0, EN.code("Z"))])
    t = board.transposed_grid()
    assert t[9][2] == EN.code("Q")
    assert t[10][2] == EN.code("I")
    assert t[0][14] == EN.code("Z")
    assert t[2][9] == EMPTY
    for r in range(15):
        for c in range(15):
            assert t[c][r] == board.grid[r][c]
    t[0][0] = EN.code("A")  # a copy, not a view
    assert board[0, 0] == EMPTY


# -- move notation ------------------------------------------------------------------------------


def test_square_names() -> None:
    assert square_name(7, 7, Direction.ACROSS) == "8H"
    assert square_name(7, 7, Direction.DOWN) == "H8"
    assert square_name(0, 14, Direction.ACROSS) == "1O"
    assert square_name(14, 0, Direction.DOWN) == "A15"


def test_parse_across_and_down_on_empty_board() -> None:
    board = Board(EN)
    across = parse_move("8H HOuSE", board)
    assert across.direction is Direction.ACROSS
    h, o, u, s, e = EN.code("H"), EN.code("O"), EN.code("U") | BLANK_FLAG, EN.code("S"), EN.code("E")
    assert across.tiles == ((7, 7, h), (7, 8, o), (7, 9, u), (7, 10, s), (7, 11, e))
    assert across.score is None
    down = parse_move("H8 HOuSE", board)
    assert down.direction is Direction.DOWN
    assert down.tiles == ((7, 7, h), (8, 7, o), (9, 7, u), (10, 7, s), (11, 7, e))
    h_, o_, s_, e_ = (t | BLANK_FLAG for t in (h, o, s, e))
    blanks = ((7, 7, h_), (8, 7, o_), (9, 7, u), (10, 7, s_), (11, 7, e_))
    assert parse_move("h8 house", board).tiles == blanks
    assert format_move(across, board) == "8H HOuSE"
    assert format_move(down, board) == "H8 HOuSE"


def _cat_board() -> Board:
    board = Board(EN)
    board.place([(7, 7, EN.code("C")), (7, 8, EN.code("A")), (7, 9, EN.code("T"))])
    return board


@pytest.mark.parametrize(
    ("text", "new_squares", "direction"),
    [
        ("8H (CAT)S", [(7, 10)], Direction.ACROSS),
        ("8G S(CAT)", [(7, 6)], Direction.ACROSS),
        ("8G S(CAT)S", [(7, 6), (7, 10)], Direction.ACROSS),
        ("I6 ST(A)Y", [(5, 8), (6, 8), (8, 8)], Direction.DOWN),
        ("H8 (C)OW", [(8, 7), (9, 7)], Direction.DOWN),
        ("J7 A(T)e", [(6, 9), (8, 9)], Direction.DOWN),
    ],
)
def test_notation_with_board_tiles(text: str, new_squares: list[tuple[int, int]], direction: Direction) -> None:
    board = _cat_board()
    move = parse_move(text, board)
    assert [(r, c) for r, c, _ in move.tiles] == new_squares
    assert move.direction is direction
    assert format_move(move, board) == text
    assert parse_move(format_move(move, board), board) == move


def test_format_merges_adjacent_board_tiles_into_one_group() -> None:
    board = _cat_board()
    move = Placement(((7, 10, EN.code("S")),), Direction.ACROSS)
    assert format_move(move, board) == "8H (CAT)S"
    # the long-hand form with one group per tile reads the same
    assert parse_move("8H (C)(A)(T)S", board) == move


def test_spanish_notation() -> None:
    board = Board(ES)
    move = parse_move("8H CHURRO", board)
    assert [t for _, _, t in move.tiles] == list(codes(ES, "CH", "U", "RR", "O"))
    text = format_move(move, board)
    assert parse_move(text, board) == move
    # separate C and H tiles must not come back as one CH tile
    split = Placement(((7, 7, ES.code("C")), (7, 8, ES.code("H"))), Direction.ACROSS)
    assert parse_move(format_move(split, board), board) == split
    board.place(split.tiles)
    hook = Placement(((7, 9, ES.code("E")),), Direction.ACROSS)
    assert parse_move(format_move(hook, board), board) == hook


def test_pass_and_swap_notation() -> None:
    board = Board(EN)
    assert format_move(Pass(), board) == "PASS"
    assert format_move(Swap((EN.code("Q"), EN.code("U"), -1)), board) == "SWAP QU?"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "8H",
        "HOUSE",
        "8H HO USE",
        "8P HOUSE",  # column P does not exist
        "P8 HOUSE",
        "16A HI",
        "0A HI",
        "A0 HI",
        "A16 HI",
        "8M HOUSE",  # runs off the right edge
        "M12 HOUSE",  # runs off the bottom
        "8H HO(USE",
        "8H HO)USE",
        "8H ((A))",
        "8H H1",
        "8H HO?SE",
        "8H (X)",  # the board does not hold X at 8H
        "8H (CAT)",  # places no tile
        "8G SC",  # 8H is occupied: must be written (C)
    ],
)
def test_malformed_notation(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(text, _cat_board())


def test_board_letters_in_parentheses_must_match() -> None:
    board = _cat_board()
    with pytest.raises(InvalidMoveError, match="not"):
        parse_move("8H (COT)S", board)
    # a blank on the board may be named in either case
    blank_board = Board(EN)
    blank_board.place([(7, 7, EN.code("A") | BLANK_FLAG)])
    assert parse_move("8H (A)X", blank_board) == parse_move("8H (a)X", blank_board)
    assert format_move(parse_move("8H (A)X", blank_board), blank_board) == "8H (a)X"
