"""``dict build CODE --npm [NAME[@VERSION]]``: plain word lists in npm package tarballs, fetched with
npm like the cspell packages, and the messages when npm, the registry or the list file is missing.

Hermetic: the packages are made here in the registry's layout (``package/package.json``, a licence
file, ``package/words.txt``), and ``npm`` is a stand-in script on PATH."""

from __future__ import annotations

import io
import json
import sys
import tarfile
from pathlib import Path

import pytest

from cli.main import main as cli
from dictionaries.npmlist import read_npm_list
from dictionaries.npmpack import NpmError, fetch, split_spec
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_code("en")
WORDS = ["aa", "ch", "qi", "za", "cwtch", "grrl", "twp", "zzzs", "cat", "cats", "Paris", "nth", "km"]
MIT = "MIT License\n\nCopyright (c) Someone\n\nPermission is hereby granted ...\n"


def make_package(path: Path, files: dict[str, bytes] | None = None, *, licence: str = "MIT") -> Path:
    """A package tarball laid out as the registry's are: package.json, a licence file, the list."""
    content = {
        "package/package.json": json.dumps({"name": "word-list", "version": "4.1.0", "license": licence}).encode(),
        "package/license": MIT.encode(),
        "package/index.js": b"export default 'words.txt';\n",
        "package/readme.md": b"# word-list\n",
        "package/words.txt": "\n".join(WORDS).encode(),
    }
    if files is not None:
        content = {**content, **files}
    with tarfile.open(path, "w:gz") as archive:
        for member, data in content.items():
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def built_words(path: Path) -> set[str]:
    return {EN.alphabet.format_word(w) for w in Dawg.load(path, EN.alphabet).words()}


def test_a_package_is_read_with_its_identity_and_its_licence_file(tmp_path: Path) -> None:
    package = read_npm_list(make_package(tmp_path / "p.tgz", licence="ISC"))
    assert (package.name, package.version, package.licence, package.file) == ("word-list", "4.1.0", "ISC", "words.txt")
    assert (package.licence_file, package.licence_first_line) == ("license", "MIT License")
    assert package.words.words == tuple(WORDS)
    assert "package.json: ISC; license: 'MIT License'" in package.text() and "13 lines" in package.text()


def test_the_list_file_must_be_found_or_named(tmp_path: Path) -> None:
    two = make_package(tmp_path / "two.tgz", {"package/extra.txt": b"dog\n"})
    with pytest.raises(NpmError, match=r"two\.tgz: cannot tell which file is the word list .*extra\.txt.*--npm-file"):
        read_npm_list(two)
    assert read_npm_list(two, "extra.txt").words.words == ("dog",)
    with pytest.raises(NpmError, match=r"no file 'nope\.txt' in the package; it has: extra\.txt, index\.js"):
        read_npm_list(two, "nope.txt")
    none = tmp_path / "none.tgz"
    with tarfile.open(none, "w:gz") as archive:
        info = tarfile.TarInfo("package/index.js")
        archive.addfile(info, io.BytesIO(b""))
    with pytest.raises(NpmError, match=r"none\.tgz: not an npm package: no package/package.json"):
        read_npm_list(none)
    (tmp_path / "not.tgz").write_bytes(b"not a tarball")
    with pytest.raises(NpmError, match=r"not\.tgz: cannot read the package"):
        read_npm_list(tmp_path / "not.tgz")


@pytest.mark.parametrize("spec", ["", "@", "word-list@", "word list", "@/x"])
def test_a_bad_package_spec_is_named(spec: str) -> None:
    with pytest.raises(NpmError, match="not an npm package NAME"):
        split_spec(spec)


def test_dict_build_from_a_downloaded_package_keeps_the_no_vowel_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "en.dawg"
    tarball = make_package(tmp_path / "w.tgz")
    assert cli(["dict", "build", "en", "--npm", "x", "--npm-package", str(tarball), "-o", str(out), "-q"]) == 0
    # a lower-case list: names and unit symbols go, the English words without a vowel stay (CH was lost before)
    assert built_words(out) == {"AA", "CH", "QI", "ZA", "CWTCH", "GRRL", "TWP", "ZZZS", "CAT", "CATS", "NTH"}
    report = capsys.readouterr().out
    assert "word-list@4.1.0/words.txt" in report and "abbreviation: unit symbol (for example KM)" in report


def _fake_npm(directory: Path, body: str) -> Path:
    directory.mkdir()
    script = directory / "npm"
    script.write_text(f"#!{sys.executable}\nimport sys, shutil, pathlib, os\nargs = sys.argv[1:]\n{body}\n")
    script.chmod(0o755)
    return script


def _registry_npm(tmp_path: Path, tarball: Path) -> Path:
    calls = tmp_path / "calls.txt"
    _fake_npm(
        tmp_path / "bin",
        f"pathlib.Path({str(calls)!r}).write_text(' '.join(args))\n"
        "dest = pathlib.Path(args[args.index('--pack-destination') + 1])\n"
        f"shutil.copy({str(tarball)!r}, dest / 'word-list-4.1.0.tgz')\n"
        "print('word-list-4.1.0.tgz')",
    )
    return calls


def test_dict_build_fetches_a_named_package_with_npm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = _registry_npm(tmp_path, make_package(tmp_path / "registry.tgz"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    out = tmp_path / "en.dawg"
    assert cli(["dict", "build", "en", "--npm", "word-list@4.1.0", "-o", str(out)]) == 0
    assert calls.read_text().startswith("pack word-list@4.1.0 --pack-destination ")
    assert "QI" in built_words(out) and "AARDVARK" not in built_words(out)
    err = capsys.readouterr().err
    assert "fetching word-list@4.1.0 with npm" in err and "license: 'MIT License'" in err


def test_dict_build_npm_without_a_name_takes_the_rulesets_package_and_merges_enable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _registry_npm(tmp_path, make_package(tmp_path / "registry.tgz"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    out = tmp_path / "en.dawg"
    assert cli(["dict", "build", "en", "--npm", "-o", str(out), "-q"]) == 0
    assert calls.read_text().startswith("pack word-list@4.1.0 --pack-destination ")
    words = built_words(out)
    assert {"QI", "CH", "AARDVARK", "ZYZZYVA"} <= words  # the package's words and ENABLE's


def test_without_npm_the_message_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    out = tmp_path / "en.dawg"
    assert cli(["dict", "build", "en", "--npm", "word-list@4.1.0", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "npm is not installed, and it fetches word-list@4.1.0 from the npm registry" in err
    assert "--npm-package FILE" in err and not out.exists()


def test_an_unreachable_registry_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    npm = _fake_npm(
        tmp_path / "bin",
        "sys.stderr.write('npm error code ENOTFOUND\\n')\n"
        "sys.stderr.write('npm error network request to https://registry.example/ failed\\n')\n"
        "sys.exit(1)",
    )
    with pytest.raises(NpmError) as caught:
        fetch("word-list", "4.1.0", tmp_path / "dest", npm=str(npm))
    message = str(caught.value)
    assert message.startswith("npm could not fetch word-list@4.1.0 from the npm registry")
    assert "ENOTFOUND" in message and "--npm-package FILE" in message
    assert cli(["dict", "build", "nb", "--npm"]) == 1  # no package known for bokmål
    assert "no npm word-list package is known for nb; name one: --npm NAME[@VERSION]" in capsys.readouterr().err
