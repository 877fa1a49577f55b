"""``wordfeud-bot demo``: the bot plays one whole game against the sandbox's house player.

A sandbox server starts in this process on 127.0.0.1 (a free port), with an account for the bot
and a greedy house player. The bot logs in over HTTP like it would to the real server and plays
through the same turn logic as ``run``/``once``; after every move the board, the move and the
scores are shown (after each of the bot's, its rack and the top candidates it weighed, with their
figures), and the final result at the end.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bot.api.credentials import Credentials
from bot.api.models import Game
from bot.escapes import escaped
from bot.play.app import build
from bot.play.convert import Position, board_without, placement_from_api, to_position
from bot.play.turn import Outcome, outcome_text
from bot.settings.config import ApiConfig, BotConfig, PlayConfig, ScheduleConfig
from bot.store.store import Store
from bot.views import terminal
from dictionaries.registry import LexiconRegistry
from engine import native
from engine.board.board import Board
from engine.board.move import Placement, format_move
from engine.rules.layout import BoardLayout
from sandbox.server import SandboxServer
from sandbox.state import State

_BOT_PASSWORD = "demo-password"  # a throwaway account on a server that lives as long as the demo


def board_picture(board: Board) -> str:
    """The board with column letters and row numbers around it (plain text)."""
    return terminal.board_picture(board)


def _new_squares(board: Board, before: Board | None) -> frozenset[tuple[int, int]]:
    """The squares that hold a tile now and did not on ``before`` (the last move's, to highlight)."""
    return frozenset((r, c) for r, c, _ in board.tiles() if before is None or before.grid[r][c] != board.grid[r][c])


def run_demo(
    ruleset: int = 5,
    seed: int = 1,
    *,
    registry: LexiconRegistry | None = None,
    out: Callable[[str], None] = print,
    store_dir: Path | None = None,
    colour: bool = False,
    strategy: str | None = None,
) -> Game:
    """Play one game bot vs house in a private sandbox; returns the final game as the bot sees it.
    With ``colour`` the boards show premium squares and the last move in ANSI colours; ``strategy``
    is the bot's (default: the configuration's default, ``play.strategy``)."""
    registry = registry or LexiconRegistry()
    registry.get(ruleset)  # fail early, naming the command that builds a missing lexicon
    state = State(registry.get, time.time, seed=seed)
    me = state.add_user("bot", "bot@sandbox.local", _BOT_PASSWORD)
    house = state.add_user("house", "house@sandbox.local", "house-password")
    state.house.add(house.id)
    sandbox_game = state.new_game(me, house, ruleset)
    with SandboxServer(state) as server, tempfile.TemporaryDirectory() as scratch:
        play = PlayConfig() if strategy is None else PlayConfig(strategy=strategy)
        config = BotConfig(
            api=ApiConfig(base_url=server.base_url), schedule=ScheduleConfig(quarantine_seconds=0), play=play
        )
        credentials = Credentials.from_password("email", me.email, _BOT_PASSWORD)
        store = Store(Path(store_dir or scratch) / "demo.sqlite3")
        wiring = build(config, credentials, store=store)
        client = wiring.client
        client.login()
        out(f"Sandbox at {server.base_url}: bot (id {me.id}) against the house player, game {sandbox_game.id}")
        game = client.game(sandbox_game.id)
        words = len(registry.get(ruleset))
        out(f"Ruleset {game.ruleset} ({sandbox_game.game.rules.name}), {words:,} words; {native.describe()}\n")
        shown = Picture(out, colour)
        from_moves = {"bot": 0, "house": 0}  # the sum of the move points, to explain the final adjustment
        if game.move_count:
            from_moves["house"] += _show_house_move(game, to_position(game, me.id, client.board), shown)
        while game.is_running:
            thought = store.thinking(game.id)
            report = wiring.bot.turns.play(game.id)
            game = client.game(game.id)
            position = to_position(game, me.id, client.board)
            house_moved = game.last_move is not None and game.last_move.user_id != me.id
            house_move = _house_placement(game, position) if house_moved else None
            after_bot = board_without(position.board, house_move.tiles if house_move else ())
            played = report.outcome == Outcome.PLAYED
            done = f"{report.notation} for {report.points} points" if played else report.notation
            out(
                f"Move {game.move_count - house_moved}: bot {outcome_text(report.outcome)} {done}".rstrip(": ")
                + f"   (bot {game.me(me.id).score})"
            )
            weighed = store.thinking(game.id)
            if weighed is not None and weighed != thought:  # a decision was made this turn
                for line in weighed_lines(weighed):
                    out(line)
            shown.board(after_bot, position.rules.layout)
            from_moves["bot"] += report.points if played else 0
            if house_moved:
                from_moves["house"] += _show_house_move(game, position, shown)
        wiring.bot.turns.play(game.id)  # the bot sees the game over: the state file records the final scores
        store.close()
    mine, theirs = game.me(me.id).score, game.opponent(me.id).score
    verdict = "the bot wins" if mine > theirs else "the house wins" if theirs > mine else "a draw"
    out(f"\nGame over after {game.move_count} moves: bot {mine}, house {theirs}: {verdict}.")
    if (mine, theirs) != (from_moves["bot"], from_moves["house"]):
        out(
            f"(The moves scored bot {from_moves['bot']}, house {from_moves['house']}; at the end of the game the "
            "points of the tiles left on a rack are taken from its player, and given to the player who went out.)"
        )
    return game


#: The candidates shown after each of the bot's moves.
WEIGHED_SHOWN = 3


def weighed_lines(facts: Mapping[str, Any], top: int = WEIGHED_SHOWN) -> list[str]:
    """What the bot weighed for a move (the store's ``thinking`` of its decision): its rack and the bag, then its
    ``top`` candidates, best first, each with its score and the figures its strategy ranked by (the simulation's
    value, and its share ahead when it ranked by the chance of winning; else the static equity)."""
    rack = escaped(str(facts.get("rack", "")))
    lines = [f"  rack {rack}, {facts.get('bag', '?')} in the bag; {escaped(str(facts.get('strategy', '')))} weighed:"]
    candidates = list(facts.get("candidates", []))[:top]
    width = max((len(str(c.get("notation", ""))) for c in candidates), default=0)
    for rank, candidate in enumerate(candidates, 1):
        parts = [f"{candidate.get('score', 0):>3} points"]
        if candidate.get("sim_value") is not None:
            parts.append(f"sim value {candidate['sim_value']:.1f}")
            if candidate.get("sim_ahead") is not None:
                parts.append(f"ahead {candidate['sim_ahead']:.0%}")
        elif candidate.get("equity") is not None:
            parts.append(f"equity {candidate['equity']:.1f}")
        notation = escaped(str(candidate.get("notation", "")))
        lines.append(f"    {rank}. {notation:<{width}}  " + ", ".join(parts))
    return lines


class Picture:
    """Prints boards, highlighting the squares that are new since the board printed before."""

    def __init__(self, out: Callable[[str], None], colour: bool) -> None:
        self.out = out
        self.colour = colour
        self.before: Board | None = None

    def board(self, board: Board, layout: BoardLayout) -> None:
        """Print the board (and remember it, for the next one's highlight)."""
        last = _new_squares(board, self.before)
        self.out(terminal.board_picture(board, layout, last, colour=self.colour) + "\n")
        self.before = board.copy()


def _scores(game: Game) -> str:
    return "(" + ", ".join(f"{escaped(p.username)} {p.score}" for p in game.players) + f"; {game.bag_count} in the bag)"


def _house_placement(game: Game, position: Position) -> Placement | None:
    """The house's last action if it was a placement."""
    last = game.last_move
    if last is None or last.move_type != "move" or not last.move:
        return None
    return placement_from_api(last.move, position.rules.alphabet, game.id, position.board)


def _show_house_move(game: Game, position: Position, shown: Picture) -> int:
    """Print the house's last action and the board after it; returns the points it scored."""
    last = game.last_move
    assert last is not None
    move = _house_placement(game, position)
    if move is not None:
        text = f"{format_move(move, board_without(position.board, move.tiles))} for {last.points} points"
    elif last.move_type == "swap":
        text = f"swapped {last.tile_count} tiles"
    else:
        text = escaped(last.move_type)
    shown.out(f"Move {game.move_count}: house {text}   {_scores(game)}")
    shown.board(position.board, position.rules.layout)
    return (last.points or 0) if move is not None else 0
