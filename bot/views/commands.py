"""The commands that show what the bot sees and did: ``hint``, ``stats``, and the helpers of ``replay``
(the game list, the HTML page). ``cli.main`` registers them and hands in how it loads the config."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bot.errors import BotError, ConfigError, StoreError
from bot.escapes import escaped
from bot.play.analysis import hint
from bot.play.app import build, registry_for
from bot.play.convert import Position, to_position
from bot.play.turn import game_over_line, situation_of
from bot.records.history import local_user, position_before_move, record, recorded_games
from bot.settings.config import BotConfig, load_credentials
from bot.store.store import GameRow, Store
from bot.views.gcg import hint_situation
from bot.views.hint import (
    InputError,
    board_file_text,
    check_position,
    hint_svg,
    hint_text,
    read_board,
    situation_for,
)
from bot.views.replay_html import replay_html
from bot.views.terminal import board_picture, wants_colour
from engine.board.rack import Rack
from engine.equity.strategy import Situation, Strategy
from engine.errors import EngineError
from engine.lexicon.dawg import Dawg
from engine.players.registry import STRATEGIES, strategy_named
from engine.rules.ruleset import Ruleset
from engine.wholefile import write_whole

EXIT_OK, EXIT_ERRORS, EXIT_CONFIG = 0, 1, 2
ConfigOf = Callable[[argparse.Namespace], BotConfig]

HINT_EXAMPLES = """examples:
  wordfeud-bot hint --board position.txt --rack AEINST? --ruleset 5
      a board in the positions text format: 15 rows, '.' empty, upper case a tile, lower case a
      blank; a '= NAME RACK' line before the rows gives the rack (positions files hold several)
  cat board.txt | wordfeud-bot hint --board - --rack QUIZ --top 5 --json
  wordfeud-bot hint --game 2226982257 --config bot.toml       the game now, read from the server
  wordfeud-bot hint --game 2226982257 --move 12 --svg move12.svg
      the position before the game's move 12 (a move of the bot's; moves counted from 1, both
      players'), from the state file (no server)
  wordfeud-bot hint --gcg game.gcg --move 9
      the position before move 9 of a GCG record (from replay --gcg or another program)"""


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 move``, ``2 moves`` (``many`` for irregular plurals)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def ruleset_id(text: str) -> int:
    """An argparse type: a Wordfeud ruleset id (0..12), so an unknown one is a usage error everywhere."""
    try:
        return Ruleset.for_code(text).id
    except EngineError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def open_state(config: BotConfig, explicit: Path | None = None, *, writes: bool = False) -> Store:
    """The state database of a command that reads it, ``--state`` (``explicit``) before the config's
    ``store.path``: a missing file is an error (opening would create an empty one). It is opened read-only
    (SQLite's ``mode=ro``, ``immutable=1`` on a read-only mount; an empty file is said to be empty and left)
    and takes no lock, unless the command ``writes`` to it (``learned --rescan``)."""
    path = explicit or config.store.resolved()
    full = Path(path).expanduser()
    blocking = next((above for above in full.parents if above.exists() and not above.is_dir()), None)
    if blocking is not None:
        raise StoreError(f"state file {path}: {blocking} is not a directory")
    if not full.exists():
        raise StoreError(f"no state file {path}: the bot writes it when it plays (see --state and store.path)")
    return Store(full, read_only=not writes)


def _date(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M") if stamp > 0 else "?"


def game_list(store: Store) -> list[str]:
    """The recorded games, newest first: id, opponent, ruleset, date first seen, result and score."""
    rows = store.games()
    if not rows:
        return [f"no games recorded in {store.path}"]
    names = {r.game_id: escaped(r.opponent) for r in rows}
    width = max(len("opponent"), *(len(name) for name in names.values()))
    lines = [f"{'game':>19}  {'opponent':<{width}}  {'ruleset':<7}  {'first seen':<16}  {'result':<7}  score  moves"]
    for r in rows:
        lines.append(
            f"{r.game_id:>19}  {names[r.game_id]:<{width}}  {r.ruleset:<7}  {_date(r.first_seen):<16}  {r.result:<7}  "
            f"{r.my_score}-{r.their_score}  {r.move_count}"
        )
    return lines


def write_replay_html(
    store: Store, game_id: int, lexicons: Callable[[int], Dawg], strategy: Strategy, out: Path
) -> int:
    """Write the HTML replay of a game to ``out`` (whole or not at all); returns the exit status."""
    page = replay_html(record(store, game_id, lexicons, strategy), strategy.name)
    data = page.encode("utf-8")
    try:
        write_whole(out, data)
    except OSError as exc:
        raise StoreError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out} ({len(data):,} bytes)")
    return EXIT_OK


def record_lines(rows: list[GameRow]) -> list[str]:
    """The record over finished games: in all, by ruleset and by opponent (wins, draws, losses, means)."""
    finished = [r for r in rows if not r.running]
    lines = [f"{plural(len(rows), 'game')} recorded, {len(rows) - len(finished)} running, {len(finished)} finished"]

    def line(label: str, group: list[GameRow]) -> str:
        wins = sum(1 for r in group if r.result == "won")
        draws = sum(1 for r in group if r.result == "drawn")
        losses = len(group) - wins - draws
        mine = sum(r.my_score for r in group) / len(group)
        theirs = sum(r.their_score for r in group) / len(group)
        return (
            f"  {label:<24} {len(group):>5}  {wins:>4} {draws:>5} {losses:>6}  {100 * wins / len(group):>5.1f}%  "
            f"{mine:>7.1f} {theirs:>7.1f}"
        )

    if not finished:
        return lines
    header = f"  {'':<24} {'games':>5}  {'wins':>4} {'draws':>5} {'losses':>6}  {'won':>6}  {'mean':>7} {'theirs':>7}"
    lines += [header, line("all", finished), "by ruleset:"]
    for ruleset in sorted({r.ruleset for r in finished}):
        lines.append(line(f"ruleset {ruleset}", [r for r in finished if r.ruleset == ruleset]))
    lines.append("by opponent:")
    for opponent in sorted({r.opponent for r in finished}, key=str.lower):
        lines.append(line(escaped(opponent), [r for r in finished if r.opponent == opponent]))
    return lines


def add_view_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    service: argparse.ArgumentParser,
    config_of: ConfigOf,
    fail: Callable[[str, str, int], int],
) -> None:
    """Register ``hint`` and ``stats``; ``config_of`` loads the configuration as the other commands do."""
    parser = commands.add_parser(
        "hint",
        parents=[service],
        help="the best moves of a position, with score, leave, leave value and equity",
        description="Show the top moves of a position as the bot's strategy ranks them: notation, score, the "
        "tiles kept (leave), the leave's value and the equity (score + leave value). The position is a board "
        "in the positions text format with a rack (--board), a game of the configured account read from the "
        "server (--game ID), or the bot's move of a recorded game (--game ID --move N).",
        epilog=HINT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--board", metavar="FILE", help="the board in the positions text format ('-': read stdin)")
    parser.add_argument("--name", help="the position of a positions file with several (default: the first)")
    parser.add_argument("--rack", help="the rack, e.g. AEINST? ('?' a blank); default: the file's '= NAME RACK' line")
    parser.add_argument(
        "--ruleset",
        type=ruleset_id,
        help="ruleset id or code of a --board position (default 5, en) or of a --gcg record (default: its "
        "Wordfeud note, else 5)",
    )
    parser.add_argument(
        "--bag", type=int, help="tiles in the bag for a --board position (default: all unseen tiles but 7)"
    )
    parser.add_argument("--game", type=int, metavar="ID", help="a game of the configured account")
    parser.add_argument(
        "--move",
        type=int,
        metavar="N",
        help="with --game: the position before the game's move N, which the bot made (both players' moves counted "
        "from 1, as the replay and the log number them; from the state file, no server)",
    )
    parser.add_argument(
        "--gcg",
        type=Path,
        metavar="FILE",
        help="a GCG game record (from this bot or another program; standard board): the position before "
        "--move N, or after the last move; the rack from the record, else --rack",
    )
    parser.add_argument("--top", type=int, default=10, metavar="N", help="how many moves to show (default 10)")
    parser.add_argument(
        "--strategy",
        help=f"how to rank: {', '.join(sorted(STRATEGIES))} or equity:FILE (default: play.strategy of the config)",
    )
    parser.add_argument("--json", action="store_true", help="print the hint as JSON, for tools")
    parser.add_argument("--svg", type=Path, metavar="FILE", help="also write the board with the best move as SVG")
    parser.set_defaults(handler=lambda args: hint_command(args, config_of, fail, parser))

    stats = commands.add_parser(
        "stats",
        parents=[service],
        help="the bot's record from the state file: wins, draws, losses, mean scores, by ruleset and opponent",
        description="Print the record of the finished games in the state file: wins, draws and losses, the share "
        "won and the mean scores, in all, by ruleset and by opponent. Needs no server.",
    )
    stats.set_defaults(handler=lambda args: stats_command(args, config_of, fail))


def stats_command(args: argparse.Namespace, config_of: ConfigOf, fail: Callable[[str, str, int], int]) -> int:
    """``wordfeud-bot stats``."""
    try:
        config = config_of(args)
        store = open_state(config, args.state)
    except (ConfigError, StoreError) as exc:
        return fail("stats", str(exc), EXIT_CONFIG)
    try:
        for line in record_lines(store.games()):
            print(escaped(line))
    finally:
        store.close()
    return EXIT_OK


class GameOverError(BotError):
    """A game asked for a hint that has ended: there is no move to hint, only its final position."""

    def __init__(self, message: str, position: Position) -> None:
        super().__init__(message)
        self.position = position


def hint_command(
    args: argparse.Namespace,
    config_of: ConfigOf,
    fail: Callable[[str, str, int], int],
    parser: argparse.ArgumentParser,
) -> int:
    """``wordfeud-bot hint``: without a position it explains itself."""
    sources = [name for name, value in (("--board", args.board), ("--game", args.game), ("--gcg", args.gcg)) if value]
    if not sources:
        parser.print_help()
        return EXIT_CONFIG
    if len(sources) > 1:
        return fail("hint", f"give one of --board, --game and --gcg, not {' and '.join(sources)}", EXIT_CONFIG)
    if args.move is not None and args.game is None and args.gcg is None:
        return fail("hint", "--move N needs --game ID (a recorded game) or --gcg FILE", EXIT_CONFIG)
    if args.top < 1:
        return fail("hint", f"--top must be at least 1, got {args.top}", EXIT_CONFIG)
    try:
        config = config_of(args)
        strategy = strategy_named(args.strategy or config.play.strategy)
    except (ConfigError, ValueError) as exc:
        return fail("hint", str(exc), EXIT_CONFIG)
    try:
        situation, names = _hint_situation(args, config)
        result = hint(situation, strategy, args.top)
        if args.svg is not None:
            try:
                write_whole(args.svg, hint_svg(result, situation, names))
            except OSError as exc:
                raise InputError(f"cannot write --svg {args.svg}: {exc.strerror or exc}") from None
    except ConfigError as exc:
        return fail("hint", str(exc), EXIT_CONFIG)
    except GameOverError as over:
        if not args.json:
            rules = over.position.rules
            print("The final board:")
            print(board_picture(over.position.board, rules.layout, frozenset(), colour=wants_colour(sys.stdout)))
        return fail("hint", str(over), EXIT_ERRORS)
    except (EngineError, BotError, LookupError, OSError) as exc:
        return fail("hint", str(exc), EXIT_ERRORS)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        print(hint_text(result, situation, colour=wants_colour(sys.stdout)))
    return EXIT_OK


def _hint_situation(args: argparse.Namespace, config: BotConfig) -> tuple[Situation, tuple[str, str]]:
    """The position the hint is about, from the board file, the recorded game or the server."""
    registry = registry_for(config)
    if args.gcg is not None:
        return hint_situation(args.gcg, args.move, args.rack, args.ruleset, registry.get)
    if args.board is not None:
        rules = Ruleset.for_id(5 if args.ruleset is None else args.ruleset)
        source = "stdin" if args.board == "-" else args.board
        board, header_rack = read_board(board_file_text(args.board), rules.alphabet, args.name, source)
        rack_text = args.rack or header_rack
        if not rack_text:
            raise ConfigError(f"{source} gives no rack: add --rack, e.g. --rack AEINST?")
        rack = Rack.from_text(rack_text, rules.alphabet, max_size=rules.rack_size)
        check_position(board, rack, rules, source, f"--rack {args.rack}" if args.rack else f"{source}'s rack")
        return situation_for(board, rack, rules, registry.get(rules.id), bag=args.bag), ("you", "opponent")
    if args.move is not None:
        store = open_state(config, args.state)
        try:
            position = position_before_move(store, args.game, args.move)
            first = recorded_games(store, args.game)[0]
            mine = first.me(local_user(first)).username or "bot"  # the account's name
            return _game_situation(position, store, registry.get), (mine, position.opponent)
        finally:
            store.close()
    wiring = build(config, load_credentials(config), store_path=args.state)
    try:
        client = wiring.client
        game = client.game(args.game)
        if client.user_id is None:
            client.login()
        assert client.user_id is not None

        position = to_position(game, client.user_id, lambda board_id: wiring.store.board_grid(board_id, client.board))
        if not game.is_running:
            raise GameOverError(f"{escaped(game_over_line(game, client.user_id))}; there is no move to hint", position)
        mine = game.me(client.user_id).username or "bot"  # the account's name
        return _game_situation(position, wiring.store, wiring.lexicons.get), (mine, position.opponent)
    finally:
        wiring.store.close()


def _game_situation(position: Position, store: Store, lexicons: Callable[[int], Dawg]) -> Situation:
    """A game's position as the bot sees it, the words the server refused left out of the lexicon."""
    rules = position.rules
    lexicon = store.rejected().apply(lexicons(rules.id), rules)
    return situation_of(position, lexicon)
