"""``write_whole``: a file is written whole or not at all, even when a stop signal interrupts it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.wholefile import partial_path, write_whole


def test_text_and_bytes_are_written_and_no_partial_file_stays(tmp_path: Path) -> None:
    write_whole(tmp_path / "a.txt", "héllo\n")
    write_whole(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "héllo\n"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin"]


class Interrupted(BaseException):
    """Stands for KeyboardInterrupt or a stop signal's exception: not an Exception."""


def test_an_interruption_while_writing_leaves_the_old_file_and_no_partial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "table.json"
    target.write_text("old\n", encoding="utf-8")
    real = Path.write_text

    def half_then_interrupted(self: Path, data: str, *args: object, **kwargs: object) -> int:
        real(self, data[:2], encoding="utf-8")  # half the file is on disk...
        assert self == partial_path(target)
        raise Interrupted  # ...when the signal comes

    monkeypatch.setattr(Path, "write_text", half_then_interrupted)
    with pytest.raises(Interrupted):
        write_whole(target, "new text\n")
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.json"]


def test_an_interruption_before_the_rename_leaves_the_old_file_and_no_partial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "table.json"
    target.write_text("old\n", encoding="utf-8")

    def interrupted(source: Path, destination: Path) -> None:
        assert Path(source).read_text(encoding="utf-8") == "new\n"  # written whole, not yet in place
        raise Interrupted

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(Interrupted):
        write_whole(target, "new\n")
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.json"]


def test_a_file_that_cannot_be_written_is_an_oserror_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()  # a directory where the file should go: the rename fails
    with pytest.raises(OSError):
        write_whole(tmp_path / "taken", "text")
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]
