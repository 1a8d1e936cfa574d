"""Daily digests: one email a day, at the player's chosen local time, listing the games awaiting
their move, instead of an email per move (docs/correspondence.md, "Daily digest").

Found without a scan and without a hot key: a player whose digest is on has an entry in the
sparse ``due`` index on their own profile (``DIGEST#00``..``DIGEST#15``, by hash of their id,
``due_at`` the next send in UTC). The sweeper (the one-minute ``clock_sweeper``) queries the 16
shards, re-reads each player, lists their games from the ``my_move`` index (each game re-read:
the index may lag), and records the day's digest once (a mark per player and local date, written
with its outbox message and the next send in one transaction), so a rerun sends nothing twice.
The email itself is the outbox consumer's (``notify/email.compose_digest``).
"""

from __future__ import annotations

from typing import Callable

from ..clocks import digest
from ..kernel.clock import Clock, iso
from ..notify import messages
from ..store.records import GameRecord, Player
from ..store.protocol import Store
from .life import GameLife
from ..clocks.timecontrol import parse_time

Finder = Callable[[str], GameRecord | None]


class Digests:
    def __init__(self, store: Store, clock: Clock, *, life: GameLife) -> None:
        self.store = store
        self.clock = clock
        self.life = life

    def sweep(self, limit: int = 300) -> dict:
        """The players whose digest is due (at most ``limit`` a run; the rest the next minute): each is
        sent the day's digest (if a game awaits their move) and their next send planned; running it
        twice, or beside another sweeper, sends nothing twice."""
        now = self.clock.now()
        done = {"digests": 0, "empty": 0}
        for player_id in self.store.due_digests(iso(now), limit):
            player = self.store.get_player(player_id)
            if player is None or player.digest_at is None or player.digest_at > iso(now):
                continue  # the index lags behind a change of preferences
            zone = player.preferences.get("time_zone") or "UTC"
            settings = digest.settings(player.preferences)
            day = digest.local_date(parse_time(player.digest_at), zone)
            next_at = iso(digest.next_send(settings["time"], zone, now)) if player.digest else None
            games = self.awaiting(player) if player.digest and player.email else []
            sent = [messages.digest(player.id, day, games, iso(now))] if games else []
            outcome = self.store.send_digest(player.id, day, sent, player.digest_at, next_at)
            if outcome == "sent":
                done["digests" if sent else "empty"] += 1
        return done

    def awaiting(self, player: Player) -> list[dict]:
        """The games awaiting the player's move, soonest deadline first: what every seat may see of
        them (the game, its opponents' names, the deadline), never a card."""
        found = []
        for membership in self.store.list_my_moves(player.id):
            game = self.life.find(membership.game_id)
            seat = next((s for s in game.seats if s.player_id == player.id), None) if game else None
            if game is None or seat is None or game.status != "active" or game.to_move != seat.seat:
                continue  # moved on since the index was written
            found.append({"game_id": game.id, "game": game.game, "seat": seat.seat, "version": game.version,
                          "deadline": game.deadline,
                          "opponents": [s.name for s in game.seats if s.seat != seat.seat]})
        return found
