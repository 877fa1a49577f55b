"""Argument types shared by the project's command lines (``wordfeud-bot``, ``python -m sandbox``, the
soaks): a value argparse refuses is a usage error that names it, worded the same in every command.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``.

    >>> at_least(1)("3")
    3
    >>> at_least(1)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected a number of at least 1, got 0
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected a number of at least {low}, got {value}")
        return value

    return parse
