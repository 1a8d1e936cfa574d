"""Correspondence clocks: pure functions on a plain, JSON-able clock (no I/O, no reading the time).

Three time controls, chosen per game with the option ``time_control``:

* ``{"per_move_days": N}`` (Lichess correspondence): every turn has N days; the clock
  resets when the turn passes to another seat.
* ``{"moves": M, "days": D}`` (ICCF): each seat starts with a bank of D days; the time a
  turn takes is taken from the bank, and every M moves the seat made add D days more.
  Unused time is carried forward.
* ``{"initial_days": D, "increment_days": I, "max_days": M}`` (Fischer): each seat starts
  with D days; each move adds I days after the turn is charged; the bank never exceeds M.

Each may also say ``"weekend_pause": true`` (a seat's clock stands still on Saturday and
Sunday in its player's time zone) and ``"vacations_allowed": false`` (its players'
vacations do not stop it); left out, they are false and true.

A *move* is a turn ending: the seat to move changes. Requests that leave the same seat
to move (a play, then a claim) are one turn. Only the seat to move has a running clock.

Paused intervals do not count as time used: the running seat's vacations (``running.paused``)
and, under a weekend pause, its weekends, computed lazily from the turn's start in the
zone ``running.zone`` (so daylight saving time moves them as it moves the player's
midnight). Alarms tell the sweeper when to act: the reminders of :data:`REMINDERS` (the
policy), then the timeout. Reminders belong to a deadline: when a vacation moves it,
``running.moved`` records when, and the new deadline's reminders are due from the first
moment its clock runs after that.

The clock::

    {"control": {...}, "banks": {"1": seconds, ...}, "moves": {"1": n, ...},
     "running": null | {"seat": 2, "since": iso, "paused": [[iso, iso], ...],
                        "zone"?: "Europe/Paris", "moved"?: iso}}
"""

import heapq
from dataclasses import dataclass
from functools import cache
# No `from __future__ import annotations` here: pydantic would compile every field's annotation from its
# string when app.py is imported, a fifth of this module's import (issue 39 item 5, a cold start).
from datetime import date, datetime, time, timedelta, timezone
from typing import Annotated, Iterable, Iterator, Union
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from ..kernel.clock import iso

DAY = 86400.0
HOUR = 3600.0
DEFAULT_ZONE = "UTC"


# ---------------------------------------------------------------- the reminder policy


@dataclass(frozen=True)
class Reminder:
    """One reminder of the policy: after ``days_without_move`` days of the turn (clock time, so
    pauses do not count), when ``percent_used`` of the turn's time is used, or ``hours_left``
    hours before the deadline."""

    kind: str
    days_without_move: int | None = None
    percent_used: int | None = None
    hours_left: int | None = None

    def threshold(self, allowance: float) -> float:
        """The seconds of the turn used when it is due."""
        if self.days_without_move is not None:
            return self.days_without_move * DAY
        if self.percent_used is not None:
            return self.percent_used / 100 * allowance
        return allowance - self.hours_left * HOUR

    def shown(self) -> dict:
        return {"kind": self.kind, "days_without_move": self.days_without_move,
                "percent_used": self.percent_used, "hours_left": self.hours_left}


# The reminder policy, in one place. Every turn gets the 80 % and the 24-hours-left reminder (each
# only if it falls after the turn began: a one-day turn gets no "24 hours left"); a long turn also
# gets ICCF's reminders after 14, 28 and 35 days without a move, each only if the turn is longer.
REMINDERS = (
    Reminder("reminder_14d", days_without_move=14),
    Reminder("reminder_28d", days_without_move=28),
    Reminder("reminder_35d", days_without_move=35),
    Reminder("reminder_80", percent_used=80),
    Reminder("reminder_24h", hours_left=24),
)
REMINDER_KINDS = tuple(r.kind for r in REMINDERS)


# ---------------------------------------------------------------- time controls


class Policy(BaseModel):
    """What every time control may add: a weekend pause, and whether vacations stop the clock."""

    # built when first used, not on import: most requests never read a time control (issue 39 item 5)
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)
    weekend_pause: bool = Field(False, description="The seat's clock stands still on Saturday and Sunday in its "
                                                   "player's time zone (the `time_zone` preference).")
    vacations_allowed: bool = Field(True, description="Its players' vacations stop the clock (false: they do not).")


class PerMove(Policy):
    """Lichess style: N days for every move; the clock resets each move."""

    per_move_days: int = Field(ge=1, le=60)


class Bank(Policy):
    """ICCF style: D days for every M moves; unused time is carried forward."""

    moves: int = Field(ge=1, le=100)
    days: int = Field(ge=1, le=365)


