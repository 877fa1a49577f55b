"""The benchmark command: its input format, its output lines and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import native
from engine.board.board import Board
from engine.errors import EngineError
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate, generate_flat
from engine.rules.ruleset import Ruleset
from offline.bench.movegen import flat_move_count, main, read_positions

EN = Ruleset.for_id(5)
EMPTY_ROWS = ["." * 15] * 15
WORDS = ["AT", "TA", "CAT", "ACT", "TAX", "AX", "XI", "TI", "IT", "CATS"]
needs_native = pytest.mark.skipif(native.NATIVE is None, reason=f"the C extension is not in use: {native.describe()}")


def _position(name: str, rack: str, rows: list[str]) -> str:
    return f"= {name} {rack}\n" + "\n".join(rows) + "\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    rows = list(EMPTY_ROWS)
    rows[7] = ".......CAT....."
    text = "# comment line\n\n" + _position("start", "ACT?", EMPTY_ROWS) + _position("mid", "AXIS??", rows)
    positions = tmp_path / "positions.txt"
    positions.write_text(text, encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return positions, words


@pytest.mark.parametrize("order", [[], ["--interleave"]])
def test_prints_one_line_per_position_and_summaries(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], order: list[str]
) -> None:
    positions, words = files
    argv = ["--positions", str(positions), "--lexicon", str(words), "--repeat", "2", "--endgame-seconds", "0"]
    assert main([*argv, *order]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"# generator={native.GENERATOR}\ttimed=generate (Placement objects)")
    assert out[1] == "name\track\tmoves\tmin_ms\tmedian_ms"
    rows = [line.split("\t") for line in out[2:4]]
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in WORDS], EN.alphabet)
    for (name, rack, moves, min_ms, median_ms), pos in zip(rows, read_positions(positions, EN.alphabet), strict=True):
        assert (name, rack) == (pos.name, pos.rack.text())
        assert int(moves) == len(generate(pos.board, pos.rack, lexicon, EN)) > 0
        assert 0 <= float(min_ms) <= float(median_ms)
    summary = "\n".join(out[4:])
    assert "# blanks=1\tpositions=1" in summary and "# blanks=2\tpositions=1" in summary
    assert f"words={len(WORDS)}" in summary
    assert "build_s=" in summary and "load_ms=" in summary and "memory_bytes=" in summary
    assert "calibration_ms_start=" in summary
    for line in out[4:]:
        if line.startswith(("# blanks=", "# all")):
            fields = dict(f.split("=", 1) for f in line.split("\t")[1:])
            assert 0 <= float(fields["median_of_min_ms"]) <= float(fields["median_ms"])


def test_bad_position_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    rows = list(EMPTY_ROWS)
    rows[3] = "...1..........."
    bad.write_text(_position("p1", "AB", EMPTY_ROWS) + _position("p2", "AB", rows), encoding="utf-8")
    with pytest.raises(EngineError, match=r"bad.txt:17: position p2: row 4"):
        list(read_positions(bad, EN.alphabet))


def test_missing_files_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--positions", str(tmp_path / "none.txt")])
    assert exc.value.code == 2
    assert "none.txt does not exist" in capsys.readouterr().err


def test_repeat_below_one_is_a_usage_error(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    positions, words = files
    with pytest.raises(SystemExit) as exc:
        main(["--positions", str(positions), "--lexicon", str(words), "--repeat", "0"])
    assert exc.value.code == 2
    assert "--repeat must be at least 1, got 0" in capsys.readouterr().err


def test_positions_round_trip_board_text(files: tuple[Path, Path]) -> None:
    positions, _ = files
    mid = list(read_positions(positions, EN.alphabet))[1]
    assert Board.from_text(mid.board.text(), EN.alphabet) == mid.board
    assert mid.rack.blanks == 2


def _rows(out: str) -> dict[str, tuple[str, int, float]]:
    """The position lines the way ``../shared/bench/peers/compare.py`` reads them: lines starting with
    ``#`` or ``name<TAB>`` and empty lines are skipped, the rest are name, rack, moves, ms[, ...]."""
    rows = {}
    for line in out.splitlines():
        if not line.strip() or line.startswith(("#", "name\t")):
            continue
        fields = line.split("\t")
        rows[fields[0]] = (fields[1], int(fields[2]), float(fields[3]))
    return rows


