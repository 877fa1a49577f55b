"""``python -m sandbox.lab.memsoak --minutes M``: the bot daemon with ``sim`` against a faulty sandbox for a
given time, its resources printed every minute, to show that nothing grows without a bound.

It runs ``python -m sandbox --db FILE`` with every fault kind switched on (the rates of ``sandbox.lab.soak``)
and ``python -m cli.main run`` with the ``sim`` strategy on 127.0.0.1 only, the bot keeping ``--games``
games going with random opponents (the sandbox's house player answers every move), so that it decides
moves for as long as the soak runs. The bot is never killed, so its memory is one process's. Every
``--every`` seconds it prints the bot's resident memory (RSS), its open files, the size of its state
file (with SQLite's journal files) and of its log, and the games and submissions so far, the first time
once the bot has submitted its first move (its start-up done). At the end it
stops the bot with SIGTERM (it must exit 0), then prints the figures at the start, after 10 minutes and
at the end, the duplicate submissions in the sandbox file and the tracebacks in either log. Exit status
0 when there was no duplicate, no traceback and the bot stopped cleanly; 1 otherwise; 2 on bad options.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sandbox.lab.soak import Options, Soak, SoakError, add_keep_option, child_env, run_and_report, work_directory

#: Seconds the bot has to exit after the final SIGTERM.
TERM_SECONDS = 30.0


@dataclass(frozen=True)
class Sample:
    """The bot's resources at one moment."""

    seconds: float
    rss_kb: int
    open_files: int
    state_bytes: int
    log_bytes: int
    games_over: int
    submissions: int

    def line(self) -> str:
        return (
            f"{self.seconds / 60:5.1f} min  RSS {self.rss_kb / 1024:6.1f} MB  open files {self.open_files:3d}  "
            f"state {self.state_bytes / 1024:8.1f} KB  log {self.log_bytes / 1024:8.1f} KB  "
            f"games over {self.games_over:4d}  submissions {self.submissions:5d}"
        )


