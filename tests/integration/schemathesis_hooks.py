"""schemathesis hooks for tests/integration/test_schemathesis.py (loaded through SCHEMATHESIS_HOOKS).

devtools/fuzz.py signs up the run's player ("Fuzz") and its opponent ("Buzz") and starts a game
between them (path.game_id of every request). The hooks keep those alive for the whole run, so
that every signed-in operation is tested past the auth check and the game's operations past
"the game is over": the key-ending operations go with a throwaway player's key, the requests
that would end the game (abort, decline, resign) go to a spare game, and every other board
request goes with the fuzz player's real board link. They also count every
answer by operation, status and problem code (devtools/fuzz.py reads the count).
"""

import json
import os
from urllib.parse import parse_qs, urlsplit

import requests
import schemathesis

from devtools.fuzz import POSITIVE_DATA_REFUSALS, model_rules_broken

# Set by devtools/fuzz.py.
FUZZ_URL, FUZZ_API_KEY, FUZZ_PLAYER_ID = "FUZZ_URL", "FUZZ_API_KEY", "FUZZ_PLAYER_ID"
FUZZ_OPPONENT_KEY, FUZZ_OPPONENT_ID, FUZZ_GAME_ID = "FUZZ_OPPONENT_KEY", "FUZZ_OPPONENT_ID", "FUZZ_GAME_ID"
STATUS_LOG = "FUZZ_STATUS_LOG"  # a file: one "operationId status code seconds" line a response

KEY_ENDING = ["revokeApiKey",  # every key of the player stops working at once
              "rotateApiKey"]  # the old key stops once the new one is used (24 hours at most)
GAME_ENDING = ("abortGame", "declineGame")  # and postAction with a resign step
OPPONENT_SEAT = 2


def operation_id(case) -> str:
    return case.operation.schema.get_operation_id(case.operation) or case.operation.label


def bearer(case, api_key: str) -> None:
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {api_key}"}


def call(method: str, path: str, api_key: str, body: dict | None = None) -> dict:
    """One request of the hooks' own (never checked by schemathesis); an error ends the run."""
    answer = requests.request(method, f"{os.environ[FUZZ_URL]}{path}", json=body, timeout=10,
                              headers={"Authorization": f"Bearer {api_key}"} if api_key else {})
    if not answer.ok:
        raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text}")
    return answer.json() if answer.content else {}


@schemathesis.auth(refresh_interval=None).apply_to(operation_id=KEY_ENDING)
class ThrowawayPlayer:
    """A key-ending operation's request goes with the key of a player signed up for it alone."""

    def get(self, case, ctx):
        return call("POST", "/v1/players", "", {"name": "Throwaway"})["api_key"]

    def set(self, case, api_key, ctx):
        bearer(case, api_key)


@schemathesis.auth(refresh_interval=None)
class FuzzPlayer:
    """Every other request goes with the run's player's key (registered after ThrowawayPlayer:
    the first provider that answers wins)."""

    def get(self, case, ctx):
        return os.environ[FUZZ_API_KEY]

    def set(self, case, api_key, ctx):
        bearer(case, api_key)


SPARE_GAMES: dict[bool, tuple[str, str]] = {}  # started or not -> (game id, the invited player's key)


def spare_game(started: bool) -> tuple[str, str]:
    """A game between two players signed up for it, one inviting the other (who has accepted, if
    ``started``): a request that would end the run's game goes there, with the invited player's
    key, until one ends it. Two new players, as the fuzz player may have blocked its opponent or
    turned challenges down by now."""
    if started not in SPARE_GAMES:
        host, guest = (call("POST", "/v1/players", "", {"name": name}) for name in ("Host", "Guest"))
        game = call("POST", "/v1/games", host["api_key"],
                    {"game": "battleline", "options": {"first_seat": 1},
                     "seats": [{"player_id": guest["id"]}, {"player_id": host["id"]}]})
        if started:
            call("POST", f"/v1/games/{game['game_id']}/accept", guest["api_key"])
        SPARE_GAMES[started] = (game["game_id"], guest["api_key"])
    return SPARE_GAMES[started]


