"""Vacations: each player has days per calendar year (UTC) that pause all their clocks.

Pure functions on a plain record ``{"year": 2026, "days_used": 3, "periods": [[iso, iso]]}``.
A vacation starts at once and lasts whole days; the days are counted against the year it
starts in. Ending it early gives back the whole days not yet begun.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from ..kernel.clock import iso
from .timecontrol import Interval, parse_time
from ..kernel.i18n import _

DAYS_PER_YEAR = 14
KEPT_PERIODS = 20  # older periods cannot touch a running clock any more


class VacationRefused(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _this_year(vacation: dict | None, now: datetime) -> dict:
    vacation = vacation or {"year": now.year, "days_used": 0, "periods": []}
    if vacation["year"] != now.year:
        vacation = {**vacation, "year": now.year, "days_used": 0}
    return vacation


def intervals(vacation: dict | None) -> list[Interval]:
    return [(parse_time(a), parse_time(b)) for a, b in (vacation or {}).get("periods", [])]


def current(vacation: dict | None, now: datetime) -> Interval | None:
    return next(((a, b) for a, b in intervals(vacation) if a <= now < b), None)


def status(vacation: dict | None, now: datetime, per_year: int = DAYS_PER_YEAR) -> dict:
    year = _this_year(vacation, now)
    on = current(vacation, now)
    return {"days_per_year": per_year, "days_left": max(0, per_year - year["days_used"]),
            "on_vacation": on is not None, "until": iso(on[1]) if on else None}


def take(vacation: dict | None, now: datetime, days: int, per_year: int = DAYS_PER_YEAR) -> dict:
    if current(vacation, now) is not None:
        raise VacationRefused("already_on_vacation", _("you are on vacation already; end it before taking another"))
    year = _this_year(vacation, now)
    left = per_year - year["days_used"]
    if days > left:
        raise VacationRefused("vacation_days_exhausted", _("you have {left} vacation days left this year, not "
                                                           "{days}").format(left=max(0, left), days=days))
    periods = [*year["periods"], [iso(now), iso(now + timedelta(days=days))]][-KEPT_PERIODS:]
    return {**year, "days_used": year["days_used"] + days, "periods": periods}


def end(vacation: dict | None, now: datetime) -> dict:
    on = current(vacation, now)
    if on is None:
        raise VacationRefused("not_on_vacation", _("you are not on vacation"))
    year = _this_year(vacation, now)
    unused = math.floor((on[1] - now).total_seconds() / 86400)
    periods = [[a, iso(now)] if parse_time(a) == on[0] else [a, b] for a, b in year["periods"]]
    refund = unused if year["year"] == on[0].year else 0
    return {**year, "days_used": max(0, year["days_used"] - refund), "periods": periods}
