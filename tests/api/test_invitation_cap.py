"""The daily cap on invitations by email (issue 24): a player may invite at most
INVITATIONS_PER_DAY addresses that are not players yet in a UTC day; over it createGame is
refused with 429 ``too_many_invitations``, ``limit`` and ``Retry-After`` (seconds to the next UTC
midnight), and nothing is created, mailed or counted. The count is stored with the game, so it
holds across Lambda instances; seats of existing players, bots and open seats never count."""

import threading
from datetime import datetime, timedelta, timezone

import pytest
from chalice.test import Client

import app as app_module
from chalicelib import config
from chalicelib.config import build_services
from chalicelib.notify.dispatcher import Outlets
from chalicelib.services.limits import INVITATIONS_PER_DAY
from tests.api.test_contract import problem_of
from tests.conftest import ApiClient
from tests.fakes import FakeClock
from tests.notify.helpers import LINKS, Outbox
from tests.outbox import written

CAP = 3
START = datetime(2026, 3, 2, 21, 30, tzinfo=timezone.utc)  # 2.5 hours before a UTC midnight


@pytest.fixture
def capped(store, monkeypatch):
    clock, outbox = FakeClock(START), Outbox()
    services = build_services(store, clock=clock, outlets=Outlets(mailer=outbox, links=LINKS),
                              invitation_cap=CAP)
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        yield ApiClient(client, store), services, clock, outbox


def invite(api, creator, *addresses, players=()):
    seats = [{"player_id": creator["id"]}, *({"player_id": p["id"]} for p in players),
             *({"email": a} for a in addresses)]
    options = {"players": len(seats)} if len(seats) > 2 else {}
    return api.post("/v1/games", {"game": "battleline", "seats": seats, "options": options}, key=creator["api_key"])


def invitations_mailed(store) -> list[str]:
    return [m.data["invite_email"] for m in written(store) if m.data.get("invite_email")]


def test_the_documented_default_is_20(monkeypatch):
    assert INVITATIONS_PER_DAY == 20
    monkeypatch.delenv("INVITATIONS_PER_DAY", raising=False)
    assert config.invitations_per_day() == 20
    monkeypatch.setenv("INVITATIONS_PER_DAY", "7")  # the CDK context setting invitations_per_day
    assert config.invitations_per_day() == 7


def test_the_invitation_over_the_cap_is_refused_until_the_next_utc_day(capped):
    api, services, clock, outbox = capped
    ann = api.signup("Ann")
    for n in range(CAP):
        assert invite(api, ann, f"friend{n}@example.org").status == 201
    games = len(api.get("/v1/games", key=ann["api_key"]).body["games"])
    refused = invite(api, ann, "one.more@example.org")
    body = problem_of(refused, 429, "too_many_invitations")
    assert body["limit"] == CAP and str(CAP) in body["detail"]
    assert refused.headers["retry-after"] == str(int(2.5 * 3600))  # until 00:00 UTC
    # nothing created, nothing to mail, nothing counted
    assert len(api.get("/v1/games", key=ann["api_key"]).body["games"]) == games == CAP
    assert "one.more@example.org" not in invitations_mailed(services.store)
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == CAP
    services.dispatcher.drain_outbox()
    assert not any(m["To"] == "one.more@example.org" for m in outbox.sent)
    clock.advance(timedelta(hours=2, minutes=29))
    problem_of(invite(api, ann, "one.more@example.org"), 429, "too_many_invitations")
    clock.advance(timedelta(minutes=1))  # midnight UTC: a new day, a new count
    assert invite(api, ann, "one.more@example.org").status == 201
    assert services.store.invitations_sent(ann["id"], "2026-03-03") == 1
    services.dispatcher.drain_outbox()
    assert any(m["To"] == "one.more@example.org" for m in outbox.sent)


