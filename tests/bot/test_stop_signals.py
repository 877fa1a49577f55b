"""Ctrl-C (SIGINT) and SIGTERM, sent to every command as a subprocess: one line on stderr and no
traceback, the work in progress finished (``once``) or undone (no partial file), exit 130 or 143;
the servers (``run``, ``sandbox``) end normally, with exit 0.

No sleeps: each test waits for a line the process prints when it is at the point under test (the
demo's first line, the sandbox's address, a move request arriving at the test's sandbox), or runs
the command through ``tests.stop_driver``, which replaces one function by work that never ends and
prints ``READY`` when it starts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sandbox.api as sandbox_api
import sandbox.server as sandbox_server
from bot.store.store import DecisionStatus, Store
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox
from tests.bot.recorded import Recorded, record_demo

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120  # seconds: generous, never reached when the code is right
BOT_ENV = {**os.environ, "WORDFEUD_EMAIL": BOT_EMAIL, "WORDFEUD_PASSWORD": BOT_PASSWORD}
STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
BOTH = pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
#: SIGHUP (a closed terminal) stops every command but ``run`` as SIGTERM does: one line, exit 128 + 1.
ALL = pytest.mark.parametrize(
    "sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"]
)


_started: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def _no_process_left() -> Iterator[None]:
    """A test that failed half-way leaves no command running (its workers are its own to end)."""
    yield
    while _started:
        process = _started.pop()
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=WAIT)


class Running:
    """A command started as a subprocess, read line by line until a line shows it is ready."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env or dict(os.environ),
            cwd=cwd,
        )
        _started.append(self.process)
        self.seen: dict[str, list[str]] = {"out": [], "err": []}

    def wait_for(self, text: str, stream: str = "out") -> str:
        """The first line (from now on) of ``stream`` that holds ``text``; fails if the process ends first."""
        pipe = self.process.stdout if stream == "out" else self.process.stderr
        assert pipe is not None
        for line in pipe:
            self.seen[stream].append(line)
            if text in line:
                return line
        pytest.fail(f"the process ended without printing {text!r}: {self.finish()}")

    def stop(self, sig: signal.Signals) -> tuple[int, str, str]:
        self.process.send_signal(sig)
        return self.finish()

    def finish(self) -> tuple[int, str, str]:
        """The exit status and everything printed on stdout and stderr."""
        out, err = self.process.communicate(timeout=WAIT)
        return self.process.returncode, "".join(self.seen["out"]) + out, "".join(self.seen["err"]) + err


def cli(*argv: str) -> list[str]:
    return ["-m", "cli.main", *argv]


def driven(target: str, *argv: str) -> list[str]:
    return ["-m", "tests.stop_driver", target, *argv]


def assert_stopped(result: tuple[int, str, str], sig: signal.Signals, line: str) -> None:
    status, out, err = result
    assert "Traceback" not in out + err, err
    assert status == STATUS[sig], err
    assert err.endswith(line + "\n"), err


# -- the bot's service commands ---------------------------------------------------------------


@ALL
def test_demo_stops_with_one_line(sig: signal.Signals) -> None:
    running = Running(cli("demo", "--strategy", "equity"))
    running.wait_for("Sandbox at http://127.0.0.1:")
    status, out, err = running.stop(sig)
    assert_stopped((status, out, err), sig, f"wordfeud-bot demo: stopped by {sig.name}")
    assert err == f"wordfeud-bot demo: stopped by {sig.name}\n"  # that one line, nothing else
    assert "Game over" not in out


