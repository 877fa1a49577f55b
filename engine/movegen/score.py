"""The reference validator and scorer, written independently of move generation.

``validate`` explains why a placement is illegal; ``score`` counts a legal placement's points:
premiums only under new tiles, in the main word and every cross word, blanks 0, and the bingo
bonus when a full rack is played. Moves from outside (the server, tests, the command line) go
through here; generated moves are checked against it in the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.board.board import EMPTY, Board, Square
from engine.board.move import Direction, Placement, square_name
from engine.board.rack import Rack
from engine.errors import IllegalMoveError, InvalidMoveError
from engine.lexicon.dawg import Dawg
from engine.rules.layout import SIZE
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG, LETTER_MASK

#: A word formed by a move: the squares it covers as (row, col, tile, is_new).
WordSquares = tuple[tuple[int, int, int, bool], ...]


def _check_shape(board: Board, move: Placement) -> Direction:
    """Malformed-move checks; returns the direction the new tiles lie in."""
    if not move.tiles:
        raise InvalidMoveError("a placement needs at least one tile")
    seen = set()
    alphabet = board.alphabet
    for r, c, tile in move.tiles:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise InvalidMoveError(f"square ({r}, {c}) is off the board")
        if (r, c) in seen:
            raise InvalidMoveError(f"two tiles on square {square_name(r, c, Direction.ACROSS)}")
        if tile < 0 or tile & ~(BLANK_FLAG | LETTER_MASK) or (tile & LETTER_MASK) >= len(alphabet):
            raise InvalidMoveError(f"tile code {tile!r} is not a letter of the alphabet")
        seen.add((r, c))
    rows = {r for r, _, _ in move.tiles}
    cols = {c for _, c, _ in move.tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMoveError("the tiles are not in one line")
    if len(move.tiles) == 1:
        return move.direction
    return Direction.ACROSS if len(rows) == 1 else Direction.DOWN


def _word_at(board: Board, new: dict[tuple[int, int], int], r: int, c: int, direction: Direction) -> WordSquares:
    dr, dc = (0, 1) if direction is Direction.ACROSS else (1, 0)
    grid = board.grid

    def filled(rr: int, cc: int) -> bool:
        return 0 <= rr < SIZE and 0 <= cc < SIZE and (grid[rr][cc] != EMPTY or (rr, cc) in new)

    while filled(r - dr, c - dc):
        r, c = r - dr, c - dc
    word = []
    while filled(r, c):
        if (r, c) in new:
            word.append((r, c, new[(r, c)], True))
        else:
            word.append((r, c, grid[r][c], False))
        r, c = r + dr, c + dc
    return tuple(word)


def words_formed(board: Board, move: Placement) -> list[WordSquares]:
    """The main word first, then every cross word (2+ tiles) the move makes."""
    direction = _check_shape(board, move)
    new = {(r, c): t for r, c, t in move.tiles}
    for r, c in new:
        if board.grid[r][c] != EMPTY:
            raise IllegalMoveError(f"square {square_name(r, c, Direction.ACROSS)} is already occupied")
    r0, c0, _ = move.tiles[0]
    main = _word_at(board, new, r0, c0, direction)
    words = [main] if len(main) > 1 else []
    across = direction is Direction.ACROSS
    cross_dir = Direction.DOWN if across else Direction.ACROSS
    for r, c, _ in move.tiles:
        cross = _word_at(board, new, r, c, cross_dir)
        if len(cross) > 1:
            words.append(cross)
    return words


def validate(board: Board, move: Placement, rack: Rack, lexicon: Dawg, rules: Ruleset) -> None:
    """Raise IllegalMoveError saying why the placement is not legal here; return None if it is.

    InvalidMoveError is raised instead for malformed input (off the board, a square twice...).
    """
    _check_shape(board, move)
    rack.leave([t for _, _, t in move.tiles])  # raises IllegalMoveError naming the missing tile
    words = check_placement(board, move, rules)
    alphabet = rules.alphabet
    for word in words:
        codes = tuple(t & LETTER_MASK for _, _, t, _ in word)
        if not lexicon.contains(codes):
            text = alphabet.format_word(codes)
            raise IllegalMoveError(f"{text} is not in the word list", word=text)


def check_placement(board: Board, move: Placement, rules: Ruleset) -> list[WordSquares]:
    """The words a placement makes (main word first), if it is one a player could make here with some
    rack and some word list: at most a rack's worth of tiles, in one line on empty squares, without
    a gap, covering the start square on an empty board (two tiles at least) or touching a tile
    otherwise, making a word of two letters or more. Raises IllegalMoveError (InvalidMoveError for
    malformed input) saying what is wrong. ``validate`` adds the rack and the word list."""
    direction = _check_shape(board, move)
    if len(move.tiles) > rules.rack_size:
        raise IllegalMoveError(f"{len(move.tiles)} tiles placed, a rack holds {rules.rack_size}")
    new = {(r, c): t for r, c, t in move.tiles}
    for r, c in new:
        if board.grid[r][c] != EMPTY:
            raise IllegalMoveError(f"square {square_name(r, c, Direction.ACROSS)} is already occupied")
    # no gaps: every square between the first and last new tile is new or already occupied
    rs = [r for r, _, _ in move.tiles]
    cs = [c for _, c, _ in move.tiles]
    if direction is Direction.ACROSS:
        line = [(rs[0], c) for c in range(min(cs), max(cs) + 1)]
    else:
        line = [(r, cs[0]) for r in range(min(rs), max(rs) + 1)]
    for r, c in line:
        if (r, c) not in new and board.grid[r][c] == EMPTY:
            raise IllegalMoveError(f"the word has a gap at {square_name(r, c, Direction.ACROSS)}")
    if board.is_empty():
        if rules.layout.start not in new:
            sr, sc = rules.layout.start
            raise IllegalMoveError(
                f"the first move must cover the start square {square_name(sr, sc, Direction.ACROSS)}"
            )
        if len(new) < 2:
            raise IllegalMoveError("the first move must make a word of at least two letters")
    else:
        touches = any(board.has_neighbour(r, c) for r, c in new)
        if not touches:
            raise IllegalMoveError("the move does not touch any tile on the board")
    words = words_formed(board, move)
    if not words:
        raise IllegalMoveError("the move makes no word of two or more letters")
    return words


def score(board: Board, move: Placement, rules: Ruleset) -> int:
    """Points of a placement (assumed legal) in the position before it is played."""
    layout = rules.layout
    alphabet = rules.alphabet
    total = 0
    for word in words_formed(board, move):
        total += _word_score(word, layout.letter_multiplier, layout.word_multiplier, alphabet.points)
    if len(move.tiles) == rules.rack_size:
        total += rules.bingo_bonus
    return total


def _word_score(
    word: WordSquares,
    letter_mult: Callable[[int, int], int],
    word_mult: Callable[[int, int], int],
    points: tuple[int, ...],
) -> int:
    base = 0
    factor = 1
    for r, c, tile, is_new in word:
        value = 0 if tile & BLANK_FLAG else points[tile & LETTER_MASK]
        if is_new:
            value *= letter_mult(r, c)
            factor *= word_mult(r, c)
        base += value
    return base * factor


def scored(board: Board, moves: Iterable[Placement], rules: Ruleset) -> list[Placement]:
    """The moves with their ``score`` field filled in by ``score``."""
    return [m.with_score(score(board, m, rules)) for m in moves]


def word_texts(board: Board, move: Placement) -> list[str]:
    """The words a move makes (main word first), as upper-case text."""
    alphabet = board.alphabet
    return [alphabet.format_word([t for _, _, t, _ in w]) for w in words_formed(board, move)]


__all__ = ["Square", "check_placement", "score", "scored", "validate", "word_texts", "words_formed"]
