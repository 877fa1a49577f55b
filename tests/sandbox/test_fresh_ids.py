"""A sandbox started again hands out game (and random board) ids that no earlier start used, so a bot's
state file, which keys games and cached boards by id, never merges two games under one id."""

from __future__ import annotations

import random

from sandbox.state import FIRST_GAME_ID, State, fresh_first_id
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, sandbox_command

API_ID_LIMIT = 2**53  # exact in JavaScript (the status page); SQLite's 2**63 and the API's 19 digits are above


def _ids(*options: str) -> tuple[list[int], list[int]]:
    with sandbox_command(*options) as (_, session, url):
        games = session.get(url + "user/games/", timeout=10).json()["content"]["games"]
    return sorted(int(g["id"]) for g in games), sorted(int(g["board"]) for g in games)


def test_two_starts_of_the_command_share_no_game_or_board_id() -> None:
    options = ("--games", "3", "--board", "random", "--seed", "4")  # the same seed: the same bags, not the same ids
    first_games, first_boards = _ids(*options)
    second_games, second_boards = _ids(*options)
    assert len(set(first_games + second_games)) == 6 and len(set(first_boards + second_boards)) == 6
    assert min(second_games) > max(first_games)  # later starts count on from above
    assert all(FIRST_GAME_ID < i < API_ID_LIMIT for i in first_games + second_games)


def test_fresh_first_ids_are_ordered_by_time_and_stay_in_range() -> None:
    now = 1_764_150_000.0
    earlier = fresh_first_id(now, random.Random(1))
    later = fresh_first_id(now + 0.001, random.Random(2))
    assert earlier < later and later - earlier <= 1999  # a millisecond apart: 1000 ids, plus the random part
    assert earlier + 999 < fresh_first_id(now + 1, random.Random(3))  # a second later: no overlap of 999 games
    assert fresh_first_id(2**53 / 1e6 - 1, random.Random(4)) < 2**53  # the year 2255


def test_a_state_made_with_a_first_id_numbers_its_games_from_it() -> None:
    state = State(lambda _: english(), FakeClock(), seed=1, first_game_id=10**15, first_board_id=10**15)
    player = state.add_user("p", "p@x.org", "pw")
    house = state.add_user("h", "h@x.org", "pw")
    games = [state.new_game(player, house, 5, "random") for _ in range(2)]
    assert [g.id for g in games] == [10**15, 10**15 + 1] and [g.board_id for g in games] == [10**15, 10**15 + 1]
    assert State(lambda _: english(), FakeClock()).counters()["game"] == FIRST_GAME_ID  # tests keep theirs
