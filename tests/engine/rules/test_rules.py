"""Rulesets and the board layout against the reference notes (wordfeud-rules.md §0, §1, §2).

Every expected number here is copied from the notes, never computed with the engine.
"""

from __future__ import annotations

import pytest

from engine.errors import LayoutError, RulesetError
from engine.rules.layout import BoardLayout
from engine.rules.ruleset import Ruleset

ALL_IDS = list(range(13))

# wordfeud-rules.md §2.2, "sum of points" row (count × points summed over the bag), per column
# group: EN [0/5], NO [1/10], NL [2], DA [3], SV [4/8], ES [6], FR [7], DE [9], FI [11], PT [12].
SUM_OF_POINTS = {
    0: 210,
    5: 210,
    1: 240,
    10: 240,
    2: 236,
    3: 260,
    4: 210,
    8: 210,
    6: 203,
    7: 207,
    9: 203,
    11: 221,
    12: 213,
}

# §2.2, the whole tile table as printed (count×points, – = not in the ruleset). The columns are
# EN, NO, NL, DA, SV, ES, FR, DE, FI, PT; COLUMN_IDS says which ruleset ids share a column.
COLUMN_IDS = [(0, 5), (1, 10), (2,), (3,), (4, 8), (6,), (7,), (9,), (11,), (12,)]
TILE_TABLE = """
A | 10×1 | 7×1 | 7×1 | 7×1 | 9×1 | 13×1 | 10×1 | 5×1 | 11×1 | 12×1
B | 2×4 | 3×4 | 2×4 | 4×3 | 2×3 | 2×3 | 2×3 | 2×3 | 1×8 | 3×4
C | 2×4 | 1×10 | 2×5 | 2×8 | 1×8 | 4×3 | 2×3 | 2×4 | 1×10 | 3×2
CH | – | – | – | – | – | 1×5 | – | – | – | –
Ç | – | – | – | – | – | – | – | – | – | 2×3
D | 5×2 | 5×1 | 5×2 | 5×2 | 5×1 | 5×2 | 3×2 | 5×1 | 1×6 | 4×2
E | 12×1 | 9×1 | 18×1 | 9×1 | 8×1 | 13×1 | 14×1 | 14×1 | 9×1 | 10×1
F | 2×4 | 4×2 | 2×4 | 3×3 | 2×3 | 1×4 | 2×4 | 2×4 | 1×8 | 2×5
G | 3×3 | 4×4 | 3×3 | 3×3 | 3×2 | 2×3 | 3×2 | 3×2 | 1×8 | 2×4
H | 3×4 | 3×3 | 2×4 | 2×4 | 2×3 | 2×4 | 2×4 | 4×2 | 2×4 | 2×4
I | 9×1 | 6×2 | 4×2 | 4×3 | 5×1 | 6×1 | 9×1 | 6×1 | 10×1 | 9×1
J | 1×10 | 2×4 | 2×4 | 2×4 | 1×7 | 1×8 | 1×8 | 1×6 | 2×4 | 2×6
K | 1×5 | 4×3 | 3×3 | 4×3 | 3×3 | – | 1×10 | 2×4 | 6×3 | –
L | 4×1 | 5×2 | 3×3 | 5×2 | 5×2 | 4×1 | 5×2 | 3×2 | 6×2 | 4×2
LL | – | – | – | – | – | 1×8 | – | – | – | –
M | 2×3 | 3×2 | 3×3 | 3×4 | 3×3 | 2×3 | 3×2 | 4×3 | 3×3 | 5×1
N | 6×1 | 6×1 | 11×1 | 7×1 | 6×1 | 6×1 | 6×1 | 9×1 | 9×1 | 3×3
Ñ | – | – | – | – | – | 1×8 | – | – | – | –
O | 7×1 | 4×3 | 6×1 | 5×2 | 6×2 | 9×1 | 6×1 | 3×2 | 5×2 | 9×1
P | 2×4 | 2×4 | 2×4 | 2×4 | 2×4 | 2×3 | 2×3 | 1×5 | 2×4 | 3×2
Q | 1×10 | – | 1×10 | – | – | 1×5 | 1×8 | 1×10 | – | 1×8
R | 6×1 | 7×1 | 5×2 | 7×1 | 8×1 | 5×1 | 6×1 | 6×1 | 2×4 | 5×1
RR | – | – | – | – | – | 1×8 | – | – | – | –
S | 5×1 | 7×1 | 5×2 | 6×2 | 8×1 | 7×1 | 6×1 | 7×1 | 7×1 | 7×2
T | 7×1 | 7×1 | 5×2 | 6×2 | 9×1 | 4×2 | 6×1 | 6×1 | 9×1 | 4×2
U | 4×2 | 3×4 | 3×2 | 3×3 | 3×4 | 5×1 | 6×1 | 6×1 | 4×3 | 6×2
V | 2×4 | 3×5 | 2×4 | 3×4 | 2×3 | 1×4 | 2×5 | 1×6 | 2×4 | 2×4
W | 2×4 | 1×10 | 2×5 | – | – | – | 1×10 | 1×3 | – | –
X | 1×8 | – | 1×8 | 1×8 | 1×8 | 1×8 | 1×10 | 1×8 | – | 1×10
Y | 2×4 | 1×8 | 1×8 | 2×4 | 1×7 | 1×5 | 1×10 | 1×10 | 2×4 | –
Z | 1×10 | – | 2×5 | 1×9 | 1×8 | 1×10 | 1×10 | 1×3 | – | 1×10
Ä | – | – | – | – | 2×4 | – | – | 1×6 | 5×2 | –
Ö | – | – | – | – | 2×4 | – | – | 1×8 | 1×7 | –
Ü | – | – | – | – | – | – | – | 1×6 | – | –
Å | – | 2×4 | – | 2×4 | 2×4 | – | – | – | – | –
Æ | – | 1×8 | – | 2×4 | – | – | – | – | – | –
Ø | – | 2×4 | – | 2×4 | – | – | – | – | – | –
"""

