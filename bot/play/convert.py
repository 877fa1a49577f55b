"""The one translation between the API's games and the engine's objects.

The API speaks ``[x, y, letter, is_blank]`` tiles (x = column, y = row), racks of one-letter
strings with ``""`` for a blank, and board ids (0 = the standard layout, others fetched as a
0..4 grid). The engine speaks ``(row, col, code)`` squares, ``Rack`` and ``Ruleset``.

>>> from bot.api.models import Game
>>> game = Game.model_validate({"id": 1, "ruleset": 5, "board": 0, "current_player": 0,
...     "is_running": True, "move_count": 1, "updated": 0, "bag_count": 86,
...     "tiles": [[7, 7, "H", False], [8, 7, "I", True]],
...     "players": [{"id": 7, "position": 0, "score": 0, "rack": ["Q", ""]},
...                 {"id": 8, "position": 1, "score": 5}]})
>>> position = to_position(game, 7, board_grid=lambda board_id: [])
>>> position.board.text().splitlines()[7], position.rack.text(), position.scores
('.......Hi......', 'Q?', (0, 5))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.api.models import ApiTile, Game
from bot.api.submission import Kind, Submission
from bot.errors import ProtocolError
from engine.board.board import Board
from engine.board.move import Direction, Move, Placement, Swap, format_move, oriented
from engine.board.rack import Rack
from engine.errors import EngineError
from engine.movegen.score import word_texts
from engine.rules.layout import BoardLayout
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK, BLANK_FLAG, LETTER_MASK, Alphabet, bag_tile

#: Fetches a board layout's 0..4 grid by id (the client's cached ``board``).
BoardGrid = Callable[[int], list[list[int]]]


@dataclass(frozen=True)
class Position:
    """A game as the engine sees it from our seat."""

    game_id: int
    rules: Ruleset
    board: Board
    rack: Rack
    seat: int
    scores: tuple[int, int]
    bag_count: int
    move_count: int
    my_turn: bool
    opponent: str
    their_last: Placement | None = None  # the opponent's last action if it was a placement (with its points)
    scoreless: int = 0  # scoreless turns in a row so far (``pass_count``)


class ConversionError(ProtocolError):
    """An API game that cannot be an engine position (unknown ruleset, letter, square)."""


def ruleset_of(game: Game, board_grid: BoardGrid) -> Ruleset:
    """The game's ruleset on its board: the standard layout for board 0, else the fetched grid."""
    try:
        rules = Ruleset.for_id(game.ruleset)
    except EngineError as exc:
        raise ConversionError(f"game {game.id}: field 'ruleset': {exc}") from None
    if game.board != 0:
        try:
            rules = rules.with_layout(BoardLayout.from_api_grid(board_grid(game.board)))
        except EngineError as exc:
            raise ConversionError(f"game {game.id}: field 'board' ({game.board}): {exc}") from None
    return rules


def tiles_to_squares(tiles: Iterable[ApiTile], alphabet: Alphabet, game_id: int) -> list[tuple[int, int, int]]:
    """API tiles as engine squares ``(row, col, code)`` with the blank flag where ``is_blank``."""
    squares = []
    for x, y, letter, is_blank in tiles:
        if not (0 <= x < 15 and 0 <= y < 15):
            raise ConversionError(f"game {game_id}: field 'tiles': {letter!r} at x={x}, y={y} is off the board")
        try:
            code = alphabet.code(letter)
        except EngineError as exc:
            raise ConversionError(f"game {game_id}: field 'tiles': tile at x={x}, y={y}: {exc}") from None
        squares.append((y, x, code | BLANK_FLAG if is_blank else code))
    return squares


def rack_from_api(letters: Sequence[str], rules: Ruleset, game_id: int) -> Rack:
    """A rack from the API's strings (``""`` = blank), no larger than the ruleset's rack."""
    if len(letters) > rules.rack_size:
        raise ConversionError(
            f"game {game_id}: field 'rack': {len(letters)} tiles; "
            f"ruleset {rules.id} racks hold at most {rules.rack_size}"
        )
    alphabet = rules.alphabet
    try:
        codes = [alphabet.code(letter) for letter in letters if letter != ""]
    except EngineError as exc:
        raise ConversionError(f"game {game_id}: field 'rack' {list(letters)!r}: {exc}") from None
    return Rack.from_codes(alphabet, codes, blanks=sum(1 for letter in letters if letter == ""))


