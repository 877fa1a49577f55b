"""An extension built from other C sources than the checkout holds is not used (engine/sourcedigest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import native
from engine.errors import EngineError
from engine.sourcedigest import SOURCES, source_digest

needs_native = pytest.mark.skipif(native.NATIVE is None, reason=f"the C extension is not in use: {native.describe()}")


@needs_native
def test_the_built_extension_carries_the_digest_of_these_sources() -> None:
    assert native.NATIVE is not None
    assert native.NATIVE.SOURCE_DIGEST == source_digest() is not None


def test_the_digest_follows_every_byte_and_name_of_the_sources(tmp_path: Path) -> None:
    for path in SOURCES.rglob("*.[ch]"):
        copy = tmp_path / path.relative_to(SOURCES)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(path.read_bytes())
    (tmp_path / "notes.txt").write_text("not a source")
    assert source_digest(tmp_path) == source_digest()
    first = sorted(tmp_path.rglob("*.c"))[0]
    first.write_bytes(first.read_bytes() + b" ")
    assert source_digest(tmp_path) != source_digest()
    first.rename(tmp_path / ("z" + first.name))
    assert source_digest(tmp_path) not in {source_digest(), None}


@needs_native
def test_a_stale_extension_falls_back_to_python_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "source_digest", lambda: "0" * 16)
    monkeypatch.delenv(native.VARIABLE, raising=False)
    module, why = native._load()
    assert module is None
    assert "built from other sources" in why and "0" * 16 in why and "pip install -e ." in why


@needs_native
def test_a_stale_extension_is_an_error_when_native_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "source_digest", lambda: "0" * 16)
    monkeypatch.setenv(native.VARIABLE, "native")
    with pytest.raises(EngineError, match="built from other sources"):
        native._load()


@needs_native
def test_without_sources_beside_it_the_extension_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "source_digest", lambda: None)
    monkeypatch.delenv(native.VARIABLE, raising=False)
    module, _ = native._load()
    assert module is native.NATIVE
