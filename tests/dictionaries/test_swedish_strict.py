"""Ruleset 8 (strict Swedish) is built from base forms (the stems of hunspell's sv_SE.dic), so it
differs from ruleset 4 (every inflected form, Debian's wswedish list).

The first test is hermetic (a small hunspell dictionary); the second builds both real lexicons
and is skipped where hunspell-sv or wswedish is not installed (`.ci/run` installs them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main as cli
from dictionaries.build import build_lexicon
from dictionaries.registry import LexiconRegistry
from dictionaries.sources import source_for
from engine.rules.ruleset import Ruleset

SV, STRICT = Ruleset.for_code("sv"), Ruleset.for_code("sv-strict")
BASE_FORMS = ("HUS", "BIL", "FLICKA", "GÅ", "STOR", "BOK", "BARN", "SPRINGA")
# hunspell keeps irregular forms as stems of their own (STÖRRE, BÖCKER, SPRANG): those are in both
INFLECTED = ("HUSEN", "HUSET", "BILAR", "BILEN", "FLICKORNA", "FLICKAN", "GICK", "BARNEN")


def test_strict_swedish_comes_from_hunspell_stems(tmp_path: Path) -> None:
    assert source_for(STRICT.id).debian_file == Path("/usr/share/hunspell/sv_SE.dic")
    assert source_for(STRICT.id).debian_file != source_for(SV.id).debian_file
    dic = tmp_path / "sv_SE.dic"
    dic.write_text("6\nhus/BDXY\nbil/ADGXY\nflicka/ADjmNP\ngå/bmMN\n-/-06XY\nABC/x\n", encoding="utf-8")
    dawg, report = build_lexicon(STRICT, dic, None)
    assert {STRICT.alphabet.format_word(w) for w in dawg.words()} == {"HUS", "BIL", "FLICKA", "GÅ"}
    assert report.lines == 7 and report.dropped["not in the alphabet"] == 2  # the count line and "-"


@pytest.mark.skipif(
    not (source_for(STRICT.id).debian_file or Path("/nonexistent")).is_file()
    or not (source_for(SV.id).debian_file or Path("/nonexistent")).is_file(),
    reason="hunspell-sv and wswedish are not both installed: apt-get install hunspell-sv wswedish",
)
def test_ruleset_8_differs_from_ruleset_4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(tmp_path))
    assert cli(["dict", "build", "sv", "--debian", "--quiet"]) == 0
    assert cli(["dict", "build", "sv-strict", "--debian", "--quiet"]) == 0
    registry = LexiconRegistry()
    full, strict = registry.get(SV.id), registry.get(STRICT.id)
    assert full.checksum != strict.checksum
    assert all(word in strict for word in BASE_FORMS)
    assert not any(word in strict for word in INFLECTED)
    assert all(word in full for word in ("HUSEN", "BILAR", "GICK", "FLICKORNA"))
