"""Building lexicons from word-list files: formats, encodings, the report, errors and the command line."""

from __future__ import annotations

import dataclasses
import gzip
from pathlib import Path

import pytest

import dictionaries.cli
import dictionaries.registry
from cli.main import main as cli
from dictionaries import sources
from dictionaries.build import build_lexicon
from dictionaries.normalize import CAPITALISED, NOT_IN_ALPHABET, TOO_LONG, TOO_SHORT
from dictionaries.registry import LexiconRegistry
from dictionaries.wordlist import read_word_list
from engine.errors import LexiconError
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

NB = Ruleset.for_code("nb")
ES = Ruleset.for_code("es")

NORWEGIAN_LINES = [
    "blåbær",  # kept
    "Blåbær",  # capitalised in a lower-case list: a name
    "BLÅBÆR",  # an abbreviation
    "kafé",  # kept, folded
    "kafe",  # duplicate of kafé after folding
    "hus/AB",  # hunspell entry: the word is the first field
    "hytte\t12345",  # tab-separated: first field
    "quiz",  # Q is not a Norwegian tile
    "a-aksje",  # hyphen
    "å",  # one tile
    "sannsynlighetsberegning",  # 23 tiles
    "",  # empty line
    "hus",  # duplicate
]


def texts(dawg: Dawg) -> set[str]:
    return {dawg.alphabet.format_word(w) for w in dawg.words()}


def write(path: Path, lines: list[str], encoding: str = "utf-8", *, gz: bool = False) -> Path:
    data = ("\n".join(lines) + "\n").encode(encoding)
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def test_report_counts_every_line(tmp_path: Path) -> None:
    source = write(tmp_path / "nb.txt", NORWEGIAN_LINES)
    dawg, report = build_lexicon(NB, source, tmp_path / "nb.dawg")
    assert texts(dawg) == {"BLÅBÆR", "KAFE", "HUS", "HYTTE"}
    assert report.lines == len(NORWEGIAN_LINES)
    assert report.kept == 4
    assert report.folded == 1
    assert report.duplicates == 2
    assert dict(report.dropped) == {CAPITALISED: 2, NOT_IN_ALPHABET: 2, TOO_SHORT: 1, TOO_LONG: 1, "empty line": 1}
    assert report.kept + report.duplicates + sum(report.dropped.values()) == report.lines
    assert dict(report.bad_characters) == {"Q": 1, "-": 1}
    text = report.text()
    assert "kept:        4 words" in text and "'Q' 1" in text and "1 longer than 15 tiles" in text
    assert report.output == tmp_path / "nb.dawg" and report.file_bytes == (tmp_path / "nb.dawg").stat().st_size
    assert texts(Dawg.load(tmp_path / "nb.dawg", NB.alphabet)) == texts(dawg)


@pytest.mark.parametrize(("encoding", "gz"), [("utf-8", False), ("latin-1", False), ("utf-8", True), ("latin-1", True)])
def test_encodings_and_gzip_are_recognised(tmp_path: Path, encoding: str, gz: bool) -> None:
    source = write(tmp_path / "list.dat", ["blåbær", "smør", "ærlig"], encoding, gz=gz)
    assert read_word_list(source).encoding == encoding
    dawg, _ = build_lexicon(NB, source, None)
    assert texts(dawg) == {"BLÅBÆR", "SMØR", "ÆRLIG"}


def test_spanish_digraphs_become_single_tiles(tmp_path: Path) -> None:
    source = write(tmp_path / "es.txt", ["churro", "llama", "perro", "coche", "canción", "kiwi"])
    dawg, report = build_lexicon(ES, source, None)
    assert texts(dawg) == {"CHURRO", "LLAMA", "PERRO", "COCHE", "CANCION"}
    assert ES.alphabet.parse_word("CHURRO") in dawg
    assert len(ES.alphabet.parse_word("CHURRO")) == 4
    assert report.dropped[NOT_IN_ALPHABET] == 1  # K


def test_all_capitals_list_keeps_every_word(tmp_path: Path) -> None:
    dawg, report = build_lexicon(NB, write(tmp_path / "nsf.txt", ["BLÅBÆR", "HUS", "KAFÉ"]), None)
    assert texts(dawg) == {"BLÅBÆR", "HUS", "KAFE"}
    assert not report.dropped


def test_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match=r"cannot read word list .*missing\.txt"):
        build_lexicon(NB, tmp_path / "missing.txt", None)
    with pytest.raises(LexiconError, match="cannot read word list"):
        build_lexicon(NB, tmp_path, None)
    with pytest.raises(LexiconError, match="no word that ruleset nb can play"):
        build_lexicon(NB, write(tmp_path / "none.txt", ["quiz", "x"]), None)
    (tmp_path / "bin.dat").write_bytes(b"abc\x00def\n")
    with pytest.raises(LexiconError, match="not a text file"):
        build_lexicon(NB, tmp_path / "bin.dat", None)
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b" + b"garbage")
    with pytest.raises(LexiconError, match="gzipped but cannot be unpacked"):
        build_lexicon(NB, tmp_path / "bad.gz", None)
    with pytest.raises(LexiconError, match="not valid utf-8"):
        read_word_list(write(tmp_path / "l1.txt", ["blåbær"], "latin-1"), "utf-8")
    with pytest.raises(LexiconError, match="unknown text encoding"):
        read_word_list(write(tmp_path / "l2.txt", ["hus"]), "no-such-codec")


