"""Two checkouts timed against each other, alternated: ``python -m offline.bench.abtime A B``.

A step in the compiled core is kept only for a gain the clock shows, and on a shared machine one run of a
benchmark varies by up to a tenth from the next: only runs of both checkouts made in turn, close together,
compare. Each round runs a benchmark once in each checkout (A first in odd rounds, B first in even ones,
so that a drift of the machine's speed favours neither), each run in a fresh process of the checkout's own
Python with the checkout first on ``sys.path`` (its engine, extension and data, as ``checkout:PATH:SPEC``
plays them), and reads the rate the benchmark prints. The summary gives each round's ratio A / B (above 1:
A is faster), their median, their geometric mean with a 95% interval over rounds (Student's t on the
logarithms; rounds are taken as independent), and in how many rounds A was the faster.

The benchmarks: ``endgames``, the nodes per CPU second of the 20 real endgames (``offline.bench.endgames
--clock cpu``, or ``--nodes N`` each), and ``playouts``, the C kernel's candidate playouts per CPU second
of ``offline.bench.movegen --sim`` on a positions file, and ``selfplay``, the learner's self-play games per
CPU second (``learn-leaves``'s chunk of games, played as the checkout plays them).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from offline.arena.checkout import checkout_at
from offline.errors import AbTimeError, CheckoutError

#: Student's t at 97.5% by degrees of freedom (1 to 30); above 30 the normal 1.96 is near enough.
T_975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_STDERR_TAIL = 600  # characters of a failed run's stderr quoted


@dataclass(frozen=True)
class Bench:
    """A benchmark: the arguments after ``python``, and the line and field of its figure (a rate: higher is
    faster)."""

    args: tuple[str, ...]
    line: str
    field: str

    def figure(self, output: str) -> float | None:
        """The rate in a run's output, or None when it printed none."""
        for text in output.splitlines():
            if text.startswith(self.line):
                for part in text.split("\t"):
                    name, _, value = part.partition("=")
                    if name == self.field:
                        try:
                            return float(value.replace(",", ""))
                        except ValueError:
                            return None
        return None


def endgames_bench(nodes: int | None = None) -> Bench:
    """The 20 real endgames' nodes per CPU second, 2 s of CPU each, or ``nodes`` each without a limit of time."""
    extra = ("--clock", "cpu") if nodes is None else ("--nodes", str(nodes), "--clock", "cpu")
    return Bench(("-m", ENDGAMES_MODULE, *extra), "# endgames", "nodes_per_cpu_s")


def playouts_bench(positions: Path, limit: int) -> Bench:
    """The C kernel's candidate playouts per CPU second on the first ``limit`` positions of a file."""
    args = ("-m", "offline.bench", "--positions", str(positions), "--sim", "--limit", str(limit))
    return Bench((*args, "--endgame-seconds", "0"), "# playouts", "native_per_cpu_s")


#: The learner's games per CPU second in a checkout, through the chunk call that every version has (its lexicon
#: loaded and a game played before the clock starts).
SELFPLAY_SNIPPET = """
import sys, time
from offline.learning.learn import Settings, _play_chunk
games, player = int(sys.argv[1]), sys.argv[2]
settings = Settings(ruleset=5, seed=1, player=player, explore=0.1, chunk=games)
_play_chunk(settings, (games, games))
start = time.process_time()
_play_chunk(settings, (0, games - 1))
print(f"# selfplay\\tgames_per_cpu_s={games / (time.process_time() - start):.1f}")
"""


def selfplay_bench(games: int, player: str) -> Bench:
    """The learner's self-play games per CPU second: ``games`` games of ``player`` on ruleset 5."""
    return Bench(("-c", SELFPLAY_SNIPPET, str(games), player), "# selfplay", "games_per_cpu_s")


@dataclass(frozen=True)
class Run:
    """One run of the benchmark: the round, the checkout's label and its figure."""

    round: int
    label: str
    figure: float


