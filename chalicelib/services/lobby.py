"""Consent and the lobby (issue 18): a game starts only when everyone seated in it said yes.

A player seated by someone else is asked: they accept (the game starts once every seat is
settled, and only then does a clock run) or decline (the game ends, declined). A seat may be
open, for anyone (an open challenge, listed by :meth:`Lobby.open_games`): the first player to
join takes it, within its rating range. Before its first move a game may be aborted by any of its
players. A game that ends this way is finished, with ``result.reason`` ``declined`` or
``aborted``, and is never rated. A rematch is a new game of the same kind between the same
players, the seats swapped, the others asked again. A tournament's games need no asking (entering
is consent), nor do a bot's seats.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Callable

from .. import ids, timecontrol
from ..calls import Idempotency, Outcome
from ..errors import ServiceError
from ..games import ENGINES, GameEngine
from ..notify import messages
from ..records import Caller, EventRecord, GameRecord, Player, SeatRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store
from .idempotency import Idempotent, Recorder
from .moves import SERVICE_EVENTS
from .blocks import Blocks
from .limits import GameLimit
from ..i18n import _

ATTEMPTS = 4  # a join that lost its race tries again while a seat is still open


class Lobby:
    def __init__(self, store: Store, *, load: Callable[[str], tuple[GameRecord, GameEngine]],
                 next_version: Callable[..., tuple[GameRecord, list[EventRecord]]],
                 ended: Callable[..., tuple[GameRecord, list[EventRecord]]], view: Callable[..., dict],
                 new_game_record: Callable[..., tuple[GameRecord, EventRecord]], idempotent: Idempotent,
                 new_seed: Callable[[], int] = ids.new_seed, engines: dict[str, GameEngine] | None = None,
                 blocks: Blocks | None = None, limit: GameLimit | None = None) -> None:
        self.store = store
        self.limit = limit  # the most unfinished games a player may have (None: no limit)
        self.blocks = blocks  # who blocked whom (None: nobody)
        self.load = load
        self.next_version = next_version
        self.ended = ended
        self.view = view
        self.new_game_record = new_game_record
        self.idempotent = idempotent
        self.new_seed = new_seed
        self.engines = engines or ENGINES

    # ------------------------------------------------------------------ consent

    def accept(self, caller: Caller, game_id: str) -> dict:
        """The caller says yes to their seat; once every seat is settled the game starts."""
        game, engine = self.load(game_id)
        seat = self._waiting_seat(game, caller)
        if self.limit is not None and not game.tournament_id and not game.ladder_id:  # those are never refused
            self.limit.refuse_if_full(caller.id)  # a game asked of them is not counted until they accept
        seats = [replace(s, accepted=True) if s.seat == seat.seat else s for s in game.seats]
        saved = self._save(game, engine, seats, "seat_accepted", seat.seat,
                           {"seat": seat.seat, "player_id": caller.id, "name": seat.name})
        return self.view(saved, seat.seat)

    def decline(self, caller: Caller, game_id: str) -> dict:
        """The caller says no to their seat: the game ends, declined, and counts for nothing."""
        game, _engine = self.load(game_id)
        seat = self._waiting_seat(game, caller)
        saved = self._end(game, "declined", seat.seat, "game_declined")
        return self.view(saved, seat.seat)

    def lapse(self, game: GameRecord, seat: int) -> GameRecord | None:
        """The seat did not answer in time (a ladder challenge's ``response_days``): the game ends
        declined, as if they had declined it; None if it is not waiting for them any more."""
        waiting = next((s for s in game.seats if s.seat == seat), None)
        if game.status != "waiting" or waiting is None or not waiting.invited:
            return None
        return self._end(game, "declined", seat, "game_declined", lapsed=True)

    def abort(self, caller: Caller, game_id: str) -> dict:
        """Its creator (seated or not) or any seated player calls the game off before its first move:
        it ends, aborted, unrated."""
        game, _engine = self.load(game_id)
        seat = game.seat_of(caller.id)
        if seat is None and caller.id != game.created_by:
            raise ServiceError("not_seated", _("you have no seat in game {game_id}").format(game_id=game_id))
        if game.status == "finished":
            raise ServiceError("game_finished", _("the game is over"))
        if game.tournament_id:
            raise ServiceError("tournament_game", _("a tournament's games are played or withdrawn from, not "
                                                    "called off"))
        if any(e.type not in SERVICE_EVENTS for e in self.store.list_events(game_id)):
            raise ServiceError("game_started", _("a move was made: the game can only be resigned now"))
        saved = self._end(game, "aborted", seat, "game_aborted")
        return self.view(saved, seat)

    def join(self, caller: Caller, game_id: str) -> dict:
        """Take an open seat (first come, first served: of two joining at once, one gets the seat)."""
        for _attempt in range(ATTEMPTS):
            game, engine = self.load(game_id)
            if game.seat_of(caller.id) is not None:
                raise ServiceError("already_seated", _("you have a seat in this game already"))
            seat = next((s for s in game.seats if s.open), None)
            if game.status != "waiting" or seat is None:
                raise ServiceError("seat_taken", _("this game has no open seat any more"))
            if self.limit is not None:
                self.limit.refuse_if_full(caller.id)
            if self.blocks is not None:  # the game's maker or a seated player blocked the caller, or the other way
                self.blocks.refuse_if_blocked(caller.id, [game.created_by, *(s.player_id for s in game.seats)])
            rating = round(self.store.get_rating(caller.id, game.game).rating)
            if (seat.rating_min is not None and rating < seat.rating_min) or \
                    (seat.rating_max is not None and rating > seat.rating_max):
                raise ServiceError("rating_out_of_range", _("the seat is for ratings {low}–{high}; yours at "
                                                            "{game} is {rating}").format(
                                                            low=seat.rating_min or 0, high=seat.rating_max or '…', game=game.game, rating=rating))
            joining = self.store.get_player(caller.id)
            taken = SeatRecord(seat.seat, caller.id, caller.name, time_zone=self._time_zone(game, joining),
                               bot_account=bool(joining and joining.bot))
            seats = [taken if s.seat == seat.seat else s for s in game.seats]
            try:
                saved = self._save(game, engine, seats, "seat_joined", seat.seat,
                                   {"seat": seat.seat, "player_id": caller.id, "name": caller.name}, retry=False)
            except VersionConflict:
                continue  # someone else moved first: is a seat still open?
            return self.view(saved, seat.seat)
        raise ServiceError("seat_taken", _("this game has no open seat any more"))

    @staticmethod
    def _time_zone(game: GameRecord, player: Player | None) -> str | None:
        """The joining player's time zone, which a weekend pause needs."""
        control = game.options.get("time_control") or {}
        if not timecontrol.weekend_pause(control):
            return None
        return player.preferences.get("time_zone") if player else None

    def open_games(self, caller: Caller, game_type: str, limit: int) -> dict:
        """The newest games of ``game_type`` with a seat open to anyone, each in brief, and whether
        the caller may take it (their rating at this game within the seat's range; not seated yet)."""
        engine = self.engines[game_type]
        rating = round(self.store.get_rating(caller.id, game_type).rating)
        listed = []
        for game_id in self.store.open_games(game_type, limit):
            game = self.store.load_game(game_id)
            seat = next((s for s in game.seats if s.open), None) if game and game.status == "waiting" else None
            if seat is None:
                continue  # taken or called off since the index was written
            fits = (seat.rating_min is None or rating >= seat.rating_min) and \
                (seat.rating_max is None or rating <= seat.rating_max)
            creator = next((s for s in game.seats if s.player_id == game.created_by), None)
            listed.append({
                "game_id": game.id, "game": game.game, "options": engine.public_options(game.options, None),
                "rated": game.rated, "created_at": game.created_at,
                "created_by": {"player_id": game.created_by, "name": creator.name if creator else None,
                               **({"bot_account": True} if creator and creator.bot_account else {})},
                "seats": [s.as_json() for s in game.seats], "open_seat": seat.seat,
                "may_join": fits and game.seat_of(caller.id) is None})
        return {"game": game_type, "games": listed}

    # ------------------------------------------------------------------ rematch

    def rematch(self, caller: Caller, game_id: str, idempotency: Idempotency | None) -> Outcome:
        """A new game like a finished one, between the same players, the seats turned round: the
        caller's seat is settled, the others are asked again (bots need no asking)."""
        game, engine = self.load(game_id)
        if game.seat_of(caller.id) is None:
            raise ServiceError("not_seated", _("you have no seat in game {game_id}").format(game_id=game_id))
        if game.status != "finished":
            raise ServiceError("game_not_finished", _("a rematch follows a finished game"))
        if game.tournament_id:
            raise ServiceError("tournament_game", _("a tournament's games are paired by the tournament"))
        order = game.seats[1:] + game.seats[:1]  # seat 1 goes last: the seats turn round
        seats = [SeatRecord(number, s.player_id, s.name, bot=s.bot, accepted=s.bot is not None or
                            s.player_id == caller.id, bot_account=s.bot_account)
                 for number, s in enumerate(order, start=1)]
        if any(s.player_id is None and s.bot is None for s in seats):
            raise ServiceError("invalid_seats", _("a game with seats never taken has no rematch"))
        if self.blocks is not None:  # a rematch is a challenge: refused once either blocked the other
            self.blocks.refuse_if_blocked(caller.id, [s.player_id for s in seats if s.player_id])

        def run(record: Recorder) -> dict:
            if self.limit is not None:
                self.limit.refuse_if_full(caller.id)
            rematch, created = self.new_game_record(
                engine, ids.new_id("g"), copy.deepcopy(game.options), seats, self.new_seed(), caller.id,
                rated=game.rated and not game.seed_public, public=game.public)
            body = self.view(rematch, rematch.seat_of(caller.id))
            self.store.create_game(rematch, [created], record(body), messages.for_new_game(rematch))
            return body

        return self.idempotent.run(caller.id, idempotency, run)

    # ------------------------------------------------------------------ the versions

    @staticmethod
    def _waiting_seat(game: GameRecord, caller: Caller) -> SeatRecord:
        seat = next((s for s in game.seats if s.player_id == caller.id), None)
        if seat is None:
            raise ServiceError("not_seated", _("you have no seat in game {id}").format(id=game.id))
        if game.status != "waiting" or seat.accepted:
            raise ServiceError("nothing_to_answer", _("your seat in this game is settled already"))
        return seat

    def _save(self, game: GameRecord, engine: GameEngine, seats: list[SeatRecord], event: str, seat: int,
              data: dict, retry: bool = True) -> GameRecord:
        """The next version with the seats changed; the game starts (and its clock) once none waits."""
        starts = not any(s.invited for s in seats)
        saved, recorded = self.next_version(game, [{"type": event, "seat": seat, "data": data}], seats=seats,
                                            status="active" if starts else "waiting",
                                            to_move=engine.to_move(game.state) if starts else None)
        return self._commit(game, saved, recorded, retry=retry, seats_changed=True)

    def _end(self, game: GameRecord, reason: str, seat: int | None, event: str, **extra) -> GameRecord:
        saved, recorded = self.ended(game, reason, seat, event, **extra)
        return self._commit(game, saved, recorded)

    def _commit(self, game: GameRecord, saved: GameRecord, recorded: list[EventRecord], *, retry: bool = True,
                seats_changed: bool = False) -> GameRecord:
        """Save the version; a lost race is ``version_conflict`` (or, with ``retry`` off, the store's
        VersionConflict, for a join to look again)."""
        try:
            self.store.save_game(saved, game.version, recorded, None, seats_changed=seats_changed)
        except VersionConflict as conflict:
            if not retry:
                raise
            raise ServiceError("version_conflict", _("the game changed meanwhile; try again"),
                               current_version=conflict.current_version) from None
        return saved

