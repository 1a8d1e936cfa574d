"""What the links in emails do: play the step a link was made for, answer a game one was asked
to play (accept or decline), unsubscribe, take an invited seat. Each reads its signed token
(:class:`~.links.LinkError` when it cannot be used) and returns plain data or refuses with
:class:`LinkRefused`; :mod:`.pages` shows either.

A GET only looks (mail scanners open every link): ``step_link``, ``answer_link``,
``unsubscribe_link`` and ``invitation`` change nothing; only ``play_step_link``, ``answer``,
``unsubscribe`` and ``accept_invitation`` (the page's POST button) act. An answer is the
lobby's (``Lobby.accept``/``Lobby.decline``, given as ``accept``/``decline``): nothing here
decides what accepting does."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Callable

from ..kernel import ids
from ..kernel.calls import Idempotency
from ..kernel.clock import Clock, iso
from pydantic import ValidationError

from ..kernel.errors import ServiceError, describe_validation
from ..games import IllegalStep, apply_steps
from ..games.presenters import PRESENTERS
from ..http.models import ActionRequest
from ..store.records import EmailStop, EventRecord, GameRecord, Player, SeatRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store
from ..services.games import Games
from ..services.life import GameLife
from ..services.lobby import Lobby
from ..presenting.links import ADDRESS, Answer, Invitation, LinkError, Links, StepLink
from ..presenting.show import waits_for
from ..kernel.i18n import _
from ..kernel.talk import MAX_LENGTH


class LinkRefused(ServiceError):
    """A link that was read but cannot do what it was made for now; ``view`` is the seat's view
    when it helps to show the board (a step link for an earlier version), and ``used`` what
    became of the link (:class:`Used`) when the game has moved on since it was made."""

    def __init__(self, code: str, detail: str, view: dict | None = None, used: "Used | None" = None) -> None:
        super().__init__(code, detail)
        self.view = view
        self.used = used


class StepRefused(LinkRefused):
    """The step a link was made for was refused as a move (by ``post_action``)."""


@dataclass(frozen=True)
class Used:
    """The version that followed a link's: made by the link itself (``by_link``), or by something
    else; when, and its events as the link's seat sees them."""

    by_link: bool
    at: str
    events: list[dict]


@dataclass(frozen=True)
class Choices:
    """What the confirmation page of a turn's first step let the player choose: the flags to
    claim and the deck to draw from after it (None: what the page offered first)."""

    claims: tuple[int, ...] | None = None
    deck: str | None = None
    message: str | None = None  # a message to the other seats, with the turn

    def fingerprint(self) -> str:
        chosen = {"claims": None if self.claims is None else sorted(self.claims), "deck": self.deck}
        return json.dumps({**chosen, "message": self.message} if self.message else chosen)


FOLLOWING = 2  # at most this many steps follow a link's step in its turn (Battle Line: the claim, the draw)


@dataclass(frozen=True)
class LinkedStep:
    link: StepLink
    view: dict  # the seat's view now (after the step, once played), with ``recent`` when it has it
    next_steps: list[tuple[dict, str]] = field(default_factory=list)  # once played: the seat's steps now, linked
    # Before playing: the choices the rest of the turn offers, in order: {"type": "claim", "flags": [...]}
    # (the flags the seat could claim after the step) and {"type": "draw", "decks": {"troop": 45, ...}}.
    turn: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)  # once played: every step the action took
    events: list[dict] = field(default_factory=list)  # once played: what the action did, as the seat sees it
    replayed: bool = False  # the link had been followed before: ``events`` are what it did then
    played_at: str | None = None


@dataclass(frozen=True)
class Answering:
    """An answer link: what it answers, the asked seat's view (after the answer, once given) and
    who asked (the game's maker, by name; None when they hold no seat)."""

    link: Answer
    view: dict
    asked_by: str | None


Answerer = Callable[[Player, str], dict]  # (the player, the game id) -> their view: Lobby.accept / Lobby.decline


