"""The ``wordfeud-bot`` command line (also ``python -m cli.main``).

Commands:

* ``demo``: the bot plays a whole game against a house player in a sandbox started in-process.
* ``run``: the daemon: poll the account, accept invites, play every game, until stopped.
* ``once``: one pass for cron; the exit status says what happened.
* ``replay GAME``: re-run the engine on a recorded game, from the state database.
* ``check-config``: load the configuration and the secrets, say what is wrong or what is set.
* ``selfplay``, ``arena``, ``learn-leaves``: the offline tools (``offline``), with no server; their
  arguments and handlers are in ``cli.offline``.
* ``dict build`` / ``dict list``: lexicons (``dictionaries.cli``); ``sandbox``: the local server.
* ``learned``: the words the server accepted that the lexicons lacked (``cli.learned``).
* ``state check`` / ``state recover``: whether the state file is whole, what can be read of a damaged one
  (``cli.state``).

``--version`` prints the package version and which move generator is active (``engine.native``);
``check-config`` prints the generator too, and the services log it once at start.

This module holds the service commands (``run``, ``once``, ``check-config``: configuration, secrets,
logging and the lock) with ``replay`` and ``demo``, and the parser that registers every command
group; the exit statuses are ``cli.exit_status``'s.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any, NoReturn

from bot.errors import (
    ApiError,
    BotError,
    ConfigError,
    LockedError,
    LoginRefusedError,
    StoreError,
    UnusableStateError,
)
from bot.escapes import escaped
from bot.logs import LogFile, open_log_file, setup_logging
from bot.play.app import build, registry_for
from bot.play.daemon import Daemon, Reloaded
from bot.play.health import Health
from bot.records.archive import game_over_hook
from bot.settings.checkconfig import settings_lines
from bot.settings.config import (
    BotConfig,
    LoggingConfig,
    exposure_warning,
    load_config,
    load_credentials,
    parse_listen,
    password_source,
)
from bot.stopping import Stopped, stop_requests, stop_signals, stopped_line
from bot.store.store import Store
from bot.views.commands import add_view_commands, game_list, open_state, plural, ruleset_id, write_replay_html
from bot.views.gcg import export_all, export_game, read_record, replay_lines, summary_lines
from bot.views.replay import replay
from bot.views.status import StatusServer, StatusSettings
from bot.views.terminal import wants_colour
from cli.demo import run_demo
from cli.exit_status import EXIT_AUTH, EXIT_CONFIG, EXIT_ERRORS, EXIT_LOCKED, EXIT_OK, fail
from cli.learned import add_learned_command
from cli.offline import add_offline_commands
from cli.state import add_state_commands
from dictionaries.cli import add_dict_commands
from dictionaries.registry import LexiconRegistry
from engine import native
from engine.errors import EngineError, LexiconError
from engine.players.registry import STRATEGIES, strategy_named
from sandbox.cli import main as sandbox_main

Handler = Callable[[argparse.Namespace], int]
log = logging.getLogger("bot")

CONFIG_VARIABLE = "WORDFEUD_BOT_CONFIG"


def version_text() -> str:
    """What ``--version`` prints: the package version, then which move generator is active and why."""
    try:
        number = package_version("wordfeud-bot")
    except PackageNotFoundError:
        number = "(version unknown: the package is not installed)"
    return f"wordfeud-bot {number}\n{native.describe()}"


class _VersionAction(argparse.Action):
    """``--version``: print ``version_text()`` as it is and exit 0.

    argparse's own version action refills the text as one paragraph, which would join the two lines."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> NoReturn:
        print(version_text())
        parser.exit()


