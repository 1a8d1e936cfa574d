"""Lists in pages: an opaque cursor, a ``limit``, and ``next_cursor`` (null on the last page).

A cursor is base64url of a small JSON object ``{"l": <list>, "s": <scope>, "a": <position>}``: the
list it belongs to (``games``, ``events``, ...), what that list was asked for (a game id, a filter),
and where the last page ended. It is not signed, and needs not be: every list is read within what
the caller may read whole anyway (their own games, a game they may see, their own webhook's
deliveries, public tournaments and profiles), so a cursor a client edits can only move within it.
It is checked strictly instead: anything that is not a cursor of this very list and query (another
list's, another game's, garbage, a position of the wrong type) is refused with 400
``invalid_cursor``, never a 500 and never a wrong page.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, Callable, Iterable, TypeVar

from ..kernel.errors import ServiceError
from ..kernel.i18n import _

T = TypeVar("T")
MAX_CURSOR = 1024  # characters; ours are far shorter


def encode(list_name: str, scope: str, position: Any) -> str:
    raw = json.dumps({"l": list_name, "s": scope, "a": position}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(cursor: str | None, list_name: str, scope: str, valid: Callable[[Any], bool]) -> Any:
    """The position a cursor of ``list_name`` (asked for ``scope``) holds; None without a cursor.
    ``valid`` checks the position's shape; anything else is 400 ``invalid_cursor``."""
    if cursor is None:
        return None
    try:
        if len(cursor) > MAX_CURSOR:
            raise ValueError
        data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode())
        if not isinstance(data, dict) or data.get("l") != list_name or data.get("s") != scope \
                or not valid(data.get("a")):
            raise ValueError
    except (ValueError, binascii.Error, UnicodeDecodeError, TypeError):
        raise ServiceError("invalid_cursor", _("this cursor is not one this list gave for this query; start "
                                               "again without a cursor")) from None
    return data["a"]


def is_str_list(value: Any, length: int) -> bool:
    return isinstance(value, list) and len(value) == length and all(isinstance(v, str) for v in value)


def page_of(items: Iterable[T], key: Callable[[T], list[str]], limit: int, after: list[str] | None,
            list_name: str, scope: str, descending: bool = False) -> tuple[list[T], str | None]:
    """One page of a list already in order by ``key`` (ascending, or ``descending``): the items
    after the position ``after`` (the last page's last key), at most ``limit``, and the cursor of
    the next page (None: this page is the last). Keys are unique (they end with an id), so an
    item added or moved meanwhile is never shown twice on one walk of pages."""
    if after is not None:
        items = [i for i in items if (key(i) < after if descending else key(i) > after)]
    items = list(items)
    page = items[:limit]
    more = len(items) > limit
    return page, encode(list_name, scope, key(page[-1])) if more and page else None