def resigns(case) -> bool:
    """postAction's ``steps`` or playOnBoard's ``step`` or ``steps`` resign."""
    body = case.body if isinstance(case.body, dict) else {}
    steps = [*(body.get("steps") if isinstance(body.get("steps"), list) else ()), body.get("step")]
    return any(isinstance(step, dict) and step.get("type") == "resign" for step in steps)


BOARD = ("getBoard", "getBoardView", "getBoardReplay", "getBoardNotes", "putBoardNotes", "playOnBoard")
BOARD_TOKEN: list[str] = []  # the fuzz player's board link token for the run's game (query ``seat``)
BOARD_CALLS: list[int] = [0]


def board_token() -> str:
    if not BOARD_TOKEN:
        url = call("GET", f"/v1/games/{os.environ[FUZZ_GAME_ID]}/board-link", os.environ[FUZZ_API_KEY])["url"]
        BOARD_TOKEN[:] = parse_qs(urlsplit(url).query)["seat"]
    return BOARD_TOKEN[0]


GAME_VERSION: list[int] = []  # the run's game's version, as last seen


def game_version(fresh: bool = False) -> int:
    if fresh or not GAME_VERSION:
        GAME_VERSION[:] = [call("GET", f"/v1/games/{os.environ[FUZZ_GAME_ID]}", os.environ[FUZZ_API_KEY])["version"]]
    return GAME_VERSION[0]


@schemathesis.hook
def before_call(ctx, case, kwargs):
    """A signed-in request for the run's game: if it would end the game, it goes to a spare game
    instead. A move at version 0 (nearly every one the fuzzer makes: always stale, the game being
    under way) is made at the game's version instead, so that its steps reach the rules, not only
    "version conflict" (any other version is sent as it is: stale, most of the time)."""
    operation = operation_id(case)
    if (case.path_parameters or {}).get("game_id") != os.environ.get(FUZZ_GAME_ID):
        return
    if operation in BOARD:
        board_call(operation, case)
    if (case.headers or {}).get("Authorization") != f"Bearer {os.environ[FUZZ_API_KEY]}":
        return
    if operation in GAME_ENDING or (operation == "postAction" and resigns(case)):
        game_id, api_key = spare_game(started=operation == "postAction")
        case.path_parameters = {**case.path_parameters, "game_id": game_id}
        bearer(case, api_key)
    elif operation == "postAction":
        at_game_version(case)


def board_call(operation: str, case) -> None:
    """Every other board request with a made-up link token (query ``seat``) gets the fuzz player's
    real one (but a resignation), so that the board is tested past "the link is not valid"; a
    board move at version 0 is made at the game's version, as postAction's."""
    if not isinstance(case.query, dict) or not isinstance(case.query.get("seat"), str) or resigns(case):
        return
    BOARD_CALLS[0] += 1
    if BOARD_CALLS[0] % 2:
        case.query = {**case.query, "seat": board_token()}
        if operation == "playOnBoard":
            at_game_version(case)


def at_game_version(case) -> None:
    """A move made at version 0 (always stale once the game is under way) is made at the game's
    version instead; any other version is sent as it is."""
    if isinstance(case.body, dict) and case.body.get("expected_version") == 0:
        case.body = {**case.body, "expected_version": game_version()}


def opponent_moves(game_id: str) -> None:
    """After the fuzz player's move, the opponent plays legal steps until it is the fuzz player's
    turn again: the game goes on (and postAction is not refused as "not your turn" from then on)."""
    for _ in range(20):
        view = call("GET", f"/v1/games/{game_id}", os.environ[FUZZ_OPPONENT_KEY])
        GAME_VERSION[:] = [view["version"]]
        steps = [step for step in view.get("legal_steps") or () if step.get("type") != "resign"]
        if view["status"] != "active" or view.get("to_move") != OPPONENT_SEAT or not steps:
            return
        call("POST", f"/v1/games/{game_id}/actions", os.environ[FUZZ_OPPONENT_KEY],
             {"expected_version": view["version"], "steps": [steps[0]]})