@dataclass(frozen=True)
class Summary:
    """The ratios A / B of the rounds and what they say."""

    ratios: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.ratios)

    @property
    def geometric_mean(self) -> float:
        return math.exp(statistics.fmean(math.log(r) for r in self.ratios))

    def interval(self) -> tuple[float, float] | None:
        """The 95% interval of the geometric mean (None with fewer than two rounds)."""
        n = len(self.ratios)
        if n < 2:
            return None
        logs = [math.log(r) for r in self.ratios]
        half = (T_975[n - 2] if n - 1 <= len(T_975) else 1.96) * statistics.stdev(logs) / math.sqrt(n)
        mean = statistics.fmean(logs)
        return math.exp(mean - half), math.exp(mean + half)

    @property
    def a_faster(self) -> int:
        return sum(r > 1 for r in self.ratios)


def summarize(runs: Sequence[Run], a: str, b: str) -> Summary:
    """The ratio of A's figure to B's in every round both ran.

    >>> summarize([Run(1, "a", 110.0), Run(1, "b", 100.0), Run(2, "b", 100.0), Run(2, "a", 90.0)], "a", "b").ratios
    (1.1, 0.9)
    """
    by_round: dict[int, dict[str, float]] = {}
    for run in runs:
        by_round.setdefault(run.round, {})[run.label] = run.figure
    return Summary(tuple(f[a] / f[b] for _, f in sorted(by_round.items()) if a in f and b in f))