# §1.1, the standard board in Wordfeud-API integer codes (0 plain, 1 DL, 2 TL, 3 DW, 4 TW), rows y.
STANDARD_API_GRID = [
    [2, 0, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 0, 2],
    [0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0],
    [0, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0, 0, 3, 0, 0],
    [0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0],
    [4, 0, 0, 0, 3, 0, 1, 0, 1, 0, 3, 0, 0, 0, 4],
    [0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0],
    [0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0],
    [1, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1],
    [0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0],
    [0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0],
    [4, 0, 0, 0, 3, 0, 1, 0, 1, 0, 3, 0, 0, 0, 4],
    [0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0],
    [0, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0, 0, 3, 0, 0],
    [0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0],
    [2, 0, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 0, 2],
]


def _table() -> dict[int, dict[str, tuple[int, int]]]:
    """{ruleset id: {symbol: (count, points)}} from TILE_TABLE."""
    result: dict[int, dict[str, tuple[int, int]]] = {rid: {} for ids in COLUMN_IDS for rid in ids}
    for line in TILE_TABLE.strip().splitlines():
        symbol, *cells = (cell.strip() for cell in line.split("|"))
        assert len(cells) == len(COLUMN_IDS), line
        for ids, cell in zip(COLUMN_IDS, cells, strict=True):
            if cell == "–":
                continue
            count, points = cell.split("×")
            for rid in ids:
                result[rid][symbol] = (int(count), int(points))
    return result


def _bag(ruleset_id: int) -> dict[str, tuple[int, int]]:
    alphabet = Ruleset.for_id(ruleset_id).alphabet
    return {s: (n, p) for s, n, p in zip(alphabet.symbols, alphabet.counts, alphabet.points, strict=True)}


# -- rulesets -----------------------------------------------------------------------------------


def test_there_are_thirteen_rulesets_in_id_order() -> None:
    assert [r.id for r in Ruleset.all()] == ALL_IDS


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_total_tiles(ruleset_id: int) -> None:
    expected = 102 if ruleset_id == 9 else 104
    assert Ruleset.for_id(ruleset_id).alphabet.total_tiles == expected


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_two_blanks(ruleset_id: int) -> None:
    assert Ruleset.for_id(ruleset_id).alphabet.blanks == 2


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_sum_of_points(ruleset_id: int) -> None:
    alphabet = Ruleset.for_id(ruleset_id).alphabet
    total = sum(n * p for n, p in zip(alphabet.counts, alphabet.points, strict=True))
    assert total == SUM_OF_POINTS[ruleset_id]


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_whole_tile_table(ruleset_id: int) -> None:
    assert _bag(ruleset_id) == _table()[ruleset_id]


