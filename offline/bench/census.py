"""``python -m offline.bench.census``: a blunder census -- what strategy A's moves lose against a much longer look.

Seeded games of A against B are played on the local engine (game ``i`` deals the bag of mirrored pair
``i // 2`` of ``engine.players.arena``, A in seat ``i % 2``). At every decision of A with tiles in the bag the
reference (a fixed-work ``sim``) simulates its own best candidates plus the move A played when it is
not among them; the played move's loss is the mean value of the simulation's best candidate minus the
played move's (points), and, where the simulation ranks by wins (bag under 16), the share of
iterations won by the best minus the played move's. The figures are printed by phase: the opening (the
game's first two moves), the middle (17 tiles or more in the bag), the late game (7 to 16), the
pre-endgame (1 to 6) and the endgame (bag empty: both racks are known, so there the reference is the
exact endgame search, within ``--endgame-nodes`` nodes a search: the played move's loss is the
position's exact value minus the played move's, its points and the exact value of what follows; a
decision whose searches do not finish is counted but not measured). Only fixed-work strategies
(``seconds=0``) are accepted, so the figures are the same on every machine. Progress goes to stderr,
the table to stdout.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.board.move import Move, Pass
from engine.board.rack import Rack
from engine.endgame.native import solve_endgame
from engine.endgame.search import move_value
from engine.equity.strategy import Situation, Strategy
from engine.errors import LexiconError, RulesetError
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.lookahead.simulation import Sim
from engine.players.arena import pair_seed
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from offline.runs.workers import worker_lexicon

DEFAULT_A = "sim:candidates=6,iterations=40,seconds=0"
DEFAULT_B = "equity"
DEFAULT_REFERENCE = "sim:candidates=12,iterations=400,seconds=0"
DEFAULT_ENDGAME_NODES = 3_000_000
PHASES = ("opening", "middle", "late", "pre-endgame", "endgame")
PHASE_NOTES = {
    "opening": "the game's first 2 moves",
    "middle": "bag >= 17",
    "late": "bag 7..16",
    "pre-endgame": "bag 1..6",
    "endgame": "bag 0",
}


@dataclass(frozen=True)
class Decision:
    """One decision of A: its phase, whether A played the reference's choice, and what it lost
    (None in the endgame, which is not measured; ``win_loss`` None where the ranking is by points)."""

    phase: str
    agreed: bool
    loss: float | None
    win_loss: float | None


def phase_of(move_number: int, bag: int) -> str:
    """The phase of the game's ``move_number``-th move (0 first) played with ``bag`` tiles in the bag."""
    if move_number < 2:
        return "opening"
    if bag == 0:
        return "endgame"
    if bag <= 6:
        return "pre-endgame"
    if bag <= 16:
        return "late"
    return "middle"


class _UnfinishedError(Exception):
    """An exact search did not finish within its nodes."""


def endgame_value(situation: Situation, move: Move, nodes: int) -> tuple[int, int] | None:
    """With the bag empty: the exact value of the position for the side to move (its spread from now to
    the end) and of ``move`` there (its points and then the exact value of the rest, from the other
    side); None when a search does not finish within ``nodes`` nodes."""
    rules, board = situation.rules, situation.board
    mine = situation.rack
    theirs = Rack.from_bag_tiles(rules.alphabet, situation.unseen)

    def solved(first: Rack, second: Rack, scoreless: int, _points: int = 0) -> int:
        result = solve_endgame(
            board, first, second, situation.lexicon, rules, scoreless=scoreless, seconds=math.inf, max_nodes=nodes
        )
        if not result.complete:
            raise _UnfinishedError
        return result.value

    try:
        return solved(mine, theirs, situation.scoreless), move_value(
            board, move, mine, theirs, situation.scoreless, rules, solved
        )
    except _UnfinishedError:
        return None


