"""What a lexicon is worth in play against a server that referees with another list.

``python -m sandbox.lab.referee --ruleset 5 --referee SOWPODS.txt --player en.dawg --games 100`` plays
the bot (the ``equity`` strategy, learning what the server accepts and refuses, as it does in
service) against the sandbox's greedy house player over HTTP. The sandbox referees, and the house
plays, from the ``--referee`` list; the bot plays from the ``--player`` list. A word the player's
list has and the referee's lacks is a refused move (a request and a candidate spent); a word the
referee has and the player's list lacks is a move the bot cannot make until it has seen it played
and learned it. It prints the bot's mean points per game (with a 95% interval), the house's, the
bot's share of wins, refusals per game and the learned-word curve, per block of games.

A list is a word-list file (one word per line, plain or gzipped), a compiled ``.dawg`` or an npm
package tarball holding a plain word list (``.tgz``); ``--referee-add`` and ``--player-add`` merge
more lists into either.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.api.credentials import Credentials
from bot.play.app import build
from bot.settings.config import ApiConfig, BotConfig, DictionariesConfig, PlayConfig, ScheduleConfig
from bot.store.store import Store
from dictionaries.build import build_lexicon
from dictionaries.npmlist import read_npm_list
from dictionaries.registry import LexiconRegistry, user_lexicon_path
from dictionaries.wordlist import WordList
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from sandbox.server import SandboxServer
from sandbox.state import State

#: The sandbox's error type for a move with a word its lexicon lacks.
REFUSED = "illegal_word"


@dataclass
class RefereeReport:
    """Per game: the bot's and the house's points, the bot's refused moves, learned words so far."""

    bot_points: list[int] = field(default_factory=list)
    house_points: list[int] = field(default_factory=list)
    refusals: list[int] = field(default_factory=list)
    learned: list[int] = field(default_factory=list)  # words learned (the bot's list lacked them), cumulative
    refused_words: set[str] = field(default_factory=set)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.bot_points)

    def summary(self) -> str:
        """Mean points per game of each side, the bot's wins, refusals per game, words learned."""
        n = self.games
        mean = statistics.fmean(self.bot_points)
        half = 1.96 * statistics.stdev(self.bot_points) / n**0.5 if n > 1 else 0.0
        margin = [b - h for b, h in zip(self.bot_points, self.house_points, strict=True)]
        wins = sum(m > 0 for m in margin) + 0.5 * sum(m == 0 for m in margin)
        return (
            f"{n} games: bot {mean:.1f} ± {half:.1f} points per game (95% CI), house "
            f"{statistics.fmean(self.house_points):.1f}, margin {statistics.fmean(margin):+.1f}; bot wins "
            f"{wins / n:.1%}; refusals {sum(self.refusals) / n:.2f} per game ({len(self.refused_words)} distinct "
            f"words); learned {self.learned[-1] if self.learned else 0} words; {self.seconds:.0f} s"
        )

    def lines(self, block: int) -> list[str]:
        """A row per block of games: points, refusals per game, and the words learned by then."""
        rows = [
            "| games | bot points per game | house points per game | refusals per game | words learned by then |",
            "| --- | --- | --- | --- | --- |",
        ]
        for start in range(0, self.games, block):
            end = min(start + block, self.games)
            span = slice(start, end)
            rows.append(
                f"| {start + 1}-{end} | {statistics.fmean(self.bot_points[span]):.1f} | "
                f"{statistics.fmean(self.house_points[span]):.1f} | {statistics.fmean(self.refusals[span]):.2f} | "
                f"{self.learned[end - 1]} |"
            )
        return rows


def load_list(ruleset: Ruleset, source: Path, add: Sequence[Path] = ()) -> Dawg:
    """A lexicon for ``ruleset`` from a ``.dawg``, an npm tarball (``.tgz``) or a word-list file, with
    the words of ``add`` merged in. Raises LexiconError naming a file that cannot be read."""
    if source.suffix == ".dawg" and not add:
        return Dawg.load(source, ruleset.alphabet)
    if source.suffix == ".dawg":
        words = [ruleset.alphabet.format_word(w) for w in Dawg.load(source, ruleset.alphabet).words()]
        dawg, _ = build_lexicon(ruleset, _as_list(source, words), None, add=add, abbreviations="keep")
        return dawg
    listed = read_npm_list(source).words if source.suffix in {".tgz", ".tar", ".gz"} and _is_tar(source) else source
    dawg, _ = build_lexicon(ruleset, listed, None, add=add)
    return dawg