class Fischer(Policy):
    """Fischer increment: D days to start, I days more for each move, never more than M in the bank."""

    initial_days: int = Field(ge=1, le=365)
    increment_days: int = Field(ge=1, le=60)
    max_days: int = Field(ge=1, le=365)

    @model_validator(mode="after")
    def _fits(self) -> "Fischer":
        if self.initial_days > self.max_days:
            raise ValueError("initial_days may not exceed max_days")
        if self.increment_days > self.max_days:
            raise ValueError("increment_days may not exceed max_days")
        return self


def _kind(value: object) -> str | None:
    """Which control a value means, by its fields (so a refusal speaks of that control's fields only)."""
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if not isinstance(value, dict):
        return None
    for kind, fields in (("per_move", ("per_move_days",)), ("fischer", ("initial_days", "increment_days", "max_days")),
                         ("bank", ("moves", "days"))):
        if any(name in value for name in fields):
            return kind
    return None


def kind_of(control: object) -> str | None:
    """Which control a game's ``time_control`` is: ``per_move``, ``bank`` or ``fischer`` (None: not one)."""
    return _kind(control)


TimeControl = Annotated[
    Union[Annotated[PerMove, Tag("per_move")], Annotated[Bank, Tag("bank")], Annotated[Fischer, Tag("fischer")]],
    Discriminator(_kind, custom_error_type="time_control",
                  custom_error_message="a time control is {per_move_days}, {moves, days} or "
                                       "{initial_days, increment_days, max_days}"),
    Field(description="per_move_days; moves + days; or initial_days + increment_days + max_days")]
POLICY_FIELDS = ("weekend_pause", "vacations_allowed")

Interval = tuple[datetime, datetime]


def stored_control(control: BaseModel) -> dict:
    """A validated control as a game keeps it: its own fields, then the policy fields that differ from
    the default."""
    kept = control.model_dump(exclude_defaults=True)
    return {**core(kept), **{k: v for k, v in kept.items() if k in POLICY_FIELDS}}


def core(control: dict) -> dict:
    """The control without its policy fields."""
    return {k: v for k, v in control.items() if k not in POLICY_FIELDS}


def leaves_pause_open(control: object) -> bool:
    """A time control as given that does not say whether it pauses on weekends."""
    return isinstance(control, dict) and "weekend_pause" not in control


def with_weekend_pause(options: dict, preferred: bool) -> dict:
    """A game's options with its creator's ``weekend_pause`` preference, where its time control does not say."""
    control = options.get("time_control")
    if not preferred or not leaves_pause_open(control):
        return options
    return {**options, "time_control": {**control, "weekend_pause": True}}


def vacations_allowed(control: dict) -> bool:
    return control.get("vacations_allowed", True) is not False


def weekend_pause(control: dict) -> bool:
    return control.get("weekend_pause", False) is True


def longest_turn(control: dict) -> float | None:
    """The most time one turn can have under the control (None: no limit, an ICCF bank grows)."""
    if "per_move_days" in control:
        return control["per_move_days"] * DAY
    if "max_days" in control:
        return control["max_days"] * DAY
    return None


def schedule(control: dict) -> list[Reminder]:
    """The reminders a game under ``control`` can get: the policy's, less those no turn is long enough for."""
    longest = longest_turn(control)
    return [r for r in REMINDERS
            if r.days_without_move is None or longest is None or r.days_without_move * DAY < longest]


def policy(control: dict) -> dict:
    """The time policy as views and tournaments show it."""
    return {"time_control": core(control), "vacations_allowed": vacations_allowed(control),
            "weekend_pause": weekend_pause(control), "reminders": [r.shown() for r in schedule(control)]}


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def valid_zone(name: str) -> bool:
    """Whether ``name`` is an IANA time zone ("Area/Location", or UTC) this runtime knows (not one of
    the system's own copies such as posix/...)."""
    return ("/" in name or name == "UTC") and name in _zones()