def test_seats_of_players_bots_and_open_seats_do_not_count(capped):
    api, services, clock, outbox = capped
    ann, bob, cy = api.signup("Ann"), api.signup("Bob"), api.signup("Cy")
    for _ in range(CAP + 2):
        assert invite(api, ann, players=[bob]).status == 201
        assert api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"open": True}]},
                        key=ann["api_key"]).status == 201
        assert api.post("/v1/games", {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"bot": "random"}]},
                        key=ann["api_key"]).status == 201
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == 0
    assert invite(api, ann, "a@example.org", players=[cy]).status == 201  # the address counts, Cy does not
    assert invite(api, ann, "b@example.org", "c@example.org").status == 201
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == CAP
    assert invite(api, bob, "a@example.org", "b@example.org").status == 201  # each player has their own count


def test_a_refused_game_leaves_no_game_and_counts_nothing(capped):
    api, services, clock, outbox = capped
    ann, bob = api.signup("Ann"), api.signup("Bob")
    assert invite(api, ann, "a@example.org").status == 201
    assert invite(api, ann, "b@example.org").status == 201
    # two more would make 4: the whole game is refused, not one seat of it
    problem_of(invite(api, ann, "c@example.org", "d@example.org"), 429, "too_many_invitations")
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == 2
    assert invite(api, ann, "c@example.org", players=[bob]).status == 201  # exactly the cap
    before = api.get("/v1/games", key=bob["api_key"]).body["games"]
    problem_of(invite(api, ann, "d@example.org", players=[bob]), 429, "too_many_invitations")
    assert api.get("/v1/games", key=bob["api_key"]).body["games"] == before  # no new game seats Bob
    assert len(api.get("/v1/games", key=ann["api_key"]).body["games"]) == 3
    assert sorted(invitations_mailed(services.store)) == ["a@example.org", "b@example.org", "c@example.org"]
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == CAP


def test_one_game_inviting_more_than_a_day_allows_is_refused_at_once(capped):
    api, services, clock, outbox = capped
    services.creation.invitations.most = 1
    ann = api.signup("Ann")
    body = problem_of(invite(api, ann, "a@example.org", "b@example.org"), 429, "too_many_invitations")
    assert body["limit"] == 1
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == 0


def test_a_retry_with_the_same_idempotency_key_is_counted_once(capped):
    api, services, clock, outbox = capped
    ann = api.signup("Ann")
    body = {"game": "battleline", "seats": [{"player_id": ann["id"]}, {"email": "a@example.org"}]}
    first = api.post("/v1/games", body, key=ann["api_key"], headers={"Idempotency-Key": "k1"})
    again = api.post("/v1/games", body, key=ann["api_key"], headers={"Idempotency-Key": "k1"})
    assert first.status == again.status == 201 and first.body["game_id"] == again.body["game_id"]
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == 1


def test_invitations_at_once_never_go_over_the_cap(capped, concurrent):
    """Unlike the limit on unfinished games (checked, not reserved), the cap is a conditional count
    in each game's transaction: requests at once one below it make exactly one game; the others are
    refused (429), or lose the transaction race (503, nothing written), never made."""
    api, services, clock, outbox = capped
    ann = api.signup("Ann")
    for n in range(CAP - 1):
        assert invite(api, ann, f"friend{n}@example.org").status == 201
    answers: list[int] = []
    lock = threading.Lock()

    def make(n):
        status = invite(api, ann, f"racer{n}@example.org").status
        with lock:
            answers.append(status)

    threads = [threading.Thread(target=make, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers.count(201) <= 1 and set(answers) <= {201, 429, 503}
    made = answers.count(201)
    assert services.store.invitations_sent(ann["id"], "2026-03-02") == CAP - 1 + made
    assert len(api.get("/v1/games", key=ann["api_key"]).body["games"]) == CAP - 1 + made
    if not made:  # every one lost the race: the place is still there
        assert invite(api, ann, "last@example.org").status == 201
    problem_of(invite(api, ann, "over@example.org"), 429, "too_many_invitations")
