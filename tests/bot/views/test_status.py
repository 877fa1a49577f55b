"""The status page: what it shows of a bot playing the sandbox, /healthz turning 503 when polling stops,
no secret in any answer, the page living exactly as long as the daemon, and the listen setting."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bot.api.credentials import Credentials
from bot.errors import ConfigError
from bot.logs import Redactor
from bot.play.daemon import Daemon
from bot.play.health import Health
from bot.play.service import PassReport
from bot.settings.config import parse_config, parse_listen
from bot.views import replay_html as replay_page
from bot.views.status import StatusServer, StatusSettings
from cli.main import EXIT_CONFIG, main
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox


class Clock:
    """Wall time the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def test_the_page_shows_games_boards_decisions_record_and_health(sandbox: Sandbox, tmp_path: Path) -> None:
    game = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    clock = Clock()
    health = Health(interval=10, healthy_polls=3, clock=clock)
    redactor = Redactor()
    credentials = Credentials.from_password("email", BOT_EMAIL, BOT_PASSWORD)
    for secret in credentials.secrets():
        redactor.add(secret)
    with StatusServer(StatusSettings("127.0.0.1", 0, 0.5), tmp_path / "state.db", health, redactor) as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert get(server.url + "healthz")[0] == 200  # starting: within three intervals of the start
        health.passed(wiring.bot.run_pass())
        assert wiring.client.session_id
        redactor.add(wiring.client.session_id)
        code, page = get(server.url)
        assert code == 200
        assert f'data-game="{game.id}"' in page and 'class="wf-board"' in page and "Health: healthy" in page
        code, text = get(server.url + "status.json")
        facts = json.loads(text)
        (shown,) = facts["games"]
        # the bot's move is on the board; the house's answer shows once the bot has read the game again
        assert shown["id"] == game.id and shown["moves"] == 1 and not shown["bot_to_move"]
        assert facts["decisions"][0]["game"] == game.id and facts["decisions"][0]["status"] == "applied"
        assert facts["health"]["passes"] == 1 and facts["health"]["last_success"] == clock.now
        for path in ("", "fragment", "status.json", "healthz"):
            body = get(server.url + path)[1]
            for secret in (BOT_PASSWORD, credentials.password_hash, wiring.client.session_id, BOT_EMAIL):
                assert secret not in body, (path, secret)
        clock.now += 31  # three intervals and a second without a successful poll
        code, text = get(server.url + "healthz")
        assert code == 503 and json.loads(text)["status"] == "unhealthy"
        health.passed(PassReport(errors=["user/status/: connection refused"]))  # a pass that could not read
        code, text = get(server.url + "healthz")
        assert code == 503 and json.loads(text)["last_error"] == "user/status/: connection refused"
        health.passed(wiring.bot.run_pass())
        assert get(server.url + "healthz")[0] == 200
        assert json.loads(get(server.url + "status.json")[1])["games"][0]["moves"] == 3
        assert get(server.url + "nothing")[0] == 404
        assert "<h2>Words learned from accepted plays</h2><p>None yet.</p>" in get(server.url + "fragment")[1]
        wiring.store.add_accepted(5, "zyzzyva", game.id, "opponent", new=True)  # learned: the lexicon lacked it
        wiring.store.add_accepted(5, "QI", game.id, "own", new=False)  # proof only: the lexicon had it
        facts = json.loads(get(server.url + "status.json")[1])
        assert facts["learned"] == {"5": ["ZYZZYVA"]} and facts["learned_counts"] == {"5": 1}
        assert "ruleset 5 (1 in all, newest first): ZYZZYVA" in get(server.url + "fragment")[1]
    wiring.store.close()


def test_the_page_starts_and_stops_with_the_daemon(sandbox: Sandbox, tmp_path: Path) -> None:
    sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    health = Health(interval=0.01)
    seen: list[tuple[int, int]] = []
    server = StatusServer(StatusSettings("127.0.0.1", 0, 1), tmp_path / "state.db", health)

    def until(report: PassReport) -> bool:
        code, text = get(server.url + "status.json")  # asked while the daemon runs, between passes
        seen.append((code, json.loads(text)["health"]["passes"]))
        return len(seen) == 2

    daemon = Daemon(wiring.bot, poll_seconds=0.01, until=until, health=health)
    with server:
        daemon.run(handle_signals=False)
    wiring.store.close()
    assert seen == [(200, 1), (200, 2)]
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(server.url + "healthz", timeout=5)  # gone with the daemon


def test_listen_is_host_and_port_and_a_busy_port_is_a_config_error(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert parse_listen("127.0.0.1:8765") == ("127.0.0.1", 8765)
    assert parse_listen("[::1]:0") == ("::1", 0)
    for bad, problem in (("8765", "expected HOST:PORT"), ("localhost:http", "not a number"), ("h:70000", "0..65535")):
        with pytest.raises(ValueError, match=problem):
            parse_listen(bad)
    with pytest.raises(ConfigError, match=r"status.listen: expected HOST:PORT"):
        parse_config({"status": {"listen": "8765"}})
    assert parse_config({}).status.listen is None  # no page unless asked for
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = sandbox.config_file(tmp_path / "bot.toml", f'[status]\nlisten = "127.0.0.1:{port}"\n')
        config.chmod(0o600)
        monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
        monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
        assert main(["run", "--config", str(config), "--state", str(tmp_path / "s.db")]) == EXIT_CONFIG
    assert f"wordfeud-bot run: status.listen 127.0.0.1:{port}: cannot listen" in capsys.readouterr().err


def test_finished_games_link_to_their_replay_and_gcg_which_the_page_serves(sandbox: Sandbox, tmp_path: Path) -> None:
    running, finished, random = sandbox.game(), sandbox.game(), sandbox.game(board_type="random")
    wiring = sandbox.wire(tmp_path / "state.db")
    health = Health(interval=30)
    health.passed(wiring.bot.run_pass())
    finished.game.resign(finished.players.index(sandbox.house.id))  # the house gives up the second game
    finished.updated = sandbox.state.clock()
    health.passed(wiring.bot.run_pass())
    with StatusServer(StatusSettings("127.0.0.1", 0, 60), tmp_path / "state.db", health) as server:
        code, page = get(server.url)
        assert code == 200
        assert f'<a href="games/{finished.id}/replay.html">replay</a>' in page
        assert f'<a href="games/{finished.id}/record.gcg" download="{finished.id}.gcg">GCG</a>' in page
        # the running game's heading: the ruleset by name, the board, the level
        assert f"Game {running.id} against house: ruleset 5 (English (international)), standard board" in page
        assert f"Game {random.id} against house: ruleset 5 (English (international)), random board" in page
        with urllib.request.urlopen(f"{server.url}games/{finished.id}/replay.html", timeout=10) as answer:
            replay = answer.read().decode("utf-8")
            policy = answer.headers["Content-Security-Policy"]
        assert replay.startswith("<!DOCTYPE html>") and f"Game {finished.id}: bot against house" in replay
        assert replay_page.SCRIPT_HASH in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
        assert "would play now" not in replay  # no lexicon here to say it
        code, gcg = get(f"{server.url}games/{finished.id}/record.gcg")
        assert code == 200 and "#player1 bot" in gcg and f"#id wordfeud {finished.id}" in gcg
        code, text = get(f"{server.url}games/99999/record.gcg")
        assert code == 404 and text.startswith("game 99999: no recorded positions of game 99999") and text[-1] == "\n"
    wiring.store.close()
