"""Run hostile game payloads through the bot's turn logic over a faked API, and count what came of them.

Each case serves one game object (``tests.hostile.payloads``) as ``game/<id>/`` through
``responses`` and lets ``TurnPlayer.play`` (the default ``equity`` strategy) read, decide and
submit. A case ends as one of:

* ``decision``: a report came back (played, swapped, passed, waiting, over);
* ``typed``: a ``BotError`` (the bot's own, precise exception);
* ``untyped``: any other exception (a defect);
* ``hang``: still running after ``bound`` seconds (a defect);
and, separately, ``illegal``: a submission the referee (``payloads.violation``) finds outside the rules.

``python -m tests.hostile.census --cases 2000 --seed 1`` prints the counts and the first examples of
each defect; the tests run the same census and require no defect.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import requests
import responses

from bot.client import RetryPolicy, WordfeudClient
from bot.errors import BotError
from bot.store import Store
from bot.turn import TurnPlayer, TurnSettings
from engine.strategy import strategy_named
from tests.hostile.payloads import (
    BOT_ID,
    GAME_ID,
    Case,
    DeadlineError,
    dumps,
    hostile_case,
    registry,
    valid_case,
    violation,
)

BASE = "https://api.example.test/wf/"
SESSION = "hostilesession0123456789abcdefgh"
OUTCOMES = ("decision", "typed", "untyped", "hang")


@dataclass
class Census:
    """Counts per outcome, the illegal submissions, and a few examples of each defect."""

    counts: Counter[str] = field(default_factory=Counter)
    submissions: int = 0
    illegal: int = 0
    examples: dict[str, list[str]] = field(default_factory=dict)
    slowest_ms: float = 0.0

    def note(self, kind: str, text: str) -> None:
        self.examples.setdefault(kind, [])
        if len(self.examples[kind]) < 8:
            self.examples[kind].append(text)

    @property
    def defects(self) -> int:
        return self.counts["untyped"] + self.counts["hang"] + self.illegal

    def lines(self) -> list[str]:
        total = sum(self.counts.values())
        out = [
            f"cases {total}: decisions {self.counts['decision']}, typed errors {self.counts['typed']}, "
            f"untyped exceptions {self.counts['untyped']}, hangs {self.counts['hang']}; "
            f"submissions {self.submissions}, outside the rules {self.illegal}; slowest case {self.slowest_ms:.0f} ms"
        ]
        for kind, texts in sorted(self.examples.items()):
            out += [f"  {kind}: {text}" for text in texts]
        return out


class FakeServer:
    """The API under ``responses``: serves the case's game, records and referees submissions."""

    def __init__(self, census: Census) -> None:
        self.census = census
        self.case: Case | None = None

    def install(self, mock: responses.RequestsMock) -> None:
        mock.add_callback(responses.POST, f"{BASE}game/{GAME_ID}/", callback=self._game)
        mock.add_callback(responses.POST, f"{BASE}game/{GAME_ID}/move/", callback=self._act("move"))
        mock.add_callback(responses.POST, f"{BASE}game/{GAME_ID}/swap/", callback=self._act("swap"))
        mock.add_callback(responses.POST, f"{BASE}game/{GAME_ID}/pass/", callback=self._act("pass"))
        mock.add_callback(responses.POST, _board_url(), callback=self._board)

    def _game(self, request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
        assert self.case is not None
        return 200, {}, dumps(self.case.game)

    def _board(self, request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
        assert self.case is not None
        grid = self.case.grid if self.case.grid is not None else [[0] * 15 for _ in range(15)]
        return 200, {}, json.dumps({"status": "success", "content": {"board": grid}})

    def _act(self, kind: str) -> Callable[[requests.PreparedRequest], tuple[int, dict[str, str], str]]:
        def answer(request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
            assert self.case is not None
            body = json.loads(request.body or b"{}")
            self.census.submissions += 1
            problem = violation(self.case.game, kind, body)
            if problem is not None:
                self.census.illegal += 1
                self.census.note("illegal", f"[{self.case.name}] {kind} {body}: {problem}")
            content: dict[str, Any] = {"updated": 1.0}
            if kind == "move":
                content.update(points=0, main_word="", new_tiles=[], is_running=True)
            if kind == "swap":
                content.update(new_tiles=[])
            return 200, {}, json.dumps({"status": "success", "content": content})

        return answer


def _board_url() -> re.Pattern[str]:
    return re.compile(rf"{BASE}board/\d+/")


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise ``DeadlineError`` in the main thread if the block runs longer than ``seconds``."""

    def expire(signum: int, frame: object) -> None:
        raise DeadlineError(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_census(cases: int, seed: int, *, bound: float = 5.0, valid_share: float = 0.1) -> Census:
    """Run ``cases`` seeded cases (about ``valid_share`` of them unbroken) and count the outcomes."""
    rng = random.Random(seed)
    census = Census()
    server = FakeServer(census)
    strategy = strategy_named("equity")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        server.install(mock)
        for _ in range(cases):
            case = valid_case(rng) if rng.random() < valid_share else hostile_case(rng)
            server.case = case
            client = WordfeudClient(
                BASE, session_id=SESSION, user_id=BOT_ID, timeout=5, retry=RetryPolicy(attempts=2), sleep=lambda s: None
            )
            store = Store(":memory:")
            settings = TurnSettings(max_candidates=3)
            turns = TurnPlayer(client, store, registry().get, strategy=strategy, settings=settings)
            started = time.perf_counter()
            try:
                with deadline(bound):
                    report = turns.play(GAME_ID)
                census.counts["decision"] += 1
                if case.name == "valid" and report.outcome not in ("played", "swapped", "passed"):
                    census.note("valid game not played", f"{report}")
            except DeadlineError as exc:
                census.counts["hang"] += 1
                census.note("hang", f"[{case.name}] {exc}")
            except BotError as exc:
                census.counts["typed"] += 1
                if case.name == "valid":
                    census.note("valid game refused", f"{type(exc).__name__}: {exc}")
            except Exception as exc:  # the defects this census is here to count
                census.counts["untyped"] += 1
                census.note("untyped", f"[{case.name}] {type(exc).__name__}: {str(exc)[:160]}")
            finally:
                store.close()
            census.slowest_ms = max(census.slowest_ms, (time.perf_counter() - started) * 1000)
    return census


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.hostile.census",
        description="Serve seeded hostile game payloads to the bot's turn logic over a faked API and count "
        "decisions, typed errors, untyped exceptions, hangs and submissions outside the rules.",
    )
    parser.add_argument("--cases", type=int, default=2000, help="cases to run (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the cases (default 1)")
    parser.add_argument("--bound", type=float, default=5.0, help="seconds after which a case counts as a hang")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    census = run_census(args.cases, args.seed, bound=args.bound)
    for line in census.lines():
        print(line)
    print(f"took {time.perf_counter() - started:.1f} s")
    return 1 if census.defects else 0


if __name__ == "__main__":
    sys.exit(main())
