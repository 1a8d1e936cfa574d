"""Correspondence clocks: pure functions on a plain, JSON-able clock (no I/O, no reading the time).

Two time controls, chosen per game with the option ``time_control``:

* ``{"per_move_days": N}`` (Lichess correspondence): every turn has N days; the clock
  resets when the turn passes to another seat.
* ``{"moves": M, "days": D}`` (ICCF): each seat starts with a bank of D days; the time a
  turn takes is taken from the bank, and every M moves the seat made add D days more.
  Unused time is carried forward.

A *move* is a turn ending: the seat to move changes. Requests that leave the same seat
to move (a play, then a claim) are one turn. Only the seat to move has a running clock.

A seat's player may be on vacation: the intervals in ``running.paused`` do not count as
time used. Alarms tell the sweeper when to act: reminders at 80 % of the turn's time and
24 hours before the deadline (each only if it falls after the turn began), then the
timeout itself.

The clock::

    {"control": {...}, "banks": {"1": seconds, ...}, "moves": {"1": n, ...},
     "running": null | {"seat": 2, "since": iso, "paused": [[iso, iso], ...]}}
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Annotated, Union

from pydantic import BaseModel, ConfigDict, Field

from .clock import iso

DAY = 86400.0
REMINDER_SHARE = 0.8
REMINDER_BEFORE = timedelta(hours=24)


class PerMove(BaseModel):
    """Lichess style: N days for every move; the clock resets each move."""

    model_config = ConfigDict(extra="forbid", strict=True)
    per_move_days: int = Field(ge=1, le=60)


class Bank(BaseModel):
    """ICCF style: D days for every M moves; unused time is carried forward."""

    model_config = ConfigDict(extra="forbid", strict=True)
    moves: int = Field(ge=1, le=100)
    days: int = Field(ge=1, le=365)


TimeControl = Annotated[Union[PerMove, Bank], Field(description="per_move_days, or moves + days")]

Interval = tuple[datetime, datetime]


@dataclass(frozen=True)
class Alarm:
    kind: str  # reminder_80 | reminder_24h | timeout
    at: datetime


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


def new_clock(control: dict, seats: list[int]) -> dict:
    allowance = (control["per_move_days"] if "per_move_days" in control else control["days"]) * DAY
    return {"control": dict(control), "banks": {str(s): allowance for s in seats},
            "moves": {str(s): 0 for s in seats}, "running": None}


def allowance(clock: dict, seat: int) -> float:
    """Seconds the seat has for its current (or next) turn."""
    control = clock["control"]
    if "per_move_days" in control:
        return control["per_move_days"] * DAY
    return clock["banks"][str(seat)]


def paused_seconds(paused: list[Interval], start: datetime, end: datetime) -> float:
    """How much of [start, end) falls into the paused intervals (which may overlap)."""
    total, reached = 0.0, start
    for a, b in sorted(paused):
        a, b = max(a, reached), min(b, end)
        if b > a:
            total += (b - a).total_seconds()
            reached = b
    return total


def _paused(running: dict) -> list[Interval]:
    return [(parse_time(a), parse_time(b)) for a, b in running.get("paused", [])]


def used(clock: dict, now: datetime) -> float:
    """Seconds the running seat has used this turn (vacation excluded)."""
    running = clock["running"]
    if running is None:
        return 0.0
    since = parse_time(running["since"])
    if now <= since:
        return 0.0
    return (now - since).total_seconds() - paused_seconds(_paused(running), since, now)


def moment_when_used(clock: dict, seconds: float) -> datetime:
    """The wall-clock moment at which the running seat will have used ``seconds`` this turn."""
    running = clock["running"]
    moment = parse_time(running["since"])
    left = seconds
    for a, b in sorted(_paused(running)):
        if b <= moment:
            continue
        if a > moment:
            gap = (a - moment).total_seconds()
            if gap >= left:
                break
            left -= gap
        moment = max(moment, b)
    return moment + timedelta(seconds=left)


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


def start_turn(clock: dict, seat: int, now: datetime, vacations: list[Interval]) -> dict:
    """The seat's clock starts now; its player's vacations still to come will pause it."""
    return {**clock, "running": {"seat": seat, "since": iso(now),
                                 "paused": [[iso(a), iso(b)] for a, b in sorted(vacations) if b > now]}}


def end_turn(clock: dict, now: datetime) -> dict:
    """Charge the running seat for its turn, count its move (ICCF: every M moves add D days)."""
    running = clock["running"]
    if running is None:
        return clock
    key = str(running["seat"])
    banks, moves = dict(clock["banks"]), dict(clock["moves"])
    moves[key] += 1
    control = clock["control"]
    if "per_move_days" not in control:
        banks[key] = max(0.0, banks[key] - used(clock, now))
        if moves[key] % control["moves"] == 0:
            banks[key] += control["days"] * DAY
    return {**clock, "banks": banks, "moves": moves, "running": None}


def pass_turn(clock: dict, now: datetime, to_move: int | None, vacations: list[Interval]) -> dict:
    """After an accepted action: the same seat's turn goes on, or the clock passes to ``to_move``
    (None: the game is over or waits, and no clock runs)."""
    running = clock["running"]
    if running is not None and running["seat"] == to_move:
        return clock
    stopped = end_turn(clock, now)
    return start_turn(stopped, to_move, now, vacations) if to_move is not None else stopped


def with_vacations(clock: dict, vacations: list[Interval]) -> dict:
    """The running turn re-read with its player's vacations as they are now."""
    running = clock["running"]
    if running is None:
        return clock
    since = parse_time(running["since"])
    return {**clock, "running": {**running, "paused": [[iso(a), iso(b)] for a, b in sorted(vacations) if b > since]}}


def alarms(clock: dict | None) -> list[Alarm]:
    """When the sweeper must act on the running turn: reminders, then the timeout."""
    end = deadline(clock)
    if end is None:
        return []
    since = parse_time(clock["running"]["since"])
    found = {Alarm("timeout", end)}
    at_80 = moment_when_used(clock, REMINDER_SHARE * allowance(clock, clock["running"]["seat"]))
    if since < at_80 < end:
        found.add(Alarm("reminder_80", at_80))
    if since < end - REMINDER_BEFORE and end - REMINDER_BEFORE != at_80:
        found.add(Alarm("reminder_24h", end - REMINDER_BEFORE))
    return sorted(found, key=lambda alarm: (alarm.at, alarm.kind))


def next_alarm(clock: dict | None, after: datetime | None = None) -> Alarm | None:
    """The first alarm later than ``after`` (the first of all when None); the timeout stays due."""
    for alarm in alarms(clock):
        if after is None or alarm.at > after or alarm.kind == "timeout":
            return alarm
    return None


def turn_key(clock: dict) -> str:
    """Names the running turn, so that each of its reminders is sent once."""
    running = clock["running"]
    return f"{running['seat']}@{running['since']}"


def seat_clocks(clock: dict, seats: list[int], now: datetime) -> list[dict]:
    """What views show: each seat's time left, and the running seat's deadline."""
    running = clock["running"]
    end = deadline(clock)
    shown = []
    for seat in seats:
        runs = running is not None and running["seat"] == seat
        shown.append({"seat": seat, "time_left_seconds": int(time_left(clock, seat, now)),
                      "moves": clock["moves"][str(seat)], "running": runs,
                      "deadline": iso(end) if runs and end else None,
                      "paused": runs and any(a <= now < b for a, b in _paused(running))})
    return shown