def measure(
    reference: Sim, situation: Situation, played: Move, phase: str, endgame_nodes: int = DEFAULT_ENDGAME_NODES
) -> Decision:
    """What ``played`` loses in ``situation`` against the reference's simulation of its own candidates
    (plus ``played``), or with the bag empty against the exact endgame."""
    if situation.bag_count == 0:
        values = endgame_value(situation, played, endgame_nodes)
        if values is None:
            return Decision(phase, False, None, None)
        exact, of_played = values
        return Decision(phase, of_played == exact, float(exact - of_played), None)
    width = reference.settings.candidates
    ranked = reference.static.best(situation, width)[:width]
    moves: list[Move] = [m for m in ranked if not isinstance(m, Pass)] or list(ranked)
    if played not in moves:
        moves.append(played)
    if len(moves) < 2:  # only one move to play
        return Decision(phase, True, 0.0, 0.0 if situation.bag_count < reference.settings.by_wins_below else None)
    result = reference.simulate(situation, moves)
    best = result.ranked[0]
    mine = next(entry for entry in result.ranked if entry.move == played)
    win_loss = best.win_rate - mine.win_rate if result.by_wins else None
    return Decision(phase, best.move == played, best.mean - mine.mean, win_loss)


def census_game(
    a: Strategy, b: Strategy, reference: Sim, rules: Ruleset, lexicon: Dawg, seed: int, seat_of_a: int,
    endgame_nodes: int = DEFAULT_ENDGAME_NODES,
) -> list[Decision]:
    """Play one game of A (in ``seat_of_a``) against B and measure each of A's decisions."""
    game = Game(rules, lexicon, random.Random(seed))
    by_seat = (a, b) if seat_of_a == 0 else (b, a)
    decisions: list[Decision] = []
    while not game.is_over:
        seat = game.current
        situation = Situation.of(game)
        choice = by_seat[seat].best(situation, 1)[0]
        if seat == seat_of_a:
            phase = phase_of(len(game.history), len(game.bag))
            decisions.append(measure(reference, situation, choice, phase, endgame_nodes))
        game.play(choice)
    return decisions


