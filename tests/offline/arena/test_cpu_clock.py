"""``arena --clock cpu``: every strategy thinks in a server process of its own, on that process's CPU time
(offline/arena/checkout.py, offline/arena/strategyserver.py), so a loaded machine cuts neither side's time budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.lexicon.dawg import Dawg
from engine.players.arena import GameRecord
from offline.arena import checkout as checkout_module
from offline.arena.checkout import (
    THIS_CHECKOUT,
    CheckoutStrategy,
    arena_strategy,
    check_strategy_name,
    close_servers,
    served_checkout,
)
from offline.arena.match import run_arena
from offline.arena.strategyserver import clock_name
from offline.errors import CheckoutError, WorkDirError
from offline.runs import workdir
from tests.lexicons import EN, english
from tests.offline.arena.test_checkout import HELLO, scripted

# The clocks the engine's budgets read by default, printed by a fresh interpreter (the defaults are bound
# when the engine is imported, so the server must switch the clock before that).
CLOCKS_OF_THE_ENGINE = """
import sys, time
from offline.arena.strategyserver import use_cpu_clock
if sys.argv[1] == "cpu":
    use_cpu_clock()
from engine.equity.strategy import EndgameBudget
from engine.players.registry import strategy_named
sim = strategy_named("sim")
budget = sim.static.solver
assert isinstance(budget, EndgameBudget)
import engine.endgame.native as native_endgame, engine.endgame.search as endgame
seen = {sim.clock, budget.clock, native_endgame.solve_endgame.__kwdefaults__["clock"],
        endgame.solve.__kwdefaults__["clock"], sim.budgeted(0.5).clock}
print(",".join(sorted({"cpu" if clock is time.process_time else "wall" if clock is time.monotonic else "other"
                       for clock in seen})))
"""


@pytest.mark.parametrize("clock", ["cpu", "wall"])
def test_the_cpu_clock_is_every_budget_clock_of_the_engine(clock: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", CLOCKS_OF_THE_ENGINE, clock],
        check=False, capture_output=True, text=True, cwd=THIS_CHECKOUT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == clock  # the simulation's, the endgame searches' and the budgeted sim's


def test_the_cpu_clock_counts_this_process_s_cpu_time_only() -> None:
    run = subprocess.run(
        [sys.executable, "-c", "from offline.arena.strategyserver import use_cpu_clock, clock_name; import time; "
         "before = clock_name(); use_cpu_clock(); print(before, clock_name(), time.monotonic is time.process_time)"],
        check=False, capture_output=True, text=True, cwd=THIS_CHECKOUT,
    )  # fmt: skip
    assert run.stdout.split() == ["wall", "cpu", "True"], run.stderr
    assert clock_name() == "wall"  # the test's own process keeps the wall clock


def test_on_the_cpu_clock_every_strategy_is_served(tmp_path: Path) -> None:
    assert served_checkout("sim") is None and served_checkout("sim", "wall") is None
    mine = served_checkout("sim:candidates=4", "cpu")
    assert mine is not None
    assert (mine.root, mine.spec, mine.interpreter, mine.cpu_clock) == (
        THIS_CHECKOUT, "sim:candidates=4", Path(sys.executable), True,
    )  # fmt: skip
    assert mine.python == Path(sys.executable)
    with pytest.raises(ValueError, match="unknown strategy 'nonsense'"):
        served_checkout("nonsense", "cpu")
    with pytest.raises(CheckoutError, match=r"clock 'sundial': expected one of wall, cpu"):
        served_checkout("sim", "sundial")
    with pytest.raises(CheckoutError, match=rf"checkout {tmp_path}/missing: no such directory"):
        served_checkout(f"checkout:{tmp_path}/missing:sim", "cpu")


def test_a_server_on_the_wrong_clock_is_refused(tmp_path: Path) -> None:
    checkout = scripted(tmp_path, HELLO)  # names no clock: the wall clock
    remote = arena_strategy(f"checkout:{checkout}:equity", "cpu")
    assert isinstance(remote, CheckoutStrategy) and remote.checkout.cpu_clock
    with pytest.raises(CheckoutError, match=r"\(equity, on its CPU clock\) thinks on the 'wall' clock, not the 'cpu'"):
        check_strategy_name(f"checkout:{checkout}:equity", "cpu")
    answer = json.loads(HELLO)
    answer["clock"] = "cpu"
    (tmp_path / "other").mkdir()
    other = scripted(tmp_path / "other", json.dumps(answer))
    with pytest.raises(CheckoutError, match=r"thinks on the 'cpu' clock, not the 'wall' one"):
        check_strategy_name(f"checkout:{other}:equity")


def essence(records: list[GameRecord]) -> list[tuple[object, ...]]:
    return [(r.seed, r.seat_of_a, r.scores, r.bingos, r.swaps, r.moves) for r in records]


def test_a_match_on_the_cpu_clock_plays_the_moves_of_the_wall_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short = Dawg.build([word for word in english().words() if len(word) <= 4], EN.alphabet)
    monkeypatch.setattr("offline.arena.match.worker_lexicon", lambda ruleset: short)  # one worker: in this process
    settings = {"pairs": 2, "ruleset": 5, "seed": 3, "workers": 1, "chunk": 1}
    work = tmp_path / "work"
    served = run_arena("equity", "greedy", clock="cpu", work=work, **settings)  # type: ignore[arg-type]
    servers = {(c.root, c.spec, c.interpreter, c.cpu_clock) for c in checkout_module._SERVERS}
    close_servers()
    this = (THIS_CHECKOUT, Path(sys.executable), True)
    assert servers == {(this[0], "equity", *this[1:]), (this[0], "greedy", *this[1:])}  # both sides were served
    assert essence(served) == essence(run_arena("equity", "greedy", **settings))  # type: ignore[arg-type]
    assert len({record.scores for record in served}) == 4  # four different games compared
    assert json.loads((work / "manifest.json").read_text(encoding="utf-8"))["clock"] == "cpu"
    with pytest.raises(WorkDirError, match=r"clock 'cpu' \(asked 'wall'\)"):
        run_arena("equity", "greedy", work=work, **settings)  # type: ignore[arg-type]


def test_a_work_directory_from_before_the_clock_was_named_is_of_the_wall_clock(tmp_path: Path) -> None:
    settings: dict[str, object] = {"a": "sim", "b": "equity", "ruleset": 5, "seed": 1, "chunk": 4}
    (tmp_path / "manifest.json").write_text(json.dumps(settings), encoding="utf-8")
    workdir.prepare(tmp_path, {**settings, "clock": "wall"}, defaults={"clock": "wall"})
    with pytest.raises(WorkDirError, match=r"clock 'wall' \(asked 'cpu'\)"):
        workdir.prepare(tmp_path, {**settings, "clock": "cpu"}, defaults={"clock": "wall"})
    with pytest.raises(WorkDirError, match=r"clock None \(asked 'wall'\)"):
        workdir.prepare(tmp_path, {**settings, "clock": "wall"})  # without the default: a setting it lacks
