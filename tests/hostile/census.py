"""Run hostile game payloads through the bot's turn logic over a faked API, and count what came of them.

Each case serves one game object (``tests.hostile.payloads``) as ``game/<id>/`` and lets
``TurnPlayer.play`` (the default ``equity`` strategy) read, decide and submit, over ``responses``
or over real HTTP on 127.0.0.1 (``LocalApi``). A case ends as one of:

* ``decision``: a report came back (played, swapped, passed, waiting, over);
* ``typed``: a ``BotError`` or ``EngineError`` (the project's own, precise exceptions);
* ``untyped``: any other exception (a defect);
* ``hang``: still running after ``bound`` seconds (a defect);
and, separately, ``illegal``: a submission the referee (``payloads.violation``) finds outside the rules.

``python -m tests.hostile.census --cases 2000 --seed 1`` prints the counts and the first examples of
each defect; the tests run the same census and require no defect.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests
import responses

from bot.api.client import RetryPolicy, WordfeudClient
from bot.errors import BotError
from bot.play.turn import TurnPlayer, TurnReport, TurnSettings
from bot.store.store import Store
from engine.errors import EngineError
from engine.players.registry import strategy_named
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
Reply = tuple[int, dict[str, str], str]


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


class FakeApi:
    """The API's answers for a set of hostile games: reads serve the case, writes are refereed and recorded."""

    def __init__(self, census: Census) -> None:
        self.census = census
        self.games: dict[int, Case] = {}
        self.status_entries: list[Any] = []
        self.acted: list[tuple[int, str]] = []  # (game id, kind) of every submission
        self._lock = threading.Lock()

    def serve(self, *cases: Case, ids: Iterable[int] = (GAME_ID,)) -> None:
        """Serve these cases under these game ids (the status lists them in order)."""
        self.games = dict(zip(ids, cases, strict=True))
        self.status_entries = [{"id": game_id, "updated": 1.0} for game_id in self.games]

    def answer(self, path: str, body: bytes) -> Reply:
        """The reply to a POST of ``body`` to ``path`` (under the API's ``/wf/``)."""
        if path == "user/status/":
            return _ok({"games": self.status_entries})
        match = re.fullmatch(r"board/(\d+)/", path)
        if match:
            grid = next((c.grid for c in self.games.values() if c.grid is not None), None)
            return _ok({"board": grid or [[0] * 15 for _ in range(15)]})
        match = re.fullmatch(r"game/(\d+)/(?:(move|swap|pass)/)?", path)
        if match is None or int(match.group(1)) not in self.games:
            return 200, {}, json.dumps({"status": "error", "content": {"type": "unknown_game"}})
        game_id, kind = int(match.group(1)), match.group(2)
        case = self.games[game_id]
        if kind is None:
            return 200, {}, dumps(case.game)
        with self._lock:
            self.acted.append((game_id, kind))
            self.census.submissions += 1
            problem = violation(case.game, kind, json.loads(body or b"{}"), game_id)
            if problem is not None:
                self.census.illegal += 1
                self.census.note("illegal", f"[{case.name}] {kind} {body!r}: {problem}")
        content: dict[str, Any] = {"updated": 1.0}
        if kind == "move":
            content.update(points=0, main_word="", new_tiles=[], is_running=True)
        if kind == "swap":
            content.update(new_tiles=[])
        return _ok(content)

    def install(self, mock: responses.RequestsMock) -> None:
        """Answer through ``responses`` at ``BASE``."""

        def callback(request: requests.PreparedRequest) -> Reply:
            body = request.body if isinstance(request.body, bytes) else (request.body or "").encode()
            return self.answer(str(request.url).removeprefix(BASE), body)

        mock.add_callback(responses.POST, re.compile(re.escape(BASE) + ".*"), callback=callback)


def _ok(content: dict[str, Any]) -> Reply:
    return 200, {}, json.dumps({"status": "success", "content": content})


class LocalApi(ThreadingHTTPServer):
    """A ``FakeApi`` over real HTTP on 127.0.0.1 (``with LocalApi(api) as server: server.base_url``)."""

    daemon_threads = True

    def __init__(self, api: FakeApi) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.api = api
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/wf/"

    def __enter__(self) -> LocalApi:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join()


