"""Every operation, sent what a fuzzer sends: bodies nested, oversized, malformed or of the wrong
JSON types, odd path parameters and queries. Each answer is a 4xx problem+json (or an HTML page
for the HTML operations), never a 5xx, and nothing is changed by a refused request."""

import json
import types
import typing

import pytest

from app import api as routes
from chalicelib.http.web import MAX_BODY_BYTES, MAX_JSON_DEPTH, resolve

from .test_contract import problem_of

pytestmark = pytest.mark.parametrize("store", ["memory"], indirect=True)  # the HTTP edge: one store is enough

OPERATIONS = {op.operation_id: op for op in routes.operations}
WITH_BODY = sorted(op for op, spec in OPERATIONS.items() if spec.body is not None)
HOSTILE_BODIES = {
    "deep arrays": "[" * 10_000,
    "deep objects": '{"a":' * 5_000 + "1" + "}" * 5_000,
    "just too deep": "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1),
    "oversized": json.dumps({"pad": "x" * MAX_BODY_BYTES}),
    "malformed": '{"name": ',
    "not utf-8": b"\xff\xfe{}".decode("latin-1"),
    "NaN": "[NaN]",
    "Infinity": '{"expected_version": Infinity}',
    "lone surrogate": '{"name": "\\ud800"}',
    "null": "null",
    "array": "[]",
    "string": '"x"',
    "number": "1e999",
}
WRONG = {"integer": "1", "number": "1", "string": 1, "boolean": "true", "array": {}, "object": []}


@pytest.fixture
def world(api):
    """Two players, a game between them, a webhook, a tournament and a ladder, so that paths lead somewhere."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=7, options={"first_seat": 1})
    params = {"game_id": game["game_id"], "tournament_id": "t_missing", "webhook_id": "wh_missing",
              "delivery_id": "d_missing", "card_set_id": "khan-default", "token": "x", "game": "battleline",
              "ladder_id": "battleline"}
    return ann, game, params


def send(api, op, params, key, raw):
    path = op.path.format(**params)
    return api.request(op.method, path, key=key if op.auth else None, raw=raw)


def assert_refused(reply, op):
    assert 400 <= reply.status < 500, (op.operation_id, reply.status, reply.body)
    if not op.html:
        assert reply.headers["content-type"] == "application/problem+json", (op.operation_id, reply.body)
        assert reply.body["code"] and reply.body["status"] == reply.status


@pytest.mark.parametrize("operation_id", WITH_BODY)
def test_every_operation_refuses_hostile_bodies_with_a_problem(api, world, operation_id):
    ann, game, params = world
    op = OPERATIONS[operation_id]
    for name, raw in HOSTILE_BODIES.items():
        reply = send(api, op, params, ann["api_key"], raw)
        assert_refused(reply, op)
        expected = {"oversized": 413}.get(name, 400 if name not in ("null", "array", "string", "number") else None)
        if expected and reply.status not in (401, 403, 404):  # the body is read before anything else
            assert reply.status == expected, (operation_id, name, reply.body)
    assert api.view(ann, game["game_id"])["version"] == 0


def json_kinds(annotation) -> set[str]:
    """The JSON types a field's annotation takes."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return json_kinds(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(json_kinds(a) for a in typing.get_args(annotation)))
    if origin is typing.Literal:
        return {"string" if isinstance(v, str) else "integer" for v in typing.get_args(annotation)}
    simple = {int: "integer", float: "number", str: "string", bool: "boolean", list: "array", dict: "object"}
    return {simple[origin or annotation]} if (origin or annotation) in simple else set()


def valid_bodies(ann, game):
    """A body each operation would take, so that one wrong field is the only fault."""
    seats = [{"player_id": ann["id"]}, {"player_id": game["seats"][1]["player_id"]}]
    return {"createPlayer": {"name": "Cat"}, "createGame": {"game": "battleline", "seats": seats},
            "postAction": {"expected_version": 0, "steps": [{"type": "resign"}]},
            "createTournament": {"name": "Cup", "game": "battleline", "format": "swiss"},
            "createWebhook": {"url": "https://example.com/hook"}, "takeVacation": {"days": 1},
            "createLadder": {"name": "Club", "game": "battleline"},
            "challengeOnLadder": {"player_id": game["seats"][1]["player_id"]},
            "updatePreferences": {"email": [], "webhook": []},
            "analyzeBattleLine": {"seat": 1, "position": {"flags": []}}}


def wrong_typed_bodies(op, valid: dict):
    """A body with one field of the wrong JSON type at a time."""
    for field, info in resolve(op.body).model_fields.items():
        kinds = json_kinds(info.annotation)
        wrong = next((WRONG[k] for k in sorted(kinds) if WRONG[k] is not None and not kinds & {type_of(WRONG[k])}),
                     None)
        if wrong is not None:
            yield field, {**valid, field: wrong}


def type_of(value) -> str:
    return {str: "string", int: "integer", dict: "object", list: "array"}[type(value)]


@pytest.mark.parametrize("operation_id", WITH_BODY)
def test_every_operation_refuses_a_field_of_the_wrong_json_type(api, world, operation_id):
    ann, game, params = world
    op = OPERATIONS[operation_id]
    for field, body in wrong_typed_bodies(op, valid_bodies(ann, game).get(operation_id, {})):
        reply = send(api, op, params, ann["api_key"], json.dumps(body))
        assert_refused(reply, op)
    assert api.view(ann, game["game_id"])["version"] == 0


ODD_IDS = ["%00", "a" * 300, "..", "%F0%9F%92%A9", "%ED%A0%80", "g_%0D%0A", "' OR 1=1 --"]


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_every_operation_refuses_odd_path_parameters_with_a_problem(api, world, operation_id):
    ann, _, params = world
    op = OPERATIONS[operation_id]
    names = [name for name in params if "{" + name + "}" in op.path]
    if not names:
        pytest.skip("no path parameter")
    for odd in ODD_IDS:
        reply = send(api, op, {**params, **{name: odd for name in names}}, ann["api_key"], "{}")
        assert reply.status < 500, (operation_id, odd, reply.body)
        if reply.status >= 400:
            assert_refused(reply, op)


@pytest.mark.parametrize("query", ["after=-1", "after=abc", "after=1e3", "after=" + "9" * 40, "status=nope",
                                   "to_move=you", "limit=0", "limit=1e9", "seat=" + "x" * 2000, "version=0"])
def test_odd_queries_are_a_problem(api, world, query):
    ann, game, _ = world
    for path in ("/v1/games", f"/v1/games/{game['game_id']}/events", "/v1/leaderboards/battleline",
                 f"/v1/games/{game['game_id']}/board/view", "/v1/khan/card-sets/khan-default"):
        reply = api.get(f"{path}?{query}", key=ann["api_key"])
        assert reply.status < 500, (path, query, reply.body)
        if reply.status >= 400:
            problem_of(reply, reply.status, reply.body["code"])
