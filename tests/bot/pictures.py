"""The README's pictures, made by the project's own commands and pages in headless Chromium:
``python -m tests.bot.pictures [DIR]`` (default ``docs/``) writes ``replay.png`` (the HTML replay of the
demo's game, ``wordfeud-bot replay GAME --html``), ``status.png`` (the status page of a bot that has
finished one game against the sandbox's house player and is playing two more, 1280 px wide) and
``status-phone.png`` (the same page 390 px wide, as a phone shows it), each of the whole page. Needs
Selenium and Debian's chromium and chromium-driver, as the browser tests do."""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from selenium import webdriver

from bot.api.credentials import Credentials
from bot.play.app import build
from bot.play.health import Health
from bot.settings.config import parse_config
from bot.store.store import Store
from bot.views.status import StatusServer, StatusSettings
from cli.main import main as cli
from sandbox.server import SandboxServer
from sandbox.state import State
from tests.bot.recorded import record_demo
from tests.lexicons import english


def whole_page(browser: Any, width: int, out: Path) -> None:
    """A screenshot of the whole page as a ``width``-pixel-wide screen shows it (a phone's below 600)."""
    metrics = {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    browser.refresh()
    height = int(browser.execute_script("return document.documentElement.scrollHeight"))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": height})
    browser.save_screenshot(str(out))


def _browser(profile: Path, width: int, height: int) -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", f"--window-size={width},{height}", f"--user-data-dir={profile}",
    ):  # fmt: skip
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def replay_picture(out: Path, work: Path) -> None:
    """The replay page of the demo's game after its 17th move."""
    recorded = record_demo(work)
    page = work / "replay.html"
    status = cli(["replay", "--state", str(recorded.state), str(recorded.game_id), "--html", str(page)])
    if status != 0:
        raise SystemExit(f"replay --html exited {status}")
    browser = _browser(work / "profile-replay", 1280, 790)
    try:
        browser.get(page.as_uri() + "#17")
        whole_page(browser, 1280, out)
    finally:
        browser.quit()


def status_picture(out: Path, work: Path, phone: Path | None = None) -> None:
    """The status page after one whole game and two passes over two more (``phone``: also at 390 px)."""
    state = State(lambda ruleset: english(), time.time, seed=4)
    me = state.add_user("bot", "bot@sandbox.local", "bot-password")
    house = state.add_user("house", "house@sandbox.local", "house-password")
    state.house.add(house.id)
    first = state.new_game(me, house, 5)
    with SandboxServer(state) as server:
        config = parse_config({"api": {"base_url": server.base_url}, "schedule": {"quarantine_seconds": 0}})
        credentials = Credentials.from_password("email", me.email, "bot-password")
        wiring = build(config, credentials, store=Store(work / "state.db"))
        health = Health(interval=40)
        while not first.game.is_over:
            health.passed(wiring.bot.run_pass())
        health.passed(wiring.bot.run_pass())  # the bot sees the game over
        state.new_game(me, house, 5)
        state.new_game(me, house, 5, "random")
        for _ in range(3):
            health.passed(wiring.bot.run_pass())
        with StatusServer(StatusSettings("127.0.0.1", 0, 5), work / "state.db", health) as page:
            browser = _browser(work / "profile-status", 1280, 1060)
            try:
                browser.get(page.url)
                whole_page(browser, 1280, out)
                if phone is not None:
                    whole_page(browser, 390, phone)
            finally:
                browser.quit()
        wiring.store.close()


def main(argv: list[str]) -> int:
    """Write the pictures to the folder given (default docs/)."""
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        replay_picture(folder / "replay.png", Path(scratch))
        status_picture(folder / "status.png", Path(scratch), folder / "status-phone.png")
    print(f"wrote {', '.join(str(folder / n) for n in ('replay.png', 'status.png', 'status-phone.png'))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
