"""A server that lists new games every poll: the state file keeps at most ``store.max_unplayed_games``
games the bot has not played (the oldest first seen forgotten first), whatever the number of passes;
games it played are never forgotten."""

from __future__ import annotations

from pathlib import Path

from bot.api.credentials import Credentials
from bot.play.app import build
from bot.store.store import Store
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox, Ticker


def test_fifty_new_games_a_pass_keep_the_games_remembered_bounded(sandbox: Sandbox, tmp_path: Path) -> None:
    flood = sandbox.state.add_user("flood", "flood@example.org", "flood-pw")  # moves first, never plays
    played = sandbox.game(5)  # bot vs house, the bot to move: played in the first pass
    cap = 100
    config = sandbox.config(store={"max_unplayed_games": cap})
    credentials = Credentials.from_password("email", BOT_EMAIL, BOT_PASSWORD)
    wiring = build(config, credentials, store_path=tmp_path / "state.sqlite3", sleep=lambda s: None, clock=Ticker())
    counts = []
    try:
        assert not wiring.bot.run_pass().errors  # the bot's move in its game, before the flood
        for _ in range(6):
            for _ in range(50):
                sandbox.state.new_game(flood, sandbox.me, 5)
            report = wiring.bot.run_pass()
            assert not report.errors
            counts.append(len(wiring.store.game_ids()))
        kept = set(wiring.store.game_ids())
        decided = {d.game_id for d in wiring.store.decisions()}
    finally:
        wiring.store.close()
    assert counts[-1] == counts[-2] == cap + 1  # the cap's unplayed games, the one played
    assert played.id in kept and played.id in decided
    assert len(sandbox.state.games) == 301  # the server lists them all still: the bot forgot 200


def test_forgetting_takes_a_games_snapshots_and_notes_with_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3", max_unplayed_games=50)
    try:
        for game_id in range(1, 61):
            with store._transaction():
                store._db.execute("INSERT INTO games VALUES (?, 5, 'x', 0, 0, 1, 0, 0, ?, 0)", (game_id, game_id))
                store._db.execute("INSERT INTO snapshots (game_id, move_count, taken, game) VALUES (?, 0, 0, '{}')",
                                  (game_id,))  # fmt: skip
                store._forget_unplayed()
        (snapshots,) = store._db.execute("SELECT COUNT(DISTINCT game_id) FROM snapshots").fetchone()
        assert sorted(store.game_ids()) == list(range(11, 61)) and snapshots == 50
    finally:
        store.close()
