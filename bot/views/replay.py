"""``wordfeud-bot replay GAME``: re-run the engine on every recorded position of a game.

For each snapshot the store kept (the API game as the bot saw it when deciding) it prints the
opponent's previous move with the score the engine computes for it against the score the server
gave, then, on our turns, what the bot played (engine score and server score) and what it would
play now. Needs no server: boards and snapshots come from the store. The lexicon is the bot's
view of it: with the words the server accepted and without those it refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.api.models import Game
from bot.play.convert import ConversionError, Position, board_without, placement_from_api, to_position
from bot.play.turn import situation_of
from bot.store.store import DecisionStatus, Store
from engine.board.move import Placement, format_move
from engine.equity.strategy import Greedy, Strategy
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.movegen.score import score


@dataclass(frozen=True)
class ReplayLine:
    """One checked position: the move number and what was found."""

    move_count: int
    text: str
    mismatch: bool = False


def _local_user(game: Game) -> int:
    for player in game.players:
        if player.is_local or player.rack is not None:
            return player.id
    raise ConversionError(f"game {game.id}: the snapshot does not say which player is the bot")


def replay(
    store: Store, game_id: int, lexicons: Callable[[int], Dawg], strategy: Strategy | None = None
) -> list[ReplayLine]:
    """The replay of a recorded game, position by position. Raises LookupError for an unknown game."""
    snapshots = [Game.model_validate(s) for s in store.snapshots(game_id)]
    if not snapshots:
        raise LookupError(f"no recorded positions of game {game_id} in {store.path}")
    decisions = {d.move_count: d for d in store.decisions(game_id, DecisionStatus.APPLIED)}
    learned = store.learned()  # the bot's view: its lexicon with the accepted words, without the refused ones
    lines: list[ReplayLine] = []

    def grid(board_id: int) -> list[list[int]]:
        saved = store.board(board_id)
        if saved is None:
            raise ConversionError(f"game {game_id}: board {board_id} was not saved")
        return saved

    done: set[int] = set()
    for game in snapshots:
        if game.move_count in done or game.tiles is None:
            continue
        done.add(game.move_count)
        user = _local_user(game)
        position = to_position(game, user, grid)
        lines.extend(_their_move(game, position, user))
        if not position.my_turn:
            continue
        lexicon = learned.apply(lexicons(position.rules.id), position.rules)
        placements = generate(position.board, position.rack, lexicon, position.rules)
        top = (strategy or Greedy()).rank(situation_of(position, lexicon), placements)[0]
        best = format_move(top, position.board)
        if isinstance(top, Placement):
            best += f" {top.score}"
        decision = decisions.get(game.move_count)
        if decision is None:
            played = "nothing recorded"
            mismatch = False
        else:
            server = "?" if decision.server_points is None else str(decision.server_points)
            played = f"{decision.notation} (engine {decision.points}, server {server})"
            mismatch = decision.server_points is not None and decision.server_points != decision.points
        lines.append(
            ReplayLine(
                game.move_count,
                f"move {game.move_count + 1}: rack {position.rack.text()}: played {played}; would play now {best}",
                mismatch,
            )
        )
    return lines


def _their_move(game: Game, position: Position, user: int) -> list[ReplayLine]:
    """The opponent's last placement rescored by the engine on the board before it."""
    last = game.last_move
    if last is None or last.move_type != "move" or last.user_id == user or not last.move or last.points is None:
        return []
    move = placement_from_api(last.move, position.rules.alphabet, game.id, position.board)
    before = board_without(position.board, move.tiles)
    engine_points = score(before, move, position.rules)
    mismatch = engine_points != last.points
    text = (
        f"move {game.move_count}: {position.opponent} played {format_move(move, before)}: "
        f"engine {engine_points}, server {last.points}{'  <- differs' if mismatch else ''}"
    )
    return [ReplayLine(game.move_count - 1, text, mismatch)]