def _zone(name: str) -> ZoneInfo:
    """The zone; UTC should a stored zone be unknown to this runtime (never a failure in a view)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return ZoneInfo(DEFAULT_ZONE)


@dataclass(frozen=True)
class Alarm:
    kind: str  # a Reminder's kind, or timeout
    at: datetime
    used: float = 0.0  # the seconds of the turn used when it is due (orders alarms at the same moment)


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


def new_clock(control: dict, seats: list[int]) -> dict:
    if "per_move_days" in control:
        days = control["per_move_days"]
    else:
        days = control["days"] if "days" in control else control["initial_days"]
    return {"control": dict(control), "banks": {str(s): days * DAY for s in seats},
            "moves": {str(s): 0 for s in seats}, "running": None}


def allowance(clock: dict, seat: int) -> float:
    """Seconds the seat has for its current (or next) turn."""
    control = clock["control"]
    if "per_move_days" in control:
        return control["per_move_days"] * DAY
    return clock["banks"][str(seat)]


# ---------------------------------------------------------------- pauses: vacations and weekends


def weekends(zone: str, start: datetime) -> Iterator[Interval]:
    """Saturday 00:00 to Monday 00:00 in ``zone``, in UTC, from the weekend ending after ``start`` on
    (endless; each midnight found in the zone, so a change to or from daylight saving time moves it)."""
    tz = _zone(zone)
    day = start.astimezone(tz).date()
    saturday: date = day - timedelta(days=(day.weekday() - 5) % 7)
    while True:
        begin = datetime.combine(saturday, time(), tzinfo=tz).astimezone(timezone.utc)
        end = datetime.combine(saturday + timedelta(days=2), time(), tzinfo=tz).astimezone(timezone.utc)
        if end > start:
            yield begin, end
        saturday += timedelta(days=7)


def pauses(running: dict, control: dict) -> Iterator[Interval]:
    """The running turn's paused intervals in order of their start (they may overlap; under a
    weekend pause, endless)."""
    vacations = sorted((parse_time(a), parse_time(b)) for a, b in running.get("paused", []))
    if not weekend_pause(control):
        return iter(vacations)
    return heapq.merge(vacations, weekends(running.get("zone") or DEFAULT_ZONE, parse_time(running["since"])))


def paused_seconds(paused: Iterable[Interval], start: datetime, end: datetime) -> float:
    """How much of [start, end) falls into the paused intervals (in order of their start; they may overlap)."""
    total, reached = 0.0, start
    for a, b in paused:
        if a >= end:
            break
        a, b = max(a, reached), min(b, end)
        if b > a:
            total += (b - a).total_seconds()
            reached = b
    return total


def resumed(clock: dict, moment: datetime) -> datetime:
    """The first moment from ``moment`` on at which the running clock runs (not paused)."""
    for a, b in pauses(clock["running"], clock["control"]):
        if a > moment:
            break
        moment = max(moment, b)
    return moment


def used(clock: dict, now: datetime) -> float:
    """Seconds the running seat has used this turn (pauses excluded)."""
    running = clock["running"]
    if running is None:
        return 0.0
    since = parse_time(running["since"])
    if now <= since:
        return 0.0
    return (now - since).total_seconds() - paused_seconds(pauses(running, clock["control"]), since, now)


def moment_when_used(clock: dict, seconds: float) -> datetime:
    """The wall-clock moment at which the running seat will have used ``seconds`` this turn."""
    running = clock["running"]
    moment = parse_time(running["since"])
    left = seconds
    for a, b in pauses(running, clock["control"]):
        if b <= moment:
            continue
        if a > moment:
            gap = (a - moment).total_seconds()
            if gap >= left:
                break
            left -= gap
        moment = max(moment, b)
    return moment + timedelta(seconds=left)


# ---------------------------------------------------------------- the turn


def deadline(clock: dict | None) -> datetime | None:
    if clock is None or clock["running"] is None:
        return None
    return moment_when_used(clock, allowance(clock, clock["running"]["seat"]))


def time_left(clock: dict, seat: int, now: datetime) -> float:
    running = clock["running"]
    spent = used(clock, now) if running is not None and running["seat"] == seat else 0.0
    return max(0.0, allowance(clock, seat) - spent)


def expired(clock: dict | None, now: datetime) -> bool:
    end = deadline(clock)
    return end is not None and now >= end


def _kept(clock: dict, vacations: list[Interval], after: datetime) -> list[list[str]]:
    """The vacations that pause a turn running after ``after`` (none if the control does not allow them)."""
    if not vacations_allowed(clock["control"]):
        return []
    return [[iso(a), iso(b)] for a, b in sorted(vacations) if b > after]


def start_turn(clock: dict, seat: int, now: datetime, vacations: list[Interval], zone: str | None = None) -> dict:
    """The seat's clock starts now; its player's vacations still to come will pause it (and, under a
    weekend pause, its weekends in ``zone``, the player's time zone)."""
    running = {"seat": seat, "since": iso(now), "paused": _kept(clock, vacations, now)}
    if weekend_pause(clock["control"]):
        running["zone"] = zone or DEFAULT_ZONE
    return {**clock, "running": running}


def end_turn(clock: dict, now: datetime) -> dict:
    """Charge the running seat for its turn, count its move (ICCF: every M moves add D days; Fischer:
    each move adds I days, up to M)."""
    running = clock["running"]
    if running is None:
        return clock
    key = str(running["seat"])
    banks, moves = dict(clock["banks"]), dict(clock["moves"])
    moves[key] += 1
    control = clock["control"]
    if "per_move_days" not in control:
        banks[key] = max(0.0, banks[key] - used(clock, now))
        if "moves" in control:
            if moves[key] % control["moves"] == 0:
                banks[key] += control["days"] * DAY
        else:
            banks[key] = min(banks[key] + control["increment_days"] * DAY, control["max_days"] * DAY)
    return {**clock, "banks": banks, "moves": moves, "running": None}


def pass_turn(clock: dict, now: datetime, to_move: int | None, vacations: list[Interval],
              zone: str | None = None) -> dict:
    """After an accepted action: the same seat's turn goes on, or the clock passes to ``to_move``
    (None: the game is over or waits, and no clock runs)."""
    running = clock["running"]
    if running is not None and running["seat"] == to_move:
        return clock
    stopped = end_turn(clock, now)
    return start_turn(stopped, to_move, now, vacations, zone) if to_move is not None else stopped


def with_vacations(clock: dict, vacations: list[Interval], now: datetime) -> dict:
    """The running turn re-read with its player's vacations as they are now. If that moves the
    deadline, the turn notes when (``moved``): the new deadline gets its own reminders."""
    running = clock["running"]
    if running is None:
        return clock
    since = parse_time(running["since"])
    changed = {**clock, "running": {**running, "paused": _kept(clock, vacations, since)}}
    if deadline(changed) != deadline(clock):
        changed["running"]["moved"] = iso(now)
    return changed


# ---------------------------------------------------------------- alarms: reminders, then the timeout


def alarms(clock: dict | None) -> list[Alarm]:
    """When the sweeper must act on the running turn: the reminders of its schedule that fall after
    the turn began (each at the moment its share of the turn is used, but not before the clock runs
    again after the deadline last moved), then the timeout."""
    end = deadline(clock)
    if end is None:
        return []
    running = clock["running"]
    whole = allowance(clock, running["seat"])
    earliest = resumed(clock, parse_time(running.get("moved") or running["since"]))
    found, thresholds = [Alarm("timeout", end, whole)], set()
    for reminder in schedule(clock["control"]):
        threshold = reminder.threshold(whole)
        if 0 < threshold < whole and threshold not in thresholds:
            thresholds.add(threshold)
            at = max(moment_when_used(clock, threshold), earliest)
            if at < end:
                found.append(Alarm(reminder.kind, at, threshold))
    return sorted(found, key=lambda alarm: (alarm.at, alarm.used))


def next_alarm(clock: dict | None, after: datetime | None = None) -> Alarm | None:
    """The first alarm later than ``after`` (the first of all when None); the timeout stays due."""
    for alarm in alarms(clock):
        if after is None or alarm.at > after or alarm.kind == "timeout":
            return alarm
    return None


def due_reminder(clock: dict | None, now: datetime) -> Alarm | None:
    """The reminder to send now: the latest one due (a sweeper that comes late, or a deadline moved
    past several, sends one reminder, the most advanced, not a burst)."""
    due = [a for a in alarms(clock) if a.kind != "timeout" and a.at <= now]
    return due[-1] if due else None


def reminder_mark(clock: dict, kind: str) -> str:
    """Names a reminder of the running turn's present deadline, so that it is sent once for that
    deadline (a moved deadline gets its reminders again)."""
    running = clock["running"]
    return f"{running['seat']}@{running['since']}~{iso(deadline(clock))}#{kind}"


def paused_by(clock: dict, now: datetime) -> str | None:
    """Why the running clock stands still now: "vacation", "weekend", or None (it runs)."""
    running = clock["running"]
    if running is None or resumed(clock, now) <= now:
        return None
    away = any(parse_time(a) <= now < parse_time(b) for a, b in running.get("paused", []))
    return "vacation" if away else "weekend"


def seat_clocks(clock: dict, seats: list[int], now: datetime) -> list[dict]:
    """What views show: each seat's time left, and the running seat's deadline (and pause)."""
    running = clock["running"]
    end = deadline(clock)
    why = paused_by(clock, now)
    shown = []
    for seat in seats:
        runs = running is not None and running["seat"] == seat
        shown.append({"seat": seat, "time_left_seconds": int(time_left(clock, seat, now)),
                      "moves": clock["moves"][str(seat)], "running": runs,
                      "deadline": iso(end) if runs and end else None,
                      "paused": runs and why is not None, "paused_by": why if runs else None})
    return shown