def to_position(game: Game, user_id: int, board_grid: BoardGrid) -> Position:
    """The engine position of a detailed game (``game/<id>/``) from the seat of ``user_id``.

    Raises ConversionError (a ProtocolError) naming the field when the game breaks its ruleset."""
    if game.tiles is None or game.bag_count is None:
        missing = "tiles" if game.tiles is None else "bag_count"
        raise ConversionError(f"game {game.id}: field {missing!r} is missing (a game's list form cannot be played)")
    me = game.me(user_id)
    opponent = game.opponent(user_id)
    rules = ruleset_of(game, board_grid)
    board = Board(rules.alphabet)
    try:
        board.place(tiles_to_squares(game.tiles, rules.alphabet, game.id))
    except EngineError as exc:
        raise ConversionError(f"game {game.id}: field 'tiles': {exc}") from None
    rack = rack_from_api(me.rack or [], rules, game.id)
    _check_tile_counts(board, rack, rules, game.id)
    scores = [0, 0]
    for player in game.players:
        scores[player.position] = player.score
    return Position(
        game_id=game.id,
        rules=rules,
        board=board,
        rack=rack,
        seat=me.position,
        scores=(scores[0], scores[1]),
        bag_count=game.bag_count,
        move_count=game.move_count,
        my_turn=game.is_running and game.current_player == me.position,
        opponent=opponent.username,
        their_last=_their_last(game, opponent.id, board, rules),
        scoreless=game.pass_count or 0,
    )


def _their_last(game: Game, opponent: int, board: Board, rules: Ruleset) -> Placement | None:
    """The opponent's last placement with its points, if the last action was one and its tiles are on
    the board as the game says (else None: the look-ahead then assumes nothing about their rack)."""
    last = game.last_move
    if last is None or last.move_type != "move" or last.user_id != opponent or not last.move or last.points is None:
        return None
    try:
        move = placement_from_api(last.move, rules.alphabet, game.id, board)
    except ConversionError:
        return None
    if any(board[row, col] != tile for row, col, tile in move.tiles):
        return None
    return move.with_score(last.points)


def _check_tile_counts(board: Board, rack: Rack, rules: Ruleset, game_id: int) -> None:
    """No letter (or blank) on the board and our rack more often than the ruleset's bag holds it."""
    alphabet = rules.alphabet
    seen = Counter(bag_tile(tile) for _, _, tile in board.tiles())
    seen.update(rack.letters())
    seen[BLANK] += rack.blanks
    for code, count in sorted(seen.items()):
        have = alphabet.blanks if code == BLANK else alphabet.counts[code]
        if count > have:
            what = "blanks" if code == BLANK else f"{alphabet.symbol(code)} tiles"
            raise ConversionError(
                f"game {game_id}: fields 'tiles' and 'rack': {count} {what} on the board and the rack; "
                f"ruleset {rules.id} has {have}"
            )


def board_without(board: Board, squares: Iterable[tuple[int, int, int]]) -> Board:
    """A copy of the board without these tiles (the board before a move, for its notation and score)."""
    gone = set(squares)
    before = Board(board.alphabet)
    before.place([square for square in board.tiles() if square not in gone])
    return before


def placement_tiles(move: Placement, alphabet: Alphabet) -> list[ApiTile]:
    """An engine placement as the API's ``move`` list: ``[x, y, LETTER, is_blank]`` per new tile."""
    return [(col, row, alphabet.symbol(tile & LETTER_MASK), bool(tile & BLANK_FLAG)) for row, col, tile in move.tiles]


def placement_words(move: Placement, board: Board) -> list[str]:
    """The words a placement forms on the board before it, main word first (upper case)."""
    return word_texts(board, move)


def placement_from_api(
    tiles: Sequence[ApiTile], alphabet: Alphabet, game_id: int, board: Board | None = None
) -> Placement:
    """An API tile list (a ``last_move``) as an engine placement. A one-tile list cannot say its
    direction: with the ``board`` (before or after the move) it runs along the longer word it makes
    (``engine.board.move.oriented``), as ``format_move`` writes it in any case."""
    squares = sorted(tiles_to_squares(tiles, alphabet, game_id))
    direction = Direction.ACROSS if len({r for r, _, _ in squares}) == 1 else Direction.DOWN
    move = Placement(tuple(squares), direction)
    return oriented(move, board) if board is not None else move


def swap_letters(tiles: Iterable[int], alphabet: Alphabet) -> list[str]:
    """Engine swap tiles (letter codes, ``BLANK`` for a blank) as the API's strings."""
    return ["" if tile == BLANK else alphabet.symbol(tile) for tile in tiles]


def submission(move: Move, board: Board, rules: Ruleset) -> Submission:
    """An engine move as what the server is sent, with its notation and the engine's points.

    >>> from engine.board.move import parse_move
    >>> rules = Ruleset.for_id(5)
    >>> board = Board(rules.alphabet)
    >>> submission(parse_move("8G HI", board), board, rules).body()
    {'move': [[6, 7, 'H', False], [7, 7, 'I', False]], 'ruleset': 5, 'words': ['HI']}
    """
    notation = format_move(move, board)
    if isinstance(move, Placement):
        tiles = tuple(placement_tiles(move, rules.alphabet))
        return Submission(Kind.MOVE, notation, move.score or 0, tiles, tuple(placement_words(move, board)), rules.id)
    if isinstance(move, Swap):
        return Submission(Kind.SWAP, notation, letters=tuple(swap_letters(move.tiles, rules.alphabet)))
    return Submission(Kind.PASS, notation)
