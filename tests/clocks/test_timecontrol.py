"""Clock arithmetic with fixed moments: per-move and ICCF banks, vacations, alarms."""

from datetime import datetime, timedelta, timezone

import pytest

from chalicelib.clocks import timecontrol as tc
from chalicelib.clocks import vacation as vac

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
                        "deadline": None, "paused": False, "paused_by": None}
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


# ---------------------------------------------------------------- Fischer increment (issue 22)

def test_fischer_adds_the_increment_after_charging_the_turn_and_caps_the_bank():
    clock = started({"initial_days": 3, "increment_days": 2, "max_days": 5})
    assert tc.deadline(clock) == T0 + 3 * DAY
    clock = tc.pass_turn(clock, T0 + DAY, 2, [])          # 3 - 1 + 2 = 4 days
    assert clock["banks"]["1"] == 4 * 86400
    clock = tc.pass_turn(clock, T0 + 2 * DAY, 1, [])      # Bob: 3 - 1 + 2 = 4
    clock = tc.pass_turn(clock, T0 + 2 * DAY + DAY / 2, 2, [])  # Ann: 4 - 0.5 + 2 = 5.5, capped at 5
    assert clock["banks"] == {"1": 5 * 86400, "2": 4 * 86400}
    assert tc.deadline(clock) == T0 + 2.5 * DAY + 4 * DAY


def test_fischer_times_out_when_the_bank_is_empty():
    clock = started({"initial_days": 2, "increment_days": 1, "max_days": 10})
    assert not tc.expired(clock, T0 + 2 * DAY - timedelta(seconds=1)) and tc.expired(clock, T0 + 2 * DAY)


@pytest.mark.parametrize("control", [
    {"initial_days": 6, "increment_days": 1, "max_days": 5},     # starts above its maximum
    {"initial_days": 3, "increment_days": 6, "max_days": 5},     # one move would overflow it
    {"initial_days": 0, "increment_days": 1, "max_days": 5},
    {"initial_days": 3, "increment_days": 0, "max_days": 5},
    {"initial_days": 3, "increment_days": 1, "max_days": 366},
    {"initial_days": 3, "increment_days": 1},
    {"initial_days": 3, "increment_days": 1, "max_days": 5, "moves": 2},
    {"initial_days": "3", "increment_days": 1, "max_days": 5},
    {"per_move_days": 3, "weekend_pause": "yes"},
])
def test_bad_fischer_and_policy_fields_are_refused(control):
    from pydantic import TypeAdapter, ValidationError
    with pytest.raises(ValidationError):
        TypeAdapter(tc.TimeControl).validate_python(control)


def test_a_control_keeps_only_the_policy_fields_it_was_given():
    from pydantic import TypeAdapter
    adapter = TypeAdapter(tc.TimeControl)
    assert tc.stored_control(adapter.validate_python({"per_move_days": 3})) == {"per_move_days": 3}
    assert tc.stored_control(adapter.validate_python({"moves": 10, "days": 30, "weekend_pause": True})) == {
        "moves": 10, "days": 30, "weekend_pause": True}


# ---------------------------------------------------------------- the reminder policy (issue 22)

def test_reminder_schedule_is_derived_from_the_time_control():
    kinds = {name: [r.kind for r in tc.schedule(control)] for name, control in {
        "short": {"per_move_days": 10}, "month": {"per_move_days": 30}, "long": {"per_move_days": 60},
        "bank": {"moves": 10, "days": 7}, "fischer": {"initial_days": 5, "increment_days": 2, "max_days": 20}}.items()}
    assert kinds == {"short": ["reminder_80", "reminder_24h"],
                     "month": ["reminder_14d", "reminder_28d", "reminder_80", "reminder_24h"],
                     "long": ["reminder_14d", "reminder_28d", "reminder_35d", "reminder_80", "reminder_24h"],
                     "bank": ["reminder_14d", "reminder_28d", "reminder_35d", "reminder_80", "reminder_24h"],
                     "fischer": ["reminder_14d", "reminder_80", "reminder_24h"]}
    assert tc.policy({"per_move_days": 10, "vacations_allowed": False}) == {
        "time_control": {"per_move_days": 10}, "vacations_allowed": False, "weekend_pause": False,
        "reminders": [{"kind": "reminder_80", "days_without_move": None, "percent_used": 80, "hours_left": None},
                      {"kind": "reminder_24h", "days_without_move": None, "percent_used": None, "hours_left": 24}]}


def test_long_turns_escalate_like_iccf_after_14_28_and_35_days_without_a_move():
    clock = started({"per_move_days": 40})
    assert [(a.kind, (a.at - T0).days) for a in tc.alarms(clock)] == [
        ("reminder_14d", 14), ("reminder_28d", 28), ("reminder_80", 32), ("reminder_35d", 35),
        ("reminder_24h", 39), ("timeout", 40)]


def test_a_bank_too_small_for_the_long_reminders_gets_only_those_that_fit():
    clock = started({"moves": 10, "days": 20})
    assert [a.kind for a in tc.alarms(clock)] == ["reminder_14d", "reminder_80", "reminder_24h", "timeout"]


