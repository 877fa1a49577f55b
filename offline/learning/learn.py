"""``wordfeud-bot learn-leaves``: self-play on several processes or a Dask cluster, then a least-squares
leave table.

Games are played in chunks; each finished chunk's samples come back to this process (a cluster
worker need not share its filesystem) and go to their own file in the work directory (written
whole, then renamed), so an interrupted run loses at most the chunks in progress and running the
same command again plays only what is missing. The settings of a work
directory are fixed by its ``manifest.json``: asking for other ones is an error, not a mixed table.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from engine.board.rack import Rack
from engine.equity.fulltable import FullLeave, LeaveStats, fit_full
from engine.equity.leastsquares import RidgeProblem
from engine.equity.leave import LeaveModel
from engine.equity.leavesamples import sample_game
from engine.equity.leavetable import LearnedLeave, LeaveFeatures, read_table
from engine.equity.nativesamples import native_sample_game, plays_natively
from engine.errors import LeaveTableError
from engine.players.arena import pair_seed
from engine.players.registry import strategy_named, table_file
from engine.rules.ruleset import Ruleset
from offline.errors import LearnError, WorkDirError
from offline.runs import workdir
from offline.runs.workers import progress_printer, run_chunks, worker_lexicon, worker_needs

EMPTY_LEAVE = "-"  # how a leave of no tiles is written in a sample file
NO_LEAVE = "*"  # no next leave: no full draw followed the next move

#: A sample as counted: the leave, the next score, the next leave (None: no full draw followed).
Sample = tuple[str, int, str | None]


@dataclass(frozen=True)
class Settings:
    """What makes the samples of a work directory comparable (stored in its manifest)."""

    ruleset: int
    seed: int
    player: str
    explore: float
    chunk: int

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def prepare(work: Path, settings: Settings) -> None:
    """Create the work directory with its manifest, or check an existing one has the same settings."""
    try:
        workdir.prepare(work, settings.as_dict())
    except WorkDirError as error:
        raise LearnError(str(error).replace("holds results", "holds samples")) from None


def chunk_path(work: Path, first: int, last: int) -> Path:
    """The sample file of games ``first``..``last`` (inclusive)."""
    return work / f"games-{first:06d}-{last:06d}.tsv"


def chunks(games: int, size: int) -> list[tuple[int, int]]:
    """The (first, last) game index of each chunk of a run of ``games`` games."""
    return [(first, min(first + size, games) - 1) for first in range(0, games, size)]


#: Where the games are played: C when it can play the player, C only, or the Python reference (the same samples).
LOOPS = ("auto", "c", "python")


def check_loop(loop: str, settings: Settings) -> None:
    """Refuse an unknown loop, or ``c`` for a player the C loop cannot play (naming why)."""
    if loop not in LOOPS:
        raise LearnError(f"unknown loop {loop!r}; one of: {', '.join(LOOPS)}")
    if loop == "c" and not plays_natively(strategy_named(settings.player), Ruleset.for_id(settings.ruleset)):
        raise LearnError(
            f"the C loop plays equity with a learned (factorised) leave table, not {settings.player!r}; "
            "use --loop python or --loop auto"
        )


def _play_chunk(settings: Settings, games: tuple[int, int], loop: str = "auto") -> str:
    """Worker: play games first..last; returns their sample lines (the caller writes the file)."""
    first, last = games
    rules = Ruleset.for_id(settings.ruleset)
    lexicon = worker_lexicon(settings.ruleset)
    player = strategy_named(settings.player)
    lines: list[str] = []
    for game in range(first, last + 1):
        seed = pair_seed(settings.seed, game)
        samples = (
            None if loop == "python" else native_sample_game(player, rules, lexicon, seed, explore=settings.explore)
        )
        if samples is None:
            samples = sample_game(player, rules, lexicon, seed, explore=settings.explore)
        for sample in samples:
            after = NO_LEAVE if sample.next_leave is None else sample.next_leave or EMPTY_LEAVE
            lines.append(f"{sample.leave or EMPTY_LEAVE}\t{sample.score}\t{after}\n")
    return "".join(lines)


def play_games(
    work: Path,
    settings: Settings,
    games: int,
    *,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    scheduler: str | None = None,
    loop: str = "auto",
) -> int:
    """Play the games of the run that have no sample file yet; returns how many games were played now.

    With ``scheduler`` the chunks run on that Dask cluster instead of ``workers`` local processes; ``loop``
    is one of ``LOOPS`` (both loops write the same samples)."""
    strategy_named(settings.player)  # an unknown name fails here, not in a worker
    check_loop(loop, settings)
    worker_lexicon(settings.ruleset)  # a missing lexicon fails here, naming the command that builds it
    prepare(work, settings)
    missing = [(a, b) for a, b in chunks(games, settings.chunk) if not chunk_path(work, a, b).exists()]
    done = games - sum(b - a + 1 for a, b in missing)
    if progress:
        progress(done, games)
    played = 0
    play = partial(_play_chunk, settings, loop=loop)
    tables = (file,) if (file := table_file(settings.player)) is not None else ()
    needs = partial(worker_needs, settings.ruleset, tables)
    for index, text in run_chunks(play, missing, workers=workers, scheduler=scheduler, needs=needs):
        first, last = missing[index]
        workdir.write_whole(chunk_path(work, first, last), text)
        played += last - first + 1
        if progress:
            progress(done + played, games)
    return played


def read_samples(work: Path, games: int, chunk: int, *, start: int = 0) -> Counter[Sample]:
    """Every (leave, next score, next leave) sample of the run's games (from game ``start``), counted."""
    counts: Counter[Sample] = Counter()
    for first, last in chunks(games, chunk):
        if first < start:
            continue
        path = chunk_path(work, first, last)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise LearnError(f"cannot read samples {path}: {error.strerror or error}") from None
        for number, line in enumerate(text.splitlines(), 1):
            fields = line.split("\t")
            if len(fields) != 3 or not fields[1].isdigit():
                raise LearnError(f"{path}:{number}: not a sample line (leave, score, next leave): {line!r}")
            leave, score, after = fields
            counts[(_leave_text(leave), int(score), None if after == NO_LEAVE else _leave_text(after))] += 1
    return counts


