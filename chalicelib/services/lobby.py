"""Consent and the lobby (issue 18): a game starts only when everyone seated in it said yes.

A player seated by someone else is asked: they accept (the game starts once every seat is
settled, and only then does a clock run) or decline (the game ends, declined). A seat may be
open, for anyone (an open challenge, listed by :meth:`Lobby.open_games`): the first player to
join takes it, within its rating range. Before its first move a game may be aborted by any of its
players. A game that ends this way is finished, with ``result.reason`` ``declined`` or
``aborted``, and is never rated. A rematch is a new game of the same kind between the same
players, the seats swapped, the others asked again exactly as createGame asks them
(:class:`Consent`); a game that never began has no rematch, and a game has one rematch at most.
A tournament's games need no asking (entering is consent), nor do a bot's seats.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from ..kernel import ids
from ..clocks import timecontrol
from ..kernel.calls import Idempotency, Outcome
from ..kernel.errors import ServiceError
from ..games import GameEngine
from ..notify import messages
from ..store.records import Caller, EventRecord, GameRecord, Player, SeatRecord
from ..store.errors import DuplicateItem, LimitReached, VersionConflict
from ..store.protocol import Store
from .games import Games
from .life import GameLife
from .idempotency import Idempotent, Recorder
from .moves import SERVICE_EVENTS
from .consent import Consent
from ..kernel.i18n import _

ATTEMPTS = 4  # a join that lost its race tries again while a seat is still open


class Lobby:
    def __init__(self, store: Store, *, life: GameLife, games: Games, idempotent: Idempotent,
                 consent: Consent | None = None) -> None:
        self.store = store
        self.life = life  # the game's life: loaded, one version on, ended, a rematch made
        self.engines = life.engines
        self.games = games  # a game's view
        # createGame's own consent check, which a rematch asks too (None: one without blocks or limits)
        self.consent = consent or Consent()
        self.limit = self.consent.limit  # the most unfinished games a player may have (None: no limit)
        self.blocks = self.consent.blocks  # who blocked whom (None: nobody)
        self.idempotent = idempotent

    # ------------------------------------------------------------------ consent

    def accept(self, caller: Caller, game_id: str) -> dict:
        """The caller says yes to their seat; once every seat is settled the game starts."""
        game, engine = self.life.load(game_id)
        seat = self._waiting_seat(game, caller)
        if self.limit is not None and not game.tournament_id and not game.ladder_id:  # those are never refused
            self.limit.refuse_if_full(caller.id)  # a game asked of them is not counted until they accept
        seats = [replace(s, accepted=True) if s.seat == seat.seat else s for s in game.seats]
        saved = self._save(game, engine, seats, "seat_accepted", seat.seat,
                           {"seat": seat.seat, "player_id": caller.id, "name": seat.name})
        return self.games.view(saved, seat.seat)

    def decline(self, caller: Caller, game_id: str) -> dict:
        """The caller says no to their seat: the game ends, declined, and counts for nothing."""
        game, _engine = self.life.load(game_id)
        seat = self._waiting_seat(game, caller)
        saved = self._end(game, "declined", seat.seat, "game_declined")
        return self.games.view(saved, seat.seat)

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
        game, _engine = self.life.load(game_id)
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
        return self.games.view(saved, seat)

    def join(self, caller: Caller, game_id: str) -> dict:
        """Take an open seat (first come, first served: of two joining at once, one gets the seat)."""
        for _attempt in range(ATTEMPTS):
            game, engine = self.life.load(game_id)
            if game.seat_of(caller.id) is not None:
                raise ServiceError("already_seated", _("you have a seat in this game already"))
            seat = next((s for s in game.seats if s.open), None)
            if game.status != "waiting" or seat is None:
                raise ServiceError("seat_taken", _("this game has no open seat any more"))
            if self.limit is not None:
                self.limit.refuse_if_full(caller.id)
            if self.blocks is not None:  # the game's maker or a seated player blocked the caller, or the other way
                self.blocks.refuse_if_blocked(caller.id, [game.created_by, *(s.player_id for s in game.seats)])
            rating = round(self.store.get_rating(caller.id, engine.rating_pool(game.options)).rating)
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
            return self.games.view(saved, seat.seat)
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
        ratings: dict[str, int] = {}  # by pool (a Khan & General card set's own): each read once
        listed = []
        for game_id in self.store.open_games(game_type, limit):
            game = self.store.load_game(game_id)
            seat = next((s for s in game.seats if s.open), None) if game and game.status == "waiting" else None
            if seat is None:
                continue  # taken or called off since the index was written
            pool = engine.rating_pool(game.options)
            if pool not in ratings:
                ratings[pool] = round(self.store.get_rating(caller.id, pool).rating)
            rating = ratings[pool]
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
        caller's seat is settled, the others are asked again (bots need no asking). It is a
        challenge like createGame's, refused where that one would be (:class:`Consent`: their
        ``challenges`` preference, blocks, bot policies, the limits). A game that ended before every
        seat said yes (declined, or called off while still waiting) has no rematch, and a game has
        one rematch at most: so a player who says no is not asked again by rematches."""
        game, engine = self.life.load(game_id)
        if game.seat_of(caller.id) is None:
            raise ServiceError("not_seated", _("you have no seat in game {game_id}").format(game_id=game_id))
        if game.status != "finished":
            raise ServiceError("game_not_finished", _("a rematch follows a finished game"))
        if game.tournament_id:
            raise ServiceError("tournament_game", _("a tournament's games are paired by the tournament"))
        if any(s.invited for s in game.seats):
            raise self._never_began(game)
        order = game.seats[1:] + game.seats[:1]  # seat 1 goes last: the seats turn round
        rated = game.rated and not game.seed_public
        rematch_id = rematch_of(game)

        def run(record: Recorder) -> dict:  # a retry of a rematch made is answered again, before any check
            if self.store.load_game(rematch_id) is not None:
                raise self._already_rematched(game, rematch_id)
            seats, players = self._rematch_seats(order, caller.id)
            self.consent.refuse_by_policy(players, caller.id, game.game, rated, game.options.get("time_control"))
            self.consent.refuse_if_blocked(caller.id, seats)
            counted = self.consent.as_made(caller.id, seats)
            rematch, created = self.life.new_game_record(
                engine, rematch_id, copy.deepcopy(game.options), seats, self.life.new_seed(), caller.id,
                rated=rated, public=game.public)
            body = self.games.view(rematch, rematch.seat_of(caller.id))
            try:
                self.store.create_game(rematch, [created], record(body), messages.for_new_game(rematch),
                                       invitations=counted)
            except DuplicateItem:  # the other player's rematch came first: never a second one
                raise self._already_rematched(game, rematch_id) from None
            except LimitReached:  # pragma: no cover - a rematch seats no address: nothing is counted
                raise self.consent.refusal() from None
            return body

        return self.idempotent.run(caller.id, idempotency, run)

    def _rematch_seats(self, order: list[SeatRecord], caller: str) -> tuple[list[SeatRecord], dict[int, Player]]:
        """The rematch's seats, numbered in ``order``: each player's seat as createGame would make
        it now (their ``challenges`` preference, their name), a built-in bot's as it was; and the
        players, by seat (for their bot policies)."""
        seats: list[SeatRecord] = []
        players: dict[int, Player] = {}
        for number, before in enumerate(order, start=1):
            if before.player_id is None:  # a built-in bot: it needs no asking
                seats.append(SeatRecord(number, None, before.name, bot=before.bot, accepted=True))
                continue
            player = self.store.get_player(before.player_id)
            if player is None:
                raise ServiceError("player_not_found", _("seat {number}: no player {player_id!r}").format(
                                                         number=number, player_id=before.player_id))
            seats.append(self.consent.player_seat(number, player, caller))
            players[number] = player
        return seats, players

    @staticmethod
    def _already_rematched(game: GameRecord, rematch_id: str) -> ServiceError:
        """``already_rematched``, naming the rematch (``game_id``)."""
        return ServiceError("already_rematched", _("game {game_id} has had its rematch already: game "
                                                   "{rematch_id}").format(game_id=game.id, rematch_id=rematch_id),
                            game_id=rematch_id)

    @staticmethod
    def _never_began(game: GameRecord) -> ServiceError:
        """``game_never_began``: the game ended before every seat said yes, and has no rematch."""
        if (game.ended or {}).get("reason") == "declined":
            detail = _("game {game_id} was declined: a declined game has no rematch").format(game_id=game.id)
        else:
            detail = _("game {game_id} was called off before every player said yes: it has no "
                       "rematch").format(game_id=game.id)
        return ServiceError("game_never_began", detail)

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
        saved, recorded = self.life.next_version(game, [{"type": event, "seat": seat, "data": data}], seats=seats,
                                            status="active" if starts else "waiting",
                                            to_move=engine.to_move(game.state) if starts else None)
        return self._commit(game, saved, recorded, retry=retry, seats_changed=True)

    def _end(self, game: GameRecord, reason: str, seat: int | None, event: str, **extra) -> GameRecord:
        saved, recorded = self.life.ended(game, reason, seat, event, **extra)
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



def rematch_of(game: GameRecord) -> str:
    """The id of ``game``'s one rematch: derived from the game (its id and deal salt), so that the
    store refuses a second one by itself (the game's settings item is made only if new), whoever
    asks and whenever, with no item or index to keep."""
    return "g_" + ids.digest(f"rematch:{game.id}:{game.deal_salt or ''}")[:16]
