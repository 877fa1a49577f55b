"""The rough edges a new user met, each held fixed: unknown rulesets and ports are
usage errors (exit 2, one line, no traceback) in every command; help text and counts read right; the
log says what happened in words; progress is a tqdm bar on a terminal and plain lines elsewhere;
selfplay takes a ruleset and a strategy; the sandbox prints export lines; config typos get a
suggestion; ``python -m cli`` works."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.play.turn import Outcome, outcome_text
from bot.settings.config import parse_config
from cli.main import main
from dictionaries.build import progress_bar
from engine.players.registry import SIM_OPTIONS
from offline.runs.workers import progress_printer
from tests.bot.conftest import Sandbox
from tests.sandbox.helpers import sandbox_command


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "arguments",
    [
        ["demo", "--ruleset", "99"],
        ["sandbox", "--ruleset", "99"],
        ["arena", "greedy", "greedy", "--ruleset", "99"],
        ["selfplay", "--ruleset", "99"],
        ["learn-leaves", "--work", "w", "--ruleset", "99"],
        ["hint", "--board", "-", "--rack", "A", "--ruleset", "99"],
    ],
)
def test_an_unknown_ruleset_is_a_usage_error_everywhere(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --ruleset: unknown ruleset id 99; known ids are 0..12" in err and "Traceback" not in err


def test_a_port_out_of_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["sandbox", "--port", "70000"])
    assert stopped.value.code == 2
    assert "argument --port: expected a port from 0 to 65535, got 70000" in capsys.readouterr().err


def test_help_and_errors_read_right(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    out = capsys.readouterr().out
    assert "95% confidence" in out and "%%" not in out
    # every option sim:OPTIONS takes is named there (the parser's own table)
    assert f"{', '.join(SIM_OPTIONS)};" in " ".join(out.split())
    assert main(["dict", "build", "xx", "list.txt"]) == 2
    assert capsys.readouterr().err.startswith("wordfeud-bot dict build: unknown ruleset 'xx'")


def test_outcomes_are_words() -> None:
    assert outcome_text(Outcome.UNKNOWN) == "sent, outcome not known yet:"
    assert outcome_text(Outcome.DRY) == "would play"


def test_a_dry_run_logs_one_plain_line(sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    game = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db", play={"dry_run": True})
    with caplog.at_level(logging.INFO, logger="bot.play.turn"):
        wiring.bot.turns.play(game.id)
    (line,) = [r.getMessage() for r in caplog.records if "for" in r.getMessage() and "points" in r.getMessage()]
    assert ": would play " in line and line.endswith("points (dry run: not submitted)"), line
    wiring.store.close()


def test_plain_progress_lines_come_once_a_minute_with_an_estimate_from_this_runs_own_pace() -> None:
    stream = io.StringIO()
    now = [100.0]
    show = progress_printer("games", stream, clock=lambda: now[0])
    # a resumed run: 5,000 of 20,000 games were played before; then 100 games a second
    for second in range(0, 151):
        now[0] = 100.0 + second
        show(5000 + 100 * second, 20000)
    lines = stream.getvalue().splitlines()
    assert lines == [
        "11000/20000 games, 60 s, about 90 s to go",
        "17000/20000 games, 120 s, about 30 s to go",
        "20000/20000 games, 150 s",
    ]


def test_progress_is_a_bar_on_a_terminal_and_plain_lines_elsewhere() -> None:
    for stream in (io.StringIO(), Terminal()):
        show = progress_printer("pairs", stream)
        for done in range(1, 5):
            show(done, 4)
        text = stream.getvalue()
        if stream.isatty():
            assert "\r" in text and "4/4" in text and "pairs" in text and "100%" in text
        else:
            assert "\r" not in text and text.startswith("4/4 pairs, ") and text.count("\n") == 1
    for stream in (io.StringIO(), Terminal()):
        phases = progress_bar(stream)
        for phase in ("reading", "building"):
            for done in range(0, 11, 5):
                phases(phase, done, 10)
        text = stream.getvalue()
        if stream.isatty():
            assert "reading" in text and "building" in text and "100%" in text
        else:
            assert text == "reading: 10 done\nbuilding: 10 done\n"


def test_selfplay_takes_a_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--turns", "2", "--top", "2", "--strategy", "equity"]) == 0
    assert "<- played" in capsys.readouterr().out
    assert main(["selfplay", "--strategy", "genius"]) == 2
    assert "unknown strategy 'genius'" in capsys.readouterr().err


def test_the_sandbox_prints_export_lines() -> None:
    with sandbox_command() as (lines, _, _):
        assert "    export WORDFEUD_EMAIL=player@sandbox.local\n" in lines
        assert "    export WORDFEUD_PASSWORD=player-password\n" in lines


def test_a_typo_in_the_config_gets_a_suggestion() -> None:
    with pytest.raises(ConfigError, match=r"schedule.pol_seconds: unknown key; did you mean 'poll_seconds'\?"):
        parse_config({"schedule": {"pol_seconds": 3}})
    with pytest.raises(ConfigError, match=r"stauts: unknown key; did you mean 'status'\?"):
        parse_config({"stauts": {}})
    with pytest.raises(ConfigError, match=r"play.zzz: unknown key \(secrets"):
        parse_config({"play": {"zzz": 1}})


def test_python_dash_m_bot_is_the_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cli", "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0 and result.stdout.startswith("wordfeud-bot "), result.stderr


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x00\xff\xfe\x80junk", "is not UTF-8 text, so not a leave table (one is JSON)"),
        (b"hello\n", "is not JSON, so not a leave table (Expecting value: line 1 column 1 (char 0))"),
    ],
    ids=["binary", "text"],
)
def test_arena_names_a_leave_table_that_is_not_one(
    content: bytes, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "leaves.json"
    table.write_bytes(content)
    assert main(["arena", f"equity:{table}", "greedy", "--pairs", "1", "--workers", "1"]) == 1
    assert capsys.readouterr().err == f"wordfeud-bot arena: leave table {table} {reason}\n"


@pytest.mark.parametrize("under", [False, True], ids=["a-file", "under-a-file"])
def test_learn_leaves_work_that_is_not_a_directory_is_named(
    under: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("hello\n", encoding="utf-8")
    work = file / "work" if under else file
    assert main(["learn-leaves", "--work", str(work), "--games", "2", "--workers", "1"]) == 1
    why = f" ({file} is a file)" if under else ""
    assert capsys.readouterr().err == (
        f"wordfeud-bot learn-leaves: --work {work} is not a directory{why}; give a directory for the run's files\n"
    )


def test_a_config_file_with_a_byte_order_mark_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bot.toml"
    config.write_bytes("\ufeff[play]\nstrategy = \"greedy\"\n".encode())  # as Notepad saves UTF-8
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", "bot@example.org")
    monkeypatch.setenv("WORDFEUD_PASSWORD", "pw")
    assert main(["check-config", "--config", str(config), "--state", str(tmp_path / "state.db")]) == 0
    captured = capsys.readouterr()
    assert "strategy: greedy," in captured.out and captured.err == "", captured.err


def test_a_dictionaries_directory_that_does_not_exist_is_named_at_check_config_and_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "lexicnos"
    config = tmp_path / "bot.toml"
    config.write_text(f'[dictionaries]\ndirectory = "{missing}"\n', encoding="utf-8")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", "bot@example.org")
    monkeypatch.setenv("WORDFEUD_PASSWORD", "pw")
    state = tmp_path / "state.db"
    assert main(["check-config", "--config", str(config), "--state", str(state)]) == 2
    message = f"dictionaries.directory {missing}: no such directory"
    assert capsys.readouterr().err == f"wordfeud-bot check-config: {message}\n"
    result = subprocess.run(
        [sys.executable, "-m", "cli", "run", "--config", str(config), "--state", str(state)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2 and result.stderr.splitlines()[-1] == f"wordfeud-bot run: {message}", result.stderr
    assert "Traceback" not in result.stderr and not state.exists()
