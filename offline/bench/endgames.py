"""Real 7-tile endgames for the benchmark: ``python -m offline.bench.endgames --write FILE`` makes them.

An endgame is taken from a seeded self-play game (``equity`` against itself, ruleset 5, the bundled
English lexicon) at the first turn with the bag empty, when both racks hold seven tiles. The set the
bench reads (``offline/data/endgames-7.txt``) was made with ``--seed 2026 --count 20``; each entry is
``= NAME MINE THEIRS SCORELESS`` (``?`` a blank) and the 15 rows of the board (lower case a blank).
``measure`` solves each with the active solver (``engine.endgame.native.solve_endgame``) within a time
budget and prints nodes per CPU second and how many were solved exactly; ``--nodes N`` gives each a
budget of N nodes and no time limit instead, so that each line's nodes are the count the search needed
to finish (when ``complete=True``): the same on every machine and under any load.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from dictionaries import ENGLISH_DAWG, bundled_path
from engine.board.board import Board
from engine.board.rack import Rack
from engine.endgame.native import solve_endgame, solve_native
from engine.endgame.search import EndgameResult, solve
from engine.equity.strategy import Equity, Situation
from engine.errors import EngineError
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

#: The solvers ``measure`` can time: the active one, the C one, the pure-Python reference.
SOLVERS: dict[str, Callable[..., EndgameResult]] = {"active": solve_endgame, "native": solve_native, "python": solve}

#: The clocks the time budget can be read on: wall time, or the process's CPU time (``--clock``).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.process_time}

#: The benchmark's endgames (ruleset 5, English).
DEFAULT_FILE = Path(__file__).resolve().parents[1] / "data" / "endgames-7.txt"


@dataclass(frozen=True)
class Endgame:
    """A position with the bag empty: the board, the mover's and the opponent's racks, the scoreless count."""

    name: str
    board: Board
    mine: Rack
    theirs: Rack
    scoreless: int


def english() -> tuple[Ruleset, Dawg]:
    rules = Ruleset.for_id(5)
    return rules, Dawg.load(bundled_path(ENGLISH_DAWG), rules.alphabet)


def from_self_play(count: int, seed: int, rules: Ruleset, lexicon: Dawg) -> Iterator[Endgame]:
    """``count`` endgames of seeded ``equity`` self-play games: the first turn with the bag empty, when
    both racks are full (games that end otherwise are skipped)."""
    player = Equity()
    made = game_number = 0
    while made < count:
        game = Game(rules, lexicon, random.Random(f"{seed}:{game_number}"))
        game_number += 1
        while not game.is_over and len(game.bag):
            game.play(player.best(Situation.of(game), 1)[0])
        if game.is_over or any(len(rack) != rules.rack_size for rack in game.racks):
            continue
        made += 1
        me = game.current
        yield Endgame(f"g{game_number - 1}", game.board.copy(), game.racks[me], game.racks[1 - me],
                      game.scoreless_turns)  # fmt: skip


def write(endgames: Sequence[Endgame], path: Path, header: str) -> None:
    lines = [f"# {header}"]
    for e in endgames:
        lines.append(f"= {e.name} {e.mine.text() or '-'} {e.theirs.text() or '-'} {e.scoreless}")
        lines.extend(e.board.text().splitlines())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read(path: Path, rules: Ruleset) -> list[Endgame]:
    """The endgames of a file; raises EngineError naming the line that is wrong."""
    lines = path.read_text(encoding="utf-8").splitlines()
    endgames: list[Endgame] = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line or line.startswith("#"):
            i += 1
            continue
        parts = line[1:].split() if line.startswith("=") else []
        if len(parts) != 4 or not parts[3].isdigit():
            raise EngineError(f"{path}:{i + 1}: expected '= NAME MINE THEIRS SCORELESS', got {line!r}")
        name, mine, theirs, scoreless = parts
        try:
            racks = [Rack.from_text("" if text == "-" else text, rules.alphabet) for text in (mine, theirs)]
            board = Board.from_text("\n".join(lines[i + 1 : i + 16]), rules.alphabet)
        except EngineError as exc:
            raise EngineError(f"{path}:{i + 1}: endgame {name}: {exc}") from None
        endgames.append(Endgame(name, board, racks[0], racks[1], int(scoreless)))
        i += 16
    return endgames


@dataclass(frozen=True)
class Figures:
    """What ``measure`` found: endgames, how many were solved exactly, nodes and CPU seconds in all."""

    endgames: int
    solved: int
    nodes: int
    cpu_seconds: float
    slowest: float

    @property
    def nodes_per_cpu_second(self) -> float:
        return self.nodes / self.cpu_seconds if self.cpu_seconds else 0.0


def measure(
    endgames: Sequence[Endgame],
    rules: Ruleset,
    lexicon: Dawg,
    seconds: float,
    *,
    solver: Callable[..., EndgameResult] = solve_endgame,
    clock: Callable[[], float] = time.monotonic,
    cpu: Callable[[], float] = time.process_time,
    report: Callable[[str], None] = print,
    max_nodes: int | None = None,
) -> Figures:
    """Solve each endgame within ``seconds`` (and ``max_nodes`` nodes when given); one line per endgame
    through ``report``."""
    solved = nodes = 0
    cpu_total = slowest = 0.0
    for e in endgames:
        started = cpu()
        result = solver(e.board, e.mine, e.theirs, lexicon, rules, scoreless=e.scoreless, seconds=seconds,
                        clock=clock, max_nodes=max_nodes)  # fmt: skip
        spent = cpu() - started
        cpu_total += spent
        slowest = max(slowest, result.seconds)
        nodes += result.nodes
        solved += result.complete
        report(
            f"# endgame {e.name}\t{e.mine.text()} vs {e.theirs.text()}\tcomplete={result.complete}\t"
            f"value={result.value}\tdepth={result.depth}\tnodes={result.nodes}\tseconds={result.seconds:.3f}"
        )
    return Figures(len(endgames), solved, nodes, cpu_total, slowest)


def summary(figures: Figures, solver: str, seconds: float, max_nodes: int | None = None) -> str:
    """The closing line: the solver, the share solved exactly within the budget, nodes per CPU second."""
    within = f"{seconds:g}s" if max_nodes is None else f"{max_nodes}_nodes"
    return (
        f"# endgames\tsolver={solver}\tsolved_within_{within}={figures.solved}/{figures.endgames}"
        f"\tnodes_per_cpu_s={figures.nodes_per_cpu_second:,.0f}\tnodes={figures.nodes}\tcpu_s={figures.cpu_seconds:.2f}"
    )


def bench(seconds: float, solver: str = "active") -> list[str]:
    """What ``python -m offline.bench`` prints about the endgame: a line per endgame and the summary."""
    rules, lexicon = english()
    lines: list[str] = []
    figures = measure(read(DEFAULT_FILE, rules), rules, lexicon, seconds, solver=SOLVERS[solver], report=lines.append)
    return [*lines, summary(figures, solver, seconds)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m offline.bench.endgames", description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="write the endgames of seeded self-play games to this file")
    parser.add_argument("--seed", type=int, default=2026, help="the self-play games' seed (default 2026)")
    parser.add_argument("--count", type=int, default=20, help="how many endgames (default 20)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per endgame (default 2)")
    parser.add_argument(
        "--solver", choices=sorted(SOLVERS), default="active",
        help="the solver to measure: active (C when built, else Python; default), native or python",
    )  # fmt: skip
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall",
        help="the clock the time budget is read on: wall (default) or cpu (the process's CPU time, so that"
        " the load of other work on the machine does not decide how deep each gets)",
    )  # fmt: skip
    parser.add_argument(
        "--nodes", type=int, metavar="N",
        help="give each endgame N nodes and no time limit (so each line's nodes are what the search needed to"
        " finish, the same on every machine); --seconds and --clock are then not used",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error(f"--count must be at least 1, got {args.count}")
    if args.nodes is not None and args.nodes < 1:
        parser.error(f"--nodes must be at least 1, got {args.nodes}")
    rules, lexicon = english()
    if args.write:
        made = list(from_self_play(args.count, args.seed, rules, lexicon))
        command = f"python -m offline.bench.endgames --write FILE --seed {args.seed} --count {args.count}"
        write(made, args.write, command)
        print(f"{len(made)} endgames written to {args.write}")
        return 0
    if args.nodes is not None:
        figures = measure(read(DEFAULT_FILE, rules), rules, lexicon, math.inf, solver=SOLVERS[args.solver],
                          max_nodes=args.nodes)  # fmt: skip
        print(summary(figures, args.solver, math.inf, args.nodes))
        return 0
    figures = measure(read(DEFAULT_FILE, rules), rules, lexicon, args.seconds, solver=SOLVERS[args.solver],
                      clock=CLOCKS[args.clock])  # fmt: skip
    print(f"{summary(figures, args.solver, args.seconds)}\tclock={args.clock}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
