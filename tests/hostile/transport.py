"""Hostile answers on the wire: seeded raw HTTP (status codes, redirects, Retry-After values, broken
bodies, drips, silence) played by a real server on 127.0.0.1 to the bot's turn logic.

Every connection of a case gets one answer drawn from ``ANSWERS`` (a valid game among them, so that
some cases end in a decision). ``run_transport_census`` counts the outcomes as ``census`` does, and
also the slowest case against the bound a case may take: its reads and writes each have a total
deadline (``TIMEOUT``), and retries are few, so no case may run much longer than their sum.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import random
import sys
import time
from collections.abc import Callable

from bot.store.store import Store
from tests.bot.hostile_server import Drip, Hold, HostileServer, Script, answer
from tests.hostile.census import SESSION, Census, outcome_of, turn_player
from tests.hostile.payloads import GAME_ID, base_games, dumps

#: The client's total deadline per exchange in these cases, in seconds.
TIMEOUT = 0.15
#: Tries of a read (each bounded by TIMEOUT).
ATTEMPTS = 2

Maker = Callable[[random.Random], Script]
ANSWERS: dict[str, Maker] = {}


def kind(name: str) -> Callable[[Maker], Maker]:
    def register(make: Maker) -> Maker:
        ANSWERS[name] = make
        return make

    return register


def _game_body(rng: random.Random) -> bytes:
    base, _ = base_games()[rng.randrange(4)]  # English games on the standard board
    return dumps(copy.deepcopy(base)).encode()


def _ok(content: dict[str, object]) -> bytes:
    return json.dumps({"status": "success", "content": content}).encode()


@kind("a valid game")
def _valid(rng: random.Random) -> Script:
    return Script([answer(200, _game_body(rng))])


@kind("success to a write")
def _written(rng: random.Random) -> Script:
    return Script([answer(200, _ok({"points": 10, "main_word": "", "new_tiles": [], "updated": 1}))])


@kind("status code")
def _status(rng: random.Random) -> Script:
    code = rng.choice([201, 204, 206, 304, 400, 401, 403, 404, 405, 408, 410, 418, 451, 500, 502, 503, 504, 599, 999])
    return Script([answer(code, rng.choice([b"", b"<html>no</html>", _game_body(rng)]))])


@kind("redirect")
def _redirect(rng: random.Random) -> Script:
    location = rng.choice(["http://evil.example.net/wf/game/1/", "/wf/elsewhere/", "", "\u0000", "x" * 5000])
    status = rng.choice([301, 302, 303, 307, 308])
    return Script([answer(status, b"", {"Location": location.encode().decode("latin-1")})])


@kind("rate limited")
def _rate_limited(rng: random.Random) -> Script:
    value = rng.choice(["-5", "nan", "NaN", "inf", "-inf", "1e999", "", "soon", "99999999999999", "3", "0.5",
                        "Wed, 21 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2099 07:28:00 GMT", "Thu, 99 Foo 0000"])
    return Script([answer(429, b"", {"Retry-After": value})])


@kind("broken body")
def _broken(rng: random.Random) -> Script:
    game = _game_body(rng)
    body = rng.choice([
        b"[" * rng.choice([2_000, 100_000]),
        b'{"status": "success", "content": {"game": ' + b"[" * 50_000,
        game[: rng.randrange(1, len(game))],
        b"\xff\xfe" + game,
        b"\xef\xbb\xbf" + game,
        b"<html><body>Service unavailable</body></html>",
        b"",
        b"null",
        b'{"status": "success", "content": []}',
        b'{"status": "success", "content": {"game": []}}',
        b'{"status": "maybe", "content": {}}',
        b'{"status": "error", "content": {"type": ' + json.dumps("x" * 10_000).encode() + b"}}",
        b'{"status": "error", "content": {"type": "illegal_word", "message": "' + SESSION.encode() + b'"}}',
        b'{"status": "success", "content": {"game": {"id": ' + b"9" * 5_000 + b"}}}",
        game.replace(b'"updated": ', b'"updated": NaN, "x": '),
    ])
    return Script([answer(200, body)])


@kind("lying length")
def _lying(rng: random.Random) -> Script:
    game = _game_body(rng)
    headers = {"Content-Length": rng.choice(["99999999999", "-1", "abc", "1e3", str(len(game) + 10)])}
    return Script([answer(200, game, headers, length=False)])


@kind("odd headers")
def _headers(rng: random.Random) -> Script:
    headers = rng.choice([
        {"Set-Cookie": "sessionid=" + "x" * 5000},
        {"Set-Cookie": "sessionid=\"; DROP TABLE"},
        {"Set-Cookie": "sessionid=a b c; sessionid=d"},
        {"Content-Encoding": "gzip"},
        {"Transfer-Encoding": "chunked"},
        {f"X-{n}": "y" for n in range(300)},
        {"X-Long": "z" * 70_000},
    ])
    return Script([answer(200, _game_body(rng), headers)])


@kind("garbage")
def _garbage(rng: random.Random) -> Script:
    return Script([rng.choice([b"", b"garbage\r\n\r\n", b"HTTP/1.1 200\r\n", b"HTTP/9.9 200 OK\r\n\r\n{}",
                               b"\x00" * 100, b"SSH-2.0-OpenSSH\r\n"])])


@kind("drip")
def _drip(rng: random.Random) -> Script:
    full = answer(200, _game_body(rng))
    start = rng.randrange(len(full))
    return Script([full[:start], Drip(full[start:], 0.05)])


@kind("silence")
def _silence(rng: random.Random) -> Script:
    return Script([Hold()])


class ScriptedServer(HostileServer):
    """A hostile server whose scripts are drawn per connection from the current case's generator."""

    def __init__(self) -> None:
        super().__init__(Script([]))
        self.draw: Callable[[], Script] = lambda: Script([])

    def next_script(self) -> Script:
        super().next_script()  # counts the connection
        return self.draw()


