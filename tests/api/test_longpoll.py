"""Long-polls (``wait``) on listEvents and listGames?to_move=me: an answer as soon as something comes,
else the empty list after the wait; each look is one cheap read; the wait is capped by a setting.
Time here is a fake clock that the waiter's sleep moves on, so a 20 s wait takes no time, and what
happens "during" a wait is done by that sleep."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from chalice.test import Client

import app as app_module
from chalicelib.config import build_services
from chalicelib.http.models import ActionRequest
from chalicelib.notify.dispatcher import Outlets
from chalicelib.services.waiting import gaps
from tests.conftest import LINKS, ApiClient
from tests.fakes import FakeClock
from tests.outbox import Projector


class Waiting:
    """The API on a fake clock; ``during[n]`` runs while the server sleeps for the n-th time."""

    def __init__(self, store) -> None:
        self.clock = FakeClock(datetime(2026, 3, 1, 12, tzinfo=timezone.utc))
        self.slept: list[float] = []
        self.during: dict[int, callable] = {}
        self.services = build_services(store, clock=self.clock, outlets=Outlets(links=LINKS),
                                       sleep=self.sleep, long_poll_max=20)
        self.project = Projector(store)

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.clock.advance(timedelta(seconds=seconds))
        action = self.during.pop(len(self.slept), None)
        if action is not None:
            action()

    def turn(self, player: dict, game_id: str) -> None:
        """The player plays a whole turn (the first legal steps), as another client would meanwhile."""
        caller = self.services.players.authenticate(player["api_key"])
        view = self.services.games.get_game(caller, game_id)
        mover = view["to_move"]
        while view["to_move"] == mover and view["status"] == "active":
            step = next(s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw"))
            view = self.services.games.post_action(caller, game_id, ActionRequest(
                expected_version=view["version"], steps=[step]), None).body["view"]
        self.project()  # the outbox consumer's heads and my_move entries, a moment later


@pytest.fixture
def waiting(store, monkeypatch):
    found = Waiting(store)
    monkeypatch.setattr(app_module.api, "services", lambda: found.services)
    with Client(app_module.app) as client:
        yield found, ApiClient(client, store)


def started(api) -> tuple[dict, dict, dict]:
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    return ann, bob, api.view(ann, game["game_id"])


def test_a_wait_for_events_is_answered_as_soon_as_the_other_player_moves(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    seen = api.get(f"/v1/games/{game['game_id']}/events", key=bob["api_key"]).body["events"]
    server.during[3] = lambda: server.turn(ann, game["game_id"])
    reply = api.get(f"/v1/games/{game['game_id']}/events?after={seen[-1]['seq']}&wait=20", key=bob["api_key"])
    assert reply.status == 200
    events = reply.body["events"]
    assert events and events[0]["seq"] == seen[-1]["seq"] + 1 and events[0]["seat"] == 1
    assert server.slept == [0.25, 0.5, 1.0]  # answered at the first look after the move, not after 20 s
    drawn = [e for e in events if e["type"] == "draw"]
    assert drawn and all("card" not in e["data"] for e in drawn)  # Ann's draw: Bob is not told the card


def test_a_wait_with_nothing_happening_answers_the_empty_list_after_the_wait_looking_about_once_a_second(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    count = len(api.get(f"/v1/games/{game['game_id']}/events", key=bob["api_key"]).body["events"])
    reply = api.get(f"/v1/games/{game['game_id']}/events?after={count}&wait=20", key=bob["api_key"])
    assert reply.status == 200 and reply.body == {"events": [], "next_cursor": None}
    assert sum(server.slept) == pytest.approx(20) and server.slept == gaps(20)
    assert 20 <= len(server.slept) <= 23 and max(server.slept) == 1.0


def test_a_wait_longer_than_the_maximum_waits_the_maximum(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    reply = api.get(f"/v1/games/{game['game_id']}/events?after=1000&wait=3600", key=ann["api_key"])
    assert reply.status == 200 and reply.body == {"events": [], "next_cursor": None}
    assert sum(server.slept) == pytest.approx(20)


def test_no_wait_when_events_are_there_already_or_the_game_is_over(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    reply = api.get(f"/v1/games/{game['game_id']}/events?after=0&wait=20", key=bob["api_key"])
    assert reply.status == 200 and reply.body["events"] and server.slept == []
    resigned = api.act(ann, game["game_id"], game["version"], {"type": "resign"})
    assert resigned.status == 200, resigned.body
    count = resigned.body["events"][-1]["seq"]
    reply = api.get(f"/v1/games/{game['game_id']}/events?after={count}&wait=20", key=bob["api_key"])
    assert reply.body == {"events": [], "next_cursor": None} and server.slept == []  # nothing more can come


def test_a_wait_for_my_move_is_answered_when_a_game_comes_to_await_it(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    mine = api.get("/v1/games?to_move=me&wait=20", key=ann["api_key"]).body["games"]
    assert [g["game_id"] for g in mine] == [game["game_id"]] and server.slept == []  # there at once
    server.during[2] = lambda: server.turn(ann, game["game_id"])
    reply = api.get("/v1/games?to_move=me&wait=20", key=bob["api_key"])
    assert reply.status == 200
    assert [(g["game_id"], g["your_turn"]) for g in reply.body["games"]] == [(game["game_id"], True)]
    assert server.slept == [0.25, 0.5]


def test_a_wait_for_my_move_with_none_coming_answers_the_empty_list_after_the_wait(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    reply = api.get("/v1/games?to_move=me&wait=5", key=bob["api_key"])
    assert reply.status == 200 and reply.body == {"games": [], "next_cursor": None} and sum(server.slept) == pytest.approx(5)


def test_wait_is_ignored_by_lists_that_cannot_change_by_waiting(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    assert api.get("/v1/games?wait=20", key=bob["api_key"]).body["games"]
    assert api.get("/v1/games?to_move=me&status=finished&wait=20", key=bob["api_key"]).body == {"games": [], "next_cursor": None}
    assert server.slept == []


@pytest.mark.parametrize("query", ["wait=-1", "wait=1.5", "wait=soon"])
def test_a_wait_that_is_not_a_whole_number_of_seconds_is_refused(waiting, query):
    server, api = waiting
    ann, bob, game = started(api)
    for path in (f"/v1/games/{game['game_id']}/events?{query}", f"/v1/games?to_move=me&{query}"):
        reply = api.get(path, key=ann["api_key"])
        assert reply.status == 422 and reply.body["code"] == "invalid_request" and "wait" in reply.body["detail"]
    assert server.slept == []


def test_a_lower_longest_gap_setting_looks_more_often_and_still_waits_the_whole_wait(monkeypatch):
    """LONG_POLL_GAP_SECONDS (the live bots' test sets it) caps the pause between looks; unset, it is 1 s."""
    from chalicelib.config import long_poll_gap_seconds
    from chalicelib.services.waiting import Waiter

    assert long_poll_gap_seconds() == 1.0
    monkeypatch.setenv("LONG_POLL_GAP_SECONDS", "0.1")
    clock, slept = FakeClock(datetime(2026, 3, 1, 12, tzinfo=timezone.utc)), []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(timedelta(seconds=seconds))

    assert Waiter(clock, sleep, 2, long_poll_gap_seconds()).until(2, lambda: None) is None
    assert sum(slept) == pytest.approx(2) and max(slept) == pytest.approx(0.1) and len(slept) in (20, 21)


def test_item2_a_long_poll_waiting_when_its_key_is_revoked_answers_401(waiting):
    """Issue 34, item 2: the key is read again before the answer; the events that came are not told."""
    server, api = waiting
    ann, bob, game = started(api)
    seen = api.get(f"/v1/games/{game['game_id']}/events", key=bob["api_key"]).body["events"]

    def revoke_then_move() -> None:
        server.services.players.revoke_api_key(server.services.players.authenticate(bob["api_key"]))
        server.turn(ann, game["game_id"])

    server.during[2] = revoke_then_move
    reply = api.get(f"/v1/games/{game['game_id']}/events?after={seen[-1]['seq']}&wait=20", key=bob["api_key"])
    assert reply.status == 401 and reply.body["code"] == "unauthorized" and "events" not in reply.body


def test_item2_a_long_poll_for_my_move_waiting_when_its_key_is_revoked_answers_401(waiting):
    server, api = waiting
    ann, bob, game = started(api)
    server.during[1] = lambda: server.services.players.revoke_api_key(
        server.services.players.authenticate(bob["api_key"]))
    reply = api.get("/v1/games?to_move=me&wait=3", key=bob["api_key"])  # nothing comes: the wait runs out
    assert reply.status == 401 and reply.body["code"] == "unauthorized"


def test_item2_a_long_poll_whose_key_was_replaced_by_a_rotation_meanwhile_answers_401(waiting):
    server, api = waiting
    ann, bob, game = started(api)

    def rotate_and_use_the_new_key() -> None:
        new_key = server.services.players.rotate_api_key(server.services.players.authenticate(bob["api_key"]))
        server.services.players.authenticate(new_key["api_key"])  # its first use ends the old key

    server.during[2] = rotate_and_use_the_new_key
    reply = api.get(f"/v1/games/{game['game_id']}/events?after=1000&wait=3", key=bob["api_key"])
    assert reply.status == 401