def _leave_text(field: str) -> str:
    return "" if field == EMPTY_LEAVE else field


@dataclass(frozen=True)
class Fit:
    """A fitted table and how the bootstrap rounds went (largest change of any weight per round)."""

    table: LearnedLeave
    changes: tuple[float, ...]


def fit_table(counts: Counter[Sample], rules: Ruleset, *, ridge: float, rounds: int, about: dict[str, object]) -> Fit:
    """Fit the factorised leave model to the samples (aggregated per distinct leave).

    Round 1 fits the next turn's score alone; each further round fits the next score plus the
    value the fit before it gives the next leave, so a tile worth keeping again is worth more.
    """
    features = LeaveFeatures.for_ruleset(rules)
    active: dict[str, list[int]] = {}

    def features_of(leave: str) -> list[int]:
        found = active.get(leave)
        if found is None:
            try:
                found = active[leave] = features.of_rack(Rack.from_text(leave, rules.alphabet))
            except ValueError as error:
                raise LearnError(f"sample leave {leave!r} is not a rack of ruleset {rules.id}: {error}") from None
        return found

    by_leave = leave_stats(counts)
    leaves = list(by_leave)
    problem = RidgeProblem(
        [(features_of(leave), by_leave[leave].count) for leave in leaves], features.size, ridge=ridge
    )
    weights = [0.0] * features.size
    baseline = 0.0
    changes: list[float] = []
    for _ in range(rounds):
        totals = []
        for leave in leaves:
            stats = by_leave[leave]
            later = sum(n * sum(weights[i] for i in features_of(after)) for after, n in stats.afters.items())
            totals.append(stats.score_sum + later)
        baseline, fitted = problem.fit(totals)
        changes.append(max(abs(a - b) for a, b in zip(fitted, weights, strict=True)))
        weights = fitted
    details = {
        **about,
        "samples": sum(counts.values()),
        "distinct_leaves": len(leaves),
        "ridge": ridge,
        "rounds": rounds,
    }
    return Fit(LearnedLeave(rules.id, features, tuple(weights), baseline, details), tuple(changes))


