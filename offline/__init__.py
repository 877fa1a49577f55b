"""Offline tools beside the engine and the bot service: self-play, the arena, leave learning and the benchmark.

They play the local engine (``engine``) with the lexicons of ``dictionaries`` and never touch the Wordfeud
API; ``bot/`` is the service alone. The ``wordfeud-bot`` command reaches them (``selfplay``, ``arena``,
``learn-leaves``) and ``python -m offline.bench`` runs the benchmark.
"""
