"""The bot measured against the sandbox: soak runs with faults, memory traces, what learned words cost and close.

Uses ``sandbox``, ``bot``, ``engine`` and ``dictionaries``.
"""
