"""``checkout:PATH:SPEC``: the strategy SPEC of another checkout of this project, played over a pipe.

The arena plays strategies of the running code; to measure today's code against an older version (or
two branches against each other) this module starts ``offline/arena/strategyserver.py`` of THIS project under
the other checkout's own Python (``PATH/.venv/bin/python``, with PATH first on ``sys.path``, so the
strategy and its engine, leave values and settings are the other checkout's) and asks it for every
move. Each process has one server per checkout and strategy, started on its first move and ended with
the process: the end of its input ends the server's loop, and on Linux the kernel kills it when the
process that started it dies (a worker ended by a signal), so an interrupted arena leaves none behind.

Both sides play the same word list: before the first move of a lexicon the client writes the words it
plays with to a file, and the server builds its lexicon from them, after checking them against their
checksum; the ruleset's numbers (letters, points, counts, rack size...) must be the same on both sides.
Every move the server answers is checked here before the game sees it.

With the CPU clock (``arena --clock cpu``) every strategy, this checkout's too, plays in a server of its
own whose clock is that process's CPU time: a time budget then buys the same thinking however loaded the
machine is, and two timed strategies get equal time in a match run beside other work.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from engine.board.move import Direction, Move, Pass, Placement, Swap
from engine.equity.strategy import Situation, Strategy
from engine.errors import EngineError
from engine.lexicon.dawg import Dawg
from engine.movegen.score import validate
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import board_tile
from offline.arena.clairvoyance import is_seeing, seeing_strategy
from offline.arena.strategyserver import CPU_CLOCK_FLAG, rule_numbers
from offline.errors import CheckoutError

#: ``checkout:PATH:SPEC`` plays SPEC (a strategy name there, such as ``sim``) of the checkout at PATH.
CHECKOUT_PREFIX = "checkout:"
SERVER_SCRIPT = Path(__file__).with_name("strategyserver.py")
PROTOCOL = 1
#: What a strategy's time budget is counted on: the wall clock, or its own server process's CPU time.
CLOCKS = ("wall", "cpu")
#: This checkout, the one the arena runs, for ``--clock cpu`` (its strategies are served like another's).
THIS_CHECKOUT = Path(__file__).resolve().parents[2]
_STDERR_TAIL = 600  # characters of the server's stderr quoted when it fails


@dataclass(frozen=True)
class Checkout:
    """Where the other strategy lives: the checkout's directory, the strategy's name there, the Python
    that runs it (None: the checkout's own venv) and whether its clock is its server's CPU time."""

    root: Path
    spec: str
    interpreter: Path | None = None
    cpu_clock: bool = False

    @property
    def python(self) -> Path:
        return self.interpreter or self.root / ".venv" / "bin" / "python"


def parse_checkout(name: str) -> Checkout | None:
    """The checkout a strategy name ``checkout:PATH:SPEC`` asks for (None for other names); CheckoutError
    says what is wrong with PATH (no directory, not a checkout of this project, no built venv)."""
    if not name.startswith(CHECKOUT_PREFIX):
        return None
    path, colon, spec = name[len(CHECKOUT_PREFIX) :].partition(":")
    if not path or not colon or not spec:
        raise CheckoutError(
            f"strategy {name!r}: expected {CHECKOUT_PREFIX}PATH:SPEC, PATH a checkout of this project with its "
            "venv in PATH/.venv and SPEC a strategy name there, such as sim"
        )
    return checkout_at(path, spec)


def checkout_at(path: str, spec: str = "") -> Checkout:
    """The checkout of this project at ``path``; CheckoutError says what is wrong with it (no directory, not a
    checkout of this project, no built venv)."""
    root = Path(path).expanduser().absolute()
    if not root.is_dir():
        raise CheckoutError(f"checkout {path}: no such directory")
    # engine/equity/strategy.py since the packages by concern (2026-12-07), engine/strategy.py before
    if not any((root / "engine" / name).is_file() for name in ("equity/strategy.py", "strategy.py")):
        raise CheckoutError(f"checkout {path} is not a checkout of this project: it has no engine/equity/strategy.py")
    checkout = Checkout(root, spec)
    if not checkout.python.is_file():
        raise CheckoutError(
            f"checkout {path} has no {checkout.python}: set it up there with "
            "`python3 -m venv .venv && .venv/bin/pip install -e .`"
        )
    return checkout


def served_checkout(name: str, clock: str = "wall") -> Checkout | None:
    """The checkout that serves the strategy ``name`` (None: it plays in this process). On the wall clock
    only ``checkout:PATH:SPEC`` is served; on the CPU clock every strategy is, this checkout's by this
    Python, so that each thinks on its own process's CPU time."""
    if clock not in CLOCKS:
        raise CheckoutError(f"clock {clock!r}: expected one of {', '.join(CLOCKS)}")
    checkout = parse_checkout(name)
    if clock == "wall":
        return checkout
    if checkout is None:
        strategy_named(name)  # a name this checkout does not know fails here, as in process
        checkout = Checkout(THIS_CHECKOUT, name, interpreter=Path(sys.executable))
    return replace(checkout, cpu_clock=True)


def arena_strategy(name: str, clock: str = "wall") -> Strategy:
    """A strategy by name for the arena: ``checkout:PATH:SPEC`` or any name ``strategy_named`` knows, on
    the wall clock or (``clock="cpu"``) in a server of its own on that process's CPU time; or a seeing player,
    ``see:SIGHT:SPEC`` (``offline.arena.clairvoyance``, wall clock only)."""
    if is_seeing(name):
        return seeing_strategy(name, clock)
    checkout = served_checkout(name, clock)
    if checkout is None:
        return strategy_named(name)
    return CheckoutStrategy(name, checkout)


def check_strategy_name(name: str, clock: str = "wall") -> None:
    """Fail now on a name that could not play: for a served strategy, a server is started and asked for
    SPEC (a SPEC the other checkout does not know is a CheckoutError quoting its answer), then ended."""
    if is_seeing(name):
        seeing_strategy(name, clock)
        return
    checkout = served_checkout(name, clock)
    if checkout is None:
        strategy_named(name)
        return
    _Server(checkout).close()


def warm_up(strategies: tuple[Strategy, ...], rules: Ruleset, lexicon: Dawg) -> None:
    """Start the servers of the checkout strategies among ``strategies`` and send them the lexicon now, so
    that the seconds of that (the other side builds its lexicon) are not counted as a move's."""
    for strategy in strategies:
        if isinstance(strategy, CheckoutStrategy):
            _server_for(strategy.checkout).table(rules, lexicon)


class CheckoutStrategy:
    """The strategy of another checkout, through this process's server for it."""

    def __init__(self, name: str, checkout: Checkout, budget: float | None = None) -> None:
        self.name = name
        self.checkout = checkout
        self.budget = budget  # seconds a move, passed to the other strategy's ``budgeted``

    def best(self, situation: Situation, k: int) -> list[Move]:
        return self._ask("best", situation, k)

    def rank(self, situation: Situation, placements: object) -> list[Move]:
        """The other strategy's ranking over the placements it generates itself (with the same lexicon and
        rules they are these ``placements``)."""
        return self._ask("rank", situation, 0)

    def budgeted(self, seconds: float) -> Strategy:
        return CheckoutStrategy(self.name, self.checkout, seconds)

    def _ask(self, op: str, situation: Situation, k: int) -> list[Move]:
        server = _server_for(self.checkout)
        where = position_text(situation)
        table = server.table(situation.rules, situation.lexicon)
        last = situation.last_play
        reply = server.request(
            {
                "op": op,
                "table": table,
                "k": k,
                "budget": self.budget,
                "board": [list(square) for square in situation.board.tiles()],
                "rack": situation.rack.bag_tiles(),
                "unseen": list(situation.unseen),
                "bag": situation.bag_count,
                "scores": list(situation.scores),
                "scoreless": situation.scoreless,
                "last": None
                if last is None
                else {
                    "tiles": [list(t) for t in last.tiles],
                    "direction": int(last.direction),
                    "score": last.score,
                },
            },
            where,
        )
        moves = [server.move_in(answer, where) for answer in _list(reply.get("moves"))]
        if not moves:
            raise CheckoutError(f"checkout {self.checkout.root} answered no move at {where}")
        for move in moves:
            _check_legal(move, situation, f"checkout {self.checkout.root} ({self.checkout.spec})", where)
        return moves


def position_text(situation: Situation) -> str:
    """A position on one line: the rack, the bag, the scores and the board's rows."""
    board = "/".join(situation.board.text().splitlines())
    mine, theirs = situation.scores
    return (
        f"the position with rack {situation.rack.text()}, {situation.bag_count} in the bag, "
        f"scores {mine}-{theirs}, board {board}"
    )


def _check_legal(move: Move, situation: Situation, who: str, where: str) -> None:
    """CheckoutError naming the checkout and the position unless the game would accept ``move`` here."""
    try:
        if isinstance(move, Placement):
            validate(situation.board, move, situation.rack, situation.lexicon, situation.rules)
        elif isinstance(move, Swap):
            if not move.tiles or situation.bag_count < situation.rules.swap_min_bag:
                raise CheckoutError(f"{who} answered an illegal swap {move.tiles} at {where}")
            situation.rack.leave([board_tile(t) for t in move.tiles])
    except EngineError as error:
        raise CheckoutError(f"{who} answered an illegal move ({error}) at {where}") from None


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


class _Server:
    """One running strategy server: requests out, answers in, and its end."""

    def __init__(self, checkout: Checkout) -> None:
        self.checkout = checkout
        clock = ", on its CPU clock" if checkout.cpu_clock else ""
        self.who = f"the strategy server of checkout {checkout.root} ({checkout.spec}{clock})"
        self.owner = os.getpid()
        self.busy = False
        self.tables: dict[tuple[int, Ruleset], tuple[Dawg, int]] = {}  # by id(lexicon), which the value keeps
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
        command = [str(checkout.python), "-I", str(SERVER_SCRIPT), str(checkout.root), str(os.getpid())]
        if checkout.cpu_clock:
            command.append(CPU_CLOCK_FLAG)
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                env=env, start_new_session=True,  # a terminal's Ctrl-C is the arena's; the server follows it
            )  # fmt: skip
        except OSError as error:
            self.stderr.close()
            raise CheckoutError(f"cannot start {checkout.python}: {error.strerror or error}") from None
        try:
            hello = self.request({"op": "hello", "spec": checkout.spec}, "the start")
        except CheckoutError:
            self.close()
            raise
        if hello.get("protocol") != PROTOCOL:
            self.close()
            raise CheckoutError(f"{self.who} speaks protocol {hello.get('protocol')!r}, not {PROTOCOL}")
        wanted = "cpu" if checkout.cpu_clock else "wall"
        found = hello.get("clock", "wall")  # a server that names no clock reads the wall clock
        if found != wanted:
            self.close()
            raise CheckoutError(f"{self.who} thinks on the {found!r} clock, not the {wanted!r} one")

    def request(self, payload: dict[str, Any], where: str) -> dict[str, Any]:
        """The answer to one request; CheckoutError if the server ended, answered no JSON object or an error."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None  # both are pipes (Popen above)
        self.busy = True
        try:
            stdin.write(json.dumps(payload).encode() + b"\n")
            stdin.flush()
            line = stdout.readline()
        except (BrokenPipeError, ConnectionResetError):
            line = b""
        if not line:
            raise CheckoutError(f"{self.who} ended ({self._ending()}) at {where}")
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            raise CheckoutError(f"{self.who} answered garbage at {where}: {line[:200]!r}")
        self.busy = False
        if "error" in reply:
            if reply.get("unknown_spec"):
                raise CheckoutError(
                    f"checkout {self.checkout.root} does not know the strategy {self.checkout.spec!r}: {reply['error']}"
                )
            raise CheckoutError(f"{self.who} failed at {where}: {reply['error']}")
        return reply

    def table(self, rules: Ruleset, lexicon: Dawg) -> int:
        """The server's number for this lexicon and ruleset, sent to it on first use."""
        key = (id(lexicon), rules)
        if key in self.tables:
            return self.tables[key][1]
        data = b"".join(bytes(word) + b"\xff" for word in sorted(lexicon.words()))
        with tempfile.TemporaryDirectory(prefix="wordfeud-checkout-") as folder:
            words = Path(folder) / "words.bin"
            words.write_bytes(data)
            reply = self.request(
                {
                    "op": "lexicon",
                    "ruleset": rules.id,
                    "layout": [list(row) for row in rules.layout.codes],
                    "start": list(rules.layout.start),
                    "words": str(words),
                    "checksum": hashlib.sha256(data).hexdigest(),
                    "count": len(lexicon),
                },
                f"the lexicon of ruleset {rules.id} ({len(lexicon)} words)",
            )
        _same_rules(rules, reply.get("rules"), self.who)
        table = reply.get("table")
        if not isinstance(table, int):
            raise CheckoutError(f"{self.who} answered garbage for the lexicon: {reply!r:.200}")
        self.tables[key] = (lexicon, table)
        return table

    def move_in(self, answer: object, where: str) -> Move:
        """A move of an answer; CheckoutError (garbage) for anything else."""
        try:
            if not isinstance(answer, dict):
                raise TypeError("not an object")
            kind = answer["kind"]
            if kind == "pass":
                return Pass()
            if kind == "swap":
                return Swap(tuple(int(t) for t in answer["tiles"]))
            if kind == "place":
                tiles = tuple((int(r), int(c), int(t)) for r, c, t in answer["tiles"])
                score = answer.get("score")
                return Placement(tiles, Direction(int(answer["direction"])), None if score is None else int(score))
        except (KeyError, TypeError, ValueError):
            pass
        raise CheckoutError(f"{self.who} answered garbage for a move at {where}: {answer!r:.200}")

    def _ending(self) -> str:
        try:
            status = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return "closed its output"
        self.stderr.seek(0)
        tail = self.stderr.read().decode(errors="replace").strip()[-_STDERR_TAIL:]
        return f"exit status {status}" + (f"; its last words: {tail}" if tail else "")

    @property
    def alive(self) -> bool:
        return self.process.poll() is None and not self.busy

    def close(self) -> None:
        """End the server: at the end of its input when it is waiting for one, at once in a move."""
        if self.process.poll() is None:
            if self.busy:
                self.process.kill()
            else:
                assert self.process.stdin is not None
                self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                with contextlib.suppress(BrokenPipeError):  # what a dead server left unread is dropped
                    pipe.close()
        self.stderr.close()


