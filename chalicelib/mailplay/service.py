"""What the links in emails do: play the step a link was made for, unsubscribe, take an invited
seat. Each reads its signed token (:class:`~.links.LinkError` when it cannot be used) and
returns plain data or refuses with :class:`LinkRefused`; :mod:`.pages` shows either.

A GET only looks (mail scanners open every link): ``step_link``, ``unsubscribe_link`` and
``invitation`` change nothing; only ``play_step_link``, ``unsubscribe`` and
``accept_invitation`` (the page's POST button) act."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Callable

from .. import ids
from ..calls import Idempotency, Outcome
from ..clock import Clock, iso
from ..errors import ServiceError
from ..games import ENGINES, GameEngine
from ..models import ActionRequest
from ..records import EventRecord, GameRecord, Player, SeatRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store
from .links import Invitation, Links, StepLink


class LinkRefused(ServiceError):
    """A link that was read but cannot do what it was made for now; ``view`` is the seat's view
    when it helps to show the board (a step link for an earlier version)."""

    def __init__(self, code: str, detail: str, view: dict | None = None) -> None:
        super().__init__(code, detail)
        self.view = view


class StepRefused(LinkRefused):
    """The step a link was made for was refused as a move (by ``post_action``)."""


@dataclass(frozen=True)
class LinkedStep:
    link: StepLink
    view: dict  # the seat's view now (after the step, once played)
    next_steps: list[tuple[dict, str]]  # once played: the seat's steps now, each with its link


class MailPlay:
    def __init__(self, store: Store, clock: Clock, *, links: Links | None,
                 find: Callable[[str], GameRecord | None],
                 view_for_seat: Callable[[str, int], dict | None],
                 seat_player: Callable[[str, int], Player | None],
                 post_action: Callable[[Player, str, ActionRequest, Idempotency | None], Outcome],
                 pass_clock: Callable, engines: dict[str, GameEngine] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.engines = engines or ENGINES
        self.links = links
        self.find = find
        self.view_for_seat = view_for_seat
        self.seat_player = seat_player
        self.post_action = post_action
        self.pass_clock = pass_clock

    # ------------------------------------------------------------------ step links

    def step_link(self, token: str) -> LinkedStep:
        """GET of a step link: the step and the seat's view, if the game is still at the link's version."""
        link = self._links().read_step(token)
        view = self.view_for_seat(link.game_id, link.seat)
        if view is None:
            raise LinkRefused("game_not_found", f"there is no game {link.game_id}")
        if view["version"] != link.version:
            raise LinkRefused("version_conflict", "this link was for an earlier position; the latest email or "
                              "the game's page has your current moves", view=view)
        return LinkedStep(link, view, [])

    def play_step_link(self, token: str) -> LinkedStep:
        """POST of a step link: plays the step for the seat the link was made for (once, however
        often the link is followed: the token is its Idempotency-Key)."""
        link = self._links().read_step(token)
        player = self.seat_player(link.game_id, link.seat)
        if player is None:
            raise LinkRefused("game_not_found", f"there is no game {link.game_id}")
        digest = hashlib.sha256(token.encode()).hexdigest()
        try:
            outcome = self.post_action(player, link.game_id, ActionRequest(expected_version=link.version,
                                                                           steps=[link.step]),
                                       Idempotency(f"link:{digest[:32]}", digest))
        except ServiceError as error:
            raise StepRefused(error.code, error.detail) from None
        view = outcome.body["view"]
        mine = [step for step in view["legal_steps"] if view["to_move"] == link.seat and step["type"] != "resign"]
        return LinkedStep(link, view, [(step, self._links().step_url(view["game_id"], link.seat, view["version"],
                                                                     step)) for step in mine])

    # ------------------------------------------------------------------ unsubscribe

    def unsubscribe_link(self, token: str) -> str:
        """GET of an unsubscribe link: the player it is for."""
        return self._links().read_unsubscribe(token)

    def unsubscribe(self, token: str) -> Player:
        """One-click unsubscribe (RFC 8058): no more email notifications for this player."""
        player_id = self._links().read_unsubscribe(token)
        player = self.store.get_player(player_id)
        if player is None:
            raise LinkRefused("not_found", "this player no longer exists")
        self.store.set_preferences(player.id, {**player.preferences, "email": []})
        return player

    # ------------------------------------------------------------------ invitations

    def invitation(self, token: str) -> tuple[Invitation, GameRecord, SeatRecord]:
        """The invitation, its game and its seat, while the seat still waits for the invited address."""
        invite = self._links().read_invitation(token)
        game = self.find(invite.game_id)
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
        saved = self.pass_clock(saved, self.clock.now())
        event = EventRecord(game.id, saved.event_count, saved.version, "seat_taken", seat.seat,
                            {"seat": seat.seat, "player_id": player.id, "name": player.name}, now)
        try:
            self.store.save_game(saved, game.version, [event], None, new_players=[(player, ids.hash_api_key(api_key))])
        except VersionConflict:
            raise LinkRefused("version_conflict", "the game changed while you joined; open the link again") from None
        return {"game_id": game.id, "seat": seat.seat, "player_id": player.id, "api_key": api_key}

    def _links(self) -> Links:
        if self.links is None:
            raise ServiceError("internal_error", "email links are not configured")
        return self.links
