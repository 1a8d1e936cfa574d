"""The service layer: load → authorize → validate → apply → save → respond.

It knows games, players and the store, and nothing of HTTP: it takes validated request
models and returns plain dicts, and refuses with :class:`ServiceError` codes.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, replace
from typing import Callable

from pydantic import ValidationError

from . import keys
from .clock import Clock, SystemClock, iso
from .errors import ServiceError
from .games import ENGINES, GameEngine, IllegalStep, apply_steps
from .games.battleline.analysis import AnalyzeRequest, InvalidPosition, analyze
from .games.battleline.render import describe_step, html_board
from .models import (
    ActionRequest,
    CreateGameRequest,
    CreatePlayerRequest,
    EmailSeat,
    ListGamesQuery,
    PlayerSeat,
)
from .notify import messages
from .notify.dispatcher import Dispatcher
from .notify.links import LinkError, Links
from .notify.pages import Page
from .notify.ssrf import UnsafeUrl, check_url
from .notify.webhooks import ROTATION_OVERLAP, new_secret
from .records import EventRecord, GameRecord, IdempotencyRecord, Player, SeatRecord, WebhookEndpoint, WebhookSecret
from .store.dynamodb import DynamoStore, IdempotencyRace, VersionConflict

ANONYMOUS = "anonymous"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class Idempotency:
    """An Idempotency-Key and the fingerprint of the request that carried it."""

    key: str
    fingerprint: str


@dataclass(frozen=True)
class Outcome:
    body: dict
    replayed: bool = False


def describe_validation(error: ValidationError) -> str:
    parts = []
    for problem in error.errors()[:3]:
        where = ".".join(str(p) for p in problem["loc"]) or "body"
        parts.append(f"{where}: {problem['msg']}")
    return "; ".join(parts)


def is_card_error(error: ValidationError) -> bool:
    """Did validation fail on a card's notation (``7Z``, ``07R``)?"""
    return any(
        problem["type"] == "string_pattern_mismatch" and {"card", "cards"} & set(map(str, problem["loc"]))
        for problem in error.errors()
    )


