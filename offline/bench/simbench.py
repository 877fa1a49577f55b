"""The simulation's figures for ``python -m offline.bench --sim``: playouts per CPU second, the
default decision's time and iterations, the slowest decision of a fixed-work strategy.

Candidate playouts per CPU second: over the positions, the static best ``candidates`` moves are
played out on the same draws by the C kernel (``engine.lookahead.playout``) and by the reference
(``Simulator._play_out``, Python over the compiled generator); CPU time (``time.process_time``), so
that other processes on the machine count less than in wall time. Decisions: ``Sim.best`` from each
position (the bag holding every unseen tile but a full opponent rack), wall and CPU time per move and
the iterations its simulation reached.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.equity.strategy import Equity, Situation
from engine.lookahead.simulation import Sim, SimSettings, Simulator
from engine.players.registry import strategy_named

#: (name, situation) of each benchmark position.
Named = tuple[str, Situation]


@dataclass(frozen=True)
class Rates:
    """Candidate playouts and the CPU seconds they took, native and Python."""

    positions: int
    native_playouts: int
    native_seconds: float
    python_playouts: int
    python_seconds: float

    @property
    def native(self) -> float:
        return self.native_playouts / self.native_seconds if self.native_seconds else 0.0

    @property
    def python(self) -> float:
        return self.python_playouts / self.python_seconds if self.python_seconds else 0.0


def playout_rates(positions: Sequence[Named], candidates: int, draws: int, python_draws: int) -> Rates:
    """Play out each position's best ``candidates`` static moves on ``draws`` draws in C and on the
    first ``python_draws`` of them in Python (positions with the bag empty are skipped)."""
    try:
        from engine.lookahead.playout import NativePlayouts  # noqa: PLC0415 - absent before the kernel existed
    except ImportError:  # a checkout from before the kernel: the Python figure alone (the "before" run)
        NativePlayouts = None  # type: ignore[assignment,misc]  # noqa: N806

    counted = native_n = python_n = 0
    native_s = python_s = 0.0
    for _, situation in positions:
        if situation.bag_count == 0:
            continue
        equity = Equity()
        moves = equity.best(situation, candidates)
        simulator = Simulator(equity, SimSettings(), rng=random.Random(situation.bag_count))
        dealt = [simulator._deal(situation) for _ in range(draws)]
        kernel = NativePlayouts.for_situation(situation, equity) if NativePlayouts is not None else None
        if kernel is not None:
            start = time.process_time()
            kernel.run(moves, dealt)
            native_s += time.process_time() - start
            native_n += len(moves) * len(dealt)
        model = equity.leave_model(situation.rules)
        start = time.process_time()
        for theirs, bag, _ in dealt[:python_draws]:
            for move in moves:
                simulator._play_out(situation, move, theirs, list(bag), model)
        python_s += time.process_time() - start
        python_n += len(moves) * min(python_draws, len(dealt))
        counted += 1
    return Rates(counted, native_n, native_s, python_n, python_s)


@dataclass(frozen=True)
class Decision:
    """One decision: the position, wall and CPU seconds, the simulation's iterations and candidate
    playouts (0 when none ran)."""

    name: str
    wall: float
    cpu: float
    iterations: int
    playouts: int = 0


def decisions(strategy: Callable[[], Sim], positions: Sequence[Named]) -> list[Decision]:
    """Time ``strategy().best(situation, 1)`` at every position (a fresh strategy each, as the bot's)."""
    found = []
    for name, situation in positions:
        sim = strategy()
        wall, cpu = time.perf_counter(), time.process_time()
        sim.best(situation, 1)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        last = sim.last
        found.append(Decision(name, wall, cpu, last.iterations if last else 0, last.playouts if last else 0))
    return found


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share``-th percentile (nearest rank)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 100))
    return ordered[int(rank) - 1]


def decision_line(label: str, found: Sequence[Decision]) -> str:
    """A summary line: wall ms median, p95, the slowest (and where), CPU ms median and the most (and
    where: under load the slowest in wall time need not be the one that worked most), iterations reached and
    candidate playouts played (median, the most)."""
    walls = [d.wall * 1000 for d in found]
    slowest = max(found, key=lambda d: d.wall)
    simulated = [d.iterations for d in found if d.iterations]
    reached = (
        f"iterations_median={statistics.median(simulated):.0f}\titerations_p5={percentile(simulated, 5):.0f}"
        f"\titerations_min={min(simulated)}\tsimulated={len(simulated)}"
        f"\tplayouts_median={statistics.median(d.playouts for d in found if d.iterations):.0f}"
        f"\tplayouts_max={max(d.playouts for d in found)}"
        if simulated
        else "iterations=none"
    )
    return (
        f"# decision {label}\tpositions={len(found)}\tmedian_ms={statistics.median(walls):.0f}"
        f"\tp95_ms={percentile(walls, 95):.0f}\tmax_ms={slowest.wall * 1000:.0f} ({slowest.name})"
        f"\tcpu_median_ms={statistics.median(d.cpu * 1000 for d in found):.0f}"
        f"\tcpu_max_ms={max(d.cpu for d in found) * 1000:.0f} ({max(found, key=lambda d: d.cpu).name})\t{reached}"
    )


def sim_strategy(name: str) -> Callable[[], Sim]:
    """A factory of the ``sim`` strategy ``name`` (ValueError for a name that is no ``sim``)."""
    made = strategy_named(name)
    if not isinstance(made, Sim):
        raise ValueError(f"{name!r} is not a sim strategy")
    return lambda: strategy_named(name)  # type: ignore[return-value]


def report(
    positions: Sequence[Named],
    *,
    candidates: Sequence[int],
    draws: int,
    python_draws: int,
    default: str,
    fixed: str,
) -> list[str]:
    """The figures' lines: playouts per CPU second (a line for each count of candidates, in the order
    given), the default decision, the fixed-work decision."""
    lines: list[str] = []
    for count in candidates:
        rates = playout_rates(positions, count, draws, python_draws)
        lines.append(
            f"# playouts\tpositions={rates.positions}\tcandidates={count}\tdraws_native={draws}"
            f"\tdraws_python={python_draws}\tnative_per_cpu_s={rates.native:,.0f}"
            f"\tpython_per_cpu_s={rates.python:,.0f}\tratio={rates.native / rates.python if rates.python else 0.0:.1f}"
        )
        print(lines[-1], flush=True)
    for label in (default, fixed):
        lines.append(decision_line(label, decisions(sim_strategy(label), positions)))
        print(lines[-1], flush=True)
    return lines


__all__ = ["Decision", "Rates", "decision_line", "decisions", "playout_rates", "report", "sim_strategy"]
