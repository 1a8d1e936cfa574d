"""listTournaments: open for entry, running or finished, newest first, in pages (an index spread
over 16 partitions a status, merged)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ..conftest import api_on
from ..fakes import FakeClock
from .test_contract import problem_of
from .test_tournaments import create, join, start


class Ticking(FakeClock):
    """A clock a millisecond on at each read: on the in-memory store two tournaments can be made within
    one millisecond, and the list orders those by id (as DynamoDB's index would)."""

    def now(self) -> datetime:
        self.advance(timedelta(milliseconds=1))
        return self.moment


@pytest.fixture
def api(store, monkeypatch):
    yield from api_on(store, Ticking(datetime.now(timezone.utc)), monkeypatch)


def ids_of(reply):
    assert reply.status == 200, reply.body
    return [t["id"] for t in reply.body["tournaments"]]


def test_tournaments_are_listed_by_status_newest_first_in_pages(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    made = [create(api, ann, name=f"Cup {n}") for n in range(5)]
    newest_first = [t["id"] for t in reversed(made)]
    assert ids_of(api.get("/v1/tournaments")) == newest_first
    assert ids_of(api.get("/v1/tournaments?status=open")) == newest_first
    join(api, made[1], ann, bob)
    start(api, ann, made[1])
    assert ids_of(api.get("/v1/tournaments?status=running")) == [made[1]["id"]]
    assert made[1]["id"] not in ids_of(api.get("/v1/tournaments?status=open"))
    assert ids_of(api.get("/v1/tournaments?status=finished")) == []
    row = api.get("/v1/tournaments?status=running").body["tournaments"][0]
    assert row["status"] == "running" and row["players"] == 2 and row["name"] == "Cup 1" and row["round"] == 1

    seen, cursor, pages = [], None, 0
    while True:
        reply = api.get("/v1/tournaments?limit=2" + (f"&cursor={cursor}" if cursor else ""))
        seen += ids_of(reply)
        pages += 1
        cursor = reply.body["next_cursor"]
        if cursor is None:
            break
    assert seen == newest_first and pages == 3


def test_a_cursor_of_another_filter_is_refused(api):
    ann = api.signup("Ann")
    for n in range(3):
        create(api, ann, name=f"Cup {n}")
    cursor = api.get("/v1/tournaments?limit=1").body["next_cursor"]
    problem_of(api.get(f"/v1/tournaments?status=open&cursor={cursor}"), 400, "invalid_cursor")
    problem_of(api.get("/v1/tournaments?status=paused"), 422, "invalid_request")
