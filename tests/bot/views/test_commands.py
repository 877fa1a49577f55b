"""What the bot shows: the SVG board (squares, premiums, tiles, blanks, highlight, coordinates, scores),
the terminal board, ``hint`` (its moves and figures against the engine's own ranking, text and JSON),
the HTML replay of a recorded game (every move in it, nothing fetched from a network), the game list
and ``stats``."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot.play.analysis import hint
from bot.play.turn import situation_of
from bot.records.history import position_before_move, record
from bot.store.store import DecisionStatus, Store
from bot.views.board_svg import BoardView, board_svg, square_name, squares_of
from bot.views.hint import InputError, hint_text, read_board, situation_for
from bot.views.replay_html import replay_html
from bot.views.terminal import board_picture
from cli.main import main
from dictionaries.registry import LexiconRegistry
from engine.board.board import Board
from engine.board.move import Placement, format_move, parse_move
from engine.board.rack import Rack
from engine.equity.strategy import Equity
from engine.movegen.generate import generate
from engine.players.registry import strategy_named
from engine.rules.layout import DL, DW, TL, TW, BoardLayout
from engine.rules.ruleset import Ruleset
from tests.bot.conftest import BOT_EMAIL, BOT_PASSWORD, Sandbox
from tests.bot.recorded import Recorded, record_demo

SVG = "{http://www.w3.org/2000/svg}"
EN = Ruleset.for_id(5)
PREMIUMS = {DL: "DL", TL: "TL", DW: "DW", TW: "TW"}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_demo(tmp_path_factory.mktemp("recorded"))


def _classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def _board_with_moves() -> tuple[Board, Placement]:
    board = Board(EN.alphabet)
    board.place(parse_move("8G HOuSE", board).tiles)
    last = parse_move("J5 QUE(S)T", board)
    board.place(last.tiles)
    return board, last


@pytest.mark.parametrize("layout_kind", ["standard", "random"])
def test_the_svg_shows_squares_premiums_tiles_blanks_the_last_move_and_scores(layout_kind: str) -> None:
    rng = random.Random(5)
    layout = (
        EN.layout
        if layout_kind == "standard"
        else BoardLayout(tuple(tuple(rng.choice(range(5)) for _ in range(15)) for _ in range(15)))
    )
    board, last = _board_with_moves()
    view = BoardView(board, layout, squares_of(last.tiles), [("bot", 57), ("house <&>", 24)], 1, "a title")
    root = ET.fromstring(board_svg(view))
    squares = [e for e in root.iter(f"{SVG}rect") if "square" in _classes(e)]
    assert len(squares) == 225 and len({e.get("data-square") for e in squares}) == 225
    for element in squares:
        name = element.get("data-square", "")
        row, col = int(name[1:]) - 1, "ABCDEFGHIJKLMNO".index(name[0])
        premium = PREMIUMS.get(layout.codes[row][col])
        wanted = {f"premium-{premium}"} if premium else set()
        assert {c for c in _classes(element) if c.startswith("premium-")} == wanted
    tiles = {e.get("data-square"): e for e in root.iter(f"{SVG}g") if "tile" in _classes(e)}
    assert set(tiles) == {square_name(r, c) for r, c, _ in board.tiles()}
    blanks = {name for name, e in tiles.items() if "blank" in _classes(e)}
    assert blanks == {"I8"}  # the u of HOuSE
    assert tiles["I8"].get("data-points") == "0" and not [t for t in tiles["I8"] if "points" in _classes(t)]
    assert tiles["J5"].get("data-letter") == "Q" and tiles["J5"].get("data-points") == "10"
    highlighted = {name for name, e in tiles.items() if "last" in _classes(e)}
    assert highlighted == {"J5", "J6", "J7", "J9"}  # the new tiles of QUE(S)T, not the S it used
    coordinates = [e.text for e in root.iter(f"{SVG}text") if "coordinate" in _classes(e)]
    assert coordinates == list("ABCDEFGHIJKLMNO") + [str(n) for n in range(1, 16)]
    scores = [e for e in root.iter(f"{SVG}text") if "score" in _classes(e)]
    assert [s.text for s in scores] == ["bot 57", "house <&> 24 \u25c0"]
    assert "to-move" in _classes(scores[1]) and "to-move" not in _classes(scores[0])
    premium_labels = [e.text or "" for e in root.iter(f"{SVG}text") if "premium-label" in _classes(e)]
    empty_premiums = [
        PREMIUMS[code]
        for r, row in enumerate(layout.codes)
        for c, code in enumerate(row)
        if code in PREMIUMS and board.grid[r][c] < 0
    ]
    assert sorted(premium_labels) == sorted(empty_premiums)


def test_the_terminal_board_is_plain_text_unless_colour_is_asked_for() -> None:
    board, last = _board_with_moves()
    plain = board_picture(board, EN.layout, squares_of(last.tiles))
    assert "\x1b" not in plain and plain.splitlines()[8] == " 8  . . . . . . H O u S E . . . ."
    coloured = board_picture(board, EN.layout, squares_of(last.tiles), colour=True)
    assert "\x1b[1;30;48;5;220mQ\x1b[0m" in coloured  # the last move highlighted
    assert "\x1b[1mH\x1b[0m" in coloured  # an older tile
    assert "\x1b[48;5;160m.\x1b[0m" in coloured.splitlines()[1]  # the TW square in the corner
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def _positions(recorded: Recorded) -> list[tuple[int, object]]:
    store = Store(recorded.state)
    try:
        moves = sorted({d.move_count for d in store.decisions(recorded.game_id, DecisionStatus.APPLIED)})
        return [(m + 1, position_before_move(store, recorded.game_id, m + 1)) for m in moves]
    finally:
        store.close()


@pytest.mark.parametrize("name", ["equity", "equity-hand", "greedy"])
def test_hint_ranks_as_the_strategy_and_its_figures_are_the_engines(recorded: Recorded, name: str) -> None:
    lexicon = LexiconRegistry([]).get(5)
    strategy = strategy_named(name)
    for _, position in _positions(recorded):
        situation = situation_of(position, lexicon)  # type: ignore[arg-type]
        result = hint(situation, strategy, 8)
        placements = generate(situation.board, situation.rack, lexicon, situation.rules)
        expected = strategy.rank(situation, placements)[:8]
        assert [m.notation for m in result.moves] == [format_move(m, situation.board) for m in expected]
        assert result.placements == len(placements)
        for figures, move in zip(result.moves, expected, strict=True):
            if isinstance(move, Placement):
                assert figures.score == move.score and figures.kind == "move"
                assert Rack.from_text(figures.leave or "", EN.alphabet) == situation.rack.leave(
                    [t for _, _, t in move.tiles]
                )
        equities = [m.equity for m in result.moves if m.equity is not None]
        if isinstance(strategy, Equity) and situation.bag_count > 0:
            assert len(equities) == len([m for m in result.moves if m.kind != "pass"])
            assert equities == sorted(equities, reverse=True)  # the figures explain the ranking
            model = strategy.leave_model(EN)
            for m in result.moves:
                if m.leave_value is not None:
                    assert m.leave_value == round(model.value(Rack.from_text(m.leave or "", EN.alphabet)), 2)
        else:
            assert equities == [] and result.note


def test_hint_prints_the_moves_and_json_for_a_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board, _ = _board_with_moves()
    path = tmp_path / "position.txt"
    path.write_text("# a position\n= mine AEIRST?\n" + board.text() + "\n", encoding="utf-8")
    argv = ["hint", "--board", str(path), "--top", "3", "--json", "--svg", str(tmp_path / "best.svg")]
    assert main([*argv, "--strategy", "equity"]) == 0
    data = json.loads(capsys.readouterr().out)
    lexicon = LexiconRegistry().get(5)
    situation = situation_for(board, Rack.from_text("AEIRST?", EN.alphabet), EN, lexicon)
    expected = hint(situation, strategy_named("equity"), 3)
    assert data == json.loads(json.dumps(expected.to_json()))
    assert data["rack"] == "AEIRST?" and data["bag_count"] == situation.bag_count and len(data["moves"]) == 3
    svg = ET.fromstring((tmp_path / "best.svg").read_text(encoding="utf-8"))
    highlighted = {e.get("data-square") for e in svg.iter(f"{SVG}g") if "last" in _classes(e)}
    best = parse_move(data["moves"][0]["notation"], board)
    assert highlighted == {square_name(r, c) for r, c, _ in best.tiles}
    assert main(["hint", "--board", str(path), "--rack", "ZI", "--top", "2", "--strategy", "greedy"]) == 0
    text = capsys.readouterr().out
    assert "rack IZ" in text and "strategy greedy" in text and "greedy ranks by score alone" in text
    assert re.search(r"^\s+1\s+\S+ \S+\s+\d+\s+", text, re.MULTILINE)


def test_hint_explains_itself_and_names_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint"]) == 2
    assert "examples:" in capsys.readouterr().out
    path = tmp_path / "short.txt"
    path.write_text("...............\n" * 14, encoding="utf-8")
    assert main(["hint", "--board", str(path), "--rack", "AB"]) == 1
    assert "short.txt: a board text needs 15 rows, got 14" in capsys.readouterr().err
    path.write_text("...............\n" * 15, encoding="utf-8")
    assert main(["hint", "--board", str(path)]) == 2
    assert "gives no rack: add --rack" in capsys.readouterr().err
    with pytest.raises(InputError, match="no position named 'two'; it has one"):
        read_board("= one AB\n" + "...............\n" * 15, EN.alphabet, "two")
    with pytest.raises(SystemExit):
        main(["hint", "--board", str(path), "--rack", "AB", "--ruleset", "99"])
    assert "argument --ruleset: unknown ruleset id 99; known ids are 0..12" in capsys.readouterr().err


def test_hint_of_a_recorded_move_is_the_position_the_bot_had(
    recorded: Recorded, capsys: pytest.CaptureFixture[str]
) -> None:
    number, position = _positions(recorded)[3]
    args = ["hint", "--state", str(recorded.state), "--game", str(recorded.game_id), "--move", str(number)]
    assert main([*args, "--json", "--top", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rack"] == position.rack.text()  # type: ignore[attr-defined]
    assert data["bag_count"] == position.bag_count  # type: ignore[attr-defined]
    assert main([*args[:-1], str(number + 1)]) == 1
    assert f"move {number + 1} is not a recorded move of the bot; recorded moves of the bot: 1, 3" in (
        capsys.readouterr().err
    )


class _Page(HTMLParser):
    """Collects the replay page's frames, rows and every attribute that could load something."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, str | None]] = []
        self.rows = 0
        self.loads: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.tags.append(tag)
        if tag == "section" and values.get("class") == "frame":
            self.frames.append(values)
        if tag == "tr" and "data-frame" in values:
            self.rows += 1
        self.loads += [f"{tag} {k}={v}" for k, v in attrs if k in ("src", "href", "action", "srcset")]


