"""Games: read and list them and their events (long-polls too), and post actions (all or nothing,
at an expected version). A game's view is built here: what one seat (or a spectator) may see.
Making a game is :mod:`.creation`'s."""

from __future__ import annotations

import logging
from typing import Callable, Protocol

from pydantic import ValidationError

from ..http import cursors
from ..kernel import ids, observability, talk
from ..kernel.calls import Idempotency, Outcome
from ..kernel.errors import ServiceError, describe_validation, is_card_error
from ..kernel.i18n import _, say
from ..games import GameEngine, IllegalStep
from ..games.presenters import since_own_move
from ..games.replay import replay
from ..http.models import ActionRequest, ListGamesQuery
from ..store.records import Caller, EventRecord, GameRecord, Player
from ..store.errors import VersionConflict
from ..store.keys import NO_DEADLINE
from ..store.protocol import Store
from .idempotency import Idempotent, reused
from .duplicates import DuplicateBoards
from .life import GameLife
from .moves import SERVICE_EVENTS, engine_options
from .waiting import Waiter
from .consent import Consent

logger = logging.getLogger("battleline.service")

EVENTS_LIMIT = 200  # listEvents' default page (ListEventsQuery.limit)
RECENT = 40  # events a story looks back over at most (an opponent's turn takes a few)


class Keys(Protocol):
    def key_in_force(self, caller: Caller) -> None:
        """Refuses (401) a key that was revoked or rotated away."""


