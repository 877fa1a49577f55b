"""``python -m sandbox.lab.heldpage``: whether ``/healthz`` answers while idle connections hold the status page.

In this one process: the daemon's status server (``bot.views.status``, its default limits: 16 connections,
a 10 s read timeout) on 127.0.0.1 with a healthy ``Health``. ``--idle`` (16) connections that send nothing are
opened and each is closed and opened again every ``--renew-seconds`` (10), as a client that means to hold the
page does; meanwhile ``/healthz`` is asked ``--checks`` (80) times, every ``--every-seconds`` (0.5), each on a
new connection with a ``--timeout`` (1 s, Kubernetes' default) as a liveness probe does. Printed: how many
checks were answered 200, 503, or not at all.

A lab tool, not a test: it takes real time (80 checks: 40 s). Exit status 0 when every check was answered
200, 1 otherwise, 2 on bad options.
"""

from __future__ import annotations

import argparse
import http.client
import socket
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from bot.arguments import at_least
from bot.play.health import Health
from bot.views.status import StatusServer, StatusSettings


def hold(address: tuple[str, int], count: int, renew: float, stop: threading.Event) -> None:
    """Keep ``count`` connections that send nothing open, each renewed every ``renew`` seconds."""
    held: list[socket.socket] = []
    try:
        while not stop.is_set():
            for sock in held:
                sock.close()
            held = [socket.create_connection(address) for _ in range(count)]
            stop.wait(renew)
    finally:
        for sock in held:
            sock.close()


def check(address: tuple[str, int], timeout: float) -> str:
    """One liveness check: the status code, or why there is none."""
    connection = http.client.HTTPConnection(*address, timeout=timeout)
    try:
        connection.request("GET", "/healthz")
        answer = connection.getresponse()
        answer.read()
        return str(answer.status)
    except (OSError, http.client.HTTPException) as exc:
        return f"no answer ({type(exc).__name__})"
    finally:
        connection.close()


def measure(idle: int, renew: float, checks: int, every: float, timeout: float) -> Counter[str]:
    """The checks' outcomes while ``idle`` connections renewed every ``renew`` seconds hold the page."""
    with tempfile.TemporaryDirectory() as scratch:
        health = Health(interval=3600.0)  # healthy for the whole run: any 503 is the page being held
        with StatusServer(StatusSettings("127.0.0.1", 0), Path(scratch) / "state.db", health) as status:
            where = urlsplit(status.url)
            address = (where.hostname or "127.0.0.1", where.port or 80)
            stop = threading.Event()
            holder = threading.Thread(target=hold, args=(address, idle, renew, stop), daemon=True)
            holder.start()
            time.sleep(0.2)  # the idle connections are in before the first check
            outcomes: Counter[str] = Counter()
            try:
                for _ in range(checks):
                    started = time.monotonic()
                    outcomes[check(address, timeout)] += 1
                    time.sleep(max(0.0, every - (time.monotonic() - started)))
            finally:
                stop.set()
                holder.join()
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox.lab.heldpage", description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=at_least(1), default=16, help="connections that send nothing (16)")
    parser.add_argument("--renew-seconds", type=float, default=10.0, help="each idle connection reopened (10)")
    parser.add_argument("--checks", type=at_least(1), default=80, help="/healthz checks (80)")
    parser.add_argument("--every-seconds", type=float, default=0.5, help="between checks (0.5)")
    parser.add_argument("--timeout", type=float, default=1.0, help="of one check (1.0)")
    args = parser.parse_args(argv)
    if args.renew_seconds <= 0 or args.every_seconds <= 0 or args.timeout <= 0:
        parser.error(
            f"--renew-seconds {args.renew_seconds}, --every-seconds {args.every_seconds} and --timeout "
            f"{args.timeout} must be above 0"
        )
    outcomes = measure(args.idle, args.renew_seconds, args.checks, args.every_seconds, args.timeout)
    print(
        f"{args.idle} idle connections renewed every {args.renew_seconds:g} s; {args.checks} /healthz checks "
        f"every {args.every_seconds:g} s: " + ", ".join(f"{outcome}: {n}" for outcome, n in sorted(outcomes.items()))
    )
    return 0 if outcomes["200"] == args.checks else 1


if __name__ == "__main__":
    raise SystemExit(main())