def test_a_moved_deadline_has_its_own_reminders_once_the_clock_runs_again():
    clock = started({"per_move_days": 3})
    before = tc.reminder_mark(clock, "reminder_80")
    away = [(T0 + 2.5 * DAY, T0 + 7.5 * DAY)]
    moved = tc.with_vacations(clock, away, T0 + 2.5 * DAY)
    assert moved["running"]["moved"] == "2026-03-04T00:00:00.000Z"
    assert tc.reminder_mark(moved, "reminder_80") != before
    assert tc.due_reminder(moved, T0 + 7 * DAY) is None  # on vacation: nothing yet
    assert tc.next_alarm(moved).at == T0 + 7.5 * DAY
    assert tc.due_reminder(moved, T0 + 7.5 * DAY + timedelta(hours=1)).kind == "reminder_80"
    assert tc.with_vacations(moved, away, T0 + 3 * DAY) == moved  # the same vacations: the same deadline


def test_vacations_do_not_pause_a_control_that_does_not_allow_them():
    away = [(T0 + DAY, T0 + 3 * DAY)]
    clock = started({"per_move_days": 3, "vacations_allowed": False}, vacations=away)
    assert clock["running"]["paused"] == [] and tc.deadline(clock) == T0 + 3 * DAY
    assert tc.deadline(tc.with_vacations(clock, away, T0 + DAY)) == T0 + 3 * DAY


# ---------------------------------------------------------------- the weekend pause (issue 22)

PARIS_WED = datetime(2026, 3, 25, 12, 0, tzinfo=timezone.utc)  # Paris goes to summer time on Sunday 29 March


def paris(control, vacations=()):
    clock = tc.new_clock({**control, "weekend_pause": True}, [1, 2])
    return tc.start_turn(clock, 1, PARIS_WED, list(vacations), "Europe/Paris")


def test_weekend_pause_follows_the_players_midnight_across_a_dst_change():
    weekends = tc.weekends("Europe/Paris", PARIS_WED)
    first, second = next(weekends), next(weekends)
    assert first == (datetime(2026, 3, 27, 23, tzinfo=timezone.utc), datetime(2026, 3, 29, 22, tzinfo=timezone.utc))
    assert second == (datetime(2026, 4, 3, 22, tzinfo=timezone.utc), datetime(2026, 4, 5, 22, tzinfo=timezone.utc))
    clock = paris({"per_move_days": 10})
    # 59 h to Friday midnight, 120 h Monday to Friday, then the last 61 h: 47 h + 48 h of weekends paused
    assert tc.deadline(clock) == datetime(2026, 4, 8, 11, tzinfo=timezone.utc)
    saturday = datetime(2026, 3, 28, 12, tzinfo=timezone.utc)
    assert tc.time_left(clock, 1, saturday) == 181 * 3600
    assert tc.seat_clocks(clock, [1, 2], saturday)[0]["paused"]
    assert not tc.seat_clocks(clock, [1, 2], datetime(2026, 3, 30, 8, tzinfo=timezone.utc))[0]["paused"]


def test_weekend_pause_reminders_deadline_and_time_left_agree_over_several_weekends():
    clock = paris({"moves": 10, "days": 30})
    end = tc.deadline(clock)
    assert tc.time_left(clock, 1, end) == 0 and tc.expired(clock, end)
    assert tc.time_left(clock, 1, end - timedelta(seconds=1)) == 1
    assert (end - PARIS_WED).days == 41  # 30 days of clock over six weekends
    for alarm in tc.alarms(clock)[:-1]:
        reminder = next(r for r in tc.REMINDERS if r.kind == alarm.kind)
        assert tc.used(clock, alarm.at) == reminder.threshold(30 * 86400), alarm.kind
        assert tc.resumed(clock, alarm.at) == alarm.at  # never due in a weekend
    assert [a.kind for a in tc.alarms(clock)] == ["reminder_14d", "reminder_80", "reminder_28d", "reminder_24h",
                                                  "timeout"]


def test_a_vacation_over_a_weekend_is_not_paused_twice():
    away = [(datetime(2026, 3, 27, tzinfo=timezone.utc), datetime(2026, 3, 31, tzinfo=timezone.utc))]
    clock = paris({"per_move_days": 10}, vacations=away)
    # paused: Fri 00:00 UTC to Tue 00:00 UTC (96 h, the weekend inside it), then the next weekend (48 h)
    assert tc.deadline(clock) == PARIS_WED + timedelta(hours=240 + 96 + 48)


def test_without_a_time_zone_the_weekend_is_utcs():
    clock = tc.start_turn(tc.new_clock({"per_move_days": 1, "weekend_pause": True}, [1, 2]), 1,
                          datetime(2026, 3, 27, 12, tzinfo=timezone.utc), [])
    assert clock["running"]["zone"] == "UTC"
    assert tc.deadline(clock) == datetime(2026, 3, 30, 12, tzinfo=timezone.utc)


@pytest.mark.parametrize("zone, valid", [("Europe/Paris", True), ("America/Argentina/Buenos_Aires", True), ("UTC", True),
                                         ("Etc/GMT+5", True), ("posix/Europe/Paris", False), ("Europe", False),
                                         ("Europe/../Europe/Paris", False), ("EST", False), (" Europe/Paris", False)])
def test_a_time_zone_is_an_iana_area_and_location(zone, valid):
    assert tc.valid_zone(zone) is valid


def test_a_stored_zone_this_runtime_does_not_know_counts_as_utc():
    clock = tc.start_turn(tc.new_clock({"per_move_days": 1, "weekend_pause": True}, [1, 2]), 1,
                          datetime(2026, 3, 27, 12, tzinfo=timezone.utc), [], "Atlantis/Capital")
    assert tc.deadline(clock) == datetime(2026, 3, 30, 12, tzinfo=timezone.utc)
