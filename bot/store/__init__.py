"""The bot's state in SQLite: sessions, games, decisions, people, and the words the server accepted or refused.

Uses ``bot.api``, ``engine`` and ``dictionaries``.
"""
