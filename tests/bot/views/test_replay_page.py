"""The HTML replay of the demo's game: one board drawing for every position (the page stays small), the
bag count and what the bot weighed at each of its moves, the opponent's rack at the end, and a subtitle
that counts what the counter counts."""

from __future__ import annotations

import re

import pytest

from bot.records.history import GameRecord, record
from bot.store.store import Store
from bot.views.replay_html import label, replay_html
from dictionaries.registry import LexiconRegistry
from engine.board.rack import Rack
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from tests.bot.recorded import record_demo

#: The page of a whole game must open quickly from a mail or a phone: one board picture a position made
#: the demo's 23-move game 830 KB.
MAX_PAGE_BYTES = 200_000


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> GameRecord:
    recorded = record_demo(tmp_path_factory.mktemp("recorded"))
    store = Store(recorded.state)
    try:
        return record(store, recorded.game_id, LexiconRegistry([]).get, strategy_named("equity"))
    finally:
        store.close()


def test_the_replay_page_draws_the_board_once_and_stays_small(game: GameRecord) -> None:
    page = replay_html(game, "equity")
    assert len(page.encode("utf-8")) < MAX_PAGE_BYTES
    assert page.count('class="wf-board') == 1 and page.count('class="square') == 225
    runs = [
        (int(a), int(b), square)
        for square, a, b in re.findall(
            r'<g class="tile[^"]*" data-square="(\w+)"[^>]* data-from="(\d+)" data-to="(\d+)"', page
        )
    ]
    assert runs
    for index, frame in enumerate(game.frames):  # the tiles the script shows at each position are that board's
        shown = sorted(square for a, b, square in runs if a <= index <= b)
        expected = sorted(f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}" for r, c, _ in frame.board.tiles())
        assert shown == expected, index


def test_the_replay_page_shows_the_bag_what_the_bot_weighed_and_the_rack_left(game: GameRecord) -> None:
    page = replay_html(game, "equity")
    assert all(f.bag is not None for f in game.frames)
    assert [f.bag for f in game.frames][1:-1] == sorted((f.bag or 0 for f in game.frames[1:-1]), reverse=True)
    assert game.frames[-1].bag == 0 and f'<p class="bag">{game.frames[1].bag} in the bag</p>' in page
    mine = [f for f in game.frames if f.seat == 0]
    assert mine and all(f.weighed and f.weighed["candidates"] for f in mine)  # every move of the bot's
    assert page.count('class="thinking"') == len(mine)
    for frame in mine:
        assert frame.weighed is not None
        best = frame.weighed["candidates"][0]["notation"]
        assert frame.action in (best, "swapped " + best.removeprefix("SWAP "))  # it played its best candidate
    # the opponent's tiles at the end: the bot went out, so they cost the opponent their points
    rules = Ruleset.for_id(game.ruleset)
    left = Rack.from_text(game.opponent_rack, rules.alphabet)
    assert len(left) > 0 and f"{game.opponent} held {game.opponent_rack} at the end" in page
    before, after = game.frames[-2].players[1][1], game.frames[-1].players[1][1]
    assert after == before - sum(rules.alphabet.tile_points(code) for code in left.letters())


def test_the_replay_subtitle_counts_what_the_counter_counts(game: GameRecord) -> None:
    page = replay_html(game, "equity")
    subtitle = re.search(r'<p class="sub">(.*?)</p>', page, re.S)
    assert subtitle is not None
    counted = {int(n) for n in re.findall(r"(\d+) moves?\b", subtitle.group(1))}
    last = game.frames[-1].moves
    assert counted == {last} and label(game.frames[-1], last) == f"game over after move {last}"
    assert "positions" not in subtitle.group(1)
