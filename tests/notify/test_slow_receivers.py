"""One slow or dead webhook receiver costs the others nothing (docs/notifications.md, "A slow
receiver"): a change's first attempts go out concurrently, one lane per endpoint; a first attempt
waits at most FIRST_TIMEOUT_SECONDS and the change no longer than that; what was not answered in
time (or not tried: the endpoint timed out lately, or no time was left) is pending on the retry
schedule and delivered later with the same webhook-id.

Nothing here measures wall-clock time: the fake sender counts calls and the timeouts it was given,
and ``Dispatcher.lanes.ticks`` is a fake the sender advances by the timeout, as a black hole would take."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from random import Random
from types import SimpleNamespace

import pytest

from chalicelib.config import build_services
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, CreateWebhookRequest, PlayerSeat
from chalicelib.notify import stream
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.lanes import COOL_OFF, LEAST_WAIT
from chalicelib.notify.webhooks import FIRST_TIMEOUT_SECONDS, RETRY_SCHEDULE, TIMEOUT_SECONDS, SendResult

from ..fakes import FakeClock, start_game
from .test_stream import outbox, record

WAIT = 30.0  # seconds an event is waited for: only a broken dispatcher (one lane after another) waits it out


class Ticks:
    """A fake monotonic clock (Lanes.ticks), advanced by the fake sender."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def wait(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


class Sender:
    """The webhook requests, by the URL's path: ``answers[path]`` says what one gets (a function of
    the call, or 200). Each call is kept: (path, webhook-id, timeout, ticks when made)."""

    def __init__(self, ticks: Ticks) -> None:
        self.ticks = ticks
        self.answers: dict = {}
        self.calls: list[tuple[str, str, float, float]] = []
        self.lock = threading.Lock()

    def __call__(self, target, body, headers, timeout=TIMEOUT_SECONDS) -> SendResult:
        with self.lock:
            self.calls.append((target.path, headers["webhook-id"], timeout, self.ticks()))
        answer = self.answers.get(target.path)
        return answer(timeout) if answer else SendResult(200)

    def to(self, path: str) -> list[tuple[str, str, float, float]]:
        return [call for call in self.calls if call[0] == path]


def black_hole(ticks: Ticks):
    """No answer: the request takes its whole timeout."""
    def answer(timeout):
        ticks.wait(timeout)
        return SendResult(None, error="ReadTimeoutError", timed_out=True)
    return answer


@pytest.fixture
def world(store, monkeypatch):
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")
    clock = FakeClock(datetime.now(timezone.utc).replace(microsecond=0))
    ticks = Ticks()
    sender = Sender(ticks)
    services = build_services(store, clock, outlets=Outlets(send=sender, rng=Random(1), allow_private=True))
    services.dispatcher.lanes.ticks = ticks
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name), None).body["api_key"]) for name in ("Ann", "Bob"))
    return SimpleNamespace(services=services, dispatcher=services.dispatcher, clock=clock, ticks=ticks,
                           sender=sender, ann=ann, bob=bob)


def hook(world, player, path: str) -> str:
    return world.services.webhooks.create_webhook(player, CreateWebhookRequest(url=f"http://127.0.0.1:8701{path}"))["id"]


def deliveries(world, player, hook_id: str) -> list[dict]:
    return world.services.webhooks.list_webhook_deliveries(player, hook_id)["deliveries"]


def new_game(world, ann, bob) -> dict:
    request = CreateGameRequest(game="battleline", seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)],
                                options={"first_seat": 1})
    return start_game(world.services, ann, request, [ann, bob])


def ann_moves(world, game: dict) -> None:
    steps = [{"type": "play", "card": game["state"]["hand"][0], "flag": 1}, {"type": "claim", "flags": []},
             {"type": "draw", "deck": "troop"}]
    world.services.games.post_action(world.ann, game["game_id"], ActionRequest(expected_version=0, steps=steps), None)


