"""Only ``illegal_word`` teaches the bot that a word is not allowed: a session refused twice or a
stale-rack refusal (``illegal_tiles``) bans nothing."""

from __future__ import annotations

import copy
import json

import pytest
import responses

from bot.api.credentials import Credentials
from bot.errors import AuthError
from bot.play.turn import Outcome, TurnReport
from bot.store.store import DecisionStatus, Store
from tests.hostile.census import BASE, Census, FakeApi, Reply, turn_player
from tests.hostile.payloads import GAME_ID, Case, base_games


class Refusing(FakeApi):
    """Answers every move with the error ``refusal`` (and its message); logins succeed."""

    def __init__(self, refusal: str, message: str = "", times: int = 1000) -> None:
        super().__init__(Census())
        self.refusal, self.message, self.times = refusal, message, times
        self.moves: list[list[str]] = []

    def answer(self, path: str, body: bytes) -> Reply:
        if path == "user/login/email/":
            headers = {"Set-Cookie": "sessionid=freshsession0123456789abcdefghij; Path=/"}
            return 200, headers, json.dumps({"status": "success", "content": {"id": 1_000_001, "username": "bot"}})
        if path.endswith("/move/") and len(self.moves) < self.times:
            self.moves.append(json.loads(body)["words"])
            return 200, {}, json.dumps({"status": "error", "content": {"type": self.refusal, "message": self.message}})
        return super().answer(path, body)


def play(api: Refusing, store: Store) -> TurnReport:
    base, grid = base_games()[0]  # the first move of an English game, a full bag
    api.serve(Case("valid", copy.deepcopy(base), grid))
    turns = turn_player(BASE, store)
    turns.client.credentials = Credentials.from_password("email", "bot@example.org", "pw")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        api.install(mock)
        return turns.play(GAME_ID)


def test_a_session_refused_twice_bans_no_word_and_ends_the_turn() -> None:
    api, store = Refusing("login_required"), Store(":memory:")
    with pytest.raises(AuthError, match="login_required"):
        play(api, store)
    assert len(api.moves) == 2  # the move, a fresh login, the move again: then give up for this pass
    assert store.rejected().words(5) == set()
    assert [d.status for d in store.decisions(GAME_ID)] == [DecisionStatus.REFUSED]


def test_stale_rack_refusals_ban_no_word_and_the_next_candidates_are_tried() -> None:
    api, store = Refusing("illegal_tiles", "tile not on the rack", times=3), Store(":memory:")
    report = play(api, store)
    assert len(api.moves) == 3  # max_candidates (3) refused, then the swap is accepted
    assert report.outcome == Outcome.SWAPPED
    assert store.rejected().words(5) == set()


def test_illegal_word_bans_the_word_the_server_named() -> None:
    api, store = Refusing("illegal_word", "", times=1), Store(":memory:")
    first = Refusing("illegal_word", "", times=1)
    play(first, Store(":memory:"))
    word = first.moves[0][0]
    api.message = word
    report = play(api, store)
    assert report.outcome == Outcome.PLAYED
    assert store.rejected().words(5) == {word}