def test_tile_table_transcription_is_consistent_with_the_notes_totals() -> None:
    # Guards the transcription above: its own totals must equal the notes' bottom rows.
    for rid, bag in _table().items():
        assert sum(n for n, _ in bag.values()) + 2 == (102 if rid == 9 else 104)
        assert sum(n * p for n, p in bag.values()) == SUM_OF_POINTS[rid]


@pytest.mark.parametrize(
    ("ruleset_id", "symbol", "count", "points"),
    [
        (1, "Æ", 1, 8),
        (10, "Æ", 1, 8),
        (1, "C", 1, 10),
        (6, "CH", 1, 5),
        (6, "LL", 1, 8),
        (6, "RR", 1, 8),
        (6, "Ñ", 1, 8),
        (9, "Ü", 1, 6),
        (9, "E", 14, 1),
        (12, "Ç", 2, 3),
        (0, "A", 10, 1),
        (5, "Q", 1, 10),
        (2, "E", 18, 1),
        (3, "Z", 1, 9),
        (4, "Ö", 2, 4),
        (8, "Ä", 2, 4),
        (7, "K", 1, 10),
        (11, "Ä", 5, 2),
    ],
)
def test_spot_checks(ruleset_id: int, symbol: str, count: int, points: int) -> None:
    alphabet = Ruleset.for_id(ruleset_id).alphabet
    code = alphabet.code(symbol)
    assert (alphabet.counts[code], alphabet.points[code]) == (count, points)


@pytest.mark.parametrize(
    ("ruleset_id", "missing"),
    [
        (11, "QWXZÅ"),  # Finnish
        (1, "QXZ"),  # Norwegian bokmål
        (10, "QXZ"),  # Norwegian nynorsk
        (3, "QW"),  # Danish
        (4, "QW"),  # Swedish
        (6, "KW"),  # Spanish
        (12, "KWY"),  # Portuguese
    ],
)
def test_letters_not_in_ruleset(ruleset_id: int, missing: str) -> None:
    symbols = Ruleset.for_id(ruleset_id).alphabet.symbols
    for letter in missing:
        assert letter not in symbols


def test_german_has_no_sharp_s() -> None:
    assert "ß" not in Ruleset.for_id(9).alphabet.symbols


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_game_numbers(ruleset_id: int) -> None:
    rules = Ruleset.for_id(ruleset_id)
    assert rules.rack_size == 7
    assert rules.bingo_bonus == 40
    assert rules.swap_min_bag == 7
    assert rules.layout == BoardLayout.standard()


@pytest.mark.parametrize("bad_id", [13, -1, 100])
def test_unknown_id(bad_id: int) -> None:
    with pytest.raises(RulesetError):
        Ruleset.for_id(bad_id)


@pytest.mark.parametrize("bad_code", ["xx", "", "english", "13", "²"])
def test_unknown_code(bad_code: str) -> None:
    with pytest.raises(RulesetError):
        Ruleset.for_code(bad_code)


@pytest.mark.parametrize(
    ("code", "ruleset_id"),
    [("nb", 1), ("NB", 1), (" nb ", 1), ("nn", 10), ("nl", 2), ("es", 6), ("de", 9), ("pt", 12), ("5", 5), ("0", 0)],
)
def test_for_code(code: str, ruleset_id: int) -> None:
    assert Ruleset.for_code(code).id == ruleset_id


def test_codes_are_unique() -> None:
    codes = [r.code for r in Ruleset.all()]
    assert len(set(codes)) == len(codes)


def test_shared_bags_are_identical() -> None:
    # §2.2 merges the columns of rulesets that share one bag.
    for a, b in [(0, 5), (1, 10), (4, 8)]:
        assert Ruleset.for_id(a).alphabet == Ruleset.for_id(b).alphabet


# -- the standard layout ------------------------------------------------------------------------


def test_standard_layout_matches_the_notes_grid() -> None:
    assert BoardLayout.standard().to_api_grid() == STANDARD_API_GRID


def test_standard_premium_counts() -> None:
    assert BoardLayout.standard().premium_counts() == {"DL": 24, "TL": 20, "DW": 12, "TW": 8}


def test_centre_is_plain_start_square() -> None:
    std = BoardLayout.standard()
    assert std.start == (7, 7)
    assert std.letter_multiplier(7, 7) == 1
    assert std.word_multiplier(7, 7) == 1


