"""The pages in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven
by Selenium). The status page of a bot playing the sandbox shows its game and updates after a move; the
replay page steps through a game with the keyboard. Screenshots of both are saved as artifacts
(``$WORDFEUD_BOT_ARTIFACTS``, default ``artifacts/`` in the repository). Skipped, saying why, where the
browser, its driver or Selenium is not installed (``.ci/run`` installs them when it runs as root)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.play.health import Health
from bot.records.history import record
from bot.store.store import Store
from bot.views.replay_html import replay_html
from bot.views.status import StatusServer, StatusSettings
from cli.main import main as cli
from dictionaries.registry import LexiconRegistry
from engine.players.registry import strategy_named
from tests.bot.conftest import Sandbox
from tests.bot.recorded import record_demo

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver: Any
try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - depends on the machine
    webdriver = None

if webdriver is None:
    pytestmark = pytest.mark.skip(reason="no Selenium: pip install -e '.[dev]' installs it")
elif CHROMIUM is None or DRIVER is None:
    pytestmark = pytest.mark.skip(
        reason="no headless browser: install Debian's chromium and chromium-driver (.ci/run does, as root)"
    )

WAIT_SECONDS = 30


def artifacts() -> Path:
    """Where screenshots go (made if missing)."""
    default = Path(__file__).resolve().parents[3] / "artifacts"
    folder = Path(os.environ.get("WORDFEUD_BOT_ARTIFACTS") or default)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium with the flags this machine needs (no sandbox as root, no background traffic)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="wordfeud-bot-chromium-")
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1280,900", f"--user-data-dir={profile}",
    ):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


_READ_CARD = """
const card = document.querySelector('article.game[data-game="' + arguments[0] + '"]');
const health = document.getElementById('health');
return card === null ? null : {
  moves: Number(card.dataset.moves), tiles: card.querySelectorAll('g.tile').length,
  last: card.querySelectorAll('g.tile.last').length, board: card.querySelectorAll('svg.wf-board').length,
  passes: health.dataset.passes, health: health.textContent};
"""


def _card(browser: Any, game_id: int) -> dict[str, Any]:
    """What the page shows of a game, read in one go (the page replaces its content as it refreshes)."""
    found: dict[str, Any] | None = browser.execute_script(_READ_CARD, str(game_id))
    return found or {"moves": -1}


def _moves(browser: Any, game_id: int) -> int:
    return int(_card(browser, game_id)["moves"])


def test_the_status_page_shows_the_game_and_updates_after_a_move(
    sandbox: Sandbox, tmp_path: Path, browser: Any
) -> None:
    game = sandbox.game()
    wiring = sandbox.wire(tmp_path / "state.db")
    health = Health(interval=30)
    health.passed(wiring.bot.run_pass())  # the bot's first move
    with StatusServer(StatusSettings("127.0.0.1", 0, 0.2), tmp_path / "state.db", health) as server:
        browser.get(server.url)
        assert browser.title == "wordfeud-bot status"
        before = _card(browser, game.id)
        assert before["moves"] == 1 and before["board"] == 1 and before["tiles"] == before["last"] > 0
        health.passed(wiring.bot.run_pass())  # it reads the house's answer and moves again
        # a refresh that began while the pass was writing may show the house's move alone: wait for ours
        WebDriverWait(browser, WAIT_SECONDS).until(lambda b: _moves(b, game.id) >= 3)
        after = _card(browser, game.id)
        assert after["moves"] == 3 and after["passes"] == "2" and "Health: healthy" in after["health"]
        assert after["tiles"] > after["last"] > 0  # the new move highlighted among the older tiles
        shot = artifacts() / "status-page.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    wiring.store.close()


def test_the_replay_page_steps_through_the_game_with_the_keyboard(tmp_path: Path, browser: Any) -> None:
    recorded = record_demo(tmp_path)
    store = Store(recorded.state)
    try:
        game = record(store, recorded.game_id, LexiconRegistry([]).get, strategy_named("equity"))
    finally:
        store.close()
    page = tmp_path / "replay.html"
    page.write_text(replay_html(game, "equity"), encoding="utf-8")
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")

    def shown() -> int:
        visible = [f for f in browser.find_elements(By.CSS_SELECTOR, "section.frame") if f.is_displayed()]
        assert len(visible) == 1
        return int(visible[0].get_attribute("data-index"))

    assert shown() == 0 and body.get_attribute("data-frame") == "0"
    for step in range(1, 4):
        body.send_keys(Keys.ARROW_RIGHT)
        assert shown() == step
    caption = browser.find_elements(By.CSS_SELECTOR, "section.frame")[3].text
    assert caption.startswith(f"Move 3: {game.frames[3].actor}")
    body.send_keys(Keys.ARROW_LEFT)
    assert shown() == 2
    body.send_keys(Keys.END)
    assert shown() == len(game.frames) - 1
    assert browser.find_element(By.ID, "position").text == f"game over after move {game.frames[-1].moves}"
    body.send_keys(Keys.HOME)
    assert shown() == 0
    for _ in range(12):
        body.send_keys(Keys.ARROW_RIGHT)
    assert shown() == 12
    current = browser.find_elements(By.CSS_SELECTOR, "tbody tr.current")
    assert [row.get_attribute("data-frame") for row in current] == ["12"]
    assert browser.find_element(By.ID, "position").text == f"move 12 of {game.frames[-1].moves}"
    shot = artifacts() / "replay-page.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000


def test_the_replay_pages_address_opens_the_board_after_the_move_it_names(tmp_path: Path, browser: Any) -> None:
    """``#N`` is move N as the move list, the captions, the log and ``hint --move`` number it."""
    recorded = record_demo(tmp_path)
    store = Store(recorded.state)
    try:
        game = record(store, recorded.game_id, LexiconRegistry([]).get, strategy_named("equity"))
    finally:
        store.close()
    page = tmp_path / "replay.html"
    page.write_text(replay_html(game, "equity"), encoding="utf-8")
    last = game.frames[-1].moves
    for number in (0, 1, 7, last):
        browser.get(page.as_uri() + f"#{number}")
        visible = [f for f in browser.find_elements(By.CSS_SELECTOR, "section.frame") if f.is_displayed()]
        assert [f.get_attribute("data-moves") for f in visible] == [str(number)]
        expected = f"move {number} of {last}" if number else f"start, {last} moves"
        assert browser.find_element(By.ID, "position").text == expected
        if number:
            caption = visible[0].find_element(By.CSS_SELECTOR, ".caption").text
            assert caption.startswith(f"Move {number}: ")  # the caption agrees
        shown = browser.execute_script("return document.querySelectorAll('svg.steps g.tile:not(.off)').length")
        frame = next(f for f in game.frames if f.moves == number)
        assert shown == len(list(frame.board.tiles()))  # the one board drawing shows that position's tiles


