"""GCG records built to hurt: notes by the hundred thousand, passes by the ten thousand, control bytes in
every field. Each is read in work that grows with the file at most linearly, stops at the rules' end or the
record's bound, and shows nothing raw on a terminal. The files are built here; what is checked is the work
done (objects built, turns read), never a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from bot.records import gcg
from bot.records.gcg import MAX_EVENTS, GcgError, GcgEvent, most_turns, parse_gcg
from bot.records.gcg_game import play_back
from bot.views.gcg import read_record, summary_lines
from cli.main import main
from engine.rules.ruleset import Ruleset

HEAD = "#player1 ann Ann\n#player2 bob Bob\n"
PLAY = ">ann: AEINRST 8D RETAINS +68 68\n"


class _Counted(GcgEvent):
    """A GcgEvent that counts how many are built (a copy made by ``dataclasses.replace`` counts too)."""

    built = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        type(self).built += 1
        super().__init__(*args, **kwargs)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> type[_Counted]:
    monkeypatch.setattr(gcg, "GcgEvent", _Counted)
    _Counted.built = 0
    return _Counted


# -- notes: linear in their number, wherever they are --------------------------------------------------


@pytest.mark.parametrize("continued", [False, True], ids=["note-lines", "continuation-lines"])
def test_notes_after_an_event_build_the_event_a_bounded_number_of_times(
    counted: type[_Counted], continued: bool
) -> None:
    """20,000 notes (or one note of 20,000 lines) after an event: the event is built at most twice, not once
    a note (each a copy of all the notes before it: quadratic, 21.9 s for 130,000 notes)."""
    count = 20_000
    body = "#note start\n" + "more\n" * count if continued else "#note x\n" * count
    game = parse_gcg(HEAD + PLAY + body + ">bob: - +0 0\n")
    assert counted.built <= 2 * len(game.events) == 4
    notes = game.events[0].notes
    if continued:
        assert len(notes) == 1 and notes[0] == "start" + "\nmore" * count
    else:
        assert notes == ("x",) * count
    assert game.events[1].notes == ()


@pytest.mark.parametrize("first", [True, False], ids=["notes-first", "notes-after-an-event"])
def test_notes_before_and_after_the_events_read_the_same(first: bool) -> None:
    notes = "#note one\nline two\n#note three\n"
    text = HEAD + notes + PLAY if first else HEAD + PLAY + notes
    game = parse_gcg(text)
    held = game.notes if first else game.events[0].notes
    assert held == ("one\nline two", "three")
    assert (game.events[0].notes if first else game.notes) == ()


# -- passes: the rules end the game, and a record holds a bounded number of events ----------------------


def _passes(count: int, *, play: bool = True) -> str:
    """A play (or not), then ``count`` passes with whole racks (each a decision the strategy would weigh);
    short nicknames, so that 55,000 passes fit in 1 MiB."""
    lines = ["#player1 a Ann\n#player2 b Bob\n"]
    if play:
        lines.append(">a: AEINRST 8D RETAINS +68 68\n")
    total = 68 if play else 0
    lines += [f">{'ba'[i % 2]}: AEINRST - +0 {0 if i % 2 == 0 else total}\n" for i in range(count)]
    return "".join(lines)


def test_55000_passes_are_refused_as_they_are_read(
    counted: type[_Counted], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hostile file of the reliability probe, 55,000 passes in 1 MiB (past 60 s and 245 MB before):
    refused at its event past the bound, naming the file, the line and the limit, with no more events
    built than the bound."""
    text = _passes(55_000, play=False)
    assert len(text.encode()) <= gcg.MAX_BYTES
    path = tmp_path / "passes.gcg"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GcgError, match=f"passes.gcg, line {MAX_EVENTS + 3}: more than {MAX_EVENTS} events"):
        read_record(path, None)
    assert counted.built <= MAX_EVENTS
    assert main(["replay", "--gcg", str(path), "--strategy", "equity"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and f"more than {MAX_EVENTS} events" in err


def test_the_bound_is_above_the_longest_game_the_rules_allow() -> None:
    rules = Ruleset.all()
    assert {r.scoreless_turns_to_end for r in rules} == {3}  # the rules data's count
    assert most_turns() == 104 * 3 + 2 < MAX_EVENTS
    parse_gcg(_passes(MAX_EVENTS - 1))  # a record of the bound is read


def test_three_scoreless_turns_end_a_record_and_the_rest_is_ignored() -> None:
    """The rules' end by scoreless turns (3, ``scoreless_turns_to_end``) applies to a record as to a game:
    after a play and ten passes the game ends at turn 4, the seven passes after it are not played back."""
    rules = Ruleset.for_id(5)
    imported = play_back(parse_gcg(_passes(10)), rules)
    assert [t.number for t in imported.turns] == [1, 2, 3, 4]
    assert imported.end is not None and (imported.end.turn, imported.end.scoreless) == (4, 3)
    assert len(imported.events) == 4 and imported.end.ignored == 7
    assert "the game ended at turn 4 by 3 scoreless turns; 7 later events ignored" in summary_lines(imported)


def test_the_end_racks_after_a_scoreless_end_are_kept_and_a_withdrawn_play_is_scoreless() -> None:
    text = (
        HEAD + PLAY
        + ">bob: ABC - +0 0\n"
        + ">ann: AB 9D AB +8 76\n>ann: AB -- -8 68\n"  # a play taken off: a scoreless turn
        + ">bob: ABC -ABC +0 0\n"  # the third in a row: the game ends
        + ">ann: DE (DE) -3 65\n>bob: ABC (ABC) -7 -7\n"  # each loses their own rack
        + ">ann: FG 10D FG +9 74\n"  # after the end
    )  # fmt: skip
    imported = play_back(parse_gcg(text), Ruleset.for_id(5))
    assert imported.end is not None and (imported.end.turn, imported.end.ignored) == (4, 1)
    assert imported.scores == (65, -7) and len(imported.events) == 7
    played = play_back(parse_gcg(text.replace(">ann: AB 9D AB +8 76\n>ann: AB -- -8 68\n", "")), Ruleset.for_id(5))
    assert played.end is None and played.scores == (74, -7)  # two scoreless turns do not end it


# -- control bytes: shown escaped in every output of a record -------------------------------------------

EVIL = "\x1b]0;owned\x07\x1b[31m\x9b2J"  # an OSC title, BEL, a colour and a one-byte CSI


def _evil_record() -> str:
    """A record with the control bytes in every field a reader keeps: nicknames, full names, the header
    pragmas, an unknown pragma, notes of the game and of an event, and a note's continuation line."""
    return (
        "#character-encoding UTF-8\n"
        f"#player1 ann{EVIL} Ann{EVIL} Ann\n#player2 bob{EVIL} Bob{EVIL}\n"
        f"#title T{EVIL}\n#description D{EVIL}\n#lexicon CSW{EVIL}21\n#id io{EVIL}\n#pragma{EVIL} v{EVIL}\n"
        f"#note game{EVIL}\nmore{EVIL}\n"
        f">ann{EVIL}: AEINRST 8D RETAINS +68 68\n#note play{EVIL}\n"
        f">bob{EVIL}: ABCDEFG - +0 0\n"
    )


def _raw(text: str) -> list[str]:
    return [ch for ch in "\x1b\x07\x9b" if ch in text]


def test_control_bytes_in_a_record_reach_no_terminal_and_no_picture_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay --gcg`` escapes every line it prints (nicknames in the moves and the totals); ``hint --gcg
    --svg`` draws the full names escaped (raw, ESC and BEL made the picture a file no XML reader takes and
    a terminal showing it would obey); an event's error names the nickname escaped."""
    path = tmp_path / "evil.gcg"
    path.write_text(_evil_record(), encoding="utf-8")
    game = parse_gcg(_evil_record())
    assert EVIL in game.players[0].nick and EVIL in game.notes[0] and EVIL in game.lexicon  # kept as they are
    assert main(["replay", "--gcg", str(path), "--strategy", "equity"]) == 0
    out = capsys.readouterr()
    assert not _raw(out.out) and not _raw(out.err)
    assert "move 1: ann\\x1b]0;owned\\x07\\x1b[31m\\x9b2J 8D RETAINS" in out.out
    svg = tmp_path / "evil.svg"
    assert main(["hint", "--gcg", str(path), "--move", "1", "--strategy", "equity", "--svg", str(svg)]) == 0
    capsys.readouterr()
    picture = svg.read_text(encoding="utf-8")
    assert not _raw(picture)
    names = [t.text or "" for t in ElementTree.fromstring(picture).iter() if "score" in t.get("class", "")]
    assert any(name.startswith("\u25b6 Ann\\x1b]0;owned\\x07") for name in names), names
    bad = tmp_path / "bad.gcg"
    bad.write_text(_evil_record().replace("+0 0\n", "+0 5\n"), encoding="utf-8")
    assert main(["replay", "--gcg", str(bad), "--strategy", "equity"]) == 1
    err = capsys.readouterr().err
    assert not _raw(err) and err.count("\n") == 1 and "bob\\x1b]0;owned\\x07" in err


def test_a_record_past_the_size_bound_is_refused_naming_the_file(tmp_path: Path) -> None:
    """A file over ``MAX_BYTES`` is refused whole, naming the file and the bound."""
    path = tmp_path / "large.gcg"
    path.write_text("#character-encoding UTF-8\n" + "#note x\n" * ((gcg.MAX_BYTES - 26) // 8 + 1), encoding="utf-8")
    assert path.stat().st_size > gcg.MAX_BYTES
    with pytest.raises(GcgError, match=f"large.gcg.*larger than {gcg.MAX_BYTES} bytes"):
        read_record(path, None)
