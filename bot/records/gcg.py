"""GCG, the crossword-game record format that Quackle, Macondo, MAGPIE and cross-tables exchange.

A file is a list of lines: *pragmas* (``#player1 nick Full Name``, ``#lexicon``, ``#note`` ...) and
*events* (``>nick: RACK 8D WORD +24 24``), one turn or score adjustment each, with the event's score
and the player's cumulative total. This module reads and writes the text only; what the events do to
a board is ``bot.records.gcg_game``'s business.

As the specification and its most-used readers (Macondo, MAGPIE) have it: a file is ISO 8859-1 unless its
first line is ``#character-encoding UTF-8`` (``decode_gcg``); a ``#note`` goes on over the lines after it
that are neither a pragma nor an event; letters are any alphabet's (``é``, ``Å``, ``Ł``), whether a
Wordfeud ruleset has them is the playing back's question.

Events (``RACK`` is the rack before the event, as far as it is known; a blank is ``?``):

==========================================  =====================================================
``>nick: RACK 8D WORD +24 24``               a play: row-first square across, ``D8`` down; tiles
                                             already on the board are ``.`` (older Quackle records:
                                             their letters), a blank lower case
``>nick: RACK -- -24 0``                     the previous play withdrawn (a phony challenged off)
``>nick: RACK - +0 24``                      a pass
``>nick: RACK -ABC +0 24``                   an exchange of A, B and C (``-3``: three unknown tiles)
``>nick: RACK (challenge) +5 29``            a bonus for a valid play that was challenged
``>nick: RACK (time) -10 19``                a time penalty
``>nick: (RACK) +8 37``                      points for the tiles the opponent is left with
``>nick: RACK (RACK) -8 11``                 the tiles a player is left with, subtracted
==========================================  =====================================================

>>> game = parse_gcg("#player1 ann Ann\\n#player2 bob Bob\\n>ann: AEINRST 8D RETAINS +68 68\\n")
>>> game.events[0].kind.name, game.events[0].position, game.events[0].score
('PLAY', '8D', 68)
>>> write_gcg(game).splitlines()[-1]
'>ann: AEINRST 8D RETAINS +68 68'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum

from bot.errors import BotError
from engine.rules.ruleset import Ruleset

MAX_BYTES = 1 << 20
"""The largest GCG file read (a long game is a few kilobytes)."""


def most_turns() -> int:
    """The most turns a Wordfeud game can have (314): each play puts down at least one tile of the largest
    bag (104), and between two plays, and after the last, fewer scoreless turns than end the game (two of
    the rules' three)."""
    tiles = max(sum(rules.alphabet.counts) + rules.alphabet.blanks for rules in Ruleset.all())
    between = max(rules.scoreless_turns_to_end for rules in Ruleset.all()) - 1
    return tiles * (1 + between) + between


MAX_EVENTS = 1000
"""The most events (turns and score adjustments) a record read may hold: about three times ``most_turns()``,
for the withdrawn plays and bonuses of other programs' records; a file of more is refused as it is read,
before the events past the limit take memory or time."""


class GcgError(BotError):
    """A GCG text that cannot be read; the message names the source and the line."""


class EventKind(Enum):
    """What an event line records."""

    PLAY = "play"
    WITHDRAWN = "withdrawn"
    PASS = "pass"
    EXCHANGE = "exchange"
    CHALLENGE_BONUS = "challenge bonus"
    TIME_PENALTY = "time penalty"
    END_POINTS = "end rack points"
    END_PENALTY = "end rack penalty"


@dataclass(frozen=True)
class GcgPlayer:
    """A player: the nickname events use (no spaces) and the full name."""

    nick: str
    name: str


@dataclass(frozen=True)
class GcgEvent:
    """One event line. ``tiles`` is the exchanged tiles or the end rack; ``count`` the tiles exchanged."""

    nick: str
    kind: EventKind
    score: int
    total: int
    rack: str = ""
    position: str = ""
    word: str = ""
    tiles: str = ""
    count: int = 0
    notes: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class GcgGame:
    """A whole record: the two players, the header pragmas, the game's notes and the events."""

    players: tuple[GcgPlayer, GcgPlayer]
    events: tuple[GcgEvent, ...]
    title: str = ""
    description: str = ""
    lexicon: str = ""
    game_id: str = ""
    notes: tuple[str, ...] = ()
    final_racks: tuple[str, str] = ("", "")
    other: tuple[tuple[str, str], ...] = field(default_factory=tuple)


_LETTER = r"[^\W\d_]"  # a letter of any alphabet (Latin-1 é and ü, Polish Ł, Å ...)
_NICK = r"(?P<nick>[^\s:]+)"
_RACK = rf"(?P<rack>(?:{_LETTER}|[?\[\]])*)"
_TILES = rf"(?P<tiles>(?:{_LETTER}|[?\[\]])+)"
_SCORE = r"(?P<score>[+-]\d{1,4})"
_TOTAL = r"(?P<total>-?\d{1,5})"
_SQUARE = r"(?P<position>\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})"
_EVENTS: tuple[tuple[EventKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(rf"^>{_NICK}:\s+{body}\s+{_SCORE}\s+{_TOTAL}\s*$"))
    for kind, body in (
        (EventKind.CHALLENGE_BONUS, rf"{_RACK}\s*\(challenge\)"),
        (EventKind.TIME_PENALTY, rf"{_RACK}\s*\(time\)"),
        (EventKind.END_POINTS, rf"\({_TILES}\)"),
        (EventKind.END_PENALTY, rf"{_RACK}\s*\({_TILES}\)"),
        (EventKind.WITHDRAWN, rf"{_RACK}\s*--"),
        (EventKind.PASS, rf"{_RACK}\s*-"),
        (EventKind.EXCHANGE, rf"{_RACK}\s*-(?P<tiles>(?:{_LETTER}|[?\[\]])+|\d)"),
        (EventKind.PLAY, rf"(?:{_RACK}\s+)?{_SQUARE}\s+(?P<word>(?:{_LETTER}|[.\[\]])+)"),
    )
)
_SIGNS = {
    EventKind.PLAY: "+",
    EventKind.WITHDRAWN: "-",
    EventKind.PASS: "+",
    EventKind.EXCHANGE: "+",
    EventKind.CHALLENGE_BONUS: "+",
    EventKind.TIME_PENALTY: "-",
    EventKind.END_POINTS: "+",
    EventKind.END_PENALTY: "-",
}


_ENCODING = re.compile(rb"^[ \t]*#character-encoding[ \t]+(?P<name>\S+)")


def _codec(name: str) -> str | None:
    """The codec of a ``#character-encoding`` value this reader takes, else None."""
    key = name.upper().replace("_", "-")
    if key in ("UTF-8", "UTF8"):
        return "utf-8"
    if key in ("ISO-8859-1", "ISO8859-1", "LATIN-1", "LATIN1"):
        return "latin-1"
    return None


def decode_gcg(data: bytes, source: str = "GCG") -> str:
    """The text of a GCG file's bytes, by the specification: UTF-8 when the first line is
    ``#character-encoding UTF-8`` (or the file starts with a UTF-8 byte order mark), else ISO 8859-1
    (Latin-1: every byte is a character, so a file without the pragma always decodes). GcgError names
    ``source`` for a file that says UTF-8 and is not, or names an encoding this reader does not know."""
    if data.startswith(b"\xef\xbb\xbf"):
        codec, data = "utf-8", data[3:]
    else:
        m = _ENCODING.match(data)
        name = m["name"].decode("latin-1") if m else "ISO-8859-1"
        found = _codec(name)
        if found is None:
            raise GcgError(f"{source}, line 1: only UTF-8 and ISO-8859-1 records are read, this one says {name!r}")
        codec = found
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        raise GcgError(f"{source}: says #character-encoding UTF-8 but is not UTF-8 text (byte {exc.start})") from None


def parse_gcg(text: str, source: str = "GCG") -> GcgGame:
    """Read a GCG text; GcgError names ``source`` and the line of anything it cannot take."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise GcgError(f"{source}: larger than {MAX_BYTES} bytes; not a game record")
    players: dict[int, GcgPlayer] = {}
    header: dict[str, str] = {}
    other: list[tuple[str, str]] = []
    racks = ["", ""]
    events: list[GcgEvent] = []
    # The notes as lists of their lines, joined once at the end: the game's, and each event's by its index
    # (a note's lines appended to, never a string or a tuple built again per line: linear in the notes).
    game_notes: list[list[str]] = []
    event_notes: dict[int, list[list[str]]] = {}
    in_note = False  # the lines after a #note that are neither a pragma nor an event continue it
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{source}, line {number}"
        if not line:
            continue
        if in_note and not line.startswith(("#", ">")):
            holder = event_notes[len(events) - 1] if events else game_notes
            holder[-1].append(line)
            continue
        in_note = False
        if line.startswith("#"):
            name, _, value = line[1:].partition(" ")
            value = value.strip()
            if name in ("player1", "player2"):
                nick, _, full = value.partition(" ")
                if not nick:
                    raise GcgError(f"{where}: #{name} needs a nickname")
                players[int(name[-1])] = GcgPlayer(nick, full.strip() or nick)
            elif name in ("rack1", "rack2"):
                racks[int(name[-1]) - 1] = value
            elif name == "note":
                in_note = True
                holder = event_notes.setdefault(len(events) - 1, []) if events else game_notes
                holder.append([value])
            elif name in ("title", "description", "lexicon", "id", "character-encoding"):
                if name == "character-encoding" and _codec(value) is None:
                    raise GcgError(f"{where}: only UTF-8 and ISO-8859-1 records are read, this one says {value!r}")
                header[name] = value
            elif name:
                other.append((name, value))
            else:
                raise GcgError(f"{where}: a pragma needs a name after '#'")
            continue
        if not line.startswith(">"):
            raise GcgError(f"{where}: not a pragma ('#') or an event ('>'): {_shown(line)}")
        if len(players) < 2:
            raise GcgError(f"{where}: an event before both #player1 and #player2")
        if len(events) >= MAX_EVENTS:
            raise GcgError(
                f"{where}: more than {MAX_EVENTS} events (turns and score adjustments); not a game record "
                f"(a Wordfeud game has at most {most_turns()} turns)"
            )
        events.append(_event(line, where, number, (players[1], players[2])))
    for index, held in event_notes.items():
        events[index] = replace(events[index], notes=_joined(held))
    notes = _joined(game_notes)
    if len(players) < 2:
        raise GcgError(f"{source}: no #player1 and #player2 lines; not a GCG record")
    if players[1].nick == players[2].nick:
        raise GcgError(f"{source}: both players have the nickname {players[1].nick!r}")
    return GcgGame(
        (players[1], players[2]), tuple(events),
        title=header.get("title", ""), description=header.get("description", ""),
        lexicon=header.get("lexicon", ""), game_id=header.get("id", ""), notes=notes,
        final_racks=(racks[0], racks[1]), other=tuple(other),
    )  # fmt: skip


def _joined(notes: list[list[str]]) -> tuple[str, ...]:
    """Each note's lines joined by newlines."""
    return tuple("\n".join(lines) for lines in notes)


def _event(line: str, where: str, number: int, players: tuple[GcgPlayer, GcgPlayer]) -> GcgEvent:
    """One event line, by the first form that matches it."""
    for kind, pattern in _EVENTS:
        m = pattern.match(line)
        if m is None:
            continue
        nick = m["nick"]
        if nick not in (players[0].nick, players[1].nick):
            raise GcgError(f"{where}: {nick!r} is neither player ({players[0].nick}, {players[1].nick})")
        score = int(m["score"])
        sign = _SIGNS.get(kind)
        if sign is not None and m["score"][0] != sign and score != 0:
            raise GcgError(f"{where}: a {kind.value} scores {sign}N, not {m['score']}")
        if kind in (EventKind.PASS, EventKind.EXCHANGE) and score != 0:
            raise GcgError(f"{where}: a {kind.value} scores +0, not {m['score']}")
        groups = m.groupdict()
        tiles = groups.get("tiles") or ""
        count = 0
        if kind is EventKind.EXCHANGE:
            count = int(tiles) if tiles.isdigit() else _tile_count(tiles)
            tiles = "" if tiles.isdigit() else tiles
        return GcgEvent(
            nick, kind, score, int(m["total"]), rack=groups.get("rack") or "",
            position=(groups.get("position") or "").upper(), word=groups.get("word") or "", tiles=tiles,
            count=count, line=number,
        )  # fmt: skip
    raise GcgError(f"{where}: not an event this reader knows: {_shown(line)}")


def _tile_count(tiles: str) -> int:
    """Tiles in a rack text, a bracketed ``[CH]`` counting as one."""
    return len(re.sub(r"\[[^\]]*\]", "#", tiles))


def _shown(line: str) -> str:
    """A line as an error message quotes it: at most 80 characters, control characters escaped."""
    text = line if len(line) <= 80 else line[:77] + "..."
    return repr(text)


def write_gcg(game: GcgGame) -> str:
    """The GCG text of a record (UTF-8, one pragma or event a line, ending with a newline)."""
    lines = ["#character-encoding UTF-8"]
    for index, player in enumerate(game.players, start=1):
        lines.append(f"#player{index} {player.nick} {_one_line(player.name)}")
    for name, value in (
        ("title", game.title), ("description", game.description), ("id", game.game_id), ("lexicon", game.lexicon),
    ):  # fmt: skip
        if value:
            lines.append(f"#{name} {_one_line(value)}")
    lines.extend(f"#note {_one_line(note)}" for note in game.notes)
    for event in game.events:
        lines.append(event_line(event))
        lines.extend(f"#note {_one_line(note)}" for note in event.notes)
    for index, rack in enumerate(game.final_racks, start=1):
        if rack:
            lines.append(f"#rack{index} {rack}")
    return "\n".join(lines) + "\n"


def event_line(event: GcgEvent) -> str:
    """The line of one event."""
    head = f">{event.nick}: "
    tail = f"{event.score:+d} {event.total}"
    kind = event.kind
    if kind is EventKind.END_POINTS:
        return f"{head}({event.tiles}) {tail}"
    body = {
        EventKind.PLAY: f"{event.position} {event.word}",
        EventKind.WITHDRAWN: "--",
        EventKind.PASS: "-",
        EventKind.EXCHANGE: f"-{event.tiles or event.count}",
        EventKind.CHALLENGE_BONUS: "(challenge)",
        EventKind.TIME_PENALTY: "(time)",
        EventKind.END_PENALTY: f"({event.tiles})",
    }[kind]
    return head + " ".join(part for part in (event.rack, body, tail) if part)


def _one_line(text: str) -> str:
    """Text for a pragma: no line breaks or other control characters (they would start a new line)."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
