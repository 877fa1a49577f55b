"""What ``wordfeud-bot check-config`` prints about the settings that shape a run: the strategy, the
status page's address, the log file, the random games, the strength levels and the chat. ``cli.main``
prints these lines after the account (with the password variable in use, ``bot.settings.config.password_source``)
and the server."""

from __future__ import annotations

from pathlib import Path

from bot.settings.config import BotConfig, parse_listen


def status_address(listen: str | None) -> str:
    """The status page's address as ``run`` serves it, or how to switch it on."""
    if listen is None:
        return "off (set status.listen, e.g. 127.0.0.1:8765, to serve it)"
    host, port = parse_listen(listen)
    shown = f"[{host}]" if ":" in host else host
    if port == 0:
        return f"http://{shown}:<any free port>/ (run logs the port it got)"
    return f"http://{shown}:{port}/"


def settings_lines(config: BotConfig, log_file: Path | None) -> list[str]:
    """The lines about the strategy, status page, log file and random games; ``log_file``:
    ``--log-file`` when given (it wins over ``logging.file``)."""
    play = config.play
    log = log_file or config.logging.file
    logged = f"{log} (and stderr)" if log else "none: the log goes to stderr only (--log-file or logging.file)"
    randoms = config.random_games
    random_text = (
        f"keep {randoms.keep} going on rulesets {randoms.rulesets}, {randoms.board_type} board"
        if randoms.keep
        else "off (random_games.keep = 0: the bot asks for no random opponents)"
    )
    return [
        f"strategy: {play.strategy}, up to {play.seconds_per_move:g} s a move, {play.max_candidates} candidates "
        f"if the server refuses words{'; dry run: nothing is sent' if play.dry_run else ''}",
        f"status page: {status_address(config.status.listen)}",
        f"log file: {logged}, level {config.logging.level}",
        f"random games: {random_text}",
        f"level: {_levels(config)}",
        "chat: " + ("on: a greeting and a closing line in each game" if config.chat.enabled else "off (chat.enabled)"),
        "GCG records of finished games: "
        + (f"{config.records.gcg_dir}/<game id>.gcg" if config.records.gcg_dir else "off (records.gcg_dir)"),
    ]


def _levels(config: BotConfig) -> str:
    """The strength levels: the default, and where invitations, random games or opponents differ."""
    text = config.play.level + (" (play.strategy)" if config.play.level == "full" else "")
    if config.invites.level:
        text += f"; invitations {config.invites.level}"
    if config.random_games.level:
        text += f"; random games {config.random_games.level}"
    if config.invites.levels:
        text += "; " + ", ".join(f"{name} {level}" for name, level in sorted(config.invites.levels.items()))
    return text
