"""Fit the win-chance model (``engine.lookahead.winprob``) of a ruleset on seeded self-play.

``python -m offline.learning.winfit --ruleset 5 --games 600 --seed 1 --write`` plays ``equity`` against itself
(the ruleset's lexicon and learned leaves), records after every placement or swap that does not end
the game the mover's lead (points plus the difference of the values of the two sides' last leaves,
each kept before its draw and weighted by the bag it was played with, as the simulation counts it at
its horizon), the tiles in the bag and whether the mover went on to win, and fits the model's three
parameters by maximum likelihood on the first four fifths of the games. It prints, on the last fifth
(not fitted on), the Brier score of the model against the bare sign of the lead (what a playout's
"won" was) and, for a ruleset other than the fallback (5), against the fallback's stored model (what the
ruleset would use without a fit of its own), by tiles in the bag. ``--write`` stores the fit in
``engine/data/winprob.toml``, the other rulesets' fits kept.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.board.move import Placement
from engine.board.move import kept as kept_tiles
from engine.equity.leave import LeaveModel
from engine.equity.strategy import Equity, Situation, leave_weight
from engine.errors import EngineError
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.lookahead.winprob import FALLBACK_RULESET, WinModel
from engine.rules.ruleset import RULESET_IDS, Ruleset
from engine.wholefile import write_whole
from offline.runs.workers import worker_lexicon

#: Where the fits live (package data of ``engine``).
DATA_FILE = Path(__file__).resolve().parents[2] / "engine" / "data" / "winprob.toml"

#: Bag sizes grouped for the held-out report.
BUCKETS = ((0, 0), (1, 6), (7, 15), (16, 30), (31, 60), (61, 200))


@dataclass(frozen=True)
class Sample:
    """One position after a move: the mover's lead, the tiles in the bag, the mover's result (1, 0.5, 0)."""

    lead: float
    bag: int
    result: float


def play(rules: Ruleset, lexicon: Dawg, seed: int) -> tuple[list[Sample], list[int]]:
    """One game of ``equity`` against itself: the samples of its moves and the tiles of each placement."""
    game = Game(rules, lexicon, random.Random(seed))
    strategy = Equity()
    model: LeaveModel = strategy.leave_model(rules)
    pending: list[tuple[int, float, int]] = []  # (mover, lead, bag)
    placed: list[int] = []
    kept = [0.0, 0.0]  # each seat's last leave, valued and weighted as the static player (and sim) count it
    while not game.is_over:
        seat = game.current
        situation = Situation.of(game)
        move = strategy.best(situation, 1)[0]
        kept[seat] = leave_weight(situation.bag_count) * model.value(kept_tiles(situation.rack, move))
        game.play(move)
        if isinstance(move, Placement):
            placed.append(len(move.tiles))
        if game.end_reason is not None:  # the move ended the game: nothing left to predict
            break
        lead = game.scores[seat] - game.scores[1 - seat] + kept[seat] - kept[1 - seat]
        pending.append((seat, lead, len(game.bag)))
    winner = game.winner()
    samples = [
        Sample(lead, bag, 0.5 if winner is None else 1.0 if winner == seat else 0.0) for seat, lead, bag in pending
    ]
    return samples, placed


def log_loss(params: Sequence[float], samples: Sequence[Sample]) -> float:
    """Mean cross-entropy of the model with ``params`` = (tempo, log scale, log per_tile) on ``samples``."""
    tempo, log_scale, log_per_tile = params
    scale, per_tile = math.exp(log_scale), math.exp(log_per_tile)
    total = 0.0
    for s in samples:
        z = (s.lead - tempo) / (scale + per_tile * s.bag)
        # log(1 + exp(-z)) and log(1 + exp(z)), computed without overflow
        down = max(-z, 0.0) + math.log1p(math.exp(-abs(z)))
        up = max(z, 0.0) + math.log1p(math.exp(-abs(z)))
        total += s.result * down + (1.0 - s.result) * up
    return total / len(samples)


def minimise(
    f: Callable[[list[float]], float], start: list[float], step: float = 0.5, rounds: int = 400
) -> list[float]:
    """Nelder-Mead: the point near ``start`` where ``f`` is least (a few parameters, a smooth ``f``)."""
    n = len(start)
    simplex = [list(start)] + [[x + (step if i == j else 0.0) for j, x in enumerate(start)] for i in range(n)]
    values = [f(p) for p in simplex]
    for _ in range(rounds):
        order = sorted(range(n + 1), key=values.__getitem__)
        simplex, values = [simplex[i] for i in order], [values[i] for i in order]
        if values[-1] - values[0] < 1e-9:
            break
        centre = [sum(p[j] for p in simplex[:-1]) / n for j in range(n)]
        worst = simplex[-1]

        def towards(t: float, worst: list[float] = worst, centre: list[float] = centre) -> list[float]:
            return [c + t * (c - w) for c, w in zip(centre, worst, strict=True)]

        reflected = towards(1.0)
        fr = f(reflected)
        if fr < values[0]:
            expanded = towards(2.0)
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = towards(-0.5)
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:  # shrink towards the best point
                best = simplex[0]
                simplex = [best] + [[b + 0.5 * (x - b) for b, x in zip(best, p, strict=True)] for p in simplex[1:]]
                values = [values[0]] + [f(p) for p in simplex[1:]]
    return simplex[min(range(n + 1), key=values.__getitem__)]


def fit(ruleset: int, samples: Sequence[Sample], tiles_per_move: float) -> WinModel:
    """The maximum-likelihood model of ``samples``."""
    if len(samples) < 100:
        raise EngineError(f"{len(samples)} samples are too few to fit a win model (play more games)")
    tempo, log_scale, log_per_tile = minimise(lambda p: log_loss(p, samples), [0.0, math.log(20.0), math.log(1.0)])
    return WinModel(ruleset, tempo, math.exp(log_scale), math.exp(log_per_tile), tiles_per_move)


def brier(samples: Sequence[Sample], chance: Callable[[Sample], float]) -> float:
    """Mean squared error of ``chance`` against the results."""
    return sum((chance(s) - s.result) ** 2 for s in samples) / len(samples)


def sign(s: Sample) -> float:
    """A playout's bare "won": 1 ahead, a half level, 0 behind."""
    return 1.0 if s.lead > 0 else 0.5 if s.lead == 0 else 0.0


