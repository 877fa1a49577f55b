"""The resumable arena: finished chunks of pairs are kept and not played again; other settings refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.players.arena import GameRecord, play_pair
from offline.arena.match import chunk_file, run_arena
from offline.errors import WorkDirError


def essence(records: list[GameRecord]) -> list[tuple[object, ...]]:
    """What a replayed game must repeat (the thinking times differ from run to run)."""
    return [(r.seed, r.seat_of_a, r.scores, r.bingos, r.swaps, r.moves) for r in records]


def count_pairs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the seed of every pair played from now on (the workers run in this process)."""
    played: list[int] = []

    def spy(a: object, b: object, rules: object, lexicon: object, seed: int) -> object:
        played.append(seed)
        return play_pair(a, b, rules, lexicon, seed)  # type: ignore[arg-type]

    monkeypatch.setattr("offline.arena.match.play_pair", spy)
    return played


def test_a_match_goes_on_where_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "match"
    settings = {"ruleset": 5, "seed": 4, "workers": 1, "chunk": 2}
    whole = run_arena("greedy", "equity-hand", pairs=4, **settings)  # type: ignore[arg-type]
    first = run_arena("greedy", "equity-hand", pairs=4, work=work, **settings)  # type: ignore[arg-type]
    assert essence(first) == essence(whole) and chunk_file(work, 0, 1).exists() and chunk_file(work, 2, 3).exists()
    chunk_file(work, 2, 3).unlink()  # as if the run was cut off during that chunk
    played = count_pairs(monkeypatch)
    again = run_arena("greedy", "equity-hand", pairs=4, work=work, **settings)  # type: ignore[arg-type]
    # the kept chunk is read back as it was written; only the missing chunk's two pairs are played
    assert again[:4] == first[:4] and essence(again) == essence(whole) and len(played) == 2
    played.clear()
    longer = run_arena("greedy", "equity-hand", pairs=6, work=work, **settings)  # type: ignore[arg-type]
    assert longer[:8] == again and len(played) == 2 and len(longer) == 12


def test_other_settings_and_broken_files_are_refused(tmp_path: Path) -> None:
    work = tmp_path / "match"
    run_arena("greedy", "greedy", pairs=2, ruleset=5, seed=1, workers=1, chunk=2, work=work)
    with pytest.raises(WorkDirError, match=r"other settings: b 'greedy' \(asked 'equity'\)"):
        run_arena("greedy", "equity", pairs=2, ruleset=5, seed=1, workers=1, chunk=2, work=work)
    chunk_file(work, 0, 1).write_text("[[1, 2", encoding="utf-8")
    with pytest.raises(WorkDirError, match=r"cannot read the records of .*pairs-000000-000001\.json"):
        run_arena("greedy", "greedy", pairs=2, ruleset=5, seed=1, workers=1, chunk=2, work=work)
