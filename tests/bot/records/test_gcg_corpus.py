"""GCG records as other programs write them, one of each kind in ``corpus/`` (written for this project in the
shapes of Quackle's, Macondo's and MAGPIE's files): which load, and what ``replay --gcg`` prints for each.

Before the reader took them, 4 of the 10 loaded; now 8 do, and the other two are refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.records.gcg import GcgError, decode_gcg, parse_gcg
from bot.records.gcg_game import ImportedGame, play_back, ruleset_of
from bot.views.gcg import read_record, replay_lines, summary_lines
from cli.main import main
from engine.lexicon.dawg import Dawg
from engine.players.registry import strategy_named

CORPUS = Path(__file__).parent / "corpus"
EN = "English (international) standard board"

LOADS: dict[str, list[str]] = {
    # no #character-encoding: ISO 8859-1 by the specification (é and ß in the names, Ü Ä Ö in the plays);
    # no Wordfeud note, and Ü is in German's alphabet alone: played back with German
    "latin1-no-pragma.gcg": [
        "move 1: renee 8G ÜBER: recorded +11, Wordfeud board 11",
        "move 2: joerg J6 TÜ.: recorded +10, Wordfeud board 10",
        "move 3: renee G7 M.DE: recorded +11, Wordfeud board 11",
        "move 4: joerg exchange ÄÖQ",
        "4 moves played back on the German standard board; final totals renee 22, joerg 10",
    ],
    # UTF-8 by its pragma, Swedish letters in the nicknames and the plays, the ruleset from the Wordfeud note
    "utf8-pragma.gcg": [
        "move 1: åsa 8G BÅT: recorded +8, Wordfeud board 8",
        "move 2: björn I7 Ä.A: recorded +6, Wordfeud board 6",
        "move 3: åsa pass",
        "3 moves played back on the Swedish standard board; final totals åsa 8, björn 6",
    ],
    "multiline-notes.gcg": [
        "move 1: ann 8G CAT: recorded +6, Wordfeud board 6",
        "move 2: bob H7 R.T: recorded +3, Wordfeud board 3",
        "move 3: ann pass",
        f"3 moves played back on the {EN}; final totals ann 6, bob 3",
    ],
    # the A of CAT written as A, not '.'
    "played-through-letters.gcg": [
        "move 1: ann 8G CAT: recorded +6, Wordfeud board 6",
        "move 2: bob H7 RAT: recorded +3, Wordfeud board 3",
        "move 3: ann I8 TO: recorded +4, Wordfeud board 4",
        f"3 moves played back on the {EN}; final totals ann 10, bob 3",
    ],
    "scrabble-phony.gcg": [
        "move 1: ann 8H JOKE: recorded +30, Wordfeud board 17",
        "move 2: bob I7 Z.X: recorded +37, Wordfeud board 19, withdrawn (phony taken off)",
        "move 3: ann K5 DOT.: recorded +10, Wordfeud board 12",
        "move 4: bob H8 .AB: recorded +12, Wordfeud board 15",
        "4 of 4 plays score otherwise on the Wordfeud board: the record's game had another board (other premium "
        "squares) and other tile values than Wordfeud's English (international) (a Scrabble game?); totals: in the "
        "record ann 40, bob 12; on the Wordfeud board ann 29, bob 15 (plays rescored; bonuses, penalties and end "
        "racks as recorded)",
        f"4 moves played back on the {EN}; final totals ann 40, bob 12",
    ],
    "challenge-bonus.gcg": [
        "move 1: ann 8G ZAX: recorded +19, Wordfeud board 19",
        "  bob: challenge bonus +5, total 5",
        "move 2: bob I7 Q.I: recorded +19, Wordfeud board 19",
        "move 3: ann exchange AEIOU",
        f"3 moves played back on the {EN}; final totals ann 19, bob 24",
    ],
    "time-penalty.gcg": [
        "move 1: ann 8G DOG: recorded +6, Wordfeud board 6",
        "move 2: bob H7 E.N: recorded +3, Wordfeud board 3",
        "move 3: ann pass",
        "move 4: bob pass",
        "  ann: time penalty -10, total -4",
        f"4 moves played back on the {EN}; final totals ann -4, bob 3",
    ],
    "end-rack-bonus.gcg": [
        "move 1: ann 8G JOT: recorded +12, Wordfeud board 12",
        "move 2: bob H7 E.W: recorded +6, Wordfeud board 6",
        "  ann: end rack points QV +14, total 26",
        "  bob: end rack penalty QV -14, total -8",
        f"2 moves played back on the {EN}; final totals ann 26, bob -8",
    ],
}
REFUSED: dict[str, str] = {
    "played-through-mismatch.gcg": "played-through-mismatch.gcg, line 4: H7 RET has E on 8H, where the board has A",
    "polish.gcg": "polish.gcg: the letters Ó, Ą, Ę, Ł, Ń, Ś, Ż are outside every Wordfeud ruleset's alphabet; "
    "the record cannot be played back on a Wordfeud board",
}


def test_the_corpus_is_the_ten_kinds() -> None:
    assert sorted(p.name for p in CORPUS.glob("*.gcg")) == sorted([*LOADS, *REFUSED])
    assert len(LOADS) + len(REFUSED) == 10


@pytest.mark.parametrize("name", sorted(LOADS))
def test_a_record_that_loads_prints_its_moves(name: str) -> None:
    imported = read_record(CORPUS / name, None)
    alphabet = imported.rules.alphabet
    lexicon = Dawg.build([alphabet.parse_word("AA")], alphabet)  # no rack is whole: no strategy is asked
    assert [*replay_lines(imported, lexicon, strategy_named("equity")), *summary_lines(imported)] == LOADS[name]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_record_that_cannot_be_played_back_says_why(name: str) -> None:
    with pytest.raises(GcgError) as caught:
        read_record(CORPUS / name, None)
    assert str(caught.value).endswith(REFUSED[name])


def test_latin1_without_a_pragma_and_utf8_with_one() -> None:
    data = (CORPUS / "latin1-no-pragma.gcg").read_bytes()
    assert b"Ren\xe9e" in data  # one byte a letter: not UTF-8
    game = parse_gcg(decode_gcg(data))
    assert game.players[0].name == "Renée Müller" and game.title == "Partie im Café Größenwahn"
    utf8 = "#character-encoding UTF-8\n#player1 renee Renée\n#player2 b B\n".encode()
    assert parse_gcg(decode_gcg(utf8)).players[0].name == "Renée"
    with pytest.raises(GcgError, match=r"x.gcg: says #character-encoding UTF-8 but is not UTF-8 text \(byte 40\)"):
        decode_gcg("#character-encoding UTF-8\n#player1 r Renée\n".encode("latin-1"), "x.gcg")
    with pytest.raises(GcgError, match=r"x.gcg, line 1: only UTF-8 and ISO-8859-1 records are read.*'KOI8-R'"):
        decode_gcg(b"#character-encoding KOI8-R\n", "x.gcg")


def test_a_note_over_several_lines_is_one_note() -> None:
    game = parse_gcg((CORPUS / "multiline-notes.gcg").read_text(encoding="utf-8"))
    assert game.notes == (
        "A game annotated at length.\nThe notes of this record run over several lines,\n"
        "as Quackle and Macondo write them.",
    )
    assert [e.notes for e in game.events] == [
        ("CAT keeps AEIR:\na balanced leave",), ("bob could have played\nART at 9F for more.",), (),
    ]  # fmt: skip
    with pytest.raises(GcgError, match=r"line 3: not a pragma"):  # a stray line with no note before it
        parse_gcg("#player1 a A\n#player2 b B\nstray text\n")


def test_letters_some_rulesets_have_but_not_english_name_the_rulesets() -> None:
    text = "#player1 a A\n#player2 b B\n>a: BÅT 8G BÅT +8 8\n"
    with pytest.raises(GcgError, match=r"x.gcg: the letters Å are in the alphabets of rulesets 1 \(Norwegian"):
        read_from(text, "x.gcg", None)
    with pytest.raises(GcgError, match=r"the letters Å are not in the alphabet of ruleset 9 \(German\); rulesets 1"):
        read_from(text, "x.gcg", 9)
    assert read_from(text, "x.gcg", 4).rules.id == 4


def read_from(text: str, name: str, ruleset: int | None) -> ImportedGame:
    game = parse_gcg(text, name)
    return play_back(game, ruleset_of(game, ruleset, name), name)


def test_replay_prints_the_scrabble_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--gcg", str(CORPUS / "scrabble-phony.gcg"), "--strategy", "equity"]) == 0
    assert capsys.readouterr().out.splitlines() == LOADS["scrabble-phony.gcg"]


def test_a_letter_played_through_a_blank_is_that_blank() -> None:
    text = "#player1 a A\n#player2 b B\n>a: AC? 8G CAt +4 4\n>b: O I8 TO +1 1\n"
    imported = read_from(text, "x.gcg", None)
    assert imported.turns[1].move is not None and len(imported.turns[1].move.tiles) == 1  # only the O is placed
    with pytest.raises(GcgError, match=r"x.gcg, line 4: I8 SO has S on 8I, where the board has T"):
        read_from(text.replace("I8 TO", "I8 SO"), "x.gcg", None)
