"""GCG records: every recorded sandbox game written, read back by an independent strict reader and by the
project's, played back to the very board and scores it ended with; hand-written records with the
format's edge cases (phony withdrawn, challenge bonus, time penalty, end racks) read or refused with the
line number; the ``replay`` and ``hint`` options that write and read them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.records.gcg import EventKind, GcgError, parse_gcg, write_gcg
from bot.records.gcg_game import play_back, record_to_gcg, ruleset_of
from bot.records.history import record
from bot.store.store import Store
from cli.main import main
from engine.board.board import EMPTY, Board
from engine.board.move import parse_move
from engine.rules.ruleset import Ruleset
from tests.bot.gcg_strict import StrictGcgError, read_strictly
from tests.bot.recorded import Recorded, record_demo

EN = Ruleset.for_id(5)
SEEDS = (1, 2, 3, 4)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Recorded]:
    """Sandbox games played by the demo (bot against the house over HTTP), one state file each."""
    return [record_demo(tmp_path_factory.mktemp(f"gcg{seed}"), seed) for seed in SEEDS]


def _text(recorded: Recorded) -> str:
    store = Store(recorded.state)
    try:
        return write_gcg(record_to_gcg(record(store, recorded.game_id)))
    finally:
        store.close()


def test_every_recorded_game_round_trips_through_gcg(games: list[Recorded]) -> None:
    for recorded in games:
        store = Store(recorded.state)
        try:
            frames = record(store, recorded.game_id).frames
        finally:
            store.close()
        text = _text(recorded)
        strict = read_strictly(text)
        final = frames[-1]
        assert strict["totals"] == [final.players[0][1], final.players[1][1]]
        game = parse_gcg(text)
        assert write_gcg(game) == text
        imported = play_back(game, ruleset_of(game))
        assert imported.board == final.board
        assert imported.scores == (final.players[0][1], final.players[1][1])
        grid = strict["grid"]
        assert isinstance(grid, list)
        letters = {(r, c): EN.alphabet.format_tile(t, bracket=True) for r, c, t in final.board.tiles()}
        assert {(r, c): grid[r][c] for r in range(15) for c in range(15) if grid[r][c]} == letters
        moves = [f for f in frames[1:] if f.seat is not None]
        assert len(imported.turns) == len(moves)
        for turn, frame in zip(imported.turns, moves, strict=True):
            assert turn.seat == frame.seat
            if frame.seat == 0:  # the bot's rack is known and written
                assert turn.rack == frame.rack


def test_a_recorded_game_says_its_ruleset_board_and_the_end_racks(games: list[Recorded]) -> None:
    text = _text(games[0])
    lines = text.splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert "#lexicon wordfeud-en" in lines
    assert any(line.startswith("#note Wordfeud ruleset 5 ") and "standard board" in line for line in lines)
    game = parse_gcg(text)
    kinds = [e.kind for e in game.events]
    assert kinds[-1] in (EventKind.END_POINTS, EventKind.END_PENALTY)
    assert kinds.count(EventKind.PLAY) >= 10


SAMPLE = """#character-encoding UTF-8
#player1 ann Ann Example
#player2 bob Bob Example
#title a hand-written game with every kind of event
#lexicon CSW21
>ann: AEINRST 8D RETAINS +68 68
#note a bingo
>ann: AEINRST (challenge) +5 73
>bob: AQUZSTX G5 QUA.TZ +50 50
>bob: AQUZSTX -- -50 0
>ann: ?EGLOOP E6 GO.P +16 89
>bob: AQUZSTX -QZX +0 0
>ann: ?ELORSW - +0 89
>bob: ADEOSTU 10A OUT +5 5
>bob: ADESU (time) -10 -5
>ann: ?ELORSW 4E hOWLERS +77 166
>ann: (ADESU) +12 178
>bob: ADESU (ADESU) -6 -11
"""


def test_hand_written_edge_cases_are_read_and_played_back() -> None:
    read_strictly(SAMPLE)
    game = parse_gcg(SAMPLE, "sample.gcg")
    assert [e.kind.name for e in game.events] == [
        "PLAY", "CHALLENGE_BONUS", "PLAY", "WITHDRAWN", "PLAY", "EXCHANGE", "PASS", "PLAY", "TIME_PENALTY",
        "PLAY", "END_POINTS", "END_PENALTY",
    ]  # fmt: skip
    assert game.events[0].notes == ("a bingo",)
    assert game.events[5].tiles == "QZX" and game.events[5].count == 3
    imported = play_back(game, ruleset_of(game))
    assert imported.scores == (178, -11)
    board = Board(EN.alphabet)
    for move in ("8D RETAINS", "E6 GO(E)P", "10A OUT", "4E hOWLERS"):
        board.place(parse_move(move, board).tiles)
    assert imported.board == board  # the withdrawn QUA.TZ is off the board again
    assert [t.number for t in imported.turns] == list(range(1, 8))
    assert imported.turns[2].rack == "?EGLOOP"
    assert imported.turns[1].board.grid[7][6] != EMPTY  # QUA.TZ's '.' is RETAINS's A
    assert imported.turns[2].board.grid[4][6] == EMPTY  # its Q is gone before GO.P
    again = parse_gcg(write_gcg(game))
    assert [replace(e, line=0) for e in again.events] == [replace(e, line=0) for e in game.events]
    assert again.players == game.players and again.title == game.title and again.lexicon == "CSW21"


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        (">ann: AEINRST 8D RETAINS +68 60", "total 60 is not 0 +68 = 68"),
        (">ann: AEINRST 8D RE.AINS +60 60", "'.' stands for a tile on the board"),
        (">carl: AEINRST 8D RETAINS +68 68", "'carl' is neither player"),
        (">ann: AEINRST -- -0 0", "'--' withdraws a play"),
        (">ann: AEINRST 8D RETAINS -68 -68", "a play scores +N"),
        (">ann: AEINRST - +5 5", "a pass scores +0"),
        (">ann: AEINRST 8D RETAINS", "not an event this reader knows"),
        ("ann: AEINRST 8D RETAINS +68 68", "not a pragma ('#') or an event ('>')"),
        (">ann: AEIN1ST 8D RETA1NS +68 68", "not an event this reader knows"),
        (">ann: AEINRST 8M RETAINS +68 68", "runs off the board"),
    ],
)
def test_broken_lines_are_refused_with_their_line_number(line: str, wanted: str) -> None:
    text = f"#player1 ann Ann\n#player2 bob Bob\n{line}\n"
    with pytest.raises(GcgError) as caught:
        game = parse_gcg(text, "bad.gcg")
        play_back(game, EN, "bad.gcg")
    assert "bad.gcg, line 3" in str(caught.value)
    assert wanted in str(caught.value)


def test_a_record_without_players_or_of_a_random_board_is_refused() -> None:
    with pytest.raises(GcgError, match=r"x.gcg, line 1: an event before both #player1 and #player2"):
        parse_gcg(">ann: A 8H A +1 1\n", "x.gcg")
    with pytest.raises(GcgError, match="no #player1 and #player2"):
        parse_gcg("#title nothing\n", "x.gcg")
    game = parse_gcg("#player1 a A\n#player2 b B\n#note Wordfeud ruleset 1 (Norwegian), random board\n")
    with pytest.raises(GcgError, match="random Wordfeud board"):
        ruleset_of(game)
    standard = parse_gcg("#player1 a A\n#player2 b B\n#note Wordfeud ruleset 1 (Norwegian), standard board\n")
    assert ruleset_of(standard).id == 1 and ruleset_of(standard, 4).id == 4


def test_the_strict_reader_is_strict() -> None:
    """The test reader itself refuses what the format does not allow (else passing it would mean little)."""
    for text in (
        "#player1 ann A\n#player2 bob B\n>ann: AB 8H AB +5 6\n",
        "#player1 ann A\n#player2 bob B\n>ann: AB 8H A.B +5 5\n",
        "#player1 ann A\n#player2 bob B\n#weird x\n",
        "#player1 ann A\n#character-encoding UTF-8\n",
        "#player1 ann A\n#player2 bob B\n>ann: AB -AB +3 3\n",
        "#player1 ann A\n#player2 bob B\n>ann: AB 8H AB +5 5 extra\n",
    ):
        with pytest.raises(StrictGcgError):
            read_strictly(text)


def test_replay_writes_one_game_and_every_game_as_gcg(games: list[Recorded], tmp_path: Path) -> None:
    recorded = games[1]
    out = tmp_path / "one.gcg"
    assert main(["replay", "--state", str(recorded.state), str(recorded.game_id), "--gcg", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == _text(recorded)
    folder = tmp_path / "all"
    folder.mkdir()
    assert main(["replay", "--state", str(recorded.state), "--gcg-dir", str(folder)]) == 0
    assert [p.name for p in folder.iterdir()] == [f"{recorded.game_id}.gcg"]
    assert main(["replay", "--state", str(recorded.state), "1", "--gcg-dir", str(folder)]) == 2


def test_replay_and_hint_read_a_gcg_file(
    games: list[Recorded], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(_text(games[0]), encoding="utf-8")
    assert main(["replay", "--gcg", str(path), "--strategy", "equity"]) == 0
    out = capsys.readouterr().out.splitlines()
    game = parse_gcg(path.read_text(encoding="utf-8"))
    turns = play_back(game, EN).turns
    assert out[-1].startswith(f"{len(turns)} moves played back on the English")
    plays = [line for line in out if " recorded +" in line]
    assert len(plays) == sum(1 for t in turns if t.move is not None)
    assert any("equity would play" in line for line in out)  # the bot's racks are in the record
    first_bot_play = next(t for t in turns if t.seat == 0 and t.move is not None)
    assert main(["hint", "--gcg", str(path), "--move", str(first_bot_play.number), "--strategy", "equity"]) == 0
    assert "rack" in capsys.readouterr().out.lower()
    house_turn = next(t for t in turns if t.seat == 1 and t.move is not None and len(t.rack) < 7)
    assert main(["hint", "--gcg", str(path), "--move", str(house_turn.number), "--strategy", "equity"]) == 1
    assert "add --rack" in capsys.readouterr().err
    assert main(["hint", "--gcg", str(path), "--move", "999", "--strategy", "equity"]) == 1
    assert f"has moves 1..{len(turns)}" in capsys.readouterr().err
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: AB 8H AB +5 6\n", encoding="utf-8")
    assert main(["replay", "--gcg", str(bad), "--strategy", "equity"]) == 1
    assert "bad.gcg, line 3" in capsys.readouterr().err