class MailPlay:
    def __init__(self, store: Store, clock: Clock, *, links: Links | None, life: GameLife, games: Games,
                 lobby: Lobby | None = None) -> None:
        self.store = store
        self.clock = clock
        self.links = links
        self.life = life  # a game by id; a seat taken by an invitation gets its clock passed
        self.engines = life.engines
        self.games = games  # a seat's view with "recent" (Games.story), the player in a seat, a move
        self.lobby = lobby  # an invitation's answer: accept or decline (None: answers are refused)

    def view_for_seat(self, game_id: str, seat: int) -> dict | None:
        """A seat's view with ``recent`` (:meth:`Games.story`): what a link's page shows."""
        return self.games.story(game_id, seat)

    # ------------------------------------------------------------------ whose language a link page speaks

    def reader_language(self, kind: str, token: str) -> str | None:
        """The ``language`` preference of the player a link was made for (``kind``: "step",
        "answer" or "unsubscribe"), which its page speaks; None when the link cannot be read or its
        player is gone (the page then follows the request's Accept-Language)."""
        try:
            if kind == "unsubscribe":
                player = self.store.get_player(self._links().read_unsubscribe(token))
            else:
                link = self._links().read_step(token) if kind == "step" else self._links().read_answer(token)
                player = self.games.seat_player(link.game_id, link.seat)
        except (LinkError, ServiceError):
            return None
        return player.language if player is not None else None

    # ------------------------------------------------------------------ step links

    def step_link(self, token: str) -> LinkedStep:
        """GET of a step link: the step and the seat's view, if the game is still at the link's
        version, with the choices the rest of the turn offers after it (Battle Line: the flags it
        could then claim, the decks it could draw from). Changes nothing."""
        link = self._links().read_step(token)
        view = self.view_for_seat(link.game_id, link.seat)
        if view is None:
            raise LinkRefused("game_not_found", f"there is no game {link.game_id}")
        if view["version"] != link.version:
            raise self._moved_on(link, token, view)
        game = self.life.find(link.game_id)
        turn: list[dict] = []
        if game is not None and game.version == link.version:
            try:
                _, turn = self._turn(game, link.seat, link.step, None)
            except IllegalStep:
                turn = []  # the POST says why, with the rules' reason
        return LinkedStep(link, view, turn=turn)

    def play_step_link(self, token: str, choices: Choices | None = None) -> LinkedStep:
        """POST of a step link: plays the step for the seat the link was made for, and with it the
        rest of that seat's turn as chosen on the page (Battle Line: the claim and the draw after a
        play), as one action at the link's version. Once, however often the link is followed: the
        token is its Idempotency-Key; followed again, it answers what it did then (``replayed``)."""
        link = self._links().read_step(token)
        choices = choices or Choices()
        player = self.games.seat_player(link.game_id, link.seat)
        if player is None:
            raise LinkRefused("game_not_found", f"there is no game {link.game_id}")
        steps = [link.step]
        game = self.life.find(link.game_id)
        if game is not None and game.version == link.version:
            try:
                steps, offered = self._turn(game, link.seat, link.step, choices)
            except IllegalStep:
                steps = [link.step]  # refused below, with the rules' reason
            else:
                claimable = {flag for offer in offered if offer["type"] == "claim" for flag in offer["flags"]}
                if choices.claims and not set(choices.claims) <= claimable:  # never silently dropped
                    raise StepRefused("invalid_request", _("the form claims a flag this page does not offer: "
                                                           "nothing was done"),
                                      view=self.view_for_seat(link.game_id, link.seat))
        fingerprint = hashlib.sha256(f"{token}\n{choices.fingerprint()}".encode()).hexdigest()
        try:
            request = ActionRequest(expected_version=link.version, steps=steps, message=choices.message)
        except ValidationError as error:  # the message (too long, a control character)
            said = choices.message or ""
            why = _("your message holds {count} characters, and at most {most} go with a move: nothing was done").format(
                count=len(said), most=MAX_LENGTH) if len(said) > MAX_LENGTH else describe_validation(error)
            raise StepRefused("invalid_request", why, view=self.view_for_seat(link.game_id, link.seat)) from None
        try:
            outcome = self.games.post_action(player, link.game_id, request, Idempotency(self.link_key(token), fingerprint))
        except ServiceError as error:
            now = self.view_for_seat(link.game_id, link.seat)
            if error.code in ("idempotency_key_reused", "version_conflict", "game_finished") and now is not None:
                raise self._moved_on(link, token, now, error.code) from None
            raise StepRefused(error.code, error.detail, view=now) from None
        body = outcome.body
        view = self.view_for_seat(link.game_id, link.seat) if outcome.replayed else body["view"]
        view = view or body["view"]
        mine = [step for step in view["legal_steps"] if view["to_move"] == link.seat and step["type"] != "resign"]
        return LinkedStep(link, view, [(step, self._links().step_url(view["game_id"], link.seat, view["version"],
                                                                     step)) for step in mine],
                          steps=steps, events=body.get("events", []), replayed=outcome.replayed,
                          played_at=body["view"].get("updated_at"))

    @staticmethod
    def link_key(token: str) -> str:
        """The Idempotency-Key a step link plays with."""
        return f"link:{hashlib.sha256(token.encode()).hexdigest()[:32]}"

    def _moved_on(self, link: StepLink, token: str, view: dict, code: str = "version_conflict") -> LinkRefused:
        """The game is no longer at the link's version: say what became of the link (played by it,
        and when; or the position changed before), with the seat's view now."""
        used = self.used(link, token)
        if view["status"] == "finished":
            return LinkRefused("game_finished", "the game is over", view=view, used=used)
        return LinkRefused(code if code != "idempotency_key_reused" else "version_conflict",
                           "this link was for an earlier position; the latest email or the game's board has your "
                           "current moves", view=view, used=used)

    def used(self, link: StepLink, token: str) -> Used | None:
        """What followed the link's version: made by this link or otherwise, when, and what it did."""
        made = self.store.load_version(link.game_id, link.version + 1)
        if made is None:
            return None
        record, events = made
        player_id = next((s.player_id for s in record.seats if s.seat == link.seat), None)
        # The version records the key with its scope, the seat's player (ids.idempotency_mark).
        by_link = (record.request is not None and player_id is not None
                   and record.request[0] == ids.idempotency_mark(player_id, self.link_key(token)))
        return Used(by_link, record.updated_at, [e.seen_by(link.seat) for e in events])

    def _turn(self, game: GameRecord, seat: int, first: dict,
              choices: Choices | None) -> tuple[list[dict], list[dict]]:
        """The steps of the seat's turn that start with ``first``: those its game has follow it in the
        same turn (``Presenter.then``; Battle Line: the claim and the draw after a play, in the order
        of the game's claim timing; none after a Scout, with both decks empty, or with auto-claim), as
        ``choices`` chooses them (None: what the page offers first; Battle Line: every flag it could
        claim, a troop card). Worked out on a copy of the state on the server:
        the page is shown only the seat's own view of it (claimable flags, deck sizes), never a
        drawn card. Returns (the steps, what was offered at each)."""
        engine = self.engines[game.game]
        state, _ = apply_steps(engine, game.state, seat, [first])
        steps, offered = [first], []
        follows = PRESENTERS[game.game].then  # what the game has follow a link's step in the same turn
        while engine.result(state) is None and engine.to_move(state) == seat and len(offered) < FOLLOWING:
            found = follows(engine.view(state, seat), engine.phase(state), choices)
            if found is None:
                break
            offer, step = found
            offered.append(offer)
            state, _ = apply_steps(engine, state, seat, [step])
            steps.append(step)
        return steps, offered

    # ------------------------------------------------------------------ answers

    def answer_link(self, token: str) -> Answering:
        """GET of an answer link: the game the player is asked to play, while it waits for their
        answer. Refused (with the seat's view now) once answered, or the game ended. Changes nothing."""
        link = self._links().read_answer(token)
        view, asked_by = self._answer_view(link)
        if not waits_for(view):
            raise LinkRefused("nothing_to_answer", "your seat in this game is settled already", view=view)
        return Answering(link, view, asked_by)

    def answer(self, token: str) -> Answering:
        """POST of an answer link: the lobby accepts or declines for the link's player; the seat's
        view after it. Refused with the lobby's reason (and the view now): answered already, the
        game called off or gone."""
        link = self._links().read_answer(token)
        self._answer_view(link)
        player = self.games.seat_player(link.game_id, link.seat)
        answer = {"accept": self.lobby.accept, "decline": self.lobby.decline}.get(link.answer) if self.lobby else None
        if player is None or answer is None:
            raise LinkRefused("game_not_found", f"there is no game {link.game_id}")
        if link.key_generation is not None and player.key_generation != link.key_generation:
            raise LinkRefused("invalid_link", "this link came from a board link whose API key has since been "
                                              "revoked or replaced; answer from a new board link or by API")
        try:
            answer(player, link.game_id)
        except ServiceError as error:
            raise LinkRefused(error.code, error.detail, view=self.view_for_seat(link.game_id, link.seat)) from None
        view, asked_by = self._answer_view(link)
        return Answering(link, view, asked_by)

    def _answer_view(self, link: Answer) -> tuple[dict, str | None]:
        """The link's seat's view and the name of who asked; refused when the game is gone or the
        seat is no longer the link's player's."""
        game = self.life.find(link.game_id)
        view = self.view_for_seat(link.game_id, link.seat) if game is not None else None
        if game is None or view is None:
            raise LinkRefused("game_not_found", f"there is no game {link.game_id}")
        seat = next((s for s in game.seats if s.seat == link.seat), None)
        if seat is None or seat.player_id != link.player_id:
            raise LinkRefused("not_seated", "this seat is no longer yours")
        asked_by = next((s.name for s in game.seats if s.player_id and s.player_id == game.created_by), None)
        return view, asked_by

    # ------------------------------------------------------------------ unsubscribe

    def unsubscribe_link(self, token: str) -> str:
        """GET of an unsubscribe link: the player it is for."""
        return self._links().read_unsubscribe(token)

    def unsubscribe(self, token: str) -> Player | None:
        """One-click unsubscribe (RFC 8058): no more email notifications for this player; for an
        invitation's link (an address with no player), no more mail to that address at all."""
        player_id = self._links().read_unsubscribe(token)
        if player_id.startswith(ADDRESS):  # stopped like a bounce, in the address's partition; set again resumes
            self.store.stop_email(player_id[len(ADDRESS):], EmailStop("unsubscribed", iso(self.clock.now()),
                                                                      "List-Unsubscribe"))
            return None
        player = self.store.get_player(player_id)
        if player is None:
            raise LinkRefused("not_found", "this player no longer exists")
        # No email at all from now on: the daily digest is off too (its entry leaves the sweeper's index).
        self.store.set_preferences(player.id, {**player.preferences, "email": [],
                                               "digest": {**(player.preferences.get("digest") or {}), "enabled": False}})
        return player

    # ------------------------------------------------------------------ invitations

    def invitation(self, token: str) -> tuple[Invitation, GameRecord, SeatRecord]:
        """The invitation, its game and its seat, while the seat still waits for the invited address."""
        invite = self._links().read_invitation(token)
        game = self.life.find(invite.game_id)
        seat = next((s for s in game.seats if s.seat == invite.seat), None) if game else None
        if seat is None or not seat.invited or seat.email != invite.email:
            raise LinkRefused("invitation_answered", "the seat is taken")
        return invite, game, seat

    def accept_invitation(self, token: str) -> dict:
        """Take the invited seat: a player is made for the invited address (its API key returned,
        to be shown once), in the seat's own transaction, so an outage leaves either both or
        neither (the link then works again)."""
        invite, game, seat = self.invitation(token)
        engine = self.engines[game.game]
        api_key = ids.new_api_key()
        now = iso(self.clock.now())
        player = Player(ids.new_id("p"), invite.email.split("@")[0][:64] or "player", invite.email, now)
        seats = [SeatRecord(s.seat, player.id, player.name, s.email) if s.seat == seat.seat else s for s in game.seats]
        active = not any(s.invited for s in seats)
        saved = replace(game, version=game.version + 1, seats=seats, updated_at=now,
                        status="active" if active else "waiting",
                        to_move=engine.to_move(game.state) if active else None, event_count=game.event_count + 1,
                        previous_to_move=game.to_move, request=None, revision=0)
        saved = self.life.pass_clock(saved)
        event = EventRecord(game.id, saved.event_count, saved.version, "seat_taken", seat.seat,
                            {"seat": seat.seat, "player_id": player.id, "name": player.name}, now)
        try:
            self.store.save_game(saved, game.version, [event], None, new_players=[(player, ids.hash_api_key(api_key))])
        except VersionConflict:
            raise LinkRefused("version_conflict", "the game changed while you joined; open the link again") from None
        return {"game_id": game.id, "seat": seat.seat, "player_id": player.id, "api_key": api_key}

    def _links(self) -> Links:
        if self.links is None:
            raise ServiceError("internal_error", _("email links are not configured"))
        return self.links
