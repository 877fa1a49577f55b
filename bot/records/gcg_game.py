"""GCG records of the bot's games, and GCG games from other programs played back on a Wordfeud board.

Export (``replay GAME --gcg FILE``): the recorded frames of ``bot.records.history`` become events: the bot's
moves with its rack, the opponent's with the tiles they played (their rack is never known), swaps
(the bot's tiles, the opponent's count), passes, and the end-of-game adjustments of Wordfeud's rules
(the player who goes out gains the other's tiles, the other loses them; after three scoreless turns
each loses their own). A ``#note`` says the Wordfeud ruleset and board, which GCG has no pragma for.

Import (``hint --gcg``, ``replay --gcg``): the events are played on the standard board of a ruleset
(the one asked for, else the record's Wordfeud note, else English, else the one ruleset whose alphabet
has all the record's letters); each turn's position is kept, with the rack when the record gives it, and
a play taken off by ``--`` is marked withdrawn; the rules' third scoreless turn in a row ends the game, and
the record's later turns are ignored (``ScorelessEnd``). A tile already on the board may be written as its letter
(older Quackle records) when it is that letter. A record of a random board is refused: its premium
squares are not in the file; so is one whose letters no ruleset has, naming them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from bot.records.gcg import EventKind, GcgError, GcgEvent, GcgGame, GcgPlayer
from bot.records.history import Frame, GameRecord
from engine.board.board import EMPTY, Board
from engine.board.move import Direction, Placement, main_word_span, parse_move, square_name
from engine.errors import EngineError
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG, BLANK_SYMBOL, LETTER_MASK, Alphabet

_WORDFEUD_NOTE = re.compile(r"Wordfeud ruleset (?P<id>\d{1,2})\b.*?\b(?P<board>standard|random) board", re.I)
_TOKEN = re.compile(r"\[[^\]]*\]|.")


def record_to_gcg(record: GameRecord) -> GcgGame:
    """The GCG record of a recorded game; GcgError when the recording does not start at the first move."""
    rules = Ruleset.for_id(record.ruleset)
    frames = record.frames
    if frames[0].moves != 0 or not frames[0].board.is_empty():
        raise GcgError(
            f"game {record.game_id}: recorded from move {frames[0].moves + 1} on; a GCG record needs the whole game"
        )
    players = _players(record.bot, record.opponent)
    nicks = (players[0].nick, players[1].nick)
    events: list[GcgEvent] = []
    notes: list[str] = [
        f"Wordfeud ruleset {rules.id} ({rules.name}), {'random' if record.random_board else 'standard'} board",
        "the bot is player 1; the opponent's racks are not known, so their events show the tiles they played",
    ]
    totals = [0, 0]
    previous = frames[0]
    for frame in frames[1:]:
        if frame.seat is None:
            events.extend(_end_events(record, previous, frame, nicks, rules.alphabet, totals))
        elif frame.action == "resigned":
            notes.append(f"{nicks[frame.seat]} resigned after move {frame.moves - 1}")
        else:
            event = _turn_event(previous, frame, nicks[frame.seat], rules.alphabet, record.game_id, totals[frame.seat])
            totals[frame.seat] = event.total
            events.append(event)
        previous = frame
    return GcgGame(
        players, tuple(events), title=f"Wordfeud game {record.game_id}", game_id=f"wordfeud {record.game_id}",
        lexicon=f"wordfeud-{rules.code}", notes=tuple(notes),
    )  # fmt: skip


def _players(bot: str, opponent: str) -> tuple[GcgPlayer, GcgPlayer]:
    """Nicknames without spaces or colons, different from each other."""
    first = _nick(bot) or "bot"
    second = _nick(opponent) or "opponent"
    if second == first:
        second += "_2"
    return GcgPlayer(first, bot or first), GcgPlayer(second, opponent or second)


def _nick(name: str) -> str:
    return re.sub(r"[^\w.-]", "_", name, flags=re.ASCII)[:32]


def _turn_event(before: Frame, frame: Frame, nick: str, alphabet: Alphabet, game_id: int, total: int) -> GcgEvent:
    """One move of the game: a play, a swap or a pass, after a total of ``total``.

    A play scores the server's points for it (the frame of the last move may already count the racks
    left at the end, which are events of their own)."""
    seat = frame.seat
    assert seat is not None
    gained = frame.points if frame.points is not None else frame.players[seat][1] - before.players[seat][1]
    rack = _gcg_tiles(frame.rack, alphabet) if seat == 0 and frame.rack else ""
    action = frame.action
    if action == "passed":
        return GcgEvent(nick, EventKind.PASS, 0, total, rack=rack)
    if not action.startswith("swapped "):
        total += gained
    if action.startswith("swapped "):
        what = action.removeprefix("swapped ").removesuffix(" tiles").removesuffix(" tile")
        if what.isdigit():
            return GcgEvent(nick, EventKind.EXCHANGE, 0, total, rack=rack, count=int(what))
        tiles = _gcg_tiles(what, alphabet)
        return GcgEvent(nick, EventKind.EXCHANGE, 0, total, rack=rack, tiles=tiles, count=_count(tiles))
    try:
        move = parse_move(action, before.board)
    except EngineError as exc:
        raise GcgError(f"game {game_id}: move {frame.moves}: {exc}") from None
    position, word = play_text(move, before.board)
    if not rack:
        rack = "".join(_tile_text(tile, alphabet) for _, _, tile in move.tiles)
    return GcgEvent(nick, EventKind.PLAY, gained, total, rack=rack, position=position, word=word)


def play_text(move: Placement, board: Board) -> tuple[str, str]:
    """GCG's square and word of a placement on the board before it: tiles already there are ``.``."""
    r0, c0, length = main_word_span(move, board)
    dr, dc = (0, 1) if move.direction is Direction.ACROSS else (1, 0)
    new = {(r, c): t for r, c, t in move.tiles}
    word = ""
    for i in range(length):
        square = (r0 + dr * i, c0 + dc * i)
        word += board.alphabet.format_tile(new[square], bracket=True) if square in new else "."
    return square_name(r0, c0, move.direction), word


