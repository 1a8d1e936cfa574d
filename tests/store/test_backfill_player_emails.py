"""devtools/backfill_player_emails.py: the address lookup items of players who signed up before
account recovery added them (docs/storage.md), written once, so recoverAccount finds them."""

from __future__ import annotations

import pytest

from chalicelib.kernel import ids
from chalicelib.store.records import Player
from chalicelib.store import keys
from chalicelib.store.items import typed_key
from devtools import backfill_player_emails
from devtools.backfill_player_emails import backfill

pytestmark = pytest.mark.dynamodb  # players made as DynamoDB held them before the migration


def old_player(store, player_id: str, email: str | None) -> None:
    """A player as sign-up made them before the address lookup item existed."""
    store.create_player(Player(player_id, player_id, email, "2026-01-01T00:00:00Z"), f"hash-{player_id}", None)
    if email:
        store.client.delete_item(TableName=store.table, Key=typed_key(keys.player_email(ids.hash_email(email),
                                                                                        player_id)))


@pytest.fixture
def players(store):
    old_player(store, "p_ann000000000000", "Ann@Example.org")
    old_player(store, "p_bob000000000000", "bob@example.org")
    old_player(store, "p_cy0000000000000", None)  # no address: nothing to add
    store.create_player(Player("p_dee000000000000", "Dee", "dee@example.org", "2026-11-24T00:00:00Z"),
                        "hash-dee", None)  # signed up since: has it
    return store


def test_old_players_are_found_by_their_address_after_the_backfill(players):
    assert players.players_with_email(ids.hash_email("ann@example.org")) == []
    counts = backfill(players, page_size=2)  # several Scan pages
    assert (counts.players, counts.added, counts.present) == (3, 2, 1)
    assert players.players_with_email(ids.hash_email("ann@example.org")) == ["p_ann000000000000"]
    assert players.players_with_email(ids.hash_email("bob@example.org")) == ["p_bob000000000000"]
    assert players.players_with_email(ids.hash_email("dee@example.org")) == ["p_dee000000000000"]


def test_the_backfill_is_idempotent(players):
    backfill(players)
    again = backfill(players)
    assert (again.players, again.added, again.present) == (3, 0, 3)


def test_a_dry_run_counts_and_writes_nothing(players):
    counts = backfill(players, dry_run=True)
    assert (counts.players, counts.added, counts.present) == (3, 2, 1)
    assert players.players_with_email(ids.hash_email("ann@example.org")) == []


def test_the_script_uses_the_apps_table_settings(players, monkeypatch, capsys, request):
    monkeypatch.setenv("TABLE_NAME", players.table)
    if request.node.callspec.params.get("store") == "moto":
        monkeypatch.delenv("DYNAMODB_ENDPOINT", raising=False)
    else:
        monkeypatch.setenv("DYNAMODB_ENDPOINT", players.client.meta.endpoint_url)
    assert backfill_player_emails.main(["--dry-run"]) == 0
    assert players.players_with_email(ids.hash_email("bob@example.org")) == []
    assert backfill_player_emails.main([]) == 0
    assert "added 2 lookup items, 1 were there" in capsys.readouterr().out
    assert players.players_with_email(ids.hash_email("bob@example.org")) == ["p_bob000000000000"]
