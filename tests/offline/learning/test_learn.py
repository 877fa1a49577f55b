"""``learn-leaves``: chunked self-play that resumes, checked work directories, and the fitted table."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from cli.main import main
from engine.board.rack import Rack
from engine.equity.fulltable import FullLeave, read_leave_model
from engine.equity.leavetable import LearnedLeave
from engine.rules.ruleset import Ruleset
from offline.errors import LearnError
from offline.learning.learn import (
    Sample,
    Settings,
    chunk_path,
    chunks,
    fit_table,
    held_out_error,
    play_games,
    prepare,
    read_samples,
)

EN = Ruleset.for_id(5)
SETTINGS = Settings(ruleset=5, seed=4, player="greedy", explore=0.0, chunk=1)


def test_chunks_cover_every_game_once() -> None:
    assert chunks(7, 3) == [(0, 2), (3, 5), (6, 6)]
    assert chunks(3, 10) == [(0, 2)]


def test_an_interrupted_run_goes_on_where_it_stopped(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    assert play_games(tmp_path, SETTINGS, 2, workers=1, progress=lambda d, t: seen.append((d, t))) == 2
    assert seen == [(0, 2), (1, 2), (2, 2)]
    first = chunk_path(tmp_path, 0, 0).read_text(encoding="utf-8")
    chunk_path(tmp_path, 1, 1).unlink()  # as if the run had been stopped during game 1
    assert play_games(tmp_path, SETTINGS, 3, workers=1) == 2  # game 1 again, and the new game 2
    assert chunk_path(tmp_path, 0, 0).read_text(encoding="utf-8") == first  # not replayed
    assert not list(tmp_path.glob("*.partial"))
    counts = read_samples(tmp_path, 3, 1)
    lines = sum(len(chunk_path(tmp_path, a, b).read_text().splitlines()) for a, b in chunks(3, 1))
    assert sum(counts.values()) == lines
    model = fit_table(counts, EN, ridge=30.0, rounds=3, about={"games": 3}).table
    assert model.about["samples"] == sum(counts.values())
    assert LearnedLeave.from_json(model.to_json(), EN).weights == pytest.approx(model.weights, abs=1e-3)


def test_a_work_directory_keeps_its_settings(tmp_path: Path) -> None:
    prepare(tmp_path, SETTINGS)
    with pytest.raises(LearnError, match=r"explore 0.0 \(asked 0.5\)"):
        prepare(tmp_path, Settings(5, 4, "greedy", 0.5, 1))
    prepare(tmp_path, SETTINGS)  # the same settings are fine
    assert json.loads((tmp_path / "manifest.json").read_text())["player"] == "greedy"


def test_a_damaged_sample_file_is_named(tmp_path: Path) -> None:
    chunk_path(tmp_path, 0, 0).write_text("EST\t12\t-\nnonsense\n", encoding="utf-8")
    with pytest.raises(LearnError, match=r"games-000000-000000\.tsv:2: not a sample line"):
        read_samples(tmp_path, 1, 1)
    chunk_path(tmp_path, 0, 0).write_text("EST\t12\t-\n-\t30\tS\nEST\t12\t-\nQ\t5\t*\n", encoding="utf-8")
    assert read_samples(tmp_path, 1, 1) == {("EST", 12, ""): 2, ("", 30, "S"): 1, ("Q", 5, None): 1}
    with pytest.raises(LearnError, match=r"cannot read samples .*games-000001-000001\.tsv"):
        read_samples(tmp_path, 2, 1)  # game 1 was never played
    chunk_path(tmp_path, 0, 0).write_text("E5T\t12\t-\n", encoding="utf-8")
    with pytest.raises(LearnError, match="sample leave 'E5T' is not a rack of ruleset 5"):
        fit_table(read_samples(tmp_path, 1, 1), EN, ridge=1.0, rounds=1, about={})


def test_later_rounds_add_the_value_of_the_leave_kept_next() -> None:
    # a blank kept: 35 points next turn on average, and the blank kept again 3 times in 4;
    # nothing kept: 30 points; an E kept: 20 points
    counts: Counter[Sample] = Counter(
        {("?", 30, "?"): 50, ("?", 30, ""): 50, ("?", 40, "?"): 100, ("", 30, ""): 100, ("E", 20, ""): 100}
    )
    blank, e = Rack.from_text("?", EN.alphabet), Rack.from_text("E", EN.alphabet)
    one_step = fit_table(counts, EN, ridge=1e-6, rounds=1, about={})
    assert one_step.table.value(blank) == pytest.approx(5.0, abs=1e-3)  # 35 - 30
    assert one_step.table.value(e) == pytest.approx(-10.0, abs=1e-3)
    settled = fit_table(counts, EN, ridge=1e-6, rounds=80, about={})
    assert settled.table.value(blank) == pytest.approx(20.0, abs=1e-3)  # v = 5 + 0.75 v
    assert settled.table.value(e) == pytest.approx(-10.0, abs=1e-3)  # an E is never kept again here
    assert settled.changes[0] > settled.changes[1] > settled.changes[-1] and settled.changes[-1] < 1e-6


def test_command_writes_a_table_the_arena_can_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "en.json"
    argv = ["learn-leaves", "--work", str(tmp_path / "w"), "--games", "2", "--player", "greedy", "--workers", "1"]
    assert main([*argv, "--out", str(out), "--chunk", "1"]) == 0
    printed = capsys.readouterr()
    assert "2 games (2 played now)" in printed.out and f"wrote {out}" in printed.out
    assert "2/2 games" in printed.err  # progress
    assert LearnedLeave.from_json(out.read_text(encoding="utf-8"), EN).about["games"] == 2
    assert main([*argv, "--out", str(out), "--chunk", "2"]) == 1  # other settings than the work directory's
    assert "chunk 1 (asked 2)" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--explore", "2"])
    assert exit_info.value.code == 2
    assert "expected a number from 0 to 1, got '2'" in capsys.readouterr().err


def test_a_table_learned_from_a_table_keeps_its_lineage(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    common = ["learn-leaves", "--games", "1", "--workers", "1", "--chunk", "1"]
    assert main([*common, "--work", str(tmp_path / "w1"), "--player", "greedy", "--out", str(first)]) == 0
    player = f"equity:{first}"
    assert main([*common, "--work", str(tmp_path / "w2"), "--player", player, "--out", str(second)]) == 0
    about = LearnedLeave.from_json(second.read_text(encoding="utf-8"), EN).about
    assert about["player"] == player
    lineage = about["player_table"]
    assert isinstance(lineage, dict) and lineage["player"] == "greedy" and lineage["games"] == 1
    first_about = LearnedLeave.from_json(first.read_text(encoding="utf-8"), EN).about
    assert "player_table" not in first_about  # greedy played with no table


def test_command_writes_a_full_table_and_reports_the_held_out_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "full.json"
    argv = ["learn-leaves", "--work", str(tmp_path / "w"), "--games", "4", "--player", "greedy", "--workers", "1"]
    assert main([*argv, "--chunk", "2", "--out", str(out), "--full", "1", "--held-out", "2"]) == 0
    printed = capsys.readouterr().out
    assert "2 games (4 played now)" in printed  # the held-out games are played, not fitted
    assert "full table: own values for" in printed and "held out: 2 games" in printed
    for model in ("no leave values", "the shipped table", "factorised fit", "full table"):
        assert f"    {model}: " in printed
    table = read_leave_model(str(out), EN)
    assert isinstance(table, FullLeave) and table.values and table.about["games"] == 2
    assert main([*argv, "--chunk", "2", "--out", str(out), "--held-out", "3"]) == 1
    assert "--held-out 3 must be a multiple of --chunk 2 below --games 4" in capsys.readouterr().err


def test_held_out_error_judges_the_values_not_the_baseline() -> None:
    # an S kept: 40 points next, nothing kept: 30; a table that says S +10 predicts every sample
    counts: Counter[Sample] = Counter({("S", 40, None): 10, ("", 30, None): 10})
    right = fit_table(counts, EN, ridge=1e-6, rounds=1, about={}).table
    assert right.value(Rack.from_text("S", EN.alphabet)) == pytest.approx(10.0, abs=1e-3)
    shifted = replace(right, baseline=right.baseline + 7.0)  # another baseline: the same moves
    for model in (right, shifted):
        assert held_out_error(counts, counts, model, right, EN) == pytest.approx(0.0, abs=1e-6)
    half = replace(right, weights=tuple(w / 2 for w in right.weights))  # S +5: off by 2.5 either way
    assert held_out_error(counts, counts, half, right, EN) == pytest.approx(2.5**2, abs=1e-3)


def test_the_c_and_python_loops_write_the_same_sample_files(tmp_path: Path) -> None:
    settings = Settings(ruleset=5, seed=9, player="equity", explore=0.2, chunk=3)
    for loop in ("c", "python"):
        assert play_games(tmp_path / loop, settings, 6, workers=1, loop=loop) == 6
    for first, last in chunks(6, 3):
        c_file, python_file = chunk_path(tmp_path / "c", first, last), chunk_path(tmp_path / "python", first, last)
        assert c_file.read_text(encoding="utf-8") == python_file.read_text(encoding="utf-8")
        assert c_file.read_text(encoding="utf-8").count("\n") > 20


def test_the_c_loop_refuses_a_player_it_cannot_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(LearnError, match=r"the C loop plays equity with a learned .* not 'greedy'"):
        play_games(tmp_path / "w", SETTINGS, 1, workers=1, loop="c")
    assert not (tmp_path / "w").exists()
    argv = ["learn-leaves", "--work", str(tmp_path / "w"), "--games", "1", "--player", "equity-hand", "--loop", "c"]
    assert main(argv) == 1
    assert "not 'equity-hand'; use --loop python or --loop auto" in capsys.readouterr().err
