"""What two candidate moves of a recorded demo position are really worth: each played, then the rest of the game
played out many times by the bot's policy against the sandbox's greedy house player, from random deals of the
unseen tiles consistent with what the bot knows (docs/how-the-bot-decides.md, "A decision examined").

    .venv/bin/python scripts/decision_worth.py --move 21 --first 'D12 M(IN)E' --second 'D4 BESMILE' \
        --games 2000 --bot equity+endgame --seed 1

The demo (ruleset 5, seed 1) is played with the fixed-work sim (``sim:seconds=0``: the same game on every
machine); the position before the bot's move ``--move`` is read back from its state file. The deals: the house's
rack drawn uniformly from the unseen tiles, kept only when the greedy house would have made its last play from
what it then held (a 4-tile keep drawn from that rack plus the tiles it played), the rest of the bag in a random
order; both moves are played on the same deals. ``--true`` plays the one real deal (the sandbox's bag) too.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from pathlib import Path

from bot.play.convert import board_without
from bot.play.turn import situation_of
from bot.records.history import position_before_move
from bot.store.store import Store
from cli.demo import run_demo
from dictionaries.registry import LexiconRegistry
from engine.board.move import Placement, format_move
from engine.board.rack import Rack
from engine.equity.strategy import Situation
from engine.game import Game
from engine.movegen.generate import generate
from engine.players.registry import strategy_named
from engine.rules.tiles import bag_tile
from sandbox import state as sandbox_state

DEMO_STRATEGY = "sim:seconds=0"


def house_move(game: Game) -> None:
    """The sandbox house player's move (sandbox.state.State.play_house_turns)."""
    moves = generate(game.board, game.rack, game.lexicon, game.rules)
    if moves:
        game.place(max(moves, key=lambda m: (m.score or 0, sorted(m.tiles))))
    elif len(game.bag) >= game.rules.swap_min_bag:
        game.swap(game.rack.bag_tiles())
    else:
        game.pass_turn()


