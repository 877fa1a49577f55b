"""The bot's configuration: the TOML file, the secrets from the environment or a secrets file, and what ``check-
config`` prints.

Uses ``bot.api`` and ``engine`` (to check strategy names and lexicons).
"""