def _end_events(
    record: GameRecord, before: Frame, end: Frame, nicks: tuple[str, str], alphabet: Alphabet, totals: list[int]
) -> list[GcgEvent]:
    """The racks counted at the end (the final scores against the ``totals`` of the moves): + for the tiles
    the other is left with, - for one's own."""
    left = _tiles_left(before.board, alphabet)
    mine = Counter(_tokens(_gcg_tiles(record.final_rack, alphabet)))
    theirs = left - mine
    racks = ("".join(sorted(mine.elements())), "".join(sorted(theirs.elements())))
    events = []
    for seat in (0, 1):
        change = end.players[seat][1] - totals[seat]
        if change > 0 and racks[1 - seat]:
            other = racks[1 - seat]
            events.append(GcgEvent(nicks[seat], EventKind.END_POINTS, change, end.players[seat][1], tiles=other))
        elif change < 0 and racks[seat]:
            own, total = racks[seat], end.players[seat][1]
            events.append(GcgEvent(nicks[seat], EventKind.END_PENALTY, change, total, rack=own, tiles=own))
        elif change:
            raise GcgError(f"game {record.game_id}: the final score changes by {change} but the racks are not known")
    return events


def _tiles_left(board: Board, alphabet: Alphabet) -> Counter[str]:
    """Every tile of a full bag that is not on the board (GCG text of each tile)."""
    left: Counter[str] = Counter()
    for code, count in enumerate(alphabet.counts):
        left[alphabet.format_tile(code, bracket=True)] = count
    left[BLANK_SYMBOL] = alphabet.blanks
    for _, _, tile in board.tiles():
        left[BLANK_SYMBOL if tile & BLANK_FLAG else alphabet.format_tile(tile & LETTER_MASK, bracket=True)] -= 1
    return +left


def _gcg_tiles(rack: str, alphabet: Alphabet) -> str:
    """A rack text of the project (``[C]H``-style) as GCG writes it (multi-letter tiles bracketed)."""
    return "".join(_rack_tokens(rack, alphabet))


def _rack_tokens(text: str, alphabet: Alphabet) -> list[str]:
    tokens = []
    for token, _ in alphabet._tokens(text):  # the one tokenizer of tile text
        tokens.append(BLANK_SYMBOL if token == BLANK_SYMBOL else _tile_text(alphabet.code(token), alphabet))
    return tokens


def _tile_text(tile: int, alphabet: Alphabet) -> str:
    """A rack tile as GCG writes it: ``?`` for a blank, a multi-letter tile bracketed (``[CH]``)."""
    return BLANK_SYMBOL if tile & BLANK_FLAG else alphabet.format_tile(tile, bracket=True)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _count(tiles: str) -> int:
    return len(_tokens(tiles))


@dataclass(frozen=True)
class GcgTurn:
    """A turn of an imported record: the position before it and the event that was played.

    ``number`` counts turns (plays, exchanges and passes) from 1, as the game's move numbers do;
    ``seat`` is 0 for player 1; ``rack`` is the record's rack of the player to move ('' unknown)."""

    number: int
    seat: int
    board: Board
    scores: tuple[int, int]
    rack: str
    event: GcgEvent
    move: Placement | None
    withdrawn: bool = False