def rss_kb(pid: int) -> int:
    """The process's resident memory in KB (``VmRSS`` of ``/proc/PID/status``)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SoakError(f"process {pid} has no VmRSS")


def open_files(pid: int) -> int:
    """The process's open file descriptors (sockets included)."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def file_bytes(path: Path) -> int:
    """Size of a SQLite file with its ``-wal`` and ``-journal`` files, or of any file (0 when missing)."""
    total = 0
    for suffix in ("", "-wal", "-journal"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            total += part.stat().st_size
    return total


def memsoak_config(base_url: str, state: Path, games: int) -> str:
    """The bot's configuration: ``sim``, random games kept going, short timeouts and quarantine."""
    return (
        "[api]\n"
        f"base_url = {json.dumps(base_url)}\n"
        "timeout_seconds = 1.0\nretry_attempts = 4\nretry_seconds = 5.0\n\n"
        "[schedule]\npoll_seconds = 2.0\njitter_seconds = 0.5\nquarantine_seconds = 0.5\n\n"
        f'[random_games]\nkeep = {games}\nrulesets = [5]\nboard_type = "random"\n\n'
        "[invites]\nrulesets = [5]\n\n"
        '[play]\nstrategy = "sim"\n\n'
        f"[store]\npath = {json.dumps(str(state))}\n\n"
        '[logging]\nlevel = "INFO"\n'
    )


class MemSoak(Soak):
    """A soak without kills: one bot process for the whole time, sampled every ``every`` seconds."""

    def __init__(
        self, options: Options, work: Path, say: Callable[[str], None], *, seconds: float, every: float
    ) -> None:
        super().__init__(options, work, say)
        self.seconds = seconds
        self.every = every
        self.state = work / "bot-state.sqlite3"
        self.samples: list[Sample] = []

    def __enter__(self) -> MemSoak:
        return self

    def start_bot(self) -> None:
        config = self.work / "bot.toml"
        config.write_text(memsoak_config(self.base_url, self.state, self.options.games), encoding="utf-8")
        argv = [sys.executable, "-m", "cli.main", "run", "--config", str(config)]
        self.bot.start(argv, child_env(self.work, self.secrets))
        self.tally.bot_starts += 1

    def sample(self) -> Sample:
        assert self.bot.process is not None
        pid = self.bot.process.pid
        report = self.report()
        return Sample(
            time.monotonic() - self._started,
            rss_kb(pid),
            open_files(pid),
            file_bytes(self.state),
            file_bytes(self.bot.log_path),
            report.games - len(report.running),
            report.submissions,
        )

    def run_for(self) -> None:
        """Play for ``seconds``, sampling; then stop the bot with SIGTERM and the sandbox."""
        self.start_sandbox()
        self.say(f"sandbox serving {self.base_url} (every fault kind on), files in {self.work}")
        self.start_bot()
        self.say(f"bot started (pid {self.bot.process.pid if self.bot.process else '?'}), strategy sim")
        # the first sample once the bot plays (its first submission), or after one interval at most
        next_sample = time.monotonic() + self.every
        end = time.monotonic() + self.seconds
        while True:
            if not self.samples and self.report().submissions:
                next_sample = time.monotonic()
            self._note_tracebacks()
            self._revive_sandbox()
            if not self.bot.alive:
                self._problem(f"the bot exited on its own with status {self.bot.wait(0)}")
                break
            now = time.monotonic()
            if now >= next_sample:
                taken = self.sample()
                self.samples.append(taken)
                self._say(taken.line())
                next_sample = now + self.every
                if now >= end:
                    break
            self.bot.wait(min(1.0, max(0.05, next_sample - time.monotonic())))
        self.stop_children()


def at(samples: list[Sample], seconds: float) -> Sample:
    """The first sample taken at or after ``seconds`` (else the last one)."""
    return next((s for s in samples if s.seconds >= seconds), samples[-1])


def closing(soak: MemSoak) -> list[str]:
    """The summary: resources at the start, after 10 minutes and at the end; duplicates, tracebacks."""
    report = soak.report()
    samples = soak.samples
    lines = []
    if samples:
        first, ten, last = samples[0], at(samples, 600.0), samples[-1]
        peak = max(s.rss_kb for s in samples)
        lines.append(
            f"RSS: {first.rss_kb / 1024:.1f} MB at the start, {ten.rss_kb / 1024:.1f} MB after "
            f"{ten.seconds / 60:.1f} min, {last.rss_kb / 1024:.1f} MB at the end ({last.seconds / 60:.1f} min); "
            f"peak {peak / 1024:.1f} MB"
        )
        lines.append(f"open files: {first.open_files} at the start, {last.open_files} at the end")
        lines.append(f"state file: {last.state_bytes:,} bytes; log: {last.log_bytes:,} bytes at the end")
    lines.append(f"games finished: {report.games - len(report.running)} of {report.games}")
    lines.append(f"bot submissions: {report.submissions}")
    lines.append(f"duplicate submissions: {len(report.duplicates)}")
    tracebacks = sum(1 for problem in soak.tally.problems if problem.startswith("traceback"))
    lines.append(f"tracebacks: {tracebacks}")
    lines += [f"problem: {problem}" for problem in soak.tally.problems]
    return lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sandbox.lab.memsoak",
        description="Run the bot daemon with sim against a sandbox with every fault on for a given time, printing the "
        "bot's RSS, open files, state-file size and log size every minute; at the end the duplicate submissions and "
        "tracebacks. Exit 0 if there were none and the bot stopped cleanly, 1 if not, 2 on bad options.",
    )
    parser.add_argument("--minutes", type=float, required=True, help="how long to run")
    parser.add_argument("--games", type=int, default=3, help="games the bot keeps going at once (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sandbox's bags and faults (default 1)")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between two samples (default 60)")
    parser.add_argument("--port", type=int, default=0, help="port of the sandbox (default 0: a free one)")
    add_keep_option(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.every <= 0:
        parser.error("--minutes and --every must be more than 0")
    if not 1 <= args.games <= 20:
        parser.error(f"--games {args.games}: expected 1 to 20")
    work = work_directory(parser, args.keep, "wordfeud-memsoak-")
    options = Options(games=args.games, seed=args.seed, kills=0, sandbox_kills=0, term_timeout=TERM_SECONDS)
    options = Options(**{**options.__dict__, "port": args.port})

    def body() -> tuple[bool, list[str]]:
        with MemSoak(
            options, work, lambda text: print(text, flush=True), seconds=args.minutes * 60, every=args.every
        ) as soak:
            soak.run_for()
        lines = closing(soak)
        report = soak.report()
        return not report.duplicates and not soak.tally.problems, lines

    return run_and_report("memsoak", f"{args.minutes:g} min, seed {args.seed}", work, args.keep, body)


if __name__ == "__main__":
    sys.exit(main())
