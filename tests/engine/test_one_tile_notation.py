"""One function writes every move: a one-tile move runs along the longer word it makes (across when the
two are as long), whichever direction it came with (the move generator's, or an API tile list's)."""

from __future__ import annotations

import pytest

from engine.board.board import Board
from engine.board.move import Direction, Placement, format_move, oriented, parse_move
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5).alphabet


def _board(*words: str) -> Board:
    board = Board(EN)
    for text in words:
        board.place(parse_move(text, board).tiles)
    return board


def _tile(row: int, col: int, letter: str) -> tuple[int, int, int]:
    return (row, col, EN.code(letter))


@pytest.mark.parametrize("given", list(Direction))
@pytest.mark.parametrize(
    ("words", "tile", "written"),
    [
        (["K13 RE"], (14, 10, "I"), "K13 (RE)I"),  # a down word: not "15K I"
        (["C11 PEE"], (13, 2, "L"), "C11 (PEE)L"),  # not "14C L"
        (["8G RE"], (7, 8, "D"), "8G (RE)D"),  # an across word
        (["8G RE"], (7, 5, "A"), "8F A(RE)"),  # the tile before the word
        (["8G RE", "I7 A"], (7, 8, "D"), "8G (RE)D"),  # across RED (3) is longer than down AD (2)
        (["8G TO", "I5 ABO"], (7, 8, "A"), "I5 (ABO)A"),  # down ABOA (4) is longer than across TOA (3)
    ],
)
def test_one_tile_moves_are_written_along_the_longer_word(
    words: list[str], tile: tuple[int, int, str], written: str, given: Direction
) -> None:
    board = _board(*words)
    move = Placement((_tile(*tile),), given)
    assert format_move(move, board) == written
    assert parse_move(written, board).key == move.key  # the notation reads back as the same move
    after = board.copy()
    after.place(move.tiles)
    assert oriented(move, after).direction is oriented(move, board).direction  # before or after: the same


def test_a_tie_is_written_across_and_longer_moves_keep_their_direction() -> None:
    board = _board("8G AT", "I6 OX")  # E at 8I makes ATE across and OXE down: as long
    move = Placement((_tile(7, 8, "E"),), Direction.DOWN)
    assert oriented(move, board).direction is Direction.ACROSS
    two = Placement((_tile(9, 4, "A"), _tile(10, 4, "T")), Direction.DOWN)
    assert oriented(two, board) is two
