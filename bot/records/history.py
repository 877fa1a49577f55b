"""A recorded game as a sequence of boards, from the store alone (no server): for the HTML replay and
``hint --game ID --move N``.

The store keeps a snapshot of the game each time the bot read it (mostly when it was its turn) and
every decision with what the server made of it. The bot's own moves are put back on the board from
its applied decisions; the opponent's from the next snapshot (its ``last_move``, rescored by the
engine against the server's points). So every move gets a frame, even though the bot never read the
board right after its own move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.api.models import Game
from bot.play.convert import (
    ConversionError,
    Position,
    board_without,
    placement_from_api,
    tiles_to_squares,
    to_position,
)
from bot.play.turn import situation_of
from bot.store.store import Decision, DecisionStatus, Store
from engine.board.board import Board
from engine.board.move import Placement, format_move
from engine.board.rack import Rack
from engine.equity.strategy import Strategy, unseen_tiles
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.movegen.score import score
from engine.rules.layout import BoardLayout


@dataclass(frozen=True)
class Frame:
    """The board after ``moves`` moves of the game, and the move that led to it.

    ``players`` are (name, score) pairs, the bot first; ``to_move`` indexes them (None: game over).
    ``points`` is the server's score of the move, ``engine_points`` the engine's; ``would_play`` what
    the bot would play now in the position before one of its moves (with the strategy asked for).
    ``seat`` is who moved: 0 the bot, 1 the opponent (None for the start and the end). ``bag`` is the
    tiles left in the bag after the move (None where the snapshots do not tell); ``weighed``, at the bot's
    moves, what its decision weighed (``Store.weighed``: the strategy, its top candidates and their figures)."""

    moves: int
    board: Board
    layout: BoardLayout
    players: tuple[tuple[str, int], tuple[str, int]]
    to_move: int | None
    actor: str = ""
    action: str = "start"
    last: frozenset[tuple[int, int]] = frozenset()
    points: int | None = None
    engine_points: int | None = None
    rack: str = ""
    would_play: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)
    seat: int | None = None
    bag: int | None = None
    weighed: dict[str, Any] | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class GameRecord:
    """A recorded game's frames, oldest first, with its id and ruleset; ``final_rack`` is the bot's rack
        in the last recorded snapshot, ``random_board`` whether the game is on a random layout, ``bag`` the tiles in
    the bag then, ``opponent_rack`` the tiles the opponent held at the end of a finished game (the tiles
    neither on the board nor on the bot's rack, when the bag is empty; '' otherwise)."""

    game_id: int
    ruleset: int
    bot: str
    opponent: str
    running: bool
    frames: list[Frame]
    final_rack: str = ""
    random_board: bool = False
    bag: int = 0
    opponent_rack: str = ""


def local_user(game: Game) -> int:
    """The bot's user id in a snapshot: the player marked local, or the one whose rack is shown."""
    for player in game.players:
        if player.is_local or player.rack is not None:
            return player.id
    raise ConversionError(f"game {game.id}: the snapshot does not say which player is the bot")


def recorded_games(store: Store, game_id: int) -> list[Game]:
    """The game's snapshots, one per move count (the latest of each), oldest first; LookupError if none."""
    by_count: dict[int, Game] = {}
    for raw in store.snapshots(game_id):
        game = Game.model_validate(raw)
        if game.tiles is not None:
            by_count[game.move_count] = game
    if not by_count:
        raise LookupError(f"no recorded positions of game {game_id} in {store.path}")
    return [by_count[count] for count in sorted(by_count)]


def _grid(store: Store, game_id: int) -> Callable[[int], list[list[int]]]:
    def grid(board_id: int) -> list[list[int]]:
        saved = store.board(board_id)
        if saved is None:
            raise ConversionError(f"game {game_id}: board {board_id} was not saved")
        return saved

    return grid


def position_before_move(store: Store, game_id: int, move: int) -> Position:
    """The recorded position before the game's ``move``-th move (1 = the first), which must be the bot's.

    LookupError naming the moves that can be asked for when that position was not recorded."""
    games = recorded_games(store, game_id)
    grid = _grid(store, game_id)
    mine = []
    for game in games:
        position = to_position(game, local_user(game), grid)
        if position.my_turn:
            if game.move_count == move - 1:
                return position
            mine.append(str(game.move_count + 1))
    raise LookupError(
        f"game {game_id}: move {move} is not a recorded move of the bot; recorded moves of the bot: "
        + (", ".join(mine) or "none")
    )


def record(
    store: Store, game_id: int, lexicons: Callable[[int], Dawg] | None = None, strategy: Strategy | None = None
) -> GameRecord:
    """Every frame of a recorded game; with ``lexicons`` and ``strategy``, what the bot would play now at
    each of its moves. LookupError for a game with no recorded position."""
    games = recorded_games(store, game_id)
    decisions: dict[int, Decision] = {d.move_count: d for d in store.decisions(game_id, DecisionStatus.APPLIED)}
    weighed = store.weighed(game_id)
    grid = _grid(store, game_id)
    frames: list[Frame] = []
    user = local_user(games[0])
    bot_name = games[0].me(user).username or "bot"
    opponent = games[0].opponent(user).username or "opponent"
    for game in games:
        position = to_position(game, user, grid)
        mine, theirs = position.scores[position.seat], position.scores[1 - position.seat]
        players = ((bot_name, mine), (opponent, theirs))
        to_move = (0 if position.my_turn else 1) if game.is_running else None
        if not frames:
            frames.append(_start(game, position, players, user))
        if game.move_count > frames[-1].moves:
            frames.append(_their_frame(game, position, players, to_move, frames[-1].board, user))
        if position.my_turn and game.move_count in decisions:
            would = _would_play(position, lexicons, strategy)
            frames.append(_my_frame(position, decisions[game.move_count], players, would, weighed.get(game.move_count)))
    last = games[-1]
    final_position = to_position(last, user, grid)
    their_rack = ""
    if not last.is_running:
        final = frames[-1]
        position = final_position
        scores = (position.scores[position.seat], position.scores[1 - position.seat])
        notes = ["final scores: the tiles left on the racks are counted"]
        if position.bag_count == 0:
            rules = position.rules
            their_rack = Rack.from_bag_tiles(rules.alphabet, unseen_tiles(position.board, position.rack, rules)).text()
            notes.append(f"{opponent} held {their_rack or 'nothing'}, {bot_name} {position.rack.text() or 'nothing'}")
        frames.append(
            Frame(
                last.move_count, final.board, final.layout, ((bot_name, scores[0]), (opponent, scores[1])), None,
                action="game over", notes=tuple(notes), bag=position.bag_count,
            )
        )  # fmt: skip
    return GameRecord(
        game_id, last.ruleset, bot_name, opponent, last.is_running, frames, final_position.rack.text(),
        random_board=last.board != 0, bag=last.bag_count or 0, opponent_rack=their_rack,
    )  # fmt: skip


def _start(game: Game, position: Position, players: tuple[tuple[str, int], tuple[str, int]], user: int) -> Frame:
    """The frame before the first recorded move: the empty board when the recording starts at the start."""
    last = game.last_move
    board = position.board
    moves = game.move_count
    if moves > 0 and last is not None and last.user_id != user:
        moves -= 1
        if last.move_type == "move" and last.move:
            board = board_without(board, tiles_to_squares(last.move, position.rules.alphabet, game.id))
        players = (players[0], (players[1][0], players[1][1] - (last.points or 0)))
    to_move = 0 if moves == game.move_count and position.my_turn else 1
    bag: int | None = position.bag_count
    if moves < game.move_count:  # before the opponent's move: it drew what it played, if the bag had it
        placed = len(tiles_to_squares(last.move, position.rules.alphabet, game.id)) if last and last.move else 0
        drawn = placed if last is not None and last.move_type == "move" else 0
        bag = position.bag_count + drawn if position.bag_count > 0 or drawn == 0 else None
    return Frame(moves, board, position.rules.layout, players, to_move, bag=bag)


def _their_frame(
    game: Game,
    position: Position,
    players: tuple[tuple[str, int], tuple[str, int]],
    to_move: int | None,
    before: Board,
    user: int,
) -> Frame:
    """The opponent's move (from the snapshot's ``last_move``), rescored by the engine."""
    last = game.last_move
    new = frozenset((r, c) for r, c, t in position.board.tiles() if before.grid[r][c] != t)
    action, points, engine_points = "moved", None, None
    actor, seat = players[1][0], 1
    if last is not None:
        seat = 0 if last.user_id == user else 1
        actor = players[seat][0]
        points = last.points
        if last.move_type == "move" and last.move:
            move = placement_from_api(last.move, position.rules.alphabet, game.id, position.board)
            prior = board_without(position.board, move.tiles)
            action = format_move(move, prior)
            engine_points = score(prior, move, position.rules)
        elif last.move_type == "swap":
            action = f"swapped {last.tile_count or 0} tiles" if last.tile_count != 1 else "swapped 1 tile"
        else:
            action = {"pass": "passed", "resign": "resigned"}.get(last.move_type, last.move_type)
    return Frame(
        game.move_count, position.board, position.rules.layout, players, to_move,
        actor=actor, action=action, last=new, points=points, engine_points=engine_points, seat=seat,
        bag=position.bag_count,
    )  # fmt: skip


def _my_frame(
    position: Position,
    decision: Decision,
    players: tuple[tuple[str, int], tuple[str, int]],
    would: str,
    weighed: dict[str, Any] | None = None,
) -> Frame:
    """The bot's applied decision put on the board of the position it was made in."""
    board = position.board.copy()
    new: frozenset[tuple[int, int]] = frozenset()
    if decision.kind == "move":
        squares = tiles_to_squares(decision.payload["move"], position.rules.alphabet, position.game_id)
        board.place(squares)
        new = frozenset((r, c) for r, c, _ in squares)
    points = decision.server_points if decision.server_points is not None else decision.points
    mine = (players[0][0], players[0][1] + points)
    action = decision.notation
    if decision.kind == "swap":
        action = "swapped " + decision.notation.removeprefix("SWAP ")
    elif decision.kind == "pass":
        action = "passed"
    figures = (decision.server_points, decision.points) if decision.kind == "move" else (None, None)
    bag = max(0, position.bag_count - len(new))  # the bot draws what it played; a swap leaves the bag as it was
    return Frame(
        position.move_count + 1, board, position.rules.layout, (mine, players[1]), 1,
        actor=players[0][0], action=action, last=new,
        points=figures[0], engine_points=figures[1], rack=position.rack.text(), would_play=would, seat=0,
        bag=bag, weighed=weighed,
    )  # fmt: skip


def _would_play(position: Position, lexicons: Callable[[int], Dawg] | None, strategy: Strategy | None) -> str:
    """The move the strategy picks now in this position, with its score ('' without a strategy)."""
    if lexicons is None or strategy is None:
        return ""
    lexicon = lexicons(position.rules.id)
    placements = generate(position.board, position.rack, lexicon, position.rules)
    top = strategy.rank(situation_of(position, lexicon), placements)[0]
    text = format_move(top, position.board)
    return f"{text} {top.score}" if isinstance(top, Placement) else text