def leave_stats(counts: Counter[Sample]) -> dict[str, LeaveStats]:
    """The samples aggregated per distinct leave (the next leaves of nothing kept are left out: worth 0)."""
    totals: dict[str, list[float]] = {}
    afters: dict[str, Counter[str]] = {}
    for (leave, score, after), n in counts.items():
        total = totals.setdefault(leave, [0, 0.0])
        total[0] += n
        total[1] += n * score
        later = afters.setdefault(leave, Counter())
        if after:
            later[after] += n
    return {leave: LeaveStats(int(n), score_sum, afters[leave]) for leave, (n, score_sum) in totals.items()}


def fit_full_table(
    counts: Counter[Sample], base: LearnedLeave, rules: Ruleset, *, min_count: int, shrink: float, rounds: int
) -> FullLeave:
    """A full table over ``base`` (``engine.equity.fulltable``): own values for the leaves seen ``min_count`` times."""
    try:
        return fit_full(
            leave_stats(counts), base, rules, min_count=min_count, shrink=shrink, rounds=rounds, about=dict(base.about)
        )
    except ValueError as error:
        raise LearnError(f"cannot fit the full table: {error}") from None


def _targets(
    counts: Counter[Sample], model: LeaveModel, target: LeaveModel, rules: Ruleset
) -> Iterator[tuple[int, float]]:
    """(samples, next score + ``target``'s value of the next leave - ``model``'s of the leave) per distinct sample."""
    alphabet = rules.alphabet
    values: dict[tuple[int, str], float] = {}

    def value(which: int, of: LeaveModel, text: str) -> float:
        found = values.get((which, text))
        if found is None:
            found = values[(which, text)] = of.value(Rack.from_text(text, alphabet)) if text else 0.0
        return found

    for (leave, score, after), n in counts.items():
        yield n, score + (value(1, target, after) if after else 0.0) - value(0, model, leave)


def held_out_error(
    fitted: Counter[Sample], held: Counter[Sample], model: LeaveModel, target: LeaveModel, rules: Ruleset
) -> float:
    """Mean squared error over the ``held`` samples of ``c + model(leave)`` as a prediction of the next
    score plus ``target``'s value of the next leave (the target every model is judged on), where ``c`` is
    the mean of the target minus the model over the ``fitted`` samples (so that a table is not judged on
    its baseline, which no move's choice depends on)."""
    n = total = 0.0
    for count, rest in _targets(fitted, model, target, rules):
        n += count
        total += count * rest
    centre = total / n if n else 0.0
    n = total = 0.0
    for count, rest in _targets(held, model, target, rules):
        n += count
        total += count * (rest - centre) ** 2
    return total / n if n else 0.0


def player_table_about(player: str, rules: Ruleset) -> dict[str, object] | None:
    """The ``about`` of the table an ``equity:FILE`` player played the games with, so that a table learned
    from it and copied over it keeps the lineage; None for other players or a file without one.

    >>> player_table_about("greedy", Ruleset.for_id(5)) is None
    True
    """
    path = table_file(player)
    if path is None:
        return None
    try:
        about = read_table(path, rules).about
    except LeaveTableError:
        return None  # the games were played with it; only the record of its own making is lost
    return dict(about) or None