def test_a_fast_receivers_delivery_is_not_held_behind_a_slow_ones(world):
    slow, fast = hook(world, world.bob, "/slow"), hook(world, world.ann, "/fast")
    slow_started, fast_sent, waited = threading.Event(), threading.Event(), []

    def slow_answer(timeout):  # in flight until the fast receiver has been sent to
        slow_started.set()
        waited.append(fast_sent.wait(WAIT))
        return SendResult(None, error="ReadTimeoutError", timed_out=True)

    def fast_answer(timeout):  # sent while the slow one is in flight
        waited.append(slow_started.wait(WAIT))
        fast_sent.set()
        return SendResult(200)

    world.sender.answers = {"/slow": slow_answer, "/fast": fast_answer}
    new_game(world, world.ann, world.bob)  # invited to both; Ann's turn
    world.dispatcher.drain_outbox()
    assert waited and all(waited)  # each request was made while the other one was in flight
    assert {d["status"] for d in deliveries(world, world.ann, fast)} == {"delivered"}
    [pending] = deliveries(world, world.bob, slow)
    assert pending["status"] == "pending" and len(pending["attempts"]) == 1
    assert pending["attempts"][0]["status"] is None and pending["attempts"][0]["error"] == "ReadTimeoutError"
    # Every first attempt waited the first attempt's (shorter) time at most.
    assert {timeout for _, _, timeout, _ in world.sender.calls} == {FIRST_TIMEOUT_SECONDS}


def test_the_slow_receivers_message_is_delivered_later_with_the_same_webhook_id(world):
    slow = hook(world, world.bob, "/slow")
    world.sender.answers = {"/slow": black_hole(world.ticks)}
    new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()
    [first] = world.sender.to("/slow")
    world.sender.answers = {}  # it answers in time now
    world.clock.advance(RETRY_SCHEDULE[0] * 1.2)  # past the first wait and its jitter
    assert world.dispatcher.run_due() == 1
    [delivery] = deliveries(world, world.bob, slow)
    assert delivery["status"] == "delivered" and [a["status"] for a in delivery["attempts"]] == [None, 200]
    first_try, retry = world.sender.to("/slow")
    assert first_try == first and first_try[1] == retry[1] == delivery["id"]  # the same webhook-id
    assert (first_try[2], retry[2]) == (FIRST_TIMEOUT_SECONDS, TIMEOUT_SECONDS)  # a retry waits longer


def test_an_endpoint_that_timed_out_gets_its_next_first_attempts_on_the_schedule(world):
    slow, fast = hook(world, world.bob, "/slow"), hook(world, world.ann, "/fast")
    world.sender.answers = {"/slow": black_hole(world.ticks)}
    game = new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()
    ann_moves(world, game)  # game.action and game.your_turn for Bob's slow endpoint
    world.dispatcher.drain_outbox()
    assert len(world.sender.to("/slow")) == 1  # the first change's only: nothing more waited on it
    waiting = {d["type"]: d for d in deliveries(world, world.bob, slow)}
    assert set(waiting) == {"game.invited", "game.action", "game.your_turn"}
    for kind in ("game.action", "game.your_turn"):  # recorded, not tried: due at once, none lost
        assert waiting[kind]["status"] == "pending" and waiting[kind]["attempts"] == []
        assert waiting[kind]["next_attempt_at"] <= waiting[kind]["created_at"]
    assert {d["status"] for d in deliveries(world, world.ann, fast)} == {"delivered"}
    # The retries make them, each with its own webhook-id, once the endpoint answers again.
    world.sender.answers = {}
    world.clock.advance(RETRY_SCHEDULE[0] * 1.2)
    assert world.dispatcher.run_due() == 3
    assert {d["status"] for d in deliveries(world, world.bob, slow)} == {"delivered"}
    assert sorted(call[1] for call in world.sender.to("/slow")[1:]) == sorted(d["id"] for d in waiting.values())


def test_the_cool_off_ends(world):
    slow = hook(world, world.bob, "/slow")
    world.sender.answers = {"/slow": black_hole(world.ticks)}
    game = new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()
    world.sender.answers = {}
    world.ticks.wait(COOL_OFF)
    ann_moves(world, game)
    world.dispatcher.drain_outbox()
    assert len(world.sender.to("/slow")) == 3  # tried at once again
    assert [d["status"] for d in deliveries(world, world.bob, slow) if d["type"] != "game.invited"] == ["delivered"] * 2


def one_lane_at_a_time(monkeypatch):
    """The lanes one after another: the fake clock then adds up every wait exactly (the worst case;
    concurrent lanes only end sooner)."""
    from chalicelib.notify import lanes

    monkeypatch.setattr(lanes, "LANES", 1)


