"""Players: sign-up (the API key shown once), authentication by key, the caller's own record
(with vacation days and ratings) and preferences."""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol

from ..http import cursors
from ..clocks import digest
from ..kernel import ids
from ..kernel.calls import Idempotency, Outcome
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..http.models import CreatePlayerRequest, FindPlayersQuery
from ..store.records import Caller, Player, preferences_with_defaults
from ..store.protocol import Store
from .ratings import Ratings
from ..kernel.text import name_key
from .idempotency import Idempotent, Recorder
from .mailevents import email_status
from ..kernel.i18n import _

KEY_OVERLAP = timedelta(hours=24)  # how long a rotated-out key works at most while the new one is unused
ANONYMOUS = "anonymous"  # the idempotency scope of a request made before there is a player


class VacationStatus(Protocol):
    def vacation_status(self, player: Player) -> dict:
        """A player's vacation days taken and left (:class:`~.vacations.Vacations`)."""


class Players:
    def __init__(self, store: Store, clock: Clock, *, idempotent: Idempotent, vacations: VacationStatus,
                 ratings: Ratings) -> None:
        self.store = store
        self.clock = clock
        self.idempotent = idempotent
        self.vacations = vacations  # a player's vacation status (getMe)
        self.ratings = ratings  # a player's ratings (getMe, getPlayer)

    def create_player(self, request: CreatePlayerRequest, idempotency: Idempotency | None) -> Outcome:
        if request.bot_policy is not None and not request.bot:
            raise not_a_bot()
        chosen = {"language": request.language}
        if request.bot_policy is not None:
            chosen["bot_policy"] = request.bot_policy.model_dump()

        def run(record: Recorder) -> dict:
            api_key = ids.new_api_key()
            player = Player(ids.new_id("p"), request.name, request.email, iso(self.clock.now()),
                            preferences_with_defaults(chosen), bot=request.bot,
                            recovery_code=ids.hash_recovery_code(request.recovery_code) if request.recovery_code else None)
            body = {**player_json(player), "api_key": api_key}
            self.store.create_player(player, ids.hash_api_key(api_key), record(body))
            return body

        return self.idempotent.run(ANONYMOUS, idempotency, run)

    def authenticate(self, api_key: str | None) -> Caller:
        """Who the key names: one strongly consistent read of the key's own item, every request (no
        cache: a key deleted is refused at once). A key a rotation replaced works until its ``until``;
        a rotation's new key, at its first use, ends every other key of the player (one more write,
        once)."""
        key_hash = ids.hash_api_key(api_key) if api_key else None
        found = self.store.api_key(key_hash) if key_hash else None
        if found is not None and found.until is not None and found.until <= iso(self.clock.now()):
            found = None
        if found is not None and found.fresh and not self.store.activate_api_key(found.player_id, key_hash):
            found = None
        if found is None:
            raise ServiceError("unauthorized", _("send a valid API key as 'Authorization: Bearer <api_key>'"))
        return Caller(found.player_id, found.name, key_hash=key_hash)

    def key_in_force(self, caller: Caller) -> None:
        """The key the request came with, read again (one strongly consistent read): a long-poll
        checks it before answering what it waited for, so a key revoked (or replaced) during the wait
        gets 401, not the events."""
        if caller.key_hash is None:
            return
        found = self.store.api_key(caller.key_hash)
        if found is None or found.player_id != caller.id or (found.until is not None
                                                            and found.until <= iso(self.clock.now())):
            raise ServiceError("unauthorized", _("send a valid API key as 'Authorization: Bearer <api_key>'"))

    def rotate_api_key(self, caller: Caller) -> dict:
        """A new key, shown once. The player's other keys (the one this request came with too) keep
        working until the new key is first used or ``KEY_OVERLAP`` has passed, whichever comes first:
        a rotation whose answer was lost can be made again with the old key."""
        player = profile(self.store, caller)
        now = self.clock.now()
        until = now + KEY_OVERLAP
        api_key = ids.new_api_key()
        self.store.add_api_key(player.id, player.name, ids.hash_api_key(api_key), iso(now), caller.key_hash or "",
                               iso(until), int(until.timestamp()))
        return {"api_key": api_key, "previous_key_expires_at": iso(until)}

    def revoke_api_key(self, caller: Caller) -> None:
        """Every key of the player stops working now, the one this request came with too."""
        self.store.revoke_api_keys(caller.id, caller.key_hash or "")

    def get_player(self, player_id: str) -> dict:
        """A player's public profile: never their email or anything of their keys."""
        player = self.store.get_player(player_id) if ids.ID.fullmatch(player_id) else None
        if player is None:
            raise ServiceError("unknown_player", _("there is no player {player_id!r}").format(player_id=player_id))
        return {"id": player.id, "name": player.name, "created_at": player.created_at, **bot_mark(player),
                "ratings": self.ratings.player_ratings(player)}

    def with_email(self, address: str) -> Player | None:
        """The player who has this address, if any (the first the store lists: an address is
        meant to be one player's), looked up by its hash."""
        found = self.store.get_players(self.store.players_with_email(ids.hash_email(address))[:1])
        return next(iter(found.values()), None)

    def find_players(self, query: FindPlayersQuery) -> dict:
        """Players by name (names are not unique): the whole name, matched as ``text.name_key`` folds it."""
        wanted = name_key(query.name)
        after = cursors.decode(query.cursor, "players", wanted, lambda a: isinstance(a, str) and ids.ID.fullmatch(a))
        found, last = self.store.find_players(wanted, query.limit, after) if wanted else ([], None)
        # the index leaves out ``bot``: one BatchGetItem of the page's profiles marks bot accounts
        profiles = self.store.get_players([p.id for p in found]) if found else {}
        return {"players": [{"id": p.id, "name": p.name, "created_at": p.created_at,
                             **(bot_mark(profiles[p.id]) if p.id in profiles else {})} for p in found],
                "next_cursor": cursors.encode("players", wanted, last) if last else None}

    def get_me(self, caller: Caller) -> dict:
        player = profile(self.store, caller)
        return {**player_json(player), "vacation": self.vacations.vacation_status(player),
                "ratings": self.ratings.player_ratings(player)}

    def get_preferences(self, caller: Caller) -> dict:
        player = profile(self.store, caller)
        return {**preferences_with_defaults(player.preferences), **self._email_status(player.email)}

    def _email_status(self, email: str | None) -> dict:
        """``email_status`` when mail to the address is stopped (a bounce, a complaint: one read of the
        address's status item), else nothing (services/mailevents.py)."""
        status = email_status(self.store.email_stop(ids.hash_email(email))) if email else None
        return {"email_status": status} if status else {}

    def set_preferences(self, player: Caller, preferences) -> dict:
        """The fields the request sets, over the player's present preferences: a field left out
        keeps its value (an older client cannot reset a newer setting)."""
        found = profile(self.store, player)
        changed = preferences.chosen()
        address = changed.pop("email_address", None)
        if address is not None:  # the player's address, set again: mail to it resumes (services/mailevents.py)
            self.store.set_player_email(player.id, found.email, address, iso(self.clock.now()))
        if "bot_policy" in changed:  # a bot account's own: what it accepts (chalicelib/services/botpolicy.py)
            if not found.bot:
                raise not_a_bot()
            changed["bot_policy"] = preferences.bot_policy.model_dump()
        before = preferences_with_defaults(found.preferences)
        chosen = {**before, **changed}
        if preferences.digest is not None:  # its fields left out keep their value too
            chosen["digest"] = {**digest.settings(before), **preferences.digest.chosen()}
        self.store.set_preferences(player.id, chosen, digest.planned(found.digest_at, before, chosen, self.clock.now()))
        return {**chosen, **self._email_status(found.email if address is None else None)}


def profile(store: Store, caller: Caller) -> Player:
    """The caller's whole record (preferences, vacation), for the routes that show or change it:
    authenticating reads only the key's item."""
    player = store.get_player(caller.id)
    if player is None:  # pragma: no cover - a key outlives no player
        raise ServiceError("unauthorized", _("this API key's player no longer exists"))
    return player


def player_json(player: Player) -> dict:
    return {"id": player.id, "name": player.name, "email": player.email, "created_at": player.created_at,
            **bot_mark(player)}


def bot_mark(player: Player) -> dict:
    """``bot: true`` for a bot account; nothing for a person (their profile reads as before)."""
    return {"bot": True} if player.bot else {}


def not_a_bot() -> ServiceError:
    return ServiceError("not_a_bot", _("only a bot account (made with \"bot\": true) has a bot_policy"))
