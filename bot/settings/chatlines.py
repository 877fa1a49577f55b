"""What a configured chat line may say: the events that have a line and the fields a line may use."""

from __future__ import annotations

from string import Formatter

#: The fields a chat line may use.
FIELDS = ("opponent", "my_score", "their_score")
EVENTS = ("greeting", "won", "lost", "drawn")


def check_template(text: str, key: str) -> str:
    """A configured line, if it uses only the known fields; ValueError naming the key otherwise."""
    for _, name, _, _ in Formatter().parse(text):
        if name is not None and name not in FIELDS:
            known = ", ".join("{" + field + "}" for field in FIELDS)
            raise ValueError(f"{key}: unknown field {{{name}}}; a line may use {known}")
    return text


__all__ = ["EVENTS", "FIELDS", "check_template"]
