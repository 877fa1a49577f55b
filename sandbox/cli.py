"""``python -m sandbox`` (also ``wordfeud-bot sandbox``): run the local Wordfeud-compatible server until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from dictionaries.registry import LexiconRegistry
from engine.errors import LexiconError
from sandbox.faults import KINDS, Faults
from sandbox.server import SandboxServer
from sandbox.state import State
from sandbox.store import Store


def main(argv: list[str] | None = None, prog: str = "python -m sandbox") -> int:
    """Parse the options, start the server and serve until interrupted; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Run a local Wordfeud-compatible server on 127.0.0.1 (API under /wf/). It creates a player account "
            "for your bot and a house player that answers every move, starts a game between them on the "
            "chosen ruleset, and prints the accounts."
        ),
    )
    parser.add_argument("--port", type=int, default=8080, help="port to listen on (default 8080; 0 picks a free one)")
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset of the first game (default 5, English)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bags and of the faults (default 1)")
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="KIND=RATE",
        help=f"inject a fault into this share of requests, e.g. http_503=0.1; kinds: {', '.join(KINDS)}",
    )
    parser.add_argument(
        "--db", type=Path, help="keep the state in this SQLite file (default: in memory); games survive a restart"
    )
    args = parser.parse_args(argv)
    rates: dict[str, float] = {}
    for spec in args.fault:
        kind, _, rate = spec.partition("=")
        try:
            rates[kind] = float(rate)
        except ValueError:
            parser.error(f"--fault {spec!r}: expected KIND=RATE with RATE a number between 0 and 1")
    try:
        faults = Faults(rates, seed=args.seed)
    except ValueError as exc:
        parser.error(f"--fault: {exc}")
    registry = LexiconRegistry()
    try:
        registry.get(args.ruleset)
    except LexiconError as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        return 1
    state = State(registry.get, time.time, seed=args.seed)
    store = Store(args.db) if args.db else None
    if store is not None and store.load_into(state):
        player = next(u for u in state.users.values() if u.username == "player")
        house = next(u for u in state.users.values() if u.id in state.house)
        print(f"sandbox: state loaded from {args.db} ({len(state.games)} games)")
    else:
        player = state.add_user("player", "player@sandbox.local", "player-password")
        house = state.add_user("house", "house@sandbox.local", "house-password")
        state.house.add(house.id)
        state.new_game(player, house, args.ruleset)
        if store is not None:
            store.save(state)
    game = next(g for g in state.games.values() if player.id in g.players)
    try:
        server = SandboxServer(state, port=args.port, faults=faults, store=store)
    except OSError as exc:
        print(f"sandbox: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"sandbox serving {server.base_url}")
    print(f"  account: email {player.email}  username {player.username}  password player-password  id {player.id}")
    print(f"  house player: {house.username} (id {house.id}) answers every move")
    print(f"  game {game.id}: ruleset {game.game.rules.id}; Ctrl-C stops the server")
    if rates:
        print("  faults: " + ", ".join(f"{kind} {rate:.0%}" for kind, rate in rates.items()))
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nsandbox stopped")
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
