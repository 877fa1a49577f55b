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
from engine.board import Board
from engine.errors import LexiconError
from engine.move import Move, Pass, Placement, Swap, format_move
from engine.movegen import generate
from engine.rack import Rack
from engine.rules import Ruleset
from engine.strategy import Situation, Strategy, strategy_named, unseen_tiles
from engine.tiles import BLANK_FLAG

#: Self-play uses the English (international) ruleset, the one the bundled lexicon is built for.
SELFPLAY_RULESET = 5
#: A blank in the self-play bag (letter tiles are their letter codes).
_BAG_BLANK = -1
_PLAYERS = 2


def _draw(rack: Rack, bag: list[int], rack_size: int) -> Rack:
    """The rack refilled from the end of the bag (which shrinks), as far as the bag allows."""
    drawn = [bag.pop() for _ in range(min(rack_size - len(rack), len(bag)))]
    return rack.add([t for t in drawn if t != _BAG_BLANK], blanks=drawn.count(_BAG_BLANK))


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
    alphabet = rules.alphabet
    try:
        lexicon = LexiconRegistry().get(rules.id)
    except LexiconError as exc:
        print(f"wordfeud-bot selfplay: {exc}", file=sys.stderr)
        return 1
    bag = [code for code, count in enumerate(alphabet.counts) for _ in range(count)]
    bag += [_BAG_BLANK] * alphabet.blanks
    random.Random(args.seed).shuffle(bag)
    board = Board(alphabet)
    racks = [Rack.from_codes(alphabet, []) for _ in range(_PLAYERS)]
    scores = [0] * _PLAYERS
    scoreless = 0
    print(f"Demo game: {rules.name} (ruleset {rules.id}), {len(lexicon):,} words, seed {args.seed}")
    for turn in range(1, args.turns + 1):
        player = (turn - 1) % _PLAYERS
        racks[player] = _draw(racks[player], bag, rules.rack_size)
        rack = racks[player]
        if not len(rack):
            print(f"\nPlayer {player + 1} has no tiles left: game over.")
            break
        start = time.perf_counter()
        moves = generate(board, rack, lexicon, rules)
        elapsed_ms = (time.perf_counter() - start) * 1000
        print(f"\nTurn {turn}: player {player + 1}, rack {rack.text()}, {len(bag)} tiles left in the bag")
        print(f"{len(moves):,} moves generated in {elapsed_ms:.1f} ms")
        if strategy.name == "greedy":
            ranked: list[tuple[int, str, Move]] = list(_ranked(moves, board, args.top))
        else:
            unseen = unseen_tiles(board, rack, rules)
            mine = (scores[player], scores[1 - player])
            situation = Situation(board, rack, rules, lexicon, unseen, len(bag), mine, scoreless)
            ranked = _by_strategy(strategy, situation, moves, args.top)
        for i, (score, notation, _) in enumerate(ranked, 1):
            print(f"  {i:>2}. {notation:<20} {score:>4}{'  <- played' if i == 1 else ''}")
        best = ranked[0][2] if ranked else Pass()
        if isinstance(best, Placement):
            board.place(best.tiles)
            racks[player] = rack.leave([tile for _, _, tile in best.tiles])
            scores[player] += best.score or 0
            scoreless = 0
        elif isinstance(best, Swap) and len(bag) >= rules.swap_min_bag:
            racks[player] = rack.leave([BLANK_FLAG if t == _BAG_BLANK else t for t in best.tiles])
            bag[:0] = list(best.tiles)  # back into the bag, below the tiles drawn next
            scoreless += 1
        else:
            print("  no move: pass")
            scoreless += 1
        print(board.text())
        print("Score: " + ", ".join(f"player {p + 1} {s}" for p, s in enumerate(scores)))
        if scoreless >= rules.scoreless_turns_to_end:
            print(f"\n{scoreless} scoreless turns in a row: game over.")
            break
    return 0