def test_a_change_waits_for_its_first_attempts_a_bounded_time_whatever_the_endpoints(world, monkeypatch):
    one_lane_at_a_time(monkeypatch)
    dead = [hook(world, world.bob, f"/dead{n}") for n in range(12)]
    fast = hook(world, world.ann, "/fast")
    world.sender.answers = {f"/dead{n}": black_hole(world.ticks) for n in range(12)}
    start = world.ticks()
    new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()
    # Every request ended within the first attempt's time of the change's start.
    assert all(made + timeout <= start + FIRST_TIMEOUT_SECONDS for _, _, timeout, made in world.sender.calls)
    assert len([c for c in world.sender.calls if c[0].startswith("/dead")]) <= FIRST_TIMEOUT_SECONDS / LEAST_WAIT
    # ... and each endpoint's message is recorded, pending for the retries; the fast one's delivered.
    for hook_id in dead:
        [delivery] = deliveries(world, world.bob, hook_id)
        assert delivery["status"] == "pending" and len(delivery["attempts"]) <= 1
    assert {d["status"] for d in deliveries(world, world.ann, fast)} == {"delivered"}


def test_a_batch_of_25_changes_stops_waiting_on_first_attempts_before_the_consumers_timeout(world):
    """25 changes, each with a black-holed endpoint of its own (so no cool-off helps): as the stream
    consumer in AWS sets it, first attempts are made only until RESERVE_SECONDS before the timeout."""
    world.dispatcher.first_attempts_until = world.ticks() + 60 - stream.RESERVE_SECONDS
    hooks = []
    for n in range(25):
        player = world.services.players.authenticate(world.services.players.create_player(
            CreatePlayerRequest(name=f"P{n}"), None).body["api_key"])
        hooks.append((player, hook(world, player, f"/dead{n}")))
        world.sender.answers[f"/dead{n}"] = black_hole(world.ticks)
        new_game(world, world.ann, player)
    world.dispatcher.drain_outbox()
    assert all(made + timeout <= world.dispatcher.first_attempts_until for _, _, timeout, made in world.sender.calls)
    assert world.ticks() <= world.dispatcher.first_attempts_until  # the batch's webhook waits, in all
    assert len(world.sender.calls) == (60 - stream.RESERVE_SECONDS) // FIRST_TIMEOUT_SECONDS
    for player, hook_id in hooks:  # none lost: each pending (tried once, or not yet)
        [delivery] = deliveries(world, player, hook_id)
        assert delivery["status"] == "pending" and len(delivery["attempts"]) <= 1
    world.sender.answers = {}
    world.clock.advance(RETRY_SCHEDULE[0] * 1.2)
    assert world.dispatcher.run_due() == 25
    assert all(deliveries(world, player, hook_id)[0]["status"] == "delivered" for player, hook_id in hooks)


def test_the_stream_consumer_bounds_first_attempts_by_the_time_lambda_leaves_it(world):
    context = SimpleNamespace(get_remaining_time_in_millis=lambda: 60_000)
    world.dispatcher.handlers["server.test"] = lambda message: None
    stream.handle_batch({"Records": [record("100", outbox("msg_1"))]}, context, world.dispatcher)
    assert world.dispatcher.first_attempts_until == world.ticks() + 60 - stream.RESERVE_SECONDS


def test_a_slow_receivers_retry_does_not_hold_a_fast_ones(world):
    slow, fast = hook(world, world.bob, "/slow"), hook(world, world.ann, "/fast")
    world.sender.answers = {"/slow": lambda timeout: SendResult(503), "/fast": lambda timeout: SendResult(503)}
    new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()  # every first attempt failed at once: all pending
    slow_started, fast_sent, waited = threading.Event(), threading.Event(), []

    def slow_answer(timeout):
        slow_started.set()
        waited.append(fast_sent.wait(WAIT))
        return SendResult(None, error="ReadTimeoutError", timed_out=True)

    def fast_answer(timeout):
        waited.append(slow_started.wait(WAIT))
        fast_sent.set()
        return SendResult(200)

    world.sender.answers = {"/slow": slow_answer, "/fast": fast_answer}
    world.clock.advance(RETRY_SCHEDULE[0] * 1.2)
    assert world.dispatcher.run_due() == 3
    assert waited and all(waited)
    assert {d["status"] for d in deliveries(world, world.ann, fast)} == {"delivered"}
    assert [len(d["attempts"]) for d in deliveries(world, world.bob, slow)] == [2]


