"""``dict build CODE --cspell``: reading cspell's TrieXv3 tries and @cspell/dict-* package tarballs,
fetching them with npm, and the messages when npm or the registry is not there.

Hermetic: the packages are made here, in the real layout (``package/package.json`` and a gzipped
trie), and ``npm`` is a stand-in script on PATH."""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
import tarfile
from pathlib import Path

import pytest

from cli.main import main as cli
from dictionaries.cspell import COMPOUND, FOLDED, FORBIDDEN, CspellError, fetch, read_package, trie_entries
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

ES = Ruleset.for_code("es")
SPECIAL = set("$<#;\\0123456789\n\r")
Trie = dict[str, "Trie"]


def encode_trie(words: list[str], base: int = 32) -> str:
    """A TrieXv3 file of these words: a depth-first walk, ``$`` on leaving a word's end, ``<`` otherwise."""
    root: Trie = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    out: list[str] = []

    def walk(node: Trie) -> None:
        for char in sorted(c for c in node if c):
            child = node[char]
            out.append("\\" + char if char in SPECIAL else char)
            walk(child)
            out.append("$" if "" in child else "<")

    walk(root)
    lines = ["".join(out[i : i + 50]) for i in range(0, len(out), 50)]
    return f"#!/usr/bin/env cspell-trie reader\nTrieXv3\nbase={base}\n# made by a test\n__DATA__\n" + "\n".join(lines)


def make_package(path: Path, words: list[str], *, name: str = "@cspell/dict-es-es", version: str = "3.0.8") -> Path:
    """A package tarball laid out as the registry's are."""
    files = {
        "package/package.json": json.dumps({"name": name, "version": version, "license": "LGPL-3.0"}).encode(),
        "package/cspell-ext.json": b'{\n  // a comment, as in the real ones\n  "id": "es-es"\n}\n',
        "package/dict/es-es.trie.gz": gzip.compress(encode_trie(words).encode("utf-8")),
        "package/README.md": b"test package\n",
    }
    with tarfile.open(path, "w:gz") as archive:
        for member, data in files.items():
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


SPANISH = ["casa", "casas", "perro", "perros", "comimos", "canción", "churro", "Madrid"]
SPANISH += ["~cancion", "!hola", "pre+", "cm"]  # a case-folded copy, a forbidden word, a compound part, a unit


def test_a_trie_with_references_reads_as_cspell_reads_it() -> None:
    # bat, bats; then cat whose "t" is node 3 of bat's path (numbers count from 0 with the end node skipped)
    assert sorted(trie_entries("TrieXv3\nbase=10\n__DATA__\nbats$$<<cat#3;\n")) == ["bat", "bats", "cat", "cats"]
    # "$" or "<" and then a digit d go up d characters in all
    assert sorted(trie_entries("TrieXv3\nbase=10\n__DATA__\nabc$2de$2f$\n")) == ["abc", "ade", "af"]
    assert sorted(trie_entries("TrieXv3\nbase=10\n__DATA__\nabcd$<2xy$\n")) == ["abcd", "axy"]


@pytest.mark.parametrize("seed", range(20))
def test_random_word_lists_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = "abcñé$<#;\\19~!+ "
    words = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(300)})
    assert sorted(trie_entries(encode_trie(words, base=rng.choice((10, 16, 32))))) == words


def test_broken_tries_are_named_errors() -> None:
    with pytest.raises(CspellError, match="not a cspell TrieXv3 trie"):
        list(trie_entries("TrieXv4\nbase=10\n__DATA__\nab$\n"))
    with pytest.raises(CspellError, match="going up 4 from depth 1"):
        list(trie_entries("TrieXv3\nbase=10\n__DATA__\nab$5\n"))
    with pytest.raises(CspellError, match="reference to node"):
        list(trie_entries("TrieXv3\nbase=10\n__DATA__\nab#99;\n"))


