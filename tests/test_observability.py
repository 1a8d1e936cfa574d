"""Logs and metrics (Powertools): JSON log lines with the request id, game id and seat, never a
hand or a key; the counts of actions, conflicts, illegal steps and deliveries; EMF at the end
of a Lambda invocation."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest

from chalicelib.kernel import observability


def counted(name: str) -> float:
    return sum(observability.metrics.metric_set.get(name, {}).get("Value", []))


@pytest.fixture(autouse=True)
def fresh_metrics():
    """Powertools flushes (and empties) a metric once it holds 100 values: the counts a test compares
    start from an empty set, whatever the tests before it counted."""
    observability.metrics.clear_metrics()


@pytest.fixture
def log_lines():
    """The Powertools logger's JSON lines, as the Lambda function would write them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(observability.logger.registered_formatter)
    observability.logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    observability.logger.handlers.remove(handler)


def test_an_action_is_logged_as_json_with_request_game_and_seat_and_no_hand_or_key(api, log_lines):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    hands = {seat: api.view(p, game["game_id"])["state"]["hand"] for seat, p in ((1, ann), (2, bob))}
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    assert api.act(ann, game["game_id"], 0, step).status == 200
    accepted = [line for line in log_lines() if line["message"].startswith("action accepted")]
    assert len(accepted) == 1
    line = accepted[0]
    assert line["game_id"] == game["game_id"] and line["seat"] == 1 and line["level"] == "INFO"
    assert re.fullmatch(r"[0-9a-f-]{36}", line["request_id"])
    text = json.dumps(log_lines())
    assert ann["api_key"] not in text and bob["api_key"] not in text
    for card in hands[1] + hands[2]:
        assert not re.search(rf"\b{card}\b", text), f"{card} was logged"


def test_actions_conflicts_and_illegal_steps_are_counted(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    before = {name: counted(name) for name in observability.METRICS}
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    api.act(ann, game["game_id"], 0, step)
    api.act(ann, game["game_id"], 0, step)  # stale version
    api.act(ann, game["game_id"], 1, {"type": "draw", "deck": "troop"})  # the claim comes first
    after = {name: counted(name) - before[name] for name in observability.METRICS}
    assert after["actions"] == 1 and after["version_conflicts"] == 1 and after["illegal_actions"] == 1


def test_deliveries_and_failed_attempts_are_counted(store):
    from chalicelib.notify.dispatcher import Dispatcher
    from chalicelib.notify.messages import Message
    from chalicelib.notify.webhooks import SendResult
    from chalicelib.store.records import Player, WebhookEndpoint, WebhookSecret

    answers = iter([SendResult(200), SendResult(503)])
    dispatcher = Dispatcher(store, send=lambda target, body, headers, timeout=None: next(answers), allow_private=True)
    store.create_player(Player("p_1", "Ann", None, "2026-01-01T00:00:00Z"), "h", None)
    store.put_webhook(WebhookEndpoint("wh_1", "p_1", "http://127.0.0.1:9/hook", None,
                                      [WebhookSecret("salt-1", "2026-01-01T00:00:00Z")], None, "now"))
    before = counted("deliveries"), counted("delivery_failures")
    for n in (1, 2):
        dispatcher.dispatch(Message(f"m{n}", "game.action", "p_1", {"game_id": "g_1", "game": "battleline", "version": n,
                                                                      "seat": 1, "events": [], "to_move": 2},
                                    "2026-01-01T00:00:00Z"))
    assert (counted("deliveries") - before[0], counted("delivery_failures") - before[1]) == (1, 1)


def test_metrics_are_flushed_as_embedded_metric_format_when_a_lambda_invocation_ends(monkeypatch, capsys):
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "battleline-api")

    class Context:
        aws_request_id = "req-1"
        function_name = "battleline-api"

    class Event:
        lambda_context = Context()

    def handler(event):
        observability.count("actions")
        return "done"

    observability.metrics.clear_metrics()
    assert observability.middleware(Event(), handler) == "done"
    emf = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line]
    assert emf and emf[-1]["actions"] == [1.0]
    assert emf[-1]["_aws"]["CloudWatchMetrics"][0]["Namespace"] == "Battleline"
    assert observability.metrics.metric_set == {}
