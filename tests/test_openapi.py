"""openapi.yaml is generated from the code (`make openapi`) and must not drift from it."""

import yaml
from openapi_spec_validator import validate

from devtools import openapi
from devtools.dynamodb_local import ROOT


def test_committed_openapi_matches_the_code():
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == openapi.render(), "openapi.yaml is stale: run `make openapi` and commit it"


def test_openapi_is_a_valid_3_1_document():
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_every_contract_operation_is_documented():
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    ids = {op["operationId"]: (method, path) for path, ops in document["paths"].items() for method, op in ops.items()}
    assert ids == {
        "createPlayer": ("post", "/v1/players"),
        "getMe": ("get", "/v1/players/me"),
        "getPlayer": ("get", "/v1/players/{player_id}"),
        "findPlayers": ("get", "/v1/players"),
        "rotateApiKey": ("post", "/v1/players/me/api-key"),
        "revokeApiKey": ("delete", "/v1/players/me/api-key"),
        "recoverAccount": ("post", "/v1/players/recover"),
        "showRecoveryLink": ("get", "/v1/recover/{token}"),
        "recoverWithLink": ("post", "/v1/recover/{token}"),
        "listTournaments": ("get", "/v1/tournaments"),
        "takeVacation": ("post", "/v1/players/me/vacation"),
        "endVacation": ("delete", "/v1/players/me/vacation"),
        "listBlocks": ("get", "/v1/players/me/blocks"),
        "blockPlayer": ("put", "/v1/players/me/blocks/{player_id}"),
        "unblockPlayer": ("delete", "/v1/players/me/blocks/{player_id}"),
        "getLeaderboard": ("get", "/v1/leaderboards/{game}"),
        "createTournament": ("post", "/v1/tournaments"),
        "getTournament": ("get", "/v1/tournaments/{tournament_id}"),
        "joinTournament": ("post", "/v1/tournaments/{tournament_id}/join"),
        "withdrawFromTournament": ("post", "/v1/tournaments/{tournament_id}/withdraw"),
        "startTournament": ("post", "/v1/tournaments/{tournament_id}/start"),
        "getStandings": ("get", "/v1/tournaments/{tournament_id}/standings"),
        "getStandingsPage": ("get", "/v1/tournaments/{tournament_id}/standings/page"),
        "createLadder": ("post", "/v1/ladders"),
        "listLadders": ("get", "/v1/ladders"),
        "getLadder": ("get", "/v1/ladders/{ladder_id}"),
        "joinLadder": ("post", "/v1/ladders/{ladder_id}/join"),
        "challengeOnLadder": ("post", "/v1/ladders/{ladder_id}/challenges"),
        "createGame": ("post", "/v1/games"),
        "getGame": ("get", "/v1/games/{game_id}"),
        "listGames": ("get", "/v1/games"),
        "postAction": ("post", "/v1/games/{game_id}/actions"),
        "getNotes": ("get", "/v1/games/{game_id}/notes"),
        "putNotes": ("put", "/v1/games/{game_id}/notes"),
        "getGameRecord": ("get", "/v1/games/{game_id}/record"),
        "listGameRecords": ("get", "/v1/players/me/records"),
        "getBoardNotes": ("get", "/v1/games/{game_id}/board/notes"),
        "putBoardNotes": ("put", "/v1/games/{game_id}/board/notes"),
        "getBoardLink": ("get", "/v1/games/{game_id}/board-link"),
        "getBoard": ("get", "/v1/games/{game_id}/board"),
        "getBoardView": ("get", "/v1/games/{game_id}/board/view"),
        "getBoardReplay": ("get", "/v1/games/{game_id}/board/replay"),
        "playOnBoard": ("post", "/v1/games/{game_id}/board/steps"),
        "listEvents": ("get", "/v1/games/{game_id}/events"),
        "analyzeBattleLine": ("post", "/v1/battleline/analyze"),
        "listKhanCardSets": ("get", "/v1/khan/card-sets"),
        "getKhanCardSet": ("get", "/v1/khan/card-sets/{card_set_id}"),
        "checkKhanCardSet": ("post", "/v1/khan/card-sets/check"),
        "createWebhook": ("post", "/v1/webhooks"),
        "listWebhooks": ("get", "/v1/webhooks"),
        "deleteWebhook": ("delete", "/v1/webhooks/{webhook_id}"),
        "rotateWebhookSecret": ("post", "/v1/webhooks/{webhook_id}/rotate"),
        "listWebhookDeliveries": ("get", "/v1/webhooks/{webhook_id}/deliveries"),
        "redeliverWebhook": ("post", "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"),
        "getPreferences": ("get", "/v1/players/me/preferences"),
        "updatePreferences": ("put", "/v1/players/me/preferences"),
        "showStepLink": ("get", "/v1/links/{token}"),
        "playStepLink": ("post", "/v1/links/{token}"),
        "showUnsubscribe": ("get", "/v1/unsubscribe/{token}"),
        "acceptGame": ("post", "/v1/games/{game_id}/accept"),
        "declineGame": ("post", "/v1/games/{game_id}/decline"),
        "abortGame": ("post", "/v1/games/{game_id}/abort"),
        "listOpenGames": ("get", "/v1/open-games"),
        "joinGame": ("post", "/v1/games/{game_id}/join"),
        "rematchGame": ("post", "/v1/games/{game_id}/rematch"),
        "showAnswerLink": ("get", "/v1/answers/{token}"),
        "answerGame": ("post", "/v1/answers/{token}"),
        "showInvitation": ("get", "/v1/invitations/{token}"),
        "acceptInvitation": ("post", "/v1/invitations/{token}"),
        "unsubscribe": ("post", "/v1/unsubscribe/{token}"),
    }


