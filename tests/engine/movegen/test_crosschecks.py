"""``engine.movegen.crosschecks``: the letters each empty square allows and the points of its cross word, against
the word list itself (every letter tried in the square, the column read as a word)."""

from __future__ import annotations

import pytest

from engine.board.board import EMPTY, Board, scored_runs
from engine.lexicon.dawg import Dawg
from engine.movegen.crosschecks import NO_CROSS, WalkedRun, cross_checks
from engine.rules.layout import SIZE
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)
WORDS = ["AT", "TA", "AA", "CAT", "ACT", "TAT", "CATS", "SCAT", "TACT", "AS", "ST"]


def walked_columns(board: Board, lexicon: Dawg) -> list[list[WalkedRun]]:
    """The runs of every column, each with the node its letters lead to (-1 past the edge), as movegen walks them."""
    points = EN.alphabet.points
    return [
        [
            (first, end, letters, run_points, lexicon.walk(lexicon.root, letters) if end < SIZE else -1)
            for first, end, letters, run_points in scored_runs(column, points)
        ]
        for column in board.transposed_grid()
    ]


def column_word(board: Board, row: int, col: int, letter: int) -> tuple[list[int], int] | None:
    """The word down column ``col`` through ``(row, col)`` with ``letter`` there, and its board tiles' points."""
    grid = board.grid
    top = row
    while top > 0 and grid[top - 1][col] != EMPTY:
        top -= 1
    bottom = row
    while bottom < SIZE - 1 and grid[bottom + 1][col] != EMPTY:
        bottom += 1
    if top == bottom:
        return None
    word = [letter if r == row else grid[r][col] & 63 for r in range(top, bottom + 1)]
    others = [grid[r][col] for r in range(top, bottom + 1) if r != row]
    tiles = sum(0 if tile & 64 else EN.alphabet.points[tile] for tile in others)  # a blank scores nothing
    return word, tiles


@pytest.mark.parametrize("wanted_text", [None, "AST"])
def test_every_empty_square_allows_exactly_the_letters_that_make_a_word_down_it(wanted_text: str | None) -> None:
    alphabet = EN.alphabet
    lexicon = Dawg.build(sorted(alphabet.parse_word(w) for w in WORDS), alphabet)
    words = {tuple(alphabet.parse_word(w)) for w in WORDS}
    board = Board(alphabet)
    # C.A above a gap above T: the gap's cross word joins both runs; a blank T at the bottom edge
    board.place([(3, 4, alphabet.code("C")), (5, 4, alphabet.code("A")), (6, 4, alphabet.code("T"))])
    board.place([(13, 9, alphabet.code("A")), (14, 9, alphabet.code("T") | 64)])
    wanted = -1 if wanted_text is None else sum(1 << alphabet.code(c) for c in wanted_text)
    masks, sums = cross_checks(walked_columns(board, lexicon), lexicon, wanted)
    for r in range(SIZE):
        for c in range(SIZE):
            if board.grid[r][c] != EMPTY:
                continue
            cross = column_word(board, r, c, 0)
            if cross is None:
                assert (masks[r][c], sums[r][c]) == (alphabet.all_mask, NO_CROSS), (r, c)
                continue
            expected = 0
            for letter in range(len(alphabet)):
                word = column_word(board, r, c, letter)
                if word is not None and tuple(word[0]) in words and wanted >> letter & 1:
                    expected |= 1 << letter
            assert (masks[r][c], sums[r][c]) == (expected, cross[1]), (r, c)
    # spelled out: above A and a blank T, CAT and TAT (only T among AST); the blank's points are 0
    cat_tat = {"C", "T"} if wanted_text is None else {"T"}
    assert (masks[12][9], sums[12][9]) == (sum(1 << alphabet.code(x) for x in cat_tat), alphabet.points[0])
    assert masks[4][4] == 0  # C?AT is no word
