"""Talk: a short message that goes with a move (issue 18). Pure: no I/O.

A message is one more event of the version its move made, of type ``message``, its seat the
sender's. Its text is every *seat*'s private part (``{"1": {"text": ...}, "2": ...}``), never its
public ``data``: a spectator of a public game, a webhook payload and everything else built from
public data see no text (and the views below leave message events out for them altogether). A
player who turned messages off (the ``messages`` preference) is shown none: not in their view,
their events, their emails or their board; they may still send one.
"""

from __future__ import annotations

from typing import Iterable

MESSAGE = "message"  # the event type
MAX_LENGTH = 500  # characters (code points) a message may hold
NOTES_MAX_LENGTH = 4000  # characters (code points) a seat's private notes on a game may hold (services.notes)
SHOWN = 10  # the latest messages a view lists (the rest: listEvents)


def message_event(seat: int, text: str, seats: Iterable[int]) -> dict:
    """The event a message makes, as the engines write theirs (``games.base.event``): its text is
    private to every seat of the game (and to them only)."""
    return {"type": MESSAGE, "seat": seat, "data": {}, "private": {str(s): {"text": text} for s in seats}}


def is_message(event: dict) -> bool:
    return event["type"] == MESSAGE


def visible(events: list[dict], seat: int | None, shown: bool = True) -> list[dict]:
    """``events`` (as ``seat`` sees them) without the messages it may not read: a spectator (no
    seat) reads none, nor a seat whose player turned messages off (``shown`` False)."""
    if seat is not None and shown:  # a message not sent to this seat (its player blocked the sender) has no text
        return [e for e in events if not is_message(e) or "text" in e["data"]]
    return [e for e in events if not is_message(e)]


def messages(events: list[dict], names: dict[int, str], *, limit: int = SHOWN) -> list[dict]:
    """The messages among ``events`` (as a seat sees them), oldest first, the last ``limit``:
    who sent each (seat and name), its text, when, and its event's seq."""
    found = [{"seq": e["seq"], "seat": e["seat"], "name": names.get(e["seat"], "?"), "text": e["data"]["text"],
              "at": e["at"]} for e in events if is_message(e) and "text" in e["data"]]
    return found[-limit:]


def from_others(events: list[dict], seat: int | None) -> list[dict]:
    """Of ``messages(...)``'s list, those another seat sent."""
    return [m for m in events if m["seat"] != seat]
