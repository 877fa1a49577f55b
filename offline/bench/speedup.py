"""How many times faster a checkout's look-ahead is than an older one's, in one run: ``python -m
offline.bench.speedup OLD``.

The look-ahead's speed targets were set as multiples of what the look-ahead did at f30788a (its "today": candidate
playouts in Python over the compiled generator, and the endgame solver in Python), and it measured those on a
machine whose speed moves by a third between hours of one day. A target stated as a multiple is checked as a
ratio measured in one run. Each round runs OLD's own code through ``offline/bench/speedprobe.py`` (its Python
playouts of the static best 8 candidates, and its solver on the 20 real endgames with 2 s of CPU each) and the
new checkout's ``python -m offline.bench --sim`` (its C kernel's candidate playouts per CPU second with 8 and
with 25 candidates, and the same endgames); OLD first in odd rounds. Each run is a fresh process of the
checkout's own Python with its own engine (checked first, as ``offline.bench.abtime`` does). The summary gives, per
figure, the new one over the old one: their geometric mean with a 95% interval over the rounds, and their
median.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from offline.arena.checkout import Checkout, checkout_at
from offline.bench.abtime import Bench, Summary, in_checkout, native_check, run_failed, summary_line, turns
from offline.bench.endgames import DEFAULT_FILE
from offline.errors import AbTimeError, CheckoutError

PROBE = Path(__file__).with_name("speedprobe.py")

#: What each side's run prints, and the ratio it feeds: (label, new side's bench line and field, old side's field).
FIGURES = (
    ("playouts, 8 candidates: new C / old Python", "native_playouts_per_cpu_s_8", "playouts_per_cpu_s"),
    ("playouts, 25 candidates: new C / old Python", "native_playouts_per_cpu_s_25", "playouts_per_cpu_s"),
    ("endgame nodes per CPU second: new / old", "endgame_nodes_per_cpu_s", "endgame_nodes_per_cpu_s"),
)


@dataclass(frozen=True)
class Sides:
    """The two runs: the argument lists after ``python`` for the old and for the new checkout."""

    old: tuple[str, ...]
    new: tuple[str, ...]


def sides(positions: Path, limit: int, draws: int) -> Sides:
    """The old side's probe and the new side's bench, on the first ``limit`` positions and the real endgames."""
    old = (str(PROBE), "--positions", str(positions), "--endgames", str(DEFAULT_FILE), "--limit", str(limit),
           "--draws", str(draws))  # fmt: skip
    new = ("-m", "offline.bench", "--positions", str(positions), "--sim", "--limit", str(limit),
           "--sim-candidates", "8", "25")  # fmt: skip
    return Sides(old, new)


def new_figures(output: str) -> dict[str, float]:
    """The new side's figures by FIGURES' key: the C playouts of each count of candidates (a line each, read by
    ``Bench.figure``) and the endgame nodes."""
    found: dict[str, float] = {}
    rate, count = Bench((), "# playouts", "native_per_cpu_s"), Bench((), "# playouts", "candidates")
    for line in output.splitlines():
        figure, candidates = rate.figure(line), count.figure(line)
        if figure is not None and candidates is not None:
            found[f"native_playouts_per_cpu_s_{candidates:.0f}"] = figure
    nodes = Bench((), "# endgames", "nodes_per_cpu_s").figure(output)
    if nodes is not None:
        found["endgame_nodes_per_cpu_s"] = nodes
    return found


def old_figures(output: str) -> dict[str, float]:
    """The old side's figures by field (``speedprobe.py``'s line)."""
    found: dict[str, float] = {}
    for field in ("playouts_per_cpu_s", "endgame_nodes_per_cpu_s"):
        figure = Bench((), "# baseline", field).figure(output)
        if figure is not None:
            found[field] = figure
    return found


def run_side(checkout: Checkout, args: Sequence[str], label: str, wanted: Sequence[str], new: bool) -> dict[str, float]:
    """One run's figures; AbTimeError names the checkout when it fails or lacks one of ``wanted``."""
    done = in_checkout(checkout.python, checkout.root, args)
    figures = new_figures(done.stdout) if new else old_figures(done.stdout)
    missing = [name for name in wanted if not figures.get(name, 0.0) > 0]
    if done.returncode != 0 or missing:
        raise run_failed(checkout.python, checkout.root, args, label, done, ", ".join(missing))
    return figures


def ratios(rounds: dict[int, dict[str, dict[str, float]]]) -> list[tuple[str, Summary]]:
    """Per FIGURES entry, the new figure over the old one in each round that has both sides."""
    out = []
    both = [by_side for _, by_side in sorted(rounds.items()) if len(by_side) == 2]
    for label, new_key, old_key in FIGURES:
        values = tuple(by_side["new"][new_key] / by_side["old"][old_key] for by_side in both)
        out.append((label, Summary(values)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m offline.bench.speedup", description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the older checkout (a directory of this project with its .venv)")
    parser.add_argument("--new", type=Path, default=Path("."), help="the newer checkout (default: this one, .)")
    parser.add_argument("--positions", type=Path, required=True, help="positions file (the benchmark's format)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of one run of each side (default 3)")
    parser.add_argument("--limit", type=int, default=60, help="the first N positions (default 60)")
    parser.add_argument("--draws", type=int, default=16, help="the old side's draws per position (default 16)")
    args = parser.parse_args(argv)
    for name in ("rounds", "limit", "draws"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if not args.positions.is_file():
        parser.error(f"--positions {args.positions}: no such file")
    runs = sides(args.positions.resolve(), args.limit, args.draws)
    rounds: dict[int, dict[str, dict[str, float]]] = {}
    try:
        checkouts = {"old": checkout_at(str(args.old)), "new": checkout_at(str(args.new))}
        for label, checkout in checkouts.items():
            native_check(checkout.python, checkout.root, label)
        print(f"# old = {checkouts['old'].root}\tnew = {checkouts['new'].root}", flush=True)

        for number, label in turns(args.rounds, ("old", "new")):
            new = label == "new"
            wanted = [key for _, key, _ in FIGURES] if new else [key for _, _, key in FIGURES]
            figures = run_side(checkouts[label], runs.new if new else runs.old, label, wanted, new)
            rounds.setdefault(number, {})[label] = figures
            shown = "\t".join(f"{name}={value:,.0f}" for name, value in sorted(figures.items()))
            print(f"round {number}\t{label}\t{shown}", flush=True)
    except (AbTimeError, CheckoutError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for label, summary in ratios(rounds):
        print(summary_line(summary, "new", "old").replace("# new / old", f"# {label}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
