"""``python -m offline.bench.oneinbag``: what a strategy's choices with one tile in the bag lose against the exact
values.

Seeded games of ``equity`` against itself are played until the side to move sees one tile in the bag
(game ``i`` deals the bag of pair ``i`` of an ``engine.players.arena`` match with the same seed; a game without
such a position is skipped). There the strategy measured decides, and its choice and the static player's best
``--candidates`` placements are valued exactly (``engine.lookahead.preendgame``: every tile the bag can hold, then
the exact endgame search, ``--nodes`` nodes a search). A choice's loss is the best of those values
minus the choice's: the mean final lead (points) and the share of the bag's tiles after which the side
finishes ahead. Only values whose searches all finish count: a decision whose choice's searches do not
finish is counted, not measured, and a candidate whose searches do not finish is left out. The yardstick
is the exact endgame's, not a longer look of the same model as in ``offline.bench.census``. Only fixed-work
strategies are accepted; progress goes to stderr, the figures to stdout.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.board.move import Placement
from engine.equity.strategy import Equity, Situation, Strategy
from engine.errors import LexiconError
from engine.game import Game
from engine.lookahead.preendgame import exact_values
from engine.players.arena import Interval, pair_seed
from engine.rules.ruleset import Ruleset
from offline.bench.census import fixed_work, fixed_work_options
from offline.runs.workers import worker_lexicon

DEFAULT_STRATEGY = "sim:candidates=25,iterations=3000,playouts=20000,z=3,seconds=0"
DEFAULT_CANDIDATES = 10
DEFAULT_NODES = 100_000


@dataclass(frozen=True)
class Measured:
    """One decision: whether the choice was the exactly best, and what it lost (points, win share)."""

    agreed: bool
    loss: float
    win_loss: float
    seconds: float  # the strategy's CPU time for the decision


def games_at_one_in_bag(ruleset: int, seed: int, count: int) -> Iterator[Game]:
    """Each of ``count`` seeded equity games that reaches one tile in the bag, stopped there (game ``i`` deals
    the bag of pair ``i`` of an ``engine.players.arena`` match seeded ``seed``)."""
    rules = Ruleset.for_id(ruleset)
    lexicon = worker_lexicon(ruleset)
    player = Equity()
    for index in range(count):
        game = Game(rules, lexicon, random.Random(pair_seed(seed, index)))
        while not game.is_over and len(game.bag) != 1:
            game.play(player.best(Situation.of(game), 1)[0])
        if not game.is_over:
            yield game


def positions(ruleset: int, seed: int, count: int) -> Iterator[Situation]:
    """The first one-in-bag position of each of ``count`` seeded equity games that reach one (as the side to
    move sees it)."""
    for game in games_at_one_in_bag(ruleset, seed, count):
        yield Situation.of(game)


def measure(strategy: Strategy, situation: Situation, candidates: int, nodes: int) -> Measured | None:
    """The strategy's choice here against the exact values of it and the static best placements whose
    searches finish; None when the choice is not a placement (a pass) or its searches do not finish within
    ``nodes`` (not measured)."""
    started = time.process_time()
    choice = strategy.best(situation, 1)[0]
    seconds = time.process_time() - started
    if not isinstance(choice, Placement):
        return None
    moves = [move for move in Equity().best(situation, candidates) if isinstance(move, Placement)]
    if choice not in moves:
        moves.append(choice)
    values = [value for value in exact_values(situation, moves, nodes=nodes) if value.complete]
    mine = next((value for value in values if value.move == choice), None)
    if mine is None:
        return None
    best = max(values, key=lambda value: (value.wins, value.mean))
    agreed = (mine.wins, mine.mean) == (best.wins, best.mean)
    return Measured(agreed, best.mean - mine.mean, best.wins - mine.wins, seconds)


def summary_lines(measured: Sequence[Measured], skipped: int) -> Iterator[str]:
    """Decisions, the share that was exactly best, the mean loss in points and in win share with 95%
    intervals over decisions, and the strategy's CPU time a decision."""
    count = len(measured)
    yield f"decisions {count} (not measured: {skipped}, passes or unfinished searches)"
    if not count:
        return
    agreed = sum(m.agreed for m in measured) / count
    yield f"exactly best {agreed:.1%}"
    for name, values, form in (
        ("loss (points)", [m.loss for m in measured], "{:+.2f}"),
        ("win-share loss", [m.win_loss for m in measured], "{:+.2%}"),
    ):
        mean = Interval.over(values)
        yield f"{name} {form.format(mean.mean)} (95% CI {form.format(mean.low)} .. {form.format(mean.high)})"
    times = sorted(m.seconds for m in measured)
    yield f"CPU s a decision: median {statistics.median(times):.2f}, slowest {times[-1]:.2f}"


def run(
    name: str, *, games: int, ruleset: int, seed: int, candidates: int, nodes: int,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[Measured], int]:  # fmt: skip
    """Measure ``name`` at the one-in-bag positions of ``games`` seeded games: the decisions measured, and how
    many were not."""
    strategy = fixed_work(name)
    measured: list[Measured] = []
    skipped = 0
    for situation in positions(ruleset, seed, games):
        found = measure(strategy, situation, candidates, nodes)
        if found is None:
            skipped += 1
        else:
            measured.append(found)
        if progress:
            progress(f"position {len(measured) + skipped}: {found}")
    return measured, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m offline.bench.oneinbag", description=__doc__.splitlines()[0].split(": ", 1)[1]
    )
    parser.add_argument(
        "--strategy", default=DEFAULT_STRATEGY, help=f"the strategy measured (default: {DEFAULT_STRATEGY})"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="seeded equity games; about one in four reaches one tile in the bag (default 100)",
    )
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset id (default 5, English)")
    parser.add_argument("--seed", type=int, default=0, help="the games' seed (default 0)")
    parser.add_argument(
        "--candidates",
        type=int,
        default=DEFAULT_CANDIDATES,
        help=f"the static best placements valued beside the choice (default {DEFAULT_CANDIDATES})",
    )
    parser.add_argument(
        "--nodes", type=int, default=DEFAULT_NODES,
        help=f"nodes of each exact endgame search of the yardstick (default {DEFAULT_NODES:,})",
    )  # fmt: skip
    args = parser.parse_args(argv)
    for option in ("games", "candidates", "nodes"):
        if getattr(args, option) < 1:
            parser.error(f"--{option} {getattr(args, option)}: expected at least 1")
    fixed_work_options(parser, args, "strategy")
    started = time.monotonic()
    try:
        measured, skipped = run(
            args.strategy, games=args.games, ruleset=args.ruleset, seed=args.seed, candidates=args.candidates,
            nodes=args.nodes, progress=lambda line: print(line, file=sys.stderr, flush=True),
        )  # fmt: skip
    except LexiconError as error:
        print(f"python -m offline.bench.oneinbag: {error}", file=sys.stderr)
        return 1
    print(f"{args.strategy} with one tile in the bag: against the exact values of its choice and equity's best")
    for line in summary_lines(measured, skipped):
        print(line)
    figures = f"{args.games} games, {args.candidates} candidates, {args.nodes:,} nodes a search"
    print(f"ruleset {args.ruleset}, seed {args.seed}, {figures}, {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