@pytest.mark.parametrize(
    ("x", "y", "letter", "word"),
    [
        (0, 0, 3, 1),  # TL corner (not a Scrabble TW)
        (4, 0, 1, 3),  # TW
        (7, 0, 2, 1),  # DL
        (2, 2, 1, 2),  # DW
        (7, 3, 1, 2),  # DW (one source wrongly has DL here, §8)
        (11, 7, 1, 2),  # DW used by HOENTJE in §3.2
        (14, 10, 1, 3),  # TW used by HEIMLÅNA
        (3, 11, 3, 1),  # TL
        (1, 1, 2, 1),  # DL
    ],
)
def test_standard_multipliers(x: int, y: int, letter: int, word: int) -> None:
    std = BoardLayout.standard()
    assert std.letter_multiplier(y, x) == letter
    assert std.word_multiplier(y, x) == word
    assert std.letter_multipliers()[y][x] == letter
    assert std.word_multipliers()[y][x] == word


def test_standard_layout_symmetries() -> None:
    grid = BoardLayout.standard().to_api_grid()
    left_right = [row[::-1] for row in grid]
    top_bottom = grid[::-1]
    transposed = [list(col) for col in zip(*grid, strict=True)]
    assert left_right == grid
    assert top_bottom == grid
    assert transposed == grid
    assert BoardLayout.standard().transposed() == BoardLayout.standard()


def test_transposed_swaps_rows_and_columns() -> None:
    grid = [[0] * 15 for _ in range(15)]
    grid[2][9] = 4  # a TW at row 2, column 9 only
    layout = BoardLayout.from_api_grid(grid)
    flipped = layout.transposed()
    assert flipped.word_multiplier(9, 2) == 3
    assert flipped.word_multiplier(2, 9) == 1
    assert flipped.transposed() == layout


def test_api_grid_round_trip() -> None:
    # an irregular (random-board-like) grid: no symmetry, a cluster of TWs, centre plain
    grid = [[(r * 7 + c * 3) % 5 for c in range(15)] for r in range(15)]
    grid[7][7] = 0
    grid[0][0:3] = [4, 4, 4]
    layout = BoardLayout.from_api_grid(grid)
    assert layout.to_api_grid() == grid
    assert BoardLayout.from_api_grid(layout.to_api_grid()) == layout
    assert layout.word_multiplier(0, 1) == 3
    assert layout.letter_multiplier(0, 1) == 1
    assert layout != BoardLayout.standard()


def test_api_grid_accepts_tuples() -> None:
    layout = BoardLayout.from_api_grid(tuple(tuple(row) for row in STANDARD_API_GRID))
    assert layout == BoardLayout.standard()


def _grid_with(r: int, c: int, value: object) -> list[list[object]]:
    grid: list[list[object]] = [list(row) for row in STANDARD_API_GRID]
    grid[r][c] = value
    return grid


@pytest.mark.parametrize(
    "grid",
    [
        [],
        STANDARD_API_GRID[:14],
        [*STANDARD_API_GRID, [0] * 15],
        [row[:14] for row in STANDARD_API_GRID],
        [[*row, 0] for row in STANDARD_API_GRID],
        _grid_with(3, 4, 5),
        _grid_with(3, 4, -1),
        _grid_with(0, 0, "x"),
        _grid_with(0, 0, None),
        _grid_with(14, 14, 2.5),
        [None] * 15,
        ["200040010040002"] * 15,
        None,
    ],
    ids=[
        "empty",
        "14 rows",
        "16 rows",
        "14 columns",
        "16 columns",
        "code 5",
        "code -1",
        "letter",
        "None square",
        "float",
        "None rows",
        "string rows",
        "None grid",
    ],
)
def test_bad_api_grids(grid: object) -> None:
    with pytest.raises(LayoutError):
        BoardLayout.from_api_grid(grid)  # type: ignore[arg-type]


def test_with_layout_keeps_the_rest() -> None:
    grid = [[0] * 15 for _ in range(15)]
    plain = BoardLayout.from_api_grid(grid)
    rules = Ruleset.for_id(2).with_layout(plain)
    assert rules.layout.premium_counts() == {"DL": 0, "TL": 0, "DW": 0, "TW": 0}
    assert rules.alphabet == Ruleset.for_id(2).alphabet
    assert Ruleset.for_id(2).layout == BoardLayout.standard()
