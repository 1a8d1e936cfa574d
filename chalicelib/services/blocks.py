"""Blocks (issue 23): a player blocks another, who then cannot challenge them (createGame naming
them), take a seat in a game they sit in (joinGame), nor be seated by them; either block is
enough, whichever of the two made it. A blocked player's messages are not shown to the blocker.
Tournaments and ladders still pair blocked players (entering one is consent to its pairings).

A block is one item in the blocker's partition (``keys.block``): listBlocks is one query of it;
whether any of a few pairs is blocked is one BatchGet (no scan, no index)."""

from __future__ import annotations

from typing import Iterable

from ..kernel import ids
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..kernel.i18n import _
from ..store.records import BlockRecord, Caller
from ..store.protocol import Store


class Blocks:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def block(self, caller: Caller, player_id: str) -> dict:
        """Block the player (again: the same answer, the first time kept)."""
        if player_id == caller.id:
            raise ServiceError("cannot_block_self", _("you cannot block yourself"))
        player = self.store.get_player(player_id) if ids.ID.fullmatch(player_id) else None
        if player is None:
            raise ServiceError("unknown_player", _("there is no player {player_id!r}").format(player_id=player_id))
        before = next((b for b in self.store.list_blocks(caller.id) if b.player_id == player_id), None)
        block = before or BlockRecord(player.id, player.name, iso(self.clock.now()))
        if before is None:
            self.store.put_block(caller.id, block)
        return block_json(block)

    def unblock(self, caller: Caller, player_id: str) -> None:
        """Lift the block (nothing if there was none: the same answer)."""
        if not ids.ID.fullmatch(player_id) or self.store.get_player(player_id) is None:
            raise ServiceError("unknown_player", _("there is no player {player_id!r}").format(player_id=player_id))
        self.store.delete_block(caller.id, player_id)

    def list_blocks(self, caller: Caller) -> dict:
        blocks = sorted(self.store.list_blocks(caller.id), key=lambda b: (b.blocked_at, b.player_id))
        return {"blocks": [block_json(b) for b in blocks]}

    # ------------------------------------------------------------------ checks (for the other services)

    def refuse_if_blocked(self, player_id: str, others: Iterable[str]) -> None:
        """``blocked`` if ``player_id`` and any of ``others`` blocked each other, either way round
        (one BatchGet of two keys per other player). The refusal says no more: not who blocked whom."""
        others = [o for o in dict.fromkeys(others) if o and o != player_id]
        pairs = [(player_id, o) for o in others] + [(o, player_id) for o in others]
        if self.store.blocks_among(pairs):
            raise ServiceError("blocked", _("you cannot play this game with this player"))

    def refuse_if_blocked_at(self, player_id: str, addresses: Iterable[str]) -> None:
        """``blocked`` if a player with one of these addresses (email invitations) and ``player_id``
        blocked each other: one query of each address's own partition (``keys.player_email``), then
        :meth:`refuse_if_blocked`. An address no player has, or none blocked, answers nothing: the
        check never tells whether an address plays here."""
        found = [p for a in dict.fromkeys(addresses) for p in self.store.players_with_email(ids.hash_email(a))]
        if found:
            self.refuse_if_blocked(player_id, found)

    def blocking(self, sender_id: str, recipients: Iterable[str]) -> set[str]:
        """Which of ``recipients`` blocked ``sender_id`` (their messages are not shown to them)."""
        recipients = [r for r in dict.fromkeys(recipients) if r and r != sender_id]
        return {blocker for blocker, _blocked in self.store.blocks_among([(r, sender_id) for r in recipients])}


def block_json(block: BlockRecord) -> dict:
    return {"player_id": block.player_id, "name": block.name, "blocked_at": block.blocked_at}
