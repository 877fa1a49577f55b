"""``python -m sandbox.lab.referee``: the bot plays from one list against a sandbox that referees with
another, and the report counts its points, its refused moves and the words it learned."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from dictionaries import ENGLISH_DAWG, bundled_path
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from sandbox.lab.acceptgap import COLLINS_TWOS
from sandbox.lab.referee import load_list, main, play

EN = Ruleset.for_id(5)
#: Two-letter words no English list has: a player's list with them makes moves the referee refuses.
JUNK = ["AZ", "EZ", "IZ", "UZ", "AQ", "EQ", "OQ", "UQ", "IX", "OJ", "UJ", "EJ", "IJ", "AJ"]


@pytest.fixture(scope="module")
def enable() -> Dawg:
    return Dawg.load(bundled_path(ENGLISH_DAWG), EN.alphabet)


def test_a_list_with_words_the_referee_lacks_is_refused_and_one_lacking_words_learns_them(enable: Dawg) -> None:
    referee = enable.with_words([EN.alphabet.parse_word(w) for w in COLLINS_TWOS])
    player = enable.with_words([EN.alphabet.parse_word(w) for w in JUNK])
    report = play(5, referee, player, 2, seed=3)
    assert report.games == 2 and all(p > 0 for p in report.bot_points + report.house_points)
    assert sum(report.refusals) > 0 and report.refused_words and report.refused_words <= set(JUNK)
    assert report.learned[-1] > 0 and report.learned == sorted(report.learned)
    assert "2 games: bot" in report.summary() and "refusals" in report.lines(1)[0]
    same = play(5, referee, referee, 1, seed=3)
    assert same.refusals == [0] and same.learned == [0] and not same.refused_words


def test_lists_are_read_from_files_tarballs_and_lexicons(tmp_path: Path, enable: Dawg) -> None:
    listed = tmp_path / "words.txt.gz"
    listed.write_bytes(gzip.compress(b"cat\ncats\nqi\n"))
    assert {EN.alphabet.format_word(w) for w in load_list(EN, listed).words()} == {"CAT", "CATS", "QI"}
    merged = load_list(EN, bundled_path(ENGLISH_DAWG), [listed])
    assert len(merged) == len(enable) + 1 and "QI" in merged
    assert len(load_list(EN, bundled_path(ENGLISH_DAWG))) == len(enable)


def test_the_command_names_a_missing_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--referee", str(tmp_path / "missing.txt"), "--games", "1"]) == 1
    assert f"cannot read word list {tmp_path / 'missing.txt'}" in capsys.readouterr().err
