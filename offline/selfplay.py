"""``wordfeud-bot selfplay``: the move generator on show, with no server.

A seeded two-player game (the English ruleset with the bundled lexicon unless ``--ruleset`` says
otherwise): every turn prints the rack, the best moves as ``--strategy`` ranks them (greedy: by score)
with their scores, the move-generation time and the board.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from dictionaries.registry import LexiconRegistry
from engine.board.board import Board
from engine.board.move import Move, Pass, Placement, Swap, format_move
from engine.equity.strategy import Situation, Strategy, unseen_tiles
from engine.errors import LexiconError
from engine.game import OUT, Game
from engine.movegen.generate import generate
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset

#: Self-play uses the English (international) ruleset, the one the bundled lexicon is built for.
SELFPLAY_RULESET = 5
def _ranked(moves: Sequence[Placement], board: Board, top: int) -> list[tuple[int, str, Placement]]:
    """The ``top`` best moves as (score, notation, move): highest score first, then by notation.

    Notation is only worked out for moves that can make the list, since there may be tens of
    thousands of moves with two blanks.
    """
    if not moves:
        return []
    scores = sorted((m.score or 0 for m in moves), reverse=True)
    threshold = scores[min(top, len(scores)) - 1]
    candidates = [(m.score or 0, format_move(m, board), m) for m in moves if (m.score or 0) >= threshold]
    candidates.sort(key=lambda item: (-item[0], item[1], sorted(item[2].tiles)))
    return candidates[:top]


def _by_strategy(
    strategy: Strategy, situation: Situation, moves: Sequence[Placement], top: int
) -> list[tuple[int, str, Move]]:
    """The strategy's ``top`` moves as (score, notation, move); swaps and passes score 0."""
    ranked = strategy.rank(situation, moves)[:top]
    return [(m.score or 0 if isinstance(m, Placement) else 0, format_move(m, situation.board), m) for m in ranked]


def selfplay(args: argparse.Namespace) -> int:
    """Play ``args.turns`` turns of a seeded two-player game, always choosing the strategy's top move."""
    try:
        strategy = strategy_named(getattr(args, "strategy", "greedy"))
    except ValueError as exc:
        print(f"wordfeud-bot selfplay: {exc}", file=sys.stderr)
        return 2
    rules = Ruleset.for_id(getattr(args, "ruleset", SELFPLAY_RULESET))
    try:
        lexicon = LexiconRegistry().get(rules.id)
    except LexiconError as exc:
        print(f"wordfeud-bot selfplay: {exc}", file=sys.stderr)
        return 1
    game = Game(rules, lexicon, random.Random(args.seed))
    board = game.board
    print(f"Demo game: {rules.name} (ruleset {rules.id}), {len(lexicon):,} words, seed {args.seed}")
    for turn in range(1, args.turns + 1):
        player, rack = game.current, game.rack
        start = time.perf_counter()
        moves = generate(board, rack, lexicon, rules)
        elapsed_ms = (time.perf_counter() - start) * 1000
        print(f"\nTurn {turn}: player {player + 1}, rack {rack.text()}, {len(game.bag)} tiles left in the bag")
        print(f"{len(moves):,} moves generated in {elapsed_ms:.1f} ms")
        if strategy.name == "greedy":
            ranked: list[tuple[int, str, Move]] = list(_ranked(moves, board, args.top))
        else:
            unseen = unseen_tiles(board, rack, rules)
            mine = (game.scores[player], game.scores[1 - player])
            situation = Situation(board, rack, rules, lexicon, unseen, len(game.bag), mine, game.scoreless_turns)
            ranked = _by_strategy(strategy, situation, moves, args.top)
        for i, (score, notation, _) in enumerate(ranked, 1):
            print(f"  {i:>2}. {notation:<20} {score:>4}{'  <- played' if i == 1 else ''}")
        best = ranked[0][2] if ranked else Pass()
        if isinstance(best, Swap) and len(game.bag) < rules.swap_min_bag:
            best = Pass()
        if isinstance(best, Pass):
            print("  no move: pass")
        game.play(best)
        print(board.text())
        print("Score: " + ", ".join(f"player {p + 1} {s}" for p, s in enumerate(game.scores)))
        if game.end_reason == OUT:
            print(f"\nPlayer {player + 1} has no tiles left: game over.")
            break
        if game.is_over:
            print(f"\n{game.scoreless_turns} scoreless turns in a row: game over.")
            break
    return 0
