"""The engine's stable names: each reaches the object its own module defines."""

from __future__ import annotations

import importlib

import pytest

import engine


@pytest.mark.parametrize("name", sorted(engine.FACADE))
def test_each_name_is_its_modules_object(name: str) -> None:
    assert getattr(engine, name) is getattr(importlib.import_module(engine.FACADE[name]), name)


def test_the_names_are_all_listed() -> None:
    assert sorted(engine.__all__) == sorted(engine.FACADE)


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="'nothing_here'"):
        engine.nothing_here  # noqa: B018
