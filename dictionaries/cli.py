"""The ``dict`` commands: ``build`` a lexicon from a word list, ``list`` what each ruleset has."""

from __future__ import annotations

import argparse

from dictionaries.build import add_arguments, run_build
from dictionaries.registry import LexiconRegistry, user_lexicon_dir
from dictionaries.sources import source_for
from engine.rules.ruleset import Ruleset


def add_dict_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dict build`` and ``dict list`` to a command line's subcommands."""
    dict_parser = commands.add_parser(
        "dict",
        help="build and list the lexicons (word lists) of the rulesets",
        description="Build a lexicon from any word list, or see which ruleset has one and how to build the others.",
    )
    add_build_and_list(dict_parser.add_subparsers(dest="dict_command", required=True, metavar="COMMAND"))


def add_build_and_list(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``build`` and ``list`` commands to these subcommands."""
    build = sub.add_parser(
        "build",
        help="compile a word list into a ruleset's lexicon",
        description=(
            "Compile a word list into the lexicon of a ruleset. Words are upper-cased, accents are folded where "
            "the language plays them as plain letters, Spanish CH/LL/RR become single tiles, and only words of "
            f"2-15 tiles of the ruleset's alphabet are kept; a report counts what was dropped and why. The lexicon "
            f"goes to {user_lexicon_dir()} unless --output says otherwise, where the bot finds it."
        ),
    )
    add_arguments(build)
    build.set_defaults(handler=run_build)
    listing = sub.add_parser(
        "list",
        help="show each ruleset's lexicon, or the command that builds it",
        description="For each of the 13 rulesets: the lexicon the bot would load (loaded, to see that it is readable), "
        "or the command that builds one. Exits 1 when a lexicon file is there but unreadable.",
    )
    listing.set_defaults(handler=run_list)


def run_list(args: argparse.Namespace) -> int:
    """``dict list``: one block per ruleset; exit 0 even when some are missing, 1 when one found is unreadable."""
    registry = LexiconRegistry()
    print(f"user lexicon directory: {user_lexicon_dir()}")
    unreadable = 0
    for ruleset in Ruleset.all():
        source = source_for(ruleset.id)
        usable, text = registry.check(ruleset.id)
        print(f"\n{ruleset.id:>2} {ruleset.code:<9} {ruleset.name}")
        print(f"   {text}")
        unreadable += not usable and text.startswith("unreadable")
        if source.better:
            print(f"   better list: {source.better}")
    return 1 if unreadable else 0


def main(argv: list[str] | None = None) -> int:
    """``python -m dictionaries build|list``: the same as ``wordfeud-bot dict build|list``."""
    parser = argparse.ArgumentParser(prog="python -m dictionaries", description=__doc__)
    add_build_and_list(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args(argv)
    code: int = args.handler(args)
    return code
