"""Generate openapi.yaml from the route table (``app.api.operations``) and the pydantic models.

``make openapi`` writes it; tests/test_openapi.py fails when the committed file differs.
"""

from __future__ import annotations

import json
import re
import sys
import typing
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, TypeAdapter

from chalicelib.kernel.errors import ERRORS
from chalicelib.games import ENGINES, GAMES
from chalicelib.http.responses import WEBHOOKS, Problem
from chalicelib.clocks.timecontrol import TimeControl
from chalicelib.http.web import NDJSON, resolve

ROOT = Path(__file__).resolve().parent.parent
REF = "#/components/schemas/{model}"

DESCRIPTION = """\
Correspondence game server for Battle Line and Khan & General.

* JSON in and out. Errors are RFC 9457 `application/problem+json` with a stable machine `code`.
* Auth: `Authorization: Bearer <api_key>`; a key is shown once, by `createPlayer`.
* Writes accept `Idempotency-Key` (1-255 printable ASCII characters): a retry with the same
  key and body returns the first response (with `Idempotent-Replayed: true`) and changes
  nothing; the same key with another body is refused with `idempotency_key_reused`. A
  replayed response never carries a secret: a replayed sign-up has `api_key` null (a key is
  shown once and stored only as a hash), so knowing someone's Idempotency-Key gives nothing.
  Keys are kept for 24 hours.
* Every game has an integer `version`, 0 at creation and +1 per accepted action request.
  `postAction` takes the `expected_version`; a stale one gets 409 `version_conflict` with
  `current_version`.
* A view's `legal_steps` lists every step the caller may post now.
* Limits: a body is at most 256 KiB (413 `payload_too_large`) and nests arrays and objects at
  most 32 deep (400 `invalid_json`); JSON types are strict (`"3"` is not an integer, `false`
  is not a number: 422 naming the field); names hold no control characters. A method a path
  does not take is 405 `method_not_allowed`; the store down or throttled is 503
  `service_unavailable` with `Retry-After`. Every error, whatever caused it, is problem+json.
* Rate limits: requests with an API key, per key, and sign-ups, per client address, are
  limited (by default 600 a minute and 20 an hour, as bursts that refill evenly); over it: 429
  `rate_limited` with `Retry-After` (docs/clients.md).
* Lists come in pages: `limit` (each list documents its default and maximum), `cursor` (the
  `next_cursor` of the page before, with the same query; opaque), and `next_cursor` in the
  answer, null on the last page. A cursor that is not this list's for this query is 400
  `invalid_cursor`.
* Long-polls: `listEvents` and `listGames?to_move=me` take `wait` (seconds, at most 20): with
  nothing to answer yet, the server answers as soon as something comes, else the empty list
  after the wait. Waiting requests have a pool of their own: when it is full, 429
  `rate_limited` with `Retry-After`.
* `getGame` answers an `ETag` (a hash of the view); `If-None-Match` with it gets 304 with no
  body while the view is the same.
* Languages: a problem's `detail` (and analyzeBattleLine's `reason`) is in the language the
  request's `Accept-Language` asks for first among `en`, `zh-Hans` (`zh`, `zh-CN`), `ja` and `vi`;
  English otherwise. The answer says which in `Content-Language`, with `Vary: Accept-Language`.
  `code`, `type`, `title` (the problem type's name, as listed here), card notation and every
  other field are the same in every language: match on `code`, show `detail`.
"""


def _operations() -> list:
    sys.path.insert(0, str(ROOT))
    import app  # noqa: PLC0415 - the route table lives there

    return app.api.operations


def _strip_titles(schema: Any) -> Any:
    """Pydantic adds a title to every property; they only add noise to generated clients."""
    if isinstance(schema, dict):
        return {k: _strip_titles(v) for k, v in schema.items()
                if not (k == "title" and isinstance(v, str) and "properties" not in schema)}
    if isinstance(schema, list):
        return [_strip_titles(v) for v in schema]
    return schema


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models a step type is a union of (``Annotated[Union[...], ...]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in typing.get_args(annotation) for model in _models_in(arg)]