_OVERFLOW = """
const width = document.documentElement.clientWidth;
const wide = [];
for (const element of document.querySelectorAll('body *')) {
  const box = element.getBoundingClientRect();
  if (box.width > 0 && (box.right > width + 1 || box.left < -1)) {
    wide.push(element.tagName + '.' + element.className + ' ' + Math.round(box.left) + '..' + Math.round(box.right));
  }
}
return {viewport: window.innerWidth, width: width, scroll: document.documentElement.scrollWidth,
        wide: wide.slice(0, 10)};
"""


_TABLES = """
const width = document.documentElement.clientWidth;
const wide = [], wrapped = [];
let cells = 0;
for (const table of document.querySelectorAll('table')) {
  const box = table.getBoundingClientRect();
  if (box.right > width + 1) { wide.push(table.className + ' ' + Math.round(box.right)); }
  for (const cell of table.querySelectorAll('td')) {  // a column's heading may take two lines
    if (!cell.textContent.trim() || cell.getBoundingClientRect().width === 0) { continue; }
    cells += 1;
    const probe = document.createElement('span');  // one line of the cell's own font
    probe.textContent = 'X';
    cell.appendChild(probe);
    const line = probe.getBoundingClientRect().height;
    cell.removeChild(probe);
    const range = document.createRange();
    range.selectNodeContents(cell);
    const rects = Array.from(range.getClientRects()).filter(function (r) { return r.width > 0; });
    const top = Math.min(...rects.map(function (r) { return r.top; }));
    const bottom = Math.max(...rects.map(function (r) { return r.bottom; }));
    if (bottom - top > 1.5 * line) { wrapped.push(cell.textContent.trim() + ' ' + Math.round(bottom - top)); }
  }
}
return {wide: wide, wrapped: wrapped.slice(0, 10), cells: cells};
"""


def _fits(browser: Any, width: int, name: str, height: int = 900) -> None:
    """At this viewport width no element sticks out and the page does not scroll sideways, and no table
    is wider than the page nor any cell broken over lines (a cell's text spans one line of its font); a
    screenshot of the whole page."""
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    browser.refresh()
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: b.execute_script("return document.readyState") == "complete")
    found = browser.execute_script(_OVERFLOW)
    assert found["viewport"] == width  # the page's own width: less a scroll bar, if it scrolls down
    assert found["scroll"] <= found["width"] and found["wide"] == [], found
    tables = browser.execute_script(_TABLES)
    assert tables["cells"] > 0 and tables["wide"] == [] and tables["wrapped"] == [], tables
    whole = int(browser.execute_script("return document.documentElement.scrollHeight"))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": whole})
    shot = artifacts() / f"{name}-{width}px.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 5_000


