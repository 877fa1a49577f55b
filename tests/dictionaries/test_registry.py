"""Finding lexicons by ruleset, loading them once, and saying how to build a missing one."""

from __future__ import annotations

from pathlib import Path

import pytest

from dictionaries import bundled_path
from dictionaries.registry import LexiconRegistry, MissingLexiconError, user_lexicon_dir, user_lexicon_path
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)


def small_lexicon(ruleset: Ruleset, *words: str) -> Dawg:
    return Dawg.build([ruleset.alphabet.parse_word(w) for w in words], ruleset.alphabet)


def test_user_directory_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("WORDFEUD_BOT_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert user_lexicon_dir() == tmp_path / "xdg" / "wordfeud-bot" / "lexicons"
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(tmp_path / "bot"))
    assert user_lexicon_dir() == tmp_path / "bot" / "lexicons"
    assert user_lexicon_path(Ruleset.for_id(1)) == tmp_path / "bot" / "lexicons" / "nb.dawg"


def test_shipped_lexicons_serve_english_and_dutch(tmp_path: Path) -> None:
    registry = LexiconRegistry([tmp_path])
    for ruleset_id, name in ((0, "en/enable.dawg"), (5, "en/word-list.dawg"), (2, "nl/opentaal.dawg")):
        found = registry.find(ruleset_id)
        assert found is not None and found.shipped and found.path == bundled_path(name)
    assert "QAT" in registry.get(5) and "CAT" in registry.get(0)
    assert "QI" in registry.get(5) and "QI" not in registry.get(0)  # international English: word-list + ENABLE
    assert "FIETS" in registry.get(2)
    assert registry.get(5) is registry.get(5)  # loaded once


def test_user_lexicon_comes_first(tmp_path: Path) -> None:
    small_lexicon(EN, "ZZZ", "QQ").save(tmp_path / "en.dawg")
    registry = LexiconRegistry([tmp_path / "empty", tmp_path])
    found = registry.find(5)
    assert found is not None and not found.shipped and found.path == tmp_path / "en.dawg"
    lexicon = registry.get(5)
    assert len(lexicon) == 2 and "QQ" in lexicon
    assert registry.get(5) is lexicon
    # ruleset 0 (en-us) has a file name of its own and still falls back on the shipped list
    assert registry.get(0) is not lexicon and len(registry.get(0)) == 168_548


def test_missing_lexicon_names_the_command(tmp_path: Path) -> None:
    registry = LexiconRegistry([tmp_path])
    assert registry.find(1) is None
    with pytest.raises(MissingLexiconError, match=r"ruleset 1 \(Norwegian \(bokmål\)\).*dict build nb --debian"):
        registry.get(1)
    with pytest.raises(MissingLexiconError, match=r"wordfeud-bot dict build fi --cspell"):
        registry.get(11)


def test_corrupt_user_lexicon_is_a_lexicon_error(tmp_path: Path) -> None:
    (tmp_path / "nb.dawg").write_bytes(b"not a lexicon at all, just some bytes here")
    with pytest.raises(LexiconError, match=r"nb\.dawg"):
        LexiconRegistry([tmp_path]).get(1)


def test_lexicon_for_another_alphabet_is_refused(tmp_path: Path) -> None:
    small_lexicon(EN, "CAT").save(tmp_path / "nb.dawg")  # English file under a Norwegian name
    with pytest.raises(LexiconError, match="built for alphabet"):
        LexiconRegistry([tmp_path]).get(1)
