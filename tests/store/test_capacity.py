"""What a move costs in DynamoDB, as AWS bills it (``benchmarks.meter``: item sizes, per-item
rounding, index writes), and that no key is shared by the moves of different games: the
budget and the "no hot key" rule of docs/storage.md, held by tests. (The figures themselves,
for every scenario, are ``make bench``'s: docs/benchmarks.md.)"""

from __future__ import annotations

import random

import pytest

from benchmarks.item_size import version_sizes
from benchmarks.meter import Charge, Meter, item_size
from chalicelib.kernel.calls import Idempotency
from chalicelib.config import build_services
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, CreateWebhookRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.webhooks import SendResult
from chalicelib.store import keys
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import table_definition

from ..conftest import LINKS
from ..fakes import start_game

pytestmark = pytest.mark.dynamodb  # capacity units and item sizes: DynamoDB itself

CLOCK = {"per_move_days": 3}


class Receiver:
    """A webhook receiver that answers 200 and counts what it got."""

    def __init__(self) -> None:
        self.got = 0

    def __call__(self, target, body, headers, timeout=None) -> SendResult:
        self.got += 1
        return SendResult(200)


@pytest.fixture
def metered(store, monkeypatch):
    monkeypatch.setenv("ALLOW_PRIVATE_WEBHOOKS", "1")
    meter = Meter(store.client.wrapped, table_definition(store.table))
    on_meter = DynamoStore(meter, store.table)
    receiver = Receiver()
    services = build_services(on_meter, outlets=Outlets(links=LINKS, send=receiver, allow_private=True))
    return meter, services, receiver


def new_game(services, game="battleline", clock=None, webhook=False, names=("Ann", "Bob")):
    players = []
    for name in names:
        created = services.players.create_player(CreatePlayerRequest(name=name), None).body
        caller = services.players.authenticate(created["api_key"])
        if webhook:
            services.webhooks.create_webhook(caller, CreateWebhookRequest(url="http://127.0.0.1/hook"))
        players.append((created["api_key"], caller))
    options = {"first_seat": 1, **({"time_control": clock} if clock else {})}
    view = start_game(services, players[0][1], CreateGameRequest(
        game=game, options=options, seats=[PlayerSeat(player_id=c.id) for _, c in players]), [c for _, c in players])
    services.dispatcher.drain_outbox()
    return view, players


def one_move(meter, services, view, players, rng, idempotency=False) -> tuple[dict, Charge]:
    """One one-step move by API key, and what the outbox consumer does after it; the whole charge."""
    key, caller = players[view["to_move"] - 1]
    view = services.games.get_game(caller, view["game_id"])
    step = rng.choice([s for s in view["legal_steps"] if s["type"] not in ("resign", "offer_draw")])
    meter.take()
    mover = services.players.authenticate(key)
    request = Idempotency(f"k-{view['version']}", "f" * 64) if idempotency else None
    view = services.games.post_action(mover, view["game_id"], ActionRequest(
        expected_version=view["version"], steps=[step]), request).body["view"]
    services.dispatcher.drain_outbox()
    return view, meter.take()


def moves(meter, services, count, *, game="battleline", clock=None, idempotency=False, webhook=False,
          receiver=None):
    """The charge of each of ``count`` moves (with what the receiver got for it, if given)."""
    view, players = new_game(services, game, clock, webhook)
    rng = random.Random(7)
    charges = []
    while len(charges) < count and view["status"] == "active":
        before = receiver.got if receiver else 0
        view, charge = one_move(meter, services, view, players, rng, idempotency)
        charges.append((charge, receiver.got - before) if receiver else charge)
    return charges


@pytest.mark.parametrize("game", ["battleline", "khan"])
def test_a_move_costs_at_most_two_read_and_four_write_units(metered, game):
    """By AWS's rules, index writes and the outbox consumer's work included: authenticating (the key's
    item), loading the game (settings and latest version, one query), writing the version; then the
    head and its my_move entry. Players with no email and no webhook cost no lookup."""
    meter, services, _ = metered
    for charge in moves(meter, services, 12, game=game):
        assert charge.read_units <= 2, charge.table()
        assert charge.total_write_units <= 4, charge.table()


@pytest.mark.parametrize("clock", [CLOCK, {"initial_days": 3, "increment_days": 1, "max_days": 10,
                                           "weekend_pause": True, "vacations_allowed": False}])
def test_a_move_with_a_clock_costs_at_most_six_write_units(metered, clock):
    """The clock moves the game's entry in the sweeper's ``due`` index (a delete and a put); the next
    mover's vacations (and, under a weekend pause, time zone) come with the game, not from a read of
    their record."""
    meter, services, _ = metered
    for charge in moves(meter, services, 12, clock=clock):
        assert charge.read_units <= 2, charge.table()
        assert charge.total_write_units <= 6, charge.table()


def test_issue39_item6_a_clocked_move_moves_its_due_entry_when_the_turn_passes(metered):
    """The head's ``due`` entry is keyed by the clock's next look (``due_at``): a step that passes the
    turn moves it, a delete and a put by AWS's rule, and stays within the six write units; a step
    within the turn (the same deadline) leaves it where it is."""
    meter, services, _ = metered
    view, players = new_game(services, clock=CLOCK)
    rng = random.Random(7)
    passed = within = 0
    for _ in range(9):
        mover = view["to_move"]
        view, charge = one_move(meter, services, view, players, rng)
        due = [w.kind for call in charge.calls for i in call.items for w in i.index_writes if w.index == "due"]
        if view["to_move"] != mover:
            passed += 1
            assert due == ["delete", "put"], charge.table()
        else:
            within += 1
            assert due == [], charge.table()
        assert charge.total_write_units <= 6, charge.table()
    assert passed and within


