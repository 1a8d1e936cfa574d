"""A game's life, owned by one object: found and loaded, made new, its clock checked, a move
applied, the clock passed, the next version saved (what it tells follows from the saved version,
by the outbox); and what ends it early: a timeout, a forfeit, an abandonment, a decline or an
abort. Every service that changes a game goes through :class:`GameLife`, so a version always has
its events and its clock. The clock (:class:`~.turnclock.TurnClock`, over the pure
:mod:`chalicelib.clocks.timecontrol`) is a collaborator it calls; nothing it calls calls back."""

from __future__ import annotations

import copy
import logging
import random
from dataclasses import replace
from datetime import datetime
from typing import Callable

from ..kernel import ids
from ..clocks import timecontrol
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..games import ENGINES, GameEngine, apply_steps
from ..games.replay import FORFEITS
from ..store.records import EventRecord, GameRecord, IdempotencyRecord, SeatRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store
from ..kernel.talk import MESSAGE
from ..kernel.i18n import _
from .moves import engine_options, game_options
from .turnclock import TurnClock, never_moved

logger = logging.getLogger("battleline.service")


class GameLife:
    def __init__(self, store: Store, clock: Clock, *, engines: dict[str, GameEngine] | None = None,
                 new_seed: Callable[[], int] = ids.new_seed) -> None:
        self.store = store
        self.clock = clock
        self.engines = engines or ENGINES
        self.new_seed = new_seed  # a new game's seed (tests fix it)
        self.turns = TurnClock(store, clock)

    # ------------------------------------------------------------------ finding

    def find(self, game_id: str) -> GameRecord | None:
        """The game, or None; an id that cannot be a game's never reaches the store."""
        return self.store.load_game(game_id) if ids.ID.fullmatch(game_id) else None

    def load(self, game_id: str) -> tuple[GameRecord, GameEngine]:
        """The game and its engine; a game that does not exist is refused (``game_not_found``)."""
        game = self.find(game_id)
        if game is None:
            raise ServiceError("game_not_found", _("there is no game {game_id!r}").format(game_id=game_id))
        return game, self.engines[game.game]

    # ------------------------------------------------------------------ a new game

    @staticmethod
    def game_options(engine: GameEngine, raw: dict) -> dict:
        return game_options(engine, raw)

    def new_game_record(self, engine: GameEngine, game_id: str, options: dict, seats: list[SeatRecord], seed: int,
                        created_by: str, *, seed_public: bool = False, rated: bool = False,
                        tournament_id: str | None = None, seed_withheld: bool = False,
                        public: bool = False) -> tuple[GameRecord, EventRecord]:
        """A new game (not yet stored) and its first event; its clock starts if every seat is taken.
        A seated player with no email and no webhook is marked quiet: the outbox consumer then looks
        nothing up to tell them (a webhook registered later clears the mark)."""
        state = engine.new_game(engine_options(options), random.Random(seed))
        seats = [self._seated(s) if s.player_id else s for s in seats]
        now = iso(self.clock.now())
        waiting = any(s.invited for s in seats)
        control = options.get("time_control")
        game = GameRecord(
            id=game_id, game=engine.name, version=0, status="waiting" if waiting else "active",
            seats=seats, options=options, state=state, seed=seed, seed_public=seed_public,
            created_by=created_by, created_at=now, updated_at=now, event_count=1,
            to_move=None if waiting else engine.to_move(state),
            clock=timecontrol.new_clock(control, [s.seat for s in seats]) if control else None,
            rated=rated and len(seats) == 2 and not any(s.bot for s in seats), tournament_id=tournament_id,
            seed_withheld=seed_withheld, public=public, deal_salt=ids.new_deal_salt(),
            rules_version=engine.rules_version,
        )
        game = self.turns.pass_clock(game, self.clock.now())
        created = EventRecord(game.id, 1, 0, "game_created", None,
                              {"game": game.game, "seats": [s.as_json() for s in seats]}, now)
        return game, created

    def _seated(self, seat: SeatRecord) -> SeatRecord:
        """A player's seat with what the game keeps of them: their vacations, whether they can be told
        anything at all, and whether they are a bot account."""
        player = self.store.get_player(seat.player_id)
        if player is None:
            return seat
        quiet = not player.email and not self.store.list_webhooks(player.id)
        return replace(seat, quiet=quiet, vacation=player.vacation, time_zone=player.preferences.get("time_zone"),
                       bot_account=player.bot)

    # ------------------------------------------------------------------ a move

    def play(self, game: GameRecord, engine: GameEngine, seat: int, steps: list[dict], *,
             said: dict | None = None, record: IdempotencyRecord | None = None) -> tuple[GameRecord, list[EventRecord]]:
        """A seat's move, whole: the clock checked (a seat out of time loses instead: ``time_expired``),
        the steps applied by the engine (all or nothing: ``IllegalStep``), the message ``said`` with it
        (an event), the next version made with its clock passed, and saved at the game's version with
        the move's idempotency ``record`` (``VersionConflict`` if another version came first)."""
        game = self.check_time(game)
        state, raw_events = apply_steps(engine, game.state, seat, steps)
        if said is not None:
            raw_events = [*raw_events, said]
        saved, events = self.advance(game, engine, state, raw_events)
        self.store.save_game(saved, game.version, events, record)
        return saved, events

    def advance(self, game: GameRecord, engine: GameEngine, state: dict,
                raw_events: list[dict]) -> tuple[GameRecord, list[EventRecord]]:
        """The game one version on, with the engine's new state and events (and a message, if one went
        with the move), and its clock passed on."""
        finished = engine.result(state) is not None
        return self.next_version(game, raw_events, state=state, status="finished" if finished else game.status,
                                 to_move=engine.to_move(state))

    def next_version(self, game: GameRecord, raw_events: list[dict], **changes) -> tuple[GameRecord, list[EventRecord]]:
        """The game one version on with ``changes`` (state, status, seat to move, seats, ...) and the
        events ``raw_events`` numbered after the game's, its clock passed on."""
        now = self.clock.now()
        version = game.version + 1
        events = [
            EventRecord(game.id, game.event_count + i, version, e["type"], e["seat"], e["data"], iso(now),
                        e.get("private", {}))
            for i, e in enumerate(raw_events, start=1)
        ]
        said = [e.seq for e in events if e.type == MESSAGE]
        saved = replace(game, version=version, updated_at=iso(now),
                        last_message=said[-1] if said else game.last_message,
                        event_count=game.event_count + len(events), previous_to_move=game.to_move,
                        request=None, revision=0, **changes)
        return self.turns.pass_clock(saved, now), events

    def pass_clock(self, game: GameRecord) -> GameRecord:
        """A version made elsewhere (a seat taken by an invitation's link): its clock passed on, now."""
        return self.turns.pass_clock(game, self.clock.now())

    def clock_view(self, game: GameRecord, at: str | None = None) -> dict | None:
        """The game's clock as a view shows it (now, or at ``at``)."""
        return self.turns.view(game, at)

    # ------------------------------------------------------------------ the clock runs out

    def check_time(self, game: GameRecord) -> GameRecord:
        """Before a move: if the seat to move is out of time, it has lost and nothing else is played."""
        if not timecontrol.expired(game.clock, self.clock.now()):
            return game
        after, timed_out = self.time_out(game)
        if not timed_out and after.version == game.version:
            return after  # a vacation it had taken gave it more time
        raise ServiceError("time_expired", _("seat {seat} ran out of time; the game is over").format(
                                             seat=game.clock['running']['seat']), current_version=after.version)

    def time_out(self, game: GameRecord) -> tuple[GameRecord, bool]:
        """The running seat's deadline has passed by its clock: re-read its player's vacations (taken
        since the turn began) and either apply the timeout or move the deadline. Returns the game as
        it is now and whether this call timed the seat out; a concurrent move or timeout wins if it
        came first (the game is then reloaded)."""
        now = self.clock.now()
        seat = game.clock["running"]["seat"]
        clock = timecontrol.with_vacations(game.clock, self.turns.vacations(game, seat), now)
        if timecontrol.expired(clock, now):
            done = self.run_out(game, seat)
            return (done, True) if done is not None else (self.find(game.id) or game, False)
        moved = self.turns.timed(replace(game, clock=clock), None)
        return (moved if self.store.save_clock(moved) else self.find(game.id) or game), False

    def run_out(self, game: GameRecord, seat: int) -> GameRecord | None:
        """The seat is out of time. One that never moved abandoned the game: it is aborted, unrated and
        counts for nothing, except in a tournament or a ladder, where the seat forfeits (the other side
        wins, and the event scores it). Any other seat loses on time. None: the game moved on first."""
        if never_moved(game.clock, seat):
            if game.tournament_id or game.ladder_id:
                return self.forfeit(game, seat, "forfeit")
            return self.abandon(game, seat)
        return self.forfeit(game, seat, "timeout")

    def timed(self, game: GameRecord, after: datetime | None) -> GameRecord:
        """The game's deadline and next sweep, from its clock (after a vacation moved it)."""
        return self.turns.timed(game, after)

    # ------------------------------------------------------------------ ended early

    def ended(self, game: GameRecord, reason: str, seat: int | None, event: str,
              **detail: object) -> tuple[GameRecord, list[EventRecord]]:
        """The game one version on, ended before its rules could end it (declined, aborted): nobody
        wins, it is never rated and counts for nothing. ``event`` is one of the service's own
        (``SERVICE_EVENTS``: replays skip it); ``detail`` goes into the result."""
        result = {"winner": None, "reason": reason, "seat": seat, **detail}
        return self.next_version(game, [{"type": event, "seat": seat, "data": {"seat": seat, "result": result}}],
                                 status="finished", to_move=None, ended=result, due_at=None, deadline=None)

    def abandon(self, game: GameRecord, seat: int) -> GameRecord | None:
        """The seat's clock ran out before it ever moved: the game is aborted (as Lichess does), as one
        more version; None if the game moved on first."""
        saved, events = self.ended(game, "aborted", seat, "game_aborted", abandoned=True)
        try:
            self.store.save_game(saved, game.version, events, None)
        except VersionConflict:
            return None
        logger.info("game %s: seat %s never moved; aborted at version %s", game.id, seat, saved.version)
        return saved

    def forfeit(self, game: GameRecord, seat: int, reason: str) -> GameRecord | None:
        """The seat loses now (timeout, withdrawal), as one more version; None if the game moved on first.
        The reason names the seat's event: one of ``games.replay.FORFEITS``, so that the events replay."""
        if reason not in FORFEITS:
            raise ValueError(f"{reason!r} is not a forfeit the events can replay")
        engine = self.engines[game.game]
        state = copy.deepcopy(game.state)
        raw_events = engine.forfeit(state, seat, reason)
        if not raw_events:
            return game
        saved, events = self.advance(game, engine, state, raw_events)
        try:
            self.store.save_game(saved, game.version, events, None)
        except VersionConflict:
            return None
        logger.info("game %s: seat %s lost (%s) at version %s", game.id, seat, reason, saved.version)
        return saved
