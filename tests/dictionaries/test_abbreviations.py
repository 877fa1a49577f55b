"""Abbreviation rules per language (data/abbreviations.toml) on small lists, with their allow lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from dictionaries.abbreviations import LISTED, MARKED, NO_VOWEL, ROMAN, UNIT
from dictionaries.build import build_lexicon
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset


def build(code: str, lines: list[str], tmp_path: Path, mode: str = "auto") -> tuple[set[str], dict[str, int], str]:
    source = tmp_path / f"{code}.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ruleset = Ruleset.for_code(code)
    dawg, report = build_lexicon(ruleset, source, None, abbreviations=mode)
    return {ruleset.alphabet.format_word(w) for w in Dawg.words(dawg)}, dict(report.dropped), report.text()


@pytest.mark.parametrize(
    ("code", "lines", "kept", "dropped"),
    [
        (
            "nl",
            ["huis", "pc", "cv", "zn", "ngo", "km", "bv", "hd", "brr", "uhd", "mcm", "etc."],
            {"HUIS", "ZN", "BRR"},
            {NO_VOWEL: 3, LISTED: 2, UNIT: 1, ROMAN: 2, MARKED: 1},
        ),
        (
            "en",
            ["hm", "sh", "st", "tsk", "tv", "cd", "mix", "xi", "cwm", "dvd", "cat", "mm", "xl"],
            {"HM", "SH", "ST", "TSK", "MIX", "XI", "CWM", "CAT", "MM"},
            {NO_VOWEL: 2, ROMAN: 2},
        ),
        (
            "pt",
            ["ii", "iv", "ix", "xiv", "vi", "li", "mi", "casa", "mm", "cd"],
            {"VI", "LI", "MI", "CASA"},
            {ROMAN: 5, UNIT: 1},
        ),
        ("sv", ["abc", "hus", "pc", "hm", "kg"], {"HUS", "HM"}, {LISTED: 1, NO_VOWEL: 1, UNIT: 1}),
        ("de", ["kg", "hz", "Haus", "hm", "bgb", "übel"], {"HAUS", "HM", "ÜBEL"}, {UNIT: 2, NO_VOWEL: 1}),
        ("nb", ["tbc", "bh", "hus", "ærlig", "pst"], {"HUS", "ÆRLIG", "PST"}, {NO_VOWEL: 2}),
    ],
)
def test_rules_and_allow_lists(
    code: str, lines: list[str], kept: set[str], dropped: dict[str, int], tmp_path: Path
) -> None:
    words, counts, text = build(code, lines, tmp_path)
    assert words == kept
    assert {reason: n for reason, n in counts.items() if reason.startswith("abbreviation")} == dropped
    assert f"dropped {sum(dropped.values())}" in text and "(for example " in text


def test_an_all_capitals_list_is_a_game_list_and_kept_whole(tmp_path: Path) -> None:
    words, counts, text = build("en", ["HM", "TV", "CD", "CAT"], tmp_path)
    assert words == {"HM", "TV", "CD", "CAT"} and "kept (an all-capitals list is a game list)" in text
    words, counts, _ = build("en", ["HM", "TV", "CD", "CAT"], tmp_path, mode="drop")
    assert words == {"HM", "CAT"} and counts == {NO_VOWEL: 1, ROMAN: 1}
    words, _, text = build("nl", ["huis", "pc"], tmp_path, mode="keep")
    assert words == {"HUIS", "PC"} and "kept (--abbreviations keep)" in text
    with pytest.raises(ValueError, match="abbreviations must be one of auto, drop, keep"):
        build("nl", ["huis"], tmp_path, mode="sometimes")