def problem_code(response) -> str:
    if (response.headers.get("content-type") or [""])[0] != "application/problem+json":
        return "-"
    try:
        return str(json.loads(response.content).get("code") or "-")
    except ValueError:
        return "-"


@schemathesis.hook
def after_call(ctx, case, response):
    """Counts every answer by operation, status and problem code, so that the run can tell an
    operation tested only up to the auth check (401/403 alone) from one that reached its logic;
    lets the opponent answer a move in the run's game; forgets a spare game once it is ended."""
    operation, game_id = operation_id(case), (case.path_parameters or {}).get("game_id")
    code = problem_code(response)
    if response.status_code == 200 and operation in (*GAME_ENDING, "postAction"):
        for started, (spare, _key) in list(SPARE_GAMES.items()):
            if spare == game_id:
                del SPARE_GAMES[started]
    if operation in ("postAction", "playOnBoard") and game_id == os.environ.get(FUZZ_GAME_ID):
        if response.status_code == 200:
            opponent_moves(game_id)
        elif code == "version_conflict":
            game_version(fresh=True)
    path = os.environ.get(STATUS_LOG)
    # Not the requests schemathesis sends with another method (405; 204 for OPTIONS): those are
    # answered before any auth check, and are not the operation's.
    if path and case.method.upper() == case.operation.method.upper():
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{operation} {response.status_code} {code} {response.elapsed:.4f}\n")


@schemathesis.check
def errors_are_problem_json(ctx, response, case):
    """Every error answer, whatever was sent, is application/problem+json with a stable code and
    its own status, never a stack trace (a page only for a client that asked for HTML)."""
    if response.status_code < 400:
        return None
    kind = (response.headers.get("content-type") or [""])[0]
    accept = str((case.headers or {}).get("Accept", ""))
    if kind.startswith("text/html") and "text/html" in accept:
        return None
    if kind != "application/problem+json":
        raise AssertionError(f"{response.status_code} answered as {kind!r}, not application/problem+json")
    problem = json.loads(response.content)
    if not problem.get("code") or problem.get("status") != response.status_code:
        raise AssertionError(f"not a problem with a code and its status: {problem}")
    if "Traceback" in problem.get("detail", ""):
        raise AssertionError("a stack trace in a problem's detail")
    return None


@schemathesis.check
def positive_data_refused_only_by_listed_rules(ctx, response, case):
    """A schema-valid request (schemathesis' positive data) refused with a 4xx names, in its problem
    ``code``, one of the rules no schema can state (devtools/fuzz.py's POSITIVE_DATA_REFUSALS): any
    other refusal means openapi.yaml says less than the server checks. (schemathesis' own
    positive_data_acceptance check, given those codes' statuses, fails any other status.)"""
    meta = getattr(case, "meta", None)
    if meta is None or not meta.generation.mode.is_positive or not 400 <= response.status_code < 500:
        return None
    if case.method.upper() != case.operation.method.upper():  # another method's 405: not the operation's
        return None
    kind = (response.headers.get("content-type") or [""])[0]
    if kind.startswith("text/html"):  # a page for a browser: refused by status only (the status check holds)
        return None
    code = problem_code(response)
    if code == "invalid_request" and model_rules_broken(case.body):  # devtools/fuzz.py's POSITIVE_DATA_MODEL_RULES
        return None
    if code not in POSITIVE_DATA_REFUSALS:
        raise AssertionError(f"a schema-valid request refused with {response.status_code} `{code}`, a rule "
                             f"openapi.yaml could state (or list it, with why, in devtools/fuzz.py)")
    return None
