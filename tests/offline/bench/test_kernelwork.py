"""``python -m offline.bench.kernelwork``: the kernel's playouts over benchmark positions, with their values."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dictionaries.build import build_lexicon
from engine import native
from engine.equity.strategy import Equity
from engine.lexicon.dawg import Dawg
from engine.lookahead.simulation import SimSettings, Simulator
from engine.rules.ruleset import Ruleset
from offline.bench.kernelwork import main
from offline.bench.movegen import read_positions, situation_of

EN = Ruleset.for_id(5)
WORDS = ["AT", "TA", "CAT", "ACT", "TAX", "AX", "XI", "TI", "IT", "CATS", "SAT", "SIT", "ITS", "TAXI", "TAXIS"]
needs_native = pytest.mark.skipif(native.NATIVE is None, reason=f"the C extension is not in use: {native.describe()}")


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    rows = ["." * 15] * 15
    rows[7] = ".......CAT....."
    text = "= mid AXIS?T\n" + "\n".join(rows) + "\n= late TTAXI\n" + "\n".join(rows) + "\n"
    positions = tmp_path / "positions.txt"
    positions.write_text(text, encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return positions, words


@needs_native
def test_prints_the_playouts_and_writes_the_reference_values(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    positions, words = files
    values = tmp_path / "values.txt"
    argv = ["--positions", str(positions), "--lexicon", str(words), "--candidates", "3", "--draws", "2"]
    assert main([*argv, "--values", str(values)]) == 0
    out = capsys.readouterr().out
    assert out == "# kernel work\tpositions=2\tcandidates=3\tdraws=2\tplayouts=12\n"
    dawg = tmp_path / "words.dawg"
    build_lexicon(EN, words, dawg)
    lexicon = Dawg.load(dawg, EN.alphabet)
    for line, pos in zip(values.read_text().splitlines(), read_positions(positions, EN.alphabet), strict=True):
        name, count, played = line.split("\t")
        situation = situation_of(pos, lexicon, EN)
        equity = Equity()
        moves = equity.best(situation, 3)
        simulator = Simulator(equity, SimSettings(), rng=random.Random(situation.bag_count))
        model = equity.leave_model(EN)
        expected = []
        for theirs, bag, _ in [simulator._deal(situation) for _ in range(2)]:
            expected += [simulator._play_out(situation, move, theirs, list(bag), model) for move in moves]
        assert (name, int(count)) == (pos.name, 3)
        assert [float(value) for value in played.split()] == expected


@pytest.mark.parametrize("option", [["--draws", "0"], ["--candidates", "0"], ["--limit", "0"]])
def test_counts_below_one_are_usage_errors(
    files: tuple[Path, Path], option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    positions, words = files
    with pytest.raises(SystemExit) as exited:
        main(["--positions", str(positions), "--lexicon", str(words), *option])
    assert exited.value.code == 2 and "must be at least 1" in capsys.readouterr().err


def test_a_missing_positions_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.txt"
    with pytest.raises(SystemExit) as exited:
        main(["--positions", str(missing)])
    assert exited.value.code == 2 and f"{missing} does not exist" in capsys.readouterr().err
