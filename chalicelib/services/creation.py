"""Making a game (createGame): its engine and options (the creator's weekend-pause preference for a
time control that does not say), its seats (players asked, addresses invited by email, bots, open
seats), whether it can be rated, the consent it needs, then one write of version 0 and its
invitations. The answer is the creator's view (:meth:`.games.Games.view`)."""

from __future__ import annotations

from .. import bots
from ..kernel import ids
from ..clocks import timecontrol
from ..kernel.calls import Idempotency, Outcome
from ..kernel.errors import ServiceError
from ..kernel.i18n import _
from ..games import GameEngine
from ..http.models import BotSeat, CreateGameRequest, EmailSeat, OpenSeat
from ..notify import messages
from ..store.records import Caller, Player, SeatRecord
from ..store.errors import LimitReached
from ..store.protocol import Store
from .consent import Consent
from .games import Games
from .idempotency import Idempotent, Recorder
from .life import GameLife
from .limits import InvitationLimit


class GameCreation:
    def __init__(self, store: Store, *, life: GameLife, games: Games, idempotent: Idempotent,
                 consent: Consent | None = None, sends_email: bool = False) -> None:
        self.store = store
        self.life = life  # the game's life: its options, its seed, its first version
        self.games = games  # the creator's view of the game made
        self.idempotent = idempotent
        # What createGame and rematchGame both ask before a game seats someone else (one check; None:
        # nobody blocks, no limit, no cap, as in tests of other things).
        self.consent = consent or Consent()
        self.sends_email = sends_email  # seats may be invited by email

    @property
    def engines(self) -> dict[str, GameEngine]:
        return self.life.engines

    @property
    def invitations(self) -> InvitationLimit | None:
        """The daily cap on invitations by email (None: no cap)."""
        return self.consent.invitations

    def create_game(self, player: Caller, request: CreateGameRequest,
                    idempotency: Idempotency | None) -> Outcome:
        engine = self.engines.get(request.game)
        if engine is None:
            raise ServiceError("unknown_game_type", _("{game!r} games are not available on this server yet").format(
                                                      game=request.game))
        options = self.life.game_options(engine, self._preferred_pause(player, request.options))
        seats = self._seats(engine, options, request, player.id)
        self._check_rated(request, seats)
        self.consent.refuse_if_blocked(player.id, seats)

        def run(record: Recorder) -> dict:
            counted = self.consent.as_made(player.id, seats)  # here, so that a retry of a game made is answered again
            seed = request.seed if request.seed is not None else self.life.new_seed()
            game, created = self.life.new_game_record(engine, ids.new_id("g"), options, seats, seed, player.id,
                                                       seed_public=request.seed is not None,
                                                       rated=request.rated and request.seed is None,
                                                       public=request.public)
            body = self.games.view(game, game.seat_of(player.id))
            try:
                self.store.create_game(game, [created], record(body), messages.for_new_game(game), invitations=counted)
            except LimitReached:  # nothing was written: no game, no invitation, nothing counted
                raise self.consent.refusal() from None
            return body

        return self.idempotent.run(player.id, idempotency, run)

    @staticmethod
    def _check_rated(request: CreateGameRequest, seats: list[SeatRecord]) -> None:
        """``rated: true`` given explicitly for a game that cannot be rated (an explicit seed, a bot seat,
        not two seats) is a contradiction, refused rather than quietly unrated; left out, ``rated``
        only means "if it can be"."""
        if "rated" not in request.model_fields_set or not request.rated:
            return
        if request.seed is not None:
            raise ServiceError("rated_conflict", _("a game with an explicit seed is never rated: leave out "
                                                   "\"rated\" or the seed"))
        if any(s.bot for s in seats):
            raise ServiceError("rated_conflict", _("a game with a bot is never rated: leave out \"rated\""))
        if len(seats) != 2:
            raise ServiceError("rated_conflict", _("only two-player games are rated: leave out \"rated\""))

    def _preferred_pause(self, player: Caller, options: dict) -> dict:
        """The options, with the creator's ``weekend_pause`` preference for a time control that does not
        say (the creator's record is read only then)."""
        if not timecontrol.leaves_pause_open(options.get("time_control")):
            return options
        creator = self.store.get_player(player.id)
        return timecontrol.with_weekend_pause(options, bool(creator and creator.preferences.get("weekend_pause")))

    def _seats(self, engine: GameEngine, options: dict, request: CreateGameRequest, creator: str) -> list[SeatRecord]:
        """The seats asked for: the creator's own seat is settled, bots need no asking; any other player
        is asked (the game waits until they accept), an address is invited by email, an open seat waits
        for whoever joins."""
        wanted = engine.seat_count(options)
        if len(request.seats) != wanted:
            raise ServiceError("invalid_seats", _("a {name} game with these options has {wanted} seats, not "
                                                  "{count}").format(
                                                  name=engine.name, wanted=wanted, count=len(request.seats)))
        seats: list[SeatRecord] = []
        named: dict[int, Player] = {}  # the players named, by seat (for their bot policies)
        for number, seat in enumerate(request.seats, start=1):
            if isinstance(seat, EmailSeat):
                if not self.sends_email:
                    raise ServiceError("unsupported_seat", _("seat {number}: this server sends no email").format(
                                                             number=number))
                seats.append(SeatRecord(number, None, "(invited)", seat.email.lower()))
                continue
            if isinstance(seat, BotSeat):
                names = bots.BOTS.get(engine.name, {})
                if seat.bot not in names:
                    raise ServiceError("unsupported_seat", _("seat {number}: there is no {bot!r} bot for {name}; "
                                                             "there are {bots}").format(
                                                             number=number, bot=seat.bot, name=engine.name, bots=', '.join(names)))
                seats.append(SeatRecord(number, None, f"{seat.bot} bot", bot=seat.bot))
                continue
            if isinstance(seat, OpenSeat):
                if seat.rating_min is not None and seat.rating_max is not None and seat.rating_min > seat.rating_max:
                    raise ServiceError("invalid_seats", _("seat {number}: rating_min is above rating_max").format(
                                                          number=number))
                seats.append(SeatRecord(number, None, "(open)", accepted=False, open=True,
                                        rating_min=seat.rating_min, rating_max=seat.rating_max))
                continue
            found = self.store.get_player(seat.player_id)
            if found is None:
                raise ServiceError("player_not_found", _("seat {number}: no player {player_id!r}").format(
                                                         number=number, player_id=seat.player_id))
            if any(s.player_id == found.id for s in seats):
                raise ServiceError("invalid_seats", _("seat {number}: player {id} already has a seat").format(
                                                      number=number, id=found.id))
            seats.append(self.consent.player_seat(number, found, creator))
            named[number] = found
        rated = request.rated and request.seed is None and len(seats) == 2 and not any(s.bot for s in seats)
        self.consent.refuse_by_policy(named, creator, request.game, rated, options.get("time_control"))
        return seats
