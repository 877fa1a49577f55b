"""``python -m dictionaries.coverage``: a lexicon's share of a reference list, its words outside it,
and the reference's two-letter words it lacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from dictionaries.coverage import coverage, main


def test_coverage_counts_shared_outside_and_missing_twos() -> None:
    result = coverage("mine", {"AA", "QI", "CAT", "ZZZX"}, "ref", {"AA", "QI", "ZA", "CAT", "DOG"})
    assert (result.words, result.shared, result.outside, result.twos_missing) == (4, 3, 1, ("ZA",))
    assert result.share == pytest.approx(0.6)
    assert result.row() == "| mine | 4 | ref (5) | 60.00% | 1 | 1: ZA |"


def test_the_command_prints_a_table_from_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("aa\nqi\ncat\n")
    (tmp_path / "b.txt").write_text("za\n")
    (tmp_path / "ref.txt").write_text("AA\nQI\nZA\nCAT\nDOG\n")
    spec = f"A+B={tmp_path / 'a.txt'}+{tmp_path / 'b.txt'}"
    assert main(["--lexicon", spec, "--reference", f"R={tmp_path / 'ref.txt'}"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "| A+B | 4 | R (5) | 80.00% | 0 | 0: none |"
    assert main(["--lexicon", f"X={tmp_path / 'missing.txt'}", "--reference", f"R={tmp_path / 'ref.txt'}"]) == 1
    assert "cannot read word list" in capsys.readouterr().err