def _game_names(engine) -> dict[str, str]:
    """Each of a game's step models gets its game's prefix (``BattleLineResignStep``,
    ``KhanResignStep``): public, stable and unique names. Pydantic names a model whose class name
    two games share after its module (``chalicelib__games__khan__steps__ResignStep``); both
    spellings are mapped."""
    prefix = _prefix(engine)
    names = {}
    for model in _models_in(engine.step_schema):
        public = model.__name__ if model.__name__.startswith(prefix) else prefix + model.__name__
        names[model.__name__] = public
        names[f"{model.__module__}.{model.__qualname__}".replace(".", "__")] = public
    return names


def _prefix(engine) -> str:
    return engine.options_model.__name__.removesuffix("Options")


def _renamed(schema: Any, names: dict[str, str]) -> Any:
    """``schema`` with every reference to a renamed component pointing at its new name."""
    if isinstance(schema, dict):
        return {k: _renamed(v, names) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_renamed(v, names) for v in schema]
    if isinstance(schema, str) and schema.startswith(REF.format(model="")):
        name = schema.removeprefix(REF.format(model=""))
        return REF.format(model=names.get(name, name))
    return schema


def _closed(schema: Any) -> Any:
    """``additionalProperties: false`` spelled ``unevaluatedProperties: false``: the same rule for
    these schemas (JSON Schema 2020-12, OpenAPI 3.1), and OpenAPI Generator 7 warns about every
    document with the first spelling (and about an empty ``properties``, which says nothing: dropped here)."""
    if isinstance(schema, dict):
        return {("unevaluatedProperties" if k == "additionalProperties" and v is False else k): _closed(v)
                for k, v in schema.items() if not (k == "properties" and v == {})}
    if isinstance(schema, list):
        return [_closed(v) for v in schema]
    return schema


def _titled(schemas: dict[str, Any]) -> dict[str, Any]:
    """Every component's title is its own name: generators name classes after titles, and two
    components with one title make them drop one (and everything that refers to it)."""
    return {name: ({**schema, "title": name} if "$ref" not in schema else schema) for name, schema in schemas.items()}


def _with_time_control(options: dict[str, Any]) -> None:
    """The service takes ``time_control`` beside every game's own options."""
    options["properties"]["time_control"] = {
        "anyOf": [{"$ref": REF.format(model="TimeControl")}, {"type": "null"}], "default": None,
        "description": "The game's clock: `per_move_days` days for every move; `days` days for every `moves` "
                       "moves (unused time carried forward); or Fischer, `initial_days` to start, "
                       "`increment_days` more for each move, never more than `max_days`. Each may add "
                       "`weekend_pause` and `vacations_allowed`. No clock when left out."}


