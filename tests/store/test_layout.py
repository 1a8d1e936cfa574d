"""The storage layout (docs/storage.md): its version mark, the head the outbox consumer keeps, the
stream read by hand, and reads that cost what they need."""

from __future__ import annotations

import random

import pytest

from benchmarks.meter import Meter
from chalicelib.config import build_services
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import LayoutMismatch, check_layout, table_definition

from ..conftest import LINKS
from chalicelib.notify.dispatcher import Outlets
from ..fakes import start_game


@pytest.mark.dynamodb
def test_a_table_of_another_layout_is_refused_with_what_to_do(store):
    check_layout(store.client, store.table)  # a table this version made
    other = dict(table_definition(store.table + "-old"))
    store.client.create_table(**other)  # as an older version made it: no layout mark
    with pytest.raises(LayoutMismatch) as refused:
        check_layout(store.client, store.table + "-old")
    assert "layout 1" in str(refused.value) and "layout 2" in str(refused.value) and "mv var" in str(refused.value)


def game_of(services, moves: int = 0):
    """Ann and Bob's Battle Line game, after ``moves`` one-step moves (outbox not yet drained)."""
    ann = services.players.create_player(CreatePlayerRequest(name="Ann"), None).body
    bob = services.players.create_player(CreatePlayerRequest(name="Bob"), None).body
    callers = [services.players.authenticate(p["api_key"]) for p in (ann, bob)]
    view = start_game(services, callers[0], CreateGameRequest(
        game="battleline", options={"first_seat": 1}, seats=[PlayerSeat(player_id=c.id) for c in callers]), callers)
    rng = random.Random(1)
    for _ in range(moves):
        caller = callers[view["to_move"] - 1]
        view = services.games.get_game(caller, view["game_id"])
        step = rng.choice([s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw")])
        view = services.games.post_action(caller, view["game_id"], ActionRequest(
            expected_version=view["version"], steps=[step]), None).body["view"]
    return view, callers


@pytest.mark.contract
def test_the_head_follows_the_latest_version_and_never_goes_back(services, store):
    view, (ann, bob) = game_of(services, moves=3)  # Ann's whole turn: it is Bob's move at version 3
    changes = []
    store.changes(changes.append)
    committed = [c.committed for c in changes if c.committed is not None]
    assert [c.game.version for c in committed] == [0, 1, 2, 3]
    for c in reversed(committed):  # the stream may deliver an older version late: the head keeps the newest
        store.project(c)
    assert [m.game_id for m in store.list_my_moves(bob.id)] == [view["game_id"]]
    assert store.list_my_moves(ann.id) == []
    store.project(committed[-1])  # again: nothing changes
    assert [m.version for m in store.list_memberships(bob.id)] == [3]


@pytest.mark.contract
def test_a_finished_game_leaves_its_players_lists_as_finished(services, store):
    view, (ann, bob) = game_of(services)
    services.games.post_action(ann, view["game_id"], ActionRequest(expected_version=0, steps=[{"type": "resign"}]),
                               None)
    assert store.list_memberships(bob.id)[0].status == "active"  # until the outbox consumer runs
    services.dispatcher.drain_outbox()
    found = store.list_memberships(bob.id)[0]
    assert (found.status, found.version) == ("finished", 1)
    assert store.list_my_moves(bob.id) == []


@pytest.mark.contract
def test_a_change_that_fails_is_handed_out_again(services, store):
    game_of(services, moves=1)
    seen = []

    def fail_on_version_one(change):
        if change.committed is not None and change.committed.game.version == 1:
            raise RuntimeError("the consumer fell over")
        seen.append(change)

    with pytest.raises(RuntimeError):
        store.changes(fail_on_version_one)
    again = []
    store.changes(again.append)
    assert [c.committed.game.version for c in again if c.committed] == [1]


@pytest.mark.dynamodb
def test_a_poll_for_new_events_reads_only_the_latest_versions(store):
    meter = Meter(store.client.wrapped, table_definition(store.table))
    services = build_services(DynamoStore(meter, store.table), outlets=Outlets(links=LINKS))
    view, (ann, _) = game_of(services, moves=30)
    last = services.games.list_events(ann, view["game_id"], 0)["events"]
    meter.take()
    newest = services.games.list_events(ann, view["game_id"], last[-2]["seq"])["events"]
    charge = meter.take()
    assert [e["seq"] for e in newest] == [last[-1]["seq"]]
    # The game's load (settings and latest version) and one page of the newest versions: 1 unit each.
    assert charge.read_units <= 2, charge.table()
