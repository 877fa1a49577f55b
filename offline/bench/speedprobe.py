"""The look-ahead's speed in the checkout whose Python runs this file: the old side of ``offline.bench.speedup``.

``python PATH/offline/speedprobe.py --positions FILE --endgames FILE``, run by another checkout's Python with
that checkout first on ``sys.path``, times that checkout's own code: its candidate playouts in Python over its
compiled generator (``Simulator._play_out``: the playout before the C kernel, and its reference since), the
static best 8 candidates of each position on draws dealt as ``offline.bench.movegen --sim`` deals them; and its endgame
solver (``engine.endgame.search.solve``) on the real endgames with 2 s of CPU each (``--endgame-seconds``). It prints a
line per endgame as ``python -m offline.bench.endgames --clock cpu`` does (whether it finished, its value, depth,
nodes and
CPU seconds: the old solver's time to the exact answer, to set beside the new one's), then the summary:
``# baseline<TAB>playouts=..<TAB>playouts_per_cpu_s=..<TAB>endgames=..<TAB>endgame_nodes=..<TAB>
endgame_nodes_per_cpu_s=..``. It uses only what every checkout since f30788a (the baseline of the look-ahead's
speed targets) has, so it plays out the positions itself as ``offline/bench/simbench.py``'s Python figure does
and reads the endgames' file itself as ``offline/bench/endgames.py`` does (both came later).
"""

from __future__ import annotations

import sys
from pathlib import Path

# this file's own directory is not the checkout's package: only the checkout on sys.path may be imported
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import importlib  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

from dictionaries import ENGLISH_DAWG, bundled_path  # noqa: E402


def _found(module: str, before: str, name: str) -> Any:
    """``name`` of the checkout's ``module``, or of ``before`` in a checkout older than the packages by
    concern (2026-12-07), whose modules were flat: the checkouts this probes are older ones."""
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError:
        return getattr(importlib.import_module(before), name)


if TYPE_CHECKING:
    from engine.board.board import Board
    from engine.board.rack import Rack
    from engine.endgame.search import solve
    from engine.equity.strategy import Equity
    from engine.lexicon.dawg import Dawg
    from engine.lookahead.simulation import SimSettings, Simulator
    from engine.rules.ruleset import Ruleset
    from offline.bench.movegen import read_positions, situation_of
else:
    Board = _found("engine.board.board", "engine.board", "Board")
    Rack = _found("engine.board.rack", "engine.rack", "Rack")
    solve = _found("engine.endgame.search", "engine.endgame", "solve")
    Equity = _found("engine.equity.strategy", "engine.strategy", "Equity")
    Dawg = _found("engine.lexicon.dawg", "engine.dawg", "Dawg")
    SimSettings = _found("engine.lookahead.simulation", "engine.simulation", "SimSettings")
    Simulator = _found("engine.lookahead.simulation", "engine.simulation", "Simulator")
    Ruleset = _found("engine.rules.ruleset", "engine.rules", "Ruleset")
    read_positions = _found("offline.bench.movegen", "offline.bench", "read_positions")
    situation_of = _found("offline.bench.movegen", "offline.bench", "situation_of")


def playouts(
    positions: Path, limit: int, draws: int, candidates: int, rules: Ruleset, lexicon: Dawg
) -> tuple[int, float]:
    """Candidate playouts in Python and their CPU seconds over the first ``limit`` positions with tiles in the bag."""
    count, spent = 0, 0.0
    for position in list(read_positions(positions, rules.alphabet))[:limit]:
        situation = situation_of(position, lexicon, rules)
        if situation.bag_count == 0:
            continue
        equity = Equity()
        moves = equity.best(situation, candidates)
        simulator = Simulator(equity, SimSettings(), rng=random.Random(situation.bag_count))
        dealt = [simulator._deal(situation) for _ in range(draws)]
        # public since 2026-12-07; an older checkout names it _model
        model = getattr(equity, "leave_model", None) or getattr(equity, "_model")  # noqa: B009
        model = model(rules)
        started = time.process_time()
        for theirs, bag, _ in dealt:
            for move in moves:
                simulator._play_out(situation, move, theirs, list(bag), model)
        spent += time.process_time() - started
        count += len(moves) * len(dealt)
    return count, spent


def endgames(path: Path, rules: Ruleset) -> Iterator[tuple[str, Board, Rack, Rack, int]]:
    """The endgames of a file in ``offline/bench/endgames.py``'s format: ``= NAME MINE THEIRS SCORELESS``,
    then 15 rows."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("="):
            name, mine, theirs, scoreless = line[1:].split()
            board = Board.from_text("\n".join(lines[i + 1 : i + 16]), rules.alphabet)
            yield (
                name,
                board,
                Rack.from_text(mine, rules.alphabet),
                Rack.from_text(theirs, rules.alphabet),
                int(scoreless),
            )


def endgame_nodes(path: Path, limit: int, seconds: float, rules: Ruleset, lexicon: Dawg) -> tuple[int, int, float]:
    """The endgames solved (``limit`` at most, 0: all; ``seconds`` of CPU each), their nodes and CPU seconds; a line
    for each in ``offline/bench/endgames.py``'s format, its seconds on the CPU clock."""
    count = nodes = 0
    spent = 0.0
    for name, board, mine, theirs, scoreless in endgames(path, rules):
        if limit and count == limit:
            break
        started = time.process_time()
        result = solve(
            board, mine, theirs, lexicon, rules, scoreless=scoreless, seconds=seconds, clock=time.process_time
        )
        took = time.process_time() - started
        spent += took
        nodes += result.nodes
        count += 1
        print(
            f"# endgame {name}\t{mine.text()} vs {theirs.text()}\tcomplete={result.complete}\tvalue={result.value}"
            f"\tdepth={result.depth}\tnodes={result.nodes}\tseconds={took:.3f}"
        )
    return count, nodes, spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="speedprobe.py", description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, required=True, help="positions file (the benchmark's format)")
    parser.add_argument("--endgames", type=Path, required=True, help="endgames file (offline/data/endgames-7.txt)")
    parser.add_argument("--limit", type=int, default=60, help="the first N positions (default 60)")
    parser.add_argument("--draws", type=int, default=16, help="draws per position (default 16)")
    parser.add_argument("--candidates", type=int, default=8, help="static best moves played out (default 8)")
    parser.add_argument("--endgame-limit", type=int, default=0, help="the first N endgames (default 0: all)")
    parser.add_argument("--endgame-seconds", type=float, default=2.0, help="CPU seconds an endgame (default 2)")
    args = parser.parse_args(argv)
    for name in ("limit", "draws", "candidates"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if args.endgame_limit < 0 or args.endgame_seconds <= 0:
        parser.error("--endgame-limit must be at least 0 and --endgame-seconds above 0")
    for path in (args.positions, args.endgames):
        if not path.is_file():
            parser.error(f"{path}: no such file")
    rules = Ruleset.for_id(5)
    lexicon = Dawg.load(bundled_path(ENGLISH_DAWG), rules.alphabet)
    played, played_s = playouts(args.positions, args.limit, args.draws, args.candidates, rules, lexicon)
    solved, nodes, solved_s = endgame_nodes(args.endgames, args.endgame_limit, args.endgame_seconds, rules, lexicon)
    playout_rate = played / played_s if played_s else 0.0
    node_rate = nodes / solved_s if solved_s else 0.0
    print(
        f"# baseline\tplayouts={played}\tplayouts_per_cpu_s={playout_rate:,.0f}"
        f"\tendgames={solved}\tendgame_nodes={nodes}\tendgame_nodes_per_cpu_s={node_rate:,.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
