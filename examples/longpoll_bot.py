#!/usr/bin/env python3
"""A bot that needs no public URL: it long-polls for its turns, then plays a legal step.

Standard library only. Its loop is the one docs/bots.md describes:

1. ``GET /v1/games?to_move=me&wait=20``: the server answers as soon as one of its games awaits its
   move (or the empty list after 20 s: ask again at once).
2. For each game there: ``GET /v1/games/{id}`` with ``If-None-Match`` (304: the view it has is
   still the game as it is), then a step from the view's ``legal_steps``, posted with
   ``expected_version`` and an ``Idempotency-Key`` (a retry after a lost answer is applied once),
   until the turn passes to the other seat.
3. 409 ``version_conflict``: the game moved on; read it again and choose again. 429 or 503: wait
   ``Retry-After`` seconds and send the same request again.
4. A game waiting for the bot's consent (status ``waiting``) is accepted: ``POST
   /v1/games/{id}/accept``.

Usage:
    python examples/longpoll_bot.py --server http://127.0.0.1:8000 --name "Random bot"
    python examples/longpoll_bot.py --server URL --key KEY --against PLAYER_ID
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field

log = logging.getLogger("longpoll_bot")

WAIT = 20  # seconds: the longest the server waits (a longer wait is cut to its maximum)
LAG = 0.5  # seconds to let a stale "your move" entry pass (the list follows a move within about a second)


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: dict | None


class Client:
    """The HTTP API with a key: JSON in and out, Retry-After honoured, nothing raised for a 4xx."""

    def __init__(self, server: str, key: str | None = None, timeout: float = WAIT + 15) -> None:
        self.server = server.rstrip("/")
        self.key = key
        self.timeout = timeout  # longer than the longest wait

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None,
                attempts: int = 5) -> Reply:
        sent = {"Accept": "application/json", **(headers or {})}
        if self.key:
            sent["Authorization"] = f"Bearer {self.key}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        for attempt in range(attempts):
            request = urllib.request.Request(self.server + path, data=data, headers=sent, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return self._reply(response.status, response.headers, response.read())
            except urllib.error.HTTPError as error:  # 304 and every 4xx and 5xx
                reply = self._reply(error.code, error.headers, error.read())
            except (urllib.error.URLError, TimeoutError) as error:  # no answer: the same request again
                log.warning("%s %s: %s; trying again", method, path, error)
                time.sleep(1 + attempt)
                continue
            if reply.status not in (429, 503) or attempt == attempts - 1:
                return reply
            pause = int(reply.headers.get("retry-after") or 1)
            log.info("%s %s: %s, trying again in %s s", method, path, reply.status, pause)
            time.sleep(pause)
        raise ConnectionError(f"{method} {path}: no answer after {attempts} attempts")

    @staticmethod
    def _reply(status: int, headers, raw: bytes) -> Reply:
        lowered = {k.lower(): v for k, v in headers.items()}
        return Reply(status, lowered, json.loads(raw) if raw else None)


def sign_up(server: str, name: str) -> dict:
    """A new player: ``{id, name, api_key}`` (the key is shown once: keep it)."""
    reply = Client(server).request("POST", "/v1/players", {"name": name})
    if reply.status != 201:
        raise RuntimeError(f"sign-up refused: {reply.body}")
    return reply.body


def choose(legal_steps: list[dict], rng: random.Random) -> dict:
    """A legal step: claim every flag that can be claimed, else any step but giving up."""
    claims = [s for s in legal_steps if s.get("type") == "claim" and s.get("flags")]
    if claims:
        return max(claims, key=lambda s: len(s["flags"]))
    others = [s for s in legal_steps if s.get("type") not in ("resign", "offer_draw")]
    return rng.choice(others or legal_steps)


@dataclass
class Bot:
    client: Client
    rng: random.Random = field(default_factory=random.Random)
    wait: int = WAIT  # seconds each long-poll may wait
    views: dict[str, tuple[str, dict]] = field(default_factory=dict)  # game id -> (ETag, view)
    moved: dict[str, int] = field(default_factory=dict)  # game id -> the version its last step made
    finished: set[str] = field(default_factory=set)

    def run(self, until_finished: set[str] | None = None, deadline: float | None = None) -> None:
        """Play every game that awaits a move, for ever (or until the games named are over)."""
        while not (until_finished and until_finished <= self.finished):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError("the games did not finish in time")
            self.accept_invitations()
            if until_finished:
                self.notice_finished(until_finished)
            reply = self.client.request("GET", f"/v1/games?to_move=me&wait={self.wait}")
            if reply.status != 200:
                raise RuntimeError(f"listGames refused: {reply.body}")
            fresh = [g for g in reply.body["games"] if g["version"] >= self.moved.get(g["game_id"], 0)]
            if reply.body["games"] and not fresh:
                time.sleep(LAG)  # only games it has just moved in: the list has not caught up yet
            for entry in fresh:
                self.play(entry["game_id"])

    def view(self, game_id: str) -> dict:
        """The game as the bot's seat sees it, read again only when it changed (If-None-Match)."""
        tag, known = self.views.get(game_id, (None, None))
        reply = self.client.request("GET", f"/v1/games/{game_id}", headers={"If-None-Match": tag} if tag else None)
        if reply.status == 304:
            return known
        if reply.status != 200:
            raise RuntimeError(f"getGame {game_id} refused: {reply.body}")
        self.views[game_id] = (reply.headers.get("etag"), reply.body)
        return reply.body

    def play(self, game_id: str) -> None:
        """Steps from ``legal_steps`` until the game waits for another seat (a turn may take several)."""
        view = self.view(game_id)
        while view["status"] == "active" and view["to_move"] == view["you"] and view["legal_steps"]:
            step = choose(view["legal_steps"], self.rng)
            version = view["version"]
            reply = self.client.request(
                "POST", f"/v1/games/{game_id}/actions", {"expected_version": version, "steps": [step]},
                headers={"Idempotency-Key": f"{game_id}-{version}"})  # one key per version: a retry is applied once
            if reply.status == 200:
                self.moved[game_id] = reply.body["version"]
                view = reply.body["view"]
            elif reply.status == 409 and reply.body.get("code") == "version_conflict":
                view = self.view(game_id)  # someone else moved first (another copy of this bot?): choose again
            else:
                log.warning("game %s: %s refused: %s", game_id, step, reply.body)
                return
        if view["status"] == "finished":
            self.finished.add(game_id)
            log.info("game %s is over: %s", game_id, view["result"])

    def accept_invitations(self) -> None:
        """Games seating the bot wait for its consent: accept them (404: this server asks none)."""
        reply = self.client.request("GET", "/v1/games?status=waiting")
        for entry in reply.body.get("games", []) if reply.status == 200 else []:
            view = self.view(entry["game_id"])
            if view["status"] == "waiting":
                accepted = self.client.request("POST", f"/v1/games/{entry['game_id']}/accept", {},
                                               headers={"Idempotency-Key": f"accept-{entry['game_id']}"})
                if accepted.status >= 300 and accepted.status != 404:  # e.g. its own invitation to another
                    log.info("game %s: not accepted: %s", entry["game_id"], (accepted.body or {}).get("detail"))

    def notice_finished(self, games: set[str]) -> None:
        """The games named that ended while it was the other seat's move."""
        for game_id in games - self.finished:
            if self.view(game_id)["status"] == "finished":
                self.finished.add(game_id)


def new_game(client: Client, me: str, against: str, game: str = "battleline") -> dict:
    """A game between the bot and another player (who may have to accept it first)."""
    reply = client.request("POST", "/v1/games", {"game": game, "seats": [{"player_id": me}, {"player_id": against}]},
                           headers={"Idempotency-Key": f"new-{me}-{against}-{time.time_ns()}"})
    if reply.status != 201:
        raise RuntimeError(f"createGame refused: {reply.body}")
    return reply.body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--key", help="the bot's API key (else --name signs a new player up)")
    parser.add_argument("--name", default="Long-poll bot")
    parser.add_argument("--against", help="a player id: start a Battle Line game against them first")
    parser.add_argument("--seed", type=int, help="the bot's random choices")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    key = args.key
    if key is None:
        player = sign_up(args.server, args.name)
        key = player["api_key"]
        log.info("signed up as %s (%s); API key %s", player["name"], player["id"], key)
    client = Client(args.server, key)
    if args.against:
        me = client.request("GET", "/v1/players/me").body["id"]
        log.info("started game %s", new_game(client, me, args.against)["game_id"])
    try:
        Bot(client, random.Random(args.seed)).run()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
