"""The GCG parts of ``replay`` and ``hint``: write the recorded games as GCG files, read one back.

``replay GAME --gcg FILE`` and ``replay --gcg-dir DIR`` write; ``replay --gcg FILE`` (no GAME) plays
a record back with the engine's score of every play and what the strategy would play where the rack
is known; ``hint --gcg FILE [--move N]`` takes the position before move N (default: the end).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.errors import StoreError
from bot.records.gcg import MAX_BYTES, EventKind, GcgError, decode_gcg, parse_gcg, write_gcg
from bot.records.gcg_game import ImportedGame, play_back, play_text, record_to_gcg, ruleset_of
from bot.records.history import record
from bot.store.store import Store
from bot.views.hint import situation_for
from engine.board.move import Placement, format_move
from engine.board.rack import Rack
from engine.equity.strategy import Situation, Strategy
from engine.errors import EngineError
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.movegen.score import score
from engine.wholefile import write_whole


def export_game(store: Store, game_id: int, out: Path) -> str:
    """Write one recorded game as GCG; returns the line to print. LookupError/GcgError when it cannot."""
    text = write_gcg(record_to_gcg(record(store, game_id)))
    try:
        write_whole(out, text)
    except OSError as exc:
        raise StoreError(f"cannot write {out}: {exc.strerror or exc}") from None
    return f"wrote {out} ({len(text.encode('utf-8')):,} bytes)"


def export_all(store: Store, directory: Path, say: Callable[[str], None]) -> int:
    """Write every recorded game to ``DIR/<id>.gcg``; returns how many could not be written (each said)."""
    if not directory.is_dir():
        raise StoreError(f"--gcg-dir {directory}: not a directory")
    failed = 0
    for row in store.games():
        try:
            say(export_game(store, row.game_id, directory / f"{row.game_id}.gcg"))
        except (LookupError, GcgError, EngineError) as exc:
            failed += 1
            say(f"game {row.game_id}: not written: {exc}")
    return failed


def read_record(path: Path, ruleset: int | None) -> ImportedGame:
    """A GCG file played back on the standard board of its ruleset."""
    source = str(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise GcgError(f"cannot read {source}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise GcgError(f"{source}: larger than {MAX_BYTES} bytes; not a game record")
    game = parse_gcg(decode_gcg(data, source), source)
    return play_back(game, ruleset_of(game, ruleset, source), source)


_ADJUSTMENTS = {
    EventKind.CHALLENGE_BONUS: "challenge bonus",
    EventKind.TIME_PENALTY: "time penalty",
    EventKind.END_POINTS: "end rack points",
    EventKind.END_PENALTY: "end rack penalty",
}


def replay_lines(imported: ImportedGame, lexicon: Dawg, strategy: Strategy) -> list[str]:
    """Every event of an imported record in order: each turn with its recorded and engine score (a phony
    taken off marked withdrawn) and what the strategy would play where the record gives the mover's whole
    rack; each bonus, penalty and end rack with its points."""
    rules = imported.rules
    lines = []
    turns = iter(imported.turns)
    for event in imported.events:
        if event.kind is EventKind.WITHDRAWN:
            continue  # said on the play it takes off
        if event.kind in _ADJUSTMENTS:
            tiles = f" {event.tiles}" if event.kind in (EventKind.END_POINTS, EventKind.END_PENALTY) else ""
            lines.append(f"  {event.nick}: {_ADJUSTMENTS[event.kind]}{tiles} {event.score:+d}, total {event.total}")
            continue
        turn = next(turns)
        if turn.move is not None:
            engine_points = score(turn.board, turn.move, rules)
            text = f"{event.position} {event.word}: recorded {event.score:+d}, Wordfeud board {engine_points}"
            if turn.withdrawn:
                text += ", withdrawn (phony taken off)"
        elif event.kind is EventKind.PASS:
            text = "pass"
        else:
            text = f"exchange {event.tiles or event.count}"
        line = f"move {turn.number}: {event.nick} {text}"
        situation = _situation(imported, turn.number, None, lexicon)
        if situation is not None:
            placements = generate(situation.board, situation.rack, lexicon, rules)
            top = strategy.rank(situation, placements)[0]
            best = _gcg_move(top, situation)
            line += f"; rack {event.rack}: {strategy.name} would play {best}"
        lines.append(line)
    return lines


def board_totals(imported: ImportedGame) -> tuple[int, int]:
    """The record's final totals with every play that stayed on the board scored on the Wordfeud board
    (bonuses, penalties and end racks as recorded)."""
    totals = list(imported.scores)
    for turn in imported.turns:
        if turn.move is not None and not turn.withdrawn:
            totals[turn.seat] += score(turn.board, turn.move, imported.rules) - turn.event.score
    return totals[0], totals[1]


def summary_lines(imported: ImportedGame) -> list[str]:
    """The closing lines of a played-back record: the final totals, and when the plays score otherwise on
    the Wordfeud board (a Scrabble game: another board, other tile values), both totals, said in words."""
    players = imported.game.players
    nicks = (players[0].nick, players[1].nick)
    rules = imported.rules
    plays = [(t, t.move) for t in imported.turns if t.move is not None]
    differ = sum(1 for turn, move in plays if score(turn.board, move, rules) != turn.event.score)
    lines = []
    if differ:
        recorded, ours = imported.scores, board_totals(imported)
        lines.append(
            f"{differ} of {len(plays)} play{'s' if len(plays) != 1 else ''} score otherwise on the Wordfeud board: "
            f"the record's game had another board (other premium squares) and other tile values than Wordfeud's "
            f"{rules.name} (a Scrabble game?); totals: in the record {nicks[0]} {recorded[0]}, {nicks[1]} "
            f"{recorded[1]}; on the Wordfeud board {nicks[0]} {ours[0]}, {nicks[1]} {ours[1]} (plays rescored; "
            "bonuses, penalties and end racks as recorded)"
        )
    if imported.end is not None:
        lines.append(imported.end.line())
    moves = len(imported.turns)
    lines.append(
        f"{moves} move{'s' if moves != 1 else ''} played back on the {rules.name} standard board; final totals "
        f"{nicks[0]} {imported.scores[0]}, {nicks[1]} {imported.scores[1]}"
    )
    return lines


def _gcg_move(move: object, situation: Situation) -> str:
    if isinstance(move, Placement):
        position, word = play_text(move, situation.board)
        return f"{position} {word} {move.score}"
    return format_move(move, situation.board)  # type: ignore[arg-type]


def _situation(imported: ImportedGame, move: int | None, rack_text: str | None, lexicon: Dawg) -> Situation | None:
    """The situation before turn ``move`` (None: after the last), with the record's rack or ``rack_text``;
    None when no whole rack is known."""
    rules = imported.rules
    if move is None:
        board, scores, recorded, seat = imported.board, imported.scores, "", _next_seat(imported)
    else:
        turn = imported.turns[move - 1]
        board, scores, recorded, seat = turn.board, turn.scores, turn.rack, turn.seat
    text = rack_text or recorded
    if not text:
        return None
    rack = Rack.from_text(text, rules.alphabet, max_size=rules.rack_size)
    situation = situation_for(board, rack, rules, lexicon, scores=(scores[seat], scores[1 - seat]))
    whole = len(rack) == rules.rack_size or situation.bag_count == 0
    return situation if rack_text or whole else None


def hint_situation(
    path: Path, move: int | None, rack: str | None, ruleset: int | None, lexicons: Callable[[int], Dawg]
) -> tuple[Situation, tuple[str, str]]:
    """``hint --gcg FILE [--move N]``: the position before move N (default: after the last move)."""
    imported = read_record(path, ruleset)
    count = len(imported.turns)
    if move is not None and not 1 <= move <= count:
        raise GcgError(f"--move {move}: {path} has moves 1..{count}")
    situation = _situation(imported, move, rack, lexicons(imported.rules.id))
    if situation is None:
        where = f"before move {move}" if move is not None else "at the end"
        raise GcgError(f"{path} does not give the whole rack {where}: add --rack, e.g. --rack AEINST?")
    players = imported.game.players
    seat = imported.turns[move - 1].seat if move is not None else _next_seat(imported)
    return situation, (players[seat].name, players[1 - seat].name)


def _next_seat(imported: ImportedGame) -> int:
    """Who moves after the record's last turn (player 1 in a record with no turn)."""
    return 1 - imported.turns[-1].seat if imported.turns else 0
