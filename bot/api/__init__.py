"""The Wordfeud HTTP API: one hardened HTTP exchange, a client with one method per endpoint, pydantic models of
the payloads, and what a turn sends.

Uses ``bot.errors`` and the standard library; nothing of the engine.
"""
