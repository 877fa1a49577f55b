"""``python -m sandbox.lab.soak``: the bot daemon against a faulty sandbox, killed and restarted at seeded
moments, until every game is over; then the sandbox file says whether any game action was sent twice.

It runs ``python -m sandbox --db FILE --games N`` with every fault kind switched on at modest rates
and ``python -m cli.main run`` as subprocesses on 127.0.0.1 only, stops the bot with SIGKILL (and
sometimes SIGTERM, which must end it with status 0 within a bound), and may SIGKILL the sandbox too
(it keeps its state in the file). Each child's output goes to a log file in the work directory.
The exit status is 1 if a game did not finish, a duplicate was found, or the bot misbehaved.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO

from bot.arguments import at_least
from sandbox.faults import KINDS
from sandbox.store import SubmissionReport, submission_report

#: Share of requests that get each fault: modest (about one request in ten in all), so that games move
#: on despite the client's back-off; ``apply_then_fail`` most, as it is the one that tempts a client to
#: play twice.
FAULT_RATES = {
    "http_500": 0.01,
    "http_502": 0.01,
    "http_503": 0.01,
    "slow": 0.01,
    "drop": 0.01,
    "non_json": 0.01,
    "expire": 0.01,
    "apply_then_fail": 0.03,
}
assert set(FAULT_RATES) == set(KINDS), "every fault kind is switched on"
#: Seconds the sandbox has to print its account.
START_SECONDS = 60.0
#: Times the bot may exit on its own before the soak gives up on it.
MAX_OWN_EXITS = 5
_PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


class SoakError(Exception):
    """The soak cannot go on (a child did not start); the message says which and why."""


@dataclass(frozen=True)
class Options:
    """What to run: see ``build_parser`` for each."""

    games: int = 10
    seed: int = 1
    kills: int = 6
    sandbox_kills: int = 1
    sigterm_share: float = 0.3
    kill_gap: float = 10.0
    time_limit: float = 600.0
    term_timeout: float = 20.0
    port: int = 0


@dataclass
class Tally:
    """What the soak did and saw; ``problems`` are bot misbehaviours, each one line."""

    bot_starts: int = 0
    sigkills: int = 0
    sigterms: int = 0  # mid-run; the final one is not counted
    sandbox_kills: int = 0
    own_exits: int = 0
    problems: list[str] = field(default_factory=list)


def free_port() -> int:
    """A port free on 127.0.0.1 now (the sandbox keeps it across its restarts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def bot_config(base_url: str, state: Path) -> str:
    """The bot's configuration for a soak: quick polls, short timeouts and quarantine, its own state file."""
    return (
        "[api]\n"
        f"base_url = {json.dumps(base_url)}\n"
        "timeout_seconds = 1.0\nretry_attempts = 4\nretry_seconds = 5.0\n\n"
        "[schedule]\npoll_seconds = 0.2\njitter_seconds = 0.1\nquarantine_seconds = 0.5\n\n"
        "[invites]\nrulesets = [5]\n\n"
        f"[store]\npath = {json.dumps(str(state))}\n\n"
        '[logging]\nlevel = "INFO"\n'
    )


def child_env(work: Path, secrets: dict[str, str]) -> dict[str, str]:
    """The children's environment: no proxy (127.0.0.1 only), no secret or data directory of the
    user's, the soak's own secrets."""
    env = {k: v for k, v in os.environ.items() if k not in _PROXY_VARIABLES and not k.startswith("WORDFEUD_")}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["WORDFEUD_BOT_DATA"] = str(work / "data")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(secrets)
    return env


class Child:
    """A subprocess whose output (stdout and stderr) is appended to a log file and kept in part for excerpts."""

    def __init__(self, name: str, log_path: Path, on_line: Callable[[str], None] | None = None) -> None:
        self.name = name
        self.log_path = log_path
        self.on_line = on_line
        self.process: subprocess.Popen[str] | None = None
        self.tail: deque[str] = deque(maxlen=40)
        self.ended = threading.Event()  # the output of the current run has ended
        self.runs = 0
        #: One line per traceback in the output (a bug: the exception, and the line logged before it).
        self.tracebacks: list[str] = []

    def start(self, argv: list[str], env: dict[str, str]) -> None:
        self.runs += 1
        self.ended = threading.Event()
        root = Path(__file__).resolve().parents[2]  # `-m sandbox` and `-m cli` from this checkout
        self.process = subprocess.Popen(
            argv, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
        )
        assert self.process.stdout is not None
        thread = threading.Thread(target=self._copy, args=(self.process.stdout, self.runs, self.ended), daemon=True)
        thread.start()

    def _copy(self, stream: IO[str], run: int, ended: threading.Event) -> None:
        """Copy one run's output to the log, noting tracebacks: ``Traceback ...``, indented frames, then
        the exception's line, told with the line logged before it."""
        before, in_traceback = "", False
        with self.log_path.open("a", encoding="utf-8") as log:
            log.write(f"===== {self.name} run {run} =====\n")
            for line in stream:
                log.write(line)
                log.flush()
                text = line.rstrip("\n")
                self.tail.append(text)
                if text.startswith("Traceback (most recent call last)"):
                    in_traceback = True
                elif in_traceback and not text.startswith((" ", "\t")):
                    in_traceback = False
                    self.tracebacks.append(f"{self.name} run {run}: {text.strip()} (logged after: {before.strip()})")
                if not in_traceback:
                    before = text
                if self.on_line is not None:
                    self.on_line(text)
        ended.set()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, sig: signal.Signals) -> None:
        if self.alive:
            assert self.process is not None
            self.process.send_signal(sig)

    def wait(self, seconds: float) -> int | None:
        """The exit status, waiting up to ``seconds`` (and then for the last of the output); None if it
        still runs."""
        if self.process is None:
            return None
        try:
            status = self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            return None
        self.ended.wait(5)
        return status

    def kill(self) -> None:
        """SIGKILL and reap (nothing if not running)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.ended.wait(5)  # the last lines are in the log

    def excerpt(self, lines: int = 12) -> list[str]:
        return [f"    {self.name}| {line}" for line in list(self.tail)[-lines:]]


class Soak:
    """One soak run in a work directory; use as a context manager: the children die on every exit path."""

    def __init__(self, options: Options, work: Path, say: Callable[[str], None]) -> None:
        self.options = options
        self.work = work
        self.db = work / "sandbox.db"
        self.rng = random.Random(options.seed)
        self.tally = Tally()
        self.port = options.port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/wf/"
        self.secrets: dict[str, str] = {}
        self.sandbox_bugs: list[str] = []  # the sandbox's own "internal_error" log lines
        self._ready = threading.Event()
        self.sandbox = Child("sandbox", work / "sandbox.log", self._sandbox_line)
        self.bot = Child("bot", work / "bot.log")
        self._say = say
        self._started = time.monotonic()

    def __enter__(self) -> Soak:
        return self

    def __exit__(self, *exc: object) -> None:
        self.bot.kill()
        self.sandbox.kill()

    def say(self, text: str) -> None:
        self._say(f"[{time.monotonic() - self._started:6.1f} s] {text}")

    # -- the children ---------------------------------------------------------------------------

    def _sandbox_line(self, line: str) -> None:
        words = line.split()
        if line.startswith("  account:") and "email" in words and "password" in words:
            self.secrets = {
                "WORDFEUD_EMAIL": words[words.index("email") + 1],
                "WORDFEUD_PASSWORD": words[words.index("password") + 1],
            }
        if line.startswith("  games:"):
            self._ready.set()
        if "sandbox bug" in line:
            self.sandbox_bugs.append(line.strip())

    def start_sandbox(self) -> None:
        """Start (or restart, on the same port and file) the sandbox and wait until it serves."""
        self._ready.clear()
        faults = [f"--fault={kind}={rate}" for kind, rate in FAULT_RATES.items()]
        seed = self.options.seed * 1000 + self.sandbox.runs  # a new fault sequence after a restart
        argv = [sys.executable, "-m", "sandbox", "--db", str(self.db), "--games", str(self.options.games)]
        argv += ["--port", str(self.port), "--seed", str(seed), "--slow-seconds", "2", *faults]
        self.sandbox.start(argv, child_env(self.work, {}))
        deadline = time.monotonic() + START_SECONDS
        while not self._ready.wait(0.1):
            if self.sandbox.ended.is_set() or time.monotonic() > deadline:
                self.sandbox.kill()
                raise SoakError("the sandbox did not start:\n" + "\n".join(self.sandbox.excerpt()))

    def start_bot(self) -> None:
        config = self.work / "bot.toml"
        if not config.exists():
            config.write_text(bot_config(self.base_url, self.work / "bot-state.sqlite3"), encoding="utf-8")
        argv = [sys.executable, "-m", "cli", "run", "--config", str(config)]  # cli.entry: signals from the start
        self.bot.start(argv, child_env(self.work, self.secrets))
        self.tally.bot_starts += 1

    # -- the run ------------------------------------------------------------------------------

    def report(self) -> SubmissionReport:
        return submission_report(self.db)

    def progress(self) -> str:
        report = self.report()
        return f"games {report.games - len(report.running)}/{report.games} over, {report.submissions} submissions"

    def run(self) -> SubmissionReport:
        """Play until every game is over or the time limit passes; the final report of the sandbox file."""
        options = self.options
        self.start_sandbox()
        self.say(f"sandbox serving {self.base_url} ({options.games} games, every fault kind on), files in {self.work}")
        self.start_bot()
        self.say(f"bot started (pid {self.bot.process.pid if self.bot.process else '?'})")
        bot_kills, sandbox_kills = options.kills, options.sandbox_kills
        next_event = time.monotonic() + self._gap()
        finished = 0
        while True:
            self._note_tracebacks()
            report = self.report()
            if report.games - len(report.running) > finished:
                finished = report.games - len(report.running)
                self.say(f"games {finished}/{report.games} over, {report.submissions} submissions")
            if not report.running:
                self.say(f"all {report.games} games are over")
                break
            if time.monotonic() - self._started > options.time_limit:
                running = ", ".join(map(str, report.running))
                self._problem(f"time limit of {options.time_limit:g} s passed; games still running: {running}")
                break
            self._revive_sandbox()
            if not self.bot.alive:
                self._own_exit()
                if self.tally.own_exits > MAX_OWN_EXITS:
                    self._problem(f"the bot exited on its own {self.tally.own_exits} times: giving up")
                    break
                self.start_bot()
            elif time.monotonic() >= next_event and bot_kills + sandbox_kills:
                if sandbox_kills and self.rng.random() < sandbox_kills / (bot_kills + sandbox_kills):
                    sandbox_kills -= 1
                    self._kill_sandbox()
                else:
                    bot_kills -= 1
                    self._stop_bot(final=False)
                    self.start_bot()
                next_event = time.monotonic() + self._gap()
            self.bot.wait(0.25)  # wakes at once if the bot exits
        self.stop_children()
        return self.report()

    def stop_children(self) -> None:
        """The end of a run: the final SIGTERM of the bot (it must exit 0 in time), SIGINT to the sandbox
        (SIGKILL if it has not exited 10 s later), then the tracebacks of their last output."""
        if self.bot.alive:
            self._stop_bot(final=True)
        self.sandbox.send(signal.SIGINT)
        if self.sandbox.wait(10) is None:
            self.sandbox.kill()
        self._note_tracebacks()

    def _revive_sandbox(self) -> None:
        """A sandbox that exited on its own is a problem; it is started again on its file."""
        if not self.sandbox.alive:
            self._problem(f"the sandbox exited on its own with status {self.sandbox.wait(0)}", self.sandbox)
            self.start_sandbox()

    def _note_tracebacks(self) -> None:
        """Tracebacks in the children's output are problems (the bot must log failures in one line)."""
        for child in (self.bot, self.sandbox):
            while child.tracebacks:
                self._problem("traceback: " + child.tracebacks.pop(0), child, excerpt=False)
        while self.sandbox_bugs:
            self._problem(self.sandbox_bugs.pop(0), self.sandbox, excerpt=False)

    def _gap(self) -> float:
        return self.rng.uniform(0.3, 2 * self.options.kill_gap - 0.3)

    def _problem(self, text: str, child: Child | None = None, *, excerpt: bool = True) -> None:
        self.tally.problems.append(text)
        self.say("PROBLEM: " + text)
        for line in (child or self.bot).excerpt() if excerpt else []:
            self._say(line)

    def _own_exit(self) -> None:
        status = self.bot.wait(0)
        self.tally.own_exits += 1
        self._problem(f"the bot exited on its own with status {status} (run {self.bot.runs}); restarting it")

    def _stop_bot(self, *, final: bool) -> None:
        """SIGKILL, or SIGTERM (always at the end) which must end the bot with status 0 in time."""
        if not final and self.rng.random() >= self.options.sigterm_share:
            self.bot.kill()
            self.tally.sigkills += 1
            self.say(f"SIGKILL bot run {self.bot.runs}; {self.progress()}")
            return
        self.tally.sigterms += 0 if final else 1
        sent = time.monotonic()
        self.bot.send(signal.SIGTERM)
        status = self.bot.wait(self.options.term_timeout)
        took = time.monotonic() - sent
        what = "final SIGTERM" if final else "SIGTERM"
        if status is None:
            self.bot.kill()
            self._problem(f"{what}: bot run {self.bot.runs} still ran {self.options.term_timeout:g} s later")
        elif status != 0:
            self._problem(f"{what}: bot run {self.bot.runs} exited with status {status} after {took:.1f} s")
        else:
            self.say(f"{what} bot run {self.bot.runs}: exited 0 after {took:.1f} s; {self.progress()}")

    def _kill_sandbox(self) -> None:
        self.sandbox.kill()
        self.tally.sandbox_kills += 1
        self.say(f"SIGKILL sandbox run {self.sandbox.runs}")
        self.start_sandbox()
        self.say(f"sandbox restarted from its file; {self.progress()}")