def _is_tar(path: Path) -> bool:
    try:
        return tarfile.is_tarfile(path)
    except OSError as exc:
        raise LexiconError(f"cannot read {path}: {exc.strerror or exc}") from None


def _as_list(source: Path, words: list[str]) -> WordList:
    return WordList(source, tuple(words), "dawg")


def play(
    ruleset_id: int,
    referee: Dawg,
    player: Dawg,
    games: int,
    seed: int,
    *,
    strategy: str = "equity",
    progress: Callable[[int, RefereeReport], None] | None = None,
) -> RefereeReport:
    """Play ``games`` games of the bot (on ``player``) against the house (on ``referee``), the sandbox
    refereeing with ``referee``; the bot moves first in odd games."""
    rules = Ruleset.for_id(ruleset_id)
    state = State(lambda _ruleset: referee, time.time, seed=seed)
    bot_user = state.add_user("bot", "bot@sandbox.local", "referee-password")
    house = state.add_user("house", "house@sandbox.local", "house-password")
    state.house.add(house.id)
    report = RefereeReport()
    started = time.perf_counter()
    with SandboxServer(state) as server, tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch) / "lexicons"
        directory.mkdir()
        saved = Dawg.build(sorted(player.words()), rules.alphabet) if player.derived else player  # a copy is not saved
        saved.save(user_lexicon_path(rules, directory))
        config = BotConfig(
            api=ApiConfig(base_url=server.base_url),
            schedule=ScheduleConfig(quarantine_seconds=0),
            play=PlayConfig(strategy=strategy),
            dictionaries=DictionariesConfig(directory=directory),
        )
        credentials = Credentials.from_password("email", bot_user.email, "referee-password")
        store = Store(Path(scratch) / "referee.sqlite3")
        wiring = build(config, credentials, store=store)
        wiring.client.login()
        for number in range(1, games + 1):
            first, second = (bot_user, house) if number % 2 else (house, bot_user)
            sgame = state.new_game(first, second, ruleset_id)
            while not sgame.game.is_over:
                wiring.bot.turns.play(sgame.id)
            wiring.bot.turns.play(sgame.id)  # read the final position: the house's last move teaches too
            seat = sgame.players.index(bot_user.id)
            report.bot_points.append(sgame.game.scores[seat])
            report.house_points.append(sgame.game.scores[1 - seat])
            mine = [s for s in state.submissions if s.game_id == sgame.id and s.user_id == bot_user.id]
            report.refusals.append(sum(s.outcome == REFUSED for s in mine))
            report.learned.append(len(store.accepted(ruleset_id, new_only=True)))
            report.refused_words = set(store.rejected().words(ruleset_id))
            if progress is not None:
                progress(number, report)
        store.close()
    report.seconds = time.perf_counter() - started
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox.lab.referee", description=(__doc__ or "").split("\n\n")[1])
    parser.add_argument("--ruleset", type=int, default=5, help="ruleset id (default 5, English international)")
    parser.add_argument(
        "--referee", type=Path, required=True, help="the list the sandbox referees and the house plays from"
    )
    parser.add_argument("--referee-add", type=Path, action="append", default=[], help="more words for the referee")
    parser.add_argument(
        "--player", type=Path, help="the list the bot plays from (default: the ruleset's shipped lexicon)"
    )
    parser.add_argument("--player-add", type=Path, action="append", default=[], help="more words for the bot's list")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sandbox's bags (default 1)")
    parser.add_argument("--block", type=int, default=20, help="games per row of the table (default 20)")
    parser.add_argument("--strategy", default="equity", help="the bot's strategy (default equity: fast)")
    args = parser.parse_args(argv)
    rules = Ruleset.for_id(args.ruleset)
    try:
        referee = load_list(rules, args.referee, args.referee_add)
        if args.player is None:
            player = LexiconRegistry([]).get(rules.id)
        else:
            player = load_list(rules, args.player, args.player_add)
    except LexiconError as exc:
        print(f"python -m sandbox.lab.referee: {exc}", file=sys.stderr)
        return 1
    print(f"referee {len(referee):,} words, player {len(player):,} words, ruleset {rules.id} {rules.code}", flush=True)

    def show(number: int, report: RefereeReport) -> None:
        print(f"\rgame {number}/{args.games}: {sum(report.refusals)} refusals", end="", file=sys.stderr, flush=True)

    report = play(rules.id, referee, player, args.games, args.seed, strategy=args.strategy, progress=show)
    print(file=sys.stderr)
    print("\n".join(report.lines(args.block)))
    print(report.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
