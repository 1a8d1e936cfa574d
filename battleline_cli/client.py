"""The HTTP API as the command line calls it, and the one-line failures it tells the user."""

from __future__ import annotations

import json
from typing import Any

import urllib3

from chalicelib.kernel.i18n import _


class Failure(Exception):
    """A failure to tell the user in one line (exit status 1, or 2 when the server is unreachable)."""

    def __init__(self, message: str, status: int = 1, problem: dict | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.problem = problem or {}  # the server's problem+json, when it refused


class Client:
    def __init__(self, server: str, key: str | None, language: str | None = None) -> None:
        self.server = server.rstrip("/")
        self.key = key
        self.language = language  # asked of the server as Accept-Language: its refusals' detail in it
        self.http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=5, read=30), retries=False)

    def call(self, method: str, path: str, body: Any = None, *, auth: bool = True) -> Any:
        headers = {"Content-Type": "application/json"}
        if self.language:
            headers["Accept-Language"] = self.language
        if auth:
            if not self.key:
                raise Failure(_("no API key: pass --key, or set BATTLELINE_KEY (battleline signup gives you one)"))
            headers["Authorization"] = f"Bearer {self.key}"
        try:
            response = self.http.request(method, f"{self.server}{path}", headers=headers,
                                         body=json.dumps(body) if body is not None else None)
        except urllib3.exceptions.HTTPError as error:
            raise Failure(_("cannot reach the server at {server} ({error}); is it running? "
                            "(--server, or BATTLELINE_SERVER)").format(server=self.server,
                                                                       error=type(error).__name__), status=2) from None
        try:
            data = json.loads(response.data or b"null")
        except ValueError:
            raise Failure(_("the server at {server} answered {status} with something that is not JSON: is it a "
                            "Battle Line server?").format(server=self.server, status=response.status)) from None
        if response.status >= 400:
            if isinstance(data, dict) and "code" in data:
                raise Failure(_("{reason} ({code})").format(reason=data.get("detail") or data.get("title"),
                                                            code=data["code"]), problem=data)
            raise Failure(_("the server answered {status}").format(status=response.status))
        return data

    # ------------------------------------------------------------ what the commands read

    def view(self, game_id: str) -> dict:
        return self.call("GET", f"/v1/games/{game_id}")

    def events(self, game_id: str, after: int = 0) -> list[dict]:
        """The game's events as the caller may see them, oldest first."""
        page = self.call("GET", f"/v1/games/{game_id}/events?after={after}")
        events = page["events"]
        while page.get("next_cursor"):  # a long game's history comes in pages
            # with the same query: a cursor is refused with another ``after``
            page = self.call("GET", f"/v1/games/{game_id}/events?after={after}&cursor={page['next_cursor']}")
            events += page["events"]
        return events