def _component_schemas(operations: list) -> dict[str, Any]:
    entries: list[tuple[str, str, TypeAdapter]] = []
    for op in operations:
        if op.body is not None:
            entries.append((op.body.__name__, "validation", TypeAdapter(resolve(op.body))))
        if op.response is not None:
            entries.append((op.response.__name__, "serialization", TypeAdapter(resolve(op.response))))
    entries.append(("Problem", "serialization", TypeAdapter(Problem)))
    entries.append(("TimeControl", "validation", TypeAdapter(TimeControl)))
    entries += [(model.__name__, "serialization", TypeAdapter(model)) for model in WEBHOOKS.values()]
    step_names, state_names, names = [], [], {}
    for engine in ENGINES.values():
        prefix = _prefix(engine)
        names.update(_game_names(engine))
        step_names.append(f"{prefix}Step")
        entries.append((f"{prefix}Step", "validation", TypeAdapter(engine.step_schema)))
        state_names.append(engine.view_model.__name__)
        entries.append((engine.view_model.__name__, "serialization", TypeAdapter(engine.view_model)))
        entries.append((engine.options_model.__name__, "validation", TypeAdapter(engine.options_model)))
    entries = list({name: (name, mode, adapter) for name, mode, adapter in entries}.values())
    mapping, defs = TypeAdapter.json_schemas([(n, m, a) for n, m, a in entries], ref_template=REF)
    schemas = dict(defs.get("$defs", {}))
    for (name, _mode), schema in mapping.items():
        if "$ref" not in schema:
            schemas[name] = schema
    schemas = {names.get(name, name): _renamed(schema, names) for name, schema in schemas.items()}
    for engine in ENGINES.values():
        _with_time_control(schemas[engine.options_model.__name__])
    # anyOf, not oneOf: games share some steps ({"type": "resign"} is a step of both).
    schemas["Step"] = {"description": "One step of the game being played (the view's `game` says which).",
                       "anyOf": [{"$ref": REF.format(model=n)} for n in step_names]}
    schemas["GameState"] = {"description": "The game-specific part of a view (the view's `game` says which).",
                            "anyOf": [{"$ref": REF.format(model=n)} for n in state_names]}
    return _titled(_closed(_strip_titles(dict(sorted(schemas.items())))))


TOKEN_PATTERN = r"^\.?[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$"


def _path_schema(name: str) -> dict[str, Any]:
    if name == "token":
        # itsdangerous' URL-safe timed token: [.]payload.timestamp.signature, each part base64url.
        return {"type": "string", "maxLength": 4096, "pattern": TOKEN_PATTERN, "description": "A signed token from an email."}
    if name == "game":
        return {"type": "string", "enum": list(GAMES)}
    return {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}


ACCEPT_LANGUAGE = {
    "name": "Accept-Language", "in": "header", "required": False,
    "description": "The language of a refusal's `detail` (and of an HTML page): the first of en, zh-Hans "
                   "(zh, zh-CN), ja and vi it names (quality values count); English when it names none of them. "
                   "Codes, card notation and other fields do not change. Read leniently (RFC 9110 section 12.5.4): "
                   "a value that names no language of ours, however long or malformed, reads English.",
    "schema": {"type": "string"}, "example": "zh-CN,zh;q=0.9,en;q=0.5"}


