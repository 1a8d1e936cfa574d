"""Clock arithmetic with fixed moments: per-move and ICCF banks, vacations, alarms."""

from datetime import datetime, timedelta, timezone

import pytest

from chalicelib import timecontrol as tc
from chalicelib import vacation as vac

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
DAY = timedelta(days=1)


def started(control, seat=1, at=T0, vacations=()):
    return tc.start_turn(tc.new_clock(control, [1, 2]), seat, at, list(vacations))


def test_per_move_deadline_is_n_days_after_the_turn_began():
    clock = started({"per_move_days": 3})
    assert tc.deadline(clock) == T0 + 3 * DAY
    assert tc.time_left(clock, 1, T0 + DAY) == 2 * 86400
    assert tc.time_left(clock, 2, T0 + DAY) == 3 * 86400


def test_per_move_clock_resets_each_move():
    clock = started({"per_move_days": 3})
    clock = tc.pass_turn(clock, T0 + 2 * DAY, 2, [])
    clock = tc.pass_turn(clock, T0 + 2 * DAY + timedelta(hours=5), 1, [])
    assert tc.time_left(clock, 1, T0 + 2 * DAY + timedelta(hours=5)) == 3 * 86400
    assert tc.deadline(clock) == T0 + 5 * DAY + timedelta(hours=5)
    assert clock["moves"] == {"1": 1, "2": 1}


def test_same_seat_still_to_move_keeps_its_running_clock():
    clock = started({"per_move_days": 3})
    later = tc.pass_turn(clock, T0 + DAY, 1, [])
    assert later == clock
    assert tc.deadline(later) == T0 + 3 * DAY


def test_iccf_bank_takes_the_time_used_and_carries_unused_time_forward():
    clock = started({"moves": 2, "days": 10})
    clock = tc.pass_turn(clock, T0 + 3 * DAY, 2, [])          # seat 1 used 3 days: 7 left
    assert clock["banks"]["1"] == 7 * 86400
    clock = tc.pass_turn(clock, T0 + 4 * DAY, 1, [])          # seat 2 used 1 day: 9 left
    assert clock["banks"]["2"] == 9 * 86400
    assert tc.deadline(clock) == T0 + 4 * DAY + 7 * DAY
    clock = tc.pass_turn(clock, T0 + 5 * DAY, 2, [])          # seat 1's 2nd move: 7 - 1 + 10
    assert clock["banks"]["1"] == 16 * 86400
    assert clock["moves"]["1"] == 2


def test_iccf_bank_with_one_move_per_period_adds_days_every_move():
    clock = started({"moves": 1, "days": 2})
    clock = tc.pass_turn(clock, T0 + timedelta(hours=12), 2, [])
    assert clock["banks"]["1"] == (2 * 86400 - 12 * 3600) + 2 * 86400


def test_vacation_pauses_the_running_clock():
    holiday = (T0 + DAY, T0 + 3 * DAY)
    clock = started({"per_move_days": 3}, vacations=[holiday])
    assert tc.deadline(clock) == T0 + 5 * DAY
    assert tc.used(clock, T0 + 2 * DAY) == 86400          # the 2nd day is vacation
    assert tc.time_left(clock, 1, T0 + 4 * DAY) == 86400


def test_vacation_that_began_before_the_turn_counts_only_from_the_turn():
    clock = started({"per_move_days": 2}, vacations=[(T0 - 5 * DAY, T0 + DAY)])
    assert tc.deadline(clock) == T0 + 3 * DAY


def test_overlapping_vacations_are_not_counted_twice():
    assert tc.paused_seconds([(T0, T0 + 2 * DAY), (T0 + DAY, T0 + 3 * DAY)], T0, T0 + 10 * DAY) == 3 * 86400


def test_past_vacations_do_not_pause_a_new_turn():
    clock = started({"per_move_days": 1}, vacations=[(T0 - 3 * DAY, T0 - DAY)])
    assert clock["running"]["paused"] == []


def test_iccf_bank_is_not_charged_for_vacation():
    clock = started({"moves": 10, "days": 10}, vacations=[(T0, T0 + 2 * DAY)])
    clock = tc.pass_turn(clock, T0 + 3 * DAY, 2, [])
    assert clock["banks"]["1"] == 9 * 86400


