"""The GCG record of every finished game, written when the bot sees the game end (``[records] gcg_dir``),
as lichess-bot writes its PGNs.

``<gcg_dir>/<game id>.gcg`` is written whole (``engine.wholefile.write_whole``: a crash leaves no half
file), once, when the pass that reads the game sees it over. A record that cannot be made (the bot joined
the game after its first move) or written is one log line naming the file; the pass goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from bot.errors import BotError, ConfigError
from bot.records.gcg import write_gcg
from bot.records.gcg_game import record_to_gcg
from bot.records.history import record
from bot.store.store import Store
from engine.errors import EngineError
from engine.wholefile import write_whole

log = logging.getLogger(__name__)


class GcgArchive:
    """Writes a finished game's record to ``directory``/<game id>.gcg; the ``game_over`` hook of the bot."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    @classmethod
    def opened(cls, directory: Path) -> GcgArchive:
        """The archive of ``directory``, created if missing; ConfigError naming it when it cannot be."""
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"records.gcg_dir {directory}: {exc.strerror or exc}") from None
        if not directory.is_dir():
            raise ConfigError(f"records.gcg_dir {directory}: not a directory")
        return cls(directory)

    def path(self, game_id: int) -> Path:
        return self.directory / f"{game_id}.gcg"

    def __call__(self, store: Store, game_id: int) -> None:
        path = self.path(game_id)
        try:
            write_whole(path, write_gcg(record_to_gcg(record(store, game_id))))
        except OSError as exc:
            log.warning("game %d: the GCG record %s is not written: %s", game_id, path, exc.strerror or exc)
        except (LookupError, BotError, EngineError) as exc:
            log.warning("game %d: the GCG record %s is not written: %s", game_id, path, exc)
        else:
            log.info("game %d: wrote the GCG record %s", game_id, path)


def game_over_hook(directory: Path | None) -> Callable[[Store, int], None] | None:
    """The hook that writes finished games to ``directory`` (None: off, no hook)."""
    return None if directory is None else GcgArchive.opened(directory)


__all__ = ["GcgArchive", "game_over_hook"]
