"""The offline tools' commands of ``wordfeud-bot``: ``selfplay``, ``arena``, ``arena-compare`` and
``learn-leaves``.

They run the engine with no server, account or state file (``offline``), so they share none of the
service commands' set-up (configuration, secrets, the lock) that ``cli.main`` holds; what they share
among themselves is how a run is sized and where its chunks are played (``--workers`` or
``--scheduler``). ``cli.main`` registers them with ``add_offline_commands``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from bot.arguments import at_least
from bot.errors import BotError
from bot.stopping import Stopped
from bot.views.commands import ruleset_id
from cli.exit_status import EXIT_ERRORS, EXIT_OK, fail
from engine.equity.leavetable import LearnedLeave
from engine.errors import EngineError, LexiconError
from engine.players.registry import SIM_OPTIONS, STRATEGIES
from engine.rules.ruleset import Ruleset
from offline.arena.checkout import CLOCKS
from offline.arena.match import arena_lines, compare_lines
from offline.errors import OfflineError
from offline.learning.learn import LOOPS as LEARN_LOOPS
from offline.learning.learn import Settings as LearnSettings
from offline.learning.learn import learn
from offline.selfplay import selfplay

_positive_int = at_least(1)


def add_offline_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``selfplay``, ``arena``, ``arena-compare`` and ``learn-leaves``."""
    selfplay_parser = commands.add_parser(
        "selfplay",
        help="show the move generator: a seeded self-play game with the top moves of every turn",
        description="Play a short seeded two-player game with no server (by default on the English ruleset, id "
        "5, with the bundled ENABLE lexicon). Each turn prints the rack, the top moves as the strategy ranks them "
        "with their scores, the move-generation time and the board; the first move is played.",
    )
    selfplay_parser.add_argument(
        "--ruleset", type=ruleset_id, default=5, help="ruleset id or code (default 5, en; needs its lexicon)"
    )
    selfplay_parser.add_argument(
        "--strategy",
        default="greedy",
        help=f"how the moves are ranked: {', '.join(sorted(STRATEGIES))} or equity:FILE (default greedy)",
    )
    selfplay_parser.add_argument("--seed", type=int, default=1, help="seed for shuffling the bag (default: 1)")
    selfplay_parser.add_argument("--turns", type=_positive_int, default=6, help="turns to play (default: 6)")
    selfplay_parser.add_argument("--top", type=_positive_int, default=5, help="best moves per turn (default: 5)")
    selfplay_parser.set_defaults(handler=selfplay)

    arena_parser = commands.add_parser(
        "arena",
        help="play strategy A against B over mirrored deals and print the figures",
        description="Play strategy A against strategy B on the local game engine: every shuffled bag is played "
        "twice with the seats swapped (a mirrored pair), over several processes. Prints wins, draws and losses, "
        "the win rate with a 95% confidence interval over pairs, mean scores and margin, bingos and swaps per "
        f"game, and time per move. Strategies: {', '.join(sorted(STRATEGIES))}, equity:FILE, sim:OPTIONS (NAME=VALUE "
        f'pairs, comma-separated: {", ".join(SIM_OPTIONS)}; see the README\'s "Strategies and the arena"), '
        "level:NAME, or checkout:PATH:SPEC, the strategy SPEC of another checkout of this project at PATH (an "
        "older commit, say) played through PATH/.venv/bin/python, with the same word list; or, to measure what "
        "hidden information is worth, see:rack:SIM or see:kept:SIM, a sim that is shown the opponent's rack or "
        "the tiles it kept at its last move (a cheat; wall clock only).",
    )
    arena_parser.add_argument("a", help="strategy A (the one the figures are about)")
    arena_parser.add_argument("b", help="strategy B (checkout:PATH:SPEC: SPEC as the checkout at PATH plays it)")
    size = arena_parser.add_mutually_exclusive_group()
    size.add_argument("--pairs", type=_positive_int, help="mirrored pairs to play (default 100)")
    size.add_argument("--games", type=_even_games, help="games to play instead: an even number, two per pair")
    arena_parser.add_argument("--ruleset", type=ruleset_id, default=5, help="ruleset id or code (default 5, en)")
    arena_parser.add_argument("--seed", type=int, default=1, help="seed of the bags (default 1)")
    _add_where(arena_parser, "pairs")
    arena_parser.add_argument(
        "--work",
        type=Path,
        help="keep every finished chunk of pairs in this directory: an interrupted match goes on where it "
        "stopped when the same command runs again, and a larger --pairs adds to the pairs played",
    )
    arena_parser.add_argument(
        "--clock",
        choices=CLOCKS,
        default="wall",
        help="what a strategy's time budget counts: wall (default), or cpu: every strategy thinks in a "
        "process of its own and its budget counts that process's CPU time, so a loaded machine cuts "
        "neither side's thinking (times a move are still printed in wall time)",
    )
    arena_parser.set_defaults(handler=arena)

    compare_parser = commands.add_parser(
        "arena-compare",
        help="compare two arena matches played on the same bags, pair by pair",
        description="Read two arena work directories (--work of `wordfeud-bot arena`) whose matches were played "
        "with the same ruleset and seed, so that pair N of one was dealt the same bag as pair N of the other "
        "(say A1 vs equity and A2 vs equity). Prints each match's figures over the pairs both finished, then the "
        "first's A minus the second's in win rate and margin a game, with 95% confidence intervals over those "
        "pairs: on the same bags much of the luck of the draw cancels, so a smaller difference shows than "
        "between two separate summaries. Either match may still be running.",
    )
    compare_parser.add_argument("first", type=Path, help="the first match's work directory")
    compare_parser.add_argument("second", type=Path, help="the second match's work directory")
    compare_parser.set_defaults(handler=arena_compare)

    learn_parser = commands.add_parser(
        "learn-leaves",
        help="learn leave values from self-play and write a leave table",
        description="Play GAMES self-play games with the PLAYER strategy on several processes, recording for every "
        "kept leave the points the player scores next turn and the leave it keeps then, then fit the factorised "
        "leave model (tiles, duplicates, pairs, size and vowel count) by ridge least squares in ROUNDS rounds "
        "and write the table as JSON. Samples "
        "are kept per chunk in the work directory: an interrupted run goes on where it stopped when run again, "
        "and a larger --games adds to the games already played. Use the table with `arena equity:FILE ...`; "
        "copy it to engine/data/leaves/<ruleset>.json to make it the default of the equity strategy.",
    )
    learn_parser.add_argument("--work", type=Path, required=True, help="work directory for the samples (resumable)")
    learn_parser.add_argument("--games", type=_positive_int, default=1000, help="self-play games (default 1000)")
    learn_parser.add_argument("--ruleset", type=ruleset_id, default=5, help="ruleset id or code (default 5, en)")
    learn_parser.add_argument("--out", type=Path, help="the table file (default: WORK/leaves-<ruleset>.json)")
    learn_parser.add_argument(
        "--player", default="equity-hand", help="strategy that plays the games (default equity-hand; or equity:FILE)"
    )
    learn_parser.add_argument(
        "--explore",
        type=_number_in(0, 1, "a number from 0 to 1"),
        default=0.1,
        help="share of turns played with one of the top 5 moves (default 0.1)",
    )
    learn_parser.add_argument(
        "--ridge",
        type=_number_in(0, None, "a number >= 0"),
        default=100.0,
        help="pull of every value towards 0, in samples (default 100)",
    )
    learn_parser.add_argument(
        "--rounds",
        type=_positive_int,
        default=15,
        help="fit rounds: 1 fits the next score alone, each further one adds the next leave's value (default 15)",
    )
    learn_parser.add_argument(
        "--full",
        type=at_least(0),
        default=0,
        metavar="MIN_COUNT",
        help="write a full leave table instead: an own value for every leave seen at least MIN_COUNT times, "
        "shrunk towards the factorised value, which the other leaves keep (default 0: the factorised table)",
    )
    learn_parser.add_argument(
        "--shrink",
        type=_number_in(0, None, "a number >= 0"),
        default=100.0,
        help="with --full: pull of an own value towards the factorised one, in samples (default 100)",
    )
    learn_parser.add_argument(
        "--held-out",
        type=at_least(0),
        default=0,
        metavar="GAMES",
        help="leave the last GAMES games out of the fit and report each model's mean squared error on them",
    )
    learn_parser.add_argument(
        "--loop",
        choices=LEARN_LOOPS,
        default="auto",
        help="where the games are played: auto (in C when the player is equity with a learned table, else "
        "Python), c, or python; both write the same samples (default auto)",
    )
    learn_parser.add_argument("--seed", type=int, default=1, help="seed of the bags (default 1)")
    learn_parser.add_argument("--chunk", type=_positive_int, default=10, help="games per sample file (default 10)")
    _add_where(learn_parser, "games")
    learn_parser.set_defaults(handler=learn_leaves)


