"""A real local HTTP webhook receiver for the tests: it verifies Standard Webhooks signatures
and dedupes on webhook-id, as a well-behaved consumer does."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks import Webhook


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    path: str = "/hooks"


@dataclass
class Receiver:
    """Answers with ``script`` statuses in turn (then 200); ``seen`` holds unique webhook-ids.
    A 3xx answer redirects to ``/hooks/redirected`` on this receiver."""

    script: list[int] = field(default_factory=list)
    extra_headers: dict[str, str] = field(default_factory=dict)
    requests: list[Received] = field(default_factory=list)
    seen: dict[str, dict] = field(default_factory=dict)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks"

    def start(self) -> "Receiver":
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                receiver.requests.append(Received({k.lower(): v for k, v in self.headers.items()}, body, self.path))
                status = receiver.script.pop(0) if receiver.script else 200
                self.send_response(status)
                for name, value in receiver.extra_headers.items():
                    self.send_header(name, value)
                if 300 <= status < 400:  # to this receiver itself: a followed redirect would show
                    self.send_header("Location", receiver.url + "/redirected")
                self.end_headers()
                if 200 <= status < 300:
                    msg_id = self.headers["webhook-id"]
                    receiver.seen.setdefault(msg_id, json.loads(body))  # a repeat id is dropped

            def do_GET(self):  # noqa: N802 - a 303 followed would come back as a GET
                receiver.requests.append(Received({k.lower(): v for k, v in self.headers.items()}, b"", self.path))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()

    def verify_all(self, secret: str) -> None:
        """Every request carries a valid signature by ``secret`` (timestamps near now)."""
        for request in self.requests:
            Webhook(secret).verify(request.body, request.headers)
