"""Backfill the address lookup items (`EMAIL#<hash>` → player, docs/storage.md) of players who
signed up before account recovery added them: without one, ``recoverAccount`` by email does not
find the player, nor does a block stop an email invitation to them.

A one-off migration run by an operator, never on a request's path: it Scans the table's player
profiles, a page at a time, and writes each missing item on ``attribute_not_exists`` (running it
again, or while players sign up, changes nothing twice). The table and endpoint are the app's
own settings (``TABLE_NAME``, ``DYNAMODB_ENDPOINT``, the AWS region and credentials).

    TABLE_NAME=... .venv/bin/python -m devtools.backfill_player_emails --dry-run
    TABLE_NAME=... .venv/bin/python -m devtools.backfill_player_emails
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from chalicelib import config
from chalicelib.store import Store
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import check_layout


@dataclass
class Counts:
    players: int = 0  # profiles with an address
    added: int = 0  # lookup items written (dry run: that would be written)
    present: int = 0  # already there


def backfill(store: Store, *, dry_run: bool = False, page_size: int = 100) -> Counts:
    counts = Counts()
    for player_id, email in store.scan_profiles_with_email(page_size):
        counts.players += 1
        if dry_run:
            missing = not store.has_player_email(player_id, email)
        else:
            missing = store.add_player_email(player_id, email)
        if missing:
            counts.added += 1
        else:
            counts.present += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dry-run", action="store_true", help="count what is missing, write nothing")
    parser.add_argument("--page-size", type=int, default=100, help="items a Scan page reads (default 100)")
    arguments = parser.parse_args(argv)
    table, client = config.table_name(), config.dynamodb_client()
    check_layout(client, table)  # never write into a table of another layout
    counts = backfill(DynamoStore(client, table), dry_run=arguments.dry_run,
                      page_size=arguments.page_size)
    verb = "would add" if arguments.dry_run else "added"
    print(f"{table}: {counts.players} players with an address; {verb} {counts.added} lookup items, "
          f"{counts.present} were there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
