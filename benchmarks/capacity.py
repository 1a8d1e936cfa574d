"""What a request costs in DynamoDB capacity, as AWS bills it (for docs/benchmarks.md, docs/deploy.md).

Every call the server makes goes through ``benchmarks.meter.Meter``, which charges it from the
items actually written and read by AWS's own rules (item sizes, 1 KB write and 4 KB read
rounding per item, transactions doubled, index entries written, failed conditions), not from
what DynamoDB Local reports. A move is charged in two parts: the **request** (authenticating
by API key, loading the game, writing its version) and the **background** work it causes (the
outbox consumer reading the table's stream: the game's head and index entries, and each
notification). Reading the stream itself costs nothing (Lambda's stream trigger is free).

Each scenario plays one-step moves (one step per request, chosen at random among the legal
ones, never resign) on DynamoDB Local, and prints the median and largest charge per move.
Prices: us-east-1 on-demand, since November 2024: $0.625 per million write request units and
$0.125 per million read request units.

Run: make bench (or python -m benchmarks.capacity [--moves 40])
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
from dataclasses import dataclass, field
from datetime import date

from benchmarks.meter import Charge, Meter
from chalicelib.config import build_services
from chalicelib.presenting.links import Links
from chalicelib.http.models import (
    ActionRequest,
    CreateGameRequest,
    CreatePlayerRequest,
    CreateWebhookRequest,
    PlayerSeat,
    Preferences,
)
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.webhooks import SendResult
from chalicelib.kernel.calls import Idempotency
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import create_table_if_missing, table_definition
from devtools.dynamodb_local import LOCAL_CREDENTIALS, DynamoDBLocal

WRITE_PRICE = 0.625  # dollars per million write request units (us-east-1 on-demand)
READ_PRICE = 0.125  # dollars per million read request units


class Mailbox:
    """A mailer that keeps nothing: the benchmark counts DynamoDB, not mail."""

    def __init__(self) -> None:
        self.sent = 0

    def send(self, message) -> None:
        self.sent += 1


def accept(target, body, headers) -> SendResult:
    """A webhook receiver that answers 200 at once."""
    return SendResult(200)


@dataclass
class Scenario:
    name: str
    game: str = "battleline"
    clock: dict | None = None
    webhook: bool = False
    email: bool = False
    idempotency: bool = False
    moves: list[tuple[Charge, Charge]] = field(default_factory=list)  # (request, background) per move
    finishing: list[tuple[Charge, Charge]] = field(default_factory=list)

    def median(self, part: int, what: str) -> float:
        return statistics.median(getattr(m[part], what) for m in self.moves)

    def largest(self, part: int, what: str) -> float:
        return max(getattr(m[part], what) for m in self.moves)


SCENARIOS = [
    Scenario("Battle Line: no clock, no notifications"),
    Scenario("Battle Line: with an Idempotency-Key", idempotency=True),
    Scenario("Battle Line: a clock (3 days a move)", clock={"per_move_days": 3}),
    Scenario("Battle Line: a webhook for each player", webhook=True),
    Scenario("Battle Line: email for each player", email=True),
    Scenario("Battle Line: clock, webhook and email", clock={"per_move_days": 3}, webhook=True, email=True),
    Scenario("Khan & General: no clock, no notifications", game="khan"),
    Scenario("Khan & General: clock, webhook and email", game="khan", clock={"per_move_days": 3}, webhook=True,
             email=True),
]


def play(meter: Meter, services, scenario: Scenario, moves: int, seed: int) -> None:
    """One game of ``scenario``: ``moves`` one-step moves (more if the game ends first: a new one)."""
    rng = random.Random(seed)
    players = []
    for name in ("Ann", "Bob"):
        email = f"{name.lower()}{seed}@example.org" if scenario.email else None
        created = services.players.create_player(CreatePlayerRequest(name=name, email=email), None).body
        caller = services.players.authenticate(created["api_key"])
        # games made for them start at once (issue 34: otherwise a game waits for its invitation's answer)
        services.players.set_preferences(caller, Preferences(challenges="accept"))
        if scenario.webhook:
            services.webhooks.create_webhook(caller, CreateWebhookRequest(url="http://127.0.0.1/hook"))
        players.append((created["api_key"], caller))
    services.dispatcher.drain_outbox()
    options = {"first_seat": 1, **({"time_control": scenario.clock} if scenario.clock else {})}
    while len(scenario.moves) < moves:
        game = services.creation.create_game(players[0][1], CreateGameRequest(
            game=scenario.game, options=options, seats=[PlayerSeat(player_id=c.id) for _, c in players]), None).body
        services.dispatcher.drain_outbox()
        view = game
        meter.take()
        while view["status"] == "active":
            key, caller = players[view["to_move"] - 1]
            view = services.games.get_game(caller, game["game_id"])
            steps = [s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw")]
            step = rng.choice(steps) if len(scenario.moves) < moves else {"type": "resign"}  # the last: it ends
            meter.take()
            with meter.label("request"):
                mover = services.players.authenticate(key)
                idempotency = Idempotency(f"move-{view['version']}", "f" * 64) if scenario.idempotency else None
                view = services.games.post_action(mover, game["game_id"], ActionRequest(
                    expected_version=view["version"], steps=[step]), idempotency).body["view"]
            with meter.label("background"):
                services.dispatcher.drain_outbox()
            charge = meter.take()
            parts = (charge.labelled("request"), charge.labelled("background"))
            (scenario.finishing if view["status"] == "finished" else scenario.moves).append(parts)


def dollars(reads: float, writes: float) -> float:
    """What a million such moves cost in DynamoDB throughput."""
    return reads * READ_PRICE + writes * WRITE_PRICE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="one-step moves measured in each scenario")
    arguments = parser.parse_args()
    os.environ["ALLOW_PRIVATE_WEBHOOKS"] = "1"  # the webhook URL is 127.0.0.1; nothing is sent (see accept)
    os.environ.update(LOCAL_CREDENTIALS)  # the stream's reader finds DynamoDB Local's credentials here
    with DynamoDBLocal() as ddb:
        raw = ddb.client()
        create_table_if_missing(raw, "capacity")
        meter = Meter(raw, table_definition("capacity"))
        store = DynamoStore(meter, "capacity")
        services = build_services(store, outlets=Outlets(send=accept, mailer=Mailbox(), links=Links("benchmark", "http://127.0.0.1:8000"), allow_private=True))
        for number, scenario in enumerate(SCENARIOS):
            play(meter, services, scenario, arguments.moves, seed=number + 1)
        report(arguments.moves)
        breakdown(meter, services)
    return 0


def report(moves: int) -> None:
    print(f"## DynamoDB capacity of a one-step move, by AWS's billing rules ({date.today()}, "
          f"{platform.machine()}, Python {platform.python_version()}; {moves} moves a scenario, DynamoDB Local)\n")
    print("| scenario | request: read / write units | background: read / write units | total read / write "
          "(median) | largest total | $ per million moves |")
    print("|---|---|---|---|---|---|")
    for s in SCENARIOS:
        reads = s.median(0, "read_units") + s.median(1, "read_units")
        writes = s.median(0, "total_write_units") + s.median(1, "total_write_units")
        largest = max(r.read_units + b.read_units for r, b in s.moves), \
            max(r.total_write_units + b.total_write_units for r, b in s.moves)
        print(f"| {s.name} | {s.median(0, 'read_units'):g} / {s.median(0, 'total_write_units'):g} | "
              f"{s.median(1, 'read_units'):g} / {s.median(1, 'total_write_units'):g} | **{reads:g} / {writes:g}** | "
              f"{largest[0]:g} / {largest[1]:g} | ${dollars(reads, writes):.2f} |")
    print("\nWrite units include index writes. The move that ends a game (here a resignation) costs more, "
          "once a game: its players' game lists change too.\n")
    print("| scenario | the last move: request read / write | background read / write |")
    print("|---|---|---|")
    for s in SCENARIOS:
        for r, b in s.finishing[:1]:
            print(f"| {s.name} | {r.read_units:g} / {r.total_write_units:g} | {b.read_units:g} / "
                  f"{b.total_write_units:g} |")


def breakdown(meter: Meter, services) -> None:
    """Where the units of one plain move go, call by call."""
    scenario = Scenario("breakdown")
    play(meter, services, scenario, 3, seed=99)
    request, background = scenario.moves[-1]
    print("\n### One move of Battle Line (no clock, no notifications), call by call\n")
    print("Request:\n")
    print(request.table())
    print("\nBackground (the outbox consumer):\n")
    print(background.table())


if __name__ == "__main__":
    sys.exit(main())
