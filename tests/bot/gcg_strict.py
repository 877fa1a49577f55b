"""A strict GCG reader for the tests, written from the format's published description (John Chew's
"GCG file format" page of poslfit.com), not from the project's writer or reader: what the project writes
must pass it. It knows nothing of the engine: it keeps its own 15x15 grid of characters.

Strict means: the first line may only be ``#character-encoding``; the two ``#player`` pragmas come
before any event; every event line has exactly one of the described shapes; nicknames are declared;
cumulative totals add up per player; a play's ``.`` squares hold tiles and its letters go on empty
squares inside the board; ``--`` follows that player's play; an exchange and a pass score +0. One
relaxation: a pass or an exchange whose rack is not known may leave the rack out (the bot never sees
its opponent's rack, and a made-up one would be a false record).
"""

from __future__ import annotations

import re

KNOWN_PRAGMAS = {
    "character-encoding", "player1", "player2", "title", "description", "id", "lexicon", "note",
    "rack1", "rack2", "incomplete", "tile-set", "board-layout", "tile-distribution", "game-type",
}  # fmt: skip
COLUMNS = "ABCDEFGHIJKLMNO"
RACK = re.compile(r"^(?:[A-Z?]|\[[A-Z]+\])*$")
WORD = re.compile(r"^(?:[A-Za-z.]|\[[A-Za-z]+\])+$")
SCORE = re.compile(r"^[+-]\d+$")
TOTAL = re.compile(r"^-?\d+$")


class StrictGcgError(ValueError):
    """What the strict reader refuses, with the line number."""


def read_strictly(text: str) -> dict[str, object]:
    """The players, totals and final grid of a GCG text; StrictGcgError at the first fault."""
    players: dict[str, int] = {}
    totals = [0, 0]
    grid = [["" for _ in range(15)] for _ in range(15)]
    last_play: dict[int, list[tuple[int, int]]] = {}
    events = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line == "":
            continue
        if line != line.strip():
            raise StrictGcgError(f"line {number}: leading or trailing white space")
        if line.startswith("#"):
            name, _, value = line[1:].partition(" ")
            if name not in KNOWN_PRAGMAS:
                raise StrictGcgError(f"line {number}: unknown pragma {name!r}")
            if name == "character-encoding" and number != 1:
                raise StrictGcgError(f"line {number}: #character-encoding must be the first line")
            if name in ("player1", "player2"):
                nick = value.split(" ")[0]
                if not nick or ":" in nick or nick in players:
                    raise StrictGcgError(f"line {number}: bad or repeated nickname {nick!r}")
                players[nick] = int(name[-1]) - 1
            continue
        if not line.startswith(">"):
            raise StrictGcgError(f"line {number}: neither a pragma nor an event")
        events += 1
        head, _, body = line[1:].partition(": ")
        if head not in players or len(players) != 2:
            raise StrictGcgError(f"line {number}: undeclared player {head!r}")
        seat = players[head]
        tokens = body.split(" ")
        score, total = tokens[-2], tokens[-1]
        if not SCORE.match(score) or not TOTAL.match(total):
            raise StrictGcgError(f"line {number}: score {score!r} and total {total!r} malformed")
        moved = tokens[:-2]
        if len(moved) == 1 and moved[0].startswith("-"):
            moved = ["", moved[0]]  # a pass or an exchange with the rack left out
        if len(moved) == 1 and moved[0].startswith("(") and moved[0].endswith(")"):
            kind = "end points"
            if not RACK.match(moved[0][1:-1]) or not score.startswith("+"):
                raise StrictGcgError(f"line {number}: end rack points malformed")
        elif len(moved) == 2 and RACK.match(moved[0]) and moved[1] in ("-", "--", "(challenge)", "(time)"):
            kind = moved[1]
            if kind == "-" and score != "+0":
                raise StrictGcgError(f"line {number}: a pass scores +0")
            if kind == "--":
                if seat not in last_play:
                    raise StrictGcgError(f"line {number}: '--' without a play to withdraw")
                for r, c in last_play.pop(seat):
                    grid[r][c] = ""
        elif len(moved) == 2 and RACK.match(moved[0]) and moved[1].startswith("-"):
            kind = "exchange"
            tiles = moved[1][1:]
            if score != "+0" or not (tiles.isdigit() or RACK.match(tiles)):
                raise StrictGcgError(f"line {number}: exchange malformed")
        elif len(moved) == 2 and RACK.match(moved[0]) and moved[1].startswith("(") and moved[1].endswith(")"):
            kind = "end penalty"
            if not score.startswith("-") or moved[1][1:-1] != moved[0]:
                raise StrictGcgError(f"line {number}: end rack penalty malformed")
        elif len(moved) == 3 and RACK.match(moved[0]):
            kind = "play"
            last_play[seat] = _play(grid, moved[1], moved[2], number)
        else:
            raise StrictGcgError(f"line {number}: no event has this shape: {body!r}")
        if kind not in {"play", "--"}:
            last_play.pop(seat, None)
        totals[seat] += int(score)
        if totals[seat] != int(total):
            raise StrictGcgError(f"line {number}: total {total} but the scores add up to {totals[seat]}")
    if len(players) != 2:
        raise StrictGcgError("not two players")
    return {"players": sorted(players, key=players.__getitem__), "totals": totals, "grid": grid, "events": events}


def _play(grid: list[list[str]], position: str, word: str, number: int) -> list[tuple[int, int]]:
    m = re.match(r"^(\d+)([A-O])$|^([A-O])(\d+)$", position)
    if m is None or not WORD.match(word):
        raise StrictGcgError(f"line {number}: play {position} {word} malformed")
    across = m.group(1) is not None
    row = int(m.group(1) or m.group(4)) - 1
    col = COLUMNS.index(m.group(2) or m.group(3))
    placed = []
    for i, tile in enumerate(re.findall(r"\[[^\]]+\]|.", word)):
        r, c = (row, col + i) if across else (row + i, col)
        if not (0 <= r < 15 and 0 <= c < 15):
            raise StrictGcgError(f"line {number}: off the board")
        if tile == ".":
            if not grid[r][c]:
                raise StrictGcgError(f"line {number}: '.' over an empty square")
        else:
            if grid[r][c]:
                raise StrictGcgError(f"line {number}: a tile on a taken square")
            grid[r][c] = tile
            placed.append((r, c))
    if not placed:
        raise StrictGcgError(f"line {number}: a play places no tile")
    return placed
