"""The clocks area (``store.protocol.ClockStore``) in memory: the games' next looks (their heads'
entries in the ``due`` index), reminders and daily digests sent once, a version's clock rewritten
in place."""

from __future__ import annotations

from dataclasses import replace

from ..records import GameRecord, Message
from .. import keys
from ..items import outbox, typed, version_item
from .table import MemoryTable, as_json


class MemoryClocks(MemoryTable):
    """The games' clocks and the players' daily digests."""

    def due_games(self, now: str, limit: int = 100) -> list[str]:
        due = sorted((h["due_at"], h["due"], game_id) for game_id, h in self._heads.items()
                     if str(h.get("due", "")).startswith(keys.CLOCK_DUE + "#") and h["due_at"] <= now)
        return self._by_shard(due, limit)

    @staticmethod
    def _by_shard(due: list[tuple], limit: int) -> list[str]:
        """The ids of the first ``limit`` entries, read shard by shard as the ``due`` index is."""
        return [entry[2] for entry in sorted(due, key=lambda e: (e[1], e[0]))[:limit]]

    def set_game_due(self, game_id: str, version: int, due_at: str | None) -> bool:
        head = self._heads.get(game_id)
        if head is None or head["v"] != version:
            return False
        self._move_sweep(head, game_id, due_at)
        return True

    @staticmethod
    def _move_sweep(head: dict, game_id: str, due_at: str | None) -> None:
        head.pop("due", None)
        head.pop("due_at", None)
        if due_at:
            head.update(keys.clock_due(game_id, due_at))

    def send_reminder(self, game: GameRecord, mark: str, messages: list[Message], due_at: str | None) -> str:
        if (game.id, "REMINDER#" + mark) in self._marks:
            return "already"
        head = self._heads.get(game.id)
        if head is None or head["v"] != game.version:
            return "moved"
        self._marks.add((game.id, "REMINDER#" + mark))
        self._move_sweep(head, game.id, due_at)
        self._emit("INSERT", typed({**keys.reminder(game.id, mark), "outbox": outbox(messages)}))
        return "sent"

    def save_clock(self, game: GameRecord) -> bool:
        versions = self._versions.get(game.id, {})
        entry = versions.get(game.version)
        if entry is None or game.version + 1 in versions:
            return False
        at = entry["game"]
        entry["game"] = replace(at, clock=as_json(game.clock), deadline=game.deadline or None, due_at=game.due_at or None)
        entry["r"] += 1
        image = version_item(entry["game"], entry["events"], None, entry["messages"])
        image["r"] = {"N": str(entry["r"])}
        self._emit("MODIFY", image)
        return True

    def due_digests(self, now: str, limit: int = 100) -> list[str]:
        due = sorted((p.digest_at, keys.digest_due(p.id, p.digest_at)["due"], p.id) for p in self._players.values()
                     if p.digest_at and p.digest_at <= now)
        return self._by_shard(due, limit)

    def send_digest(self, player_id: str, local_date: str, messages: list[Message], was: str,
                    next_at: str | None) -> str:
        profile = self._players.get(player_id)
        if profile is None or profile.digest_at != was:
            return "moved"
        profile.digest_at = next_at
        if not messages:
            return "sent"
        if (player_id, "DIGEST#" + local_date) in self._marks:
            return "already"
        self._marks.add((player_id, "DIGEST#" + local_date))
        self._emit("INSERT", typed({**keys.digest_sent(player_id, local_date), "outbox": outbox(messages)}))
        return "sent"