def test_the_replay_page_holds_every_move_and_loads_nothing(recorded: Recorded) -> None:
    store = Store(recorded.state)
    try:
        decisions = store.decisions(recorded.game_id, DecisionStatus.APPLIED)
        game = record(store, recorded.game_id, LexiconRegistry([]).get, strategy_named("equity"))
    finally:
        store.close()
    page = replay_html(game, "equity")
    parser = _Page()
    parser.feed(page)
    assert parser.loads == [] and "@import" not in page and "url(" not in page
    moves = recorded.game.move_count
    assert [f.moves for f in game.frames] == [*range(moves + 1), moves]  # every move, then the final scores
    assert [int(f["data-moves"] or -1) for f in parser.frames] == [f.moves for f in game.frames]
    assert parser.rows == len(game.frames) - 1
    for decision in decisions:
        assert decision.notation in page
    final = game.frames[-1].players
    me = next(p for p in recorded.game.players if p.username == "bot")
    other = next(p for p in recorded.game.players if p.username != "bot")
    assert final == (("bot", me.score), (other.username, other.score))
    played = [f for f in game.frames if f.actor == "bot"]
    assert played and all(f.would_play for f in played)  # what the bot would play now, at each of its moves
    theirs = [f for f in game.frames if f.actor == "house" and f.engine_points is not None]
    assert theirs and all(f.points == f.engine_points for f in theirs)


