"""``wordfeud-bot state check`` and ``wordfeud-bot state recover``: whether the state file is whole, and
what can be read of a damaged one, into a new file beside it (``bot.store.repair``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from bot.errors import ConfigError, StoreError
from bot.escapes import escaped
from bot.settings.config import BotConfig
from bot.store.repair import check, recover
from bot.store.state_file import plural_problems
from cli.exit_status import EXIT_CONFIG, EXIT_OK, fail

ConfigOf = Callable[[argparse.Namespace], BotConfig]

CHECK_TEXT = (
    "Run SQLite's full integrity check on the state file (--state, else store.path of the config), opened "
    "read-only and without the lock: exit 0 when it is whole, 2 (naming the first problems) when it is damaged. "
    "The services run the quicker check (PRAGMA quick_check) every time they open it."
)
RECOVER_TEXT = (
    "Read every row that can be read of a damaged state file, the decisions first, into a new state file "
    "beside it (default: FILE.recovered; an existing file is never written over), and say how many rows of "
    "each table were kept. The damaged file is only read. Then check the new file and put it in the old one's "
    "place yourself. Rows under a damaged page are lost; sqlite3 FILE .recover reads page by page and may find "
    "more."
)


def add_state_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], service: argparse.ArgumentParser, config_of: ConfigOf
) -> None:
    """Add ``state check`` and ``state recover``; ``config_of`` reads the configuration (``--config``)."""
    parser = commands.add_parser(
        "state",
        help="check the state file, or recover what can be read of a damaged one",
        description="Check the state database, or recover what can be read of a damaged one into a new file.",
    )
    actions = parser.add_subparsers(dest="state_command", required=True, metavar="ACTION", title="actions")
    checking = actions.add_parser(
        "check", parents=[service], help="run SQLite's full integrity check on the state file", description=CHECK_TEXT
    )
    checking.set_defaults(handler=lambda args: check_command(args, config_of))
    recovering = actions.add_parser(
        "recover",
        parents=[service],
        help="copy every row that can be read of a damaged state file into a new file beside it",
        description=RECOVER_TEXT,
    )
    recovering.add_argument(
        "--output", type=Path, metavar="FILE", help="the new state file (default: the state file's name + .recovered)"
    )
    recovering.set_defaults(handler=lambda args: recover_command(args, config_of))


def _state_path(args: argparse.Namespace, config_of: ConfigOf) -> Path:
    if args.state is not None:
        return Path(args.state).expanduser()
    return config_of(args).store.resolved()


def check_command(args: argparse.Namespace, config_of: ConfigOf) -> int:
    """``state check``: 0 when the file is whole, 2 when it is damaged or no state file."""
    try:
        path = _state_path(args, config_of)
        problems = check(path)
    except (ConfigError, StoreError) as exc:
        return fail("state check", str(exc), EXIT_CONFIG)
    if not problems:
        print(f"state file {escaped(str(path))}: whole (SQLite's integrity check: ok)")
        return EXIT_OK
    for problem in problems:
        print(f"  {escaped(problem)}")
    return fail(
        "state check",
        f"state file {path} is damaged ({plural_problems(problems)}, listed above); recover what can be read "
        f"into a new file with: wordfeud-bot state recover --state {path}",
        EXIT_CONFIG,
    )


def recover_command(args: argparse.Namespace, config_of: ConfigOf) -> int:
    """``state recover``: 0 when a new file was written, 2 when it could not be."""
    try:
        path = _state_path(args, config_of)
        if not path.is_file():
            raise StoreError(f"no state file {path} (see --state and store.path)")
        target = args.output if args.output is not None else path.with_name(path.name + ".recovered")
        report = recover(path, target)
    except (ConfigError, StoreError) as exc:
        return fail("state recover", str(exc), EXIT_CONFIG)
    counts = ", ".join(f"{count:,} {table}" for table, count in report.rows.items())
    print(f"recovered {report.total:,} rows into {target}: {counts}")
    gaps = {table: count for table, count in report.gaps.items() if count}
    if gaps:
        said = ", ".join(f"{table} ({count})" for table, count in gaps.items())
        print(f"damaged places skipped (the rows on them are lost): {said}")
    else:
        print("no table had a damaged place that a read met")
    print(
        f"{path} was left as it is. Check the new file, then put it in place while the bot is stopped:\n"
        f"  wordfeud-bot state check --state {target}\n  mv {path} {path}.damaged && mv {target} {path}",
        file=sys.stdout,
    )
    return EXIT_OK
