"""The acceptance-gap measurement: the bot on ENABLE against a sandbox that also has Collins's
two-letter words only ever plays one of them after the house has played it (it learns them)."""

from __future__ import annotations

from sandbox.lab.acceptgap import COLLINS_TWOS, measure, overlay_cost


def test_the_bot_plays_extra_words_only_after_seeing_them() -> None:
    report = measure(4, 2, COLLINS_TWOS)
    assert report.games == 4 and report.bot_moves > 20 and len(report.bot_moves_with_extra) == 4
    assert report.seen, "the house played none of the extra words in 4 games"
    assert set(report.played) <= set(report.seen)
    assert all(report.seen[word] <= game for word, game in report.played.items())
    rows = report.lines(2)
    assert rows[0].startswith("| after game |") and len(rows) == 2 + 2 + 3


def test_the_cost_report_compares_a_derived_copy_with_a_rebuild() -> None:
    lines = overlay_cost(COLLINS_TWOS, seed=1, positions=6)
    assert lines[0].startswith("words added: 31;")
    assert "derived copy (with_words + C copy):" in lines[1] and "rebuilt minimal DAWG" in lines[2]
    assert "move generation over 6 positions" in lines[3]
