"""``python -m offline.bench.realized``: two strategies' one-in-bag choices played out against a static opponent.

At the one-in-bag positions of ``offline.bench.oneinbag`` (seeded equity games) strategies A and B choose;
where they choose differently, each choice is played to the end of the game once for every tile the bag
can hold (the other unseen tiles on the opponent's rack): the chooser's later moves by the chooser, the
opponent's by ``--opponent``. The final margin and the win (a half for a tie), weighted by the tile's
copies, are compared A minus B with 95% intervals over the positions where the two differ. An arena plays
such a decision out once, on the tile the bag happened to hold; here every tile's game is played, so the
luck of the last draw cancels and a few positions tell much. Fixed-work strategies only; progress goes
to stderr, the figures to stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.board.move import Move
from engine.board.rack import Rack
from engine.equity.strategy import Situation, Strategy
from engine.errors import LexiconError
from engine.game import Game
from engine.lookahead.preendgame import bag_splits
from engine.players.arena import Interval
from offline.bench.census import fixed_work, fixed_work_options
from offline.bench.oneinbag import DEFAULT_STRATEGY, games_at_one_in_bag

DEFAULT_A = DEFAULT_STRATEGY  # the default's fixed twin, which values one tile in the bag exactly
DEFAULT_B = DEFAULT_STRATEGY + ",exact=0"  # the same without
DEFAULT_OPPONENT = "equity"


@dataclass(frozen=True)
class Difference:
    """One position where A and B chose differently: A's mean final margin and share won minus B's."""

    margin: float
    wins: float


def play_out(game: Game, move: Move, tile: int, theirs: Rack, ours: Strategy, opponent: Strategy) -> int:
    """The final margin of the side to move in ``game`` (left as it is) after it plays ``move`` with ``tile`` in
    the bag and ``theirs`` on the opponent's rack, its later moves by ``ours`` and the opponent's by ``opponent``."""
    played = game.copy()
    played.bag = [tile]
    side = game.current
    played.racks[1 - side] = theirs
    played.play(move)
    while not played.is_over:
        player = ours if played.current == side else opponent
        played.play(player.best(Situation.of(played), 1)[0])
    return played.scores[side] - played.scores[1 - side]


def realized(game: Game, move: Move, ours: Strategy, opponent: Strategy) -> tuple[float, float]:
    """The mean final margin and share of games won (a tie a half) of ``move`` over every tile the bag can
    hold, each weighted by its copies among the unseen tiles."""
    unseen = game.unseen(game.current)
    margin = wins = weight = 0.0
    for tile, theirs, ways in bag_splits(unseen, game.rules.alphabet):
        result = play_out(game, move, tile, theirs, ours, opponent)
        margin += ways * result
        wins += ways * (1.0 if result > 0 else 0.5 if result == 0 else 0.0)
        weight += ways
    return margin / weight, wins / weight


def compare(
    a: str, b: str, opponent: str, *, games: int, ruleset: int, seed: int, progress: Callable[[str], None] | None = None
) -> tuple[list[Difference], int]:
    """The differences at the positions where A and B chose differently, and the number of positions."""
    first, second, against = fixed_work(a), fixed_work(b), fixed_work(opponent)
    found: list[Difference] = []
    count = 0
    for game in games_at_one_in_bag(ruleset, seed, games):
        count += 1
        situation = Situation.of(game)
        mine, theirs = first.best(situation, 1)[0], second.best(situation, 1)[0]
        if mine != theirs:
            margin_a, wins_a = realized(game, mine, first, against)
            margin_b, wins_b = realized(game, theirs, second, against)
            found.append(Difference(margin_a - margin_b, wins_a - wins_b))
        if progress:
            progress(f"position {count}: {found[-1] if found and mine != theirs else 'the same choice'}")
    return found, count


def summary_lines(found: Sequence[Difference], count: int) -> Iterator[str]:
    """The positions, those where the choices differ, and the mean differences with 95% intervals over them."""
    yield f"positions {count}, choices differ at {len(found)}"
    if not found:
        return
    for name, values, form in (
        ("margin a game, A minus B", [d.margin for d in found], "{:+.2f}"),
        ("share won, A minus B", [d.wins for d in found], "{:+.2%}"),
    ):
        mean = Interval.over(values)
        yield f"{name}: {form.format(mean.mean)} (95% CI {form.format(mean.low)} .. {form.format(mean.high)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m offline.bench.realized", description=__doc__.splitlines()[0].split(": ", 1)[1]
    )
    parser.add_argument("--a", default=DEFAULT_A, help=f"strategy A (default: {DEFAULT_A})")
    parser.add_argument("--b", default=DEFAULT_B, help=f"strategy B (default: {DEFAULT_B})")
    parser.add_argument(
        "--opponent", default=DEFAULT_OPPONENT, help=f"who plays the rest against them (default: {DEFAULT_OPPONENT})"
    )
    parser.add_argument(
        "--games", type=int, default=100,
        help="seeded equity games; about one in four reaches one tile in the bag (default 100)",
    )  # fmt: skip
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset id (default 5, English)")
    parser.add_argument("--seed", type=int, default=0, help="the games' seed (default 0)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games {args.games}: expected at least 1")
    fixed_work_options(parser, args, "a", "b", "opponent")
    started = time.monotonic()
    try:
        found, count = compare(
            args.a, args.b, args.opponent, games=args.games, ruleset=args.ruleset, seed=args.seed,
            progress=lambda line: print(line, file=sys.stderr, flush=True),
        )  # fmt: skip
    except LexiconError as error:
        print(f"python -m offline.bench.realized: {error}", file=sys.stderr)
        return 1
    print(f"A {args.a} against B {args.b}, played out against {args.opponent}")
    for line in summary_lines(found, count):
        print(line)
    print(f"ruleset {args.ruleset}, seed {args.seed}, {args.games} games, {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