def _strategy_name(text: str) -> str:
    """A strategy name argparse accepts only when the registry knows it (the message lists the names)."""
    try:
        strategy_named(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _config(args: argparse.Namespace) -> BotConfig:
    path = args.config or os.environ.get(CONFIG_VARIABLE)
    config = load_config(Path(path) if path else None)
    warning = exposure_warning(Path(path)) if path else None
    if warning is not None:
        print(f"wordfeud-bot {args.command}: warning: {warning}", file=sys.stderr)
    if getattr(args, "dry_run", False):
        config = config.model_copy(update={"play": config.play.model_copy(update={"dry_run": True})})
    return config


def _config_and_lexicons(args: argparse.Namespace) -> tuple[BotConfig, LexiconRegistry]:
    config = _config(args)
    return config, registry_for(config)


def _log_file(args: argparse.Namespace, config: BotConfig | None) -> LogFile | None:
    """The log file of ``--log-file`` (first) or ``logging.file``, rotated as ``logging`` says."""
    settings = config.logging if config is not None else LoggingConfig()
    path, source = (args.log_file, "--log-file") if args.log_file is not None else (settings.file, "logging.file")
    if path is None:
        return None
    return LogFile(path, settings.max_bytes, settings.backups, source)


_fail = fail  # the name the command groups are handed (``add_view_commands``)


def _service(args: argparse.Namespace, body: Callable[[BotConfig, argparse.Namespace], int]) -> int:
    """Load config and secrets, set up logging, take the lock, run ``body``; errors become exit statuses."""
    try:
        config = _config(args)
        credentials = load_credentials(config)
        redactor = setup_logging(config.logging.level, _log_file(args, config), verbose=args.verbose)
        game_over = game_over_hook(config.records.gcg_dir)
    except ConfigError as exc:
        return _fail(args.command, str(exc), EXIT_CONFIG)
    native.announce()
    try:
        wiring = build(config, credentials, redactor=redactor, store_path=args.state, game_over=game_over)
    except (ConfigError, StoreError) as exc:
        return _fail(args.command, str(exc), EXIT_CONFIG)
    try:
        with wiring.store.lock():
            args.wiring = wiring
            args.redactor = redactor
            return body(config, args)
    except LockedError as exc:
        return _fail(args.command, str(exc), EXIT_LOCKED)
    except UnusableStateError as exc:  # damaged pages met in the pass, a lock file it cannot write: not retried
        return _fail(args.command, str(exc), EXIT_CONFIG)
    except LoginRefusedError as exc:
        return _fail(args.command, f"login refused: {exc}", EXIT_AUTH)
    except (ApiError, StoreError, LexiconError) as exc:
        return _fail(args.command, str(exc), EXIT_ERRORS)
    finally:
        wiring.store.close()


def _once(config: BotConfig, args: argparse.Namespace) -> int:
    stop = threading.Event()
    with stop_requests(stop, "the game in progress") as request:  # a signal ends the pass after that game
        report = args.wiring.bot.run_pass(stop)
    stats = args.wiring.store.stats()
    print(
        f"pass done: {plural(report.acted, 'move')} submitted, {plural(len(report.accepted), 'invite')} accepted, "
        f"{len(report.rejected)} rejected, {plural(report.requested, 'random game')} requested, "
        f"{plural(report.running, 'game')} running, {plural(len(report.errors), 'error')}; "
        f"record: {plural(stats.wins, 'win')}, {plural(stats.losses, 'loss', 'losses')}, "
        f"{plural(stats.draws, 'draw')}"
    )
    if config.play.dry_run:
        would = sum(t.outcome == "dry_run" for t in report.turns) + len(report.withheld)
        print(f"dry run: nothing was sent ({plural(would, 'request')} withheld, see the log)")
    for problem in report.errors:
        print(f"  error: {escaped(problem)}", file=sys.stderr)
    if request.status is not None:
        print(f"wordfeud-bot once: stopped by {request.name} after the game in progress", file=sys.stderr)
        return request.status
    return EXIT_ERRORS if report.errors else EXIT_OK


#: What a SIGHUP does not change in a running daemon: these keys take effect at its next start.
_AT_START = ("store", "status", "logging")


def _reloader(config: BotConfig, args: argparse.Namespace) -> Callable[[], Reloaded | None]:
    """What ``run`` does on SIGHUP: read the configuration file and the secrets again and wire a new bot
    on the same state file; a problem is one log line naming it, and the configuration in use stays."""
    source = args.config or os.environ.get(CONFIG_VARIABLE) or "(no file: the defaults)"
    current = [config]

    def reload() -> Reloaded | None:
        try:
            new = _config(args)
            credentials = load_credentials(new)
            wiring = build(new, credentials, store=args.wiring.store, redactor=args.redactor)
        except (BotError, EngineError, ValueError, OSError) as exc:
            log.error("SIGHUP received: %s: %s; the configuration in use stays", source, exc)
            return None
        kept = [key for key in _AT_START if getattr(new, key) != getattr(current[0], key)]
        later = f" ({', '.join(f'[{key}]' for key in kept)} take effect at the next start)" if kept else ""
        current[0] = new
        said = f"SIGHUP received: configuration re-read from {source}; the next pass uses it{later}"
        return Reloaded(wiring.bot, new.schedule.poll_seconds, new.schedule.jitter_seconds, said)

    return reload


def _run(config: BotConfig, args: argparse.Namespace) -> int:
    schedule = config.schedule
    health = Health(schedule.poll_seconds + schedule.jitter_seconds, config.status.healthy_polls)
    daemon = Daemon(
        args.wiring.bot,
        poll_seconds=schedule.poll_seconds,
        jitter_seconds=schedule.jitter_seconds,
        health=health,
        reload=_reloader(config, args),
    )
    if config.status.listen is None:
        daemon.run()
        return EXIT_OK
    host, port = parse_listen(config.status.listen)
    status = config.status
    settings = StatusSettings(
        host,
        port,
        status.refresh_seconds,
        status.read_timeout_seconds,
        status.max_connections,
        frozenset(status.allowed_hosts),
    )
    try:
        server = StatusServer(settings, Path(args.wiring.store.path), health, args.redactor)
    except OSError as exc:
        return _fail("run", f"status.listen {config.status.listen}: cannot listen: {exc.strerror or exc}", EXIT_CONFIG)
    with server:  # the page lives exactly as long as the daemon
        daemon.run()
    return EXIT_OK


def once(args: argparse.Namespace) -> int:
    """One pass over the account (for cron)."""
    return _service(args, _once)


def run(args: argparse.Namespace) -> int:
    """The daemon. A stop signal is its normal end (exit 0, so that a service manager sees a clean
    stop): the daemon takes it while it polls; before it polls, nothing is under way to finish.
    SIGHUP re-reads the configuration (``_reloader``), as daemons do; it never stops ``run``."""
    try:
        return _service(args, _run)
    except Stopped as stop:
        print(stopped_line("wordfeud-bot run", stop), file=sys.stderr)
        return EXIT_OK


def check_config(args: argparse.Namespace) -> int:
    """Load the configuration and the secrets; print what is set (never a secret)."""
    try:
        config = _config(args)
        credentials = load_credentials(config)
        registry = registry_for(config)
        store_path = args.state or config.store.resolved()
        Store(store_path).close()
        log_file = _log_file(args, config)
        if log_file is not None:
            open_log_file(log_file).close()  # the file the daemon will write: it must open
    except (ConfigError, StoreError) as exc:
        return _fail("check-config", str(exc), EXIT_CONFIG)
    source = args.config or os.environ.get(CONFIG_VARIABLE) or "(no file: defaults)"
    print(f"config: {source}")
    print(f"account: {credentials.method} {credentials.login}; password: {password_source(config)}")
    print(f"server: {config.api.base_url}  timeout {config.api.timeout_seconds:g} s")
    print(f"state: {store_path}")
    for line in settings_lines(config, args.log_file):
        print(line)
    print(native.describe())
    print(f"poll: every {config.schedule.poll_seconds:g} s, jitter up to {config.schedule.jitter_seconds:g} s")
    invites = config.invites
    print(
        f"invites: {'accepted' if invites.accept else 'rejected'} for rulesets {invites.rulesets}, "
        f"boards {invites.board_types}, at most {invites.max_games} games"
    )
    problems = 0
    for ruleset in sorted(set(invites.rulesets) | set(config.random_games.rulesets)):
        usable, text = registry.check(ruleset)  # loaded: a truncated or corrupt file is a problem
        problems += not usable
        print(f"  ruleset {ruleset}: {text}" if usable else f"  ruleset {ruleset}: NO USABLE LEXICON: {text}")
    if config.play.dry_run:
        print("play.dry_run is on: moves are decided and logged; nothing that changes the server is sent")
    return EXIT_CONFIG if problems else EXIT_OK


def replay_command(args: argparse.Namespace) -> int:
    """Print the replay of a recorded game (or write it as HTML or GCG), list the recorded games, or play
    back a GCG file."""
    if args.gcg_dir is not None and (args.game is not None or args.gcg is not None):
        return _fail("replay", "--gcg-dir DIR writes every recorded game: give no GAME and no --gcg", EXIT_CONFIG)
    if args.gcg is not None and args.game is None:
        return _replay_gcg(args)
    try:
        config = _config(args)
        store = open_state(config, args.state)
    except (ConfigError, StoreError) as exc:
        return _fail("replay", str(exc), EXIT_CONFIG)
    try:
        if args.gcg_dir is not None:
            return EXIT_ERRORS if export_all(store, args.gcg_dir, print) else EXIT_OK
        if args.gcg is not None:
            print(export_game(store, args.game, args.gcg))
            return EXIT_OK
        if args.game is None:
            for entry in game_list(store):
                print(escaped(entry))
            return EXIT_OK
        strategy = strategy_named(args.strategy or config.play.strategy)
        lexicons = registry_for(config).get
        if args.html is not None:
            return write_replay_html(store, args.game, lexicons, strategy, args.html)
        lines = replay(store, args.game, lexicons, strategy)
    except (LookupError, EngineError, BotError, ValueError) as exc:
        return _fail("replay", str(exc), EXIT_ERRORS)
    finally:
        store.close()
    for line in lines:
        print(escaped(line.text))
    mismatches = sum(1 for line in lines if line.mismatch)
    print(f"{plural(len(lines), 'position')} checked, {plural(mismatches, 'score')} differ from the server's")
    return EXIT_ERRORS if mismatches else EXIT_OK


def _replay_gcg(args: argparse.Namespace) -> int:
    """``replay --gcg FILE``: a GCG record played back on the Wordfeud board of its ruleset."""
    try:
        config, registry = _config_and_lexicons(args)
        strategy = strategy_named(args.strategy or config.play.strategy)
    except (ConfigError, ValueError) as exc:
        return _fail("replay", str(exc), EXIT_CONFIG)
    try:
        imported = read_record(args.gcg, args.ruleset)
        lines = replay_lines(imported, registry.get(imported.rules.id), strategy)
    except (EngineError, BotError) as exc:
        return _fail("replay", str(exc), EXIT_ERRORS)
    for line in [*lines, *summary_lines(imported)]:
        print(escaped(line))
    return EXIT_OK


def demo(args: argparse.Namespace) -> int:
    """Bot against the house in an in-process sandbox."""
    try:
        setup_logging("WARNING", _log_file(args, None), verbose=args.verbose)
    except ConfigError as exc:
        return _fail("demo", str(exc), EXIT_CONFIG)
    native.announce()
    try:
        run_demo(args.ruleset, args.seed, colour=wants_colour(sys.stdout), strategy=args.strategy)
    except (LexiconError, BotError) as exc:
        return _fail("demo", str(exc), EXIT_ERRORS)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``wordfeud-bot`` with all its subcommands."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-v", "--verbose", action="store_true", help="log every request and decision (debug level)")
    common.add_argument("--log-file", type=Path, help="also write the log to this file")
    service = argparse.ArgumentParser(add_help=False, parents=[common])
    service.add_argument(
        "-c", "--config", help=f"the configuration file (TOML; default: ${CONFIG_VARIABLE}, else built-in defaults)"
    )
    service.add_argument("--state", type=Path, help="the state database (default: store.path of the config)")
    parser = argparse.ArgumentParser(
        prog="wordfeud-bot",
        description="Wordfeud bot service: plays its games over the Wordfeud HTTP API with an exact move generator.",
        epilog="Secrets come from the environment: WORDFEUD_EMAIL (or WORDFEUD_USERNAME / WORDFEUD_USER_ID) and "
        "WORDFEUD_PASSWORD or WORDFEUD_PASSWORD_HASH. See config/bot.example.toml.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="print the version and which move generator is active, and exit"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", title="commands")

    demo_parser = commands.add_parser(
        "demo",
        parents=[common],
        help="watch the bot play a whole game against a house player in a local sandbox",
        description="Start a sandbox server in this process, log the bot in over HTTP and let it play one whole "
        "game against the sandbox's greedy house player, showing the board after every move and the final score.",
    )
    demo_parser.add_argument(
        "--ruleset", type=ruleset_id, default=5, help="ruleset id or code of the game (default: 5, en)"
    )
    demo_parser.add_argument("--seed", type=int, default=1, help="seed of the sandbox's bag (default: 1)")
    demo_parser.add_argument(
        "--strategy",
        type=_strategy_name,
        help=f"the bot's strategy: {', '.join(sorted(STRATEGIES))} or equity:FILE (default: the configuration's "
        "default, sim, which thinks up to 2 s a move)",
    )
    demo_parser.set_defaults(handler=demo)

    for name, handler, text in (
        ("run", run, "the daemon: poll the account on an interval and play every game until stopped"),
        ("once", once, "one pass over the account (for cron): exit 0 ok, 1 errors, 2 config, 3 locked, 4 login, "
        "130/143/129 stopped by SIGINT/SIGTERM/SIGHUP after the game in progress"),
    ):
        sub = commands.add_parser(name, parents=[service], help=text, description=text[0].upper() + text[1:] + ".")
        sub.add_argument("--dry-run", action="store_true", help="decide moves and log them, but never submit")
        sub.set_defaults(handler=handler)

    replay_parser = commands.add_parser(
        "replay",
        parents=[service],
        help="re-run the engine on a recorded game (no server needed)",
        description="Re-run the engine on every recorded position of a game: what was played (engine and "
        "server score), what the bot would play now, and the opponent's moves rescored. Without GAME, list "
        "the recorded games.",
    )
    replay_parser.add_argument("game", type=int, nargs="?", help="the game id (without it: list the recorded games)")
    replay_parser.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="write the game as one self-contained HTML page instead: the board after every move (arrow keys or "
        "a slider), the move list, server against engine points, what the bot would play now, a score graph",
    )
    replay_parser.add_argument(
        "--strategy",
        type=_strategy_name,
        help="the strategy that says what the bot would play now (default: play.strategy of the config; "
        "sim thinks up to play.seconds_per_move at each of the bot's moves, equity answers at once)",
    )
    replay_parser.add_argument(
        "--gcg",
        type=Path,
        metavar="FILE",
        help="with GAME: write the game as a GCG record (the format of Quackle, Macondo and cross-tables); "
        "without GAME: read FILE and play it back on the Wordfeud board (the engine's score of every play, and "
        "what the strategy would play where the record gives the rack)",
    )
    replay_parser.add_argument(
        "--gcg-dir", type=Path, metavar="DIR", help="write every recorded game as DIR/<game id>.gcg"
    )
    replay_parser.add_argument(
        "--ruleset",
        type=ruleset_id,
        help="with --gcg FILE to read: the ruleset to play it back with (default: the record's Wordfeud note, "
        "else 5, English)",
    )
    replay_parser.set_defaults(handler=replay_command)

    check = commands.add_parser(
        "check-config",
        parents=[service],
        help="check the configuration, the secrets and the lexicons",
        description="Load the configuration file and the secrets from the environment and print the settings "
        "(never a secret); exit 2 naming the key when something is wrong.",
    )
    check.set_defaults(handler=check_config)

    add_offline_commands(commands)
    add_view_commands(commands, service, _config, _fail)
    add_dict_commands(commands)
    add_learned_command(commands, service, _config_and_lexicons)
    add_state_commands(commands, service, _config)
    # listed for --help; main() hands everything after the word `sandbox` to the sandbox's own parser
    commands.add_parser("sandbox", help="run the local Wordfeud-compatible server (see: wordfeud-bot sandbox --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``wordfeud-bot`` console script; returns the exit status."""
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["sandbox"]:
        return sandbox_main(arguments[1:], prog="wordfeud-bot sandbox")
    args = build_parser().parse_args(arguments)
    for name in ("verbose", "log_file", "config", "state"):
        if not hasattr(args, name):
            setattr(args, name, None)
    handler: Handler = args.handler
    actions = {"dict": getattr(args, "dict_command", None), "state": getattr(args, "state_command", None)}
    action = actions.get(args.command)
    command = " ".join(["wordfeud-bot", args.command, *([action] if action else [])])
    try:
        # Ctrl-C, SIGTERM or SIGHUP: the command unwinds, one line, exit 130, 143 or 129 (``run``: SIGHUP re-reads)
        with stop_signals(reloads=args.command == "run"):
            return handler(args)
    except Stopped as stop:
        print(stopped_line(command, stop), file=sys.stderr)
        return stop.status
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERRORS


__all__ = [  # the exit statuses are re-exported: callers and tests read them here
    "CONFIG_VARIABLE",
    "EXIT_AUTH",
    "EXIT_CONFIG",
    "EXIT_ERRORS",
    "EXIT_LOCKED",
    "EXIT_OK",
    "build_parser",
    "main",
    "version_text",
]

if __name__ == "__main__":
    sys.exit(main())
