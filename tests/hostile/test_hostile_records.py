"""GCG records built to hurt: notes by the hundred thousand, passes by the ten thousand, control bytes in
every field. Each is read in work that grows with the file at most linearly, stops at the rules' end or the
record's bound, and shows nothing raw on a terminal. The files are built here; what is checked is the work
done (objects built, turns read), never a time."""

from __future__ import annotations

from typing import Any

import pytest

from bot.records import gcg
from bot.records.gcg import GcgEvent, parse_gcg

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