def test_cli_build_writes_to_the_user_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(tmp_path / "data"))
    source = write(tmp_path / "nb.txt", NORWEGIAN_LINES)
    assert cli(["dict", "build", "nb", str(source)]) == 0
    out, err = capsys.readouterr()
    target = tmp_path / "data" / "lexicons" / "nb.dawg"
    assert f"written:     {target}" in out
    assert "building: 4 done" in err  # progress, one line per phase when not on a terminal
    assert texts(LexiconRegistry().get(1)) == {"BLÅBÆR", "KAFE", "HUS", "HYTTE"}


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["dict", "build", "xx", "list.txt"], 2, "unknown ruleset 'xx'"),
        (["dict", "build", "nb"], 2, "give one of a WORDLIST, --debian, --cspell or --npm"),
        (["dict", "build", "nb", "list.txt", "--debian"], 2, "give one of a WORDLIST, --debian, --cspell or --npm"),
        (["dict", "build", "fi", "--debian"], 1, "no Debian word list is known for fi"),
        (["dict", "build", "nb", "/no/such/list.txt"], 1, "cannot read word list /no/such/list.txt"),
    ],
)
def test_cli_build_errors(argv: list[str], code: int, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(argv) == code
    assert message in capsys.readouterr().err


def test_cli_build_leaves_no_partial_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.dawg"
    assert cli(["dict", "build", "nb", str(write(tmp_path / "x.txt", ["quiz"])), "-o", str(target)]) == 1
    assert not target.exists() and not list(tmp_path.glob("*.partial"))
    assert "no word that ruleset nb can play" in capsys.readouterr().err


def test_cli_list_names_the_build_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(tmp_path))
    assert cli(["dict", "list"]) == 0
    out = capsys.readouterr().out
    assert "shipped: " in out and "en/enable.dawg (168,548 words)" in out
    assert "wordfeud-bot dict build nb --debian" in out
    assert "wordfeud-bot dict build fi --cspell   (fetches @cspell/dict-fi-fi 1.1.3 with npm)" in out
    assert out.count("\n 1 nb ") + out.count("\n12 pt ") == 2


def test_the_casing_of_a_list_is_decided_by_majority(tmp_path: Path) -> None:
    # one stray lower-case line in a Scrabble-style capitals list must not make every word a name
    upper = [f"WORD{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(50)]
    dawg, report = build_lexicon(Ruleset.for_code("en"), write(tmp_path / "caps.txt", [*upper, "hello"]), None)
    assert report.kept == 51 and "HELLO" in texts(dawg) and CAPITALISED not in report.dropped
    assert report.casing.startswith("upper case (50 of 51 words")
    assert "casing:      upper case" in report.text()
    # a lower-case list with a few capitalised names drops the names
    lower = [f"word{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(50)]
    source = write(tmp_path / "lower.txt", [*lower, "London", "NATO"])
    dawg, report = build_lexicon(Ruleset.for_code("en"), source, None)
    assert report.kept == 50 and report.dropped[CAPITALISED] == 2
    assert report.casing.startswith("lower case (51 of 52 words)")


def test_dict_list_asks_to_install_the_debian_list_only_when_it_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WORDFEUD_BOT_DATA", str(tmp_path / "data"))
    bokmaal = tmp_path / "bokmaal"
    nb = dataclasses.replace(sources.source_for(Ruleset.for_code("nb").id), debian_file=bokmaal)
    real = sources.source_for
    monkeypatch.setattr(dictionaries.cli, "source_for", lambda rid: nb if rid == nb.ruleset.id else real(rid))
    monkeypatch.setattr(dictionaries.registry, "source_for", lambda rid: nb if rid == nb.ruleset.id else real(rid))
    assert nb.build_command == "wordfeud-bot dict build nb --debian   (after: sudo apt-get install wnorwegian)"
    assert cli(["dict", "list"]) == 0
    assert "missing; build with: wordfeud-bot dict build nb --debian   (after: sudo apt-get install wnorwegian)" in (
        capsys.readouterr().out
    )
    bokmaal.write_text("hei\n", encoding="utf-8")  # the package is installed: only the build is left
    assert nb.build_command == f"wordfeud-bot dict build nb --debian   (from {bokmaal}, installed)"
    assert cli(["dict", "list"]) == 0
    out = capsys.readouterr().out
    assert f"missing; build with: wordfeud-bot dict build nb --debian   (from {bokmaal}, installed)" in out
    assert "apt-get install wnorwegian" not in out.split("\n 1 nb ")[1].split("\n 2 ")[0]