def test_a_package_is_read_with_its_identity_and_marks(tmp_path: Path) -> None:
    package = read_package(make_package(tmp_path / "p.tgz", SPANISH))
    assert (package.name, package.version, package.licence, package.trie) == (
        "@cspell/dict-es-es", "3.0.8", "LGPL-3.0", "dict/es-es.trie.gz"
    )
    assert sorted(package.words) == sorted(w for w in SPANISH if w[0] not in "~!" and "+" not in w)
    assert dict(package.skipped) == {FOLDED: 1, FORBIDDEN: 1, COMPOUND: 1}
    broken = tmp_path / "broken.tgz"
    with tarfile.open(broken, "w:gz") as archive:
        info = tarfile.TarInfo("package/package.json")
        info.size = 2
        archive.addfile(info, io.BytesIO(b"{}"))
    with pytest.raises(CspellError, match=r"broken\.tgz: not a cspell dictionary package: 0 trie files"):
        read_package(broken)
    (tmp_path / "not.tgz").write_bytes(b"not a tarball")
    with pytest.raises(CspellError, match=r"not\.tgz: cannot read the package"):
        read_package(tmp_path / "not.tgz")


def test_dict_build_from_a_downloaded_package(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tarball = make_package(tmp_path / "es.tgz", SPANISH)
    out = tmp_path / "es.dawg"
    assert cli(["dict", "build", "es", "--cspell-package", str(tarball), "-o", str(out), "-q"]) == 0
    words = {ES.alphabet.format_word(w) for w in Dawg.load(out, ES.alphabet).words()}
    assert words == {"CASA", "CASAS", "PERRO", "PERROS", "COMIMOS", "CANCION", "CHURRO"}
    report = capsys.readouterr().out
    assert "@cspell/dict-es-es@3.0.8" in report and "abbreviation: unit symbol (for example CM)" in report


def _fake_npm(directory: Path, body: str) -> Path:
    directory.mkdir()
    script = directory / "npm"
    script.write_text(f"#!{sys.executable}\nimport sys, shutil, pathlib, os\nargs = sys.argv[1:]\n{body}\n")
    script.chmod(0o755)
    return script


def test_dict_build_fetches_the_package_with_npm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tarball = make_package(tmp_path / "registry.tgz", SPANISH)
    calls = tmp_path / "calls.txt"
    _fake_npm(
        tmp_path / "bin",
        f"pathlib.Path({str(calls)!r}).write_text(' '.join(args))\n"
        "dest = pathlib.Path(args[args.index('--pack-destination') + 1])\n"
        f"shutil.copy({str(tarball)!r}, dest / 'cspell-dict-es-es-3.0.8.tgz')\n"
        "print('cspell-dict-es-es-3.0.8.tgz')",
    )
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    out = tmp_path / "es.dawg"
    assert cli(["dict", "build", "es", "--cspell", "-o", str(out)]) == 0
    assert calls.read_text().startswith("pack @cspell/dict-es-es@3.0.8 --pack-destination ")
    assert "CASAS" in Dawg.load(out, ES.alphabet)
    err = capsys.readouterr().err
    assert "fetching @cspell/dict-es-es@3.0.8 with npm" in err and "1 case-folded copy (~)" in err


def test_without_npm_the_message_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    out = tmp_path / "fi.dawg"
    assert cli(["dict", "build", "fi", "--cspell", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "npm is not installed, and it fetches @cspell/dict-fi-fi@1.1.3 from the npm registry" in err
    assert "--cspell-package FILE" in err and not out.exists()


def test_an_unreachable_registry_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    npm = _fake_npm(
        tmp_path / "bin",
        "sys.stderr.write('npm error code ENOTFOUND\\n')\n"
        "sys.stderr.write('npm error network request to https://registry.example/ failed\\n')\n"
        "sys.exit(1)",
    )
    with pytest.raises(CspellError) as caught:
        fetch("@cspell/dict-da-dk", "4.1.2", tmp_path / "dest", npm=str(npm))
    message = str(caught.value)
    assert message.startswith("npm could not fetch @cspell/dict-da-dk@4.1.2 from the npm registry")
    assert "ENOTFOUND" in message and "network request" in message
    assert cli(["dict", "build", "sv", "--cspell"]) == 1  # no package known for Swedish
    assert "no @cspell/dict-* package is known for sv" in capsys.readouterr().err