class Games:
    def __init__(self, store: Store, *, life: GameLife, idempotent: Idempotent, duplicates: DuplicateBoards,
                 consent: Consent | None = None, waiter: Waiter | None = None, keys: Keys | None = None) -> None:
        self.store = store
        self.life = life  # the game's life: load, check the clock, apply, pass the clock, save
        self.idempotent = idempotent
        self.duplicates = duplicates  # the boards of a duplicate round: hidden in play, public once scored
        # Whom a player blocks, for a move's message (None: nobody blocks, as in tests of other things).
        self.consent = consent or Consent()
        self.waiter = waiter  # long-polls (None: a wait answers at once)
        self.keys = keys  # the caller's key read again after a wait (Players): 401 if it ended meanwhile

    @property
    def moves(self) -> GameLife:
        """The game's life (its former name, which the tests use)."""
        return self.life

    @property
    def engines(self) -> dict[str, GameEngine]:
        return self.life.engines

    # ------------------------------------------------------------------ reading games and events

    def get_game(self, player: Caller, game_id: str) -> dict:
        """The caller's view, with ``messages``: the game's recent messages, for a seat that reads them."""
        game, _engine = self.life.load(game_id)
        seat = game.seat_of(player.id)
        self.duplicates.hide_board_in_play(game, seat)
        return {**self.view(game, seat), "messages": self.recent_messages(game, seat, player.id)}

    def recent_messages(self, game: GameRecord, seat: int | None, player_id: str | None) -> list[dict]:
        """The messages among the game's latest ``RECENT`` events, as ``seat`` may read them (none for
        a spectator, nor for a player who turned messages off). Events are read only when the game's
        latest message is among them, and the player only then."""
        if seat is None or game.last_message is None or game.last_message <= game.event_count - RECENT:
            return []
        if not self.reads_messages(player_id):
            return []
        events = self.store.list_events(game.id, max(0, game.event_count - RECENT))
        return talk.messages([e.seen_by(seat) for e in events], {s.seat: s.name for s in game.seats})

    def reads_messages(self, player_id: str | None) -> bool:
        """Whether the player reads the other seats' messages (their ``messages`` preference)."""
        found = self.store.get_player(player_id) if player_id else None
        return found is not None and found.reads_messages

    def view_for_seat(self, game_id: str, seat: int | None) -> dict | None:
        """A seat's view, for notifications and links (no caller to authorize), or None."""
        game = self.life.find(game_id)
        return self.view(game, seat) if game else None

    def story(self, game_id: str, seat: int | None) -> dict | None:
        """A seat's view with ``recent``: the events since that seat last moved, as it may see them
        (the last ``RECENT`` at most): what an email or a board tells first. None: no such game."""
        game = self.life.find(game_id)
        if game is None:
            return None
        events = self.store.list_events(game_id, max(0, game.event_count - RECENT))
        player = next((s.player_id for s in game.seats if s.seat == seat), None)
        seen = talk.visible([e.seen_by(seat) for e in events], seat,
                            any(e.type == talk.MESSAGE for e in events) and self.reads_messages(player))
        return {**self.view(game, seat), "recent": since_own_move(seen, seat)}

    def seat_player(self, game_id: str, seat_number: int) -> Player | None:
        """The player in a game's seat (for email links and replies), or None."""
        game = self.life.find(game_id)
        seat = next((s for s in game.seats if s.seat == seat_number), None) if game else None
        return self.store.get_player(seat.player_id) if seat and seat.player_id else None

    def list_games(self, player: Caller, query: ListGamesQuery) -> dict:
        """The player's games, latest first; with ``to_move=me`` those awaiting their move, from the
        ``my_move`` index, soonest deadline first. With ``wait`` too (a long-poll), an empty answer
        waits until a game awaits their move, looking at the index again (each look one eventually
        consistent query of the player's own index entries)."""
        found = self._games(player, query)
        if found["games"] or not query.wait or query.to_move != "me" or query.status not in (None, "active"):
            return found
        return self._wait(player, query.wait,
                          lambda: more if (more := self._games(player, query))["games"] else None) \
            or found

    def _games(self, player: Caller, query: ListGamesQuery) -> dict:
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
        # Pages in the list's own order, each position a unique key: (deadline, game) soonest first for
        # to_move=me (no deadline sorts last, as "~"), (time, game) latest first otherwise.
        scope = f"{query.status or ''}|{query.to_move or ''}"
        if mine:
            key = lambda g: [g["deadline"] or NO_DEADLINE, g["game_id"]]  # noqa: E731
        else:
            key = lambda g: [g["updated_at"], g["game_id"]]  # noqa: E731
        games.sort(key=key, reverse=not mine)
        after = cursors.decode(query.cursor, "games", scope, lambda a: cursors.is_str_list(a, 2))
        page, next_cursor = cursors.page_of(games, key, query.limit, after, "games", scope, descending=not mine)
        return {"games": page, "next_cursor": next_cursor}

    def list_events(self, player: Caller, game_id: str, after: int = 0, *, limit: int = EVENTS_LIMIT,
                    cursor: str | None = None, wait: int = 0) -> dict:
        """The events after ``after`` (or the cursor's place) the caller may see, at most ``limit``;
        the cursor holds the last event's seq, so a poller may as well go on with ``after``. With
        ``wait`` (a long-poll), when there are none yet and the game is not over, wait for them:
        each look reads only the number of the game's latest version (one strongly consistent
        query of one item), and the events are read once it moved on."""
        # A cursor is of this game asked after this seq (as listGames' is of its filters): with
        # another ``after`` it is another query's, and refused rather than silently ignoring ``after``.
        scope = f"{game_id}|{after}"
        at = cursors.decode(cursor, "events", scope, lambda a: isinstance(a, int) and a >= after)
        start = after if at is None else at
        game, _engine = self.life.load(game_id)
        seat = game.seat_of(player.id)
        self.duplicates.hide_board_in_play(game, seat)

        def page(found: list[EventRecord]) -> dict:
            shown = found[:limit]
            more = len(found) > limit
            readable = seat is not None and any(e.type == talk.MESSAGE for e in shown) and \
                self.reads_messages(player.id)
            return {"events": talk.visible([e.seen_by(seat) for e in shown], seat, readable),
                    "next_cursor": cursors.encode("events", scope, shown[-1].seq) if more else None}

        if start < game.event_count:
            return page(self.store.list_events(game_id, start))
        if not wait or game.status == "finished":
            return {"events": [], "next_cursor": None}

        def look() -> dict | None:
            if self.store.latest_version(game_id) == game.version:
                return None
            found = self.store.list_events(game_id, start)
            return page(found) if found else None

        return self._wait(player, wait, look) or {"events": [], "next_cursor": None}

    def _wait(self, player: Caller, wait: int, look: Callable[[], dict | None]) -> dict | None:
        """What ``look`` finds within ``wait`` seconds; before it is answered, the caller's key is read
        again (one read a wait): a key revoked while the request waited is answered 401."""
        if self.waiter is None:
            return None
        found = self.waiter.until(wait, look)
        if self.keys is not None:
            self.keys.key_in_force(player)
        return found

    def replayed_state(self, game_id: str) -> dict:
        """The game's state rebuilt from its options, seed and stored events (``games.replay``): an
        audit, since it must equal the stored state. Raises ReplayError if the events do not replay."""
        game, engine = self.life.load(game_id)
        events = [{"type": e.type, "seat": e.seat, "data": e.data, "private": e.private}
                  for e in self.store.list_events(game_id) if e.type not in SERVICE_EVENTS]
        return replay(engine, engine_options(game.options), game.seed, events)

    # ------------------------------------------------------------------ actions

    def post_action(self, player: Caller, game_id: str, request: ActionRequest,
                    idempotency: Idempotency | None) -> Outcome:
        """Apply the steps at the expected version: one conditional write of the next version (its
        notifications follow from it, by the outbox consumer). With an Idempotency-Key, a retry is
        answered again from the version it made."""
        game, engine = self.life.load(game_id)
        seat = game.seat_of(player.id)
        observability.tag(game_id=game_id, seat=seat)
        if seat is None:
            raise ServiceError("not_seated", _("you have no seat in game {game_id}").format(game_id=game_id))
        replayed = self.idempotent.replay(player.id, idempotency, lambda made, version: self._answer_again(
            made, version, seat))
        if replayed is not None:
            return replayed
        if request.expected_version != game.version:
            return self._made_by(player.id, game_id, request.expected_version + 1, seat, idempotency) \
                or self._conflict(game.version, _(
                    "the game is at version {version}, not {expected}; reload it and choose again").format(
                    version=game.version, expected=request.expected_version))
        if game.status == "finished":
            raise ServiceError("game_finished", _("the game is over"))
        if game.status == "waiting":
            raise ServiceError("game_not_started", _("the game waits for invited players to accept"))
        steps = [self._parse_step(engine, raw, index) for index, raw in enumerate(request.steps)]
        said = None
        if request.message is not None:
            blockers = self.consent.blocks.blocking(player.id, [s.player_id for s in game.seats if s.player_id]) \
                if self.consent.blocks is not None else set()
            said = talk.message_event(seat, request.message, [
                s.seat for s in game.seats if s.player_id not in blockers or s.seat == seat])
        try:
            saved, events = self.life.play(game, engine, seat, steps, said=said, record=self.idempotent.move_record(
                player.id, idempotency, game_id, game.version + 1))
        except IllegalStep as illegal:
            observability.count("illegal_actions")
            logger.info("action refused: %s", illegal.code)
            raise ServiceError(illegal.code, say(illegal.reason), **illegal.details) from None  # in the language spoken
        except VersionConflict as conflict:
            return self._made_by(player.id, game_id, game.version + 1, seat, idempotency) or self._conflict(
                conflict.current_version, _("another action was accepted first; the game is at version {version}").format(
                    version=conflict.current_version))
        body = self._answer(saved, events, seat)
        observability.count("actions")
        # Step types only: a step's content may name cards another seat must not see.
        logger.info("action accepted at version %s: %s", saved.version, " ".join(s["type"] for s in steps))
        return Outcome(body)

    def _answer(self, game: GameRecord, events: list[EventRecord], seat: int) -> dict:
        """What an accepted move answers: the version, the seat's view as of the move (its clock too,
        so that the answer can be made again, byte for byte, from the stored version) and its events."""
        return {"version": game.version, "view": self.view(game, seat, at=game.updated_at),
                "events": [e.seen_by(seat) for e in events]}

    def _answer_again(self, game_id: str, version: int, seat: int) -> dict:
        made = self.store.load_version(game_id, version)
        if made is None:  # pragma: no cover - a recorded version is never deleted
            raise ServiceError("game_not_found", _("there is no game {game_id!r}").format(game_id=game_id))
        return self._answer(made[0], made[1], seat)

    def _made_by(self, scope: str, game_id: str, version: int, seat: int,
                 idempotency: Idempotency | None) -> Outcome | None:
        """A retry whose first try was applied, though its record of the key was not written (the
        request stopped between the two): the version it made says so, marked with the key in the
        caller's ``scope`` (another player's same key is not theirs). The same key with another
        request is refused."""
        made = self.store.load_version(game_id, version) if idempotency is not None else None
        mark = idempotency.mark(scope) if idempotency is not None else None
        if made is None or made[0].request is None or made[0].request[0] != mark[0]:
            return None
        if made[0].request != mark:
            raise reused()
        return Outcome(self._answer(made[0], made[1], seat), replayed=True)

    @staticmethod
    def _conflict(current: int | None, detail: str) -> Outcome:
        observability.count("version_conflicts")
        raise ServiceError("version_conflict", detail, current_version=current)

    @staticmethod
    def _parse_step(engine: GameEngine, raw: object, index: int) -> dict:
        try:
            return engine.parse_step(raw)
        except ValidationError as error:
            code = "invalid_card" if is_card_error(error) else "invalid_step"
            raise ServiceError(code, _("step {index}: {problems}").format(index=index, problems=describe_validation(error)),
                               step_index=index) from None

    # ------------------------------------------------------------------ views

    def view(self, game: GameRecord, seat: int | None, at: str | None = None) -> dict:
        """The game as a seat sees it (None: a spectator): only what that seat may know; its clock as
        of ``at`` (an ISO time; now if not given)."""
        engine = self.engines[game.game]
        state = game.state
        waiting = game.status == "waiting"
        # The seed and salt once the game ends; a duplicate board's (its seed deals its round's other
        # boards too) once its round's last board has ended.
        dealt = self.duplicates.all_public(game)
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
            # Nobody sees a hand before the game begins: an asked player cannot decline a deal they
            # dislike, nor fish for a better one.
            "state": engine.view(state, None if waiting else seat),
            "result": game.result(engine.result(state)),
            "options": engine.public_options(game.options, seat),
            "clock": self.life.clock_view(game, at),
            "rated": game.rated and game.ended is None,  # a game that never began counts for nothing
            "tournament_id": game.tournament_id,
            "public": game.public,
            "seed": game.seed if dealt or (game.seed_public and not game.seed_withheld) else None,
            # The deal's commitment from version 0 on; its salt (and so the seed) once the game ends.
            "deal_commitment": ids.deal_commitment(game.id, game.seed, game.deal_salt) if game.deal_salt else None,
            "deal_salt": game.deal_salt if dealt else None,
            "created_at": game.created_at,
            "updated_at": game.updated_at,
        }
