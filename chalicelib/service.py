"""The service layer: load → authorize → validate → apply → save → respond.

It knows games, players and the store, and nothing of HTTP: it takes validated request
models and returns plain dicts, and refuses with :class:`ServiceError` codes.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import random
from dataclasses import replace
from urllib.parse import quote
from datetime import datetime
from typing import Callable

from pydantic import TypeAdapter, ValidationError

from . import bots, keys, observability, timecontrol, vacation
from .bots import runner
from .calls import Idempotency, Outcome, withheld
from .clock import Clock, SystemClock, iso
from .errors import ServiceError, describe_validation, is_card_error
from .games import ENGINES, GameEngine, IllegalStep, apply_steps
from .games.battleline.analysis import InvalidPosition, analyze
from .games.battleline.positions import AnalyzeRequest
from .games.khan import cardset
from .games.presenters import PRESENTERS
from .games.replay import FORFEITS, replay
from .models import (
    ActionRequest,
    BotSeat,
    CreateGameRequest,
    CreatePlayerRequest,
    EmailSeat,
    ListGamesQuery,
)
from .notify import messages
from .notify.dispatcher import Dispatcher
from .notify.links import LinkError, Links
from .notify.pages import Page
from .notify.ssrf import UnsafeUrl, check_url
from .notify.webhooks import ROTATION_OVERLAP
from .records import (
    EventRecord,
    GameRecord,
    IdempotencyRecord,
    Player,
    RatingRecord,
    SeatRecord,
    WebhookEndpoint,
    WebhookSecret,
)
from .shapes import DEFERRED
from .store.dynamodb import DynamoStore, IdempotencyRace, VersionConflict
from .tournament_service import Tournaments
from .tournaments import glicko2

logger = logging.getLogger("battleline.service")

ANONYMOUS = "anonymous"
RATING_PERIOD_DAYS = 30  # a rating's RD grows for each such period without a rated game
SERVICE_EVENTS = ("game_created", "seat_taken")  # the service's own events; every other one is the engine's


def engine_options(options: dict) -> dict:
    """A game's options as its engine takes them (the time control is the service's)."""
    return {k: v for k, v in options.items() if k != "time_control"}


class GameService:
    def __init__(
        self,
        store: DynamoStore,
        clock: Clock | None = None,
        engines: dict[str, GameEngine] | None = None,
        new_seed: Callable[[], int] = keys.new_seed,
        dispatcher: Dispatcher | None = None,
        vacation_days: int = vacation.DAYS_PER_YEAR,
    ) -> None:
        self.store = store
        self.vacation_days = vacation_days
        self.tournaments = Tournaments(self)
        self.clock = clock or SystemClock()
        self.engines = engines or ENGINES
        self.new_seed = new_seed
        self.dispatcher = dispatcher or Dispatcher(store, self.clock)
        self.dispatcher.viewer = self.view_for_seat
        self.dispatcher.handlers[messages.GAME_FINISHED] = self.settle_finished
        self.dispatcher.handlers[messages.TOURNAMENT_GAMES] = self.tournaments.make_games
        self.dispatcher.handlers[messages.TOURNAMENT_WITHDRAWAL] = self.tournaments.finish_withdrawal
        self.dispatcher.handlers[messages.BOT_TURN] = self.play_bot

    # ------------------------------------------------------------------ players

    def create_player(self, request: CreatePlayerRequest, idempotency: Idempotency | None) -> Outcome:
        def run(record: Callable[[dict], IdempotencyRecord | None]) -> dict:
            api_key = keys.new_api_key()
            player = Player(keys.new_id("p"), request.name, request.email, self._now())
            body = {**self._player_json(player), "api_key": api_key}
            self.store.create_player(player, keys.hash_api_key(api_key), record(body))
            return body

        return self._idempotent(ANONYMOUS, idempotency, run)

    def authenticate(self, api_key: str | None) -> Player:
        player = self.store.player_for_key(keys.hash_api_key(api_key)) if api_key else None
        if player is None:
            raise ServiceError("unauthorized", "send a valid API key as 'Authorization: Bearer <api_key>'")
        return player

    def get_me(self, player: Player) -> dict:
        return {**self._player_json(player), "vacation": self.vacation_status(player),
                "ratings": self.player_ratings(player)}

    def get_preferences(self, player: Player) -> dict:
        return dict(player.preferences)

    def set_preferences(self, player: Player, preferences) -> dict:
        chosen = preferences.model_dump()
        self.store.set_preferences(player.id, chosen)
        return chosen

    # ------------------------------------------------------------------ games

    def create_game(self, player: Player, request: CreateGameRequest,
                    idempotency: Idempotency | None) -> Outcome:
        engine = self.engines.get(request.game)
        if engine is None:
            raise ServiceError("unknown_game_type", f"{request.game!r} games are not available on this server yet")
        options = self.game_options(engine, request.options)
        seats = self._seats(engine, options, request)

        def run(record: Callable[[dict], IdempotencyRecord | None]) -> dict:
            seed = request.seed if request.seed is not None else self.new_seed()
            game, created = self.new_game_record(engine, keys.new_id("g"), options, seats, seed, player.id,
                                                 seed_public=request.seed is not None,
                                                 rated=request.rated and request.seed is None, public=request.public)
            body = self._view(engine, game, game.seat_of(player.id))
            self.store.create_game(game, [created], record(body), messages.for_new_game(game))
            return body

        return self._idempotent(player.id, idempotency, run)

    def game_options(self, engine: GameEngine, raw: dict) -> dict:
        """The game's options, validated: the engine's own, and ``time_control``, which the service keeps."""
        raw = dict(raw)
        control = raw.pop("time_control", None)
        try:
            options = engine.options_model.model_validate(raw).model_dump(mode="json")
            if control is not None:
                options["time_control"] = TIME_CONTROL.validate_python(control).model_dump()
        except ValidationError as error:
            special = {problem["type"] for problem in error.errors()} & {"invalid_deck", "unknown_card_set"}
            raise ServiceError(special.pop() if special else "invalid_options", describe_validation(error)) from None
        return options

    def new_game_record(self, engine: GameEngine, game_id: str, options: dict, seats: list[SeatRecord], seed: int,
                        created_by: str, *, seed_public: bool = False, rated: bool = False,
                        tournament_id: str | None = None, seed_withheld: bool = False,
                        public: bool = False) -> tuple[GameRecord, EventRecord]:
        """A new game (not yet stored) and its first event; its clock starts if every seat is taken."""
        state = engine.new_game(engine_options(options), random.Random(seed))
        now = self._now()
        waiting = any(s.invited for s in seats)
        control = options.get("time_control")
        game = GameRecord(
            id=game_id, game=engine.name, version=0, status="waiting" if waiting else "active",
            seats=seats, options=options, state=state, seed=seed, seed_public=seed_public,
            created_by=created_by, created_at=now, updated_at=now, event_count=1,
            to_move=None if waiting else engine.to_move(state),
            clock=timecontrol.new_clock(control, [s.seat for s in seats]) if control else None,
            rated=rated and len(seats) == 2 and not any(s.bot for s in seats), tournament_id=tournament_id,
            seed_withheld=seed_withheld, public=public,
        )
        game = self._pass_clock(game, self.clock.now())
        created = EventRecord(game.id, 1, 0, "game_created", None,
                              {"game": game.game, "seats": [s.as_json() for s in seats]}, now)
        return game, created

    def _seats(self, engine: GameEngine, options: dict, request: CreateGameRequest) -> list[SeatRecord]:
        wanted = engine.seat_count(options)
        if len(request.seats) != wanted:
            raise ServiceError("invalid_seats", f"a {engine.name} game with these options has {wanted} seats, "
                                                f"not {len(request.seats)}")
        seats: list[SeatRecord] = []
        for number, seat in enumerate(request.seats, start=1):
            if isinstance(seat, EmailSeat):
                if self.dispatcher.links is None:
                    raise ServiceError("unsupported_seat", f"seat {number}: this server sends no email")
                seats.append(SeatRecord(number, None, "(invited)", seat.email.lower()))
                continue
            if isinstance(seat, BotSeat):
                names = bots.BOTS.get(engine.name, {})
                if seat.bot not in names:
                    raise ServiceError("unsupported_seat", f"seat {number}: there is no {seat.bot!r} bot for "
                                                           f"{engine.name}; there are {', '.join(names)}")
                seats.append(SeatRecord(number, None, f"{seat.bot} bot", bot=seat.bot))
                continue
            found = self.store.get_player(seat.player_id)
            if found is None:
                raise ServiceError("player_not_found", f"seat {number}: no player {seat.player_id!r}")
            if any(s.player_id == found.id for s in seats):
                raise ServiceError("invalid_seats", f"seat {number}: player {found.id} already has a seat")
            seats.append(SeatRecord(number, found.id, found.name))
        return seats

    def get_game(self, player: Player, game_id: str) -> dict:
        game, engine = self._load(game_id)
        seat = game.seat_of(player.id)
        self._hide_board_in_play(game, seat)
        return self._view(engine, game, seat)

    def view_for_seat(self, game_id: str, seat: int) -> dict | None:
        """A seat's view, for notifications (no caller to authorize)."""
        game = self._find(game_id)
        return self._view(self.engines[game.game], game, seat) if game else None

    def seat_player(self, game_id: str, seat_number: int) -> Player | None:
        """The player in a game's seat (for email links and replies), or None."""
        game = self._find(game_id)
        seat = next((s for s in game.seats if s.seat == seat_number), None) if game else None
        return self.store.get_player(seat.player_id) if seat and seat.player_id else None

    def list_games(self, player: Player, query: ListGamesQuery) -> dict:
        """The player's games, latest first; with ``to_move=me`` those awaiting their move, from the
        ``my_move`` index, soonest deadline first."""
        mine = query.to_move == "me"
        games = []
        for m in self.store.list_my_moves(player.id) if mine else self.store.list_memberships(player.id):
            your_turn = m.status == "active" and m.to_move == m.seat
            if query.status and m.status != query.status:
                continue
            if query.to_move == "me" and not your_turn:
                continue
            games.append({"game_id": m.game_id, "game": m.game, "seat": m.seat, "status": m.status,
                          "to_move": m.to_move, "your_turn": your_turn, "version": m.version,
                          "updated_at": m.updated_at, "deadline": m.deadline if your_turn else None})
        if not mine:
            games.sort(key=lambda g: g["updated_at"], reverse=True)
        return {"games": games}

    def list_events(self, player: Player, game_id: str, after: int) -> dict:
        game, _ = self._load(game_id)
        seat = game.seat_of(player.id)
        self._hide_board_in_play(game, seat)
        return {"events": [e.seen_by(seat) for e in self.store.list_events(game_id, after)]}

    # ------------------------------------------------------------------ actions

    def post_action(self, player: Player, game_id: str, request: ActionRequest,
                    idempotency: Idempotency | None) -> Outcome:
        game, engine = self._load(game_id)
        seat = game.seat_of(player.id)
        observability.tag(game_id=game_id, seat=seat)
        if seat is None:
            raise ServiceError("not_seated", f"you have no seat in game {game_id}")
        replay = self._replay(player.id, idempotency)
        if replay is not None:
            return replay
        if request.expected_version != game.version:
            observability.count("version_conflicts")
            raise ServiceError("version_conflict", f"the game is at version {game.version}, "
                               f"not {request.expected_version}; reload it and choose again",
                               current_version=game.version)
        if game.status == "finished":
            raise ServiceError("game_finished", "the game is over")
        if game.status == "waiting":
            raise ServiceError("game_not_started", "the game waits for invited players to accept")
        steps = [self._parse_step(engine, raw, index) for index, raw in enumerate(request.steps)]
        game = self._check_time(game)
        try:
            state, raw_events = apply_steps(engine, game.state, seat, steps)
        except IllegalStep as illegal:
            observability.count("illegal_actions")
            logger.info("action refused: %s", illegal.code)
            raise ServiceError(illegal.code, illegal.reason, **illegal.details) from None
        saved, events = self._advance(game, engine, state, raw_events)
        version = saved.version

        def run(record: Callable[[dict], IdempotencyRecord | None]) -> dict:
            body = {"version": version, "view": self._view(engine, saved, seat),
                    "events": [e.seen_by(seat) for e in events]}
            try:
                self.store.save_game(saved, game.version, events, record(body),
                                     messages.for_action(game, saved, events))
            except VersionConflict as conflict:
                observability.count("version_conflicts")
                raise ServiceError("version_conflict",
                                   f"another action was accepted first; the game is at version "
                                   f"{conflict.current_version}", current_version=conflict.current_version) from None
            observability.count("actions")
            # Step types only: a step's content may name cards another seat must not see.
            logger.info("action accepted at version %s: %s", version, " ".join(s["type"] for s in steps))
            return body

        return self._idempotent(player.id, idempotency, run, checked=True)

    def _advance(self, game: GameRecord, engine: GameEngine, state: dict,
                 raw_events: list[dict]) -> tuple[GameRecord, list[EventRecord]]:
        """The game one version on, with the engine's new state and events, and its clock passed on."""
        now = self.clock.now()
        version = game.version + 1
        events = [
            EventRecord(game.id, game.event_count + i, version, e["type"], e["seat"], e["data"], iso(now),
                        e.get("private", {}))
            for i, e in enumerate(raw_events, start=1)
        ]
        finished = engine.result(state) is not None
        saved = replace(game, version=version, state=state, updated_at=iso(now),
                        status="finished" if finished else game.status,
                        event_count=game.event_count + len(events), to_move=engine.to_move(state))
        return self._pass_clock(saved, now), events

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
        saved, events = self._advance(game, engine, state, raw_events)
        try:
            self.store.save_game(saved, game.version, events, None, messages.for_action(game, saved, events))
        except VersionConflict:
            return None
        logger.info("game %s: seat %s lost (%s) at version %s", game.id, seat, reason, saved.version)
        return saved

    def replayed_state(self, game_id: str) -> dict:
        """The game's state rebuilt from its options, seed and stored events (``games.replay``): an
        audit, since it must equal the stored state. Raises ReplayError if the events do not replay."""
        game, engine = self._load(game_id)
        events = [{"type": e.type, "seat": e.seat, "data": e.data, "private": e.private}
                  for e in self.store.list_events(game_id) if e.type not in SERVICE_EVENTS]
        return replay(engine, engine_options(game.options), game.seed, events)

    # ------------------------------------------------------------------ the board in a browser

    def board_link(self, player: Player, game_id: str) -> dict:
        """A link to the game's board: it plays as the caller's seat, or watches a public game."""
        game, _ = self._load(game_id)
        seat = game.seat_of(player.id)
        self._hide_board_in_play(game, seat)
        if seat is None and not game.public:
            raise ServiceError("not_seated", f"you have no seat in game {game_id}, and it is not public")
        return {"url": self._links().board_url(game_id, seat), "seat": seat}

    def _board_seat(self, game: GameRecord, token: str | None) -> int | None:
        if token:
            try:
                return self._links().read_board(token, game.id)
            except LinkError as error:
                raise ServiceError(error.code, str(error)) from None
        self._hide_board_in_play(game, None)
        if not game.public:
            raise ServiceError("game_not_public", "this game is not public: open it with your seat's board link")
        return None

    def board_view(self, game_id: str, token: str | None) -> dict:
        game, engine = self._load(game_id)
        seat = self._board_seat(game, token)
        view = self._view(engine, game, seat)
        shown = PRESENTERS[game.game]
        if view["status"] == "finished":
            result = view["result"]
            headline = "A draw" if result["winner"] is None else (
                "You won" if result["winner"] == seat else f"Seat {result['winner']} won")
            headline += f" ({result['reason'].replace('_', ' ')})"
        elif view["status"] == "waiting":
            headline = "Waiting for invited players"
        else:
            headline = "Your move" if view["to_move"] == seat else f"Seat {view['to_move']} is to move"
        return {"game_id": game.id, "game": game.game, "title": shown.title, "version": game.version,
                "status": view["status"], "you": seat, "to_move": view["to_move"], "headline": headline,
                "svg": shown.svg_board(view["state"], seat), "text": shown.text_board(view["state"], seat),
                "hand": view["state"].get("hand", []),
                "steps": [{"label": shown.describe_step(s), "step": s} for s in view["legal_steps"]]}

    def board_page(self, game_id: str, token: str | None) -> Page:
        board = self.board_view(game_id, token)
        query = f"?seat={quote(token)}" if token else ""
        return Page(200, f"{board['title']}: game {game_id}", board["headline"], template="board.html",
                    data={"board": board, "view_url": f"/v1/games/{game_id}/board/view{query}",
                          "step_url": f"/v1/games/{game_id}/board/steps{query}"})

    def board_play(self, game_id: str, token: str | None, request) -> dict:
        """A step taken on a seat's board: played as that seat's player, at the version shown."""
        game, _ = self._load(game_id)
        seat = self._board_seat(game, token)
        player = self.seat_player(game_id, seat) if seat is not None else None
        if player is None:
            raise ServiceError("not_seated", "a spectator's board does not play")
        self.post_action(player, game_id, ActionRequest(expected_version=request.expected_version,
                                                        steps=[request.step]), None)
        return self.board_view(game_id, token)

    def _hide_board_in_play(self, game: GameRecord, seat: int | None) -> None:
        """Every board of a duplicate round deals the same cards: what is played (and drawn) on one
        is in the hands (and the deck) of the others. So while any board of the round is unfinished,
        only a board's own seats may see it: anyone else (a player of another board, the organiser)
        is refused. An unfinished board needs no look at its tournament; a finished one asks whether
        its round is scored."""
        if seat is not None or not game.duplicate_board:
            return
        if game.status != "finished" or self.tournaments.round_in_play(game.tournament_id, game.id):
            raise ServiceError("board_in_play", f"game {game.id} is a board of a duplicate round that is still "
                               "being played; it may be watched once every board of the round is finished")

    # ------------------------------------------------------------------ bots

    def play_bot(self, message: messages.Message) -> GameRecord | None:
        """A bot's turn, from the outbox (never inside another player's request): its steps are
        chosen from its seat's view and played like anyone's, at the version the turn began.
        Nothing happens if the game moved on meanwhile (someone resigned, time ran out)."""
        game = self._find(message.data["game_id"])
        seat = next((s for s in game.seats if s.seat == message.data["seat"]), None) if game else None
        if game is None or seat is None or not seat.bot or game.status != "active" \
                or game.version != message.data["version"] or game.to_move != seat.seat:
            return None
        observability.tag(game_id=game.id, seat=seat.seat)
        engine = self.engines[game.game]
        try:
            game = self._check_time(game)
        except ServiceError:
            return None  # its time ran out: the timeout was applied instead
        rng = random.Random(f"{game.id}/{game.version}/{seat.seat}")  # the same decision if the message comes twice
        steps = runner.bot_steps(engine, game.state, seat.seat, game.options, bots.bot(game.game, seat.bot), rng)
        state, raw_events = apply_steps(engine, game.state, seat.seat, steps)
        saved, events = self._advance(game, engine, state, raw_events)
        try:
            self.store.save_game(saved, game.version, events, None, messages.for_action(game, saved, events))
        except VersionConflict:
            return None  # a resignation or a timeout came first
        observability.count("actions")
        logger.info("bot %s played at version %s: %s", seat.bot, saved.version, " ".join(s["type"] for s in steps))
        return saved

    # ------------------------------------------------------------------ clocks

    def _check_time(self, game: GameRecord) -> GameRecord:
        """Before a move: if the seat to move is out of time, it has lost and nothing else is played."""
        if not timecontrol.expired(game.clock, self.clock.now()):
            return game
        after, timed_out = self._time_out(game)
        if not timed_out and after.version == game.version:
            return after  # a vacation it had taken gave it more time
        raise ServiceError("time_expired", f"seat {game.clock['running']['seat']} ran out of time; the game "
                           f"is over", current_version=after.version)

    def _time_out(self, game: GameRecord) -> tuple[GameRecord, bool]:
        """The running seat's deadline has passed by its clock: re-read its player's vacations (taken
        since the turn began) and either apply the timeout or move the deadline. Returns the game as
        it is now and whether this call timed the seat out; a concurrent move or timeout wins if it
        came first (the game is then reloaded)."""
        now = self.clock.now()
        seat = game.clock["running"]["seat"]
        clock = timecontrol.with_vacations(game.clock, self._vacations(game, seat))
        if timecontrol.expired(clock, now):
            done = self.forfeit(game, seat, "timeout")
            return (done, True) if done is not None else (self._find(game.id) or game, False)
        moved = self._timed(replace(game, clock=clock), None)
        return (moved if self.store.save_clock(moved) else self._find(game.id) or game), False

    def _vacations(self, game: GameRecord, seat: int) -> list[timecontrol.Interval]:
        player_id = next((s.player_id for s in game.seats if s.seat == seat), None)
        player = self.store.get_player(player_id) if player_id else None
        return vacation.intervals(player.vacation) if player else []

    def _pass_clock(self, game: GameRecord, now: datetime) -> GameRecord:
        """After a change: the clock runs for the seat now to move (none once the game is over)."""
        if game.clock is None:
            return game
        to_move = game.to_move if game.status == "active" else None
        running = game.clock["running"]
        if running is not None and running["seat"] == to_move:
            return game  # the same turn goes on: same deadline, same reminders
        vacations = self._vacations(game, to_move) if to_move is not None else []
        return self._timed(replace(game, clock=timecontrol.pass_turn(game.clock, now, to_move, vacations)), None)

    @staticmethod
    def _timed(game: GameRecord, after: datetime | None) -> GameRecord:
        """The game's deadline and next sweep, from its clock."""
        end = timecontrol.deadline(game.clock)
        alarm = timecontrol.next_alarm(game.clock, after)
        return replace(game, deadline=iso(end) if end else None, due_at=iso(alarm.at) if alarm else None)

    def sweep_clocks(self, limit: int = 100) -> dict:
        """The scheduled sweeper: reminders that are due, and timeouts, found through the sparse
        ``due`` index (never a scan). Running it twice, or beside a move, does nothing twice."""
        now = self.clock.now()
        done = {"reminders": 0, "timeouts": 0}
        for game_id in self.store.due_games(iso(now), limit):
            game = self._find(game_id)
            if game is None or game.status != "active" or game.clock is None or game.clock["running"] is None:
                if game is not None:
                    self.store.set_game_due(game.id, game.version, None)
                continue
            if timecontrol.expired(game.clock, now):
                done["timeouts"] += self._time_out(game)[1]
                continue
            done["reminders"] += self._remind(game, now)
        return done

    def _remind(self, game: GameRecord, now: datetime) -> int:
        seat = game.clock["running"]["seat"]
        player_id = next((s.player_id for s in game.seats if s.seat == seat), None)
        next_at = iso(timecontrol.next_alarm(game.clock, now).at)
        sent = 0
        for alarm in timecontrol.alarms(game.clock):
            if alarm.kind == "timeout" or alarm.at > now:
                continue
            left = int(timecontrol.time_left(game.clock, seat, now))
            message = messages.reminder(game, seat, player_id, alarm.kind, game.deadline, left, iso(now))
            outcome = self.store.send_reminder(game, f"{timecontrol.turn_key(game.clock)}#{alarm.kind}",
                                               [message] if player_id else [], next_at)
            sent += outcome == "sent"
            if outcome == "already":
                self.store.set_game_due(game.id, game.version, next_at)
        if not sent:
            self.store.set_game_due(game.id, game.version, next_at)
        return sent

    # ------------------------------------------------------------------ vacations

    def vacation_status(self, player: Player) -> dict:
        return vacation.status(player.vacation, self.clock.now(), self.vacation_days)

    def take_vacation(self, player: Player, days: int) -> dict:
        now = self.clock.now()
        try:
            taken = vacation.take(player.vacation, now, days, self.vacation_days)
        except vacation.VacationRefused as refused:
            raise ServiceError(refused.code, refused.reason) from None
        return self._set_vacation(player, taken, now)

    def end_vacation(self, player: Player) -> dict:
        now = self.clock.now()
        try:
            ended = vacation.end(player.vacation, now)
        except vacation.VacationRefused as refused:
            raise ServiceError(refused.code, refused.reason) from None
        return self._set_vacation(player, ended, now)

    def _set_vacation(self, player: Player, record: dict, now: datetime) -> dict:
        """Move the deadlines of the games waiting for this player's move, then store the vacation.
        The player's record is written last: if the store fails midway, the vacation is not taken
        and a retry does it all again (a deadline moved for a vacation never stored is undone, since
        the sweeper re-reads vacations before any timeout, as it does when a move races this)."""
        for m in self.store.list_memberships(player.id):
            if m.status != "active" or m.to_move != m.seat:
                continue
            for _ in range(3):
                game = self._find(m.game_id)
                if game is None or game.clock is None or game.clock["running"] is None \
                        or game.clock["running"]["seat"] != m.seat:
                    break
                moved = self._timed(replace(game, clock=timecontrol.with_vacations(
                    game.clock, vacation.intervals(record))), None)
                if self.store.save_clock(moved):
                    break
        self.store.set_vacation(player.id, record)
        return vacation.status(record, now, self.vacation_days)

    # ------------------------------------------------------------------ finished games

    def settle_finished(self, message: messages.Message) -> None:
        """A finished game's consequences, from the outbox (so never lost): its rating, its tournament."""
        game = self._find(message.data["game_id"])
        if game is None or game.status != "finished":
            return
        engine = self.engines[game.game]
        if game.rated:
            self._rate(game, engine.result(game.state))
        if game.tournament_id:
            self.tournaments.advance(game.tournament_id)

    def _rate(self, game: GameRecord, result: dict) -> None:
        """Glicko-2, each game its own rating period; an idle rating's RD grows first."""
        first, second = (s.player_id for s in game.seats)
        score = 1.0 if result["winner"] == 1 else 0.0 if result["winner"] == 2 else 0.5
        now = self.clock.now()
        for _ in range(5):
            a, b = self.store.get_rating(first, game.game), self.store.get_rating(second, game.game)
            ra, rb = _aged(a, now), _aged(b, now)
            new_a = glicko2.update(ra, [(rb, score)])
            new_b = glicko2.update(rb, [(ra, 1.0 - score)])
            changed = [_rated(a, new_a, score, now), _rated(b, new_b, 1.0 - score, now)]
            try:
                self.store.save_ratings(game.id, changed)
                return
            except VersionConflict:
                continue  # another game of one of them was rated meanwhile: read again
        raise RuntimeError(f"could not rate game {game.id}; the outbox will try again")

    def player_ratings(self, player: Player) -> dict:
        return {r.game: r.as_json() for r in self.store.list_ratings(player.id)}

    def leaderboard(self, game: str, limit: int) -> dict:
        if game not in self.engines:
            raise ServiceError("unknown_game_type", f"there are no {game!r} games on this server")
        rows = self.store.leaderboard(game, limit)
        names = {r.player_id: self.store.get_player(r.player_id) for r in rows}
        return {"game": game, "players": [
            {"rank": rank, "player_id": r.player_id, "name": names[r.player_id].name if names[r.player_id] else "?",
             **r.as_json()} for rank, r in enumerate(rows, start=1)]}

    @staticmethod
    def _parse_step(engine: GameEngine, raw: object, index: int) -> dict:
        try:
            return engine.parse_step(raw)
        except ValidationError as error:
            code = "invalid_card" if is_card_error(error) else "invalid_step"
            raise ServiceError(code, f"step {index}: {describe_validation(error)}", step_index=index) from None

    # ------------------------------------------------------------------ webhooks

    def create_webhook(self, player: Player, request) -> dict:
        try:
            check_url(request.url)
        except UnsafeUrl as refused:
            raise ServiceError("unsafe_webhook_url", str(refused)) from None
        now = self._now()
        endpoint = WebhookEndpoint(keys.new_id("wh"), player.id, request.url, request.events,
                                   [WebhookSecret(self.dispatcher.signing.new_salt(), now)], None, now)
        self.store.put_webhook(endpoint)
        return {**endpoint.as_json(), "secret": self.dispatcher.signing.secret(endpoint.id, endpoint.secrets[0].salt)}

    def list_webhooks(self, player: Player) -> dict:
        return {"webhooks": [e.as_json() for e in self.store.list_webhooks(player.id)]}

    def _webhook(self, player: Player, webhook_id: str) -> WebhookEndpoint:
        endpoint = self.store.get_webhook(player.id, webhook_id) if keys.ID.fullmatch(webhook_id) else None
        if endpoint is None:
            raise ServiceError("webhook_not_found", f"you have no webhook {webhook_id!r}")
        return endpoint

    def delete_webhook(self, player: Player, webhook_id: str) -> None:
        self._webhook(player, webhook_id)
        self.store.delete_webhook(player.id, webhook_id)

    def rotate_webhook_secret(self, player: Player, webhook_id: str) -> dict:
        endpoint = self._webhook(player, webhook_id)
        now = self.clock.now()
        overlap_ends = iso(now + ROTATION_OVERLAP)
        kept = [replace(s, expires_at=min(s.expires_at or overlap_ends, overlap_ends))
                for s in endpoint.secrets if s.expires_at is None or s.expires_at > iso(now)]
        fresh = WebhookSecret(self.dispatcher.signing.new_salt(), iso(now))
        endpoint.secrets = [fresh, *kept]
        self.store.put_webhook(endpoint)
        return {"id": endpoint.id, "secret": self.dispatcher.signing.secret(endpoint.id, fresh.salt),
                "previous_secret_expires_at": overlap_ends}

    def list_webhook_deliveries(self, player: Player, webhook_id: str) -> dict:
        self._webhook(player, webhook_id)
        deliveries = sorted(self.store.list_deliveries(webhook_id), key=lambda d: d.created_at, reverse=True)
        return {"deliveries": [d.as_json() for d in deliveries]}

    def redeliver_webhook(self, player: Player, webhook_id: str, delivery_id: str) -> dict:
        endpoint = self._webhook(player, webhook_id)
        delivery = self.store.get_delivery(webhook_id, delivery_id) if len(delivery_id) <= 200 else None
        if delivery is None:
            raise ServiceError("delivery_not_found", f"webhook {webhook_id} has no delivery {delivery_id!r}")
        endpoint.disabled = None  # asking for a redelivery re-enables an endpoint disabled by a 410
        self.store.put_webhook(endpoint)
        done = self.dispatcher.redeliver(delivery, endpoint)
        return (done or self.store.get_delivery(webhook_id, delivery_id) or delivery).as_json()

    # ------------------------------------------------------------------ email links

    def step_link_page(self, token: str, action_url: str) -> Page:
        """GET of a step link: what it would do, and a button to do it. Changes nothing."""
        try:
            link = self._links().read_step(token)
        except LinkError as error:
            return Page.refused(error)
        view = self.view_for_seat(link.game_id, link.seat)
        if view is None:
            return Page(404, "No such game", f"there is no game {link.game_id}", code="game_not_found")
        shown = PRESENTERS[view["game"]]
        if view["version"] != link.version:
            return Page(409, "The game has moved on", "this link was for an earlier position; "
                        "the latest email or the game's page has your current moves",
                        board=shown.html_board(view["state"], link.seat), code="version_conflict")
        step = shown.describe_step(link.step)
        return Page(200, f"Confirm: {step}", f"Game {link.game_id}, seat {link.seat}.", form_action=action_url,
                    button=f"Yes, {step}", board=shown.html_board(view["state"], link.seat))

    def play_step_link(self, token: str) -> Page:
        """POST of a step link: plays the step for the seat the link was made for."""
        try:
            link = self._links().read_step(token)
        except LinkError as error:
            return Page.refused(error)
        player = self.seat_player(link.game_id, link.seat)
        if player is None:
            return Page(404, "No such game", f"there is no game {link.game_id}", code="game_not_found")
        digest = hashlib.sha256(token.encode()).hexdigest()
        try:
            outcome = self.post_action(player, link.game_id, ActionRequest(expected_version=link.version,
                                                                           steps=[link.step]),
                                       Idempotency(f"link:{digest[:32]}", digest))
        except ServiceError as error:
            status = 409 if error.code in ("version_conflict", "game_finished") else error.status
            return Page(status, "That move was not played", error.detail, code=error.code)
        view = outcome.body["view"]
        shown = PRESENTERS[view["game"]]
        links = [{"label": shown.describe_step(step), "url": self._links().step_url(view["game_id"], link.seat,
                                                                                   view["version"], step)}
                 for step in view["legal_steps"] if view["to_move"] == link.seat and step["type"] != "resign"]
        return Page(200, f"Played: {shown.describe_step(link.step)}",
                    f"Game {link.game_id} is at version {view['version']}.",
                    board=shown.html_board(view["state"], link.seat), links=links)

    def unsubscribe_page(self, token: str, action_url: str) -> Page:
        try:
            self._links().read_unsubscribe(token)
        except LinkError as error:
            return Page.refused(error)
        return Page(200, "Stop emails?", "You will get no more game emails; webhooks are not affected.",
                    form_action=action_url, button="Unsubscribe")

    def unsubscribe(self, token: str) -> Page:
        """One-click unsubscribe (RFC 8058): no more email notifications for this player."""
        try:
            player_id = self._links().read_unsubscribe(token)
        except LinkError as error:
            return Page.refused(error)
        player = self.store.get_player(player_id)
        if player is None:
            return Page(404, "No such player", "this player no longer exists", code="not_found")
        self.store.set_preferences(player.id, {**player.preferences, "email": []})
        return Page(200, "Unsubscribed", "You will get no more game emails.")

    def _open_invitation(self, token: str):
        """(invitation, game, seat) for a token whose seat still waits, or the page saying why not."""
        try:
            invite = self._links().read_invitation(token)
        except LinkError as error:
            return Page.refused(error)
        game = self._find(invite.game_id)
        seat = next((s for s in game.seats if s.seat == invite.seat), None) if game else None
        if seat is None or not seat.invited or seat.email != invite.email:
            return Page(409, "This invitation was already answered", "the seat is taken", code="invitation_answered")
        return invite, game, seat

    def invitation_page(self, token: str, action_url: str) -> Page:
        opened = self._open_invitation(token)
        if isinstance(opened, Page):
            return opened
        invite, game = opened[0], opened[1]
        return Page(200, f"Join this game of {PRESENTERS[game.game].title}?", f"Seat {invite.seat} of game {invite.game_id} is kept "
                    f"for {invite.email}. You will play by email (or by API, with the key shown next).",
                    form_action=action_url, button="Join the game")

    def accept_invitation(self, token: str) -> Page:
        """Take the invited seat: a player is made for the invited address (its API key shown once),
        in the seat's own transaction, so an outage leaves either both or neither (the link then
        works again)."""
        opened = self._open_invitation(token)
        if isinstance(opened, Page):
            return opened
        invite, game, seat = opened
        engine = self.engines[game.game]
        api_key = keys.new_api_key()
        player = Player(keys.new_id("p"), invite.email.split("@")[0][:64] or "player", invite.email, self._now())
        seats = [SeatRecord(s.seat, player.id, player.name, s.email) if s.seat == seat.seat else s for s in game.seats]
        now = self._now()
        active = not any(s.invited for s in seats)
        saved = replace(game, version=game.version + 1, seats=seats, updated_at=now,
                        status="active" if active else "waiting",
                        to_move=engine.to_move(game.state) if active else None, event_count=game.event_count + 1)
        saved = self._pass_clock(saved, self.clock.now())
        event = EventRecord(game.id, saved.event_count, saved.version, "seat_taken", seat.seat,
                            {"seat": seat.seat, "player_id": player.id, "name": player.name}, now)
        try:
            self.store.save_game(saved, game.version, [event], None, messages.for_seat_taken(saved),
                                 new_players=[(player, keys.hash_api_key(api_key))])
        except VersionConflict:
            return Page(409, "Please try again", "the game changed while you joined; open the link again",
                        code="version_conflict")
        return Page(200, "You are in", f"You have seat {seat.seat} in game {game.id}. We will email you when it is "
                    f"your move. Your API key, shown only this once, is {api_key}")

    def _links(self) -> Links:
        if self.dispatcher.links is None:
            raise ServiceError("internal_error", "email links are not configured")
        return self.dispatcher.links

    # ------------------------------------------------------------------ analysis

    @staticmethod
    def analyze_battleline(request: AnalyzeRequest) -> dict:
        """Stateless: every flag's claim check for a seat in a given position."""
        try:
            return analyze(request)
        except InvalidPosition as error:
            raise ServiceError("invalid_position", str(error)) from None

    # ------------------------------------------------------------------ Khan & General card sets

    @staticmethod
    def khan_card_sets() -> dict:
        return {"card_sets": [_card_set_summary(c) for c in cardset.REGISTRY.all()],
                "refused": dict(cardset.REGISTRY.refused)}

    @staticmethod
    def khan_card_set(card_set_id: str, version: int | None) -> dict:
        try:
            found = cardset.REGISTRY.get(card_set_id, version)
        except cardset.UnknownCardSet as error:
            raise ServiceError("card_set_not_found", str(error)) from None
        data = found.data
        return {**_card_set_summary(found), "units": data["units"], "commands": data["commands"],
                "recommended": data["recommended"]}

    @staticmethod
    def check_khan_card_set(data: dict) -> dict:
        """A designer's card-set file checked as the server would load it (nothing is stored)."""
        try:
            found = cardset.parse(data, "the posted card set")
        except cardset.CardSetError as error:
            return {"valid": False, "problems": error.problems}
        return {"valid": True, "id": found.id, "version": found.version, "digest": found.digest, "problems": []}

    # ------------------------------------------------------------------ helpers

    def _find(self, game_id: str) -> GameRecord | None:
        """The game, or None; an id that cannot be a game's never reaches the store."""
        return self.store.load_game(game_id) if keys.ID.fullmatch(game_id) else None

    def _load(self, game_id: str) -> tuple[GameRecord, GameEngine]:
        game = self._find(game_id)
        if game is None:
            raise ServiceError("game_not_found", f"there is no game {game_id!r}")
        return game, self.engines[game.game]

    def _view(self, engine: GameEngine, game: GameRecord, seat: int | None) -> dict:
        state = game.state
        finished = engine.result(state) is not None
        waiting = game.status == "waiting"
        return {
            "game_id": game.id,
            "game": game.game,
            "version": game.version,
            "status": game.status,
            "seats": [s.as_json() for s in game.seats],
            "you": seat,
            "to_move": None if waiting else engine.to_move(state),
            "phase": "waiting" if waiting else engine.phase(state),
            "legal_steps": engine.legal_steps(state, seat) if seat is not None and not waiting else [],
            "state": engine.view(state, seat),
            "result": engine.result(state),
            "options": engine.public_options(game.options, seat),
            "clock": self._clock_view(game),
            "rated": game.rated,
            "tournament_id": game.tournament_id,
            "public": game.public,
            "seed": game.seed if (game.seed_public or finished) and not game.seed_withheld else None,
            "created_at": game.created_at,
            "updated_at": game.updated_at,
        }

    def _clock_view(self, game: GameRecord) -> dict | None:
        if game.clock is None:
            return None
        return {"control": game.clock["control"],
                "seats": timecontrol.seat_clocks(game.clock, [s.seat for s in game.seats], self.clock.now())}

    def _replay(self, scope: str, idempotency: Idempotency | None) -> Outcome | None:
        if idempotency is None:
            return None
        record = self.store.get_idempotency(scope, idempotency.key)
        if record is None:
            return None
        if record.fingerprint != idempotency.fingerprint:
            raise ServiceError("idempotency_key_reused",
                               "this Idempotency-Key was already used with another request; use a new key")
        return Outcome(record.body, replayed=True)

    def _idempotent(self, scope: str, idempotency: Idempotency | None,
                    run: Callable[[Callable[[dict], IdempotencyRecord | None]], dict],
                    *, checked: bool = False) -> Outcome:
        """Run a write once per Idempotency-Key; its record is written in the write's transaction."""
        if not checked:
            replay = self._replay(scope, idempotency)
            if replay is not None:
                return replay

        def record(body: dict) -> IdempotencyRecord | None:
            if idempotency is None:
                return None
            return IdempotencyRecord(scope, idempotency.key, idempotency.fingerprint, withheld(body), self._now())

        try:
            return Outcome(run(record))
        except IdempotencyRace:
            replay = self._replay(scope, idempotency)
            if replay is None:  # pragma: no cover - the record that beat us cannot vanish this fast
                raise
            return replay

    def _now(self) -> str:
        return iso(self.clock.now())

    @staticmethod
    def _player_json(player: Player) -> dict:
        return {"id": player.id, "name": player.name, "email": player.email, "created_at": player.created_at}


TIME_CONTROL = TypeAdapter(timecontrol.TimeControl, config=DEFERRED)


def _card_set_summary(found: cardset.CardSet) -> dict:
    return {"id": found.id, "version": found.version, "name": found.name, "digest": found.digest,
            "factions": [{"id": f.id, "name": f.name} for f in found.factions]}


def _aged(record: RatingRecord, now: datetime) -> glicko2.Rating:
    """The rating as Glicko-2 sees it now: its RD grown for each idle rating period."""
    rating = glicko2.Rating(record.rating, record.rd, record.volatility)
    if record.updated_at:
        idle = (now - timecontrol.parse_time(record.updated_at)).days // RATING_PERIOD_DAYS
        for _ in range(min(idle, 24)):
            rating = glicko2.update(rating, [])
    return rating


def _rated(before: RatingRecord, after: glicko2.Rating, score: float, now: datetime) -> RatingRecord:
    return replace(before, rating=after.rating, rd=after.rd, volatility=after.volatility, games=before.games + 1,
                   wins=before.wins + (score == 1.0), losses=before.losses + (score == 0.0),
                   draws=before.draws + (score == 0.5), updated_at=iso(now))