def _same_rules(rules: Ruleset, theirs: object, who: str) -> None:
    mine = rule_numbers(rules)
    if not isinstance(theirs, dict):
        raise CheckoutError(f"{who} answered garbage for the rules of ruleset {rules.id}: {theirs!r:.200}")
    for field, value in mine.items():
        if theirs.get(field) != value:
            raise CheckoutError(
                f"{who} plays ruleset {rules.id} with {field} {theirs.get(field)!r}, here it is {value!r}"
            )


_SERVERS: dict[Checkout, _Server] = {}


def _server_for(checkout: Checkout) -> _Server:
    """This process's server for the checkout (a process started by fork has its own, not its parent's)."""
    server = _SERVERS.get(checkout)
    if server is None or server.owner != os.getpid() or not server.alive:
        if server is not None and server.owner == os.getpid():
            server.close()
        server = _SERVERS[checkout] = _Server(checkout)
    return server


@atexit.register
def close_servers() -> None:
    """End this process's servers (the ones a parent started are the parent's to end)."""
    for checkout, server in list(_SERVERS.items()):
        if server.owner == os.getpid():
            server.close()
            del _SERVERS[checkout]


__all__ = [
    "CHECKOUT_PREFIX",
    "CLOCKS",
    "Checkout",
    "CheckoutStrategy",
    "arena_strategy",
    "check_strategy_name",
    "checkout_at",
    "parse_checkout",
    "served_checkout",
    "warm_up",
]