@pytest.mark.parametrize(
    ("generator", "flat"),
    [
        pytest.param("python", False),
        pytest.param("native", False, marks=needs_native),
        pytest.param(native.GENERATOR, True),
    ],
)
def test_generator_and_flat_choose_what_is_timed(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], generator: str, flat: bool
) -> None:
    positions, words = files
    argv = ["--positions", str(positions), "--lexicon", str(words), "--repeat", "1", "--generator", generator]
    argv += ["--endgame-seconds", "0"]
    assert main(argv + (["--flat"] if flat else [])) == 0
    out = capsys.readouterr().out
    timed = "generate_flat (a flat int array)" if flat else "generate (Placement objects)"
    assert out.splitlines()[0] == f"# generator={generator}\ttimed={timed}\tactive={native.describe()}"
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in WORDS], EN.alphabet)
    expected = {
        pos.name: (pos.rack.text(), len(generate(pos.board, pos.rack, lexicon, EN, generator="python")))
        for pos in read_positions(positions, EN.alphabet)
    }
    assert {name: (rack, moves) for name, (rack, moves, _) in _rows(out).items()} == expected


def test_flat_move_count_walks_the_array(files: tuple[Path, Path]) -> None:
    positions, _ = files
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in WORDS], EN.alphabet)
    for pos in read_positions(positions, EN.alphabet):
        assert flat_move_count(generate_flat(pos.board, pos.rack, lexicon, EN)) == len(
            generate(pos.board, pos.rack, lexicon, EN)
        )


