"""The whole ``Store`` contract on the in-memory store, moto and DynamoDB Local alike: conditional
writes and their errors, transactions all or nothing, ordering and pages, expiry, the indexes, what
follows a write only once ``project`` runs, and the change feed (the same calls make the same changes
on memory as on DynamoDB)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chalicelib.store.records import (
    EmailStop,
    EventRecord,
    GameRecord,
    IdempotencyRecord,
    InvitationCount,
    LadderChallenge,
    LadderRecord,
    Message,
    Player,
    RatingRecord,
    RecoveryRequest,
    RungRecord,
    SeatRecord,
    TournamentRecord,
)
from chalicelib.store.errors import DuplicateItem, IdempotencyRace, LimitReached, VersionConflict
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.memory.store import MemoryStore

pytestmark = pytest.mark.contract

T0 = "2026-01-01T00:00:00Z"


def a_game(game_id="g1", version=0, status="active", to_move=1, **more) -> GameRecord:
    return GameRecord(id=game_id, game="battleline", version=version, status=status,
                      seats=[SeatRecord(1, "p1", "Ann"), SeatRecord(2, "p2", "Bob")], options={"first_seat": 1},
                      state={"hands": {"1": ["a"], "2": ["b"]}, "turn": version}, seed=7, seed_public=False,
                      created_by="p1", created_at=T0, updated_at=f"2026-01-01T00:{version:02d}:00Z",
                      event_count=version + 1, to_move=to_move, **more)


def events(game: GameRecord) -> list[EventRecord]:
    return [EventRecord(game.id, game.event_count, game.version, "played", game.to_move, {"card": "a"},
                        game.updated_at, {"1": {"secret": True}})]


def message(n: int, player="p2") -> Message:
    return Message(f"m{n}", "your_move", player, {"n": n}, T0)


def key(name="k1", game_id=None, version=None) -> IdempotencyRecord:
    return IdempotencyRecord("p1", name, "fp", {"ok": True} if game_id is None else None, T0, game_id, version)


def players(store, *ids) -> None:
    for p in ids:
        store.create_player(Player(p, p.upper(), f"{p}@example.org", T0), f"hash-{p}", None)


# ------------------------------------------------------------------ games


def test_a_game_is_written_once_and_moves_one_version_at_a_time(store):
    players(store, "p1", "p2")
    game = a_game()
    store.create_game(game, events(game), key("make"))
    with pytest.raises(DuplicateItem):
        store.create_game(game, events(game), None)
    nxt = a_game(version=1, to_move=2)
    store.save_game(nxt, 0, events(nxt), None, [message(1)])
    with pytest.raises(VersionConflict) as lost:
        store.save_game(nxt, 0, events(nxt), None)
    assert lost.value.current_version == 1
    loaded = store.load_game("g1")
    assert (loaded.version, loaded.to_move, loaded.state, loaded.options) == (1, 2, nxt.state, {"first_seat": 1})
    assert store.latest_version("g1") == 1 and store.latest_version("nope") is None
    assert [e.seq for e in store.list_events("g1")] == [1, 2] and [e.seq for e in store.list_events("g1", 1)] == [2]
    assert [g.version for g, _ in store.game_history("g1")] == [0, 1]
    assert store.load_version("g1", 0)[1][0].private == {"1": {"secret": True}}
    assert store.get_idempotency("p1", "make").body == {"ok": True}


def test_what_a_caller_changes_after_a_write_or_a_read_is_not_stored(store):
    players(store, "p1", "p2")
    game = a_game()
    store.create_game(game, events(game), None)
    game.state["turn"] = 99
    game.seats[0].name = "Changed"
    read = store.load_game("g1")
    assert read.state["turn"] == 0 and read.seats[0].name == "Ann"
    read.state["turn"] = 42
    assert store.load_game("g1").state["turn"] == 0


def test_an_idempotency_key_used_first_writes_nothing(store):
    players(store, "p1", "p2")
    store.create_game(a_game("g1"), [], key("same"))
    with pytest.raises(IdempotencyRace):
        store.create_game(a_game("g2"), [], key("same"))
    assert store.load_game("g2") is None


def test_invitations_over_the_day_limit_write_nothing(store):
    players(store, "p1", "p2")
    count = InvitationCount("p1", "2026-01-01", 2, 3, 2_000_000_000)
    store.create_game(a_game("g1"), [], None, invitations=count)
    with pytest.raises(LimitReached):
        store.create_game(a_game("g2"), [], None, invitations=count)
    assert store.load_game("g2") is None and store.invitations_sent("p1", "2026-01-01") == 2


def test_heads_indexes_and_lists_follow_only_when_projected(store):
    players(store, "p1", "p2")
    store.create_game(a_game(), [], None)
    assert [m.game_id for m in store.list_my_moves("p1")] == ["g1"]
    done = a_game(version=1, status="finished", to_move=None)
    store.save_game(done, 0, [], None)
    assert [m.status for m in store.list_memberships("p2")] == ["active"]  # not projected yet
    found = []
    store.changes(found.append)
    for change in found:
        if change.committed:
            store.project(change.committed)
    assert [(m.status, m.version) for m in store.list_memberships("p2")] == [("finished", 1)]
    assert store.list_my_moves("p1") == [] and store.count_unfinished_games("p1") == 0


# ------------------------------------------------------------------ clocks


def test_a_reminder_is_sent_once_and_not_after_the_game_moved(store):
    players(store, "p1", "p2")
    game = a_game(due_at="2026-01-02T00:00:00Z", deadline="2026-01-02T00:00:00Z")
    store.create_game(game, [], None)
    assert store.due_games("2026-01-03T00:00:00Z") == ["g1"] and store.due_games("2026-01-01T12:00:00Z") == []
    assert store.send_reminder(game, "r1", [message(1)], None) == "sent"
    assert store.send_reminder(game, "r1", [message(1)], None) == "already"
    assert store.due_games("2026-01-03T00:00:00Z") == []
    assert store.send_reminder(replace(game, version=5), "r2", [], None) == "moved"
    assert store.set_game_due("g1", 0, "2026-01-02T00:00:00Z") and not store.set_game_due("g1", 3, None)


def test_a_clock_is_rewritten_in_place_until_the_game_moves_on(store):
    players(store, "p1", "p2")
    game = a_game(clock={"left": {"1": 10}}, deadline="2026-01-05T00:00:00Z")
    store.create_game(game, [], None)
    assert store.save_clock(replace(game, clock={"left": {"1": 20}}, deadline="2026-01-06T00:00:00Z"))
    loaded = store.load_game("g1")
    assert (loaded.clock, loaded.deadline) == ({"left": {"1": 20}}, "2026-01-06T00:00:00Z")
    store.save_game(a_game(version=1), 0, [], None)
    assert store.save_clock(game) is False


def test_a_digest_is_recorded_once_and_moves_the_next_send(store):
    players(store, "p1")
    store.set_preferences("p1", {"digest": {"enabled": True}}, "2026-01-01T08:00:00Z")
    assert store.due_digests("2026-01-01T09:00:00Z") == ["p1"]
    assert store.send_digest("p1", "2026-01-01", [message(1, "p1")], "2026-01-01T08:00:00Z",
                             "2026-01-02T08:00:00Z") == "sent"
    assert store.send_digest("p1", "2026-01-01", [message(1, "p1")], "2026-01-01T08:00:00Z", None) == "moved"
    assert store.send_digest("p1", "2026-01-01", [message(1, "p1")], "2026-01-02T08:00:00Z", None) == "already"
    assert store.get_player("p1").digest_at is None


# ------------------------------------------------------------------ players


def test_players_keys_and_recovery(store):
    players(store, "p1")
    with pytest.raises(DuplicateItem):
        store.create_player(Player("p1", "X", None, T0), "hash-other", None)
    store.add_api_key("p1", "laptop", "hash-new", T0, "hash-p1", "2026-01-02T00:00:00Z", 2_000_000_000)
    assert store.api_key("hash-new").fresh and store.api_key("hash-p1").until == "2026-01-02T00:00:00Z"
    assert store.activate_api_key("p1", "hash-new") and store.api_key("hash-p1") is None
    assert store.get_player("p1").key_generation == 2
    store.add_recovery(RecoveryRequest("r1", ("p1",), (), T0), [message(1, "p1")])
    assert store.replace_api_keys("p1", "p1", "hash-back", T0, recovery_id="r1")
    assert store.replace_api_keys("p1", "p1", "hash-again", T0, recovery_id="r1") is False
    assert store.recovery("r1").used == ("p1",) and store.api_key("hash-new") is None
    assert store.players_with_email(__import__("chalicelib.kernel.ids").kernel.ids.hash_email("p1@example.org")) == ["p1"]


def test_a_stopped_address_stays_stopped_until_set_again(store):
    assert store.stop_email("h", EmailStop("bounce", "2026-01-02T00:00:00Z", "permanent"))
    assert store.stop_email("h", EmailStop("complaint", "2026-01-03T00:00:00Z", "complaint")) is False
    assert store.email_stop("h").reason == "bounce"


def test_find_players_pages_by_name(store):
    for n in range(5):
        store.create_player(Player(f"p{n}", "Ann", None, T0), f"h{n}", None)
    store.create_player(Player("q", "Bob", None, T0), "hq", None)
    first, after = store.find_players("ann", 3, None)
    rest, end = store.find_players("ann", 3, after)
    assert len(first) == 3 and len(rest) == 2 and end is None
    assert {p.id for p in first + rest} == {f"p{n}" for n in range(5)}


# ------------------------------------------------------------------ ratings, tournaments, ladders


def test_ratings_are_saved_once_per_game_on_their_versions(store):
    assert store.save_ratings("g1", [RatingRecord("p1", "battleline", 1600, 80, 0.06, games=1)])
    assert store.save_ratings("g1", [RatingRecord("p1", "battleline", 1700, 80, 0.06)]) is False
    with pytest.raises(VersionConflict):
        store.save_ratings("g2", [RatingRecord("p1", "battleline", 1700, 80, 0.06)])
    assert store.get_rating("p1", "battleline").version == 1 and store.list_ratings("p2") == []


def tournament(n: int, status="open") -> TournamentRecord:
    return TournamentRecord(f"t{n}", {"id": f"t{n}", "name": "Cup", "game": "battleline", "format": "swiss",
                                      "status": status, "round": 0, "rounds": 3, "players": [], "max_players": 8,
                                      "organiser": "p1", "created_at": f"2026-01-0{n}T00:00:00Z"})


def test_tournaments_are_written_on_their_version_and_listed_newest_first(store):
    for n in (1, 2, 3):
        store.put_tournament(tournament(n), None)
    with pytest.raises(VersionConflict):
        store.put_tournament(tournament(1), None)
    store.put_tournament(replace(tournament(1), version=1), 0)
    with pytest.raises(VersionConflict):
        store.put_tournament(replace(tournament(1), version=2), 0)
    page, before = store.list_tournaments(["open"], 2, None)
    rest, end = store.list_tournaments(["open"], 2, before)
    assert [t["id"] for t in page] == ["t3", "t2"] and [t["id"] for t in rest] == ["t1"] and end is None


def test_a_creation_writes_its_idempotency_record_with_it_and_a_key_used_first_writes_nothing(store):
    """createTournament, createLadder and createWebhook write their Idempotency-Key's record in the same
    write as what they make: a key used first (a retry racing the first request) makes nothing more."""
    from chalicelib.store.records import WebhookEndpoint, WebhookSecret

    store.put_tournament(tournament(1), None, idempotency=key("t"))
    assert store.get_idempotency("p1", "t").body == {"ok": True}
    with pytest.raises(IdempotencyRace):
        store.put_tournament(tournament(2), None, idempotency=key("t"))
    assert store.load_tournament("t2") is None
    with pytest.raises(VersionConflict):
        store.put_tournament(tournament(1), None, idempotency=key("t-again"))
    assert store.get_idempotency("p1", "t-again") is None

    ladder = LadderRecord("L", "Ladder", "battleline", {}, 2, 1, 3, 30, "p1", T0)
    assert store.create_ladder(ladder, key("l"))
    assert store.get_idempotency("p1", "l") is not None
    with pytest.raises(IdempotencyRace):
        store.create_ladder(replace(ladder, id="L2"), key("l"))
    assert store.load_ladder("L2") is None
    assert store.create_ladder(ladder, key("l-again")) is False and store.get_idempotency("p1", "l-again") is None

    def hook(webhook_id: str) -> WebhookEndpoint:
        return WebhookEndpoint(webhook_id, "p1", "https://example.com/h", None, [WebhookSecret("salt", T0)], None, T0)

    store.create_webhook(hook("W1"), key("w"))
    assert store.get_webhook("p1", "W1") == hook("W1") and store.get_idempotency("p1", "w") is not None
    with pytest.raises(IdempotencyRace):
        store.create_webhook(hook("W2"), key("w"))
    assert store.get_webhook("p1", "W2") is None
    with pytest.raises(DuplicateItem):
        store.create_webhook(hook("W1"), None)
    store.create_webhook(hook("W3"), None)
    assert [e.id for e in store.list_webhooks("p1")] == ["W1", "W3"]


def test_a_ladder_challenge_is_opened_and_settled_once(store):
    players(store, "p1", "p2")
    ladder = LadderRecord("L", "Ladder", "battleline", {}, 2, 1, 3, 30, "p1", T0)
    assert store.create_ladder(ladder) and not store.create_ladder(ladder)
    top, low = RungRecord("p2", "P2", "a", 0, T0, T0), RungRecord("p1", "P1", "b", 0, T0, T0)
    assert store.join_ladder("L", top, "2026-02-01T00:00:00Z") == "joined"
    assert store.join_ladder("L", top, "2026-02-01T00:00:00Z") == "already"
    assert store.join_ladder("L", replace(low, player_id="p3"), T0) == "joined"
    assert store.join_ladder("L", replace(low, position="a"), T0) == "taken"
    assert store.leave_ladder("L", replace(low, player_id="p3"))
    assert store.join_ladder("L", low, "2026-02-01T00:00:00Z") == "joined"
    challenge = LadderChallenge("g1", "p1", "p2", "2026-01-04T00:00:00Z", T0)
    game = a_game(ladder_id="L")
    pair = [(low, "2026-02-01T00:00:00Z"), (top, "2026-02-01T00:00:00Z")]
    assert store.open_ladder_challenge(game, [], [], None, challenge, pair, 1) == "opened"
    assert store.open_ladder_challenge(a_game("g2", ladder_id="L"), [], [], None, challenge, pair, 1) == \
        "already_challenged"
    assert store.due_ladders("2026-01-05T00:00:00Z") == ["L"]
    assert store.ladder_challenge_answered("L", challenge)
    assert store.due_ladders("2026-01-05T00:00:00Z") == []
    board = store.load_ladder("L")
    assert [r.player_id for r in board.rungs] == ["p2", "p1"] and [r.open_challenges for r in board.rungs] == [1, 1]
    moved = [(replace(low, open_challenges=1), "2026-03-01T00:00:00Z"), (replace(top, open_challenges=1), "x")]
    assert store.settle_ladder_challenge("L", challenge, moved, (low, "0"), T0, [message(1)]) == "settled"
    assert store.settle_ladder_challenge("L", challenge, moved, (low, "0"), T0, []) == "already"
    board = store.load_ladder("L")
    assert [r.player_id for r in board.rungs] == ["p1", "p2"] and board.challenges == []


def test_an_idempotency_record_is_gone_after_a_day(store):
    now = [1_800_000_000]
    store = MemoryStore(now_epoch=lambda: now[0]) if isinstance(store, MemoryStore) else \
        DynamoStore(store.client, store.table, now_epoch=lambda: now[0])  # the store on the test's clock
    players(store, "p1", "p2")
    store.create_game(a_game("g1"), [], key("once"))
    assert store.get_idempotency("p1", "once") is not None
    now[0] += 24 * 3600 + 1
    assert store.get_idempotency("p1", "once") is None
    store.create_game(a_game("g2"), [], key("once"))  # an expired key may be used again
    assert store.get_idempotency("p1", "once").body == {"ok": True}


# ------------------------------------------------------------------ the change feed


def a_history(store) -> None:
    """Writes of every kind that the outbox consumer hears of, and some it does not."""
    players(store, "p1", "p2")
    game = a_game(clock={"left": 5}, due_at="2026-01-02T00:00:00Z", deadline="2026-01-02T00:00:00Z")
    store.create_game(game, events(game), None, [message(1)])
    store.save_clock(replace(game, clock={"left": 6}))
    nxt = a_game(version=1, to_move=2)
    store.save_game(nxt, 0, events(nxt), None, [message(2)])
    store.send_reminder(game, "r1", [message(3)], None)  # the head is still at version 0: not projected
    store.send_reminder(nxt, "r2", [], None)  # nothing to tell
    store.add_recovery(RecoveryRequest("r1", ("p1",), (), T0), [message(4, "p1")])
    store.replace_api_keys("p1", "p1", "hash-back", T0, recovery_id="r1")  # the links are not mailed again
    store.put_tournament(tournament(1), None, [message(5)])
    store.put_tournament(replace(tournament(1), version=1), 0)
    store.set_preferences("p2", {}, "2026-01-01T08:00:00Z")
    store.send_digest("p2", "2026-01-01", [message(6)], "2026-01-01T08:00:00Z", None)
    store.put_notes(__import__("chalicelib.store.records").store.records.NotesRecord("g1", 1, "p1", "hm", T0))


def test_the_same_writes_make_the_same_changes_on_memory_and_on_dynamodb(store):
    a_history(store)
    memory = MemoryStore()
    a_history(memory)
    found, wanted = [], []
    store.tail().each(found.append)
    memory.tail().each(wanted.append)
    assert found == wanted
    assert [(c.committed.game.version, c.committed.new) for c in found if c.committed] == [(0, True), (0, False),
                                                                                             (1, True)]
    assert [m.id for c in found for m in c.messages] == ["m1", "m1", "m2", "m3", "m4", "m5", "m6"]
    again = []
    store.tail().each(again.append)  # a reader of its own starts from the oldest
    assert again == found


def test_my_moves_soonest_deadline_first_and_open_games_newest_first(store):
    players(store, "p1", "p2")
    store.create_game(a_game("g1", deadline="2026-01-09T00:00:00Z"), [], None)
    store.create_game(a_game("g2"), [], None)  # no clock: last
    store.create_game(a_game("g3", deadline="2026-01-03T00:00:00Z"), [], None)
    assert [(m.game_id, m.deadline) for m in store.list_my_moves("p1")] == [
        ("g3", "2026-01-03T00:00:00Z"), ("g1", "2026-01-09T00:00:00Z"), ("g2", None)]
    for n, made in enumerate(["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"]):
        waiting = a_game(f"w{n}", status="waiting", to_move=None)
        waiting.created_at = made
        waiting.seats[1] = SeatRecord(2, None, "", open=True)
        store.create_game(waiting, [], None)
    assert store.open_games("battleline", 5) == ["w1", "w0"] and store.open_games("khan", 5) == []
    asked = a_game("g4")
    asked.seats[1].accepted = False
    store.create_game(asked, [], None)
    assert store.count_unfinished_games("p2") == 3 and store.count_unfinished_games("p1") == 6
