"""The games area (``store.protocol.GameStore``) in memory: a game's settings, its versions (each
written once, on the condition that it is new), its head and its players' memberships. A game's
state, clock and events are kept as JSON reads them back, as DynamoDB's codec leaves them."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..records import (
    EventRecord,
    GameRecord,
    IdempotencyRecord,
    InvitationCount,
    Membership,
    Message,
    Player,
    SeatRecord,
)
from ...kernel.ids import idempotency_mark
from .. import keys
from ..errors import DuplicateItem, IdempotencyRace, LimitReached, VersionConflict
from ..items import head_item, memberships, plain, version_item
from .table import MemoryTable, as_json, kept


def _seat_as_stored(s: SeatRecord) -> SeatRecord:
    """A seat as a game's settings keep it (what ``items.game_from`` reads back)."""
    return SeatRecord(s.seat, s.player_id, s.name, s.email, s.bot, False, None, s.accepted, s.open,
                      s.rating_min if s.open else None, s.rating_max if s.open else None, s.time_zone or None,
                      bool(s.bot_account))


class MemoryGames(MemoryTable):
    """Games: a game's settings, versions and head, its events, its players' memberships."""

    def create_game(self, game: GameRecord, events: list[EventRecord],
                    idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                    invitations: InvitationCount | None = None) -> None:
        if idempotency is not None and not self._idempotency_free(idempotency):
            raise IdempotencyRace()
        if invitations is not None and (invitations.player_id, invitations.day) in self._invitations and \
                self._invitations[(invitations.player_id, invitations.day)] > invitations.most - invitations.count:
            raise LimitReached(invitations.player_id)
        self._new_game(game, events, messages)
        if invitations is not None:
            day = (invitations.player_id, invitations.day)
            self._invitations[day] = self._invitations.get(day, 0) + invitations.count
        if idempotency is not None:
            self._put_idempotency(idempotency)

    def _new_game(self, game: GameRecord, events: list[EventRecord], messages: Iterable[Message]) -> None:
        """The game's settings, first version, head and memberships (DuplicateItem if it exists)."""
        if game.id in self._settings:
            raise DuplicateItem(game.id)
        self._settings[game.id] = {
            "game": replace(kept(game), seats=[_seat_as_stored(s) for s in game.seats], options=as_json(game.options)),
            "quiet": {s.player_id for s in game.seats if s.quiet and s.player_id},
            "vacations": {s.player_id: as_json(s.vacation) for s in game.seats if s.player_id and s.vacation}}
        self._versions[game.id] = {}
        self._write_version(game, events, None, messages)
        self._heads[game.id] = self._head_of(game)
        self._put_memberships(game)

    @staticmethod
    def _head_of(game: GameRecord) -> dict:
        return {k: v for k, v in plain(head_item(game)).items() if k not in ("PK", "SK")}

    def _put_memberships(self, game: GameRecord) -> None:
        for m in memberships(game):
            self._memberships[(m.player_id, m.game_id)] = replace(m, to_move=None, deadline=None)

    def _write_version(self, game: GameRecord, events: list[EventRecord], idempotency: IdempotencyRecord | None,
                       messages: Iterable[Message]) -> None:
        """Keep the version (as DynamoDB's codec gives it back) and report it to the change feed."""
        messages = list(messages)
        stored = replace(kept(game), state=as_json(game.state), clock=as_json(game.clock), ended=as_json(game.ended))
        self._versions[game.id][game.version] = {
            "game": stored, "events": [replace(kept(e), data=as_json(e.data), private=as_json(e.private)) for e in events],
            "messages": messages, "r": 0,
            "request": (idempotency_mark(idempotency.scope, idempotency.key), idempotency.fingerprint)
            if idempotency else None}
        self._emit("INSERT", version_item(stored, events, idempotency, messages))

    def invitations_sent(self, player_id: str, day: str) -> int:
        return self._invitations.get((player_id, day), 0)

    def _game_at(self, game_id: str, version: int) -> GameRecord:
        """The game as version ``version`` left it, with its settings (as ``items.game_from`` reads it)."""
        settings, entry = self._settings[game_id], self._versions[game_id][version]
        made, at = settings["game"], entry["game"]
        seats = [replace(s, quiet=s.player_id in settings["quiet"], vacation=kept(settings["vacations"].get(s.player_id)))
                 for s in made.seats]
        return GameRecord(
            id=made.id, game=made.game, version=at.version, status=at.status, seats=kept(seats),
            options=kept(made.options), state=kept(at.state), seed=int(made.seed), seed_public=made.seed_public,
            created_by=made.created_by, created_at=made.created_at, updated_at=at.updated_at,
            event_count=at.event_count, to_move=at.to_move, clock=kept(at.clock) or None, deadline=at.deadline or None,
            due_at=at.due_at or None, rated=bool(made.rated), tournament_id=made.tournament_id,
            ladder_id=made.ladder_id, seed_withheld=bool(made.seed_withheld), public=bool(made.public),
            deal_salt=made.deal_salt, rules_version=made.rules_version, request=entry["request"],
            ended=kept(at.ended) or None, last_message=at.last_message)

    def _events_at(self, game_id: str, version: int) -> list[EventRecord]:
        """The events version ``version`` added, numbered from its event count (``items.events_from``)."""
        entry = self._versions[game_id][version]
        at, raw = entry["game"], entry["events"]
        first = at.event_count - len(raw) + 1
        return [EventRecord(game_id, first + i, at.version, e.type, e.seat, kept(e.data), at.updated_at, kept(e.private))
                for i, e in enumerate(raw)]

    def load_game(self, game_id: str) -> GameRecord | None:
        latest = self.latest_version(game_id)
        return self._game_at(game_id, latest) if latest is not None and game_id in self._settings else None

    def load_version(self, game_id: str, version: int) -> tuple[GameRecord, list[EventRecord]] | None:
        if game_id not in self._settings or version not in self._versions.get(game_id, {}):
            return None
        return self._game_at(game_id, version), self._events_at(game_id, version)

    def game_history(self, game_id: str) -> list[tuple[GameRecord, list[EventRecord]]]:
        if game_id not in self._settings:
            return []
        return [(self._game_at(game_id, v), self._events_at(game_id, v)) for v in sorted(self._versions[game_id])]

    def latest_version(self, game_id: str) -> int | None:
        versions = self._versions.get(game_id)
        return max(versions) if versions else None

    def save_game(self, game: GameRecord, expected_version: int, events: list[EventRecord],
                  idempotency: IdempotencyRecord | None, messages: list[Message] = (),
                  new_players: Iterable[tuple[Player, str]] = (), seats_changed: bool = False) -> None:
        if game.version != expected_version + 1:
            raise ValueError("a saved game is one version past the expected one")
        new_players = list(new_players)
        if game.id not in self._settings or game.version in self._versions[game.id]:
            raise VersionConflict(self.latest_version(game.id))
        if new_players or seats_changed:
            try:
                for player, key_hash in new_players:
                    self._check_new_player(player, key_hash)
                if len({key for _, key in new_players}) < len(new_players):
                    raise DuplicateItem("a key twice")
            except DuplicateItem as error:
                raise VersionConflict(self.latest_version(game.id)) from error
            self._settings[game.id]["game"].seats = [_seat_as_stored(s) for s in game.seats]
            self._put_memberships(game)
            for player, key_hash in new_players:
                self._add_player(player, key_hash)
        self._write_version(game, events, idempotency, messages)
        if idempotency is not None and self._idempotency_free(idempotency):
            self._put_idempotency(idempotency)

    def list_events(self, game_id: str, after: int = 0) -> list[EventRecord]:
        return [e for v in sorted(self._versions.get(game_id, {})) for e in self._events_at(game_id, v) if e.seq > after]

    def list_memberships(self, player_id: str) -> list[Membership]:
        found = []
        for (member, game_id), m in sorted(self._memberships.items()):
            if member != player_id:
                continue
            m = replace(m, asked=False)
            head = self._heads.get(game_id)
            if m.status != "finished" and head is not None:
                m.status, m.to_move, m.version, m.updated_at = head["st"], head.get("tm"), head["v"], head["at"]
                m.deadline = head.get("dl")
            found.append(m)
        return found

    def list_my_moves(self, player_id: str) -> list[Membership]:
        mine = sorted((h["move_due"], game_id) for game_id, h in self._heads.items() if h.get("mover") == player_id)
        return [Membership(player_id, game_id, h["game"], h["tm"], "active", h["tm"], h["v"], h["at"],
                           None if h["move_due"] == keys.NO_DEADLINE else h["move_due"])
                for _, game_id in mine for h in [self._heads[game_id]]]
