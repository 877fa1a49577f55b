"""Two matches on the same bags compared pair by pair (``wordfeud-bot arena-compare``): the arithmetic over
common finished pairs, and the refusals that name the directory and setting at fault."""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import astuple
from pathlib import Path

import pytest

from cli.main import main
from engine.players.arena import GameRecord, compare_pairs, summarize
from offline.arena.match import chunk_file, compare_lines, run_arena
from offline.errors import WorkDirError


def game(seed: int, seat: int, a: int, b: int) -> GameRecord:
    """A game in which A scored ``a`` and B ``b``, A in ``seat``."""
    scores = (a, b) if seat == 0 else (b, a)
    return GameRecord(seed, seat, scores, (0, 0), (0, 0), (10, 10), (0.1, 0.1))


def test_the_difference_is_taken_pair_by_pair_over_common_finished_pairs() -> None:
    first = [game(1, 0, 400, 380), game(1, 1, 410, 400), game(2, 0, 300, 350), game(2, 1, 320, 300)]
    first += [game(3, 0, 500, 300), game(3, 1, 500, 300)]  # pair 3 only in the first match
    second = [game(1, 0, 400, 380), game(1, 1, 410, 400), game(2, 0, 330, 350), game(2, 1, 280, 300)]
    second += [game(4, 0, 500, 300)]  # pair 4 unfinished
    difference = compare_pairs(first, second)
    assert (difference.pairs, difference.same) == (2, 1)  # pair 1 ended the same in both
    # A's margin a game per pair: the first match +15 and -15, the second +15 and -20; A's win share per
    # pair: the first 1 and a half, the second 1 and 0
    wins = [1.0 - 1.0, 0.5 - 0.0]
    assert difference.margin.mean == pytest.approx(2.5)
    half = 1.96 * statistics.stdev(wins) / math.sqrt(2)
    assert astuple(difference.win_rate) == pytest.approx((0.25, 0.25 - half, 0.25 + half))
    with pytest.raises(ValueError, match="no finished pair"):
        compare_pairs(first[:2], second[2:])


def test_the_summary_gives_the_margin_an_interval_over_pairs() -> None:
    records = [game(1, 0, 300, 200), game(1, 1, 260, 250), game(2, 0, 200, 200), game(2, 1, 100, 300)]
    summary = summarize(records)
    pair_margins = [(100 + 10) / 2, (0 - 200) / 2]
    half = 1.96 * statistics.stdev(pair_margins) / math.sqrt(2)
    assert summary.margin == pytest.approx(statistics.fmean(pair_margins))
    assert (summary.margin_low, summary.margin_high) == pytest.approx((summary.margin - half, summary.margin + half))
    assert f"95% CI {summary.margin_low:+.1f} .. {summary.margin_high:+.1f} over pairs" in summary.lines("A", "B")[2]


def test_a_match_against_itself_differs_by_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    run_arena("greedy", "equity-hand", pairs=2, ruleset=5, seed=4, workers=1, chunk=2, work=one)
    run_arena("greedy", "equity-hand", pairs=4, ruleset=5, seed=4, workers=1, chunk=2, work=two)
    assert main(["arena-compare", str(one), str(two)]) == 0
    out = capsys.readouterr().out
    assert "pair by pair over the 2 pairs both finished (2 ended with the same scores in both)" in out
    assert "win rate +0.0% (95% CI +0.0% .. +0.0%)" in out and "margin +0.0 a game (95% CI +0.0 .. +0.0)" in out
    assert out.count("greedy vs equity-hand: 4 games (2 mirrored pairs)") == 2  # each over the common pairs


def test_matches_on_other_bags_or_not_of_an_arena_are_refused(tmp_path: Path) -> None:
    one, other = tmp_path / "one", tmp_path / "other"
    run_arena("greedy", "greedy", pairs=2, ruleset=5, seed=4, workers=1, chunk=2, work=one)
    run_arena("greedy", "greedy", pairs=2, ruleset=5, seed=5, workers=1, chunk=2, work=other)
    with pytest.raises(WorkDirError, match=rf"not played on the same bags: seed 4 in {one}, 5 in {other}"):
        list(compare_lines(one, other))
    with pytest.raises(WorkDirError, match=rf"{tmp_path} is not a work directory: it has no manifest\.json"):
        list(compare_lines(one, tmp_path))
    learning = tmp_path / "learn"
    learning.mkdir()
    (learning / "manifest.json").write_text(json.dumps({"ruleset": 5, "seed": 4, "player": "equity"}), "utf-8")
    with pytest.raises(WorkDirError, match="is not an arena's work directory"):
        list(compare_lines(one, learning))
    chunk_file(other, 0, 1).unlink()
    (other / "manifest.json").write_text((one / "manifest.json").read_text("utf-8"), "utf-8")
    with pytest.raises(ValueError, match="no finished pair"):
        list(compare_lines(one, other))


def test_the_command_reports_errors_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena-compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wordfeud-bot arena-compare: ") and "has no manifest.json" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["arena-compare", "--help"])
    assert "same ruleset and seed" in capsys.readouterr().out
