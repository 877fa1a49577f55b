"""Looking ahead: a 2-ply Monte Carlo simulation of the best static candidates.

The static strategy (``Equity``) names the top ``candidates`` moves (swaps included). Each
iteration draws a rack for the opponent from the unseen tiles and an order for the bag, then plays
every candidate with those same draws (common random numbers, so that the candidates are compared
on equal luck): the candidate, the opponent's best static reply, our best static reply from what we
kept plus what we drew. A candidate's value in one iteration is the points of the three moves
(ours minus theirs) plus the value of the tiles each reply keeps (before it draws, as a static evaluation
values a move); going out counts the other rack twice. ``plies`` replies instead of two play on,
alternating, and value the leaves of each side's last reply (``plies_below``: only late in the game). After
``min_iterations`` a candidate that cannot beat the leader by more than ``tolerance`` at ``z``
standard errors of their difference over the shared draws is dropped (``engine.lookahead.confidence``). The
simulation stops when one candidate is left (the leader is clear), or when the time budget (on an
injected clock), the iteration limit or the limit of candidate playouts is spent; near the end of the
game (few tiles in the bag) candidates are ranked by their chance of winning rather than by points:
each playout's lead at its horizon turned into a chance by ``engine.lookahead.winprob`` (fitted on self-play),
or in the pre-endgame, where playouts often end the game, by whether it leaves us ahead. In the
pre-endgame (1 to ``pre_endgame`` tiles in the bag) every possible opponent rack is played out once,
weighted by how many ways the unseen tiles give it, in a random order, instead of random draws.

Randomness comes only from the injected ``random.Random``; with an iteration limit and no time
limit the choice is the same on every machine (the arena plays that way).

``_play_out`` is the readable reference. When the C extension is built and the leave model is a
learned table, ``engine.lookahead.playout`` plays the same playouts in C, a batch of draws per call (one draw
per call under a time budget, so that the clock is still read before every iteration; the kernel's
set-up for the position and the candidates is made once, ``NativeSession``); the values, and so the
statistics, pruning and choice, are the same.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.board.board import Board
from engine.board.move import Move, Pass, Placement, Swap, kept
from engine.board.rack import Rack
from engine.equity.leave import LeaveModel
from engine.equity.strategy import EndgameBudget, Equity, Situation, leave_weight
from engine.lookahead.confidence import PairedStop, metric
from engine.lookahead.inference import TEMPERATURE, RackInference, RackSource
from engine.lookahead.phases import Phase, phase
from engine.lookahead.playout import NativePlayouts, NativeSession
from engine.lookahead.preendgame import ExactValue, exact_values, opponent_racks
from engine.lookahead.winprob import WinModel
from engine.rules.ruleset import Ruleset

#: Draws per kernel call when there is no time budget (iterations are counted, not timed).
BATCH = 16
#: The most static replies a playout plays after its candidate (the kernel's MAX_PLIES).
MAX_PLIES = 8
#: With ``to_end``, the most replies a playout plays on once the bag is empty (the kernel's TO_END_REPLIES).
TO_END_REPLIES = 16


@dataclass(frozen=True)
class SimSettings:
    """How hard to look: candidates, the time budget and iteration limits, the pruning rule, and
    from how many tiles in the bag on the ranking is by wins."""

    candidates: int = 25
    seconds: float = 2.0
    max_iterations: int = 3000
    min_iterations: int = 24
    z: float = 3.0
    by_wins_below: int = 16  # tiles in the bag: below this, rank by the share of iterations won
    inference: bool = True  # draw the opponent's rack weighted by their last play (engine.lookahead.inference)
    inference_temperature: float = TEMPERATURE  # engine.lookahead.inference's default
    pre_endgame: int = 6  # tiles in the bag up to which every possible opponent rack is played out
    # rank by wins through engine.lookahead.winprob's chance (above pre_endgame), not the bare sign
    win_model: bool = True
    max_playouts: int = 20000  # candidate playouts (each iteration counts the candidates it plays)
    tolerance: float = 0.5  # points: a candidate that cannot beat the leader by more is dropped
    win_tolerance: float = 0.005  # the same by wins: a share of the iterations
    swaps: int = 1  # the best swaps simulated too when none is among the static best candidates
    plies: int = 2  # static replies after a candidate in a playout, the opponent's first
    plies_below: int | None = None  # tiles in the bag: only below this ``plies`` replies, 2 above (None: always)
    # with the bag empty after the replies, play on to the game's end (_play_out)
    to_end: bool = False
    # one tile in the bag: the best placements re-ranked exactly (engine.lookahead.preendgame)
    exact_candidates: int = 8
    exact_nodes: int = 50_000  # the endgame search's nodes for each of those and each tile the bag can hold

    def phase(self, bag_count: int) -> Phase:
        """What the look-ahead does with ``bag_count`` tiles in the bag (``engine.lookahead.phases``)."""
        return phase(
            bag_count, by_wins_below=self.by_wins_below, pre_endgame=self.pre_endgame, win_model=self.win_model,
            plies=self.plies, plies_below=self.plies_below, exact_candidates=self.exact_candidates,
        )  # fmt: skip


@dataclass
class CandidateStats:
    """A candidate's running sums: value and wins over the iterations it took part in."""

    move: Move
    static_rank: int
    total: float = 0.0  # weighted sums (each iteration counts with the weight of its opponent's rack)
    squares: float = 0.0
    wins: float = 0.0
    weight: float = 0.0
    weight_squares: float = 0.0
    count: int = 0
    alive: bool = True

    def add(self, value: float, won: float, weight: float) -> None:
        """One iteration's value and win (1, a half for a tie, 0), counted with ``weight``."""
        self.total += weight * value
        self.squares += weight * value * value
        self.wins += weight * won
        self.weight += weight
        self.weight_squares += weight * weight
        self.count += 1

    @property
    def mean(self) -> float:
        return self.total / self.weight if self.weight else -math.inf

    @property
    def win_rate(self) -> float:
        return self.wins / self.weight if self.weight else 0.0

    @property
    def effective(self) -> float:
        """The number of equally weighted iterations these are worth (Kish's effective sample size)."""
        return self.weight * self.weight / self.weight_squares if self.weight_squares else 0.0

    @property
    def error(self) -> float:
        """Standard error of the mean (infinite before two iterations)."""
        if self.count < 2:
            return math.inf
        mean = self.mean
        variance = max(0.0, self.squares / self.weight - mean * mean) * self.count / (self.count - 1)
        return math.sqrt(variance / max(self.effective, 1.0))