def run_census(
    a: str,
    b: str,
    reference: str,
    *,
    games: int,
    ruleset: int,
    seed: int,
    endgame_nodes: int = DEFAULT_ENDGAME_NODES,
    progress: Callable[[str], None] | None = None,
) -> list[Decision]:
    """Play ``games`` seeded games and return every measured decision of A, in order."""
    rules = Ruleset.for_id(ruleset)
    lexicon = worker_lexicon(ruleset)
    checker = fixed_work(reference)
    if not isinstance(checker, Sim):
        raise ValueError(f"reference {reference!r}: expected a sim:...,seconds=0 strategy")
    decisions: list[Decision] = []
    started = time.monotonic()
    for index in range(games):
        # fresh strategies per game: nothing a strategy keeps between moves carries from game to game
        found = census_game(
            fixed_work(a), fixed_work(b), checker, rules, lexicon, pair_seed(seed, index // 2), index % 2,
            endgame_nodes,
        )
        decisions.extend(found)
        if progress:
            progress(f"game {index + 1}/{games}: {len(found)} decisions of A, {time.monotonic() - started:.0f} s")
    return decisions


def fixed_work(name: str) -> Strategy:
    """The strategy ``name``; ValueError (naming it) when it is unknown or a simulation with a time limit."""
    strategy = strategy_named(name)
    if isinstance(strategy, Sim) and math.isfinite(strategy.settings.seconds):
        raise ValueError(f"strategy {name!r} has a time limit; give seconds=0 so the census is fixed work")
    return strategy


def fixed_work_options(parser: argparse.ArgumentParser, args: argparse.Namespace, *options: str) -> dict[str, Strategy]:
    """The strategies of ``options`` by option, once ``args.ruleset`` names a ruleset and each names a fixed-work
    strategy; otherwise the command ends through ``parser.error``, naming the option (the offline tools' check)."""
    try:
        Ruleset.for_id(args.ruleset)
    except RulesetError as error:
        parser.error(f"--ruleset {args.ruleset}: {error}")
    strategies = {}
    for option in options:
        try:
            strategies[option] = fixed_work(getattr(args, option))
        except ValueError as error:
            parser.error(f"--{option}: {error}")
    return strategies


@dataclass(frozen=True)
class PhaseRow:
    """The figures of one phase."""

    phase: str
    decisions: int
    agreed: float
    loss: float | None
    loss_low: float | None
    loss_high: float | None
    win_loss: float | None
    win_decisions: int


def rows(decisions: Sequence[Decision]) -> list[PhaseRow]:
    """One row per phase and one for all phases together (``all``)."""
    result = []
    for phase in (*PHASES, "all"):
        chosen = [d for d in decisions if phase in (d.phase, "all")]
        losses = [d.loss for d in chosen if d.loss is not None]
        wins = [d.win_loss for d in chosen if d.win_loss is not None]
        measured = [d for d in chosen if d.loss is not None]
        agreed = sum(d.agreed for d in measured) / len(measured) if measured else math.nan
        mean = statistics.fmean(losses) if losses else None
        half = 1.96 * statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else 0.0
        result.append(
            PhaseRow(
                phase,
                len(chosen),
                agreed,
                mean,
                None if mean is None else mean - half,
                None if mean is None else mean + half,
                statistics.fmean(wins) if wins else None,
                len(wins),
            )
        )
    return result


def table_lines(decisions: Sequence[Decision]) -> Iterator[str]:
    """The census table: per phase the decisions, the share that agreed with the reference, the mean
    loss in points with its 95% interval, and the mean loss in win share (where ranked by wins)."""
    yield f"{'phase':<12} {'decisions':>9} {'agreed':>7} {'loss (pts)':>10} {'95% CI':>17} {'win share loss':>15}"
    for row in rows(decisions):
        if row.decisions == 0:
            yield f"{row.phase:<12} {0:>9} {'-':>7} {'-':>10} {'no decisions':>17} {'-':>15}"
            continue
        if row.loss is None:
            yield f"{row.phase:<12} {row.decisions:>9} {'-':>7} {'-':>10} {'not measured':>17} {'-':>15}"
            continue
        interval = f"{row.loss_low:+.2f} .. {row.loss_high:+.2f}"
        wins = f"{row.win_loss:+.2%} ({row.win_decisions})" if row.win_loss is not None else "-"
        yield f"{row.phase:<12} {row.decisions:>9} {row.agreed:>7.1%} {row.loss:>+10.2f} {interval:>17} {wins:>15}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m offline.bench.census",
        description=__doc__.splitlines()[0].split(": ", 1)[1],
        epilog="Phases: "
        + "; ".join(f"{k}: {v}" for k, v in PHASE_NOTES.items())
        + ". In the endgame the reference is the exact endgame search; an endgame decision whose searches"
        " do not finish within --endgame-nodes is counted, not measured."
        " The 95% interval is over decisions (the decisions of one game are not independent, so it is narrow).",
    )
    parser.add_argument("--a", default=DEFAULT_A, help=f"the strategy measured (default: {DEFAULT_A})")
    parser.add_argument("--b", default=DEFAULT_B, help=f"its opponent (default: {DEFAULT_B})")
    parser.add_argument(
        "--reference",
        default=DEFAULT_REFERENCE,
        help=f"the longer look, a fixed-work sim (default: {DEFAULT_REFERENCE})",
    )
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10; A alternates seats)")
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset id (default 5, English)")
    parser.add_argument("--seed", type=int, default=0, help="match seed: the bags of the games (default 0)")
    parser.add_argument(
        "--endgame-nodes", type=int, default=DEFAULT_ENDGAME_NODES,
        help=f"nodes each exact endgame search may use (default {DEFAULT_ENDGAME_NODES:,})",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games {args.games}: expected at least 1")
    if args.endgame_nodes < 1:
        parser.error(f"--endgame-nodes {args.endgame_nodes}: expected at least 1")
    if not isinstance(fixed_work_options(parser, args, "a", "b", "reference")["reference"], Sim):
        parser.error(f"--reference {args.reference!r}: expected a sim:...,seconds=0 strategy")
    started = time.monotonic()
    try:
        decisions = run_census(
            args.a, args.b, args.reference, games=args.games, ruleset=args.ruleset, seed=args.seed,
            endgame_nodes=args.endgame_nodes, progress=lambda line: print(line, file=sys.stderr, flush=True),
        )  # fmt: skip
    except LexiconError as error:
        print(f"python -m offline.bench.census: {error}", file=sys.stderr)
        return 1
    print(f"census of {args.a} against {args.b}, reference {args.reference}")
    for line in table_lines(decisions):
        print(line)
    endgames = [d for d in decisions if d.phase == "endgame"]
    solved = sum(d.loss is not None for d in endgames)
    print(f"endgame: {solved} of {len(endgames)} decisions solved exactly within {args.endgame_nodes:,} nodes a search")
    print(f"ruleset {args.ruleset}, seed {args.seed}, {args.games} games, {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