class _Handler(BaseHTTPRequestHandler):
    server: LocalApi
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: do not wait for an ACK between

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        status, _, text = self.server.api.answer(self.path.removeprefix("/wf/"), body)
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


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


def turn_player(
    base_url: str, store: Store, http: requests.Session | None = None, *, timeout: float = 5.0, attempts: int = 2
) -> TurnPlayer:
    """The bot's turn logic as the service wires it (default strategy), logged in as ``BOT_ID``; reads
    are tried ``attempts`` times (the waits between are not slept), each exchange bounded by ``timeout`` seconds."""
    client = WordfeudClient(
        base_url,
        session_id=SESSION,
        user_id=BOT_ID,
        timeout=timeout,
        retry=RetryPolicy(attempts=attempts),
        http=http,
        sleep=lambda s: None,
    )
    settings = TurnSettings(max_candidates=3)
    return TurnPlayer(client, store, registry().get, strategy=strategy_named("equity"), settings=settings)


def run_cases(cases: Iterable[Case], api: FakeApi, base_url: str, *, bound: float = 5.0) -> None:
    """Play each case once through ``base_url`` (answered by ``api``), counting into ``api.census``."""
    census = api.census
    http = requests.Session()  # one connection for all cases, as the bot keeps one
    for case in cases:
        api.serve(case)
        store = Store(":memory:")
        turns = turn_player(base_url, store, http)
        started = time.perf_counter()
        try:
            outcome, detail, report = outcome_of(functools.partial(turns.play, GAME_ID), bound)
        finally:
            store.close()
        census.counts[outcome] += 1
        if outcome in ("untyped", "hang"):
            census.note(outcome, f"[{case.name}] {detail}")
        if case.name == "valid" and (report is None or report.outcome not in ("played", "swapped", "passed")):
            census.note("valid game not played", detail or str(report))
        census.slowest_ms = max(census.slowest_ms, (time.perf_counter() - started) * 1000)


def outcome_of(call: Callable[[], TurnReport], bound: float) -> tuple[str, str, TurnReport | None]:
    """(outcome, detail, report) of one turn: ``decision`` (with its report), ``typed`` (the bot's or
    the engine's own, precise errors), ``untyped`` (any other exception) or ``hang`` (past ``bound`` s)."""
    try:
        with deadline(bound):
            return "decision", "", call()
    except DeadlineError as exc:
        return "hang", str(exc), None
    except (BotError, EngineError) as exc:
        return "typed", f"{type(exc).__name__}: {exc}", None
    except Exception as exc:  # the defects a census is there to count
        return "untyped", f"{type(exc).__name__}: {str(exc)[:160]}", None


def seeded_cases(count: int, seed: int, valid_share: float = 0.1) -> Iterator[Case]:
    """``count`` cases, about ``valid_share`` of them unbroken, the rest broken by one to three mutations."""
    rng = random.Random(seed)
    for _ in range(count):
        yield valid_case(rng) if rng.random() < valid_share else hostile_case(rng)


def run_census(cases: int, seed: int, *, bound: float = 5.0, http: bool = False) -> Census:
    """Run ``cases`` seeded cases over ``responses`` (or real HTTP on 127.0.0.1) and count the outcomes."""
    api = FakeApi(Census())
    if http:
        with LocalApi(api) as server:
            run_cases(seeded_cases(cases, seed), api, server.base_url, bound=bound)
    else:
        with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
            api.install(mock)
            run_cases(seeded_cases(cases, seed), api, BASE, bound=bound)
    return api.census


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.hostile.census",
        description="Serve seeded hostile game payloads to the bot's turn logic over a faked API and count "
        "decisions, typed errors, untyped exceptions, hangs and submissions outside the rules.",
    )
    parser.add_argument("--cases", type=int, default=2000, help="cases to run (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the cases (default 1)")
    parser.add_argument("--bound", type=float, default=5.0, help="seconds after which a case counts as a hang")
    parser.add_argument("--http", action="store_true", help="serve over real HTTP on 127.0.0.1, not responses")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    census = run_census(args.cases, args.seed, bound=args.bound, http=args.http)
    for line in census.lines():
        print(line)
    print(f"took {time.perf_counter() - started:.1f} s")
    return 1 if census.defects else 0


if __name__ == "__main__":
    sys.exit(main())