def test_an_idempotency_key_adds_at_most_two_units(metered):
    meter, services, _ = metered
    for charge in moves(meter, services, 8, idempotency=True):
        assert charge.read_units <= 2 + 2, charge.table()
        assert charge.total_write_units <= 4 + 2, charge.table()


def test_each_webhook_delivery_costs_one_write(metered):
    """A recipient costs what its own delivery needs: a look at their webhooks (shared by the messages
    of one move), a check that the delivery was not made already, and one write recording it."""
    meter, services, receiver = metered
    for charge, delivered in moves(meter, services, 8, webhook=True, receiver=receiver):
        assert delivered >= 2  # every move tells both players (game.action)
        assert charge.total_write_units <= 4 + delivered, charge.table()
        assert charge.read_units <= 2 + 0.5 * 2 + 0.5 * delivered, charge.table()


def partitions(charge: Charge) -> tuple[set[str], set[str]]:
    """The table partitions and the index partitions a charge wrote."""
    table, index = set(), set()
    for call in charge.calls:
        for item in call.items:
            if item.action in ("put", "update", "delete"):
                table.add(item.key.split(", SK=")[0].removeprefix("PK="))
                index.update(write.partition for write in item.index_writes)
    return table, index


def test_no_key_is_written_by_moves_of_two_different_games(metered):
    """A move writes only its game's partition and its seats' players' (profile partition, webhook
    endpoints), and index entries under a per-player key or one of 16 hash shards: never a key every
    game shares (docs/storage.md). Three games, with clocks and webhooks, their moves interleaved."""
    meter, services, receiver = metered
    games = [new_game(services, clock=CLOCK, webhook=True, names=(f"A{n}", f"B{n}")) for n in range(3)]
    rng = random.Random(3)
    written: dict[str, set[str]] = {}
    for _ in range(10):
        for number, (view, players) in enumerate(games):
            view, charge = one_move(meter, services, view, players, rng)
            games[number] = (view, players)
            ids = [c.id for _, c in players]
            endpoints = {w.id for p in ids for w in services.store.list_webhooks(p)}
            table, index = partitions(charge)
            own = {keys.game_pk(view["game_id"])} | {keys.player_pk(p) for p in ids} \
                | {keys.webhook_pk(e) for e in endpoints} | {keys.webhook_pk("email-" + p) for p in ids}
            assert table <= own, table - own
            sharded = {p for p in index if p.split("#")[0] in (keys.CLOCK_DUE, keys.DELIVERY_DUE)}
            assert index - sharded <= set(ids), index - sharded - set(ids)  # my_move: the players' own key
            assert all(int(p.split("#")[1]) < keys.SHARDS for p in sharded)
            for partition in table | (index - sharded):
                written.setdefault(partition, set()).add(view["game_id"])
    assert receiver.got > 0
    assert {p: g for p, g in written.items() if len(g) > 1} == {}


def test_a_battle_line_game_item_stays_under_1_kb_for_a_whole_game():
    """Every version a whole game writes (with a running clock and an Idempotency-Key's mark)."""
    largest = max(max(version_sizes("battleline", seed)) for seed in range(10))
    assert largest < 1024, largest


def test_a_khan_game_item_stays_under_2_kb_for_a_whole_game():
    largest = max(max(version_sizes("khan", seed)) for seed in range(3))
    assert largest < 2048, largest


def test_a_message_makes_only_its_own_version_bigger(metered):
    """A move with the longest message (500 Chinese characters, which compress worst) writes a
    bigger version, that once: under 2 KB (2 write units more at most), the game still loads in one
    read unit, and the versions after it are as small as before (they keep only the message's seq).
    A message also asks whether its readers blocked its sender: one BatchGet, half a unit per other
    seat (issue 23)."""
    meter, services, _ = metered
    view, players = new_game(services)
    rng = random.Random(3)
    text = "".join(rng.choice("你好世界棋局旗帜卡牌军队将军骑兵步兵弓箭手") for _ in range(500))
    key, caller = players[0]
    step = next(s for s in view["legal_steps"] if s["type"] == "play")
    meter.take()
    mover = services.players.authenticate(key)
    services.games.post_action(mover, view["game_id"], ActionRequest(expected_version=0, steps=[step],
                                                                     message=text), None)
    services.dispatcher.drain_outbox()
    charge = meter.take()
    assert charge.read_units <= 2.5, charge.table()
    assert charge.total_write_units <= 6, charge.table()
    item = services.store.client.get_item(TableName=services.store.table, Key=dict(
        (k, {"S": v}) for k, v in keys.version(view["game_id"], 1).items()))["Item"]
    assert 1024 < item_size(item) < 2048, item_size(item)
    # the next moves load it with the settings in one read unit, and write small versions again
    view = services.games.get_game(caller, view["game_id"])
    for _ in range(4):
        view, charge = one_move(meter, services, view, players, rng)
        assert charge.read_units <= 2, charge.table()
        assert charge.total_write_units <= 4, charge.table()