def run_transport_census(cases: int, seed: int, *, bound: float = 5.0) -> Census:
    """``cases`` seeded cases, each a turn of the bot against a server answering every connection with
    a hostile answer (or a valid one); counts decisions, typed errors, untyped exceptions and hangs."""
    rng = random.Random(seed)
    census = Census()
    names = sorted(ANSWERS)
    server = ScriptedServer()
    with server:
        for _ in range(cases):
            weights = {name: 1.0 for name in names}
            weights.update(drip=0.4, silence=0.4)  # each costs a whole deadline: fewer, to keep the run short
            weights["a valid game"] = rng.choice([0.0, 3.0, 20.0])  # some cases mostly answer well
            chosen: list[str] = []

            def draw() -> Script:
                name = rng.choices(names, [weights[n] for n in names])[0]  # noqa: B023 - drawn within this case
                chosen.append(name)  # noqa: B023
                return ANSWERS[name](rng)

            server.draw = draw
            store = Store(":memory:")
            turns = turn_player(server.base_url, store, timeout=TIMEOUT, attempts=ATTEMPTS)
            started = time.perf_counter()
            outcome, detail, _ = outcome_of(functools.partial(turns.play, GAME_ID), bound)
            census.counts[outcome] += 1
            if outcome in ("untyped", "hang"):
                census.note(outcome, f"{chosen}: {detail}")
            store.close()
            census.slowest_ms = max(census.slowest_ms, (time.perf_counter() - started) * 1000)
        census.submissions = sum(1 for r in server.received if r.target.endswith(("/move/", "/swap/", "/pass/")))
    return census


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.hostile.transport",
        description="Play seeded hostile HTTP answers from a server on 127.0.0.1 to the bot's turn logic and "
        "count decisions, typed errors, untyped exceptions and hangs.",
    )
    parser.add_argument("--cases", type=int, default=400, help="cases to run (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the answers (default 1)")
    parser.add_argument("--bound", type=float, default=10.0, help="seconds after which a case counts as a hang")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    census = run_transport_census(args.cases, args.seed, bound=args.bound)
    for line in census.lines():
        print(line.replace(", outside the rules 0", "").replace("submissions", "writes sent"))
    print(f"took {time.perf_counter() - started:.1f} s")
    return 1 if census.defects else 0


if __name__ == "__main__":
    sys.exit(main())