def in_checkout(python: Path, root: Path, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """``python`` run with ``args`` in checkout ``root``, the checkout first on ``sys.path``; its output kept."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(python), *args], cwd=root, env=env, capture_output=True, text=True, check=False)


def stderr_tail(done: subprocess.CompletedProcess[str]) -> str:
    return done.stderr.strip()[-_STDERR_TAIL:]


def run_failed(
    python: Path, root: Path, args: Sequence[str], label: str, done: subprocess.CompletedProcess[str], missing: str
) -> AbTimeError:
    """The error of a run in checkout ``label`` that failed, or printed no ``missing`` figure; it names the command."""
    why = f"exit status {done.returncode}" if done.returncode != 0 else f"no {missing} in its output"
    command = " ".join([str(python), *args])
    return AbTimeError(f"checkout {label} ({root}): `{command}` gave {why}: {stderr_tail(done)}")


#: The endgames' module, and its name in a checkout older than the packages by concern (2026-12-07).
ENDGAMES_MODULE, ENDGAMES_BEFORE = "offline.bench.endgames", "offline.endgames"


def args_for(root: Path, args: tuple[str, ...]) -> tuple[str, ...]:
    """The benchmark's arguments as checkout ``root`` names its modules (``python -m offline.bench`` is the same
    in every checkout; the endgames' module moved)."""
    if ENDGAMES_MODULE in args and not (root / "offline" / "bench" / "endgames.py").is_file():
        return tuple(ENDGAMES_BEFORE if arg == ENDGAMES_MODULE else arg for arg in args)
    return args


def run_once(python: Path, root: Path, bench: Bench, label: str) -> float:
    """The benchmark's figure from one run in checkout ``root``; AbTimeError when it fails or prints none."""
    args = args_for(root, bench.args)
    done = in_checkout(python, root, args)
    figure = bench.figure(done.stdout)
    if done.returncode != 0 or figure is None:
        raise run_failed(python, root, args, label, done, bench.field)
    return figure


def native_check(python: Path, root: Path, label: str) -> None:
    """AbTimeError unless the checkout's own engine runs with its C extension (a run of another checkout's
    engine, or of the pure-Python one, would time the wrong code)."""
    probe = "import engine, engine.native as n; print(engine.__file__); print(n.GENERATOR)"
    done = in_checkout(python, root, ["-c", probe])
    lines = done.stdout.split()
    if done.returncode != 0 or len(lines) != 2:
        raise AbTimeError(f"checkout {label} ({root}): its engine does not import: {stderr_tail(done)}")
    where, generator = Path(lines[0]).resolve(), lines[1]
    if not where.is_relative_to(root.resolve()):
        raise AbTimeError(f"checkout {label} ({root}): its Python imports the engine of {where.parent.parent}")
    if generator != "native":
        raise AbTimeError(
            f"checkout {label} ({root}): its C extension is not in use ({generator}); build it there with "
            "`.venv/bin/python setup.py build_ext --inplace`"
        )


def turns(rounds: int, labels: tuple[str, str]) -> Iterator[tuple[int, str]]:
    """The runs of ``rounds`` rounds as (round, label): one run each of the two, the first of ``labels`` first in
    odd rounds."""
    for number in range(1, rounds + 1):
        for label in labels if number % 2 == 1 else labels[::-1]:
            yield number, label


def alternate(
    rounds: int, labels: tuple[str, str], measure: Callable[[str], float], report: Callable[[Run], None]
) -> list[Run]:
    """``rounds`` rounds of one run each of the two, in the order of ``turns``."""
    runs = []
    for number, label in turns(rounds, labels):
        run = Run(number, label, measure(label))
        runs.append(run)
        report(run)
    return runs


def summary_line(summary: Summary, a: str, b: str) -> str:
    """The closing line: the ratios' geometric mean with its interval, their median, the rounds A won."""
    interval = summary.interval()
    span = f" ({interval[0]:.3f} .. {interval[1]:.3f})" if interval else ""
    return (
        f"# {a} / {b}\trounds={len(summary.ratios)}\tgeometric_mean={summary.geometric_mean:.3f}{span}"
        f"\tmedian={summary.median:.3f}\t{a}_faster_in={summary.a_faster}/{len(summary.ratios)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m offline.bench.abtime", description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="checkout A (a directory of this project with its .venv; . for this one)")
    parser.add_argument("b", type=Path, help="checkout B, timed against A")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of one run each (default 6)")
    parser.add_argument(
        "--bench", choices=("endgames", "playouts", "selfplay"), default="endgames",
        help="endgames (the 20 real endgames' nodes per CPU second; default), playouts (the C kernel's "
        "candidate playouts per CPU second, offline.bench.movegen --sim) or selfplay (the learner's games per "
        "CPU second)",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=300, help="selfplay: games a run (default 300)")
    parser.add_argument("--player", default="equity", help="selfplay: the player (default equity)")
    parser.add_argument("--nodes", type=int, metavar="N", help="endgames: N nodes each instead of 2 s of CPU")
    parser.add_argument("--positions", type=Path, help="playouts: the positions file (the benchmark's format)")
    parser.add_argument("--limit", type=int, default=60, help="playouts: the first N positions (default 60)")
    parser.add_argument("--python", type=Path, help="the Python to run both with (default: each checkout's .venv)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    if args.nodes is not None and args.nodes < 1:
        parser.error(f"--nodes must be at least 1, got {args.nodes}")
    if args.bench == "playouts":
        if args.positions is None:
            parser.error("--bench playouts needs --positions FILE")
        if not args.positions.is_file():
            parser.error(f"--positions {args.positions}: no such file")
        bench = playouts_bench(args.positions.resolve(), args.limit)
    elif args.bench == "selfplay":
        if args.games < 1:
            parser.error(f"--games must be at least 1, got {args.games}")
        bench = selfplay_bench(args.games, args.player)
    else:
        bench = endgames_bench(args.nodes)
    try:
        checkouts = {label: checkout_at(str(path)) for label, path in (("A", args.a), ("B", args.b))}
        pythons = {label: args.python or c.python for label, c in checkouts.items()}
        for label, c in checkouts.items():
            native_check(pythons[label], c.root, label)
        print(f"# A = {checkouts['A'].root}\tB = {checkouts['B'].root}\tbench = {' '.join(bench.args)}", flush=True)

        def measure(label: str) -> float:
            return run_once(pythons[label], checkouts[label].root, bench, label)

        def report(run: Run) -> None:
            print(f"round {run.round}\t{run.label}\t{bench.field}={run.figure:,.0f}", flush=True)

        runs = alternate(args.rounds, ("A", "B"), measure, report)
    except (AbTimeError, CheckoutError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(summary_line(summarize(runs, "A", "B"), "A", "B"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
