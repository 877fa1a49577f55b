"""``checkout:PATH:SPEC``: the strategy of another checkout, over a pipe (offline/arena/checkout.py and the server
it starts, offline/arena/strategyserver.py).

"Another checkout" is this one here, seen through a temporary directory (``engine`` and ``.venv``
linked to this repository's and this interpreter's), so the checkout strategy must play exactly the
moves of the same strategy in process. The failures are played by fake checkouts: a ``.venv/bin/python``
that is a shell script answering what the test wrote for it, or an ``engine`` whose strategy never answers.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.board.move import Move, Placement
from engine.equity.strategy import Situation, Strategy
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.players.arena import GameRecord, play_pair
from engine.players.registry import strategy_named
from offline.arena.checkout import (
    SERVER_SCRIPT,
    CheckoutStrategy,
    arena_strategy,
    check_strategy_name,
    close_servers,
    warm_up,
)
from offline.arena.strategyserver import rule_numbers
from offline.errors import CheckoutError
from tests.lexicons import EN, english

ROOT = Path(__file__).resolve().parents[3]
WAIT = 120  # seconds: generous, never reached when the code is right


@pytest.fixture(autouse=True)
def _servers_ended() -> Iterator[None]:
    """Every test ends the servers it started (the next one starts its own)."""
    yield
    close_servers()


@pytest.fixture(scope="module")
def small() -> Dawg:
    """The English words of up to 4 letters: games of a few hundred milliseconds, the server's lexicon at once."""
    return Dawg.build([word for word in english().words() if len(word) <= 4], EN.alphabet)


def link_venv(checkout: Path) -> None:
    """``checkout/.venv``: this interpreter's venv (or, outside one, a bin/python that is this interpreter)."""
    if sys.prefix != sys.base_prefix:
        (checkout / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    else:
        (checkout / ".venv" / "bin").mkdir(parents=True)
        (checkout / ".venv" / "bin" / "python").symlink_to(sys.executable)


@pytest.fixture
def this_checkout(tmp_path: Path) -> Path:
    """This repository as another checkout: its engine and this test's Python."""
    checkout = tmp_path / "this"
    checkout.mkdir()
    (checkout / "engine").symlink_to(ROOT / "engine", target_is_directory=True)
    link_venv(checkout)
    return checkout


def essence(records: tuple[GameRecord, ...]) -> list[tuple[object, ...]]:
    return [(r.seed, r.seat_of_a, r.scores, r.bingos, r.swaps, r.moves) for r in records]


def decisions(strategy: Strategy, reference: Strategy, lexicon: Dawg, seed: int) -> list[tuple[list[Move], list[Move]]]:
    """A game the reference plays on both seats; at every turn the two strategies' best three moves."""
    game = Game(EN, lexicon, random.Random(seed))
    seen: list[tuple[list[Move], list[Move]]] = []
    while not game.is_over:
        seat = game.current
        last = game.history[-1].action if game.history and game.history[-1].player != seat else None
        situation = Situation(
            game.board, game.rack, EN, lexicon, tuple(game.unseen(seat)), len(game.bag),
            (game.scores[seat], game.scores[1 - seat]), game.scoreless_turns,
            last if isinstance(last, Placement) else None,
        )  # fmt: skip
        mine, theirs = strategy.best(situation, 3), reference.best(situation, 3)
        seen.append((mine, theirs))
        game.play(theirs[0])
    return seen


@pytest.mark.parametrize("seed", [3, 8])
def test_this_checkout_over_the_pipe_plays_what_equity_plays_in_process(
    this_checkout: Path, small: Dawg, seed: int
) -> None:
    name = f"checkout:{this_checkout}:equity"
    remote = arena_strategy(name)
    assert isinstance(remote, CheckoutStrategy) and remote.name == name
    seen = decisions(remote, strategy_named("equity"), small, seed)
    assert len(seen) > 20 and all(mine == theirs for mine, theirs in seen)  # the endgame's turns as well
    greedy = strategy_named("greedy")
    over_the_pipe = play_pair(remote, greedy, EN, small, seed)
    in_process = play_pair(strategy_named("equity"), greedy, EN, small, seed)
    assert essence(over_the_pipe) == essence(in_process)
    assert over_the_pipe[0].scores != over_the_pipe[1].scores  # two different games, both compared


def test_a_budget_and_a_ranking_go_over_the_pipe(this_checkout: Path, small: Dawg) -> None:
    remote = arena_strategy(f"checkout:{this_checkout}:equity+endgame").budgeted(0.5)
    game = Game(EN, small, random.Random(5))
    situation = Situation(game.board, game.rack, EN, small, tuple(game.unseen(0)), len(game.bag))
    local = strategy_named("equity+endgame").budgeted(0.5)
    assert remote.best(situation, 5) == local.best(situation, 5)
    placements = generate(game.board, game.rack, small, EN)
    assert remote.rank(situation, placements) == local.rank(situation, placements)


def test_a_spec_the_other_checkout_does_not_know_is_named(this_checkout: Path) -> None:
    with pytest.raises(
        CheckoutError, match=rf"checkout {this_checkout} does not know the strategy 'nonsense': unknown"
    ):
        check_strategy_name(f"checkout:{this_checkout}:nonsense")


def test_a_path_that_is_no_checkout_is_named(tmp_path: Path) -> None:
    with pytest.raises(CheckoutError, match=rf"checkout {tmp_path}/missing: no such directory"):
        arena_strategy(f"checkout:{tmp_path}/missing:sim")
    with pytest.raises(CheckoutError, match=rf"checkout {tmp_path} is not a checkout of this project"):
        arena_strategy(f"checkout:{tmp_path}:sim")
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "strategy.py").write_text("", encoding="utf-8")
    with pytest.raises(CheckoutError, match=rf"checkout {tmp_path} has no {tmp_path}/.venv/bin/python: set it up"):
        check_strategy_name(f"checkout:{tmp_path}:sim")
    with pytest.raises(CheckoutError, match=r"expected checkout:PATH:SPEC"):
        check_strategy_name(f"checkout:{tmp_path}")


