"""``wordfeud-bot learned``: the words the server accepted that the bot's lexicons lacked, per ruleset.

It shows them (who played each, in which game, when), exports them as a word list that
``wordfeud-bot dict build CODE LIST --add FILE`` takes, and ``--rescan`` learns from the games a
state file recorded before the bot learned words (every snapshot and every accepted move of ours).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bot.api.models import Game
from bot.errors import ConfigError, ProtocolError, StoreError, UnusableStateError
from bot.escapes import escaped
from bot.play.acceptances import LearningBudget, opponent_words, remember, words_of_move
from bot.settings.config import BotConfig
from bot.store.learned import LearnedWords
from bot.store.store import OPPONENT, OWN, DecisionStatus, Store
from bot.views.commands import open_state
from dictionaries.registry import LexiconRegistry
from engine.errors import EngineError
from engine.rules.ruleset import Ruleset
from engine.wholefile import write_whole

#: Reads the configuration (``--config``) and the lexicons it names.
Loader = Callable[[argparse.Namespace], tuple[BotConfig, LexiconRegistry]]


def add_learned_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    service: argparse.ArgumentParser,
    load: Loader,
) -> None:
    """Add ``learned`` to the command line; ``load`` reads the configuration and its lexicons."""
    parser = commands.add_parser(
        "learned",
        parents=[service],
        help="show or export the words the server accepted that the bot's lexicons lacked",
        description="Every word the server accepted (the opponent's main and cross words in each game the bot "
        "reads, and the bot's own accepted moves) is kept per ruleset in the state database; those the bot's "
        "lexicon lacked are added to it. This shows them, exports them as a word list, or learns them from the "
        "games recorded before the bot learned words.",
    )
    parser.add_argument("--ruleset", type=int, help="only this ruleset id (needed with --export)")
    parser.add_argument("--all", action="store_true", help="every accepted word, also those the lexicon had")
    parser.add_argument("--export", type=Path, metavar="FILE", help="write the words, one a line, to FILE")
    parser.add_argument(
        "--rescan", action="store_true", help="first learn from every recorded position and accepted move of ours"
    )

    def handler(args: argparse.Namespace) -> int:
        return run_learned(args, load)

    parser.set_defaults(handler=handler)



def run_learned(args: argparse.Namespace, load: Loader) -> int:
    """Show, rescan or export; 0 when done, 1 for an export problem, 2 for a configuration problem."""
    if args.export is not None and args.ruleset is None:
        print("wordfeud-bot learned: --export needs --ruleset (a word list belongs to one ruleset)", file=sys.stderr)
        return 2
    try:
        if args.ruleset is not None:
            Ruleset.for_id(args.ruleset)
        config, registry = load(args)
        store = open_state(config, args.state, writes=args.rescan)  # a missing file is refused, not created empty
    except (ConfigError, StoreError, EngineError) as exc:
        print(f"wordfeud-bot learned: {escaped(str(exc))}", file=sys.stderr)
        return 2
    try:
        if args.rescan:
            budget = LearningBudget(config.play.learned_words_per_game, config.play.learned_words_per_day)
            counts = rescan(store, registry, _progress if sys.stderr.isatty() else None, budget)
            print(f"rescan: {counts[0]:,} positions and {counts[1]:,} moves of ours read, {counts[2]:,} words learned")
        entries = store.accepted(args.ruleset, new_only=not args.all)
        if args.export is not None:
            words = sorted({entry.word for entry in entries})
            try:
                write_whole(args.export, "".join(f"{word}\n" for word in words))
            except OSError as exc:
                print(f"wordfeud-bot learned: cannot write {args.export}: {exc.strerror or exc}", file=sys.stderr)
                return 1
            code = Ruleset.for_id(args.ruleset).code
            print(f"wrote {len(words):,} words to {args.export}; add them to a build with: "
                  f"wordfeud-bot dict build {code} YOUR-LIST --add {args.export}")
            return 0
        what = "accepted" if args.all else "learned (accepted by the server, missing from the lexicon)"
        print(f"{len(entries):,} words {what}")
        for entry in entries:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.seen))
            who = "opponent" if entry.source == OPPONENT else "bot"
            print(f"  ruleset {entry.ruleset:>2}  {escaped(entry.word):<15} {who:<8} game {entry.game_id}  {when}")
    except UnusableStateError as exc:  # a page damaged past the check at opening
        print(f"wordfeud-bot learned: {escaped(str(exc))}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0


def _progress(done: int, total: int) -> None:
    print(f"\rrescan: game {done:,}/{total:,}", end="" if done < total else "\n", file=sys.stderr, flush=True)


def rescan(
    store: Store,
    registry: LexiconRegistry,
    progress: Callable[[int, int], None] | None = None,
    budget: LearningBudget | None = None,
) -> tuple[int, int, int]:
    """Learn from every recorded snapshot (the opponent's last move) and every accepted move of ours;
    returns (positions read, moves of ours read, words learned). Games that cannot be read are skipped.
    ``progress(games done, games)`` is called after each game. The ``budget`` (default: the config's
    defaults) bounds what a game and a day teach, as in play."""
    budget = budget or LearningBudget()
    learned = store.learned()
    positions = moves = new = 0
    game_ids = store.game_ids()
    for done, game_id in enumerate(game_ids, 1):
        for snapshot in store.snapshots(game_id):
            game = Game.model_validate(snapshot)
            user = next((p.id for p in game.players if p.is_local or p.rack is not None), None)
            if user is None:
                continue
            positions += 1
            new += _learn(store, learned, registry, game, partial(opponent_words, game, user), OPPONENT, budget)
        for decision in store.decisions(game_id, DecisionStatus.APPLIED):
            before = store.snapshot_at(game_id, decision.move_count)
            tiles = decision.payload.get("move")
            if decision.kind != "move" or before is None or not isinstance(tiles, list) or not tiles:
                continue
            moves += 1
            game = Game.model_validate(before)
            new += _learn(store, learned, registry, game, partial(words_of_move, game, tiles), OWN, budget)
        if progress is not None:
            progress(done, len(game_ids))
    return positions, moves, new


def _learn(
    store: Store,
    learned: LearnedWords,
    registry: LexiconRegistry,
    game: Game,
    words: Callable[[], list[str]],
    source: str,
    budget: LearningBudget,
) -> int:
    """The words of one game read, remembered; how many were new to the lexicon (0 when unreadable)."""
    try:
        found = words()
        rules = Ruleset.for_id(game.ruleset)
        lexicon = learned.apply(registry.get(game.ruleset), rules)
    except (ProtocolError, EngineError, KeyError, TypeError, ValueError):
        return 0
    return len(remember(store, learned, lexicon, game, found, source, budget).learned)