def test_every_error_code_an_operation_can_raise_is_documented():
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    action = document["paths"]["/v1/games/{game_id}/actions"]["post"]["responses"]
    codes = {code for response in action.values()
             for code in response.get("content", {}).get("application/problem+json", {}).get("schema", {})
             .get("properties", {}).get("code", {}).get("enum", [])}
    assert {"version_conflict", "illegal_action", "not_your_turn", "invalid_card", "unauthorized",
            "idempotency_key_reused", "game_not_found", "not_seated"} <= codes


def test_an_ndjson_list_declares_its_next_cursor_header():
    """listGameRecords answers NDJSON with the next page's cursor in ``Next-Cursor``
    (tests/api/test_game_records.py reads it): the document says so, as it does ETag and Retry-After."""
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    ok = document["paths"]["/v1/players/me/records"]["get"]["responses"]["200"]
    assert "application/x-ndjson" in ok["content"]
    assert ok["headers"]["Next-Cursor"]["schema"] == {"type": "string"}


def test_an_idempotent_operation_that_answers_a_file_documents_both_headers():
    """The success's headers add up: an idempotent operation keeps the file's Content-Disposition and
    Next-Cursor beside its Idempotent-Replayed (none does today; the generator must not drop them when
    one does)."""
    from chalicelib.http.web import Operation

    op = Operation("exportThings", "POST", "/v1/things/export", "Export things", None, idempotent=True,
                   files=("text/csv", "application/x-ndjson"))
    headers = openapi.responses(op)["200"]["headers"]
    assert {"Content-Disposition", "Next-Cursor", "Idempotent-Replayed"} <= set(headers)


def test_every_webhook_type_is_a_row_of_the_notifications_table():
    """docs/notifications.md's message table names every message type openapi.yaml's ``webhooks`` document
    (a receiver reading the table alone learns every type that may come)."""
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    rows = {line.split("|")[1].strip().strip("`") for line in (ROOT / "docs/notifications.md").read_text().splitlines()
            if line.startswith("| `")}
    assert set(document["webhooks"]) - rows == set()


def test_every_problem_member_the_server_sends_is_documented():
    """docs/clients.md promises every member a problem carries beyond RFC 9457's is in openapi.yaml's
    ``Problem``: each keyword a refusal is raised with (``ServiceError``/``Retryable``'s extras, a step's
    ``details``) is one of its properties. The suite's answers are checked against ``Problem`` closed
    (tests/openapi_contract.py), so one that a test makes and this misses fails there too."""
    import ast

    problem = yaml.safe_load((ROOT / "openapi.yaml").read_text())["components"]["schemas"]["Problem"]
    sent: dict[str, str] = {}
    for path in (ROOT / "chalicelib").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in ("ServiceError", "Retryable"):
                members = [k.arg for k in node.keywords if k.arg is not None]
            elif name == "IllegalStep":
                members = [key.value for k in node.keywords if k.arg == "details" and isinstance(k.value, ast.Dict)
                           for key in k.value.keys if isinstance(key, ast.Constant)]
            else:
                continue
            sent.update({member: f"{path.relative_to(ROOT)}:{node.lineno}" for member in members})
    assert {m: where for m, where in sent.items() if m not in problem["properties"]} == {}