def fake_checkout(tmp_path: Path, script: str) -> Path:
    """A checkout whose ``.venv/bin/python`` is a shell script (it ignores the server's arguments)."""
    checkout = tmp_path / "fake"
    (checkout / "engine").mkdir(parents=True)
    (checkout / "engine" / "strategy.py").write_text("", encoding="utf-8")
    python = checkout / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n" + textwrap.dedent(script), encoding="utf-8")
    python.chmod(0o755)
    return checkout


def scripted(tmp_path: Path, *answers: str, then: str = "") -> Path:
    """A fake server that reads a request before each answer, in order, then runs ``then``."""
    lines = []
    for index, answer in enumerate(answers):
        (tmp_path / f"answer-{index}").write_text(answer + "\n", encoding="utf-8")
        lines.append(f"read request; cat {tmp_path}/answer-{index}")
    return fake_checkout(tmp_path, "\n".join([*lines, "read request", then]) + "\n")


HELLO = json.dumps({"protocol": 1, "strategy": "equity", "engine": "fake"})


def lexicon_answer() -> str:
    return json.dumps({"table": 0, "rules": rule_numbers(EN)})


def first_move(checkout: Path, lexicon: Dawg) -> None:
    game = Game(EN, lexicon, random.Random(1))
    situation = Situation(game.board, game.rack, EN, lexicon, tuple(game.unseen(0)), len(game.bag))
    arena_strategy(f"checkout:{checkout}:equity").best(situation, 1)


def test_a_server_that_dies_at_the_start_is_named_with_its_last_words(tmp_path: Path) -> None:
    checkout = fake_checkout(tmp_path, "echo 'no engine here' >&2\nexit 3\n")
    with pytest.raises(CheckoutError, match=r"ended \(exit status 3; its last words: no engine here\) at the start"):
        check_strategy_name(f"checkout:{checkout}:sim")


def test_a_server_that_dies_in_a_move_is_named_with_the_position(tmp_path: Path, small: Dawg) -> None:
    checkout = scripted(tmp_path, HELLO, lexicon_answer(), then="echo 'Segmentation fault' >&2; exit 139")
    with pytest.raises(CheckoutError) as caught:
        first_move(checkout, small)
    message = str(caught.value)
    assert f"the strategy server of checkout {checkout} (equity) ended (exit status 139" in message
    assert "Segmentation fault) at the position with rack " in message and "scores 0-0, board ....." in message


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("this is no JSON", r"answered garbage at the position with rack \S+, 90 in the bag.*b'this is no JSON\\n'"),
        ('{"moves": [{"kind": "jump"}]}', r"answered garbage for a move at the position .*'kind': 'jump'"),
        ('{"moves": []}', r"answered no move at the position with rack"),
        (
            '{"moves": [{"kind": "place", "tiles": [[0, 0, 0]], "direction": 0, "score": 2}]}',
            r"\(equity\) answered an illegal move \(.+\) at the position with rack",
        ),
        ('{"moves": [{"kind": "swap", "tiles": []}]}', r"answered an illegal swap \(\) at the position"),
        ('{"error": "KeyError: 3"}', r"\(equity\) failed at the position with rack .*: KeyError: 3"),
    ],
    ids=["no-json", "no-move-kind", "no-moves", "illegal-placement", "empty-swap", "error"],
)
def test_a_bad_answer_to_a_move_is_named_with_the_checkout_and_position(
    tmp_path: Path, small: Dawg, answer: str, expected: str
) -> None:
    checkout = scripted(tmp_path, HELLO, lexicon_answer(), answer)
    with pytest.raises(CheckoutError, match=rf"checkout {checkout}.*{expected}"):
        first_move(checkout, small)


def test_other_rules_on_the_other_side_are_refused(tmp_path: Path, small: Dawg) -> None:
    other = json.loads(lexicon_answer())
    other["rules"]["rack_size"] = 8
    checkout = scripted(tmp_path, HELLO, json.dumps(other))
    with pytest.raises(CheckoutError, match=r"plays ruleset 5 with rack_size 8, here it is 7"):
        first_move(checkout, small)


# -- the end of the arena ends the servers ---------------------------------------------------------

