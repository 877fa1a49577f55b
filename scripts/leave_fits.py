"""Leave models fitted on one run's samples, read once: ``python scripts/leave_fits.py WORK GAMES HELD_OUT``.

The samples of a ``learn-leaves`` work directory (games 0 to GAMES - HELD_OUT - 1 fitted, the last HELD_OUT
held out) give the factorised fit and a full table for each ``--full K:K0``; each table is written to
``--out`` and its held-out mean squared error printed (the target by the factorised fit, and by the model
itself), beside the shipped table's. ``learn-leaves --full`` fits one such table; this fits many at once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from engine.equity.leave import LeaveModel
from engine.equity.leavetable import LearnedLeave
from engine.rules.ruleset import Ruleset
from offline.learning.learn import FULL_ROUNDS, fit_full_table, fit_table, held_out_error, read_samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/leave_fits.py", description=__doc__.splitlines()[0])
    parser.add_argument("work", type=Path, help="the learn-leaves work directory")
    parser.add_argument("games", type=int, help="games of the run read")
    parser.add_argument("held_out", type=int, help="the last HELD_OUT of them held out (a multiple of the chunk)")
    parser.add_argument("--out", type=Path, required=True, help="the directory the tables are written to")
    parser.add_argument("--full", action="append", default=[], metavar="K:K0", help="a full table (repeatable)")
    parser.add_argument("--ridge", type=float, default=100.0, help="the factorised fit's ridge (default 100)")
    parser.add_argument("--rounds", type=int, default=15, help="the factorised fit's rounds (default 15)")
    args = parser.parse_args(argv)
    settings = json.loads((args.work / "manifest.json").read_text(encoding="utf-8"))
    rules, chunk = Ruleset.for_id(int(settings["ruleset"])), int(settings["chunk"])
    fitted = args.games - args.held_out
    started = time.monotonic()
    counts = read_samples(args.work, fitted, chunk)
    held = read_samples(args.work, args.games, chunk, start=fitted)
    read = time.monotonic() - started
    print(f"read {sum(counts.values())} samples fitted, {sum(held.values())} held out ({read:.0f} s)")
    about: dict[str, object] = {"games": fitted, **{k: v for k, v in settings.items() if k != "chunk"}}
    fit = fit_table(counts, rules, ridge=args.ridge, rounds=args.rounds, about=about)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "factorised.json").write_text(fit.table.to_json(), encoding="utf-8")
    models: list[tuple[str, int, LeaveModel]] = [("factorised fit", 0, fit.table)]
    shipped = LearnedLeave.shipped(rules)
    if shipped is not None:
        models.insert(0, ("the shipped table", 0, shipped))
    for spec in args.full:
        k, _, k0 = spec.partition(":")
        full = fit_full_table(counts, fit.table, rules, min_count=int(k), shrink=float(k0), rounds=FULL_ROUNDS)
        (args.out / f"full-{k}-{k0}.json").write_text(full.to_json(rules), encoding="utf-8")
        models.append((f"full, K {k}, K0 {k0}", len(full.values), full))
    print("| model | own values | held-out MSE | by itself |")
    print("| --- | ---: | ---: | ---: |")
    for name, own_values, model in models:
        common = held_out_error(counts, held, model, fit.table, rules)
        own = held_out_error(counts, held, model, model, rules)
        print(f"| {name} | {own_values:,} | {common:.3f} | {own:.3f} |", flush=True)
    print(f"({time.monotonic() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