def summary(report: SubmissionReport, tally: Tally, seconds: float) -> list[str]:
    """The closing lines: games, submissions, duplicates, kills, problems."""
    outcomes = ", ".join(f"{kind} {count}" for kind, count in sorted(report.outcomes.items()))
    lines = [
        f"games finished: {report.games - len(report.running)} of {report.games}",
        f"bot submissions: {report.submissions}" + (f" ({outcomes})" if outcomes else ""),
        f"duplicate submissions: {len(report.duplicates)}",
        f"kills: {tally.sigkills} SIGKILL and {tally.sigterms} SIGTERM of the bot mid-run, then the final SIGTERM "
        f"({tally.bot_starts} bot starts); {tally.sandbox_kills} SIGKILL of the sandbox",
        f"time: {seconds:.1f} s",
    ]
    lines += [f"  duplicate: {line.strip()}" for line in report.lines()[4:]]
    lines += [f"problem: {problem}" for problem in tally.problems]
    return lines


def passed(report: SubmissionReport, tally: Tally) -> bool:
    """Every game over, no duplicate, no bot misbehaviour."""
    return not report.running and not report.duplicates and not tally.problems


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sandbox.lab.soak",
        description="Soak the bot daemon against a faulty sandbox on 127.0.0.1: kill and restart it (and the "
        "sandbox) at seeded random moments until every game is over, then count duplicate submissions in the "
        "sandbox file. Exit 0 if every game finished with no duplicate and the bot behaved, 1 if not, "
        "2 on bad options or if a child could not start.",
    )
    parser.add_argument("--games", type=at_least(1), default=10, help="games against the house (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill moments and of the faults (default 1)")
    parser.add_argument(
        "--kills", type=at_least(0), default=6, help="times the bot is stopped and restarted (default 6)"
    )
    parser.add_argument(
        "--sandbox-kills", type=at_least(0), default=1, help="times the sandbox is killed and restarted (default 1)"
    )
    parser.add_argument(
        "--sigterm-share",
        type=float,
        default=0.3,
        help="share of the bot's stops done with SIGTERM (it must exit 0 within --term-timeout) instead of "
        "SIGKILL (default 0.3); the bot is always stopped with SIGTERM at the end",
    )
    parser.add_argument(
        "--kill-gap",
        type=float,
        help="mean seconds between two kills (default: 1 per game, so that the kills spread over the run)",
    )
    parser.add_argument(
        "--time-limit", type=float, default=600.0, help="give up after this many seconds in all (default 600)"
    )
    parser.add_argument(
        "--term-timeout", type=float, default=20.0, help="seconds the bot has to exit after SIGTERM (default 20)"
    )
    parser.add_argument("--port", type=int, default=0, help="port of the sandbox (default 0: a free one)")
    add_keep_option(parser)
    return parser


