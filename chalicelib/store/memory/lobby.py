"""The lobby area (``store.protocol.LobbyStore``) in memory: blocks, unfinished games counted,
games open to anyone (their heads' entries in the ``open_games`` index)."""

from __future__ import annotations

from typing import Iterable

from ..records import BlockRecord
from .table import MemoryTable, kept


class MemoryLobby(MemoryTable):
    """Blocks, unfinished games counted, games open to anyone."""

    def open_games(self, game: str, limit: int) -> list[str]:
        rows = sorted(((h["lobby_at"], game_id) for game_id, h in self._heads.items()
                       if str(h.get("lobby", "")).startswith(f"OPEN#{game}#")), reverse=True)
        return [game_id for _, game_id in rows[:limit]]

    def put_block(self, blocker_id: str, block: BlockRecord) -> None:
        self._blocks.setdefault(blocker_id, {})[block.player_id] = kept(block)

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self._blocks.get(blocker_id, {}).pop(blocked_id, None)

    def list_blocks(self, blocker_id: str) -> list[BlockRecord]:
        return [kept(b) for _, b in sorted(self._blocks.get(blocker_id, {}).items())]

    def blocks_among(self, pairs: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        return {(a, b) for a, b in pairs if b in self._blocks.get(a, {})}

    def count_unfinished_games(self, player_id: str) -> int:
        return sum(1 for (member, _), m in self._memberships.items()
                   if member == player_id and m.status != "finished" and not m.asked)