STUCK_STRATEGY = '''
"""A strategy module whose one strategy tells the test its pid through a FIFO, then never answers."""
import os
import threading


class Situation:
    def __init__(self, **fields):
        self.__dict__.update(fields)


class Stuck:
    name = "stuck"

    def best(self, situation, k):
        with open(os.environ["CHECKOUT_TEST_FIFO"], "w") as fifo:
            fifo.write(f"{os.getpid()}\\n")
        threading.Event().wait(600)
        os._exit(99)


def strategy_named(name):
    return Stuck()
'''

# the real lexicon is built from the words sent over, as the server does it, without the build's seconds
FAST_DAWG = """
import hashlib


class Dawg:
    def __init__(self, words):
        self.words = words
        self.checksum = hashlib.sha256(b"".join(bytes(word) + b"\\xff" for word in words)).digest()

    def __len__(self):
        return len(self.words)

    @classmethod
    def build(cls, words, alphabet):
        return cls(sorted(set(words)))
"""


def stuck_checkout(tmp_path: Path) -> Path:
    """A checkout whose engine is this one but for the strategy (stuck in its first move) and the lexicon."""
    checkout = tmp_path / "stuck"
    engine = checkout / "engine"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text(f"__path__.append({str(ROOT / 'engine')!r})\n", encoding="utf-8")
    for package, module, text in [
        ("players", "registry", STUCK_STRATEGY), ("equity", "strategy", STUCK_STRATEGY), ("lexicon", "dawg", FAST_DAWG)
    ]:  # each package this checkout's own, with the rest of it found in this one's
        (engine / package).mkdir()
        path = str(ROOT / "engine" / package)
        (engine / package / "__init__.py").write_text(f"__path__.append({path!r})\n", encoding="utf-8")
        (engine / package / f"{module}.py").write_text(text, encoding="utf-8")
    link_venv(checkout)
    return checkout


def ended_within(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` (not a child of this one) ends within ``seconds``, waited for without polling."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([handle], [], [], seconds)[0])
    finally:
        os.close(handle)


@pytest.mark.parametrize(
    ("sig", "workers"),
    [(signal.SIGTERM, 1), (signal.SIGINT, 1), (signal.SIGTERM, 2)],
    ids=["SIGTERM-in-process", "SIGINT-in-process", "SIGTERM-worker-processes"],
)
def test_a_stopped_arena_leaves_no_server_behind(tmp_path: Path, sig: signal.Signals, workers: int) -> None:
    checkout = stuck_checkout(tmp_path)
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    ready = os.open(fifo, os.O_RDWR)  # never blocks; the stuck strategy's line arrives on it
    command = ["-m", "cli.main", "arena", f"checkout:{checkout}:stuck", "greedy", "--pairs", "2"]
    arena = subprocess.Popen(
        [sys.executable, *command, "--workers", str(workers), "--work", str(tmp_path / "work")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "CHECKOUT_TEST_FIFO": str(fifo)},
    )  # fmt: skip
    try:
        if not select.select([ready], [], [], WAIT)[0]:
            arena.kill()
            pytest.fail(f"no server got to a move: {arena.communicate(timeout=WAIT)}")
        server = int(os.read(ready, 64).split()[0])
        arena.send_signal(sig)
        _, err = arena.communicate(timeout=WAIT)
    finally:
        os.close(ready)
        if arena.poll() is None:
            arena.kill()
            arena.communicate(timeout=WAIT)
    assert arena.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], err
    gone = ended_within(server, WAIT)
    if not gone:
        os.kill(server, signal.SIGKILL)  # the test failed: it leaves no process behind itself
    assert gone
    assert "Traceback" not in err and f"stopped by {sig.name}" in err


def test_the_warm_up_sends_the_lexicon_before_the_first_move(this_checkout: Path, small: Dawg) -> None:
    remote = arena_strategy(f"checkout:{this_checkout}:greedy")
    assert isinstance(remote, CheckoutStrategy)
    warm_up((strategy_named("greedy"), remote), EN, small)
    from offline.arena import checkout as module  # noqa: PLC0415 - the registry of this process's servers

    server = module._SERVERS[remote.checkout]
    assert [table for _, table in server.tables.values()] == [0]


def test_the_server_finds_the_names_of_a_checkout_from_before_the_packages(tmp_path: Path) -> None:
    """A checkout older than the packages by concern (2026-12-07) has flat modules (``engine/strategy.py``):
    the server, run in that checkout's Python, takes its names from there."""
    old = tmp_path / "old"
    (old / "engine").mkdir(parents=True)
    (old / "engine" / "__init__.py").write_text("", encoding="utf-8")
    (old / "engine" / "strategy.py").write_text("def strategy_named(name):\n    return 'flat ' + name\n", "utf-8")
    probe = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('server', {str(SERVER_SCRIPT)!r})\n"
        "server = importlib.util.module_from_spec(spec); spec.loader.exec_module(server)\n"
        "print(server._engine('players.registry', 'strategy', 'strategy_named')('equity'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(old)}  # -S below: not this environment's engine, found by its install
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe], cwd=old, env=env, capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "flat equity"