def demo_game(directory: Path) -> tuple[int, Game, int]:
    """Play the demo into ``directory``: its game id, the sandbox's engine game at its end and its bag seed."""
    made: list[sandbox_state.SandboxGame] = []
    original = sandbox_state.State.new_game

    def new_game(self: sandbox_state.State, *args: object, **kwargs: object) -> sandbox_state.SandboxGame:
        game = original(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(game)
        return game

    sandbox_state.State.new_game = new_game  # type: ignore[method-assign]
    try:
        game = run_demo(5, 1, registry=LexiconRegistry([]), out=lambda _: None, store_dir=directory,
                        strategy=DEMO_STRATEGY)
    finally:
        sandbox_state.State.new_game = original  # type: ignore[method-assign]
    return game.id, made[0].game, made[0].seed


def true_game(played: Game, seed: int, before: int) -> Game:
    """The sandbox's game as it stood before move ``before`` (its real bag and racks), replayed from its seed."""
    game = Game(played.rules, played.lexicon, random.Random(seed))
    for turn in played.history[: before - 1]:
        game.play(turn.action)  # type: ignore[arg-type]
    return game


def find(situation: Situation, text: str) -> Placement:
    for move in generate(situation.board, situation.rack, situation.lexicon, situation.rules):
        if format_move(move, situation.board) == text:
            return move
    raise SystemExit(f"no move {text!r} in the position")


def deal(
    situation: Situation, rng: random.Random, last: Placement | None, house_board: object
) -> tuple[Rack, list[int]]:
    """A house rack and a bag order consistent with the house's last (greedy) play."""
    rules = situation.rules
    held = len(situation.unseen) - situation.bag_count
    while True:
        unseen = list(situation.unseen)
        rng.shuffle(unseen)
        rack, bag = unseen[:held], unseen[held:]
        if last is None:
            return Rack.from_bag_tiles(rules.alphabet, rack), bag
        keep = rng.sample(rack, held - len(last.tiles))
        played = [bag_tile(t) for _, _, t in last.tiles]
        before = Rack.from_bag_tiles(rules.alphabet, keep + played)
        moves = generate(house_board, before, situation.lexicon, rules)  # type: ignore[arg-type]
        if moves:
            best = max(moves, key=lambda m: (m.score or 0, sorted(m.tiles)))
            if sorted(best.tiles) == sorted(last.tiles):
                return Rack.from_bag_tiles(rules.alphabet, rack), bag


def play_on(situation: Situation, move: Placement, house: Rack, bag: list[int], bot: object) -> int:
    """Our ``move``, then the game to its end (bot seat 0, house seat 1): the final margin, ours minus theirs."""
    game = Game.__new__(Game)
    game.rules, game.lexicon, game.rng = situation.rules, situation.lexicon, random.Random(0)
    game.swap_counts_as_scoreless = True
    game.board = situation.board.copy()
    game.bag = list(reversed(bag))  # Game draws with pop(): the bag's front is drawn first
    game.racks = [situation.rack, house]
    game.scores = list(situation.scores)
    game.current = 0
    game.scoreless_turns = situation.scoreless
    game.history, game.end_reason, game.resigned, game.end_adjustments = [], None, None, [0, 0]
    game.place(move)
    while not game.is_over:
        if game.current == 0:
            game.play(bot.best(Situation.of(game), 1)[0])  # type: ignore[attr-defined]
        else:
            house_move(game)
    return game.scores[0] - game.scores[1]


def interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--move", type=int, default=21)
    parser.add_argument("--first", default="D12 M(IN)E")
    parser.add_argument("--second", default="D4 BESMILE")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--bot", default="equity+endgame", help="the bot's policy after the move")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument("--sim", action="append", default=[], help="also show this sim's figures (repeatable)")
    parser.add_argument("--true", action="store_true", help="also play the real deal once a side")
    parser.add_argument("--state", type=Path, help="read the position from this recorded demo instead of playing it")
    parser.add_argument("--game", type=int, default=0, help="with --state: the game's id")
    args = parser.parse_args()
    # the demo's sim thinks at most 2 s a move (play.seconds_per_move): on a loaded machine it can play another game
    # than the fixed-work one, so a recorded state file (--state) is the reproducible way
    with tempfile.TemporaryDirectory() as scratch:
        if args.state is None:
            game_id, played, seed = demo_game(Path(scratch))
            store = Store(Path(scratch) / "demo.sqlite3")
        else:
            if args.true:
                raise SystemExit("--true needs the demo played here (no --state)")
            game_id, store = args.game, Store(args.state)
        position = position_before_move(store, game_id, args.move)
        store.close()
    situation = situation_of(position, LexiconRegistry([]).get(5))
    moves = [find(situation, args.first), find(situation, args.second)]
    print(f"move {args.move}: rack {situation.rack.text()}, {situation.bag_count} in the bag, "
          f"scores {situation.scores[0]}-{situation.scores[1]}")
    for name in args.sim:
        sim = strategy_named(name)
        ranked = sim.best(situation, 1)
        result = sim.last  # type: ignore[attr-defined]
        figures = {format_move(e.move, situation.board): e for e in result.ranked}
        row = ", ".join(f"{text}: {figures[text].mean:.1f} ahead {figures[text].win_rate:.1%}"
                        for text in (args.first, args.second) if text in figures)
        place = [format_move(e.move, situation.board) for e in result.ranked]
        ranks = ", ".join(f"{text} #{place.index(text) + 1}" for text in (args.first, args.second) if text in place)
        print(f"{name}: plays {format_move(ranked[0], situation.board)} ({result.iterations} iterations); "
              f"{row}; {ranks}")
        sys.stdout.flush()
    last = position.their_last
    house_board = board_without(position.board, last.tiles) if last is not None else None
    bot = strategy_named(args.bot)
    if args.true:
        real = true_game(played, seed, args.move)
        for move in moves:
            house, bag = real.racks[1], list(reversed(real.bag))
            print(f"the real deal (house {house.text()}): {format_move(move, situation.board)} ends "
                  f"{play_on(situation, move, house, bag, bot):+d}")
    rng = random.Random(args.seed)
    margins: list[list[float]] = [[], []]
    started = time.monotonic()
    for index in range(args.games):
        house, bag = deal(situation, rng, last, house_board)
        for side, move in enumerate(moves):
            margins[side].append(play_on(situation, move, house, list(bag), bot))
        if (index + 1) % 200 == 0:
            print(f"  {index + 1} games a move, {time.monotonic() - started:.0f} s", file=sys.stderr)
    if not args.games:
        return 0
    for side, move in enumerate(moves):
        wins = [1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins[side]]
        rate, rate_half = interval(wins)
        mean, half = interval(margins[side])
        print(f"{format_move(move, situation.board)}: wins {rate:.1%} (±{rate_half:.1%}), "
              f"margin {mean:+.1f} (±{half:.1f}) over {len(wins)} games")
    difference = [a - b for a, b in zip(margins[0], margins[1], strict=True)]
    won = [(a > 0) - (b > 0) for a, b in zip(margins[0], margins[1], strict=True)]
    d_mean, d_half = interval(difference)
    w_mean, w_half = interval([float(w) for w in won])
    print(f"first minus second on the same deals: wins {w_mean:+.1%} (±{w_half:.1%}), "
          f"margin {d_mean:+.1f} (±{d_half:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