class GameService:
    def __init__(
        self,
        store: DynamoStore,
        clock: Clock | None = None,
        engines: dict[str, GameEngine] | None = None,
        new_seed: Callable[[], int] = keys.new_seed,
        dispatcher: Dispatcher | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.engines = engines or ENGINES
        self.new_seed = new_seed
        self.dispatcher = dispatcher or Dispatcher(store, self.clock)
        self.dispatcher.viewer = self.view_for_seat

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
        return self._player_json(player)

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
        try:
            options = engine.options_model.model_validate(request.options).model_dump(mode="json")
        except ValidationError as error:
            raise ServiceError("invalid_options", describe_validation(error)) from None
        seats = self._seats(engine, options, request)

        def run(record: Callable[[dict], IdempotencyRecord | None]) -> dict:
            seed = request.seed if request.seed is not None else self.new_seed()
            state = engine.new_game(options, random.Random(seed))
            now = self._now()
            waiting = any(s.invited for s in seats)
            game = GameRecord(
                id=keys.new_id("g"), game=engine.name, version=0, status="waiting" if waiting else "active",
                seats=seats, options=options, state=state, seed=seed, seed_public=request.seed is not None,
                created_by=player.id, created_at=now, updated_at=now, event_count=1,
                to_move=None if waiting else engine.to_move(state),
            )
            created = EventRecord(game.id, 1, 0, "game_created", None,
                                  {"game": game.game, "seats": [s.as_json() for s in seats]}, now)
            body = self._view(engine, game, game.seat_of(player.id))
            self.store.create_game(game, [created], record(body), messages.for_new_game(game))
            return body

        return self._idempotent(player.id, idempotency, run)

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
            if not isinstance(seat, PlayerSeat):
                raise ServiceError("unsupported_seat", f"seat {number}: bot seats are not available yet; "
                                                       "seat a player by player_id, or invite one by email")
            found = self.store.get_player(seat.player_id)
            if found is None:
                raise ServiceError("player_not_found", f"seat {number}: no player {seat.player_id!r}")
            if any(s.player_id == found.id for s in seats):
                raise ServiceError("invalid_seats", f"seat {number}: player {found.id} already has a seat")
            seats.append(SeatRecord(number, found.id, found.name))
        return seats

    def get_game(self, player: Player, game_id: str) -> dict:
        game, engine = self._load(game_id)
        return self._view(engine, game, game.seat_of(player.id))

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
        games = []
        for m in self.store.list_memberships(player.id):
            your_turn = m.status == "active" and m.to_move == m.seat
            if query.status and m.status != query.status:
                continue
            if query.to_move == "me" and not your_turn:
                continue
            games.append({"game_id": m.game_id, "game": m.game, "seat": m.seat, "status": m.status,
                          "to_move": m.to_move, "your_turn": your_turn, "version": m.version,
                          "updated_at": m.updated_at})
        games.sort(key=lambda g: g["updated_at"], reverse=True)
        return {"games": games}

    def list_events(self, player: Player, game_id: str, after: int) -> dict:
        game, _ = self._load(game_id)
        seat = game.seat_of(player.id)
        return {"events": [e.seen_by(seat) for e in self.store.list_events(game_id, after)]}

    # ------------------------------------------------------------------ actions

    def post_action(self, player: Player, game_id: str, request: ActionRequest,
                    idempotency: Idempotency | None) -> Outcome:
        game, engine = self._load(game_id)
        seat = game.seat_of(player.id)
        if seat is None:
            raise ServiceError("not_seated", f"you have no seat in game {game_id}")
        replay = self._replay(player.id, idempotency)
        if replay is not None:
            return replay
        if request.expected_version != game.version:
            raise ServiceError("version_conflict", f"the game is at version {game.version}, "
                               f"not {request.expected_version}; reload it and choose again",
                               current_version=game.version)
        if game.status == "finished":
            raise ServiceError("game_finished", "the game is over")
        if game.status == "waiting":
            raise ServiceError("game_not_started", "the game waits for invited players to accept")
        steps = [self._parse_step(engine, raw, index) for index, raw in enumerate(request.steps)]
        try:
            state, raw_events = apply_steps(engine, game.state, seat, steps)
        except IllegalStep as illegal:
            raise ServiceError(illegal.code, illegal.reason, **illegal.details) from None

        now = self._now()
        version = game.version + 1
        events = [
            EventRecord(game.id, game.event_count + i, version, e["type"], e["seat"], e["data"], now,
                        e.get("private", {}))
            for i, e in enumerate(raw_events, start=1)
        ]
        result = engine.result(state)
        saved = replace(game, version=version, state=state, updated_at=now,
                        status="finished" if result is not None else game.status,
                        event_count=game.event_count + len(events), to_move=engine.to_move(state))

        def run(record: Callable[[dict], IdempotencyRecord | None]) -> dict:
            body = {"version": version, "view": self._view(engine, saved, seat),
                    "events": [e.seen_by(seat) for e in events]}
            try:
                self.store.save_game(saved, game.version, events, record(body),
                                     messages.for_action(game, saved, events))
            except VersionConflict as conflict:
                raise ServiceError("version_conflict",
                                   f"another action was accepted first; the game is at version "
                                   f"{conflict.current_version}", current_version=conflict.current_version) from None
            return body

        return self._idempotent(player.id, idempotency, run, checked=True)

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
                                   [WebhookSecret(new_secret(), now)], None, now)
        self.store.put_webhook(endpoint)
        return {**endpoint.as_json(), "secret": endpoint.secrets[0].secret}

    def list_webhooks(self, player: Player) -> dict:
        return {"webhooks": [e.as_json() for e in self.store.list_webhooks(player.id)]}

    def _webhook(self, player: Player, webhook_id: str) -> WebhookEndpoint:
        endpoint = self.store.get_webhook(player.id, webhook_id) if GAME_ID.fullmatch(webhook_id) else None
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
        fresh = WebhookSecret(new_secret(), iso(now))
        endpoint.secrets = [fresh, *kept]
        self.store.put_webhook(endpoint)
        return {"id": endpoint.id, "secret": fresh.secret, "previous_secret_expires_at": overlap_ends}

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
            return Page(404, "No such game", f"there is no game {link.game_id}")
        if view["version"] != link.version:
            return Page(409, "The game has moved on", "this link was for an earlier position; "
                        "the latest email or the game's page has your current moves",
                        board=html_board(view["state"], link.seat))
        return Page(200, f"Confirm: {describe_step(link.step)}", f"Game {link.game_id}, seat {link.seat}.",
                    form_action=action_url, button=f"Yes, {describe_step(link.step)}",
                    board=html_board(view["state"], link.seat))

    def play_step_link(self, token: str) -> Page:
        """POST of a step link: plays the step for the seat the link was made for."""
        try:
            link = self._links().read_step(token)
        except LinkError as error:
            return Page.refused(error)
        player = self.seat_player(link.game_id, link.seat)
        if player is None:
            return Page(404, "No such game", f"there is no game {link.game_id}")
        digest = hashlib.sha256(token.encode()).hexdigest()
        try:
            outcome = self.post_action(player, link.game_id, ActionRequest(expected_version=link.version,
                                                                           steps=[link.step]),
                                       Idempotency(f"link:{digest[:32]}", digest))
        except ServiceError as error:
            status = 409 if error.code in ("version_conflict", "game_finished") else error.status
            return Page(status, "That move was not played", error.detail)
        view = outcome.body["view"]
        links = [{"label": describe_step(step), "url": self._links().step_url(view["game_id"], link.seat,
                                                                             view["version"], step)}
                 for step in view["legal_steps"] if view["to_move"] == link.seat and step["type"] != "resign"]
        return Page(200, f"Played: {describe_step(link.step)}", f"Game {link.game_id} is at version {view['version']}.",
                    board=html_board(view["state"], link.seat), links=links)

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
            return Page(404, "No such player", "this player no longer exists")
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
            return Page(409, "This invitation was already answered", "the seat is taken")
        return invite, game, seat

    def invitation_page(self, token: str, action_url: str) -> Page:
        opened = self._open_invitation(token)
        if isinstance(opened, Page):
            return opened
        invite = opened[0]
        return Page(200, "Join this game of Battle Line?", f"Seat {invite.seat} of game {invite.game_id} is kept "
                    f"for {invite.email}. You will play by email (or by API, with the key shown next).",
                    form_action=action_url, button="Join the game")

    def accept_invitation(self, token: str) -> Page:
        """Take the invited seat: a player is made for the invited address (its API key shown once)."""
        opened = self._open_invitation(token)
        if isinstance(opened, Page):
            return opened
        invite, game, seat = opened
        engine = self.engines[game.game]
        api_key = keys.new_api_key()
        player = Player(keys.new_id("p"), invite.email.split("@")[0][:64] or "player", invite.email, self._now())
        self.store.create_player(player, keys.hash_api_key(api_key), None)
        seats = [SeatRecord(s.seat, player.id, player.name, s.email) if s.seat == seat.seat else s for s in game.seats]
        now = self._now()
        active = not any(s.invited for s in seats)
        saved = replace(game, version=game.version + 1, seats=seats, updated_at=now,
                        status="active" if active else "waiting",
                        to_move=engine.to_move(game.state) if active else None, event_count=game.event_count + 1)
        event = EventRecord(game.id, saved.event_count, saved.version, "seat_taken", seat.seat,
                            {"seat": seat.seat, "player_id": player.id, "name": player.name}, now)
        try:
            self.store.save_game(saved, game.version, [event], None, messages.for_seat_taken(saved))
        except VersionConflict:
            return Page(409, "Please try again", "the game changed while you joined; open the link again")
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

    # ------------------------------------------------------------------ helpers

    def _find(self, game_id: str) -> GameRecord | None:
        """The game, or None; an id that cannot be a game's never reaches the store."""
        return self.store.load_game(game_id) if GAME_ID.fullmatch(game_id) else None

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
            "options": game.options,
            "seed": game.seed if game.seed_public or finished else None,
            "created_at": game.created_at,
            "updated_at": game.updated_at,
        }

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
            return IdempotencyRecord(scope, idempotency.key, idempotency.fingerprint, body, self._now())

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