@pytest.mark.parametrize("width", [390, 1280])
def test_the_status_page_shows_what_the_bot_weighed_and_fits_a_phone(
    sandbox: Sandbox, tmp_path: Path, browser: Any, width: int
) -> None:
    running, finished = sandbox.game(), sandbox.game()
    running.chat.append({"message": "nice one! " * 8, "sender": sandbox.house.id, "sent": 2.0})
    wiring = sandbox.wire(tmp_path / "state.db", chat={"enabled": True})
    health = Health(interval=30)
    health.passed(wiring.bot.run_pass())
    finished.game.resign(finished.players.index(sandbox.house.id))  # the house gives up the second game
    finished.updated = sandbox.state.clock()
    health.passed(wiring.bot.run_pass())
    with StatusServer(StatusSettings("127.0.0.1", 0, 60), tmp_path / "state.db", health) as server:
        browser.get(server.url)
        _fits(browser, width, "status-page")
        card = browser.find_element(By.CSS_SELECTOR, f'article.game[data-game="{running.id}"]')
        assert len(card.find_elements(By.CSS_SELECTOR, ".rack .tile")) == 7
        assert "in the bag" in card.find_element(By.CSS_SELECTOR, ".rack").text
        rows = card.find_elements(By.CSS_SELECTOR, ".thinking tbody tr")
        assert 1 <= len(rows) <= 5 and rows[0].find_elements(By.TAG_NAME, "td")[2].text  # an equity figure
        assert "nice one!" in card.find_element(By.CSS_SELECTOR, ".chat").text
        finished_section = browser.find_element(By.ID, "finished")
        assert finished_section.is_displayed()
        links = finished_section.find_elements(By.CSS_SELECTOR, "a")
        assert [a.text for a in links] == ["replay", "GCG"]
        links[0].click()  # the replay page the status server makes from the state file, its script allowed
        WebDriverWait(browser, WAIT_SECONDS).until(lambda b: b.find_elements(By.ID, "position"))
        assert browser.find_element(By.ID, "position").text.startswith("start, ")  # the script ran
    wiring.store.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_replay_page_fits_a_phone(tmp_path: Path, browser: Any, width: int) -> None:
    recorded = record_demo(tmp_path)
    store = Store(recorded.state)
    try:
        game = record(store, recorded.game_id, LexiconRegistry([]).get, strategy_named("equity"))
    finally:
        store.close()
    page = tmp_path / "replay.html"
    page.write_text(replay_html(game, "equity"), encoding="utf-8")
    browser.get(page.as_uri())
    _fits(browser, width, "replay-page")


_TEXT_EDGES = """
const svg = document.querySelector('svg');
const width = svg.viewBox.baseVal.width;
const out = [];
for (const text of svg.querySelectorAll('text')) {
  const box = text.getBBox();
  if (box.x < 0 || box.x + box.width > width) { out.push(text.textContent + ' ' + Math.round(box.x + box.width)); }
}
return {width: width, out: out, scores: Array.from(svg.querySelectorAll('text.score')).map(t => t.textContent),
        footer: Array.from(svg.querySelectorAll('text.footer')).map(t => t.textContent)};
"""


def test_the_hint_picture_keeps_its_caption_inside_and_names_the_account(
    tmp_path: Path, browser: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hint --game ID --move N --svg``: the lines under the board (the simulation's figures make them
    long) wrap inside the picture's width as Chromium draws them; the bot's side is the account's name."""
    recorded = record_demo(tmp_path)
    store = Store(recorded.state)
    try:
        game = record(store, recorded.game_id)
        late = next(f for f in game.frames if f.seat == 0 and f.bag is not None and 0 < f.bag + len(f.last) < 16)
        for row_id, raw in store._db.execute("SELECT id, game FROM snapshots").fetchall():  # the account renamed
            snapshot = json.loads(raw)
            for player in snapshot["players"]:
                if player.get("is_local") or player.get("rack") is not None:
                    player["username"] = "Ada Lovelace"
            store._db.execute("UPDATE snapshots SET game = ? WHERE id = ?", (json.dumps(snapshot), row_id))
    finally:
        store.close()
    sim = "sim:candidates=4,iterations=12,seconds=0"
    for number, name in ((1, "early"), (late.moves, "late")):
        picture = tmp_path / f"hint-{name}.svg"
        argv = ["hint", "--state", str(recorded.state), "--game", str(recorded.game_id), "--move", str(number)]
        assert cli([*argv, "--strategy", sim, "--svg", str(picture)]) == 0, capsys.readouterr().err
        browser.get(picture.as_uri())
        found = browser.execute_script(_TEXT_EDGES)
        assert found["out"] == [], found
        assert found["scores"][0].lstrip("\u25b6 ").startswith("Ada Lovelace ")  # the account's name
        assert "simulated" in " ".join(found["footer"])
        if name == "late":  # sim ranks by the share of playouts won here: the picture says it
            assert "ahead " in " ".join(found["footer"]), found["footer"]
        shot = artifacts() / f"hint-{name}.png"
        assert browser.save_screenshot(str(shot))
