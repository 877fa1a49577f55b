"""The ``wordfeud-bot`` command line."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from cli.main import main
from engine import native

BOARD_ROW = re.compile(r"^[.A-Za-z]{15}$", re.MULTILINE)
SCORED_MOVE = re.compile(r"^\s+(\d+)\. ((?:\d{1,2}[A-O]|[A-O]\d{1,2}) \S+)\s+(\d+)", re.MULTILINE)


def test_selfplay_prints_boards_and_scored_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--turns", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("Turn ") == 2
    rows = BOARD_ROW.findall(out)
    assert len(rows) == 2 * 15  # one board per turn
    assert any(set(row) != {"."} for row in rows)  # tiles were placed
    moves = SCORED_MOVE.findall(out)
    assert moves, out
    assert all(int(score) > 0 for _, _, score in moves)
    assert [rank for rank, _, _ in moves[:5]] == ["1", "2", "3", "4", "5"]
    assert "moves generated in" in out and " ms" in out
    assert "Score: player 1" in out


def test_selfplay_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    def moves_of(seed: int) -> list[str]:
        assert main(["selfplay", "--turns", "3", "--seed", str(seed), "--top", "2"]) == 0
        return [notation for _, notation, _ in SCORED_MOVE.findall(capsys.readouterr().out)]

    first = moves_of(7)
    assert first == moves_of(7)
    assert len(first) == 6


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["demo", "--help"],
        ["selfplay", "--help"],
        ["run", "--help"],
        ["once", "--help"],
        ["replay", "--help"],
        ["check-config", "--help"],
        ["dict", "--help"],
        ["dict", "build", "--help"],
        ["dict", "list", "--help"],
        ["learned", "--help"],
        ["sandbox", "--help"],
    ],
)
def test_every_command_has_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    assert "usage: wordfeud-bot" in capsys.readouterr().out


def test_version_prints_the_package_version_and_the_generator(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    version, generator = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"wordfeud-bot \d+\.\d+\.\d+\S*", version)
    assert generator == native.describe()


def test_version_follows_the_generator_variable() -> None:
    """A new process, so that ``engine.native`` reads the variable at import as it does in use."""
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, native.VARIABLE: "python"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == f"move generator: pure Python ({native.VARIABLE}=python)"


@pytest.mark.parametrize(
    "argv", [[], ["selfplay", "--turns", "0"], ["selfplay", "--top", "x"], ["nosuch"], ["demo", "--ruleset", "x"]]
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "selfplay", "--turns", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert SCORED_MOVE.search(result.stdout)


def test_demo_plays_a_whole_game_against_the_house(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert native.describe() in out.splitlines()[1]  # the header says which move generator plays
    pictures = re.findall(r"^    A B C D E F G H I J K L M N O$", out, re.MULTILINE)
    moves = re.findall(r"^Move (\d+): (bot|house) ", out, re.MULTILINE)
    assert len(pictures) == len(moves) > 10  # a board after every move
    assert {who for _, who in moves} == {"bot", "house"}
    final = re.search(r"Game over after (\d+) moves: bot (-?\d+), house (-?\d+)", out)
    assert final is not None, out[-500:]
    assert int(final.group(1)) == int(moves[-1][0])


def test_arena_plays_mirrored_pairs_and_names_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "equity-hand", "--games", "2", "--workers", "1", "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert "greedy vs equity-hand: 2 games (1 mirrored pairs)" in captured.out
    assert re.search(r"win rate \d+\.\d% \(95% CI", captured.out) and "1/1 pairs" in captured.err
    assert main(["arena", "greedy", "genius", "--pairs", "1"]) == 1
    assert "unknown strategy 'genius'; known: equity, equity+endgame, equity-hand" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["arena", "greedy", "greedy", "--games", "3"])
    assert "expected an even number, got '3'" in capsys.readouterr().err
