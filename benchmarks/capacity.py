"""What an action costs in DynamoDB capacity units, measured on DynamoDB Local with
``ReturnConsumedCapacity`` (for docs/deploy.md): every call the service makes for one request
is asked for its consumed capacity, and the units are summed per request.

Run: make bench (or python -m benchmarks.capacity)
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
from typing import Any

from chalicelib.config import build_services
from chalicelib.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Dispatcher
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import create_table_if_missing
from devtools.dynamodb_local import DynamoDBLocal

READS = ("get_item", "query")
WRITES = ("put_item", "update_item", "delete_item", "transact_write_items")


class Metered:
    """A DynamoDB client that asks every call for its consumed capacity and adds it up."""

    def __init__(self, client) -> None:
        self._client = client
        self.exceptions = client.exceptions
        self.read = self.write = 0.0

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if name not in READS + WRITES:
            return call
        writes = name in WRITES

        def metered(**kwargs):
            try:
                response = call(ReturnConsumedCapacity="TOTAL", **kwargs)
            except self._client.exceptions.ClientError as error:
                self._add(error.response.get("ConsumedCapacity"), writes)
                raise
            self._add(response.get("ConsumedCapacity"), writes)
            return response

        return metered

    def _add(self, consumed, writes: bool) -> None:
        for entry in consumed if isinstance(consumed, list) else [consumed] if consumed else []:
            if writes:
                self.write += entry.get("CapacityUnits", 0.0)
            else:
                self.read += entry.get("CapacityUnits", 0.0)

    def take(self) -> tuple[float, float]:
        found = (self.read, self.write)
        self.read = self.write = 0.0
        return found


def main() -> None:
    with DynamoDBLocal() as ddb:
        raw = ddb.client()
        create_table_if_missing(raw, "capacity")
        client = Metered(raw)
        services = build_services(DynamoStore(client, "capacity"), dispatcher=Dispatcher(DynamoStore(client, "capacity")))
        costs: dict[str, list[tuple[float, float]]] = defaultdict(list)

        def measure(label: str, call):
            client.take()
            result = call()
            costs[label].append(client.take())
            return result

        players = [measure("createPlayer", lambda n=n: services.players.create_player(CreatePlayerRequest(name=n), None).body)
                   for n in ("Ann", "Bob")]
        ann, bob = (services.players.authenticate(p["api_key"]) for p in players)
        client.take()
        for game_type in ("battleline", "khan"):
            game = measure(f"createGame ({game_type})", lambda g=game_type: services.games.create_game(
                ann, CreateGameRequest(game=g, options={"first_seat": 1},
                                       seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body)
            rng = random.Random(1)
            seats = {1: ann, 2: bob}
            view = game
            for _ in range(40):
                if view["status"] != "active":
                    break
                player = seats[view["to_move"]]
                view = measure(f"getGame ({game_type})", lambda: services.games.get_game(player, game["game_id"]))
                step = rng.choice([s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw")])
                view = measure(f"postAction, one step ({game_type})", lambda: services.games.post_action(
                    player, game["game_id"], ActionRequest(expected_version=view["version"], steps=[step]),
                    None).body["view"])
            measure("listGames", lambda: services.games.list_games(ann, type("Q", (), {"to_move": None, "status": None})()))
        measure("sweeper run (nothing due)", lambda: services.clocks.sweep_clocks())
        measure("outbox dispatch (no webhooks, no email)", lambda: services.dispatcher.drain_outbox())
    print("| request | read units | write units | samples |")
    print("|---|---|---|---|")
    for label, found in costs.items():
        reads, writes = zip(*found)
        print(f"| {label} | {statistics.median(reads):g} | {statistics.median(writes):g} | {len(found)} |")


if __name__ == "__main__":
    main()
