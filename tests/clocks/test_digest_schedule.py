"""The daily digest's schedule (chalicelib/clocks/digest.py): the next local HH:MM in a zone, day by day,
across the changes to and from summer time (pure; no clock)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from chalicelib.clocks import digest

UTC = timezone.utc


@pytest.mark.parametrize("after, expected", [
    (datetime(2026, 3, 7, 12, 0, tzinfo=UTC), datetime(2026, 3, 7, 12, 30, tzinfo=UTC)),  # 07:30 EST, Saturday 7
    (datetime(2026, 3, 7, 12, 30, tzinfo=UTC), datetime(2026, 3, 8, 11, 30, tzinfo=UTC)),  # 07:30 EDT, Sunday 8
    (datetime(2026, 3, 8, 12, 30, tzinfo=UTC), datetime(2026, 3, 9, 11, 30, tzinfo=UTC)),  # 07:30 EDT after the change
    (datetime(2026, 10, 31, 12, 0, tzinfo=UTC), datetime(2026, 11, 1, 12, 30, tzinfo=UTC)),  # EST again on Nov 1
])
def test_the_next_send_follows_the_local_time_in_new_york(after, expected):
    assert digest.next_send("07:30", "America/New_York", after) == expected


def test_the_next_send_is_strictly_after_the_moment_given():
    sent = digest.next_send("08:00", "UTC", datetime(2026, 5, 1, 7, 59, tzinfo=UTC))
    assert sent == datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
    assert digest.next_send("08:00", "UTC", sent) == datetime(2026, 5, 2, 8, 0, tzinfo=UTC)


def test_decision_a_skipped_local_time_is_read_with_the_offset_before_the_jump():
    # Sydney skips 02:00-03:00 on 4 October 2026: 02:15 is read as 02:15 AEST = 03:15 AEDT.
    sent = digest.next_send("02:15", "Australia/Sydney", datetime(2026, 10, 3, 12, 0, tzinfo=UTC))
    assert sent == datetime(2026, 10, 3, 16, 15, tzinfo=UTC)
    assert sent.astimezone(digest.ZoneInfo("Australia/Sydney")).strftime("%H:%M %Z") == "03:15 AEDT"


def test_decision_a_repeated_local_time_is_its_first_occurrence():
    # Sydney repeats 02:00-03:00 on 5 April 2026: the first 02:15 is AEDT (UTC+11).
    sent = digest.next_send("02:15", "Australia/Sydney", datetime(2026, 4, 4, 12, 0, tzinfo=UTC))
    assert sent == datetime(2026, 4, 4, 15, 15, tzinfo=UTC)
    assert digest.local_date(sent, "Australia/Sydney") == "2026-04-05"


@pytest.mark.parametrize("text, valid", [("00:00", True), ("07:45", True), ("23:30", True), ("08:10", False),
                                         ("24:00", False), ("8:00", False), ("08:00 ", False), ("０８:００", False)])
def test_a_digest_time_is_on_the_quarter_hour(text, valid):
    assert digest.valid_time(text) is valid