def _parameters(op) -> list[dict]:
    params = [{"name": name, "in": "path", "required": True, "schema": _path_schema(name)}
              for name in re.findall(r"{(\w+)}", op.path)]
    if op.query is not None:
        schema = op.query.model_json_schema()
        for name, prop in schema.get("properties", {}).items():
            choices = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
            param_schema = {k: v for k, v in choices[0].items() if k != "title"}
            if "default" in prop and prop["default"] is not None:
                param_schema["default"] = prop["default"]
            params.append({"name": name, "in": "query", "required": name in schema.get("required", ()),
                           "description": prop.get("description", ""), "schema": param_schema})
    if op.etag:
        params.append({"name": "If-None-Match", "in": "header", "required": False,
                       "description": "The ETag of the view you have: 304 with no body while the view is still "
                                      "the same.", "schema": {"type": "string"}})
    if op.idempotent:
        params.append({"name": "Idempotency-Key", "in": "header", "required": False,
                       "description": "Makes a retried write safe: same key and body, same response.",
                       "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                                  "pattern": "^[ -~]{1,255}$"}})  # printable ASCII
    params.append({"$ref": "#/components/parameters/AcceptLanguage"})  # any operation may refuse, in it
    return params


HTML_PAGE = {"text/html": {"schema": {"type": "string"}}}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before retrying (the store is down or throttled, or "
                                              "too many requests are being answered). Absent with "
                                              "`game_unavailable`: retrying cannot help.",
                               "schema": {"type": "integer", "minimum": 1}}}


VIEW_HEADERS = {
    "ETag": {"description": "A weak tag of this view (a hash of its body, a running clock's seconds left aside): "
                            "send it as If-None-Match to be told 304 while the view stays the same.",
             "schema": {"type": "string"}},
    "Vary": {"description": "`Authorization, Accept-Language`: the view is the caller's own.",
             "schema": {"type": "string"}},
}


PROBLEM_HEADERS = {
    "Content-Language": {"description": "The language of the sentences in the answer (a problem's `detail`): en, "
                                        "zh-Hans, ja or vi, as Accept-Language asked.",
                         "schema": {"type": "string", "enum": ["en", "zh-Hans", "ja", "vi"]}},
    "Vary": {"description": "`Accept-Language` (with `Origin` for a browser client of another site): the "
                            "sentences depend on it.", "schema": {"type": "string"}},
}


GAME = {"game_id": "$response.body#/game_id"}
WEBHOOK = {"webhook_id": "$response.body#/id"}
TOURNAMENT = {"tournament_id": "$response.body#/id"}
LADDER = {"ladder_id": "$response.body#/id"}
# What a success response leads to: operation -> the operations it links to, with their parameters.
LINKS: dict[str, dict[str, dict[str, str]]] = {
    "createGame": {op: GAME for op in ("getGame", "postAction", "listEvents", "getBoardLink")},
    "getGame": {op: GAME for op in ("postAction", "listEvents", "getBoardLink")},
    "createWebhook": {op: WEBHOOK for op in ("deleteWebhook", "rotateWebhookSecret", "listWebhookDeliveries")},
    "listWebhookDeliveries": {"redeliverWebhook": {"webhook_id": "$request.path.webhook_id",
                                                   "delivery_id": "$response.body#/deliveries/0/id"}},
    "createTournament": {op: TOURNAMENT for op in ("getTournament", "joinTournament", "startTournament",
                                                   "getStandings", "getStandingsPage", "withdrawFromTournament")},
    "joinTournament": {op: TOURNAMENT for op in ("getTournament", "getStandings", "getStandingsPage",
                                                 "withdrawFromTournament")},
    "listKhanCardSets": {"getKhanCardSet": {"card_set_id": "$response.body#/card_sets/0/id"}},
    "createPlayer": {"getPlayer": {"player_id": "$response.body#/id"}},
    "listTournaments": {op: {"tournament_id": "$response.body#/tournaments/0/id"}
                        for op in ("getTournament", "getStandings", "getStandingsPage")},
    "createLadder": {op: LADDER for op in ("getLadder", "joinLadder", "challengeOnLadder")},
    "joinLadder": {op: LADDER for op in ("getLadder", "challengeOnLadder")},
    "listLadders": {op: {"ladder_id": "$response.body#/ladders/0/id"} for op in ("getLadder", "joinLadder")},
    "challengeOnLadder": {op: GAME for op in ("getGame", "acceptGame", "declineGame", "abortGame")},
}


def _links(op) -> dict[str, Any]:
    return {target: {"operationId": target, "parameters": params}
            for target, params in LINKS.get(op.operation_id, {}).items()}


def responses(op) -> dict[str, Any]:
    """An operation's documented answers, by status: its success (schema, headers, links) and its problems."""
    if op.html:
        pages = {"200": "the page", "400": "the link is not valid",
                 "403": "the link is for another game, or the game is not public", "404": "no such game or player",
                 "409": "the game has moved on since the link was made", "410": "the link has expired",
                 "422": "the rules do not allow the step now", "500": "internal error",
                 "503": "the service is unavailable for a moment: retry after Retry-After seconds"}
        if "game_unavailable" in op.error_codes:
            pages["503"] += ("; or the game's rules are not on the server now (`game_unavailable`, no Retry-After: "
                             "it waits for the server's operator)")
        if "board_in_play" in op.errors:
            pages["403"] += ", or another board of its duplicate round is still being played (`board_in_play`)"
        if "payload_too_large" in op.errors:  # a page that reads its form (web.form_fields)
            pages["413"] = "the form is larger than the page's form can be (`payload_too_large`): nothing was done"
            pages["422"] += ", or the form cannot be read or holds a choice the page does not offer (`invalid_request`)"
        own = set(op.errors) - {"payload_too_large", "invalid_request"}  # (a form's refusals: any page's)
        if own and not {"invalid_link", "link_expired", "game_not_found"} & own:
            pages = {"200": "the page"}  # a public page, no link: only its own refusals
            for code in op.error_codes:
                status = str(ERRORS[code].status)
                pages[status] = f"{pages[status]}; `{code}`" if status in pages else f"`{code}`: {ERRORS[code].title}"
        # A refusal is a page for a browser (Accept names text/html), problem+json for any other client.
        responses = {status: {"description": text, "content": HTML_PAGE if status == "200" else
                              {**HTML_PAGE, "application/problem+json": {"schema": {"$ref": REF.format(model="Problem")}}}}
                     for status, text in pages.items()}
        responses["503"]["headers"] = RETRY_AFTER
        return responses
    ok: dict[str, Any] = {"description": op.summary}
    if op.response is not None:
        ok["content"] = {"application/json": {"schema": {"$ref": REF.format(model=op.response.__name__)}}}
    if op.files:  # the same answer as a file, asked for by the query (getStandings' ?format=csv) or Accept
        ok["content"] = {**ok.get("content", {}), **{kind: {"schema": {"type": "string"}} for kind in op.files}}
        ok["headers"] = {"Content-Disposition": {
            "description": "With a file (not JSON): `attachment` and the file's name.", "schema": {"type": "string"}}}
        if NDJSON in op.files:  # a page of a list, one item a line (web.JsonLines): its cursor in a header
            ok["headers"]["Next-Cursor"] = {
                "description": "With `application/x-ndjson`: give it as `cursor` for the next page; absent on the "
                               "last page (JSON carries it as `next_cursor`).", "schema": {"type": "string"}}
    if op.idempotent:  # (beside the file headers, should an idempotent operation also answer with a file)
        ok["headers"] = {**ok.get("headers", {}), "Idempotent-Replayed": {
            "description": "Present (true) when this is the stored response of an earlier request.",
            "schema": {"type": "string", "enum": ["true"]}}}
    if op.operation_id in LINKS:
        ok["links"] = _links(op)
    if op.speaks:  # its sentences (a claim's reason) in the request's language
        ok["headers"] = {**ok.get("headers", {}), **{
            name: {"$ref": f"#/components/headers/{name.replace('-', '')}"} for name in PROBLEM_HEADERS}}
    responses: dict[str, Any] = {str(op.status): ok}
    if op.etag:
        ok["headers"] = {**ok.get("headers", {}), **VIEW_HEADERS}
        responses["304"] = {"description": "Not modified: the view is still the one If-None-Match names (no body).",
                            "headers": VIEW_HEADERS}
    by_status: dict[int, list[str]] = {}
    for code in op.error_codes:
        by_status.setdefault(ERRORS[code].status, []).append(code)
    for status, codes in sorted(by_status.items()):
        described = "; ".join(f"`{code}`: {ERRORS[code].title}" for code in codes)
        response: dict[str, Any] = {
            "description": described,
            "content": {"application/problem+json": {"schema": {
                "allOf": [{"$ref": REF.format(model="Problem")}],
                "properties": {"code": {"enum": codes}, "status": {"const": status}}}}},
        }
        if status == 401:
            response["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}}}
        if status in (429, 503):
            response["headers"] = RETRY_AFTER
        if status == 429:
            response["headers"] = {"Retry-After": {
                "description": "Whole seconds until the caller's rate limit lets a request through again."
                               + (" `too_many_invitations`: until the next midnight UTC." if "too_many_invitations"
                                  in codes else ""),
                "schema": {"type": "integer", "minimum": 1}}}
        response["headers"] = {**response.get("headers", {}), **{
            name: {"$ref": f"#/components/headers/{name.replace('-', '')}"} for name in PROBLEM_HEADERS}}
        responses[str(status)] = response
    return responses


WEBHOOK_HEADERS = [
    ("webhook-id", "The message id: the same on every attempt, so a receiver can drop repeats."),
    ("webhook-timestamp", "Unix seconds of this attempt; refuse one too far from your clock."),
    ("webhook-signature", "`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}` with the "
                          "secret's base64 part (Standard Webhooks); during a rotation, one signature per secret "
                          "in force, separated by spaces."),
]


def _webhooks() -> dict[str, Any]:
    """What createWebhook's endpoints receive: a POST of ``{type, timestamp, data}`` per message."""
    return {kind: {"post": {
        "operationId": "on" + "".join(part.title() for part in re.split(r"[._]", kind)),
        "summary": (model.__doc__ or kind).strip(),
        "tags": ["webhook payloads"],
        # No security scheme of the document's: the receiver checks webhook-signature (above).
        "security": [],
        "parameters": [{"name": name, "in": "header", "required": True, "description": text,
                        "schema": {"type": "string"}} for name, text in WEBHOOK_HEADERS],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": REF.format(model=model.__name__)}}}},
        "responses": {"2XX": {"description": "Received. Any other answer is retried with backoff, except 410 "
                                             "Gone, which disables the endpoint."}},
    }} for kind, model in WEBHOOKS.items()}


TAGS = {
    "players": "Sign-up, your account (name, email, language, time zone, notifications), API keys, blocks "
               "and another player's public profile.",
    "games": "Games you play: start one, read your view of it, post steps, follow its events.",
    "lobby": "Invitations and open challenges: accept, decline or abort a game before it starts.",
    "battleline": "Battle Line's own tools (a claim's analysis).",
    "khan": "Khan & General's card sets.",
    "board": "The board in a browser, reached by a signed link (a seat's or a spectator's).",
    "tournaments": "Round-robin, Swiss and duplicate tournaments: make, join, start, standings.",
    "ladders": "Ladders: join one and challenge the players near you.",
    "ratings": "Ratings by game (each Khan & General card set rated apart).",
    "webhooks": "Endpoints of yours that the server calls when something happens in your games.",
    "email": "Pages reached from an email's links (answer, unsubscribe, recover a key).",
    "webhook payloads": "What a webhook endpoint receives (`webhooks`).",
}


def _description(op) -> str:
    """What an operation needs and what it may answer, beside its summary: from the route table."""
    lines = [op.summary.rstrip(".") + "."]
    if op.html:
        lines.append("An HTML page (a browser's); a refusal is a page too, or problem+json for a client that "
                     "does not ask for HTML.")
    if op.auth:
        lines.append("Needs an API key (`Authorization: Bearer`).")
    else:
        lines.append("Needs no API key" + (", and is rate limited by client address." if op.rate else "."))
    if op.idempotent:
        lines.append("Safe to retry with an `Idempotency-Key`.")
    if op.etag:
        lines.append("Answers an `ETag`: `If-None-Match` with it gets 304 while the view is the same.")
    if op.files:
        lines.append("Also answers as " + ", ".join(f"`{kind}`" for kind in op.files) + " when the query or "
                     "`Accept` asks for it (JSON when Accept prefers none of them; 406 `not_acceptable` when it "
                     "refuses them all).")
    if op.error_codes:
        lines.append("May refuse with " + ", ".join(f"`{code}` ({ERRORS[code].status})" for code in op.error_codes)
                     + ".")
    return " ".join(lines)


def _single_refs(schema: Any) -> Any:
    """``{"allOf": [one schema]}`` with nothing beside it is that schema (linters call a one-item
    ``allOf`` illogical, and so it is)."""
    if isinstance(schema, dict):
        if set(schema) == {"allOf"} and len(schema["allOf"]) == 1:
            return _single_refs(schema["allOf"][0])
        return {k: _single_refs(v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_single_refs(v) for v in schema]
    return schema


def _referenced(node: Any, schemas: dict[str, Any], found: set[str]) -> set[str]:
    """The component schemas ``node`` refers to, directly or through others."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(REF.format(model="")):
                name = value.removeprefix(REF.format(model=""))
                if name not in found:
                    found.add(name)
                    _referenced(schemas[name], schemas, found)
            else:
                _referenced(value, schemas, found)
    elif isinstance(node, list):
        for value in node:
            _referenced(value, schemas, found)
    return found


def _request_defaults_in_words(paths: dict[str, Any], schemas: dict[str, Any]) -> None:
    """A request's field with a default is one a client may leave out: the default is said in the
    field's description rather than as ``default``, which openapi-typescript (with its default
    settings) reads as "always present" and so makes the field required in a request a client
    writes. Only the schemas that are never part of an answer: an answer's fields with a default
    are always present. (A request body written inline gets openapi-typescript's exemption; ours
    are components, named for the other generators.)"""
    requests_, answers = set(), set()
    for operations in paths.values():
        for operation in operations.values():
            _referenced(operation.get("requestBody"), schemas, requests_)
            _referenced(operation.get("responses"), schemas, answers)
    for name in sorted(requests_ - answers):
        for prop in schemas[name].get("properties", {}).values():
            if "default" in prop:
                default = prop.pop("default")
                if default is not None:
                    said = f"Default when left out: `{json.dumps(default)}`."
                    prop["description"] = f"{prop['description']} {said}" if prop.get("description") else said


# The requests whose shape one field chooses: the ``options`` of createGame, createTournament and
# createLadder are the options of the game their ``game`` names. The discriminator is beside
# ``options``, not inside, so each request is a oneOf of whole bodies, one a game, discriminated on
# ``game`` (each body with its own game's options): name -> (each body's name, its description).
GAME_BODIES = {"CreateGameRequest": ("Create{prefix}Game", "A new {title} game."),
               "CreateTournamentRequest": ("Create{prefix}Tournament", "A tournament of {title}."),
               "CreateLadderRequest": ("Create{prefix}Ladder", "A ladder of {title}.")}


def _by_game(schemas: dict[str, Any]) -> None:
    """Each of GAME_BODIES as a oneOf of its games' bodies (``CreateBattleLineGame`` and
    ``CreateKhanGame``, ...), chosen by ``game`` (a discriminator every generator we test takes):
    the service's checks are unchanged (it validates the options by the game named); the document
    says which options go with which game."""
    for name, (pattern, text) in GAME_BODIES.items():
        whole = schemas[name]
        if "seats" in whole["properties"]:
            # The seat list's item, named once for both bodies (else a generator names it after the first).
            schemas["Seat"] = {"description": "A seat: a player by id, someone invited by address, a bot, or a "
                                              "seat left open for anyone to take.",
                               "anyOf": whole["properties"]["seats"]["items"]["anyOf"], "title": "Seat"}
            whole["properties"]["seats"]["items"] = {"$ref": REF.format(model="Seat")}
        mapping = {}
        for game, engine in ENGINES.items():
            variant = pattern.format(prefix=_prefix(engine))
            properties = {key: dict(value) for key, value in whole["properties"].items()}
            properties["game"] = {"type": "string", "enum": [game]}
            options = {k: v for k, v in properties["options"].items() if k != "anyOf"}
            properties["options"] = {"$ref": REF.format(model=engine.options_model.__name__), **options}
            schemas[variant] = {"unevaluatedProperties": False, "description": text.format(title=GAMES_TITLE[game]),
                                "properties": properties, "required": whole["required"], "title": variant,
                                "type": "object"}
            mapping[game] = REF.format(model=variant)
        described = f"{whole['description']} " if whole.get("description") else ""
        schemas[name] = {"description": described + "One body a game: `game` says which, and `options` are "
                                                    "that game's.",
                         "oneOf": [{"$ref": ref} for ref in mapping.values()],
                         "discriminator": {"propertyName": "game", "mapping": mapping}, "title": name}


GAMES_TITLE = {"battleline": "Battle Line", "khan": "Khan & General"}
# recoverAccount's two ways, each a closed object with its required fields: a body is one or the
# other, never both and never neither. No property is typed null alone (OpenAPI Generator 7 cannot
# take one), so a field of the other way is simply not allowed.
RECOVERY_WAYS = {"RecoverByEmail": ("email",), "RecoverByCode": ("player_id", "recovery_code", "new_recovery_code")}
RECOVERY_REQUIRED = {"RecoverByEmail": ["email"], "RecoverByCode": ["player_id", "recovery_code"]}


def _recovery_ways(schemas: dict[str, Any]) -> None:
    whole = schemas["RecoverAccountRequest"]
    ways = []
    for variant, fields in RECOVERY_WAYS.items():
        properties = {}
        for field in fields:
            prop = dict(whole["properties"][field])
            required = field in RECOVERY_REQUIRED[variant]
            if required and "anyOf" in prop:  # a required field is never null
                choices = [c for c in prop.pop("anyOf") if c.get("type") != "null"]
                prop = {**choices[0], **prop}
            properties[field] = prop
        schemas[variant] = {"unevaluatedProperties": False, "properties": properties,
                            "required": RECOVERY_REQUIRED[variant], "title": variant, "type": "object"}
        ways.append({"$ref": REF.format(model=variant)})
    schemas["RecoverByEmail"]["description"] = "Recovery by address: a link is mailed, if the address is a player's."
    schemas["RecoverByCode"]["description"] = "Recovery by your player id and recovery code: a new key at once."
    schemas["RecoverAccountRequest"] = {"description": whole["description"], "oneOf": ways,
                                        "title": "RecoverAccountRequest"}


def build() -> dict[str, Any]:
    operations = _operations()
    paths: dict[str, Any] = {}
    for op in operations:
        entry: dict[str, Any] = {"operationId": op.operation_id, "summary": op.summary,
                                 "description": _description(op), "tags": [op.tag]}
        params = _parameters(op)
        if params:
            entry["parameters"] = params
        if op.body is not None:
            entry["requestBody"] = {"required": True, "content": {"application/json": {
                "schema": {"$ref": REF.format(model=op.body.__name__)}}}}
        entry["security"] = [{"bearer": []}] if op.auth else []
        entry["responses"] = responses(op)
        paths.setdefault(op.path, {})[op.method.lower()] = entry
    schemas = _single_refs(_component_schemas(operations))
    _by_game(schemas)
    _recovery_ways(schemas)
    schemas = dict(sorted(schemas.items()))
    _request_defaults_in_words(paths, schemas)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Battle Line and Khan & General correspondence server", "version": "1.0.0", "description": DESCRIPTION},
        "servers": [{"url": "http://127.0.0.1:8000", "description": "make serve"}],
        "tags": [{"name": name, "description": text} for name, text in TAGS.items()],
        "paths": paths,
        "webhooks": _webhooks(),
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "The api_key from createPlayer."}},
            "schemas": schemas,
            "parameters": {"AcceptLanguage": ACCEPT_LANGUAGE},
            "headers": {name.replace("-", ""): header for name, header in PROBLEM_HEADERS.items()},
        },
    }


class _Dumper(yaml.SafeDumper):
    """Writes every repeated part out in full: generators limit YAML aliases (OpenAPI Generator
    refuses a document with more than 50), and a plain document is easier to read anyway."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def render() -> str:
    return "# Generated by `make openapi` from app.py and chalicelib/http/models.py: do not edit.\n" + \
        yaml.dump(build(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    (ROOT / "openapi.yaml").write_text(render())
    print("wrote openapi.yaml")
