"""The strategy of another checkout of this project, served over a pipe (``offline.arena.checkout`` is the client).

    CHECKOUT/.venv/bin/python -I strategyserver.py CHECKOUT PARENT_PID [--cpu-clock]

runs under the other checkout's own Python and imports THAT checkout's ``engine`` (CHECKOUT first on
``sys.path``), so the arena can play an older (or newer) version of a strategy against today's. It reads
one JSON object a line on stdin and answers one a line on stdout:

* ``{"op": "hello", "spec": "sim"}``: the strategy by that name there; answers its name, engine path and
  clock (``"cpu"`` with ``--cpu-clock``: ``time.monotonic``, every strategy's clock, reads this process's
  CPU time, set before the engine is imported, so a time budget is thinking the load cannot cut).
* ``{"op": "lexicon", "ruleset": 5, "layout": [[...]], "start": [7, 7], "words": FILE, "checksum": HEX,
  "count": N}``: build the lexicon from FILE (every word's tile codes, each followed by a 0xFF byte: the
  bytes the lexicons' source checksum is taken over), after checking the file against the checksum and
  the count; answers a table number and the ruleset's numbers (the client compares them with its own).
* ``{"op": "best" | "rank", "table": T, "k": K, "budget": SECONDS | null, "board": [[r, c, tile]...],
  "rack": [...], "unseen": [...], "bag": N, "scores": [mine, theirs], "scoreless": N,
  "last": null | {"tiles": [...], "direction": D, "score": S}}``: the moves, best first.

Every failure is an answer ``{"error": TEXT}``; the loop ends at the end of stdin. Only the engine API
that every version of this project has is used (``Situation`` without ``game_id``, ``Dawg.build`` from
tile codes), and nothing but the standard library besides, so the file runs on any checkout's Python.
Whatever the engine prints goes to stderr: stdout carries the answers alone.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import json
import os
import signal
import sys
import time
from typing import Any, TextIO

PROTOCOL = 1
CPU_CLOCK_FLAG = "--cpu-clock"
_PR_SET_PDEATHSIG = 1


def use_cpu_clock() -> None:
    """Make ``time.monotonic`` this process's CPU time. Called before the engine is imported, so that the
    clocks its strategies and searches take by default (``clock=time.monotonic``, bound at import) count
    only the thinking of this process, whatever else the machine runs."""
    time.monotonic = time.process_time


def clock_name() -> str:
    """The clock this process's strategies read: "cpu" after ``use_cpu_clock``, else "wall"."""
    return "cpu" if time.monotonic is time.process_time else "wall"


def _end_with_parent(parent: int) -> None:
    """Linux: the kernel kills this process when the one that started it ends (a worker process ended by
    SIGTERM runs no clean-up, and a strategy in the middle of a long move reads no end of input)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the end of stdin is the only signal
        pass
    if os.getppid() != parent:  # the parent ended before the line above took effect
        os._exit(0)


def rule_numbers(rules: Any) -> dict[str, Any]:
    """The numbers of a ruleset that both sides of the pipe must share (the client compares them)."""
    alphabet = rules.alphabet
    return {
        "symbols": list(alphabet.symbols), "points": list(alphabet.points), "counts": list(alphabet.counts),
        "blanks": alphabet.blanks, "rack_size": rules.rack_size, "bingo_bonus": rules.bingo_bonus,
        "swap_min_bag": rules.swap_min_bag, "scoreless_turns_to_end": rules.scoreless_turns_to_end,
    }  # fmt: skip



def _engine(module: str, before: str, name: str) -> Any:
    """``name`` of the other checkout's ``engine.module``, or of ``engine.before`` in a checkout older than
    the engine's packages (2026-12-07), whose modules were flat."""
    try:
        found = importlib.import_module(f"engine.{module}")
    except ModuleNotFoundError:
        found = importlib.import_module(f"engine.{before}")
    return getattr(found, name)


