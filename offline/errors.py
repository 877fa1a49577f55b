"""Errors the offline tools raise on purpose (the command line prints them in one line)."""


class OfflineError(Exception):
    """Base of every error an offline tool raises on purpose."""


class WorkDirError(OfflineError):
    """A work directory of an offline run (arena, learn-leaves) made with other settings, or unreadable."""


class LearnError(WorkDirError):
    """A leave-learning run that cannot go on: a work directory made with other settings, or unreadable samples."""


class ClusterError(OfflineError):
    """Chunks could not run on a Dask cluster: no extra installed, a bad or unreachable scheduler address,
    no workers, a worker that differs from the caller (code, lexicon, table files) or a chunk that failed there.
    The message names the address or the worker."""


class CheckoutError(OfflineError):
    """The strategy of another checkout (``checkout:PATH:SPEC``) cannot play: PATH is no checkout with a built
    venv, the other side does not know SPEC, or its server ended, answered garbage or an illegal move. The
    message names the checkout and, for a move, the position."""


class ClairvoyanceError(OfflineError):
    """A seeing player (``see:SIGHT:SPEC``, ``offline.arena.clairvoyance``) cannot play: an unknown sight, a SPEC
    that is
    no sim, the CPU clock, a move asked without the game shown, or what it was shown does not fit the position.
    The message names the player's name or the tiles."""


class AbTimeError(OfflineError):
    """Two checkouts cannot be timed against each other (``offline.bench.abtime``): a checkout's engine does not import,
    is another checkout's or runs without its C extension, or a benchmark run failed or printed no figure. The
    message names the checkout."""


__all__ = [
    "AbTimeError", "CheckoutError", "ClairvoyanceError", "ClusterError", "LearnError", "OfflineError", "WorkDirError",
]  # fmt: skip
