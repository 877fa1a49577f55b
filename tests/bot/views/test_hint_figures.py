"""What ``hint`` and ``replay --html`` print is what they mean: squares in the notation's own form, a
share of simulated wins only where the simulation ranks by it, a byte count that counts bytes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bot.views.commands
from bot.play.analysis import hint
from bot.views.commands import write_replay_html
from bot.views.hint import hint_text, situation_for
from cli.main import main
from dictionaries.registry import LexiconRegistry
from engine.board.board import Board
from engine.board.move import Direction, Placement, oriented, parse_move
from engine.board.rack import Rack
from engine.equity.strategy import Situation, unseen_tiles
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)
ACROSS_SQUARE = re.compile(r"^(\d{1,2})([A-O])$")
DOWN_SQUARE = re.compile(r"^([A-O])(\d{1,2})$")


def _square(text: str, direction: Direction) -> tuple[int, int]:
    """(row, col) of a square written as the notation writes it for this direction (else no match)."""
    if direction is Direction.ACROSS:
        match = ACROSS_SQUARE.match(text)
        assert match, f"{text} is not an across square (row first)"
        return int(match.group(1)) - 1, "ABCDEFGHIJKLMNO".index(match.group(2))
    match = DOWN_SQUARE.match(text)
    assert match, f"{text} is not a down square (column first)"
    return int(match.group(2)) - 1, "ABCDEFGHIJKLMNO".index(match.group(1))


def test_json_squares_are_written_as_the_notation_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board(EN.alphabet)
    for text in ("8H QUIZ", "I7 J(U)NK"):  # a board a game can reach: the start square H8 covered
        board.place(parse_move(text, board).tiles)
    path = tmp_path / "position.txt"
    path.write_text(board.text() + "\n", encoding="utf-8")
    argv = ["hint", "--board", str(path), "--rack", "AEINRST", "--top", "400", "--json", "--strategy", "greedy"]
    assert main(argv) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    directions = set()
    for move in moves:
        if move["kind"] != "move":
            continue
        placed = parse_move(move["notation"], board)
        direction = Direction.ACROSS if move["notation"][0].isdigit() else Direction.DOWN
        directions.add(direction)
        squares = {_square(tile["square"], direction) for tile in move["tiles"]}
        assert squares == {(r, c) for r, c, _ in placed.tiles}, move
    assert directions == {Direction.ACROSS, Direction.DOWN}  # both forms were checked


def test_a_one_tile_moves_square_follows_its_notation() -> None:
    board = Board(EN.alphabet)
    board.place(parse_move("K13 RE", board).tiles)
    move = Placement(((14, 10, EN.alphabet.code("S")),), Direction.ACROSS)
    assert oriented(move, board).direction is Direction.DOWN
    situation = situation_for(board, Rack.from_text("S", EN.alphabet), EN, LexiconRegistry([]).get(5))
    [found] = [m for m in hint(situation, strategy_named("greedy"), 500).moves if m.notation == "K13 (RE)S"]
    assert [tile.square for tile in found.tiles] == ["K15"]


def test_early_in_a_game_no_share_of_wins_is_shown() -> None:
    board = Board(EN.alphabet)
    board.place(parse_move("8G QUIZ", board).tiles)
    lexicon = LexiconRegistry([]).get(5)
    situation = situation_for(board, Rack.from_text("AEINRST", EN.alphabet), EN, lexicon)
    assert situation.bag_count > 80
    result = hint(situation, strategy_named("sim:candidates=4,iterations=12,seconds=0"), 5)
    assert any(m.sim_value is not None for m in result.moves)
    assert all(m.sim_ahead is None for m in result.moves)
    text = hint_text(result, situation)
    header = next(line for line in text.splitlines() if line.lstrip().startswith("#  move"))
    assert header.rstrip().endswith("sim value") and "wins" not in text and "%" not in text
    assert "sim value: the mean points ahead after the move, the opponent's reply and our next move" in text


def test_near_the_end_the_share_it_ranks_by_is_shown_and_named() -> None:
    lexicon = LexiconRegistry([]).get(5)
    board = Board(EN.alphabet)
    for text in ("8D QUIZ", "E7 J(U)NK", "9H MAP"):
        board.place(parse_move(text, board).tiles)
    rack = Rack.from_text("AEINRST", EN.alphabet)
    unseen = unseen_tiles(board, rack, EN)[:17]  # a late position: 10 in the bag, 7 on the opponent's rack
    situation = Situation(board, rack, EN, lexicon, unseen, 10, (0, 0))
    result = hint(situation, strategy_named("sim:candidates=4,iterations=12,seconds=0"), 5)
    ahead = [m.sim_ahead for m in result.moves if m.sim_ahead is not None]
    assert ahead and all(0 <= share <= 1 for share in ahead)
    text = hint_text(result, situation)
    header = next(line for line in text.splitlines() if line.lstrip().startswith("#  move"))
    assert header.rstrip().endswith("sim value  ahead")
    assert "ahead: the share of iterations that end with us ahead in the game" in text


def test_replay_html_counts_bytes_not_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = "<p>Jørgen ♥ Åse</p>"  # 18 characters, 23 bytes in UTF-8
    monkeypatch.setattr(bot.views.commands, "record", lambda *args: None)
    monkeypatch.setattr(bot.views.commands, "replay_html", lambda *args: page)
    out = tmp_path / "game.html"
    write_replay_html(None, 1, lambda ruleset: None, strategy_named("equity"), out)  # type: ignore[arg-type,return-value]
    assert capsys.readouterr().out.strip() == f"wrote {out} (23 bytes)"
    assert out.stat().st_size == 23 and out.read_text(encoding="utf-8") == page
