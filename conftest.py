"""Collection for the whole repository: the module of an optional extra that is not installed is not imported
for its doctests (``--doctest-modules`` would fail on it); the tests of the extra say they are skipped, and why."""

from __future__ import annotations

import importlib.util

collect_ignore = [] if importlib.util.find_spec("distributed") else ["offline/runs/cluster.py"]