@pytest.fixture
def held_move(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The test's sandbox holds the first move it is sent until ``release`` is set; ``arrived`` says it came."""
    arrived, release = threading.Event(), threading.Event()
    real = sandbox_api.handle  # what the server calls (as sandbox.server.handle) for every request

    def holding(state: Any, method: str, path: str, body: bytes, session: str | None) -> Any:
        if path.rstrip("/").endswith("/move") and not arrived.is_set():
            arrived.set()
            release.wait(WAIT)
        return real(state, method, path, body, session)

    monkeypatch.setattr(sandbox_server, "handle", holding)
    yield arrived, release
    release.set()


@ALL
def test_once_finishes_the_game_in_progress_then_prints_its_summary(
    sig: signal.Signals, sandbox: Sandbox, tmp_path: Path, held_move: tuple[threading.Event, threading.Event]
) -> None:
    arrived, release = held_move
    games = [sandbox.game(5) for _ in range(3)]
    state = tmp_path / "s.db"
    config = sandbox.config_file(tmp_path / "bot.toml")
    running = Running(cli("once", "--config", str(config), "--state", str(state)), env=BOT_ENV)
    assert arrived.wait(WAIT), "the bot sent no move"
    running.process.send_signal(sig)
    running.wait_for(f"{sig.name} received: finishing the game in progress, then stopping", "err")
    release.set()  # the move held at the server is answered: the bot finishes that game, and no other
    status, out, err = running.finish()
    assert_stopped((status, out, err), sig, f"wordfeud-bot once: stopped by {sig.name} after the game in progress")
    assert out.startswith("pass done: 1 move submitted, 0 invites accepted"), out
    assert "the remaining games wait for the next run" in err
    moved = [g for g in games if g.game.history and g.game.history[0].player == g.players.index(sandbox.me.id)]
    assert len(moved) == 1  # the game in progress was played; the two others wait
    store = Store(state)
    try:
        assert store.decisions(status=DecisionStatus.PENDING) == []  # the move's outcome is known and recorded
        assert [d.status for d in store.decisions()] == [DecisionStatus.APPLIED]
    finally:
        store.close()


def test_run_stops_on_sigint_after_its_pass_with_exit_0(sandbox: Sandbox, tmp_path: Path) -> None:
    """The daemon's stop is its normal end (exit 0: systemd's Restart=on-failure must not restart it);
    SIGTERM is tested in test_service.py."""
    sandbox.game(5)
    config = sandbox.config_file(tmp_path / "bot.toml", "[schedule]\npoll_seconds = 0.2\njitter_seconds = 0\n")
    running = Running(cli("run", "--config", str(config), "--state", str(tmp_path / "s.db")), env=BOT_ENV)
    running.wait_for("played", "err")
    status, _, err = running.stop(signal.SIGINT)
    assert status == 0 and "Traceback" not in err, err
    assert "SIGINT received: finishing the move in progress, then stopping" in err and "stopped after" in err


def test_run_rereads_its_configuration_on_sighup_and_keeps_it_when_the_new_one_is_invalid(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    """SIGHUP is a daemon's request to re-read its configuration: one line says so and the next pass
    uses it (here: random opponents asked for); an invalid file is one line naming the key, and the
    configuration in use goes on. SIGHUP never stops ``run``."""
    sandbox.game(5)
    schedule = "[schedule]\npoll_seconds = 0.2\njitter_seconds = 0\n"
    config = sandbox.config_file(tmp_path / "bot.toml", schedule)
    running = Running(cli("run", "--config", str(config), "--state", str(tmp_path / "s.db")), env=BOT_ENV)
    running.wait_for("played", "err")
    assert not any("random opponent" in line for line in running.seen["err"])
    sandbox.config_file(config, schedule + "[random_games]\nkeep = 3\n")
    running.process.send_signal(signal.SIGHUP)
    running.wait_for(f"SIGHUP received: configuration re-read from {config}; the next pass uses it", "err")
    running.wait_for("asked for a random opponent (ruleset 5", "err")  # the new configuration plays
    sandbox.config_file(config, schedule + "[invites]\nmax_games = 0\n")
    running.process.send_signal(signal.SIGHUP)
    line = running.wait_for("the configuration in use stays", "err")
    assert "invites.max_games" in line, line
    running.wait_for("played", "err")  # the daemon goes on
    status, _, err = running.stop(signal.SIGTERM)
    assert status == 0 and "Traceback" not in err, err
    assert "SIGTERM received: finishing the move in progress, then stopping" in err and "stopped after" in err


@BOTH
def test_run_stopped_before_it_polls_exits_0_with_one_line(sig: signal.Signals, tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('[api]\nbase_url = "http://127.0.0.1:9/wf/"\n', encoding="utf-8")
    argv = ["run", "--config", str(config), "--state", str(tmp_path / "s.db")]
    running = Running(driven("cli.main:build", *argv), env=BOT_ENV)  # stopped while it wires the bot
    running.wait_for("READY")
    status, out, err = running.stop(sig)
    assert status == 0 and "Traceback" not in out + err, err
    assert err.endswith(f"wordfeud-bot run: stopped by {sig.name}\n"), err


@BOTH
@pytest.mark.parametrize("command", [["-m", "sandbox"], cli("sandbox")], ids=["python-m-sandbox", "wordfeud-bot"])
def test_the_sandbox_stops_with_one_line_and_exit_0(sig: signal.Signals, command: list[str], tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    running = Running([*command, "--port", "0", "--db", str(db)])
    running.wait_for("Ctrl-C stops the server")
    status, out, err = running.stop(sig)
    assert status == 0 and err == "", err
    assert out.endswith(f"sandbox stopped ({sig.name})\n")
    again = Running([*command, "--port", "0", "--db", str(db)])  # the file is whole: a restart loads it
    assert "state loaded from" in again.wait_for("sandbox")
    assert again.stop(sig)[0] == 0


@ALL
def test_a_stop_while_the_command_line_is_imported_is_one_line(sig: signal.Signals) -> None:
    """The first second or more of every command (its imports) is covered too: the entry point takes
    the signals before it imports anything heavy."""
    running = Running(driven("import:bot.play.daemon", "selfplay"))  # cli.main imports bot.play.daemon
    running.wait_for("READY")
    status, out, err = running.stop(sig)
    assert (status, err) == (STATUS[sig], f"wordfeud-bot: stopped by {sig.name}\n"), err
    assert out.startswith("READY ") and out.count("\n") == 1


@BOTH
def test_run_stopped_while_it_is_imported_exits_0(sig: signal.Signals, tmp_path: Path) -> None:
    running = Running(driven("import:bot.play.daemon", "run"))
    running.wait_for("READY")
    assert running.stop(sig) == (0, running.seen["out"][0], f"wordfeud-bot: stopped by {sig.name}\n")


# -- the commands that read the state file ----------------------------------------------------


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_demo(tmp_path_factory.mktemp("recorded"))


def test_replay_html_leaves_no_partial_file(recorded: Recorded, tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    argv = ["replay", "--state", str(recorded.state), "--strategy", "equity", str(recorded.game_id), "--html"]
    running = Running(driven("os:replace", *argv, str(page)))
    running.wait_for("READY")
    assert (tmp_path / "game.html.partial").is_file()  # written, about to be renamed into place
    assert_stopped(running.stop(signal.SIGINT), signal.SIGINT, "wordfeud-bot replay: stopped by SIGINT")
    assert list(tmp_path.iterdir()) == []  # neither the page nor its partial file


@pytest.mark.parametrize(
    ("target", "argv"),
    [
        ("bot.views.commands:hint", ["hint", "--strategy", "equity", "--rack", "AEINST?", "--board", "{empty board}"]),
        ("bot.views.commands:record_lines", ["stats"]),
        ("cli.main:replay", ["replay", "--strategy", "equity", "{game}"]),
        ("cli.learned:rescan", ["learned", "--rescan"]),
    ],
    ids=["hint", "stats", "replay", "learned"],
)
@BOTH
def test_state_commands_stop_with_one_line(
    target: str, argv: list[str], sig: signal.Signals, recorded: Recorded, tmp_path: Path
) -> None:
    state = tmp_path / "copy.sqlite3"
    state.write_bytes(recorded.state.read_bytes())
    state.chmod(0o600)
    board = tmp_path / "empty-board.txt"
    board.write_text(("." * 15 + "\n") * 15, encoding="utf-8")
    words = [a.replace("{game}", str(recorded.game_id)).replace("{empty board}", str(board)) for a in argv]
    running = Running(driven(target, *words, "--state", str(state)))
    running.wait_for("READY")
    assert_stopped(running.stop(sig), sig, f"wordfeud-bot {argv[0]}: stopped by {sig.name}")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("copy.sqlite3")) == ["empty-board.txt"]


def test_learned_export_leaves_no_partial_file(recorded: Recorded, tmp_path: Path) -> None:
    export = tmp_path / "words.txt"
    argv = ["learned", "--state", str(recorded.state), "--ruleset", "5", "--all", "--export", str(export)]
    running = Running(driven("os:replace", *argv))
    running.wait_for("READY")
    assert_stopped(running.stop(signal.SIGTERM), signal.SIGTERM, "wordfeud-bot learned: stopped by SIGTERM")
    assert list(tmp_path.iterdir()) == []


# -- the offline tools and the lexicons --------------------------------------------------------


@BOTH
def test_selfplay_stops_with_one_line(sig: signal.Signals) -> None:
    running = Running(driven("offline.selfplay:generate", "selfplay", "--turns", "3"))
    running.wait_for("READY")
    status, out, err = running.stop(sig)
    assert_stopped((status, out, err), sig, f"wordfeud-bot selfplay: stopped by {sig.name}")
    assert out.startswith("Demo game: ")


@BOTH
def test_dict_build_leaves_no_partial_lexicon(sig: signal.Signals, tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("cat\ncats\ndog\nquiz\n", encoding="utf-8")
    target = tmp_path / "out" / "en.dawg"
    running = Running(driven("os:replace", "dict", "build", "en", str(words), "-o", str(target)))
    running.wait_for("READY")
    assert (target.parent / "en.dawg.partial").is_file()
    assert_stopped(running.stop(sig), sig, f"wordfeud-bot dict build: stopped by {sig.name}")
    assert list(target.parent.iterdir()) == []


def ended(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize(
    ("target", "argv", "unit"),
    [
        ("offline.arena.match:_play", ["arena", "greedy", "greedy", "--pairs", "8"], "pairs"),
        ("offline.learning.learn:_play_chunk", ["learn-leaves", "--games", "40", "--player", "greedy"], "games"),
    ],
    ids=["arena", "learn-leaves"],
)
@BOTH
def test_offline_runs_stop_their_workers_and_say_what_is_kept(
    target: str, argv: list[str], unit: str, sig: signal.Signals, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    running = Running(driven(target, *argv, "--workers", "2", "--work", str(work)))
    workers = {int(running.wait_for("READY").split()[1]) for _ in range(2)}  # both workers are busy
    assert running.process.pid not in workers
    kept = f"finished chunks are kept in {work}; run the same command to go on"
    line = f"wordfeud-bot {argv[0]}: stopped by {sig.name}; {kept}"
    assert_stopped(running.stop(sig), sig, line)
    assert all(ended(pid) for pid in workers)  # ended, not left playing their chunks
    assert not list(work.glob("*.partial"))
