"""How fast learned acceptances close the gap between the bot's lexicon and the server's, and what
the learned words cost per turn (``--cost``).

``python -m sandbox.lab.acceptgap --games 100`` plays the bot (ENABLE, learning what the server accepts)
against the sandbox's greedy house player over HTTP, on a sandbox whose lexicon is ENABLE plus
extra valid words ENABLE lacks (by default the 31 two-letter words of Collins that ENABLE has
not). It counts, for every extra word, the game in which the house first played it (the bot sees
it) and the game in which the bot first played it itself, and prints the share of the extra words
seen in play that the bot went on to play, block by block.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.api.credentials import Credentials
from bot.play.app import build
from bot.settings.config import ApiConfig, BotConfig, DictionariesConfig, PlayConfig, ScheduleConfig
from bot.store.store import Store
from dictionaries import ENGLISH_DAWG, bundled_path
from engine import native
from engine.board.move import Placement
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.rules.ruleset import Ruleset
from sandbox.server import SandboxServer
from sandbox.state import State

#: Valid in Collins, missing from ENABLE (the two-letter words measured on 2026-11-24).
COLLINS_TWOS = [
    *("CH", "DA", "DI", "EA", "EE", "EW", "FE", "FY", "GI", "GU", "IO", "JA", "KI", "KO", "KY", "NY"),
    *("OB", "OI", "OK", "OO", "OU", "PO", "QI", "ST", "TE", "UG", "UR", "YU", "ZA", "ZE", "ZO"),
]


@dataclass
class GapReport:
    """Per extra word: the game the house first played it in, and the first game the bot did."""

    games: int = 0
    seen: dict[str, int] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    bot_moves: int = 0
    bot_moves_with_extra: list[int] = field(default_factory=list)  # per game
    seconds: float = 0.0

    def lines(self, block: int) -> list[str]:
        """A row per block of games: extra words seen so far, played by the bot so far, the share."""
        rows = ["| after game | extra words seen | of them played by the bot | share | bot moves using one (block) |"]
        rows.append("| --- | --- | --- | --- | --- |")
        for end in range(block, self.games + 1, block):
            seen = {w for w, g in self.seen.items() if g <= end}
            played = {w for w in seen if self.played.get(w, end + 1) <= end}
            share = f"{len(played) / len(seen):.0%}" if seen else "-"
            with_extra = sum(self.bot_moves_with_extra[end - block : end])
            rows.append(f"| {end} | {len(seen)} | {len(played)} | {share} | {with_extra} |")
        never = sorted(set(self.seen) - set(self.played))
        rows.append(f"\nseen but never played by the bot: {', '.join(never) or 'none'}")
        early = sorted(w for w in self.played if w not in self.seen)
        rows.append(f"played by the bot before the house played them: {', '.join(early) or 'none'}")
        rows.append(f"{self.games} games, {self.bot_moves} bot moves, {self.seconds:.0f} s")
        return rows


def measure(
    games: int, seed: int, extra: Sequence[str], *, progress: Callable[[int, GapReport], None] | None = None
) -> GapReport:
    """Play ``games`` games bot vs house on ENABLE + ``extra`` and follow the extra words."""
    rules = Ruleset.for_id(5)
    enable = _enable(rules)
    extras = {w.upper() for w in extra} - {w for w in (e.upper() for e in extra) if w in enable}
    larger = enable.with_words([rules.alphabet.parse_word(w) for w in extras])
    state = State(lambda ruleset: larger, time.time, seed=seed)
    bot_user = state.add_user("bot", "bot@sandbox.local", "gap-password")
    house = state.add_user("house", "house@sandbox.local", "house-password")
    state.house.add(house.id)
    report = GapReport()
    started = time.perf_counter()
    with SandboxServer(state) as server, tempfile.TemporaryDirectory() as scratch:
        lexicons = Path(scratch) / "lexicons"  # the bot plays ENABLE, not ruleset 5's shipped default
        lexicons.mkdir()
        shutil.copy(bundled_path(ENGLISH_DAWG), lexicons / "en.dawg")
        config = BotConfig(  # static equity: the measurement is about words, and it plays hundreds of games
            api=ApiConfig(base_url=server.base_url),
            schedule=ScheduleConfig(quarantine_seconds=0),
            play=PlayConfig(strategy="equity"),
            dictionaries=DictionariesConfig(directory=lexicons),
        )
        credentials = Credentials.from_password("email", bot_user.email, "gap-password")
        store = Store(Path(scratch) / "gap.sqlite3")
        wiring = build(config, credentials, store=store)
        wiring.client.login()
        for number in range(1, games + 1):
            first, second = (bot_user, house) if number % 2 else (house, bot_user)
            sgame = state.new_game(first, second, 5)
            while not sgame.game.is_over:
                wiring.bot.turns.play(sgame.id)
            wiring.bot.turns.play(sgame.id)  # read the final position: the house's last move teaches too
            bot_seat = sgame.players.index(bot_user.id)
            with_extra = 0
            for turn in sgame.game.history:
                if not isinstance(turn.action, Placement):
                    continue
                found = [w for w in turn.words if w in extras]
                book = report.played if turn.player == bot_seat else report.seen
                for word in found:
                    book.setdefault(word, number)
                if turn.player == bot_seat:
                    report.bot_moves += 1
                    with_extra += bool(found)
            report.bot_moves_with_extra.append(with_extra)
            report.games = number
            if progress is not None:
                progress(number, report)
        store.close()
    report.seconds = time.perf_counter() - started
    return report


def _enable(rules: Ruleset) -> Dawg:
    """ENABLE, which ruleset 0 ships (ruleset 5's default is larger: word-list + ENABLE)."""
    return Dawg.load(bundled_path(ENGLISH_DAWG), rules.alphabet)


def overlay_cost(extra: Sequence[str], seed: int = 1, positions: int = 300) -> list[str]:
    """What the learned words cost: making ENABLE + ``extra`` as a derived copy (``with_words``) and as
    a rebuilt minimal DAWG (with the C generator's copy of each), and the move generation of every
    position of seeded greedy self-play games on either (best of 3 per position)."""
    rules = Ruleset.for_id(5)
    parse = rules.alphabet.parse_word
    enable = _enable(rules)
    added = [parse(w) for w in extra]
    start = time.perf_counter()
    derived = enable.with_words(added)
    if native.NATIVE is not None:
        native.lexicon(derived)
    made_derived = time.perf_counter() - start
    start = time.perf_counter()
    rebuilt = Dawg.build([*enable.words(), *added], rules.alphabet)
    if native.NATIVE is not None:
        native.lexicon(rebuilt)
    made_rebuilt = time.perf_counter() - start
    start = time.perf_counter()
    derived.with_words([parse("XU"), parse("QAT"), parse("ZZZS")])  # a turn that learns one more word
    one_more = time.perf_counter() - start
    times: dict[str, list[float]] = {"derived": [], "rebuilt": []}
    rng = random.Random(seed)
    while len(times["rebuilt"]) < positions:
        game = Game(rules, rebuilt, random.Random(rng.randrange(2**32)))
        while not game.is_over and len(times["rebuilt"]) < positions:
            for name, lexicon in (("derived", derived), ("rebuilt", rebuilt)):
                best = float("inf")
                for _ in range(3):
                    tick = time.perf_counter()
                    moves = generate(game.board, game.rack, lexicon, rules)
                    best = min(best, time.perf_counter() - tick)
                times[name].append(best * 1000)
            if moves:
                game.place(max(moves, key=lambda m: (m.score or 0, sorted(m.tiles))))
            else:
                game.pass_turn()
    per_turn = {name: (statistics.median(t), sum(t) / len(t)) for name, t in times.items()}
    return [
        f"words added: {len(derived) - len(enable)}; generator: {native.GENERATOR}",
        f"derived copy (with_words + C copy): {made_derived * 1000:.0f} ms, {len(derived.child):,} edges; "
        f"one more word on it: {one_more * 1000:.0f} ms",
        f"rebuilt minimal DAWG (Dawg.build + C copy): {made_rebuilt * 1000:.0f} ms, {len(rebuilt.child):,} edges",
        f"move generation over {positions} positions, median / mean ms: derived "
        f"{per_turn['derived'][0]:.3f} / {per_turn['derived'][1]:.3f}, rebuilt "
        f"{per_turn['rebuilt'][0]:.3f} / {per_turn['rebuilt'][1]:.3f}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox.lab.acceptgap", description=(__doc__ or
    "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sandbox's bags (default 1)")
    parser.add_argument("--block", type=int, default=10, help="games per row of the table (default 10)")
    parser.add_argument(
        "--extra",
        type=Path,
        help="a file of extra valid words, one a line (default: Collins's two-letter words ENABLE lacks)",
    )
    parser.add_argument(
        "--cost", action="store_true", help="instead: time a derived copy against a rebuild, and moves on each"
    )
    args = parser.parse_args(argv)
    extra = args.extra.read_text(encoding="utf-8").split() if args.extra else list(COLLINS_TWOS)
    if args.cost:
        print("\n".join(overlay_cost(extra, args.seed)))
        return 0

    def show(number: int, report: GapReport) -> None:
        counts = f"{len(report.seen)} extra words seen, {len(report.played)} played by the bot"
        print(f"\rgame {number}/{args.games}: {counts}", end="", file=sys.stderr, flush=True)

    report = measure(args.games, args.seed, extra, progress=show)
    print(file=sys.stderr)
    print("\n".join(report.lines(args.block)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
