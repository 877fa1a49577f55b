"""Hostile game payloads: every case ends in a typed error or a legal decision, never an unhandled
exception, a hang or a move outside the rules; one poisoned game never keeps the others from being played."""

from __future__ import annotations

import copy
import logging
import random
from collections.abc import Iterator

import pytest
import responses

from bot.play.service import Bot
from bot.store.store import Store
from tests.hostile.census import BASE, Census, FakeApi, run_cases, run_census, turn_player
from tests.hostile.payloads import MUTATIONS, Case, base_games
from tests.hostile.transport import TIMEOUT, run_transport_census


def assert_sound(census: Census, cases: int) -> None:
    assert census.defects == 0, "\n".join(census.lines())
    assert not [kind for kind in census.examples if kind.startswith("valid")], "\n".join(census.lines())
    assert sum(census.counts.values()) == cases
    # not vacuous: the seeded mix makes the bot decide (and submit) in some cases and refuse in others
    assert census.counts["decision"] >= cases // 10 and census.counts["typed"] >= cases // 2
    assert census.submissions >= cases // 20


def test_seeded_hostile_payloads_over_responses() -> None:
    census = run_census(3000, seed=2026)
    assert_sound(census, 3000)


def test_seeded_hostile_payloads_over_real_http() -> None:
    census = run_census(1000, seed=7, http=True)
    assert_sound(census, 1000)


def every_single_mutation() -> Iterator[Case]:
    """Each mutation alone on each base game, with a few seeds (the mutations draw their values)."""
    for name, mutate in sorted(MUTATIONS.items()):
        for index, (base, grid) in enumerate(base_games()):
            for seed in range(3):
                game = copy.deepcopy(base)
                mutate(random.Random(seed * 1000 + index), game)
                yield Case(name, game, grid)


def test_every_mutation_alone_on_every_base_game() -> None:
    census = Census()
    api = FakeApi(census)
    cases = list(every_single_mutation())
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        api.install(mock)
        run_cases(cases, api, BASE)
    assert census.defects == 0, "\n".join(census.lines())
    assert sum(census.counts.values()) == len(cases) == len(MUTATIONS) * len(base_games()) * 3


POISON_IDS = (2_226_982_301, 2_226_982_302, 2_226_982_303)


def valid(index: int) -> Case:
    base, grid = base_games()[index]
    return Case("valid", copy.deepcopy(base), grid)


def bot_for(api: FakeApi, mock: responses.RequestsMock) -> Bot:
    api.install(mock)
    store = Store(":memory:")
    return Bot(turn_player(BASE, store).client, store, turn_player(BASE, store))


@pytest.mark.parametrize("name", sorted(MUTATIONS))
@pytest.mark.logs_errors("a poisoned game is skipped with one ERROR line naming it: the line is under test")
def test_one_poisoned_game_among_three_the_other_two_are_played(name: str, caplog: pytest.LogCaptureFixture) -> None:
    seat = sorted(MUTATIONS).index(name) % 3  # the poisoned game comes first, second or third
    poisoned = valid(1)
    MUTATIONS[name](random.Random(seat), poisoned.game)
    cases = [valid(0), valid(3), valid(6)]
    cases[seat] = Case(name, poisoned.game, poisoned.grid)
    census = Census()
    api = FakeApi(census)
    api.serve(*cases, ids=POISON_IDS)
    for case, game_id in zip(cases, POISON_IDS, strict=True):
        case.game["id"] = game_id
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock, caplog.at_level(logging.ERROR):
        report = bot_for(api, mock).run_pass()
    healthy = [game_id for index, game_id in enumerate(POISON_IDS) if index != seat]
    acted = {game_id for game_id, _ in api.acted}
    assert set(healthy) <= acted, report
    assert census.illegal == 0, census.lines()
    bad_id = POISON_IDS[seat]
    names_it = (f"game {bad_id}: ", f"game/{bad_id}/: ")
    errors = [r.getMessage() for r in caplog.records if r.name == "bot.play.service"]
    assert errors == report.errors and len(errors) <= 1
    if errors:  # one line naming the game and the field
        assert errors[0].startswith(names_it) and "field" in errors[0], errors


BAD_STAMPS: tuple[object, ...] = (None, True, float("inf"), "", "7", "x" * 300, [], {}, [[[[[]]]]], float("nan"))
STATUS_POISONS: list[object] = [
    {"id": 2**63, "updated": 1.0},
    {"id": -5, "updated": 1.0},
    {"id": "2226982302", "updated": 1.0},
    {"id": 2_226_982_399, "updated": float("nan")},
    {"id": 2_226_982_399, "updated": "yesterday"},
    {"id": True, "updated": 1.0},
    {"updated": 1.0},
    [[[[[]]]]],
    None,
    "game",
    *({"id": 2_226_982_399, "updated": value} for value in BAD_STAMPS),
]


@pytest.mark.parametrize("entry", STATUS_POISONS, ids=lambda entry: repr(entry)[:40])
@pytest.mark.logs_errors("a malformed status entry is skipped with one ERROR line naming it: the line is under test")
def test_a_malformed_status_entry_is_skipped_and_named(entry: object, caplog: pytest.LogCaptureFixture) -> None:
    census = Census()
    api = FakeApi(census)
    cases = [valid(0), valid(3)]
    api.serve(*cases, ids=POISON_IDS[:2])
    for case, game_id in zip(cases, POISON_IDS[:2], strict=True):
        case.game["id"] = game_id
    api.status_entries.insert(1, entry)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock, caplog.at_level(logging.ERROR):
        report = bot_for(api, mock).run_pass()
    assert {game_id for game_id, _ in api.acted} == set(POISON_IDS[:2])
    assert len(report.errors) == 1 and report.errors[0].startswith("user/status/: games[1]"), report.errors
    assert "field" in report.errors[0]



def test_seeded_hostile_answers_on_the_wire() -> None:
    """Status codes, redirects, Retry-After values, broken and lying bodies, drips and silence from a
    real server: typed errors or decisions, and no case longer than its deadlines allow."""
    census = run_transport_census(200, seed=11)
    assert census.defects == 0, "\n".join(census.lines())
    assert census.counts["decision"] >= 10 and census.counts["typed"] >= 100, census.lines()
    assert census.submissions >= 5, census.lines()
    # reads and writes of a turn, each within TIMEOUT: far below the hang bound
    assert census.slowest_ms < 40 * TIMEOUT * 1000, census.lines()