@dataclass
class SimResult:
    """The candidates, best first, with their statistics, and how many iterations ran."""

    ranked: list[CandidateStats]
    iterations: int
    seconds: float
    by_wins: bool
    notes: list[str] = field(default_factory=list)
    playouts: int = 0  # candidate playouts: the candidates in the running, summed over the iterations
    exact: list[ExactValue] = field(default_factory=list)  # with one tile in the bag: the best placements' exact values


def _draw(rack: Rack, bag: list[int], count: int) -> Rack:
    """The rack with ``count`` tiles (or what is left) taken from the front of ``bag`` (consumed)."""
    taken = bag[:count]
    del bag[:count]
    return rack.drawn(taken)


def _by_sign(lead: float) -> float:
    """A lead as a win by its sign: 1, a half level, 0."""
    return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0


class Simulator:
    """Simulates the top candidates of ``static`` for a situation."""

    def __init__(
        self,
        static: Equity,
        settings: SimSettings | None = None,
        *,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
        inference: RackSource | None = None,
        native: bool = True,
    ) -> None:
        self.static = static
        self.settings = settings or SimSettings()
        self.rng = rng or random.Random(0)
        self.clock = clock
        self.inference = inference
        self.native = native  # play out in C (engine.lookahead.playout) when the kernel can; False: the reference

    def simulate(self, situation: Situation, candidates: Sequence[Move]) -> SimResult:
        """Run the simulation of ``candidates`` (the static strategy's best first) in ``situation``."""
        settings = self.settings
        started = self.clock()
        stats = [CandidateStats(move, rank) for rank, move in enumerate(candidates)]
        now = settings.phase(situation.bag_count)
        by_wins = now.by_wins
        spread = situation.scores[0] - situation.scores[1]
        model = self.static.leave_model(situation.rules)
        winning = self._winning(situation, now)
        chances = [winning(entry.move) for entry in stats]  # each candidate's, its bag at the horizon reckoned once
        iterations = 0
        draws = self._every_rack(situation)
        limit = settings.max_iterations if draws is None else len(draws)
        kernel = NativePlayouts.for_situation(situation, self.static) if self.native else None
        plies = now.plies
        # a batch of draws per kernel call; one at a time under a time budget, so that the clock is
        # read before every iteration as in the reference
        batch = 1 if kernel is None or math.isfinite(settings.seconds) else BATCH
        stop = PairedStop(
            len(stats), z=settings.z, tolerance=settings.win_tolerance if by_wins else settings.tolerance
        )
        playouts = 0  # candidate playouts counted: the candidates in the running, summed over iterations
        alive = len(stats)  # the candidates still in the running
        session: NativeSession | None = None  # the kernel set up once for every candidate (at the first call)
        while iterations < limit and playouts < settings.max_playouts and alive > 1:
            if iterations and self.clock() - started >= settings.seconds:
                break
            size = min(batch, limit - iterations)
            if draws is None:
                dealt = [self._deal(situation) for _ in range(size)]
            else:
                dealt = draws[iterations : iterations + size]
            playing = [(index, entry) for index, entry in enumerate(stats) if entry.alive]
            if kernel is None:
                theirs, bag, _ = dealt[0]
                row = [
                    self._play_out(situation, entry.move, theirs, list(bag), model, plies, settings.to_end)
                    for _, entry in playing
                ]
                rows = [row]
            else:
                if session is None:
                    held, bag_size = len(dealt[0][0]), len(dealt[0][1])
                    session = kernel.session([entry.move for entry in stats], held, bag_size, plies, settings.to_end)
                rows = session.run(dealt, [index for index, _ in playing])
            for (_, _, weight), row in zip(dealt, rows, strict=True):
                metrics = []
                for (index, entry), value in zip(playing, row, strict=True):
                    if entry.alive:  # a candidate pruned earlier in the batch: its later values are not counted
                        chance = chances[index](spread + value)
                        entry.add(value, chance, weight)
                        metrics.append((index, metric(value, chance, by_wins)))
                stop.add(metrics, weight)
                iterations += 1
                playouts += len(metrics)
                if iterations >= settings.min_iterations:
                    for index in stop.dropped([index for index, _ in metrics]):
                        stats[index].alive = False
                        alive -= 1
                if alive <= 1 or playouts >= settings.max_playouts:
                    break
        ranked = sorted(stats, key=lambda s: self._key(s, by_wins))
        return SimResult(ranked, iterations, self.clock() - started, by_wins, playouts=playouts)

    def _winning(self, situation: Situation, now: Phase) -> Callable[[Move], Callable[[float], float]]:
        """How a candidate's playout lead at its horizon counts as a win: the bare sign (1, a half level,
        0), or with the win model the chance that lead wins with the tiles left then (the bag then guessed
        from the candidate's tiles and its replies' average draws, once per candidate). The sign stays in the
        pre-endgame, where playouts often end the game and the lead is the result."""
        if not now.win_model:
            return lambda move: _by_sign
        chance = WinModel.for_ruleset(situation.rules.id)
        later = situation.bag_count - now.plies * chance.tiles_per_move

        def for_move(move: Move) -> Callable[[float], float]:
            drawn = len(move.tiles) if isinstance(move, Placement) else 0
            bag = round(max(0.0, later - drawn))
            return lambda lead: chance.probability(lead, bag)

        return for_move

    # -- one iteration -----------------------------------------------------------------------

    def _deal(self, situation: Situation) -> tuple[Rack, list[int], float]:
        """A rack for the opponent drawn from the unseen tiles, the rest in a random bag order, and
        the weight of the draw (1 without inference)."""
        if self.inference is not None:
            return self.inference.deal(self.rng)
        unseen = list(situation.unseen)
        self.rng.shuffle(unseen)
        held = max(0, len(unseen) - situation.bag_count)
        theirs = Rack.from_bag_tiles(situation.rules.alphabet, unseen[:held])
        del unseen[:held]
        return theirs, unseen, 1.0

    def _every_rack(self, situation: Situation) -> list[tuple[Rack, list[int], float]] | None:
        """In the pre-endgame, every distinct rack the opponent can hold (the rest in the bag, in a random
        order) with the number of ways to hold it; None when there are more than the iteration limit, or when
        the rack source is one the enumeration may not replace."""
        if not self.settings.phase(situation.bag_count).every_rack:
            return None
        if self.inference is not None and not self.inference.enumerable:
            return None
        held = len(situation.unseen) - situation.bag_count
        racks = opponent_racks(situation.unseen, held, self.settings.max_iterations)
        if racks is None:
            return None
        pool = Counter(situation.unseen)
        draws = []
        alphabet = situation.rules.alphabet
        for rack, ways in racks:
            bag = list((pool - Counter(rack)).elements())
            self.rng.shuffle(bag)
            draws.append((Rack.from_bag_tiles(alphabet, rack), bag, float(ways)))
        # in a random order: the pruning and the stop judge the racks played so far, which must be a fair
        # sample of all of them (in the order enumerated, the first racks share their lowest tiles)
        self.rng.shuffle(draws)
        return draws

    def _play_out(
        self,
        situation: Situation,
        move: Move,
        theirs: Rack,
        bag: list[int],
        model: LeaveModel,
        plies: int = 2,
        to_end: bool = False,
    ) -> float:
        """Our ``move``, then ``plies`` static replies, the opponent's first (two: their best reply, our
        best reply): the points of the moves, ours minus theirs, and the value of the tiles each side's
        last reply kept (before its draw, weighted as the static player weighs a leave by the bag it was
        played with), as a static evaluation values a move. Going out ends the game: the other side's
        rack counts twice. With ``to_end``, when the bag is empty after those replies and nobody went out,
        replies go on (at most ``TO_END_REPLIES`` more) until one goes out or both sides pass in turn (then,
        and at that cap, the game ends as by scoreless turns: each side loses what it holds): with the bag
        empty a leave counts for nothing at the horizon, so without this the tiles stuck on a rack would
        not count."""
        board = situation.board
        rules = situation.rules
        placed = 0
        try:
            mine, spread, _ = self._apply(board, situation.rack, move, bag, rules)
            placed += isinstance(move, Placement)
            if not len(mine) and not bag:  # we went out: the game ends
                return spread + 2 * theirs.points()
            racks = [mine, theirs]  # ours, theirs
            kept_values = [0.0, 0.0]  # the tiles each side's last reply kept, valued
            passed = False  # with to_end: the reply before passed
            ply = 0
            while ply < plies or (to_end and not bag):
                if ply >= plies + TO_END_REPLIES:  # the cap: the game counted as over, by passes
                    return spread - racks[0].points() + racks[1].points()
                side = 1 - ply % 2  # the opponent replies first
                reply = self._best(board, racks[side], racks[1 - side], bag, situation)
                weight = leave_weight(len(bag))
                racks[side], points, left = self._apply(board, racks[side], reply, bag, rules)
                placed += isinstance(reply, Placement)
                spread += points if side == 0 else -points
                if not len(racks[side]) and not bag:  # this reply went out: the game ends
                    other = 2 * racks[1 - side].points()
                    return spread + other if side == 0 else spread - other
                if ply + 2 >= plies:  # this side's last reply: the horizon values what it keeps
                    kept_values[side] = weight * model.value(left)
                if to_end and not bag:
                    if isinstance(reply, Pass) and passed:  # both pass: the game ends, each loses what it holds
                        return spread - racks[0].points() + racks[1].points()
                    passed = isinstance(reply, Pass)
                ply += 1
            return spread + kept_values[0] - kept_values[1]
        finally:
            for _ in range(placed):
                board.undo()

    def _apply(self, board: Board, rack: Rack, move: Move, bag: list[int], rules: Ruleset) -> tuple[Rack, int, Rack]:
        """Play ``move`` for ``rack`` (placing tiles on the board, drawing from ``bag``): the rack after
        it, the points it scored and the tiles it kept (the rack before the draw)."""
        left = kept(rack, move)
        if isinstance(move, Placement):
            board.place(move.tiles)
            return _draw(left, bag, len(move.tiles)), move.score or 0, left
        if isinstance(move, Swap):
            refilled = _draw(left, bag, len(move.tiles))
            bag.extend(move.tiles)
            return refilled, 0, left
        return rack, 0, rack

    def _best(self, board: Board, rack: Rack, other: Rack, bag: list[int], situation: Situation) -> Move:
        """The static strategy's move for ``rack`` (the other side's tiles and the bag are what it cannot see)."""
        if not len(rack):
            return Pass()
        unseen = tuple(sorted(other.bag_tiles() + bag))
        seen = Situation(board, rack, situation.rules, situation.lexicon, unseen, len(bag))
        return self.static.best(seen, 1)[0]

    # -- ranking -------------------------------------------------------------------------------

    def _key(self, entry: CandidateStats, by_wins: bool) -> tuple[bool, float, int]:
        """Best first: those still in the running, by the mean metric the pruning compares
        (``engine.lookahead.confidence``), then in static order."""
        return (not entry.alive, -metric(entry.mean, entry.win_rate, by_wins), entry.static_rank)