def add_keep_option(parser: argparse.ArgumentParser) -> None:
    """``--keep DIR``: where a soak's files go (``work_directory``)."""
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="keep the files (sandbox.db, bot state, config, logs) in DIR, which must be empty or new; "
        "without it a temporary directory is used, removed after a run that passed",
    )


def work_directory(parser: argparse.ArgumentParser, keep: Path | None, prefix: str) -> Path:
    """The soak's files' directory: ``--keep DIR`` (made if new; a usage error if it is not empty), else a
    new temporary one whose name starts with ``prefix``."""
    if keep is None:
        return Path(tempfile.mkdtemp(prefix=prefix))
    if keep.exists() and any(keep.iterdir()):
        parser.error(f"--keep {keep}: the directory is not empty")
    keep.mkdir(parents=True, exist_ok=True)
    return keep


def run_and_report(
    name: str, heading: str, work: Path, keep: Path | None, body: Callable[[], tuple[bool, list[str]]]
) -> int:
    """Run a soak's ``body`` (it returns whether the soak passed, and its closing lines) with SIGTERM
    unwinding it (the children are killed on the way out), then print the verdict and the lines.

    The work directory is removed after a pass unless it was ``--keep``'s. Exit status: 0 passed,
    1 failed, 2 when the soak could not go on (SoakError, said on stderr as ``NAME: ...``)."""
    previous = signal.signal(signal.SIGTERM, _terminate)
    ok = False
    try:
        ok, lines = body()
    except SoakError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)
        if keep is None and ok:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{name} {'PASSED' if ok else 'FAILED'} ({heading})")
    print("\n".join(lines))
    if not ok:
        print(f"files kept in {work}")
    return 0 if ok else 1


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # unwinds through the Soak context: the children are killed


def main(argv: list[str] | None = None) -> int:
    """Run a soak; the exit status says whether it passed."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 0 <= args.sigterm_share <= 1:
        parser.error(f"--sigterm-share {args.sigterm_share} must be between 0 and 1")
    if args.kill_gap is None:
        args.kill_gap = 1.0 * args.games
    if min(args.kill_gap, args.time_limit, args.term_timeout) <= 0.3:
        parser.error("--kill-gap, --time-limit and --term-timeout must be more than 0.3 seconds")
    work = work_directory(parser, args.keep, "wordfeud-soak-")
    names = ("games", "seed", "kills", "sandbox_kills", "sigterm_share", "kill_gap", "time_limit", "term_timeout")
    options = Options(port=args.port, **{name: getattr(args, name) for name in names})
    started = time.monotonic()

    def body() -> tuple[bool, list[str]]:
        with Soak(options, work, lambda text: print(text, flush=True)) as soak:
            report = soak.run()
        lines = summary(report, soak.tally, time.monotonic() - started)
        return passed(report, soak.tally), lines

    return run_and_report("soak", f"seed {args.seed}", work, args.keep, body)


if __name__ == "__main__":
    sys.exit(main())