def test_a_run_of_the_retries_waits_a_bounded_time_and_leaves_the_rest_for_the_next(world, monkeypatch):
    from chalicelib.notify.dispatcher import LEASE, RETRIES_SECONDS

    one_lane_at_a_time(monkeypatch)
    dead = [hook(world, world.bob, f"/dead{n}") for n in range(12)]
    world.sender.answers = {f"/dead{n}": lambda timeout: SendResult(503) for n in range(12)}
    new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()
    world.sender.calls.clear()
    world.sender.answers = {f"/dead{n}": black_hole(world.ticks) for n in range(12)}
    world.clock.advance(RETRY_SCHEDULE[0] * 1.2)
    start = world.ticks()
    world.dispatcher.run_due()
    assert world.sender.calls and all(made + timeout <= start + RETRIES_SECONDS
                                      for _, _, timeout, made in world.sender.calls)
    tried = {call[0] for call in world.sender.calls}
    assert len(tried) == len(world.sender.calls) < 12  # one request an endpoint at most, not all of them
    for n, hook_id in enumerate(dead):  # the ones not tried are as they were: one attempt, pending
        [delivery] = deliveries(world, world.bob, hook_id)
        assert delivery["status"] == "pending"
        assert len(delivery["attempts"]) == (2 if f"/dead{n}" in tried else 1)
    world.sender.calls.clear()
    world.sender.answers = {}
    world.clock.advance(LEASE + RETRY_SCHEDULE[1] * 1.2)  # the leases are over, and the next waits
    world.dispatcher.run_due()
    assert all(deliveries(world, world.bob, hook_id)[0]["status"] == "delivered" for hook_id in dead)


def late(ticks: Ticks, seconds: float):
    """An answer in time, but late: 200 after ``seconds``."""
    def answer(timeout):
        ticks.wait(min(seconds, timeout))
        return SendResult(200)
    return answer


def test_an_endpoint_that_answers_just_in_time_but_slowly_is_put_aside_as_one_that_timed_out(world):
    """A receiver that always answers 200 after 4.9 s (under the first attempt's 5 s) held every change 4.9 s:
    an answer slower than SLOW_ANSWER puts the endpoint aside for COOL_OFF as a timeout does, and its next
    message in the same change is not made with the little time left (a timeout recorded) but goes to the
    schedule untried."""
    from chalicelib.notify.lanes import SLOW_ANSWER

    slow, fast = hook(world, world.bob, "/slow"), hook(world, world.ann, "/fast")
    world.sender.answers = {"/slow": late(world.ticks, FIRST_TIMEOUT_SECONDS - 0.1)}
    game = new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()
    [invited] = deliveries(world, world.bob, slow)
    assert invited["status"] == "delivered"  # it did answer
    ann_moves(world, game)  # game.action and game.your_turn for Bob's slow endpoint
    before = world.ticks()
    world.dispatcher.drain_outbox()
    assert world.ticks() - before < SLOW_ANSWER  # the change did not wait on it again
    assert len(world.sender.to("/slow")) == 1
    waiting = {d["type"]: d for d in deliveries(world, world.bob, slow)}
    for kind in ("game.action", "game.your_turn"):
        assert waiting[kind]["status"] == "pending" and waiting[kind]["attempts"] == []
    assert {d["status"] for d in deliveries(world, world.ann, fast)} == {"delivered"}


def test_a_slow_answer_puts_the_lanes_next_message_on_the_schedule_untried(world):
    slow = hook(world, world.bob, "/slow")
    world.sender.answers = {"/slow": late(world.ticks, 3.0)}
    game = new_game(world, world.ann, world.bob)
    world.dispatcher.drain_outbox()
    world.ticks.wait(COOL_OFF + 1)  # the cool-off from the invitation's slow answer is over
    ann_moves(world, game)  # two messages for the endpoint in one change
    world.dispatcher.drain_outbox()
    waiting = {d["type"]: d for d in deliveries(world, world.bob, slow)}
    assert waiting["game.action"]["status"] == "delivered"
    assert waiting["game.your_turn"]["status"] == "pending" and waiting["game.your_turn"]["attempts"] == []
