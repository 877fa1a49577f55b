"""The fault soak: its parts, a small run to the end, and its children gone on every way out."""

from __future__ import annotations

import fcntl
import signal
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.settings.config import parse_config
from sandbox.faults import KINDS
from sandbox.lab.soak import (
    FAULT_RATES,
    Child,
    Options,
    Soak,
    SoakError,
    Tally,
    bot_config,
    child_env,
    main,
    passed,
    summary,
)
from sandbox.state import Submission
from sandbox.store import SubmissionReport, submission_report


def port_is_free(port: int) -> bool:
    """Nothing listens on 127.0.0.1:port (connections left in TIME_WAIT do not count)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def lock_is_free(path: Path) -> bool:
    """No bot holds its run lock (it is released when the process dies)."""
    with path.open("a") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        return True


def test_every_fault_kind_is_on_and_the_bot_config_is_valid(tmp_path: Path) -> None:
    assert set(FAULT_RATES) == set(KINDS) and all(0 < rate <= 0.05 for rate in FAULT_RATES.values())
    text = bot_config("http://127.0.0.1:4321/wf/", tmp_path / 'odd "name".sqlite3')
    config = parse_config(tomllib.loads(text))
    assert config.api.base_url == "http://127.0.0.1:4321/wf/"
    assert config.store.path == tmp_path / 'odd "name".sqlite3'
    assert config.schedule.poll_seconds < 1 and config.api.timeout_seconds <= 1


def test_child_environment_has_no_proxy_and_only_the_soak_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("http_proxy", "http://proxy.example:3128")
    monkeypatch.setenv("WORDFEUD_PASSWORD_HASH", "the user's own")
    monkeypatch.setenv("WORDFEUD_BOT_CONFIG", "/home/someone/bot.toml")
    env = child_env(tmp_path, {"WORDFEUD_EMAIL": "player@sandbox.local", "WORDFEUD_PASSWORD": "pw"})
    assert not {"HTTPS_PROXY", "http_proxy", "WORDFEUD_PASSWORD_HASH", "WORDFEUD_BOT_CONFIG"} & set(env)
    assert env["NO_PROXY"] == "127.0.0.1,localhost" and env["WORDFEUD_BOT_DATA"] == str(tmp_path / "data")
    assert env["WORDFEUD_EMAIL"] == "player@sandbox.local" and env["WORDFEUD_PASSWORD"] == "pw"


def test_a_traceback_in_a_child_becomes_one_line(tmp_path: Path) -> None:
    child = Child("bot", tmp_path / "bot.log")
    code = (
        "import logging, sys\n"
        "logging.basicConfig(stream=sys.stdout)\n"
        "try:\n    raise KeyError('lost')\n"
        "except KeyError:\n    logging.getLogger('bot.play.daemon').exception('the pass failed')\n"
        "print('after')\n"
    )
    child.start([sys.executable, "-c", code], {})
    assert child.wait(30) == 0
    assert child.ended.wait(30)
    assert child.tracebacks == ["bot run 1: KeyError: 'lost' (logged after: ERROR:bot.play.daemon:the pass failed)"]
    assert "after" in (tmp_path / "bot.log").read_text(encoding="utf-8")


def test_the_verdict() -> None:
    clean = SubmissionReport(Path("x.db"), 2, [], 30, {"success": 30}, [])
    assert passed(clean, Tally())
    duplicate = Submission(1, 2, 3, "move", "{}", "not_your_turn")
    assert not passed(SubmissionReport(Path("x.db"), 2, [], 31, {"success": 30}, [duplicate]), Tally())
    assert not passed(SubmissionReport(Path("x.db"), 2, [7], 30, {"success": 30}, []), Tally())
    assert not passed(clean, Tally(problems=["the bot exited on its own with status 1"]))
    lines = summary(clean, Tally(bot_starts=3, sigkills=1, sigterms=1, sandbox_kills=1), 12.34)
    assert lines[:3] == ["games finished: 2 of 2", "bot submissions: 30 (success 30)", "duplicate submissions: 0"]
    assert lines[3].startswith("kills: 1 SIGKILL and 1 SIGTERM of the bot mid-run") and lines[4] == "time: 12.3 s"


def test_a_sandbox_that_cannot_start_is_reported_and_nothing_is_left(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with (
            Soak(Options(games=1, port=port), tmp_path, lambda text: None) as soak,
            pytest.raises(SoakError, match="the sandbox did not start") as error,
        ):
            soak.start_sandbox()
        assert "cannot listen on 127.0.0.1" in str(error.value)
        assert soak.sandbox.process is not None and soak.sandbox.process.poll() is not None


def test_children_die_when_the_soak_fails(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), Soak(Options(games=1), tmp_path, lambda text: None) as soak:
        soak.start_sandbox()
        soak.start_bot()
        raise RuntimeError("the soak itself broke")
    assert soak.bot.process is not None and soak.bot.process.poll() is not None
    assert soak.sandbox.process is not None and soak.sandbox.process.poll() is not None
    assert port_is_free(soak.port)


def test_children_die_when_the_soak_is_terminated(tmp_path: Path) -> None:
    work = tmp_path / "soak"
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox.lab.soak", "--games", "1", "--keep", str(work), "--time-limit", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert "sandbox serving http://127.0.0.1:" in first, first
        port = int(first.split("http://127.0.0.1:")[1].split("/")[0])
        assert "bot started" in process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 128 + signal.SIGTERM
    finally:
        process.kill()
        process.wait()
    assert port_is_free(port)
    assert lock_is_free(work / "bot-state.sqlite3.lock")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--sigterm-share", "2"], "--sigterm-share"),
        (["--games", "0"], "--games"),
        (["--kill-gap", "0.1"], "more than"),
    ],
)
def test_bad_options_are_refused(options: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(options)
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_keep_must_be_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sandbox.db").write_bytes(b"")
    with pytest.raises(SystemExit):
        main(["--keep", str(tmp_path)])
    assert "is not empty" in capsys.readouterr().err


def test_a_small_soak_runs_to_the_end(tmp_path: Path) -> None:
    """Two games, two bot stops and a sandbox kill: every game ends, no duplicate, the bot exits 0 on
    every SIGTERM and writes no traceback: the soak passes."""
    work = tmp_path / "soak"
    argv = ["--games", "2", "--kills", "2", "--sandbox-kills", "1", "--seed", "3", "--kill-gap", "2"]
    result = subprocess.run(
        [sys.executable, "-m", "sandbox.lab.soak", *argv, "--time-limit", "150", "--keep", str(work)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "soak PASSED" in out and "\nproblem: " not in out, out
    assert "games finished: 2 of 2" in out and "duplicate submissions: 0" in out, out
    assert "SIGKILL sandbox run 1" in out and "sandbox restarted from its file" in out, out
    assert "1 SIGKILL of the sandbox" in out, out
    report = submission_report(work / "sandbox.db")
    assert not report.running and not report.duplicates and f"bot submissions: {report.submissions}" in out
    assert port_is_free(int(out.split("http://127.0.0.1:")[1].split("/")[0]))


def test_a_sandbox_bug_line_is_a_problem(tmp_path: Path) -> None:
    soak = Soak(Options(games=1), tmp_path, lambda text: None)
    soak._sandbox_line("sandbox bug answering POST /wf/user/status/: KeyError: 'x'")
    soak._note_tracebacks()
    assert soak.tally.problems == ["sandbox bug answering POST /wf/user/status/: KeyError: 'x'"]
