"""What a long-lived bot remembers stays bounded: session ids scrubbed, quarantined games."""

from __future__ import annotations

from pathlib import Path

from bot.logs import SESSIONS_SCRUBBED, Redactor, Secrets
from bot.play.turn import Outcome
from tests.bot.conftest import Sandbox, Ticker


def test_only_the_newest_session_ids_are_kept_and_the_login_secrets_for_good() -> None:
    secrets = Secrets(("password-hash-0123",))
    sessions = [f"session-{n:06d}" for n in range(1_000)]  # a re-login at every expiry, for months
    for session in sessions:
        secrets.add_session(session)
        assert len(secrets) <= SESSIONS_SCRUBBED + 1
    newest = sessions[-SESSIONS_SCRUBBED:]
    text = " ".join(["password-hash-0123", *newest])
    assert secrets.scrub(text) == " ".join(["***"] * (SESSIONS_SCRUBBED + 1))
    assert secrets.scrub(sessions[0]) == sessions[0]  # long expired: no longer a secret, no longer kept


def test_a_session_seen_again_is_the_newest_again() -> None:
    secrets = Secrets()
    secrets.add_session("session-first")
    for n in range(SESSIONS_SCRUBBED - 1):
        secrets.add_session(f"session-{n:06d}")
    secrets.add_session("session-first")  # the saved session, reused
    secrets.add_session("session-newest")
    assert secrets.scrub("session-first") == "***"
    assert secrets.scrub("session-000000") == "session-000000"


def test_the_log_redactor_keeps_the_same_bound() -> None:
    redactor = Redactor()
    redactor.add("the-password")
    for n in range(500):
        redactor.add_session(f"session-{n:06d}")
    assert len(redactor.secrets) == SESSIONS_SCRUBBED + 1
    assert redactor.scrub("the-password session-000499") == "*** ***"


def test_a_quarantine_that_is_over_is_forgotten_when_another_game_is_quarantined(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    """A game whose answer was lost and that is never looked at again (it ended, or left the account)
    must not stay in the quarantine for good."""
    first, second = sandbox.game(), sandbox.game()
    ticker = Ticker()
    wiring = sandbox.wire(tmp_path / "state.db", ticker, schedule={"quarantine_seconds": 30})
    wiring.client.login()
    turns = wiring.bot.turns
    original = turns.client.move

    def dropped_move(*args, **kwargs):
        sandbox.server.faults.inject("drop")  # the connection closes before the server reads the move
        return original(*args, **kwargs)

    turns.client.move = dropped_move  # type: ignore[method-assign]
    assert turns.play(first.id).outcome == Outcome.UNKNOWN
    assert turns.quarantined == {first.id}
    ticker.now += 31  # the first game's quarantine is over, and it is not looked at again
    assert turns.play(second.id).outcome == Outcome.UNKNOWN
    assert turns.quarantined == {second.id}
