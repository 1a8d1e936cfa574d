"""Players: sign-up (the API key shown once), authentication by key, the caller's own record
(with vacation days and ratings) and preferences."""

from __future__ import annotations

from typing import Callable

from .. import ids
from ..calls import Idempotency, Outcome
from ..clock import Clock, iso
from ..errors import ServiceError
from ..models import CreatePlayerRequest
from ..records import Caller, Player, preferences_with_defaults
from ..store.protocol import Store
from .idempotency import Idempotent, Recorder

ANONYMOUS = "anonymous"  # the idempotency scope of a request made before there is a player


class Players:
    def __init__(self, store: Store, clock: Clock, *, idempotent: Idempotent,
                 vacation_status: Callable[[Player], dict], player_ratings: Callable[[Player], dict]) -> None:
        self.store = store
        self.clock = clock
        self.idempotent = idempotent
        self.vacation_status = vacation_status
        self.player_ratings = player_ratings

    def create_player(self, request: CreatePlayerRequest, idempotency: Idempotency | None) -> Outcome:
        def run(record: Recorder) -> dict:
            api_key = ids.new_api_key()
            player = Player(ids.new_id("p"), request.name, request.email, iso(self.clock.now()))
            body = {**player_json(player), "api_key": api_key}
            self.store.create_player(player, ids.hash_api_key(api_key), record(body))
            return body

        return self.idempotent.run(ANONYMOUS, idempotency, run)

    def authenticate(self, api_key: str | None) -> Caller:
        """Who the key names: one strongly consistent read of the key's own item, every request (no
        cache: a key deleted is refused at once)."""
        caller = self.store.caller_for_key(ids.hash_api_key(api_key)) if api_key else None
        if caller is None:
            raise ServiceError("unauthorized", "send a valid API key as 'Authorization: Bearer <api_key>'")
        return caller

    def get_me(self, caller: Caller) -> dict:
        player = profile(self.store, caller)
        return {**player_json(player), "vacation": self.vacation_status(player),
                "ratings": self.player_ratings(player)}

    def get_preferences(self, caller: Caller) -> dict:
        return preferences_with_defaults(profile(self.store, caller).preferences)

    def set_preferences(self, player: Caller, preferences) -> dict:
        """The fields the request sets, over the player's present preferences: a field left out
        keeps its value (an older client cannot reset a newer setting)."""
        chosen = {**preferences_with_defaults(profile(self.store, player).preferences), **preferences.chosen()}
        self.store.set_preferences(player.id, chosen)
        return chosen


def profile(store: Store, caller: Caller) -> Player:
    """The caller's whole record (preferences, vacation), for the routes that show or change it:
    authenticating reads only the key's item."""
    player = store.get_player(caller.id)
    if player is None:  # pragma: no cover - a key outlives no player
        raise ServiceError("unauthorized", "this API key's player no longer exists")
    return player


def player_json(player: Player) -> dict:
    return {"id": player.id, "name": player.name, "email": player.email, "created_at": player.created_at}