def table_lines(table: LearnedLeave, rules: Ruleset) -> Iterator[str]:
    """A short human summary of a fitted table: the tiles from most to least valuable, some examples."""
    singles = sorted(((table.weight(s), s) for s in [*rules.alphabet.symbols, "?"]), reverse=True)
    yield f"  baseline (next score after keeping nothing): {table.baseline:.1f}"
    yield "  single tiles: " + " ".join(f"{s} {w:+.1f}" for w, s in singles)
    for text in ("?", "S", "ERS", "Q", "QU", "VV", "EEE", "AEINST"):
        try:
            leave = Rack.from_text(text, rules.alphabet)
        except ValueError:
            continue
        yield f"  leave {text}: {table.value(leave):+.1f}"


#: Rounds of the full table's fit after the factorised one (the changes are below 0.01 point after 3).
FULL_ROUNDS = 5


def learn(
    work: Path,
    out: Path,
    settings: Settings,
    games: int,
    *,
    ridge: float,
    rounds: int,
    workers: int | None = None,
    scheduler: str | None = None,
    full: int = 0,
    shrink: float = 100.0,
    held_out: int = 0,
    shipped: LearnedLeave | None = None,
    loop: str = "auto",
) -> Iterator[str]:
    """The whole command: play what is missing (progress on stderr), fit, write the table; yields report lines.

    ``full`` > 0 writes a full table (own values for the leaves seen that many times, ``shrink``) over the
    factorised fit; ``held_out`` games at the end of the run are left out of the fit and the models'
    mean squared errors on their samples are reported (``shipped``, the table that ships, among them)."""
    started = time.monotonic()
    if not 0 <= held_out < games or held_out % settings.chunk:
        raise LearnError(f"--held-out {held_out} must be a multiple of --chunk {settings.chunk} below --games {games}")
    progress = progress_printer("games")
    played = play_games(work, settings, games, workers=workers, progress=progress, scheduler=scheduler, loop=loop)
    rules = Ruleset.for_id(settings.ruleset)
    fitted = games - held_out
    counts = read_samples(work, fitted, settings.chunk)
    about: dict[str, object] = {"games": fitted, **settings.as_dict()}
    del about["chunk"]
    if (lineage := player_table_about(settings.player, rules)) is not None:
        about["player_table"] = lineage
    fit = fit_table(counts, rules, ridge=ridge, rounds=rounds, about=about)
    table: LearnedLeave | FullLeave = fit.table
    if full:
        table = fit_full_table(counts, fit.table, rules, min_count=full, shrink=shrink, rounds=FULL_ROUNDS)
    out.parent.mkdir(parents=True, exist_ok=True)
    workdir.write_whole(out, table.to_json(rules) if isinstance(table, FullLeave) else table.to_json())
    leaves = fit.table.about["distinct_leaves"]
    yield f"{fitted} games ({played} played now), {sum(counts.values())} samples of {leaves} distinct leaves"
    yield "  largest change of a value per round: " + ", ".join(f"{c:.2f}" for c in fit.changes)
    yield from table_lines(fit.table, rules)
    if isinstance(table, FullLeave):
        yield f"  full table: own values for {len(table.values)} leaves seen at least {full} times (shrink {shrink:g})"
    if held_out:
        check = read_samples(work, games, settings.chunk, start=fitted)
        yield f"  held out: {held_out} games, {sum(check.values())} samples; mean squared error of the next score"
        yield "  plus the value of the next leave, by the factorised fit / by the model itself:"
        models: list[tuple[str, LeaveModel]] = [("no leave values", _Nothing())]
        if shipped is not None:
            models.append(("the shipped table", shipped))
        models.append(("factorised fit", fit.table))
        if isinstance(table, FullLeave):
            models.append(("full table", table))
        for name, model in models:
            common = held_out_error(counts, check, model, fit.table, rules)
            own = held_out_error(counts, check, model, model, rules)
            yield f"    {name}: {common:.3f} / {own:.3f}"
    yield f"wrote {out} ({out.stat().st_size} bytes) in {time.monotonic() - started:.0f} s"


class _Nothing:
    """Every leave worth 0 (the held-out error's reference)."""

    def value(self, leave: Rack) -> float:
        return 0.0
