"""The real endgames of the benchmark: made from seeded self-play, written and read back, measured."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pytest

from engine import native
from engine.errors import EngineError
from offline.bench import endgames
from offline.bench.endgames import DEFAULT_FILE, SOLVERS, english, from_self_play, measure, read, summary, write


def test_the_shipped_file_holds_20_endgames_of_full_racks_from_self_play() -> None:
    rules, lexicon = english()
    shipped = read(DEFAULT_FILE, rules)
    assert len(shipped) == 20
    assert all(len(e.mine) == len(e.theirs) == rules.rack_size and e.scoreless == 0 for e in shipped)
    # the file is what the command in its header makes: the first two again
    again = list(from_self_play(2, 2026, rules, lexicon))
    assert [(e.name, e.board, e.mine, e.theirs) for e in again] == [(e.name, e.board, e.mine, e.theirs) for e in
                                                                    shipped[:2]]  # fmt: skip


def test_written_endgames_read_back_the_same(tmp_path: Path) -> None:
    rules, lexicon = english()
    made = list(from_self_play(3, 7, rules, lexicon))
    path = tmp_path / "endgames.txt"
    write(made, path, "three endgames")
    assert read(path, rules) == made
    assert path.read_text(encoding="utf-8").startswith("# three endgames\n= ")


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    rules, _ = english()
    path = tmp_path / "bad.txt"
    path.write_text("= g1 AB\n", encoding="utf-8")
    with pytest.raises(EngineError, match=r"bad.txt:1: expected '= NAME MINE THEIRS SCORELESS'"):
        read(path, rules)
    path.write_text("= g1 AB1 CD 0\n" + "...............\n" * 15, encoding="utf-8")
    with pytest.raises(EngineError, match=r"bad.txt:1: endgame g1"):
        read(path, rules)


@pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")
def test_measure_counts_nodes_per_cpu_second_and_the_endgames_solved() -> None:
    """With injected clocks the figures are fixed: each reading of the wall clock is a second later (so
    each solve stops after its budget of 3 s, in 3 x 64 nodes) and each solve takes 2 CPU seconds."""
    rules, lexicon = english()
    shipped = read(DEFAULT_FILE, rules)[:3]
    ticks = iter(range(10**9))
    cpu = iter(range(10**9))
    lines: list[str] = []
    figures = measure(shipped, rules, lexicon, 3.0, solver=SOLVERS["native"], clock=lambda: float(next(ticks)),
                      cpu=lambda: 2.0 * next(cpu), report=lines.append)  # fmt: skip
    assert figures.endgames == 3 and figures.solved == 0 and figures.cpu_seconds == 6.0
    assert figures.nodes == 3 * 3 * 64
    assert math.isclose(figures.nodes_per_cpu_second, figures.nodes / 6)
    assert len(lines) == 3 and lines[0].startswith("# endgame g4\tEEILNOT vs ABDHIIL\tcomplete=False")
    assert summary(figures, "native", 3.0).startswith("# endgames\tsolver=native\tsolved_within_3s=0/3\tnodes_per")


@pytest.mark.parametrize(("choice", "clock"), [("wall", time.monotonic), ("cpu", time.process_time)])
def test_the_command_reads_the_budget_on_the_clock_chosen(
    choice: str, clock: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    used: dict[str, Any] = {}

    def fake_measure(found: list[Any], rules: Any, lexicon: Any, seconds: float, **options: Any) -> Any:
        used.update(options, seconds=seconds, count=len(found))
        return endgames.Figures(len(found), 1, 1000, 0.5, 0.1)

    monkeypatch.setattr(endgames, "measure", fake_measure)
    assert endgames.main(["--clock", choice, "--seconds", "2"]) == 0
    assert used["clock"] is clock and used["seconds"] == 2.0 and used["count"] == 20
    assert (
        capsys.readouterr()
        .out.strip()
        .endswith(f"solved_within_2s=1/20\tnodes_per_cpu_s=2,000\tnodes=1000\tcpu_s=0.50\tclock={choice}")
    )


@pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")
def test_a_node_budget_gives_the_same_counts_on_any_clock() -> None:
    """``--nodes``: each endgame stops at its node budget, whatever the clocks say."""
    rules, lexicon = english()
    shipped = read(DEFAULT_FILE, rules)[:2]
    runs = []
    for _ in range(2):
        lines: list[str] = []
        figures = measure(shipped, rules, lexicon, math.inf, solver=SOLVERS["native"], clock=lambda: 0.0,
                          report=lines.append, max_nodes=640)  # fmt: skip
        assert figures.nodes == 2 * 640 and figures.solved == 0
        runs.append([line.rsplit("\tseconds=", 1)[0] for line in lines])
    assert runs[0] == runs[1] and "\tnodes=640" in runs[0][0]
    closing = summary(figures, "native", math.inf, 640)
    assert closing.startswith("# endgames\tsolver=native\tsolved_within_640_nodes=0/2")


def test_the_command_with_nodes_runs_without_a_time_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    used: dict[str, Any] = {}

    def fake_measure(found: list[Any], rules: Any, lexicon: Any, seconds: float, **options: Any) -> Any:
        used.update(options, seconds=seconds)
        return endgames.Figures(len(found), 3, 5000, 0.5, 0.1)

    monkeypatch.setattr(endgames, "measure", fake_measure)
    assert endgames.main(["--nodes", "5000"]) == 0
    assert used["max_nodes"] == 5000 and used["seconds"] == math.inf
    assert "solved_within_5000_nodes=3/20" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        endgames.main(["--nodes", "0"])
    assert "--nodes must be at least 1, got 0" in capsys.readouterr().err