class Sim:
    """The ``sim`` strategy: static equity's best candidates, then the simulation; with the bag empty
    the exact endgame search. Each decision's random draws are seeded by the position, so the same
    position gets the same draws."""

    def __init__(
        self,
        static: Equity | None = None,
        settings: SimSettings | None = None,
        *,
        name: str = "sim",
        clock: Callable[[], float] = time.monotonic,
        native: bool = True,
    ) -> None:
        self.static = static or Equity(solver=EndgameBudget(seconds=10.0, nodes=60_000))
        self.settings = settings or SimSettings()
        self.name = name
        self.clock = clock
        self.native = native  # the C playouts when they can run; False: always the Python reference
        self.last: SimResult | None = None  # the last simulation's figures, for logs and the arena

    def budgeted(self, seconds: float) -> Sim:
        """This strategy with at most ``seconds`` of simulation (and endgame search) a move."""
        static = self.static.budgeted(seconds)  # the endgame search's budget too (10 s by default)
        assert isinstance(static, Equity)
        if seconds >= self.settings.seconds and static is self.static:
            return self
        settings = dataclasses.replace(self.settings, seconds=min(seconds, self.settings.seconds))
        return Sim(static, settings, name=self.name, clock=self.clock, native=self.native)

    def rank(self, situation: Situation, placements: Sequence[Placement]) -> list[Move]:
        ranked = self.static.rank(situation, placements)
        if self.settings.phase(situation.bag_count).endgame:
            return ranked
        chosen = self._candidates(situation, ranked)
        return [*self._simulated(situation, chosen), *(m for m in ranked if m not in chosen)]

    def best(self, situation: Situation, k: int) -> list[Move]:
        width = self.settings.candidates
        if self.settings.phase(situation.bag_count).endgame:
            return self.static.best(situation, k)
        ranked = self.static.best(situation, max(k, width))
        chosen = self._candidates(situation, ranked)
        return [*self._simulated(situation, chosen), *(m for m in ranked if m not in chosen)][:k]

    def _candidates(self, situation: Situation, ranked: Sequence[Move]) -> list[Move]:
        """The static best ``candidates`` moves, and the best ``swaps`` swaps when none of those is a swap
        and the bag allows one: a rack worth changing may have placements whose equity hides it, and the
        simulation can tell."""
        chosen = list(ranked[: self.settings.candidates])
        wanted = self.settings.swaps
        allowed = situation.bag_count >= situation.rules.swap_min_bag and len(situation.rack) > 0
        if wanted and allowed and not any(isinstance(move, Swap) for move in chosen):
            swaps = [move for move in self.static.rank(situation, []) if isinstance(move, Swap)]
            chosen += [move for move in swaps[:wanted] if move not in chosen]
        return chosen

    def _simulated(self, situation: Situation, candidates: Sequence[Move]) -> list[Move]:
        moves: list[Move] = [m for m in candidates if not isinstance(m, Pass)] or list(candidates)
        if len(moves) < 2:
            return list(candidates)
        self.last = self.simulate(situation, moves)
        chosen = [entry.move for entry in self.last.ranked]
        if self.settings.phase(situation.bag_count).exact_one_in_bag:
            chosen = self._exact(situation, chosen, self.last)
        return [*chosen, *(m for m in candidates if m not in chosen)]

    def _exact(self, situation: Situation, chosen: list[Move], result: SimResult) -> list[Move]:
        """With one tile in the bag, the simulation's best ``exact_candidates`` placements valued exactly
        (``engine.lookahead.preendgame``) in what is left of the move's time: those whose searches all finished swap
        places among themselves, by the share of the bag's tiles after which we finish ahead, then the mean
        lead, then the simulation's order; the others keep their places."""
        settings = self.settings
        top = [move for move in chosen if isinstance(move, Placement)][: settings.exact_candidates]
        left = settings.seconds - result.seconds
        result.exact = exact_values(situation, top, nodes=settings.exact_nodes, seconds=left, clock=self.clock)
        known = [value for value in result.exact if value.complete]
        places = sorted(chosen.index(value.move) for value in known)
        known.sort(key=lambda value: (-value.wins, -value.mean, top.index(value.move)))
        ranked = list(chosen)
        for place, value in zip(places, known, strict=True):
            ranked[place] = value.move
        return ranked

    def simulate(self, situation: Situation, moves: Sequence[Move]) -> SimResult:
        """The simulation this strategy runs on ``moves`` in ``situation`` (its draws seeded by the position):
        the candidates ranked with their statistics. ``offline.bench.census`` measures played moves with it."""
        seed = f"{sorted(situation.board.tiles())}:{situation.rack.text()}:{situation.bag_count}"
        # the replies inside the simulation are static: an endgame search there would cost seconds each
        player = Equity(self.static.leave, source=self.static.source, swap_cost=self.static.swap_cost)
        inference = self.rack_source(situation, player)
        # the C kernel plays placements and swaps; a pass (a census may ask for one) is played in Python
        native = self.native and not any(isinstance(move, Pass) for move in moves)
        simulator = Simulator(
            player, self.settings, rng=random.Random(seed), clock=self.clock, inference=inference, native=native
        )
        return simulator.simulate(situation, moves)

    def rack_source(self, situation: Situation, player: Equity) -> RackSource | None:
        """Where the simulation's opponent racks come from: the inference from their last placement, or
        uniform draws from the unseen tiles (None). ``offline.arena.clairvoyance`` gives its players another."""
        if self.settings.inference and situation.last_play is not None:
            return RackInference(situation, player, self.settings.inference_temperature)
        return None


__all__ = ["MAX_PLIES", "CandidateStats", "Sim", "SimResult", "SimSettings", "Simulator"]
