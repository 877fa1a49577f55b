"""A lexicon built from Debian's Norwegian bokmål list plays on a Norwegian board.

Skipped when the list is not installed (``apt-get install wnorwegian``; CI installs it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main as cli
from dictionaries.registry import LexiconRegistry
from dictionaries.sources import source_for
from engine.board.board import Board
from engine.board.move import format_move, parse_move
from engine.board.rack import Rack
from engine.movegen.generate import generate
from engine.movegen.score import score, validate
from engine.rules.ruleset import Ruleset

NB = Ruleset.for_code("nb")
BOKMAAL = source_for(NB.id).debian_file

pytestmark = pytest.mark.skipif(
    BOKMAAL is None or not BOKMAAL.is_file(),
    reason=f"Debian's bokmål word list ({BOKMAAL}) is not installed: apt-get install wnorwegian",
)


def test_bokmaal_lexicon_generates_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(tmp_path))
    assert cli(["dict", "build", "nb", "--debian", "--quiet"]) == 0
    report = capsys.readouterr().out
    assert "ruleset:     1 nb" in report and "latin-1" in report
    lexicon = LexiconRegistry().get(NB.id)
    assert len(lexicon) > 500_000
    for word in ("BLÅBÆR", "SMØR", "HUS", "ÆRLIG"):
        assert word in lexicon
    board = Board(NB.alphabet)
    board.place(parse_move("8G BLÅBÆR", board).tiles)
    rack = Rack.from_text("ØRESTA?", NB.alphabet)
    moves = generate(board, rack, lexicon, NB)
    assert len(moves) > 1_000
    best = max(moves, key=lambda m: (m.score or 0, format_move(m, board)))
    for move in (best, *moves[:: max(1, len(moves) // 50)]):
        validate(board, move, rack, lexicon, NB)
        assert score(board, move, NB) == move.score
    assert any(t & 0x3F in {NB.alphabet.code("Ø"), NB.alphabet.code("Å")} for m in moves for _, _, t in m.tiles)
