"""The HTTP adapter: turns Chalice requests into service calls and errors into problem+json.

Routes are declared with :meth:`Api.operation`, which registers the Chalice route and
records the operation (id, bodies, responses, error codes) for the OpenAPI generator, so
the route table and openapi.yaml cannot drift apart.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from chalice import Chalice, Response
from pydantic import BaseModel, ValidationError

from ..kernel.calls import Idempotency, Outcome
from ..kernel.errors import EDGE_CODES, ERRORS, ServiceError, describe_validation, is_card_error
from ..games.base import RulesUnavailable
from ..kernel.i18n import N_, _, language, negotiate, say, speaking
from ..pages.page import Download, FormProblem, Page, form_fields
from ..store.errors import Conflict, StoreUnavailable

if TYPE_CHECKING:  # pragma: no cover
    from ..store.records import Player

logger = logging.getLogger("battleline.web")

PROBLEM_JSON = "application/problem+json"
JSON = "application/json"
MAX_IDEMPOTENCY_KEY = 255
# Limits on what a request may bring (docs/architecture.md, openapi.yaml). The largest body a
# client needs is a designer's card-set file for checkKhanCardSet (the default one is 5 KB).
MAX_BODY_BYTES = 256 * 1024
MAX_JSON_DEPTH = 32  # arrays and objects inside each other; every body of this API needs at most 6
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")  # what API Gateway routes to the function


@dataclass(frozen=True)
class ModelRef:
    """A model named by module and name, imported only when first needed. Responses are only
    documented (openapi.yaml): the running server writes plain dicts and never loads them; a
    rarely used body (analyzeBattleLine's) is loaded by its route's first request."""

    module: str
    name: str

    @property
    def __name__(self) -> str:
        return self.name

    def resolve(self) -> type[BaseModel]:
        return getattr(importlib.import_module(self.module), self.name)


class Models:
    """``Models("chalicelib.http.responses").GameView`` names a model without importing it."""

    def __init__(self, module: str) -> None:
        self.module = module

    def __getattr__(self, name: str) -> ModelRef:
        return ModelRef(self.module, name)


def resolve(model: "type[BaseModel] | ModelRef | None") -> type[BaseModel] | None:
    return model.resolve() if isinstance(model, ModelRef) else model


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    summary: str
    response: ModelRef | None  # documented only: the server never validates what it writes
    status: int = 200
    body: type[BaseModel] | ModelRef | None = None
    query: type[BaseModel] | None = None
    errors: tuple[str, ...] = ()
    auth: bool = True
    idempotent: bool = False
    tag: str = "games"
    html: bool = False  # answers with an HTML page (email links), errors included
    rate: str | None = None  # the rate limit of a request without a key, per client address ("signup")
    etag: bool = False  # a view: answered with an ETag, and 304 to a request whose If-None-Match has it
    speaks: bool = False  # its answer holds sentences in the request's language (Content-Language, Vary)
    files: tuple[str, ...] = ()  # other media types its success may answer, as a file (a query or Accept asks)
    # it loads a game without refusing with game_not_found (an email's link page: its link names the game)
    loads_game: bool = False

    @property
    def error_codes(self) -> tuple[str, ...]:
        """Every problem code this operation can answer with."""
        codes = list(self.errors)
        if self.body is not None:
            codes += ["invalid_json", "payload_too_large", "unsupported_media_type", "invalid_request"]
        if self.query is not None:
            codes.append("invalid_request")
        if self.auth:
            codes.append("unauthorized")
        if self.auth or self.rate:
            codes.append("rate_limited")
        if self.idempotent:
            codes += ["idempotency_key_invalid", "idempotency_key_reused"]
        if self.files:
            codes.append("not_acceptable")
        if "game_not_found" in codes or self.loads_game:  # a game, whose rules (a card set) the server may have lost
            codes.append("game_unavailable")
        codes += ["internal_error", "service_unavailable"]
        return tuple(dict.fromkeys(codes))


@dataclass
class Call:
    """What a route handler gets: the services, the caller and the validated inputs."""

    services: Any  # config.Services, handed to the adapter (it imports no composition root)
    player: "Player | None"
    params: dict[str, str]
    body: Any = None
    query: Any = None
    idempotency: Idempotency | None = None
    form: "dict[str, list[str]] | FormProblem" = field(default_factory=dict)  # a page's form (an HTML POST's)
    accept: str = ""  # the request's Accept header (an operation that may answer another media type)
    media: str = JSON  # what an operation with ``files`` answers when its query does not say: Accept's choice


def chosen_media(accept: str, offered: tuple[str, ...]) -> str | None:
    """The offered media type the Accept header prefers (RFC 9110 12.5.1: q-values, ``type/*`` and
    ``*/*``, the most specific range deciding each type's q; a tie goes to the first offered), the
    first offered with no Accept; None when every offered type is refused (406)."""
    if not accept.strip():
        return offered[0]
    ranges: list[tuple[str, float]] = []
    for part in accept.split(","):
        kind, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for param in params:
            name, _eq, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if kind:
            ranges.append((kind.lower(), q))

    def quality(media: str) -> float:
        main = media.split("/")[0] + "/*"
        for wanted in (media, main, "*/*"):  # the most specific range that names it
            found = [q for kind, q in ranges if kind == wanted]
            if found:
                return max(found)
        return 0.0

    best = max(offered, key=quality)  # max keeps the first of equals: the offered order breaks a tie
    return best if quality(best) > 0 else None


def problem(code: str, detail: str, *, status: int | None = None, title: str | None = None,
            **extra: Any) -> Response:
    """An RFC 9457 problem; its status and title are the code's own (``ERRORS``) unless a page
    that refuses with its own status and title is answered as a problem.

    ``detail`` is in the language spoken (the request's Accept-Language), and says so in
    Content-Language, with ``Vary: Accept-Language``; ``code``, ``type`` and ``title`` (the problem
    type's stable English name, as openapi.yaml lists it: RFC 9457 3.1.3) and every other member
    (card notation, versions, flags) are the same in every language."""
    kind = ERRORS[code]
    status = status or kind.status
    body = {"type": f"/problems/{code}", "title": title or kind.title, "status": status,
            "detail": detail, "code": code, **extra}
    headers = {"Content-Type": PROBLEM_JSON, "Content-Language": language(), "Vary": "Accept-Language"}
    if code == "unauthorized":
        headers["WWW-Authenticate"] = 'Bearer realm="battleline"'
    return Response(body=json.dumps(body), status_code=status, headers=headers)


def _bearer(headers: Any) -> str | None:
    value = headers.get("authorization") or ""
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _source_ip(request: Any) -> str:
    """The client's address as API Gateway (or the local server) saw it."""
    return ((request.context or {}).get("identity") or {}).get("sourceIp") or "unknown"


def _idempotency(headers: Any, method: str, path: str, body: Any) -> Idempotency | None:
    key = headers.get("idempotency-key")
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY or not key.isprintable() or not key.isascii():
        raise ServiceError("idempotency_key_invalid",
                           _("an Idempotency-Key is 1 to {most} printable ASCII characters").format(
                               most=MAX_IDEMPOTENCY_KEY))
    if isinstance(body, dict) and "recovery_code" in body:
        # A recovery code may be guessable: its fast hash in a stored fingerprint could be brute-forced,
        # so the fingerprint leaves it out (a replay with another code replays the first sign-up).
        body = {**body, "recovery_code": "-"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(f"{method} {path}\n{canonical}".encode()).hexdigest()
    return Idempotency(key, fingerprint)


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (a scalar is 0), without
    recursion; raises ValueError for a string that is not Unicode text (a lone surrogate such as
    ``"\\ud800"``, which the parser lets through and no store or mail can encode)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            if isinstance(item, str):
                item.encode("utf-8")  # UnicodeEncodeError is a ValueError
            continue
        deepest = max(deepest, depth)
        if depth > MAX_JSON_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # the parser would take NaN, Infinity and -Infinity


def parse_body(raw_body: bytes | None) -> Any:
    """The request body as JSON, within the limits: any body, however large, nested or
    malformed, is a problem with a stable code, never a server error."""
    raw_body = raw_body or b""
    if len(raw_body) > MAX_BODY_BYTES:
        raise ServiceError("payload_too_large", _("a request body is at most {most} bytes; this one has {size}").format(
            most=MAX_BODY_BYTES, size=len(raw_body)))
    data, depth = None, MAX_JSON_DEPTH + 1
    try:
        data = json.loads(raw_body or b"null", parse_constant=_no_constant)
        depth = json_depth(data)
    except RecursionError:
        pass  # nested too deeply for the parser: refused below, as any body over the limit
    except ValueError as error:  # UnicodeDecodeError and json.JSONDecodeError are ValueErrors
        raise ServiceError("invalid_json", _("the body is not valid JSON: {error}").format(error=error)) from None
    if depth > MAX_JSON_DEPTH:
        raise ServiceError("invalid_json", _("the body nests arrays and objects more than {most} deep").format(
            most=MAX_JSON_DEPTH))
    return data


def _validate(model: type[BaseModel], data: Any) -> BaseModel:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        code = "invalid_card" if is_card_error(error) else "invalid_request"
        raise ServiceError(code, describe_validation(error)) from None


CORS_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-None-Match"
# A view depends on who asks (their seat) and in which language; it is the caller's own (private).
NDJSON = "application/x-ndjson"  # newline-delimited JSON: one JSON document a line


@dataclass
class JsonLines(Download):
    """A list answered as NDJSON (listGameRecords with ``Accept: application/x-ndjson``): one item a
    line; the next page's cursor in the ``Next-Cursor`` header (none on the last page)."""

    next_cursor: str | None = None

    def headers(self) -> dict[str, str]:
        return {**super().headers(), **({"Next-Cursor": self.next_cursor} if self.next_cursor else {})}


def ndjson(items: list, next_cursor: str | None) -> JsonLines:
    body = "".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n" for item in items)
    return JsonLines(body, NDJSON, "records.ndjson", next_cursor=next_cursor)


VIEW_HEADERS = {"Vary": "Authorization, Accept-Language", "Cache-Control": "private, no-cache"}


def _steady(value: Any) -> Any:
    """The view without what only ticks: a running clock's seconds left (its deadline, shown beside
    them, says the same and stays)."""
    if isinstance(value, dict):
        ticking = value.get("running") is True and "time_left_seconds" in value
        return {k: _steady(v) for k, v in value.items() if not (ticking and k == "time_left_seconds")}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    return value


def entity_tag(result: Any) -> str:
    """A view's ETag: a hash of its body, since a view changes without a new version (a seat
    accepts, a seed is revealed). Weak (``W/``): a running clock's seconds left are left out, so a
    clocked game's view keeps its tag while nothing but the clock moves."""
    canonical = json.dumps(_steady(result), sort_keys=True, separators=(",", ":"))
    return 'W/"' + hashlib.sha256(canonical.encode()).hexdigest()[:32] + '"'


def none_match(header: str | None, tag: str) -> bool:
    """Does an If-None-Match header name ``tag`` (``*``: any; weak comparison, RFC 9110 13.1.2)?"""
    if not header:
        return False
    tags = [t.strip() for t in header.split(",")]
    return "*" in tags or any(t.removeprefix("W/") == tag.removeprefix("W/") for t in tags)


STORE_UNAVAILABLE = N_("the game store is unavailable for a moment; try again after Retry-After seconds (a write "
                     "with the same Idempotency-Key, so that it is applied once)")


def wants_page(headers: Any) -> bool:
    """Does the client read HTML (a browser, which always names text/html in Accept)? The
    operations that answer pages answer any other client's refusals as problem+json."""
    accept = (headers or {}).get("accept") or ""
    return "text/html" in accept or "application/xhtml+xml" in accept


def page_response(page: Page, as_page: bool) -> Response:
    """A page, or (a refusal, for a client that does not read HTML) its problem+json."""
    if page.status >= 400 and not as_page:
        return problem(page.code or "bad_request", page.message, status=page.status, title=page.title)
    return Response(body=page.html(), status_code=page.status,
                    headers={"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                             "Referrer-Policy": "no-referrer", **page.headers()})


# A refusal's page says what it is where "Something went wrong" would mislead (nothing went wrong
# with the request).
PAGE_TITLES = {"game_unavailable": N_("This game waits for the server's operator")}


def _refusal(op: Operation, error: ServiceError, headers: dict[str, str] | None = None,
             as_page: bool = False) -> Response:
    """A refusal as problem+json, or as an HTML page for a browser at the operations that answer pages."""
    if op.html and as_page:
        title = _(PAGE_TITLES[error.code]) if error.code in PAGE_TITLES else _("Something went wrong")
        response = page_response(Page(error.status, title, error.detail, code=error.code), True)
    else:
        response = problem(error.code, error.detail, **error.extra)
    response.headers.update(headers or {})
    return response


class Api:
    def __init__(self, app: Chalice, services: Callable[[], Any], allowed_origins: str = "") -> None:
        self.app = app
        self.services = services
        self.operations: list[Operation] = []
        # Browser clients on other sites: ALLOWED_ORIGINS lists their origins (or "*"); none by default.
        self.allowed_origins = {o.strip() for o in allowed_origins.split(",") if o.strip()}
        app.register_middleware(self._as_problem, "http")

    def refuse_other_methods(self) -> None:
        """Every method a path has no operation for answers 405 problem+json with ``Allow``; called
        once all operations are declared. They are routes of their own, so that API Gateway passes
        them on and the deployed API answers them as the local one does."""
        for path in dict.fromkeys(o.path for o in self.operations):
            allowed = sorted({o.method for o in self.operations if o.path == path} | {"OPTIONS"})
            others = [m for m in METHODS if m not in allowed]

            def refuse(allowed: list[str] = allowed, **params: str) -> Response:
                request = self.app.current_request
                with speaking(negotiate((request.headers or {}).get("accept-language"))):
                    response = problem("method_not_allowed", _(
                        "{method} is not allowed here; this path takes {methods}").format(
                        method=request.method, methods=", ".join(allowed)))
                response.headers["Allow"] = ", ".join(allowed)
                return self._cors(response)

            name = "refuse_" + "".join(c if c.isalnum() else "_" for c in path)
            refuse.__name__ = name
            self.app.route(path, methods=others, name=name, content_types=["*/*"])(refuse)

    @staticmethod
    def _as_problem(event: Any, get_response: Callable) -> Response:
        """A last guard: an error Chalice itself answers (a method no route takes, an exception
        outside any operation) becomes problem+json too, never its own ``{"Code": ...}`` body."""
        response = get_response(event)
        kind = {k.lower(): v for k, v in (response.headers or {}).items()}.get("content-type", "")
        if response.status_code < 400 or kind.startswith((PROBLEM_JSON, "text/html")):
            return response
        code = EDGE_CODES.get(response.status_code, "internal_error")
        if code == "internal_error":
            logger.error("answered %s outside any operation", response.status_code)
        replaced = problem(code, "the server could not answer this request" if code == "internal_error"
                           else ERRORS[code].title)
        replaced.headers.update({k: v for k, v in (response.headers or {}).items() if k.lower() == "allow"})
        return replaced

    def operation(self, method: str, path: str, operation_id: str, **spec: Any) -> Callable:
        op = Operation(operation_id=operation_id, method=method, path=path, **spec)
        if not any(o.path == path for o in self.operations):
            self._preflight(path)
        self.operations.append(op)

        def decorator(handler: Callable[[Call], Any]) -> Callable:
            def view(**params: str) -> Response:
                return self._cors(self._handle(op, handler, params))

            view.__name__ = handler.__name__
            # Every media type reaches the handler, so that a wrong one gets a problem+json 415
            # with a stable code rather than Chalice's own error body.
            self.app.route(path, methods=[method], name=handler.__name__, content_types=["*/*"])(view)
            return handler

        return decorator

    # ------------------------------------------------------------------ CORS

    def _allowed(self) -> str | None:
        origin = (self.app.current_request.headers or {}).get("origin")
        if origin and (origin in self.allowed_origins or "*" in self.allowed_origins):
            return origin
        return None

    def _cors(self, response: Response) -> Response:
        origin = self._allowed()
        if origin:
            vary = response.headers.get("Vary")
            response.headers.update({"Access-Control-Allow-Origin": origin, "Vary": f"{vary}, Origin" if vary else "Origin",
                                     "Access-Control-Expose-Headers": "Idempotent-Replayed, Retry-After, ETag, Next-Cursor"})
        return response

    def _preflight(self, path: str) -> None:
        def preflight(**params: str) -> Response:
            methods = sorted({o.method for o in self.operations if o.path == path})
            response = Response(body="", status_code=204, headers={})
            if self._allowed():
                response.headers.update({"Access-Control-Allow-Methods": ", ".join(methods),
                                         "Access-Control-Allow-Headers": CORS_HEADERS,
                                         "Access-Control-Max-Age": "600"})
            return self._cors(response)

        preflight.__name__ = "preflight_" + "".join(c if c.isalnum() else "_" for c in path)
        self.app.route(path, methods=["OPTIONS"], name=preflight.__name__, content_types=["*/*"])(preflight)

    def _handle(self, op: Operation, handler: Callable[[Call], Any], params: dict[str, str]) -> Response:
        """The operation, speaking the language the request's Accept-Language asks for (a page
        opened from a link speaks its player's own: chalicelib/mailplay/pages.py, pages/board.py)."""
        with speaking(negotiate((self.app.current_request.headers or {}).get("accept-language"))):
            return self._answer(op, handler, params)

    def _answer(self, op: Operation, handler: Callable[[Call], Any], params: dict[str, str]) -> Response:
        request = self.app.current_request
        as_page = op.html and wants_page(request.headers)
        try:
            raw: Any = None
            if op.body is not None:
                media_type = (request.headers.get("content-type") or "application/json").split(";")[0].strip().lower()
                if media_type != "application/json" and not media_type.endswith("+json"):
                    raise ServiceError("unsupported_media_type", _(
                        "send the body as application/json, not {media_type}").format(media_type=media_type))
                raw = parse_body(request.raw_body)
            services = self.services()
            call = Call(services=services, player=None, params=params,
                        accept=(request.headers or {}).get("accept") or "")
            if op.files and "format" not in (request.query_params or {}):  # a query's ?format= says it itself
                offered = (JSON, *op.files)
                media = chosen_media(call.accept, offered)
                if media is None:
                    raise ServiceError("not_acceptable", _("this answers {types}; the request's Accept takes none "
                                                           "of them").format(types=", ".join(offered)))
                call.media = media
            if op.idempotent:
                call.idempotency = _idempotency(request.headers, op.method, op.path.format(**params), raw)
            if op.auth:
                call.player = services.players.authenticate(_bearer(request.headers))
                services.limits.take("key", call.player.key_hash or call.player.id)
            elif op.rate:
                services.limits.take(op.rate, _source_ip(request))
            if op.body is not None:
                call.body = _validate(resolve(op.body), raw)
            if op.query is not None:
                call.query = _validate(op.query, dict(request.query_params or {}))
            if op.html and request.method == "POST":
                call.form = form_fields(request.headers, request.raw_body)
            result = handler(call)
        except ServiceError as error:
            return _refusal(op, error, getattr(error, "headers", None), as_page=as_page)
        except StoreUnavailable as error:  # Throttled too; the store raises only its own errors
            logger.warning("%s: %s", op.operation_id, error)
            return _refusal(op, ServiceError("service_unavailable", _(STORE_UNAVAILABLE)),
                            {"Retry-After": str(error.retry_after)}, as_page)
        except Conflict as error:  # a race the service did not turn into a refusal of its own
            return _refusal(op, ServiceError("version_conflict", _("another change was accepted first; reload and "
                                                               "try again"), current_version=getattr(error, "current_version", None)),
                            as_page=as_page)
        except RulesUnavailable as error:  # a game begun with rules this server has lost (its card set's file)
            logger.error("%s: the game's rules are not on this server: %s", op.operation_id, error)
            return _refusal(op, ServiceError("game_unavailable", say(error.reason), **error.details), as_page=as_page)
        except Exception:  # never a stack trace to the client
            logger.exception("unhandled error in %s", op.operation_id)
            # An Idempotency-Key makes a retry safe where the operation takes one; elsewhere (a GET, a page)
            # it means nothing. A page's browser gets a page.
            detail = _("the server could not answer this request; retry it with the same Idempotency-Key") \
                if op.idempotent else _("the server could not answer this request; the error is logged for the "
                                        "server's operator")
            return _refusal(op, ServiceError("internal_error", detail), as_page=as_page)
        if op.status == 204:
            return Response(body="", status_code=204, headers={})
        if isinstance(result, Page):
            return page_response(result, as_page)
        if isinstance(result, Download):
            return Response(body=result.body, status_code=200, headers=result.headers())
        headers = {"Content-Type": "application/json"}
        if isinstance(result, Outcome):
            if result.replayed:
                headers["Idempotent-Replayed"] = "true"
            result = result.body
        body = json.dumps(result)
        if op.speaks:
            headers.update({"Content-Language": language(), "Vary": "Accept-Language"})
        if op.etag:
            tag = entity_tag(result)
            headers.update({"ETag": tag, **VIEW_HEADERS})
            if none_match(request.headers.get("if-none-match"), tag):
                return Response(body="", status_code=304, headers={"ETag": tag, **VIEW_HEADERS})
        return Response(body=body, status_code=op.status, headers=headers)

