"""The playout kernel's calls alone, to count their instructions: ``python -m offline.bench.kernelwork``.

For each of the first ``--limit`` positions with tiles in the bag, the static best ``--candidates``
moves are played out by the C kernel (``engine.lookahead.playout``) on ``--draws`` draws, dealt as
``offline/bench/simbench.py`` deals them (seeded by the bag's size). Nothing is timed: run it under
``valgrind --tool=callgrind --toggle-collect=playouts`` and the count covers the kernel calls only,
which the machine's load does not move. ``--values FILE`` writes every playout value, so that two
versions of the kernel can be compared value for value.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

from dictionaries import ENGLISH_DAWG, bundled_path
from dictionaries.build import build_lexicon
from engine import native
from engine.equity.strategy import Equity
from engine.lexicon.dawg import Dawg
from engine.lookahead.playout import NativePlayouts
from engine.lookahead.simulation import SimSettings, Simulator
from engine.rules.ruleset import Ruleset
from offline.bench.movegen import read_positions, situation_of


def played(positions: Path, lexicon: Dawg, rules: Ruleset, limit: int, candidates: int, draws: int) -> list[str]:
    """One line per position played: its name and the values of each draw (the candidates' in order)."""
    lines = []
    for pos in list(read_positions(positions, rules.alphabet))[:limit]:
        situation = situation_of(pos, lexicon, rules)
        if situation.bag_count == 0:
            continue
        equity = Equity()
        kernel = NativePlayouts.for_situation(situation, equity)
        if kernel is None:
            raise RuntimeError(f"the playout kernel is not in use: {native.describe()}")
        moves = equity.best(situation, candidates)
        simulator = Simulator(equity, SimSettings(), rng=random.Random(situation.bag_count))
        rows = kernel.run(moves, [simulator._deal(situation) for _ in range(draws)])
        lines.append(f"{pos.name}\t{len(moves)}\t" + " ".join(repr(value) for row in rows for value in row))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m offline.bench.kernelwork", description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, required=True, help="positions file (the benchmark's format)")
    parser.add_argument(
        "--lexicon", type=Path, default=None, help="word list or .dawg (default: the bundled English .dawg, ENABLE)"
    )
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset id (default 5, English)")
    parser.add_argument("--limit", type=int, default=40, help="the first N positions (default 40)")
    parser.add_argument("--candidates", type=int, default=8, help="static best moves played out (default 8)")
    parser.add_argument("--draws", type=int, default=8, help="draws per position (default 8)")
    parser.add_argument("--values", type=Path, default=None, help="write every playout value to this file")
    args = parser.parse_args(argv)
    if min(args.limit, args.candidates, args.draws) < 1:
        parser.error("--limit, --candidates and --draws must be at least 1")
    lexicon_path = args.lexicon or bundled_path(ENGLISH_DAWG)
    for path in (args.positions, lexicon_path):
        if not path.exists():
            parser.error(f"{path} does not exist")
    if native.GENERATOR != "native":
        parser.error(f"the playout kernel is not in use: {native.describe()}")
    rules = Ruleset.for_id(args.ruleset)
    with tempfile.TemporaryDirectory() as tmp:
        dawg = lexicon_path if lexicon_path.suffix == ".dawg" else Path(tmp) / "lexicon.dawg"
        if dawg != lexicon_path:
            build_lexicon(rules, lexicon_path, dawg)
        lexicon = Dawg.load(dawg, rules.alphabet)
    lines = played(args.positions, lexicon, rules, args.limit, args.candidates, args.draws)
    playouts = sum(int(line.split("\t")[1]) * args.draws for line in lines)
    if args.values is not None:
        args.values.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    sizes = f"candidates={args.candidates}\tdraws={args.draws}"
    print(f"# kernel work\tpositions={len(lines)}\t{sizes}\tplayouts={playouts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
