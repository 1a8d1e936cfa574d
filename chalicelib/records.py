"""What the service keeps: plain records, independent of how a store lays them out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Player:
    id: str
    name: str
    email: str | None
    created_at: str


@dataclass
class SeatRecord:
    seat: int
    player_id: str
    name: str

    def as_json(self) -> dict:
        return {"seat": self.seat, "player_id": self.player_id, "name": self.name}


@dataclass
class GameRecord:
    id: str
    game: str
    version: int
    status: str  # waiting | active | finished
    seats: list[SeatRecord]
    options: dict[str, Any]
    state: dict[str, Any]
    seed: int
    seed_public: bool  # an explicit seed is shown to all; a drawn one only once the game ends
    created_by: str
    created_at: str
    updated_at: str
    event_count: int = 0
    to_move: int | None = None

    def seat_of(self, player_id: str | None) -> int | None:
        return next((s.seat for s in self.seats if s.player_id == player_id), None)


@dataclass
class EventRecord:
    game_id: str
    seq: int
    version: int
    type: str
    seat: int | None
    data: dict[str, Any]
    at: str
    private: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> what only it sees

    def seen_by(self, seat: int | None) -> dict:
        """The event as one seat (or a spectator, None) may see it."""
        data = dict(self.data)
        if seat is not None:
            data.update(self.private.get(str(seat), {}))
        return {"seq": self.seq, "version": self.version, "type": self.type, "seat": self.seat,
                "data": data, "at": self.at}


@dataclass
class Membership:
    """A player's seat in a game, kept beside the player for listing their games."""

    player_id: str
    game_id: str
    game: str
    seat: int
    status: str
    to_move: int | None
    version: int
    updated_at: str


@dataclass
class IdempotencyRecord:
    scope: str
    key: str
    fingerprint: str
    body: dict[str, Any]
    created_at: str
