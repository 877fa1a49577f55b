"""The benchmark command: its input format, its output lines and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bench import main, read_positions
from engine.board import Board
from engine.dawg import Dawg
from engine.errors import EngineError
from engine.movegen import generate
from engine.rules import Ruleset

EN = Ruleset.for_id(5)
EMPTY_ROWS = ["." * 15] * 15
WORDS = ["AT", "TA", "CAT", "ACT", "TAX", "AX", "XI", "TI", "IT", "CATS"]


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
    assert main(["--positions", str(positions), "--lexicon", str(words), "--repeat", "2", *order]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "name\track\tmoves\tmin_ms\tmedian_ms"
    rows = [line.split("\t") for line in out[1:3]]
    lexicon = Dawg.build([EN.alphabet.parse_word(w) for w in WORDS], EN.alphabet)
    for (name, rack, moves, min_ms, median_ms), pos in zip(rows, read_positions(positions, EN.alphabet), strict=True):
        assert (name, rack) == (pos.name, pos.rack.text())
        assert int(moves) == len(generate(pos.board, pos.rack, lexicon, EN)) > 0
        assert 0 <= float(min_ms) <= float(median_ms)
    summary = "\n".join(out[3:])
    assert "# blanks=1\tpositions=1" in summary and "# blanks=2\tpositions=1" in summary
    assert f"words={len(WORDS)}" in summary
    assert "build_s=" in summary and "load_ms=" in summary and "memory_bytes=" in summary
    assert "calibration_ms_start=" in summary
    for line in out[3:]:
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
