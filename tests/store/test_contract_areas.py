"""The same contract for each area's storage in memory and on DynamoDB (moto, DynamoDB Local): the
in-memory storage of an area passes exactly the tests its DynamoDB storage passes (conditional
writes, ordering, what a read hands back): here each area's class by itself; the whole store is
held to tests/store/test_contract_store.py."""

from __future__ import annotations

import pytest

from chalicelib.store.records import Attempt, Delivery, NotesRecord, WebhookEndpoint, WebhookSecret
from chalicelib.store.memory.mail import MemoryMailAnswers
from chalicelib.store.memory.notes import MemoryNotes
from chalicelib.store.memory.notifications import MemoryNotifications

MEMORY = {"notes": MemoryNotes, "notifications": MemoryNotifications, "mail": MemoryMailAnswers}


@pytest.fixture(params=["memory", "moto", pytest.param("dynamodb_local", marks=pytest.mark.integration)])
def stores(request):
    """``stores(area)``: that area's storage on the parametrized backend."""
    if request.param == "memory":
        yield lambda area: MEMORY[area]()
    else:
        store = request.getfixturevalue("store_on")(request.param)
        yield lambda area: store


@pytest.fixture
def store_on(request):
    from tests.conftest import DynamoStore, KEEP_BOTO3_SESSION, fresh_table, mock_aws, boto3

    opened = []

    def make(kind):
        if kind == "moto":
            mock = mock_aws(config=KEEP_BOTO3_SESSION)
            mock.start()
            opened.append(mock)
            client = boto3.client("dynamodb", region_name="us-east-1")
        else:
            client = request.getfixturevalue("dynamodb_local").client()
        return DynamoStore(client, fresh_table(client))

    yield make
    for mock in opened:
        mock.stop()


def endpoint(player="P1", webhook="W1", url="https://example.com/hook") -> WebhookEndpoint:
    return WebhookEndpoint(webhook, player, url, None, [WebhookSecret("salt", "2026-01-01T00:00:00Z")], None,
                           "2026-01-01T00:00:00Z")


def delivery(msg="M1", webhook="W1", status="pending", next_at="2026-01-01T00:01:00Z", version=0) -> Delivery:
    return Delivery(webhook, msg, "P1", "your_move", '{"a":1}', status, [Attempt("2026-01-01T00:00:00Z", 500)],
                    next_at, "2026-01-01T00:00:00Z", version)


# ------------------------------------------------------------------ notes


def test_notes_are_saved_over_and_read_back_per_seat(stores):
    store = stores("notes")
    assert store.get_notes("G1", 1) is None
    store.put_notes(NotesRecord("G1", 1, "P1", "first", "2026-01-01T00:00:00Z"))
    store.put_notes(NotesRecord("G1", 1, "P1", "second", "2026-01-01T00:01:00Z"))
    store.put_notes(NotesRecord("G1", 2, "P2", "theirs", "2026-01-01T00:02:00Z"))
    assert store.get_notes("G1", 1) == NotesRecord("G1", 1, "P1", "second", "2026-01-01T00:01:00Z")
    assert store.get_notes("G1", 2).text == "theirs"
    assert store.get_notes("G2", 1) is None


# ------------------------------------------------------------------ webhooks and deliveries


def test_webhooks_are_the_players_own_listed_by_id_and_deleted_once(stores):
    store = stores("notifications")
    store.put_webhook(endpoint(webhook="W2"))
    store.put_webhook(endpoint(webhook="W1"))
    store.put_webhook(endpoint(player="P2", webhook="W3"))
    assert [e.id for e in store.list_webhooks("P1")] == ["W1", "W2"]
    assert store.get_webhook("P1", "W3") is None  # another player's endpoint is not found
    assert store.get_webhook("P2", "W3") == endpoint(player="P2", webhook="W3")
    store.put_webhook(endpoint(webhook="W1", url="https://example.com/other"))
    assert store.get_webhook("P1", "W1").url == "https://example.com/other"
    assert store.delete_webhook("P1", "W1") is True
    assert store.delete_webhook("P1", "W1") is False
    assert [e.id for e in store.list_webhooks("P1")] == ["W2"]


def test_a_delivery_is_created_once_and_updated_only_at_the_version_read(stores):
    store = stores("notifications")
    assert store.create_delivery(delivery()) is True
    assert store.create_delivery(delivery()) is False  # a dispatch re-run
    assert store.update_delivery(delivery(status="delivered", next_at=None, version=1), expected_version=0) is True
    assert store.update_delivery(delivery(status="failed", next_at=None, version=1), expected_version=0) is False
    assert store.get_delivery("W1", "M1") == delivery(status="delivered", next_at=None, version=1)
    assert store.update_delivery(delivery(msg="M9", version=1), expected_version=0) is False  # never created
    assert store.get_delivery("W1", "M9") is None


def test_deliveries_are_listed_per_endpoint_and_due_when_pending(stores):
    store = stores("notifications")
    store.create_delivery(delivery("M2", next_at="2026-01-01T00:05:00Z"))
    store.create_delivery(delivery("M1", next_at="2026-01-01T00:01:00Z"))
    store.create_delivery(delivery("M3", status="delivered", next_at=None))
    store.create_delivery(delivery("M4", webhook="W2", next_at="2026-01-01T00:02:00Z"))
    assert [d.msg_id for d in store.list_deliveries("W1")] == ["M1", "M2", "M3"]
    due = store.due_deliveries("2026-01-01T00:03:00Z")
    assert sorted((d.webhook_id, d.msg_id) for d in due) == [("W1", "M1"), ("W2", "M4")]
    assert len(store.due_deliveries("2026-01-01T00:10:00Z", limit=2)) == 2
    assert store.due_deliveries("2026-01-01T00:00:00Z") == []


# ------------------------------------------------------------------ answers to inbound mail


def test_answers_to_an_address_are_counted_in_their_window_up_to_the_most(stores):
    """Each answer within the cap is told which it is (the last one says so to its reader); past the cap,
    none is counted; another window or address counts afresh."""
    mail = stores("mail")
    assert [mail.count_mail_answer("E1", "2026-01-01T10", 3, 2_000_000_000) for _ in range(5)] == [1, 2, 3, 0, 0]
    assert mail.count_mail_answer("E1", "2026-01-01T11", 3, 2_000_000_000) == 1
    assert mail.count_mail_answer("E2", "2026-01-01T10", 3, 2_000_000_000) == 1