@dataclass(frozen=True)
class ScorelessEnd:
    """Where the rules ended a record's game: at turn ``turn``, the ``scoreless``-th scoreless turn in a row
    (the ruleset's ``scoreless_turns_to_end``); the record's ``ignored`` events after it were not played."""

    turn: int
    scoreless: int
    ignored: int

    def line(self) -> str:
        """The line that says so."""
        later = f"{self.ignored} later event{'s' if self.ignored != 1 else ''} ignored"
        return f"the game ended at turn {self.turn} by {self.scoreless} scoreless turns; {later}"


@dataclass(frozen=True)
class ImportedGame:
    """An imported record played back: its turns and the board and scores at its end.

    ``events`` are the record's events that were played back: all of them, or those up to where the rules
    ended the game (``end``) and the end racks and penalties that follow it."""

    game: GcgGame
    rules: Ruleset
    turns: tuple[GcgTurn, ...]
    board: Board
    scores: tuple[int, int]
    events: tuple[GcgEvent, ...]
    end: ScorelessEnd | None = None


def record_letters(game: GcgGame) -> set[str]:
    """Every letter a record's plays, racks and tiles name, upper case (a bracketed ``[CH]`` is one)."""
    letters: set[str] = set()
    for event in game.events:
        for text in (event.rack, event.word, event.tiles):
            letters.update(token.strip("[]").upper() for token in _tokens(text) if token not in ".?")
    letters.discard("")
    return letters


def _missing(letters: set[str], rules: Ruleset) -> list[str]:
    return sorted(letter for letter in letters if letter not in rules.alphabet.symbols)


def _named(rulesets: list[Ruleset]) -> str:
    return ", ".join(f"{r.id} ({r.name})" for r in rulesets)


def ruleset_of(game: GcgGame, explicit: int | None = None, source: str = "GCG") -> Ruleset:
    """The ruleset a record is played back with: ``explicit``, else its Wordfeud note, else 5 (English),
    else the one ruleset whose alphabet has every letter of the record.

    GcgError for a record of a random Wordfeud board, for letters outside every ruleset's alphabet (named),
    and for letters that several rulesets have but not English (give one)."""
    for text in (*game.notes, game.description, game.title):
        m = _WORDFEUD_NOTE.search(text)
        if m is None:
            continue
        if m["board"].lower() == "random":
            raise GcgError(
                "the record is of a game on a random Wordfeud board, whose premium squares a GCG file does not "
                "hold; only standard-board games can be imported"
            )
        if explicit is None:
            explicit = int(m["id"])
        break
    if explicit is not None:
        return Ruleset.for_id(explicit)
    letters = record_letters(game)
    english = Ruleset.for_id(5)
    missing = _missing(letters, english)
    if not missing:
        return english
    holding = [r for r in Ruleset.all() if not _missing(letters, r)]
    if len(holding) == 1:
        return holding[0]
    if not holding:
        outside = [letter for letter in missing if all(letter not in r.alphabet.symbols for r in Ruleset.all())]
        if outside:
            raise GcgError(
                f"{source}: the letters {', '.join(outside)} are outside every Wordfeud ruleset's alphabet; "
                "the record cannot be played back on a Wordfeud board"
            )
        raise GcgError(f"{source}: no Wordfeud ruleset has all the letters {', '.join(missing)}")
    raise GcgError(
        f"{source}: the letters {', '.join(missing)} are in the alphabets of rulesets {_named(holding)}: "
        "give the one to play it back with (--ruleset ID)"
    )


#: What may follow the turn that ended a game: the racks counted at the end and time penalties.
_AFTER_THE_END = (EventKind.END_POINTS, EventKind.END_PENALTY, EventKind.TIME_PENALTY)