def arena(args: argparse.Namespace) -> int:
    """Strategy against strategy with mirrored deals."""
    try:
        pairs = args.pairs or (args.games // 2 if args.games else 100)
        for line in arena_lines(
            args.a, args.b, pairs, args.ruleset, args.seed, args.workers, args.work, args.scheduler, args.clock
        ):
            print(line)
    except Stopped as stop:
        if args.work is None:
            stop.detail = "with --work DIR a match can go on where it stopped"
        else:
            stop.detail = f"finished chunks are kept in {args.work}; run the same command to go on"
        raise
    except (ValueError, LexiconError, BotError, OfflineError, OSError) as exc:
        return fail("arena", str(exc), EXIT_ERRORS)
    return EXIT_OK


def arena_compare(args: argparse.Namespace) -> int:
    """Two matches on the same bags, pair by pair."""
    try:
        for line in compare_lines(args.first, args.second):
            print(line)
    except (ValueError, OfflineError) as exc:
        return fail("arena-compare", str(exc), EXIT_ERRORS)
    return EXIT_OK


def learn_leaves(args: argparse.Namespace) -> int:
    """Self-play, then fit and write a leave table."""
    settings = LearnSettings(args.ruleset, args.seed, args.player, args.explore, args.chunk)
    out = args.out or args.work / f"leaves-{args.ruleset}.json"
    try:
        for line in learn(
            args.work,
            out,
            settings,
            args.games,
            ridge=args.ridge,
            rounds=args.rounds,
            workers=args.workers,
            scheduler=args.scheduler,
            full=args.full,
            shrink=args.shrink,
            held_out=args.held_out,
            shipped=LearnedLeave.shipped(Ruleset.for_id(args.ruleset)),
            loop=args.loop,
        ):
            print(line)
    except Stopped as stop:
        stop.detail = f"finished chunks are kept in {args.work}; run the same command to go on"
        raise
    except (ValueError, EngineError, BotError, OfflineError, OSError) as exc:
        return fail("learn-leaves", str(exc), EXIT_ERRORS)
    return EXIT_OK


def _add_where(parser: argparse.ArgumentParser, unit: str) -> None:
    """``--workers N`` or ``--scheduler ADDRESS``: where the chunks of an offline run are played."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_positive_int, help="local processes (default: one per CPU)")
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"play the chunks of {unit} on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT) "
        "instead of local processes; needs the cluster extra (pip install 'wordfeud-bot[cluster]') here and on "
        "the workers, and the workers need the same code, lexicon and leave table files (checked)",
    )


def _even_games(text: str) -> int:
    games = _positive_int(text)
    if games % 2:
        raise argparse.ArgumentTypeError(f"games come in mirrored pairs: expected an even number, got {text!r}")
    return games


def _number_in(low: float, high: float | None, wanted: str) -> Callable[[str], float]:
    """An argparse type: a number from ``low`` to ``high`` (no upper bound if None); errors say ``wanted``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
        return value

    return parse
