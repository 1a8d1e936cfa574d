"""The daily digest's schedule (pure: no I/O, no clock): when a player's digest is next sent.

A player who turns the digest on (the ``digest`` preference: ``{"enabled": true, "time": "07:30"}``)
gets one email a day at that local time in their ``time_zone`` listing the games awaiting their
move, instead of an email per move (docs/correspondence.md, "Daily digest"). The time is on the
quarter hour. Local times are found with ``zoneinfo``, day by day, so summer time moves the send
with the player's clock:

- a time that does not exist that day (the clocks jump over it, e.g. 02:30 in Paris on the last
  Sunday of March) is read with the offset before the jump, as RFC 5545 reads a missing time: the
  digest goes at the moment the clocks jump to (03:30 local), never skipped;
- a time that happens twice (the clocks go back, e.g. 02:30 in Paris on the last Sunday of
  October) is its first occurrence (``fold=0``); the day's mark (one digest per local date) keeps
  the second from sending it again.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from ..kernel.clock import iso

TIME = re.compile(r"([01][0-9]|2[0-3]):(00|15|30|45)")  # HH:MM on the quarter hour
TIME_PATTERN = "^([01][0-9]|2[0-3]):(00|15|30|45)$"  # the same, as the API's schema writes it
DEFAULT = {"enabled": False, "time": "08:00"}


def valid_time(text: str) -> bool:
    return TIME.fullmatch(text) is not None


def send_at(day: date, at: str, zone: str) -> datetime:
    """The moment (UTC) of local time ``at`` on ``day`` in ``zone``: a missing local time takes the
    offset before the jump (so it falls after it), a repeated one its first occurrence."""
    hour, minute = (int(part) for part in at.split(":"))
    local = datetime.combine(day, time(hour, minute), ZoneInfo(zone))  # fold=0
    return local.astimezone(timezone.utc)


def next_send(at: str, zone: str, after: datetime) -> datetime:
    """The first moment strictly after ``after`` when it is ``at`` in ``zone`` (UTC)."""
    day = after.astimezone(ZoneInfo(zone)).date() - timedelta(days=1)
    while True:
        moment = send_at(day, at, zone)
        if moment > after:
            return moment
        day += timedelta(days=1)


def local_date(moment: datetime, zone: str) -> str:
    """The date in ``zone`` at ``moment`` (ISO): a digest is sent at most once a local date."""
    return moment.astimezone(ZoneInfo(zone)).date().isoformat()


def settings(preferences: dict) -> dict:
    """The digest preference with its defaults (an older record lacks it, or a field of it)."""
    return {**DEFAULT, **(preferences.get("digest") or {})}


def planned(digest_at: str | None, before: dict, chosen: dict, now: datetime) -> str | None:
    """The digest's next send (ISO, UTC) once the preferences ``chosen`` replace ``before`` (None: it
    is off); ``digest_at`` the send planned so far. A change that leaves the digest's time and zone
    as they were keeps that send (changing one's language at 07:59:30 does not skip the 08:00
    digest); any other change plans the next such local time after ``now``."""
    wanted = settings(chosen)
    if not wanted["enabled"]:
        return None
    kept = settings(before)
    if digest_at and kept["enabled"] and kept["time"] == wanted["time"] \
            and before.get("time_zone") == chosen.get("time_zone"):
        return digest_at
    return iso(next_send(wanted["time"], chosen.get("time_zone") or "UTC", now))