def test_reminders_at_80_percent_and_24_hours_before_the_deadline():
    clock = started({"per_move_days": 5})
    assert [(a.kind, a.at) for a in tc.alarms(clock)] == [
        ("reminder_80", T0 + 4 * DAY), ("timeout", T0 + 5 * DAY)]  # 80 % of 5 days = 4 days = 24 h before
    clock = started({"per_move_days": 10})
    assert [(a.kind, a.at) for a in tc.alarms(clock)] == [
        ("reminder_80", T0 + 8 * DAY), ("reminder_24h", T0 + 9 * DAY), ("timeout", T0 + 10 * DAY)]


def test_a_reminder_due_when_the_turn_begins_is_not_sent():
    clock = started({"per_move_days": 1})
    assert [a.kind for a in tc.alarms(clock)] == ["reminder_80", "timeout"]


def test_reminders_move_with_a_vacation():
    clock = started({"per_move_days": 10}, vacations=[(T0 + DAY, T0 + 3 * DAY)])
    assert tc.alarms(clock)[0].at == T0 + 10 * DAY


def test_next_alarm_skips_past_reminders_but_keeps_the_timeout():
    clock = started({"per_move_days": 10})
    assert tc.next_alarm(clock).kind == "reminder_80"
    assert tc.next_alarm(clock, T0 + 8 * DAY).kind == "reminder_24h"
    assert tc.next_alarm(clock, T0 + 20 * DAY).kind == "timeout"


def test_expired_only_at_the_deadline():
    clock = started({"per_move_days": 2})
    assert not tc.expired(clock, T0 + 2 * DAY - timedelta(seconds=1))
    assert tc.expired(clock, T0 + 2 * DAY)


def test_stopped_clock_has_no_deadline_nor_alarms():
    clock = tc.pass_turn(started({"per_move_days": 2}), T0 + DAY, None, [])
    assert tc.deadline(clock) is None and tc.alarms(clock) == []
    assert clock["moves"]["1"] == 1


def test_seat_clocks_show_time_left_and_the_running_deadline():
    clock = started({"per_move_days": 3}, seat=2)
    shown = tc.seat_clocks(clock, [1, 2], T0 + DAY)
    assert shown[0] == {"seat": 1, "time_left_seconds": 3 * 86400, "moves": 0, "running": False,
                        "deadline": None, "paused": False}
    assert shown[1]["time_left_seconds"] == 2 * 86400
    assert shown[1]["deadline"] == "2026-03-04T12:00:00.000Z"


def test_with_vacations_re_reads_the_running_players_vacations():
    clock = started({"per_move_days": 3})
    moved = tc.with_vacations(clock, [(T0 + DAY, T0 + 2 * DAY)], T0 + DAY / 2)
    assert tc.deadline(moved) == T0 + 4 * DAY


# ---------------------------------------------------------------- vacation days

def test_vacation_days_default_to_14_a_year():
    assert vac.status(None, T0) == {"days_per_year": 14, "days_left": 14, "on_vacation": False, "until": None}


def test_taking_vacation_uses_days_and_pauses_from_now():
    record = vac.take(None, T0, 5)
    assert vac.status(record, T0 + DAY) == {"days_per_year": 14, "days_left": 9, "on_vacation": True,
                                            "until": "2026-03-06T12:00:00.000Z"}
    assert vac.intervals(record) == [(T0, T0 + 5 * DAY)]


def test_vacation_days_cannot_exceed_the_years_allowance():
    record = vac.take(None, T0, 10)
    with pytest.raises(vac.VacationRefused) as refused:
        vac.take(record, T0 + 11 * DAY, 5)
    assert refused.value.code == "vacation_days_exhausted"


def test_vacation_allowance_renews_each_calendar_year():
    record = vac.take(None, T0, 14)
    assert vac.status(record, datetime(2027, 1, 2, tzinfo=timezone.utc))["days_left"] == 14


def test_ending_vacation_early_gives_back_the_whole_days_not_begun():
    record = vac.take(None, T0, 5)
    record = vac.end(record, T0 + DAY + timedelta(hours=1))
    assert vac.status(record, T0 + 2 * DAY)["days_left"] == 14 - 2
    assert vac.intervals(record) == [(T0, T0 + DAY + timedelta(hours=1))]


def test_one_vacation_at_a_time():
    record = vac.take(None, T0, 2)
    with pytest.raises(vac.VacationRefused) as refused:
        vac.take(record, T0 + DAY, 1)
    assert refused.value.code == "already_on_vacation"
    with pytest.raises(vac.VacationRefused):
        vac.end(None, T0)