def test_replay_lists_games_writes_html_and_refuses_a_missing_state_file(
    recorded: Recorded, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = ["--state", str(recorded.state)]
    fast = ["--strategy", "equity"]  # what the bot would play now, without sim's time per position
    assert main(["replay", *state]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].split() == ["game", "opponent", "ruleset", "first", "seen", "result", "score", "moves"]
    date = r"\d{4}-\d\d-\d\d \d\d:\d\d"
    assert re.match(rf"\s*{recorded.game_id}\s+house\s+5\s+{date}\s+(won|lost|drawn)\s+\d+-\d+", listing[1])
    out = tmp_path / "game.html"
    assert main(["replay", *state, *fast, str(recorded.game_id), "--html", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert not (tmp_path / "game.html.partial").exists()
    assert main(["replay", *state, *fast, str(recorded.game_id)]) == 0
    assert "scores differ from the server's" in capsys.readouterr().out
    missing = tmp_path / "typo.sqlite3"
    assert main(["replay", "--state", str(missing)]) == 2
    assert f"no state file {missing}" in capsys.readouterr().err and not missing.exists()
    assert main(["stats", *state]) == 0
    stats = capsys.readouterr().out
    assert "1 game recorded, 0 running, 1 finished" in stats and re.search(r"^  house\s+1\s", stats, re.MULTILINE)


def test_hint_of_a_live_game_reads_it_from_the_server(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = sandbox.game()
    config = sandbox.config_file(tmp_path / "bot.toml")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    state = tmp_path / "state.db"
    assert main(["hint", "--config", str(config), "--state", str(state), "--game", str(game.id), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rack"] == game.game.racks[0].text()  # the bot's rack: it moves first
    assert data["bag_count"] == len(game.game.bag) and data["moves"] and data["strategy"] == "equity"
    assert main(["hint", "--config", str(config), "--state", str(state), "--game", "12345"]) == 1
    assert "wordfeud-bot hint: " in capsys.readouterr().err


def test_hint_shows_a_simulating_strategys_figures(recorded: Recorded) -> None:
    lexicon = LexiconRegistry([]).get(5)
    sim = strategy_named("sim:candidates=4,iterations=12,seconds=0")
    _, position = _positions(recorded)[2]
    situation = situation_of(position, lexicon)  # type: ignore[arg-type]
    assert situation.bag_count > 16
    result = hint(situation, sim, 6)
    simulated = [m for m in result.moves if m.sim_value is not None]
    # the static best four and, none of them a swap, the best swap; the simulated candidates first
    assert len(simulated) == 5 and result.moves[: len(simulated)] == simulated
    assert sum(m.kind == "swap" for m in simulated) == 1
    assert all(m.equity is not None for m in simulated)  # static figures too
    assert all(m.sim_ahead is None for m in result.moves)  # ranked by value: no share of wins to show
    values = [m.sim_value for m in simulated if m.sim_value is not None]
    assert values == sorted(values, reverse=True)  # ranked by the simulation's value (wins only near the end)
    assert "simulated 5 candidates over" in result.note
    text = hint_text(result, situation)
    [header] = [line for line in text.splitlines() if line.lstrip().startswith("#  move")]
    assert header.rstrip().endswith("sim value") and "wins" not in text


def _rows(**rows: str) -> str:
    """A board file: 15 empty rows but those given (``r8="....."``, padded with '.')."""
    lines = ["." * 15] * 15
    for name, text in rows.items():
        lines[int(name[1:]) - 1] = text.ljust(15, ".")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("content", "rack", "message"),
    [
        pytest.param(b"\x00\xff\xfe\x80junk", "AB", "{path}: not UTF-8 text (byte 0xff at offset 1)", id="binary"),
        pytest.param(
            _rows(r8=".......CAFÉ").encode("latin-1"), "AB", "{path}: not UTF-8 text (byte 0xc9 at offset 122)",
            id="latin-1",
        ),
        pytest.param(None, "AB", "{path}: no such file", id="missing"),
        pytest.param("dir", "AB", "{path}: is a directory, not a board file", id="directory"),
        pytest.param(
            _rows(r3="..CAT"), "AB", "{path}: no tile on the start square H8; the first move of a game covers it",
            id="off-centre",
        ),
        pytest.param(
            _rows(r3="..CAT", r8=".....ZAP"), "AB", "{path}: the tiles at C3, D3, E3 do not touch the tiles on the "
            "start square", id="apart",
        ),
        pytest.param(
            _rows(r8="....ZZZZ"), "AB", "{path}: 4 Z tiles on the board; the bag of ruleset 5 (en) holds 1",
            id="board-too-many",
        ),
        pytest.param(_rows(), "ZZZ", "--rack ZZZ: 3 Z tiles on the rack; the bag of ruleset 5 (en) holds 1", id="rack"),
        pytest.param(
            _rows(r8=".....ZAP"), "Z", "{path} and --rack Z: 1 Z tile on the board and 1 on the rack; the bag of "
            "ruleset 5 (en) holds 1", id="board-and-rack",
        ),
    ],
)  # fmt: skip
def test_hint_names_a_board_file_or_rack_it_cannot_use(
    content: bytes | str | None, rack: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.txt"
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["hint", "--board", str(path), "--rack", rack, "--strategy", "greedy"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"wordfeud-bot hint: {message.format(path=path)}") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("target", "reason"),
    [("no/dir/best.svg", "there is no directory {tmp}/no/dir"), ("", "it is a directory")],
    ids=["no-directory", "a-directory"],
)
def test_hint_svg_names_the_path_given_and_why_it_cannot_be_written(
    target: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = tmp_path / "board.txt"
    board.write_text(_rows(), encoding="utf-8")
    svg = tmp_path / target if target else tmp_path
    assert main(["hint", "--board", str(board), "--rack", "AB", "--strategy", "greedy", "--svg", str(svg)]) == 1
    err = capsys.readouterr().err
    assert err == f"wordfeud-bot hint: cannot write --svg {svg}: {reason.format(tmp=tmp_path)}\n"
    assert ".partial" not in err


def test_hint_of_a_finished_game_says_it_is_over_and_shows_the_final_position(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = sandbox.game()
    game.game.resign(1)  # the house gives up before a move: the game is over, 0-0
    config = sandbox.config_file(tmp_path / "bot.toml")
    config.chmod(0o600)
    monkeypatch.setenv("WORDFEUD_EMAIL", BOT_EMAIL)
    monkeypatch.setenv("WORDFEUD_PASSWORD", BOT_PASSWORD)
    argv = ["hint", "--config", str(config), "--state", str(tmp_path / "state.db"), "--game", str(game.id)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.err == (
        f"wordfeud-bot hint: game {game.id} over: won 0-0 against house (ruleset 5, 1 moves; house resigned); "
        "there is no move to hint\n"
    )
    assert captured.out.startswith("The final board:\n") and "PASS" not in captured.out and "rack" not in captured.out
