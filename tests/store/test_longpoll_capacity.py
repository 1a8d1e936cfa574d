"""What a waiting bot costs in DynamoDB, as AWS bills it (``benchmarks.meter``): the figures of
docs/storage.md ("Long-polls"). A long-poll that finds nothing looks again after each of
``waiting.gaps`` (about once a second); each look is one read of one small item (listEvents: the
number of the game's latest version, strongly consistent) or of the caller's own index entries
(listGames?to_move=me: eventually consistent)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from benchmarks.meter import Meter
from chalicelib.config import build_services
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, ListGamesQuery, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from chalicelib.services.waiting import gaps
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import table_definition
from tests.fakes import FakeClock

from ..conftest import LINKS

pytestmark = pytest.mark.dynamodb  # capacity units and item sizes: DynamoDB itself

LOOKS = len(gaps(20))  # looks in a 20 s wait that finds nothing


def waiting_services(store):
    meter = Meter(store.client.wrapped, table_definition(store.table))
    on_meter = DynamoStore(meter, store.table)
    clock = FakeClock(datetime(2026, 3, 1, tzinfo=timezone.utc))
    services = build_services(on_meter, clock=clock, outlets=Outlets(links=LINKS),
                              sleep=lambda seconds: clock.advance(timedelta(seconds=seconds)), long_poll_max=20)
    keys = [services.players.create_player(CreatePlayerRequest(name=n), None).body["api_key"] for n in ("Ann", "Bob")]
    callers = [services.players.authenticate(k) for k in keys]
    game = services.creation.create_game(callers[0], CreateGameRequest(
        game="battleline", options={"first_seat": 1}, seats=[PlayerSeat(player_id=c.id) for c in callers]), None).body
    services.dispatcher.drain_outbox()
    return meter, services, keys[1], game


def test_a_20_second_wait_for_events_costs_one_read_unit_a_look(store):
    meter, services, key, game = waiting_services(store)
    meter.take()
    bob = services.players.authenticate(key)
    assert services.games.list_events(bob, game["game_id"], 1000, wait=20) == {"events": [], "next_cursor": None}
    charge = meter.take()
    assert 20 <= LOOKS <= 23
    assert charge.read_units == 1 + 1 + LOOKS + 1  # the key, the game, each look, the key again (issue 34)
    assert charge.total_write_units == 0


def test_a_20_second_wait_for_my_move_costs_half_a_read_unit_a_look(store):
    meter, services, key, game = waiting_services(store)
    meter.take()
    bob = services.players.authenticate(key)
    assert services.games.list_games(bob, ListGamesQuery(to_move="me", wait=20)) == {"games": [], "next_cursor": None}
    charge = meter.take()
    assert charge.read_units == 1 + 0.5 * (1 + LOOKS) + 1  # the key, the index at once, each look, the key again
    assert charge.total_write_units == 0
