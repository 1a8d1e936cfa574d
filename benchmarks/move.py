"""A move's handler CPU (issue 39, item 3): the thread CPU that postAction costs the API, in-process,
against DynamoDB Local.

The app is the tree's own (``from app import app``), configured as deployed (its services built
from the environment: ``DYNAMODB_ENDPOINT`` and ``TABLE_NAME`` point it at a fresh table on a
DynamoDB Local this benchmark starts), and called through Chalice's test client. Two players who
accept the games made for them play one-step moves: the player to move reads the game
(``getGame``, not timed), picks one of its ``legal_steps`` with a seeded RNG (never ``resign`` nor
``offer_draw``) and posts it (``postAction`` with ``expected_version``); a game that ends is
replaced by a new one. What is timed is the Lambda handler itself, ``app(event, context)``:
``time.thread_time()`` around it (Chalice's routing, the adapter, the service, the DynamoDB calls
made and parsed), never the test client's own work, nor DynamoDB Local's (another process). The
first moves warm up (untimed); they also count the DynamoDB calls a move makes (a fact, not a
timing).

Figures (ms, nearest-rank percentiles): ``battleline_move_cpu_p50_ms``, ``_p95_ms`` and the wall
time ``battleline_move_wall_p50_ms`` (DynamoDB Local answering included, so it shifts with the
machine's load); the same for ``khan_`` with ``--khan-moves`` > 0; ``check_dynamodb_calls_per_move``.

Runs on today's tree and on the baseline's (benchmarks.compare): it uses only what both have
(``app.app``, ``chalicelib.config.dynamodb_client``, ``chalicelib.store.schema.create_table_if_missing``).

Run: python -m benchmarks.move [--moves 300] [--khan-moves 100] [--warmup 30] [--seed 1] [--json PATH]
     python -m benchmarks.compare move --rounds 3
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

from benchmarks.dynamodb import dynamodb_local

NEVER = ("resign", "offer_draw")


def percentile(samples: list[float], p: float) -> float:
    """Nearest rank: the smallest sample with at least p % of the samples at or below it."""
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1] if ordered else math.nan


# ------------------------------------------------------------------ the app, timed


class Timed:
    """The Chalice app as the local gateway calls it, with the thread CPU and wall time of each
    call of ``postAction`` kept (the handler alone: the gateway's and the client's work are outside)."""

    def __init__(self, app) -> None:
        self._app = app
        self.timing = False
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def __getattr__(self, name):
        return getattr(self._app, name)

    def __call__(self, event, context):
        if not self.timing:
            return self._app(event, context)
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return self._app(event, context)
        finally:
            self.cpu.append((time.thread_time() - cpu) * 1000)
            self.wall.append((time.perf_counter() - wall) * 1000)


class CallCounter:
    """Counts the HTTP responses read (each DynamoDB call, retries included) while a timed call is
    under way: those read through http.client (botocore's urllib3, the baseline's lean calls) and
    those the lean calls read themselves (``wire.read_response``, where the tree has it)."""

    def __init__(self, timed: Timed) -> None:
        from http.client import HTTPConnection

        self.timed = timed
        self.patched = [(HTTPConnection, "getresponse", HTTPConnection.getresponse)]
        try:
            from chalicelib.store.dynamo import wire
        except ImportError:
            wire = None
        if wire is not None and hasattr(wire, "read_response"):
            self.patched.append((wire, "read_response", wire.read_response))
        self.count = 0

    def __enter__(self) -> "CallCounter":
        for owner, name, original in self.patched:
            setattr(owner, name, self._counted(original))
        return self

    def _counted(self, original):
        def counted(*args, **kwargs):
            self.count += self.timed.timing
            return original(*args, **kwargs)

        return counted

    def __exit__(self, *exc) -> None:
        for owner, name, original in self.patched:
            setattr(owner, name, original)


class Play:
    def __init__(self, client, timed: Timed, rng: random.Random) -> None:
        self.client, self.timed, self.rng = client, timed, rng
        self.players = [self.sign_up(f"Bench {i}") for i in (1, 2)]

    def call(self, method: str, path: str, key: str | None = None, body: dict | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        kwargs = {"body": json.dumps(body).encode()} if body is not None else {}
        response = self.client.request(method, path, headers=headers, **kwargs)
        if not 200 <= response.status_code < 300:
            raise RuntimeError(f"{method} {path} -> {response.status_code}: {response.body[:2000]!r}")
        return json.loads(response.body)

    def sign_up(self, name: str) -> dict:
        player = self.call("POST", "/v1/players", body={"name": name})
        self.call("PUT", "/v1/players/me/preferences", player["api_key"], {"challenges": "accept"})
        return player

    def new_game(self, game: str) -> dict:
        creator, other = self.players
        return self.call("POST", "/v1/games", creator["api_key"], {
            "game": game, "seed": self.rng.randrange(2**63), "options": {"first_seat": 1},
            "seats": [{"player_id": creator["id"]}, {"player_id": other["id"]}]})

    def moves(self, game: str, count: int, *, timing: bool) -> None:
        """``count`` one-step moves (new games as games end), timed or not."""
        view = self.new_game(game)
        for _ in range(count):
            if view["status"] != "active":
                view = self.new_game(game)
            player = self.players[view["to_move"] - 1]
            view = self.call("GET", f"/v1/games/{view['game_id']}", player["api_key"])
            step = self.rng.choice([s for s in view["legal_steps"] if s["type"] not in NEVER])
            self.timed.timing = timing
            try:
                result = self.call("POST", f"/v1/games/{view['game_id']}/actions", player["api_key"],
                                   {"expected_version": view["version"], "steps": [step]})
            finally:
                self.timed.timing = False
            view = result["view"]


def measure(args: argparse.Namespace) -> dict:
    with dynamodb_local() as endpoint:
        os.environ.update({"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local",
                           "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1",
                           "DYNAMODB_ENDPOINT": endpoint, "TABLE_NAME": "bench-move",
                           "DYNAMODB_READ_TIMEOUT": "30", "LINK_SECRET": "bench-link-secret",
                           "RATE_LIMIT_PER_KEY": "1000000/1", "RATE_LIMIT_SIGNUPS": "1000000/1"})
        os.environ.pop("AWS_PROFILE", None)
        from chalice.config import Config
        from chalice.test import TestHTTPClient

        from app import app
        from chalicelib.config import dynamodb_client
        from chalicelib.store.schema import create_table_if_missing

        create_table_if_missing(dynamodb_client(), "bench-move")
        timed = Timed(app)
        figures: dict[str, float] = {}
        # Chalice's test client (chalice.test), over the app timed
        play = Play(TestHTTPClient(timed, Config()), timed, random.Random(args.seed))
        with CallCounter(timed) as counter:
            play.moves("battleline", args.warmup, timing=True)
        moves = len(timed.cpu)
        figures["check_dynamodb_calls_per_move"] = counter.count / moves if moves else math.nan
        for game, count in (("battleline", args.moves), ("khan", args.khan_moves)):
            if count <= 0:
                continue
            if game != "battleline":
                play.moves(game, max(3, args.warmup // 3), timing=False)
            timed.cpu.clear()
            timed.wall.clear()
            play.moves(game, count, timing=True)
            figures[f"{game}_move_cpu_p50_ms"] = percentile(timed.cpu, 50)
            figures[f"{game}_move_cpu_p95_ms"] = percentile(timed.cpu, 95)
            figures[f"{game}_move_cpu_mean_ms"] = statistics.fmean(timed.cpu)
            figures[f"{game}_move_wall_p50_ms"] = percentile(timed.wall, 50)
        return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="Battle Line moves timed (default 300)")
    parser.add_argument("--khan-moves", type=int, default=100, help="Khan & General moves timed (default 100; 0: none)")
    parser.add_argument("--warmup", type=int, default=30, help="untimed Battle Line moves first (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the figures there (benchmarks.compare)")
    args = parser.parse_args(argv)
    figures = measure(args)
    for name, value in figures.items():
        print(f"{name}: {value:.3f}")
    if args.json:
        args.json.write_text(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