def play_back(game: GcgGame, rules: Ruleset, source: str = "GCG") -> ImportedGame:
    """Play a record's events on the standard board; GcgError names the line of an event that does not fit
    (tiles on occupied squares, ``.`` over an empty one, a total that does not add up, a lone ``--``).

    The rules' end by scoreless turns holds: the ruleset's ``scoreless_turns_to_end``-th pass, exchange
    or withdrawn play in a row (a play taken off scores nothing) ends the game there, as the engine's game
    ends it; the end racks and time penalties after it are played, and from the next turn on the record's
    events are ignored (``ImportedGame.end`` says where and how many)."""
    missing = _missing(record_letters(game), rules)
    if missing:
        holding = [r for r in Ruleset.all() if not _missing(record_letters(game), r)]
        others = f"; rulesets {_named(holding)} have them" if holding else (
            "; they are outside every Wordfeud ruleset's alphabet"
        )  # fmt: skip
        raise GcgError(
            f"{source}: the letters {', '.join(missing)} are not in the alphabet of ruleset {rules.id} "
            f"({rules.name}){others}"
        )
    nicks = (game.players[0].nick, game.players[1].nick)
    board = Board(rules.alphabet)
    scores = [0, 0]
    turns: list[GcgTurn] = []
    last_play: tuple[int, GcgEvent] | None = None
    scoreless = 0  # scoreless turns in a row
    before_play = 0  # ... before the last play (a withdrawn play's turn is one more)
    end: ScorelessEnd | None = None
    played = len(game.events)
    for index, event in enumerate(game.events):
        if end is not None and event.kind not in _AFTER_THE_END:
            played = index
            end = replace(end, ignored=len(game.events) - index)
            break
        where = f"{source}, line {event.line}" if event.line else f"{source}, {event.nick}"
        seat = nicks.index(event.nick)
        if scores[seat] + event.score != event.total:
            raise GcgError(
                f"{where}: {event.nick}'s total {event.total} is not {scores[seat]} {event.score:+d} = "
                f"{scores[seat] + event.score}"
            )
        move = None
        if event.kind is EventKind.PLAY:
            move = _placement(event, board, where)
        if event.kind in (EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE):
            turns.append(
                GcgTurn(len(turns) + 1, seat, board.copy(), (scores[0], scores[1]), event.rack, event, move)
            )
        if move is not None:
            board.place(move.tiles)
            last_play = (seat, event)
        elif event.kind is EventKind.WITHDRAWN:
            if last_play is None or last_play[0] != seat or turns[-1].event is not last_play[1]:
                raise GcgError(f"{where}: '--' withdraws a play, but {event.nick}'s last turn was not one")
            board.undo()
            turns[-1] = replace(turns[-1], withdrawn=True)
            last_play = None
        scores[seat] = event.total
        if event.kind is EventKind.PLAY:
            before_play, scoreless = scoreless, 0
        elif event.kind in (EventKind.PASS, EventKind.EXCHANGE, EventKind.WITHDRAWN):
            scoreless = before_play + 1 if event.kind is EventKind.WITHDRAWN else scoreless + 1
            if scoreless >= rules.scoreless_turns_to_end:
                end = ScorelessEnd(turns[-1].number, scoreless, 0)
    return ImportedGame(
        game, rules, tuple(turns), board, (scores[0], scores[1]), game.events[:played], end=end
    )


def _placement(event: GcgEvent, board: Board, where: str) -> Placement:
    """The tiles a play puts on the board; its ``.`` squares must hold tiles, its letters empty squares."""
    position = event.position
    across = position[0].isdigit()
    text = position if across else position[1:] + position[0]
    row, col = int(text[:-1]) - 1, "ABCDEFGHIJKLMNO".index(text[-1])
    direction = Direction.ACROSS if across else Direction.DOWN
    dr, dc = (0, 1) if across else (1, 0)
    size = len(board.grid)
    tiles = []
    for i, token in enumerate(_tokens(event.word)):
        r, c = row + dr * i, col + dc * i
        if not (0 <= r < size and 0 <= c < size):
            raise GcgError(f"{where}: {position} {event.word} runs off the board")
        square = square_name(r, c, Direction.ACROSS)
        if token == ".":
            if board.grid[r][c] == EMPTY:
                raise GcgError(f"{where}: {position} {event.word}: '.' stands for a tile on the board, but "
                               f"{square} is empty")  # fmt: skip
            continue
        try:
            (tile,) = board.alphabet.parse_tiles(token)
        except (EngineError, ValueError) as exc:
            raise GcgError(f"{where}: {position} {event.word}: {exc}") from None
        there = board.grid[r][c]
        if there != EMPTY:  # a played-through tile written as its letter (older Quackle records): it must match
            if there & LETTER_MASK == tile & LETTER_MASK:
                continue
            theirs = board.alphabet.symbol(there)
            raise GcgError(f"{where}: {position} {event.word} has {board.alphabet.symbol(tile)} on {square}, "
                           f"where the board has {theirs}")  # fmt: skip
        tiles.append((r, c, tile))
    if not tiles:
        raise GcgError(f"{where}: {position} {event.word} places no tile")
    return Placement(tuple(tiles), direction)
