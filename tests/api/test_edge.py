"""What a fuzzer or an attacker sends: bodies of any depth, size and type, any method, any path.
Every answer is a 4xx problem+json with a stable code, never a 500 (issue 13)."""

import json

import pytest

from chalicelib.http.web import MAX_BODY_BYTES, MAX_JSON_DEPTH

from .test_contract import problem_of


def test_deep_json_is_a_400_problem_not_a_500(api, two):
    ann, _, game = two
    actions = f"/v1/games/{game['game_id']}/actions"
    problem_of(api.post(actions, raw="[" * 10_000, key=ann["api_key"]), 400, "invalid_json")
    problem_of(api.post(actions, raw="[" * 10_000 + "]" * 10_000, key=ann["api_key"]), 400, "invalid_json")
    nested = '{"a":' * 5_000 + "1" + "}" * 5_000
    problem_of(api.post("/v1/battleline/analyze", raw=nested), 400, "invalid_json")
    just_over = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    reply = problem_of(api.post("/v1/players", raw=just_over), 400, "invalid_json")
    assert str(MAX_JSON_DEPTH) in reply["detail"]
    assert api.view(ann, game["game_id"])["version"] == 0  # nothing was applied


def test_deep_json_within_the_limit_is_judged_by_the_schema(api):
    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    problem_of(api.post("/v1/players", raw=at_limit), 422, "invalid_request")


def test_oversized_body_is_a_413_problem(api, two):
    ann, _, game = two
    big = json.dumps({"expected_version": 0, "steps": [{"type": "pass"}], "pad": "x" * MAX_BODY_BYTES})
    problem_of(api.post(f"/v1/games/{game['game_id']}/actions", raw=big, key=ann["api_key"]), 413,
               "payload_too_large")
    problem_of(api.post("/v1/khan/card-sets/check", raw=big), 413, "payload_too_large")


def test_too_many_steps_is_a_422_problem(api, two):
    ann, _, game = two
    reply = api.act(ann, game["game_id"], 0, *[{"type": "pass"}] * 21)
    assert "steps" in problem_of(reply, 422, "invalid_request")["detail"]


@pytest.mark.parametrize("version", ["0", False, 0.0, None, [0]])
def test_expected_version_must_be_a_json_integer(api, two, version):
    ann, _, game = two
    reply = api.post(f"/v1/games/{game['game_id']}/actions",
                     {"expected_version": version, "steps": [{"type": "resign"}]}, key=ann["api_key"])
    assert "expected_version" in problem_of(reply, 422, "invalid_request")["detail"]
    assert api.view(ann, game["game_id"])["status"] == "active"


@pytest.mark.parametrize("flag", ["3", 3.0, True])
def test_a_step_flag_must_be_a_json_integer(api, two, flag):
    ann, _, game = two
    step = {"type": "play", "card": game["state"]["hand"][0], "flag": flag}
    reply = api.act(ann, game["game_id"], 0, step)
    assert "step 0: play.flag" in problem_of(reply, 422, "invalid_step")["detail"]


@pytest.mark.parametrize("field, value", [("seed", "42"), ("seed", 42.0), ("rated", "true"), ("rated", 1),
                                          ("public", 0)])
def test_create_game_fields_are_strict_json_types(api, two, field, value):
    ann, bob, _ = two
    body = {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}], field: value}
    assert field in problem_of(api.post("/v1/games", body, key=ann["api_key"]), 422, "invalid_request")["detail"]


@pytest.mark.parametrize("options", [{"match_games": "3"}, {"players": 2.0}, {"time_control": {"per_move_days": "1"}},
                                     {"time_control": {"moves": 10, "days": True}}])
def test_game_options_are_strict_json_types(api, two, options):
    ann, bob, _ = two
    body = {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}], "options": options}
    problem_of(api.post("/v1/games", body, key=ann["api_key"]), 422, "invalid_options")


def test_vacation_days_must_be_an_integer(api):
    ann = api.signup("Ann")
    problem_of(api.post("/v1/players/me/vacation", {"days": "3"}, key=ann["api_key"]), 422, "invalid_request")


@pytest.mark.parametrize("name", ["Ann\x00", "Ann\r\nBcc: x@y.z", "A\nB", "\x1b[31mred", "Tab\there", "\x7f",
                                  "evil\u202etxt.exe", "line\u2028break", "   ", ""])
def test_names_with_control_characters_are_refused(api, name):
    reply = problem_of(api.post("/v1/players", {"name": name}), 422, "invalid_request")
    assert "name" in reply["detail"]


@pytest.mark.parametrize("name", ["Ann", "安娜", "アン", "Ánh Nguyễn", "Zoë 👩‍👩‍👧", "O'Neil-Smith"])
def test_names_in_any_language_are_taken(api, name):
    assert api.post("/v1/players", {"name": name}).body["name"] == name


@pytest.mark.parametrize("email", ["a\x00b@example.org", "ann@exa\rmple.org"])
def test_email_addresses_with_control_characters_are_refused(api, email):
    problem_of(api.post("/v1/players", {"name": "Ann", "email": email}), 422, "invalid_request")


def test_a_tournament_name_with_control_characters_is_refused(api):
    ann = api.signup("Ann")
    body = {"name": "Cup\x00", "game": "battleline", "format": "round_robin"}
    problem_of(api.post("/v1/tournaments", body, key=ann["api_key"]), 422, "invalid_request")


def test_a_webhook_url_with_control_characters_is_refused(api):
    ann = api.signup("Ann")
    problem_of(api.post("/v1/webhooks", {"url": "https://exa\x00mple.com/hook"}, key=ann["api_key"]), 422,
               "invalid_request")


@pytest.mark.parametrize("method, path", [("PATCH", "/v1/games"), ("DELETE", "/v1/players"), ("PUT", "/v1/players/me"),
                                          ("PATCH", "/v1/games/g_1/actions"), ("POST", "/v1/games/g_1"),
                                          ("GET", "/v1/battleline/analyze")])
def test_a_method_a_path_does_not_take_is_a_405_problem_with_allow(api, method, path):
    reply = api.request(method, path)
    problem_of(reply, 405, "method_not_allowed")
    assert method not in reply.headers["allow"] and "OPTIONS" in reply.headers["allow"]


def test_every_operations_error_codes_are_documented_problems(api):
    from app import api as routes
    from chalicelib.kernel.errors import ERRORS

    for op in routes.operations:
        assert set(op.error_codes) <= set(ERRORS), op.operation_id