class Server:
    """The other checkout's strategy, its lexicons by table number, and the moves it answers."""

    def __init__(self, checkout: str) -> None:
        self.checkout = checkout
        self.strategy: Any = None
        self.budgeted: dict[float, Any] = {}
        self.tables: list[tuple[Any, Any]] = []  # (rules, lexicon)

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "hello":
            return self.hello(str(request["spec"]))
        if self.strategy is None:
            return {"error": "no strategy yet: the first request must be hello"}
        if op == "lexicon":
            return self.lexicon(request)
        if op in ("best", "rank"):
            return {"moves": [_move_out(move) for move in self.moves(request, op)]}
        return {"error": f"unknown request {op!r}"}

    def hello(self, spec: str) -> dict[str, Any]:
        import engine  # noqa: PLC0415 - the other checkout's, imported once its path is first
        strategy_named = _engine("players.registry", "strategy", "strategy_named")

        where = os.path.abspath(os.path.dirname(engine.__file__ or ""))
        if os.path.dirname(where) != os.path.abspath(self.checkout):
            return {"error": f"imported the engine at {where}, not the one of {self.checkout}"}
        try:
            self.strategy = strategy_named(spec)
        except ValueError as error:
            return {"error": str(error), "unknown_spec": True}
        return {"protocol": PROTOCOL, "strategy": self.strategy.name, "engine": where, "clock": clock_name()}

    def lexicon(self, request: dict[str, Any]) -> dict[str, Any]:
        Dawg = _engine("lexicon.dawg", "dawg", "Dawg")  # noqa: N806 - the other checkout's class
        BoardLayout = _engine("rules.layout", "layout", "BoardLayout")  # noqa: N806
        Ruleset = _engine("rules.ruleset", "rules", "Ruleset")  # noqa: N806

        rules = Ruleset.for_id(int(request["ruleset"]))
        layout = BoardLayout(tuple(tuple(row) for row in request["layout"]), tuple(request["start"]))
        if layout != rules.layout:
            rules = rules.with_layout(layout)
        path, checksum, count = str(request["words"]), str(request["checksum"]), int(request["count"])
        with open(path, "rb") as file:
            data = file.read()
        if hashlib.sha256(data).hexdigest() != checksum:
            return {"error": f"the word file {path} does not match its checksum {checksum[:16]}"}
        words = [tuple(word) for word in data.split(b"\xff")[:-1]]
        lexicon = Dawg.build(words, rules.alphabet)
        if len(lexicon) != count or lexicon.checksum.hex() != checksum:
            built = f"the lexicon built from {path} has {len(lexicon)} words"
            return {"error": f"{built} (sent: {count}) or another checksum"}
        self.tables.append((rules, lexicon))
        return {"table": len(self.tables) - 1, "rules": rule_numbers(rules)}

    def moves(self, request: dict[str, Any], op: str) -> list[Any]:
        Board = _engine("board.board", "board", "Board")  # noqa: N806 - the other checkout's classes
        Direction = _engine("board.move", "move", "Direction")  # noqa: N806
        Placement = _engine("board.move", "move", "Placement")  # noqa: N806
        Rack = _engine("board.rack", "rack", "Rack")  # noqa: N806
        Situation = _engine("equity.strategy", "strategy", "Situation")  # noqa: N806
        generate = _engine("movegen.generate", "movegen", "generate")

        rules, lexicon = self.tables[int(request["table"])]
        board = Board(rules.alphabet)
        board.place(tuple(tuple(square) for square in request["board"]))
        last = request.get("last")
        situation = Situation(
            board=board,
            rack=Rack.from_bag_tiles(rules.alphabet, list(request["rack"])),
            rules=rules,
            lexicon=lexicon,
            unseen=tuple(request["unseen"]),
            bag_count=int(request["bag"]),
            scores=(int(request["scores"][0]), int(request["scores"][1])),
            scoreless=int(request["scoreless"]),
            last_play=None
            if last is None
            else Placement(tuple(tuple(t) for t in last["tiles"]), Direction(last["direction"]), last["score"]),
        )
        strategy = self.strategy
        budget = request.get("budget")
        if budget is not None:
            if float(budget) not in self.budgeted:
                self.budgeted[float(budget)] = strategy.budgeted(float(budget))
            strategy = self.budgeted[float(budget)]
        if op == "rank":
            return list(strategy.rank(situation, generate(board, situation.rack, lexicon, rules)))
        return list(strategy.best(situation, int(request["k"])))


def _move_out(move: Any) -> dict[str, Any]:
    tiles = getattr(move, "tiles", None)
    if tiles is None:
        return {"kind": "pass"}
    if hasattr(move, "direction"):
        placed = [list(t) for t in tiles]
        return {"kind": "place", "tiles": placed, "direction": int(move.direction), "score": move.score}
    return {"kind": "swap", "tiles": list(tiles)}


def serve(checkout: str, requests: TextIO, answers: TextIO) -> None:
    """Answer every request line until the end of ``requests``."""
    server = Server(checkout)
    for line in requests:
        try:
            reply = server.answer(json.loads(line))
        except Exception as error:  # every failure of the other code is an answer naming it
            reply = {"error": f"{type(error).__name__}: {error}"}
        answers.write(json.dumps(reply) + "\n")
        answers.flush()


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != CPU_CLOCK_FLAG):
        sys.stderr.write(f"usage: strategyserver.py CHECKOUT PARENT_PID [{CPU_CLOCK_FLAG}]\n")
        return 2
    checkout, parent = argv[0], int(argv[1])
    if len(argv) == 3:
        use_cpu_clock()
    _end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the arena's to handle
    sys.path.insert(0, os.path.abspath(checkout))
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # print() of the engine goes to stderr, never into the answers
    serve(checkout, sys.stdin, answers)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
