"""Playing the account: one game's turn, one pass over the account, the daemon, the translation between API games
and engine objects, chat and strength levels.

Uses ``bot.api``, ``bot.settings``, ``bot.store``, ``engine`` and ``dictionaries``.
"""
