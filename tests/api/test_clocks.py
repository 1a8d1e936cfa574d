"""Time controls through the API and the sweeper, with an injected clock (no sleeping)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import pytest
from chalice.test import Client

import app as app_module

from battleline_cli import screens
from chalicelib.presenting import show
from chalicelib.pages import board
from chalicelib.notify.dispatcher import Outlets
from chalicelib.config import build_services

from ..conftest import LINKS, ApiClient
from ..outbox import written
from ..fakes import FakeClock
from .test_board_replay import moves_listed, played_turns, replay_path

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
DAY = timedelta(days=1)


@pytest.fixture
def clock():
    return FakeClock(START)


@pytest.fixture
def timed(store, clock, monkeypatch):
    services = build_services(store, clock=clock, outlets=Outlets(links=LINKS))
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        api = ApiClient(client, store)
        api.services = services
        yield api


def new_timed_game(api, control, players=None, **extra):
    ann, bob = players or (api.signup("Ann"), api.signup("Bob"))
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1, "time_control": control}, **extra)
    return ann, bob, game


def end_turn(api, players, game_id):
    """The seat to move plays its first legal steps until the turn passes to the other seat."""
    view = api.view(players[0], game_id)
    mover = view["to_move"]
    while view["to_move"] == mover and view["status"] == "active":
        seat_player = players[mover - 1]
        view = api.view(seat_player, game_id)
        step = next(s for s in view["legal_steps"] if s["type"] != "resign")
        reply = api.act(seat_player, game_id, view["version"], step)
        assert reply.status == 200, reply.body
        view = reply.body["view"]
    return view


def outbox(api, kind):
    return [m for m in written(api.services.store) if m.type == kind]


def seat_clock(view, seat):
    return view["clock"]["seats"][seat - 1]


# ---------------------------------------------------------------- time controls in views

def test_per_move_view_shows_time_left_and_deadline(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 3})
    clock.advance(DAY)
    view = timed.view(ann, game["game_id"])
    assert view["clock"]["control"] == {"per_move_days": 3}
    assert seat_clock(view, 1) == {"seat": 1, "time_left_seconds": 2 * 86400, "moves": 0, "running": True,
                                   "deadline": "2026-03-05T09:00:00.000Z", "paused": False, "paused_by": None}
    assert seat_clock(view, 2)["time_left_seconds"] == 3 * 86400 and seat_clock(view, 2)["deadline"] is None


def test_per_move_clock_resets_when_the_turn_passes(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 3})
    clock.advance(2 * DAY)
    view = end_turn(timed, [ann, bob], game["game_id"])
    assert view["to_move"] == 2
    assert seat_clock(view, 2)["deadline"] == "2026-03-07T09:00:00.000Z"
    assert seat_clock(view, 1)["time_left_seconds"] == 3 * 86400


def test_iccf_bank_carries_unused_time_in_views(timed, clock):
    ann, bob, game = new_timed_game(timed, {"moves": 2, "days": 10})
    clock.advance(3 * DAY)
    end_turn(timed, [ann, bob], game["game_id"])       # Ann used 3 of her 10 days
    clock.advance(DAY)
    view = end_turn(timed, [ann, bob], game["game_id"])  # Bob used 1
    assert seat_clock(view, 1)["time_left_seconds"] == 7 * 86400
    assert seat_clock(view, 2)["time_left_seconds"] == 9 * 86400
    clock.advance(DAY)
    view = end_turn(timed, [ann, bob], game["game_id"])  # Ann's 2nd move: 7 - 1 + 10
    assert seat_clock(view, 1)["time_left_seconds"] == 16 * 86400


def test_bad_time_control_is_refused(timed):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    for control in ({"per_move_days": 0}, {"moves": 10}, {"per_move_days": 3, "days": 2}, "fast"):
        reply = timed.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]},
                                                                         {"player_id": bob["id"]}],
                                         "options": {"time_control": control}}, key=ann["api_key"])
        assert reply.status == 422 and reply.body["code"] == "invalid_options", control


def test_game_without_time_control_has_no_clock(timed):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    game = timed.new_game(ann, [ann, bob])
    assert game["clock"] is None
    assert timed.services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 0}


# ---------------------------------------------------------------- reminders

def test_reminders_fire_once_at_80_percent_and_24_hours_before(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 10})
    services = timed.services
    clock.advance(8 * DAY - timedelta(minutes=1))
    assert services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 0}
    clock.advance(timedelta(minutes=1))
    assert services.clocks.sweep_clocks() == {"reminders": 1, "timeouts": 0}
    assert services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 0}
    clock.advance(DAY)
    assert services.clocks.sweep_clocks() == {"reminders": 1, "timeouts": 0}
    assert services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 0}
    sent = outbox(timed, "game.reminder")
    assert [(m.player_id, m.data["reminder"], m.data["time_left_seconds"]) for m in sent] == [
        (ann["id"], "reminder_80", 2 * 86400), (ann["id"], "reminder_24h", 86400)]
    assert all(m.data["deadline"] == "2026-03-12T09:00:00.000Z" for m in sent)


def test_a_reminder_is_not_sent_twice_when_two_sweepers_run_at_once(concurrent, timed, clock):
    new_timed_game(timed, {"per_move_days": 10})
    clock.advance(8 * DAY)
    results = []
    threads = [threading.Thread(target=lambda: results.append(timed.services.clocks.sweep_clocks())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r["reminders"] for r in results) == 1
    assert len(outbox(timed, "game.reminder")) == 1


def test_a_move_before_the_reminder_means_no_reminder_for_that_turn(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 10})
    clock.advance(7 * DAY)
    end_turn(timed, [ann, bob], game["game_id"])
    clock.advance(DAY + timedelta(hours=1))
    assert timed.services.clocks.sweep_clocks()["reminders"] == 0
    clock.advance(7 * DAY)  # Bob's turn is at 80 % now
    assert timed.services.clocks.sweep_clocks()["reminders"] == 1
    assert [m.player_id for m in outbox(timed, "game.reminder")] == [bob["id"]]


# ---------------------------------------------------------------- timeouts

def test_timeout_loses_the_game_once_even_when_swept_twice(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    end_turn(timed, [ann, bob], game["game_id"])
    version = end_turn(timed, [ann, bob], game["game_id"])["version"]  # both moved: no abandonment
    clock.advance(2 * DAY)
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 0
    view = timed.view(bob, game["game_id"])
    assert view["status"] == "finished" and view["version"] == version + 1
    assert view["result"]["winner"] == 2 and view["result"]["reason"] == "timeout"
    events = timed.get(f"/v1/games/{game['game_id']}/events", key=bob["api_key"]).body["events"]
    assert [e["type"] for e in events].count("timeout") == 1
    assert len(outbox(timed, "game.finished")) == 2


def test_a_move_after_the_deadline_is_refused_and_the_timeout_applied(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    end_turn(timed, [ann, bob], game["game_id"])
    end_turn(timed, [ann, bob], game["game_id"])  # both moved: no abandonment
    view = timed.view(ann, game["game_id"])
    clock.advance(2 * DAY + timedelta(seconds=1))
    step = next(s for s in view["legal_steps"] if s["type"] == "play")
    reply = timed.act(ann, game["game_id"], view["version"], step)
    assert reply.status == 409 and reply.body["code"] == "time_expired"
    assert reply.body["current_version"] == view["version"] + 1
    assert timed.view(ann, game["game_id"])["result"]["reason"] == "timeout"


def test_a_move_just_before_the_deadline_wins_over_a_stale_sweeper(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    clock.advance(2 * DAY - timedelta(seconds=1))
    stale = timed.services.moves.find(game["game_id"])  # the sweeper read the game just before the move
    end_turn(timed, [ann, bob], game["game_id"])
    clock.advance(timedelta(seconds=2))
    after, timed_out = timed.services.clocks.time_out(stale)
    assert not timed_out
    view = timed.view(ann, game["game_id"])
    assert view["status"] == "active" and view["to_move"] == 2 and view["result"] is None


def test_timeout_and_moves_racing_give_exactly_one_outcome(concurrent, timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    clock.advance(2 * DAY)
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    replies, sweeps = [], []
    threads = [threading.Thread(target=lambda: sweeps.append(timed.services.clocks.sweep_clocks())) for _ in range(3)]
    threads += [threading.Thread(target=lambda: replies.append(timed.act(ann, game["game_id"], 0, step)))
                for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.status == 409 for r in replies)
    view = timed.view(ann, game["game_id"])
    assert view["version"] == 1 and view["result"]["reason"] == "aborted"  # Ann never moved: abandoned
    events = timed.get(f"/v1/games/{game['game_id']}/events", key=ann["api_key"]).body["events"]
    assert [e["type"] for e in events] == ["game_created", "game_aborted"], events


def test_iccf_timeout_when_the_bank_is_empty(timed, clock):
    ann, bob, game = new_timed_game(timed, {"moves": 10, "days": 3})
    clock.advance(2 * DAY)
    end_turn(timed, [ann, bob], game["game_id"])
    clock.advance(DAY)
    end_turn(timed, [ann, bob], game["game_id"])  # Ann has 1 day left
    clock.advance(DAY - timedelta(seconds=1))
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 0
    clock.advance(timedelta(seconds=1))
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1
    assert timed.view(ann, game["game_id"])["result"]["winner"] == 2


# ---------------------------------------------------------------- vacation

def test_vacation_pauses_the_clock_and_moves_the_deadline(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    clock.advance(DAY)
    reply = timed.post("/v1/players/me/vacation", {"days": 3}, key=ann["api_key"])
    assert reply.status == 200 and reply.body == {"days_per_year": 14, "days_left": 11, "on_vacation": True,
                                                  "until": "2026-03-06T09:00:00.000Z"}
    view = timed.view(ann, game["game_id"])
    assert seat_clock(view, 1)["deadline"] == "2026-03-07T09:00:00.000Z" and seat_clock(view, 1)["paused_by"] == "vacation"
    clock.advance(2 * DAY)
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 0
    assert seat_clock(timed.view(ann, game["game_id"]), 1)["time_left_seconds"] == 86400
    clock.advance(3 * DAY)
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1


def test_vacation_pauses_a_clock_that_starts_during_it(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    timed.post("/v1/players/me/vacation", {"days": 2}, key=bob["api_key"])
    view = end_turn(timed, [ann, bob], game["game_id"])
    assert seat_clock(view, 2)["deadline"] == "2026-03-06T09:00:00.000Z"


def test_sweeper_reads_a_vacation_taken_while_a_move_was_being_saved(timed, clock, store):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    clock.advance(DAY)
    record = {"year": 2026, "days_used": 3, "periods": [["2026-03-03T09:00:00.000Z", "2026-03-06T09:00:00.000Z"]]}
    store.set_vacation(ann["id"], record)  # the vacation is stored, but the game kept its old deadline
    clock.advance(DAY)
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 0
    assert seat_clock(timed.view(ann, game["game_id"]), 1)["deadline"] == "2026-03-07T09:00:00.000Z"


def test_ending_vacation_early_restarts_the_clock(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2})
    timed.post("/v1/players/me/vacation", {"days": 5}, key=ann["api_key"])
    clock.advance(DAY + timedelta(hours=2))
    reply = timed.request("DELETE", "/v1/players/me/vacation", key=ann["api_key"])
    assert reply.status == 200 and reply.body["days_left"] == 14 - 2 and not reply.body["on_vacation"]
    assert seat_clock(timed.view(ann, game["game_id"]), 1)["deadline"] == "2026-03-05T11:00:00.000Z"


def test_vacation_refusals(timed):
    ann = timed.signup("Ann")
    assert timed.request("DELETE", "/v1/players/me/vacation", key=ann["api_key"]).body["code"] == "not_on_vacation"
    assert timed.post("/v1/players/me/vacation", {"days": 15}, key=ann["api_key"]).body["code"] == \
        "vacation_days_exhausted"
    timed.post("/v1/players/me/vacation", {"days": 1}, key=ann["api_key"])
    reply = timed.post("/v1/players/me/vacation", {"days": 1}, key=ann["api_key"])
    assert reply.status == 409 and reply.body["code"] == "already_on_vacation"
    assert timed.get("/v1/players/me", key=ann["api_key"]).body["vacation"]["days_left"] == 13


# ---------------------------------------------------------------- my-move lists

def test_my_move_list_comes_sorted_by_deadline(timed, clock):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    slow = timed.new_game(ann, [ann, bob], options={"first_seat": 1, "time_control": {"per_move_days": 7}})
    untimed = timed.new_game(ann, [ann, bob], options={"first_seat": 1})
    fast = timed.new_game(ann, [ann, bob], options={"first_seat": 1, "time_control": {"per_move_days": 1}})
    theirs = timed.new_game(ann, [ann, bob], options={"first_seat": 2, "time_control": {"per_move_days": 1}})
    mine = timed.get("/v1/games?to_move=me", key=ann["api_key"]).body["games"]
    assert [g["game_id"] for g in mine] == [fast["game_id"], slow["game_id"], untimed["game_id"]]
    assert mine[0]["deadline"] == "2026-03-03T09:00:00.000Z" and mine[2]["deadline"] is None
    assert [g["game_id"] for g in timed.get("/v1/games?to_move=me", key=bob["api_key"]).body["games"]] == [
        theirs["game_id"]]
    end_turn(timed, [ann, bob], fast["game_id"])
    assert fast["game_id"] not in [g["game_id"] for g in
                                   timed.get("/v1/games?to_move=me", key=ann["api_key"]).body["games"]]


# ---------------------------------------------------------------- reminders belong to a deadline (issue 22)

def test_a_reminder_is_lost_when_a_vacation_moves_the_deadline(timed, clock):
    """Defect 3: a 3-day turn, both reminders sent, then 5 days of vacation: an hour after it ended,
    11 hours were left and no reminder came. The moved deadline gets its reminder (one, not a burst),
    once."""
    ann, bob, game = new_timed_game(timed, {"per_move_days": 3})
    clock.advance(2 * DAY)
    assert timed.services.clocks.sweep_clocks()["reminders"] == 1       # 24 hours left
    clock.advance(DAY / 2)
    assert timed.services.clocks.sweep_clocks()["reminders"] == 1       # 80 % used, 12 hours left
    assert timed.post("/v1/players/me/vacation", {"days": 5}, key=ann["api_key"]).status == 200
    clock.advance(timedelta(minutes=1))
    assert timed.services.clocks.sweep_clocks()["reminders"] == 0       # nothing while she is away
    clock.advance(5 * DAY + timedelta(hours=1) - timedelta(minutes=1))  # an hour after the vacation
    assert seat_clock(timed.view(ann, game["game_id"]), 1)["time_left_seconds"] == 11 * 3600
    assert timed.services.clocks.sweep_clocks() == {"reminders": 1, "timeouts": 0}
    assert timed.services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 0}
    clock.advance(timedelta(hours=10))
    assert timed.services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 0}  # once per deadline
    sent = outbox(timed, "game.reminder")
    assert [(m.data["reminder"], m.data["time_left_seconds"]) for m in sent] == [
        ("reminder_24h", 86400), ("reminder_80", 12 * 3600), ("reminder_80", 11 * 3600)]
    assert sent[-1].data["deadline"] == "2026-03-10T09:00:00.000Z"
    clock.advance(timedelta(hours=1))
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1


def test_a_late_sweeper_sends_the_latest_reminder_only(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 10})
    clock.advance(9 * DAY + timedelta(hours=1))  # both reminders are past
    assert timed.services.clocks.sweep_clocks() == {"reminders": 1, "timeouts": 0}
    assert timed.services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 0}
    assert [m.data["reminder"] for m in outbox(timed, "game.reminder")] == ["reminder_24h"]


# ---------------------------------------------------------------- Fischer, policies, weekend pause (issue 22)

def test_fischer_view_shows_the_bank_growing_by_the_increment_up_to_the_maximum(timed, clock):
    ann, bob, game = new_timed_game(timed, {"initial_days": 3, "increment_days": 2, "max_days": 5})
    assert game["clock"]["control"] == {"initial_days": 3, "increment_days": 2, "max_days": 5}
    assert seat_clock(game, 1)["deadline"] == "2026-03-05T09:00:00.000Z"
    clock.advance(DAY)
    view = end_turn(timed, [ann, bob], game["game_id"])       # Ann: 3 - 1 + 2
    assert seat_clock(view, 1)["time_left_seconds"] == 4 * 86400
    view = end_turn(timed, [ann, bob], game["game_id"])       # Bob: 3 - 0 + 2, capped at 5
    assert seat_clock(view, 2)["time_left_seconds"] == 5 * 86400
    clock.advance(4 * DAY)
    assert timed.services.clocks.sweep_clocks() == {"reminders": 0, "timeouts": 1}
    assert timed.view(ann, game["game_id"])["result"]["reason"] == "timeout"


def test_bad_fischer_or_policy_is_refused(timed):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    for control in ({"initial_days": 6, "increment_days": 1, "max_days": 5},
                    {"initial_days": 3, "increment_days": 1, "max_days": 5, "days": 3},
                    {"per_move_days": 3, "weekend_pause": 1}, {"per_move_days": 3, "vacations": False}):
        reply = timed.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]},
                                                                         {"player_id": bob["id"]}],
                                         "options": {"time_control": control}}, key=ann["api_key"])
        assert reply.status == 422 and reply.body["code"] == "invalid_options", (control, reply.body)
        if control.get("initial_days") == 6:  # the refusal speaks of the control meant, not of the others
            assert "initial_days may not exceed max_days" in reply.body["detail"]
            assert "per_move_days" not in reply.body["detail"]
            assert "Value error" not in reply.body["detail"]  # the validator's words, not pydantic's wrapper


def test_views_show_the_time_policy_with_its_reminder_schedule(timed, clock):
    ann, bob, game = new_timed_game(timed, {"per_move_days": 30})
    assert game["clock"]["policy"] == {
        "time_control": {"per_move_days": 30}, "vacations_allowed": True, "weekend_pause": False,
        "reminders": [{"kind": "reminder_14d", "days_without_move": 14, "percent_used": None, "hours_left": None},
                      {"kind": "reminder_28d", "days_without_move": 28, "percent_used": None, "hours_left": None},
                      {"kind": "reminder_80", "days_without_move": None, "percent_used": 80, "hours_left": None},
                      {"kind": "reminder_24h", "days_without_move": None, "percent_used": None, "hours_left": 24}]}
    for days in (14, 24, 28, 29):
        clock.advance(START + days * DAY - clock.now())
        assert timed.services.clocks.sweep_clocks() == {"reminders": 1, "timeouts": 0}, days
    assert [m.data["reminder"] for m in outbox(timed, "game.reminder")] == [
        "reminder_14d", "reminder_80", "reminder_28d", "reminder_24h"]


def test_time_zone_preference_is_an_iana_zone(timed):
    ann = timed.signup("Ann")
    assert timed.get("/v1/players/me/preferences", key=ann["api_key"]).body["time_zone"] == "UTC"
    for zone in ("Mars/Olympus", "CET+1", "../../etc/passwd", "", 7):
        reply = timed.request("PUT", "/v1/players/me/preferences", {"time_zone": zone}, key=ann["api_key"])
        assert reply.status == 422 and reply.body["code"] == "invalid_request", zone
    reply = timed.request("PUT", "/v1/players/me/preferences", {"time_zone": "Asia/Tokyo"}, key=ann["api_key"])
    assert reply.status == 200 and reply.body["time_zone"] == "Asia/Tokyo"
    reply = timed.request("PUT", "/v1/players/me/preferences", {"language": "ja"}, key=ann["api_key"])
    assert reply.body["time_zone"] == "Asia/Tokyo"  # left out: kept


def test_weekend_pause_stops_a_seats_clock_on_its_players_weekend(timed, clock):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    timed.request("PUT", "/v1/players/me/preferences", {"time_zone": "Europe/Paris"}, key=ann["api_key"])
    clock.advance(datetime(2026, 3, 25, 12, tzinfo=timezone.utc) - clock.now())  # a Wednesday; DST on the 29th
    ann, bob, game = new_timed_game(timed, {"per_move_days": 10, "weekend_pause": True}, players=(ann, bob))
    assert game["clock"]["policy"]["weekend_pause"] is True
    assert seat_clock(game, 1)["deadline"] == "2026-04-08T11:00:00.000Z"  # two Paris weekends later
    clock.advance(datetime(2026, 3, 28, 12, tzinfo=timezone.utc) - clock.now())
    saturday = timed.view(ann, game["game_id"])
    ann_clock = seat_clock(saturday, 1)
    assert ann_clock["paused"] and ann_clock["paused_by"] == "weekend" and ann_clock["time_left_seconds"] == 181 * 3600
    assert show.clock_line(saturday) == ("Your clock stands still for the weekend: 7 days, 13 hours left "
                                         "(until Apr 8, 2026 11:00 UTC).")
    assert screens.clock(saturday)[0].endswith("(the weekend: the clock is stopped); Bob: 10 days")
    assert board.clock_lines(saturday)[0]["text"] == "You: 7 days, 13 hours left (the weekend: the clock waits)"
    clock.advance(datetime(2026, 4, 6, 10, 59, tzinfo=timezone.utc) - clock.now())
    assert timed.services.clocks.sweep_clocks()["reminders"] == 0
    clock.advance(timedelta(minutes=1))                        # 80 % used: 48 h of clock left
    assert timed.services.clocks.sweep_clocks()["reminders"] == 1
    assert outbox(timed, "game.reminder")[-1].data["time_left_seconds"] == 48 * 3600
    clock.advance(datetime(2026, 4, 8, 10, 59, tzinfo=timezone.utc) - clock.now())
    assert timed.services.clocks.sweep_clocks() == {"reminders": 1, "timeouts": 0}  # 24 hours left
    clock.advance(timedelta(minutes=1))
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1


def test_a_joining_players_weekend_is_in_their_time_zone(timed, clock):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    timed.request("PUT", "/v1/players/me/preferences", {"time_zone": "Pacific/Auckland"}, key=bob["api_key"])
    reply = timed.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"open": True}],
                                     "options": {"first_seat": 2, "time_control": {"per_move_days": 1,
                                                                                   "weekend_pause": True}}},
                       key=ann["api_key"])
    assert reply.status == 201, reply.body
    clock.advance(datetime(2026, 3, 6, 12, tzinfo=timezone.utc) - clock.now())  # Friday noon UTC: Saturday 1 am there
    joined = timed.post(f"/v1/games/{reply.body['game_id']}/join", key=bob["api_key"])
    assert joined.status == 200, joined.body
    # Bob's clock waits for his Monday, 00:00 in Auckland (Sunday 11:00 UTC), then runs a day
    assert seat_clock(joined.body, 2)["deadline"] == "2026-03-09T11:00:00.000Z"


def test_a_tournament_without_vacations_keeps_clocks_running_on_vacation(timed, clock):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    reply = timed.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin",
                                           "time_control": {"per_move_days": 3}, "vacations_allowed": False,
                                           "weekend_pause": False}, key=ann["api_key"])
    assert reply.status == 201, reply.body
    t = reply.body
    assert t["time_policy"]["time_control"] == {"per_move_days": 3} and not t["time_policy"]["vacations_allowed"]
    for player in (ann, bob):
        timed.post(f"/v1/tournaments/{t['id']}/join", key=player["api_key"])
    t = timed.post(f"/v1/tournaments/{t['id']}/start", key=ann["api_key"]).body
    assert timed.get(f"/v1/tournaments/{t['id']}").body["time_policy"] == t["time_policy"]
    game_id = t["pairings"][0]["game_ids"][0]
    view = timed.view(ann, game_id)
    assert view["clock"]["policy"] == t["time_policy"]
    mover = (ann, bob)[view["to_move"] - 1]
    deadline = seat_clock(view, view["to_move"])["deadline"]
    _, _, friendly = new_timed_game(timed, {"per_move_days": 3}, players=(mover, ann if mover is bob else bob))
    assert timed.post("/v1/players/me/vacation", {"days": 2}, key=mover["api_key"]).status == 200
    assert seat_clock(timed.view(mover, game_id), view["to_move"])["deadline"] == deadline  # not paused
    assert seat_clock(timed.view(mover, friendly["game_id"]), 1)["deadline"] == "2026-03-07T09:00:00.000Z"
    clock.advance(3 * DAY)
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1
    # the mover never moved: in a tournament that is a forfeit (abandonment), not an abort
    assert timed.view(mover, game_id)["result"]["reason"] == "forfeit"


def test_tournament_policy_fields_need_a_time_control(timed):
    ann = timed.signup("Ann")
    reply = timed.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin",
                                           "weekend_pause": True}, key=ann["api_key"])
    assert reply.status == 422 and reply.body["code"] == "invalid_tournament"
    reply = timed.post("/v1/tournaments", {"name": "Cup", "game": "battleline", "format": "round_robin",
                                           "options": {"time_control": {"per_move_days": 3}},
                                           "time_control": {"per_move_days": 4}}, key=ann["api_key"])
    assert reply.status == 422 and reply.body["code"] == "invalid_tournament"


def test_the_weekend_pause_preference_is_the_default_of_the_games_a_player_creates(timed):
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    reply = timed.request("PUT", "/v1/players/me/preferences", {"weekend_pause": True}, key=ann["api_key"])
    assert reply.status == 200 and reply.body["weekend_pause"] is True
    _, _, paused = new_timed_game(timed, {"per_move_days": 3}, players=(ann, bob))
    _, _, said = new_timed_game(timed, {"per_move_days": 3, "weekend_pause": False}, players=(ann, bob))
    _, _, bobs = new_timed_game(timed, {"per_move_days": 3}, players=(bob, ann))
    assert paused["clock"]["policy"]["weekend_pause"] is True
    assert said["clock"]["policy"]["weekend_pause"] is False and bobs["clock"]["policy"]["weekend_pause"] is False
    assert timed.new_game(ann, [ann, bob])["clock"] is None  # no time control: nothing to pause


def test_a_game_keeps_the_time_zone_a_player_had_when_seated(timed, clock):
    """Moving your weekend mid-game would buy time: the zone is the one the seat was taken with."""
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    timed.request("PUT", "/v1/players/me/preferences", {"time_zone": "Europe/Paris"}, key=ann["api_key"])
    clock.advance(datetime(2026, 3, 6, 8, tzinfo=timezone.utc) - clock.now())  # a Friday morning
    ann, bob, game = new_timed_game(timed, {"per_move_days": 2, "weekend_pause": True}, players=(ann, bob))
    timed.request("PUT", "/v1/players/me/preferences", {"time_zone": "Asia/Tokyo"}, key=ann["api_key"])
    end_turn(timed, [ann, bob], game["game_id"])
    end_turn(timed, [ann, bob], game["game_id"])                # Ann's second turn
    clock.advance(timedelta(hours=8))                           # Friday 16:00 UTC: Saturday in Tokyo, not in Paris
    view = timed.view(ann, game["game_id"])
    assert view["to_move"] == 1 and seat_clock(view, 1)["paused_by"] is None
    _, _, later = new_timed_game(timed, {"per_move_days": 2, "weekend_pause": True}, players=(ann, bob))
    assert seat_clock(later, 1)["paused_by"] == "weekend"      # a new game takes the new zone
    clock.advance(timedelta(hours=8))                           # Saturday 01:00 in Paris
    assert seat_clock(timed.view(ann, game["game_id"]), 1)["paused_by"] == "weekend"


def test_the_move_list_gives_the_time_on_the_movers_clock_without_a_pause(timed, clock):
    """The time a move took is its mover's clock time, the record's ``clock_used_seconds`` (one
    computation): a day on vacation before Ann moved is no time on her clock."""
    ann, bob = timed.signup("Ann"), timed.signup("Bob")
    gid = timed.new_game(ann, [ann, bob], options={"first_seat": 1, "time_control": {"per_move_days": 3}})["game_id"]
    assert timed.post("/v1/players/me/vacation", {"days": 1}, key=ann["api_key"]).status == 200
    clock.advance(timedelta(days=1, hours=3))
    played_turns(timed, ann, bob, gid, 1)
    moved = timed.get(f"/v1/games/{gid}/record", key=ann["api_key"]).body["moves"][0]
    assert moved["clock_used_seconds"] == 3 * 3600
    rows = moves_listed(timed.get(replay_path(timed, ann, gid)).body)
    assert "took 3 hours on the clock" in rows[1], rows[1]


def test_a_game_lost_on_time_is_told_by_its_notations_result_tag_not_a_step(timed, clock):
    """A timeout is no step: the record's Battle Line notation writes the steps moves only and its
    Result tag says the game was lost on time; it reads back to those moves."""
    from chalicelib.games.battleline import notation

    ann, bob, game = new_timed_game(timed, {"per_move_days": 1})
    gid = game["game_id"]
    end_turn(timed, [ann, bob], gid)
    end_turn(timed, [ann, bob], gid)
    clock.advance(2 * DAY)
    assert timed.services.clocks.sweep_clocks()["timeouts"] == 1
    done = timed.get(f"/v1/games/{gid}/record", key=ann["api_key"]).body
    assert done["moves"][-1]["kind"] == "timeout" and done["moves"][-1]["seat"] == 1
    assert '[Result "S2 (timeout)"]' in done["notation"]
    assert done["notation"].splitlines()[-1].startswith("2. S2: ")  # Ann's timeout writes no line
    assert notation.read(done["notation"]) == [{"seat": m["seat"], "steps": m["steps"]}
                                               for m in done["moves"] if m["kind"] == "steps"]
