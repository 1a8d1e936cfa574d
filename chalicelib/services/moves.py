"""How a game record moves on: found by id, made new, taken one version on (the engine's new
state, its events, the clock passed), or forfeited by a seat. Every service that changes a
game goes through here, so a version always has its events and its clock."""

from __future__ import annotations

import copy
import logging
import random
from dataclasses import replace
from datetime import datetime
from typing import Callable

from pydantic import TypeAdapter, ValidationError

from .. import ids, timecontrol
from ..clock import Clock, iso
from ..errors import ServiceError, describe_validation
from ..gamerecords import SERVICE_KINDS
from ..games import ENGINES, GameEngine
from ..games.replay import FORFEITS
from ..records import EventRecord, GameRecord, SeatRecord
from ..shapes import DEFERRED
from ..store.errors import VersionConflict
from ..store.protocol import Store
from ..talk import MESSAGE
from ..i18n import _

logger = logging.getLogger("battleline.service")

TIME_CONTROL = TypeAdapter(timecontrol.TimeControl, config=DEFERRED)
# The service's own events (every other one is the engine's, and replays): a game made, a seat taken
# by an invitation's answer, accepted or joined, a game declined or aborted before its rules began.
SERVICE_EVENTS = (*SERVICE_KINDS, MESSAGE)  # (SERVICE_KINDS: chalicelib/gamerecords.py; a message: talk.py)


def engine_options(options: dict) -> dict:
    """A game's options as its engine takes them (the time control is the service's)."""
    return {k: v for k, v in options.items() if k != "time_control"}


def game_options(engine: GameEngine, raw: dict) -> dict:
    """The game's options, validated: the engine's own, and ``time_control``, which the service keeps."""
    raw = dict(raw)
    control = raw.pop("time_control", None)
    try:
        options = engine.options_model.model_validate(raw).model_dump(mode="json")
        if control is not None:
            options["time_control"] = timecontrol.stored_control(TIME_CONTROL.validate_python(control))
    except ValidationError as error:
        special = {problem["type"] for problem in error.errors()} & {"invalid_deck", "unknown_card_set"}
        raise ServiceError(special.pop() if special else "invalid_options", describe_validation(error)) from None
    return options


class Moves:
    def __init__(self, store: Store, clock: Clock, *, pass_clock: Callable[[GameRecord, datetime], GameRecord],
                 engines: dict[str, GameEngine] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.engines = engines or ENGINES
        self.pass_clock = pass_clock

    def find(self, game_id: str) -> GameRecord | None:
        """The game, or None; an id that cannot be a game's never reaches the store."""
        return self.store.load_game(game_id) if ids.ID.fullmatch(game_id) else None

    def load(self, game_id: str) -> tuple[GameRecord, GameEngine]:
        """The game and its engine; a game that does not exist is refused (``game_not_found``)."""
        game = self.find(game_id)
        if game is None:
            raise ServiceError("game_not_found", _("there is no game {game_id!r}").format(game_id=game_id))
        return game, self.engines[game.game]

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
        game = self.pass_clock(game, self.clock.now())
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
        return self.pass_clock(saved, now), events

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
