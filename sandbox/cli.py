"""``python -m sandbox`` (also ``wordfeud-bot sandbox``): run the local Wordfeud-compatible server until
Ctrl-C, or with ``--check``, report on a sandbox file's games and submissions."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from bot.arguments import at_least
from bot.stopping import Stopped, stop_signals
from dictionaries.registry import LexiconRegistry
from engine.errors import EngineError, LexiconError
from engine.rules.ruleset import Ruleset
from sandbox.faults import KINDS, Faults
from sandbox.server import READ_TIMEOUT, SandboxServer
from sandbox.state import NORMAL, RANDOM, State, fresh_first_id
from sandbox.store import Store, StoreFileError, submission_report

_count = at_least(0)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected more than 0 seconds, got {text}")
    return value


def _port(text: str) -> int:
    value = _count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {value}")
    return value


def _ruleset(text: str) -> int:
    try:
        return Ruleset.for_code(text).id
    except EngineError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser(prog: str) -> argparse.ArgumentParser:
    """The command's options."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Run a local Wordfeud-compatible server on 127.0.0.1 (API under /wf/). It creates a player account "
            "for your bot and a house player that answers every move, starts games between them on the "
            "chosen ruleset, and prints the accounts."
        ),
    )
    parser.add_argument("--port", type=_port, default=8080, help="port to listen on (default 8080; 0 picks a free one)")
    parser.add_argument(
        "--ruleset", type=_ruleset, default=5, help="ruleset id or code of the games started (default 5, en)"
    )
    parser.add_argument(
        "--games",
        type=_count,
        default=1,
        help="games to start between the player and the house (default 1); a state loaded from --db keeps its "
        "games and gets no new ones",
    )
    parser.add_argument(
        "--board", choices=(NORMAL, RANDOM), default=NORMAL, help="board of the games started (default normal)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the bags and of the faults (default 1)")
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="KIND=RATE",
        help=f"inject a fault into this share of requests, e.g. http_503=0.1; kinds: {', '.join(KINDS)}",
    )
    parser.add_argument(
        "--slow-seconds",
        type=_seconds,
        default=30.0,
        metavar="SECONDS",
        help="how long a request with the 'slow' fault is held (default 30)",
    )
    parser.add_argument(
        "--read-timeout",
        type=_seconds,
        default=READ_TIMEOUT,
        metavar="SECONDS",
        help=f"a request must arrive in whole within this time, else it is refused (default {READ_TIMEOUT:g})",
    )
    parser.add_argument(
        "--db", type=Path, help="keep the state in this SQLite file (default: in memory); games survive a restart"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="start no server: print the games and the game actions recorded in the --db file (submissions, "
        "by outcome, and duplicates: a move sent again, an action out of turn); exit 1 if there are duplicates, "
        "2 if the file holds no sandbox",
    )
    return parser


def check(path: Path, prog: str = "sandbox") -> int:
    """Print the report of a sandbox file; the exit status says whether it holds duplicates."""
    try:
        report = submission_report(path)
    except (FileNotFoundError, ValueError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(report.lines()))
    return 1 if report.duplicates else 0


def main(argv: list[str] | None = None, prog: str = "python -m sandbox") -> int:
    """Parse the options, start the server and serve until Ctrl-C or SIGTERM (its normal end: exit 0
    after one line); returns the exit status."""
    try:
        with stop_signals():
            return _run(argv, prog)
    except Stopped as stop:
        start = "\n" if sys.stdout.isatty() else ""  # after the ^C a terminal shows
        print(f"{start}sandbox stopped ({stop.name})", flush=True)
        return 0


def _run(argv: list[str] | None, prog: str) -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.check:
        if args.db is None:
            parser.error("--check needs --db FILE")
        return check(args.db, prog)
    rates: dict[str, float] = {}
    for spec in args.fault:
        kind, _, rate = spec.partition("=")
        try:
            rates[kind] = float(rate)
        except ValueError:
            parser.error(f"--fault {spec!r}: expected KIND=RATE with RATE a number between 0 and 1")
    try:
        faults = Faults(rates, seed=args.seed, slow_seconds=args.slow_seconds)
    except ValueError as exc:
        parser.error(f"--fault: {exc}")
    registry = LexiconRegistry()
    try:
        registry.get(args.ruleset)
    except LexiconError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    # ids no earlier start used (a bot's state file keys games and boards by id); --seed still fixes the bags
    first = fresh_first_id(time.time(), random.SystemRandom())
    state = State(registry.get, time.time, seed=args.seed, first_game_id=first, first_board_id=first)
    try:
        store = Store(args.db) if args.db else None
    except StoreFileError as exc:
        print(f"{prog}: --db {exc}", file=sys.stderr)
        return 2
    if store is not None and store.load_into(state):
        player = next(u for u in state.users.values() if u.username == "player")
        house = next(u for u in state.users.values() if u.id in state.house)
        print(f"sandbox: state loaded from {args.db} ({len(state.games)} games)")
    else:
        player = state.add_user("player", "player@sandbox.local", "player-password")
        house = state.add_user("house", "house@sandbox.local", "house-password")
        state.house.add(house.id)
        for _ in range(args.games):
            state.new_game(player, house, args.ruleset, args.board)
        if store is not None:
            store.save(state)
    try:
        server = SandboxServer(state, port=args.port, faults=faults, store=store, read_timeout=args.read_timeout)
    except OSError as exc:
        print(f"{prog}: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    games = [g for g in state.games.values() if player.id in g.players]
    running = sum(1 for g in games if not g.game.is_over)
    print(f"sandbox serving {server.base_url}")
    print(f"  account: email {player.email}  username {player.username}  password player-password  id {player.id}")
    print("  for the bot (paste into a shell; set api.base_url to the address above):")
    print(f"    export WORDFEUD_EMAIL={player.email}")
    print("    export WORDFEUD_PASSWORD=player-password")
    print(f"  house player: {house.username} (id {house.id}) answers every move")
    print(f"  games: {len(games)} ({running} running): {', '.join(str(g.id) for g in games)}; Ctrl-C stops the server")
    if rates:
        print("  faults: " + ", ".join(f"{kind} {rate:.0%}" for kind, rate in rates.items()))
    sys.stdout.flush()
    try:
        server.serve_forever()  # until a stop signal raises Stopped
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
