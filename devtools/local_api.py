"""The API on a local port: Chalice's own local server, with a listen backlog that takes
bursts of concurrent clients (``chalice local`` keeps socketserver's default of 5, which
resets connections under load). Usage: python -m devtools.local_api --port 8000
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from urllib.parse import parse_qsl, unquote

from chalice.cli.factory import CLIFactory
from chalice.local import (
    ChaliceRequestHandler,
    CustomLocalChalice,
    LocalChalice,
    LocalDevServer,
    LocalGatewayException,
    ThreadedHTTPServer,
)

from chalicelib.kernel.errors import EDGE_CODES
from chalicelib.http.web import problem
from devtools.dynamodb_local import ROOT

# What http.server and Chalice's local gateway answer by themselves, as the API's problem codes
# (the CDK app maps API Gateway's own answers to the same codes): the gateway's 403 is its "no
# such route", http.server's 501 an unknown method.
EDGE_PROBLEMS = {**EDGE_CODES, 403: "not_found", 501: "method_not_allowed"}


# Query parameters whose values are no secret (a long poll's wait, a list's filters and pages); any other
# value is left out of the log, whatever its name's spelling ("seat", "%73eat").
SAFE_QUERY = frozenset({"wait", "after", "limit", "status", "format", "cursor", "name", "game", "v", "lang"})
LONG_SEGMENT = 32  # a path segment this long is a token (an id is g_ and 16 hex digits)


def redacted(requestline: str) -> str:
    """A request line with its secrets left out, however the target is spelt (percent-encoded, with its
    scheme and host, with doubled slashes): "GET /v1/links/{token} HTTP/1.1",
    "GET /v1/games/g_1/board?seat={secret} HTTP/1.1"."""
    parts = requestline.split(" ")
    if len(parts) < 2:
        return requestline
    target = re.sub(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*", "", parts[1])
    path, _, query = target.partition("?")
    segments = [segment if len(segment) < LONG_SEGMENT else "{token}" for segment in unquote(path).split("/")]
    shown = "/".join(segments)
    if query:
        pairs = []
        for name, value in parse_qsl(query, keep_blank_values=True):
            pairs.append(f"{name}={value if name in SAFE_QUERY and len(value) < LONG_SEGMENT else '{secret}'}")
        shown += "?" + "&".join(pairs)
    parts[1] = shown
    return " ".join(parts)


class BurstTolerantServer(ThreadedHTTPServer):
    request_queue_size = 128


class RequestHandler(ChaliceRequestHandler):
    """Routes every method, so that an unknown one (TRACE, QUERY...) gets the 405 that API
    Gateway would give rather than http.server's 501 page."""

    # TCP_NODELAY on every connection: http.server writes an answer's headers and its body in two
    # sends, and on a kept-alive connection Nagle holds the body back until the client's delayed
    # ACK of the headers (40 ms on Linux): every request after a connection's first took 40 ms
    # more (GET /v1/khan/card-sets: 44 ms kept alive, 1.4 ms on a new connection; 0.9 ms now).
    # API Gateway has no such delay, and clients keep connections alive (benchmarks/load.py).
    disable_nagle_algorithm = True

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """The access log's line, as API Gateway's (infra/stack.py logs its resourcePath): the request line
        without its secrets, since a link's token plays a move or shows a seat's hand (no log line holds a
        secret in the clear)."""
        self.log_message('"%s" %s %s', redacted(self.requestline), str(code), str(size))

    def __getattr__(self, name: str):
        if name.startswith("do_"):
            return self._generic_handle
        raise AttributeError(name)

    def _send_error_response(self, error: LocalGatewayException) -> None:
        """The local gateway's own refusals (no such route: its 403 "Missing Authentication
        Token") as problem+json."""
        self._send_problem(error.CODE, "this API has no such path; see openapi.yaml")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a malformed request line, a URI or headers too long) as
        problem+json rather than its HTML page."""
        self.close_connection = True
        self._send_problem(code, message or "the request could not be read")

    def _send_problem(self, status: int, detail: str) -> None:
        response = problem(EDGE_PROBLEMS.get(status, "bad_request"), detail)
        body = response.body.encode()
        self.send_response(response.status_code)
        for name, value in {**response.headers, "Content-Length": str(len(body)), "Connection": "close"}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def one_request_a_thread(app):
    """The app with a current request of each thread's own, as `chalice local` makes it
    (``create_local_server``). Chalice keeps the request being answered on the app itself, which
    Lambda runs one request at a time; this server answers requests on threads at once, and one
    request could read another's headers and body (its API key among them) and be answered as
    another player."""
    CustomLocalChalice.__bases__ = (LocalChalice, app.__class__)
    app.__class__ = CustomLocalChalice
    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--stage", default="dev")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(message)s")
    os.environ.setdefault("PUBLIC_URL", f"http://{args.host}:{args.port}")  # links in pages and emails
    config = CLIFactory(str(ROOT)).create_config_obj(chalice_stage_name=args.stage)
    server = LocalDevServer(one_request_a_thread(config.chalice_app), config, args.host, args.port,
                            server_cls=BurstTolerantServer, handler_cls=RequestHandler)
    # Every line out whole, as soon as it is written: to a pipe or a file, stdout is flushed when its
    # buffer fills, mid-line, and make serve's own ready line (written by another process to the same
    # place) ran into Chalice's "Serving on ..." line.
    sys.stdout.reconfigure(line_buffering=True)
    sys.stdout.write(f"Serving on http://{args.host}:{args.port}\n")
    try:
        server.server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