def report(model: WinModel, held_out: Sequence[Sample], other: WinModel | None = None) -> list[str]:
    """The held-out Brier scores of the model and of the sign of the lead, by tiles in the bag; with ``other``
    (another ruleset's fit, the one a ruleset without its own would use) its scores on the same positions too."""
    named: list[tuple[str, Callable[[Sample], float]]] = [("model", lambda s: model.probability(s.lead, s.bag))]
    if other is not None:
        named.append((f"ruleset {other.ruleset}'s model", lambda s: other.probability(s.lead, s.bag)))
    named.append(("sign", sign))
    title = " vs ".join(name if name != "sign" else "sign of the lead" for name, _ in named)
    lines = [f"held out: {len(held_out):,} positions; Brier score (lower is better), {title}"]

    def scores(part: Sequence[Sample]) -> str:
        return ", ".join(f"{name} {brier(part, chance):.4f}" for name, chance in named)

    for low, high in BUCKETS:
        part = [s for s in held_out if low <= s.bag <= high]
        if part:
            lines.append(f"  bag {low:>2}-{high:<3} {len(part):>7,} positions: {scores(part)}")
    lines.append(f"  all {len(held_out):>20,} positions: {scores(held_out)}")
    return lines


def write(model: WinModel, source: str, path: Path = DATA_FILE) -> None:
    """Store ``model`` as ``[ruleset.N]`` in ``path``, keeping the other rulesets' fits."""
    table: dict[str, dict[str, object]] = {}
    if path.exists():
        table = {str(k): v for k, v in tomllib.loads(path.read_text(encoding="utf-8")).get("ruleset", {}).items()}
    table[str(model.ruleset)] = {
        "tempo": round(model.tempo, 3), "scale": round(model.scale, 3), "per_tile": round(model.per_tile, 4),
        "tiles_per_move": round(model.tiles_per_move, 3), "source": source,
    }  # fmt: skip
    lines = [
        "# Win-chance models per ruleset (engine/lookahead/winprob.py), fitted on equity self-play by",
        "# offline/learning/winfit.py;",
        "# `source` is the command that wrote each. A ruleset without an entry uses ruleset 5's.",
    ]
    for key in sorted(table, key=int):
        lines.append("")
        lines.append(f"[ruleset.{key}]")
        for name, value in table[key].items():
            lines.append(f"{name} = {value!r}" if not isinstance(value, str) else f'{name} = "{value}"')
    write_whole(path, "\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m offline.learning.winfit", description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", type=int, default=5, choices=RULESET_IDS, help="the ruleset (default 5)")
    parser.add_argument("--games", type=int, default=600, help="self-play games (default 600)")
    parser.add_argument("--seed", type=int, default=1, help="the games' seed (default 1)")
    parser.add_argument("--write", action="store_true", help=f"store the fit in {DATA_FILE.name}")
    args = parser.parse_args(argv)
    if args.games < 5:
        parser.error(f"--games must be at least 5, got {args.games}")
    rules = Ruleset.for_id(args.ruleset)
    try:
        lexicon = worker_lexicon(args.ruleset)
    except EngineError as error:
        print(f"winfit: {error}", file=sys.stderr)
        return 2
    games: list[list[Sample]] = []
    placed: list[int] = []
    for index in range(args.games):
        samples, tiles = play(rules, lexicon, random.Random(f"{args.seed}:{index}").randrange(2**63))
        games.append(samples)
        placed += tiles
        if (index + 1) % max(1, args.games // 10) == 0 or index + 1 == args.games:
            print(f"  {index + 1}/{args.games} games played", file=sys.stderr, flush=True)
    cut = len(games) * 4 // 5
    train = [s for game in games[:cut] for s in game]
    held_out = [s for game in games[cut:] for s in game]
    model = fit(args.ruleset, train, sum(placed) / max(len(placed), 1))
    print(
        f"ruleset {args.ruleset}: {cut} games ({len(train):,} positions) fitted: tempo {model.tempo:.2f}, "
        f"scale {model.scale:.2f}, per_tile {model.per_tile:.3f}, tiles per placement {model.tiles_per_move:.2f}"
    )
    # what the fit buys over the model this ruleset would otherwise use (stored fits only: a fresh checkout's)
    other = None if args.ruleset == FALLBACK_RULESET else WinModel.for_ruleset(FALLBACK_RULESET)
    for line in report(model, held_out, other):
        print(line)
    if args.write:
        source = f"python -m offline.learning.winfit --ruleset {args.ruleset} --games {args.games} --seed {args.seed}"
        source += " --write"
        write(model, source)
        print(f"written to {DATA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