def test_generator_native_without_the_extension_says_why(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    positions, words = files
    reason = "pure Python (the C extension engine._native is not built: no C compiler at install?)"
    monkeypatch.setattr(native, "NATIVE", None)
    monkeypatch.setattr(native, "GENERATOR", "python")
    monkeypatch.setattr(native, "_DESCRIPTION", reason)
    monkeypatch.delenv(native.VARIABLE, raising=False)
    with pytest.raises(SystemExit) as exc:
        main(["--positions", str(positions), "--lexicon", str(words), "--generator", "native"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--generator native: the C extension is not in use (move generator: {reason})" in err
    assert "reinstall with a C compiler (pip install -e .)" in err
    monkeypatch.setenv(native.VARIABLE, "python")  # forced off: the remedy is to unset the variable
    with pytest.raises(SystemExit):
        main(["--positions", str(positions), "--lexicon", str(words), "--generator", "native"])
    assert f"unset {native.VARIABLE}" in capsys.readouterr().err


def test_flat_with_a_generator_that_is_not_active_is_a_usage_error(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    positions, words = files
    monkeypatch.setattr(native, "GENERATOR", "native")
    with pytest.raises(SystemExit) as exc:
        main(["--positions", str(positions), "--lexicon", str(words), "--generator", "python", "--flat"])
    assert exc.value.code == 2
    assert f"run with {native.VARIABLE}=python" in capsys.readouterr().err


def test_generator_must_be_native_or_python(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    positions, words = files
    with pytest.raises(SystemExit) as exc:
        main(["--positions", str(positions), "--lexicon", str(words), "--generator", "rust"])
    assert exc.value.code == 2
    assert "invalid choice: 'rust'" in capsys.readouterr().err


def test_decide_times_a_whole_decision_of_the_strategy(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    positions, words = files
    argv = ["--positions", str(positions), "--lexicon", str(words), "--repeat", "2", "--decide", "equity"]
    assert main([*argv, "--endgame-seconds", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"# generator={native.GENERATOR}\ttimed=a whole equity decision")
    summary = [line for line in out if line.startswith("# all\t")]
    fields = dict(f.split("=", 1) for f in summary[0].split("\t")[1:])
    assert 0 <= float(fields["median_ms"]) <= float(fields["p95_ms"])


def test_decide_names_an_unknown_strategy(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    positions, words = files
    with pytest.raises(SystemExit):
        main(["--positions", str(positions), "--lexicon", str(words), "--decide", "genius"])
    assert "--decide: unknown strategy 'genius'" in capsys.readouterr().err


@needs_native
def test_sim_prints_playout_rates_and_decisions(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    positions, words = files
    arguments = ["--positions", str(positions), "--lexicon", str(words), "--sim", "--sim-draws", "3"]
    arguments += [
        "--sim-python-draws",
        "2",
        "--sim-default",
        "sim:candidates=2,iterations=3",
        "--sim-candidates",
        "3",
        "1",
        "--endgame-seconds",
        "0",
    ]
    assert main([*arguments, "--sim-fixed", "sim:candidates=3,iterations=4,seconds=0"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("# playouts\t")]
    assert len(lines) == 2  # one for each count of candidates, in the order given
    for line, candidates in zip(lines, ("3", "1"), strict=True):
        rates = dict(field.split("=", 1) for field in line.split("\t")[1:])
        assert rates["positions"] == "2" and rates["draws_native"] == "3" and rates["draws_python"] == "2"
        assert rates["candidates"] == candidates
        assert min(float(rates[key].replace(",", "")) for key in ("native_per_cpu_s", "python_per_cpu_s")) > 0
    assert "# decision sim:candidates=2,iterations=3\tpositions=2\tmedian_ms=" in out
    fixed = out.split("# decision sim:candidates=3,iterations=4,seconds=0\t")[1].splitlines()[0]
    assert "max_ms=" in fixed and ("(start)" in fixed or "(mid)" in fixed)
    assert "\tcpu_max_ms=" in fixed
    assert "iterations_median=4\titerations_p5=4\titerations_min=4\tsimulated=2" in fixed
    fields = dict(field.split("=", 1) for field in fixed.split("\t") if "=" in field)
    # four iterations of three candidates, or four when the best swap joins them
    assert fields["playouts_median"] in ("12", "14", "16") and fields["playouts_max"] in ("12", "16")


@needs_native
def test_sim_also_prints_the_real_endgames_unless_told_not_to(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    positions, words = files
    arguments = ["--positions", str(positions), "--lexicon", str(words), "--sim", "--sim-draws", "1"]
    arguments += ["--sim-python-draws", "1", "--sim-candidates", "1", "--sim-default", "sim:candidates=1,iterations=1"]
    arguments += ["--sim-fixed", "sim:candidates=1,iterations=1,seconds=0"]
    assert main([*arguments, "--endgame-seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    summary = [line for line in out.splitlines() if line.startswith("# endgames\t")]
    assert len(summary) == 1 and "\tsolved_within_0.01s=" in summary[0] and "/20\t" in summary[0]
    assert out.index("# decision") < out.index("# endgames\t") < out.index("# machine")
    assert main([*arguments, "--endgame-seconds", "0"]) == 0
    assert "# endgames" not in capsys.readouterr().out


def test_sim_refuses_no_candidates(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    positions, words = files
    with pytest.raises(SystemExit):
        main(["--positions", str(positions), "--lexicon", str(words), "--sim", "--sim-candidates", "8", "0"])
    assert "--sim-candidates must be at least 1, not 0" in capsys.readouterr().err


def test_sim_names_a_strategy_that_does_not_simulate(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    positions, words = files
    with pytest.raises(SystemExit):
        main(["--positions", str(positions), "--lexicon", str(words), "--sim", "--sim-fixed", "equity"])
    assert "--sim-fixed: 'equity' is not a sim strategy" in capsys.readouterr().err


def test_the_endgame_figures_close_the_run(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """With a budget, a line per real 7-tile endgame and the summary: share solved, nodes per CPU second."""
    positions, words = files
    argv = ["--positions", str(positions), "--lexicon", str(words), "--repeat", "1", "--endgame-seconds", "0.001"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert len([line for line in out if line.startswith("# endgame g")]) == 20
    summary = [line for line in out if line.startswith("# endgames\t")]
    assert summary and summary[0].startswith("# endgames\tsolver=active\tsolved_within_0.001s=")
    assert "/20\tnodes_per_cpu_s=" in summary[0]
