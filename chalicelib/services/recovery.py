"""Account recovery (``recoverAccount``): a player who lost their API key gets a new one, and
every old key stops working.

By email: the answer is always the same, whether the address is a player's or not (and the
same store calls: one query of the address's partition, one write of the request's item), so
the API never says who plays here. The item carries, in its outbox, one email per player with
that address (at most ``MAX_PLAYERS``); each email's signed link (``Links.recovery_url``) opens a
page whose button does the recovery (a GET only looks: mail scanners open links). A link works
once, for ``LINK_MINUTES`` (the request's ``created_at`` by the service's clock; the signature's
own age as a backstop). Nothing secret is stored: the request's item names players, and the
link's secret is its signature with the server key.

By recovery code: the player set one at sign-up (``createPlayer``'s ``recovery_code``); it is
stored as a slow salted hash (``ids.hash_recovery_code``) and works once: the exchange consumes
it, or replaces it with ``new_recovery_code``.

Rate limits (in memory, as ``ratelimit.py`` says): per client address at the route (429
``rate_limited``, like sign-up), per address asked for here (over it the same 202 answer, and no
email: the limit does not tell either), per player id for codes (429).
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from ..kernel import ids
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..kernel.i18n import _
from ..presenting.links import LinkError, Links, RecoveryLink
from ..http.models import RecoverAccountRequest
from ..notify.messages import RECOVERY
from ..http.ratelimit import RateLimited, RateLimits
from ..store.records import Message, Player, RecoveryRequest
from ..store.protocol import Store

LINK_MINUTES = 30
MAX_PLAYERS = 5  # emails one request sends at most (players sharing an address)
ADDRESS_LIMIT = "recover_address"  # RateLimits kinds (config.rate_limits)
CODE_LIMIT = "recover_code"


class Recovery:
    def __init__(self, store: Store, clock: Clock, *, links: Links | None, limits: RateLimits) -> None:
        self.store = store
        self.clock = clock
        self.links = links
        self.limits = limits

    def recover(self, request: RecoverAccountRequest) -> dict:
        if request.email is not None:
            return self.by_email(request.email)
        return self.by_code(request.player_id or "", request.recovery_code or "", request.new_recovery_code)

    # ------------------------------------------------------------------ by email

    def by_email(self, email: str) -> dict:
        """Always the same answer. A known address's players each get an email with a link."""
        email_hash = ids.hash_email(email)
        try:
            self.limits.take(ADDRESS_LIMIT, email_hash)
            allowed = True
        except RateLimited:
            allowed = False
        found = self.store.players_with_email(email_hash)[:MAX_PLAYERS]
        players = tuple(found) if allowed and self.links is not None else ()
        now = iso(self.clock.now())
        request = RecoveryRequest(secrets.token_hex(16), players, (), now)
        messages = [Message(f"msg_{request.id}_{p}", RECOVERY, p, {"request_id": request.id}, now) for p in players]
        self.store.add_recovery(request, messages)
        return {"status": "accepted",
                "detail": _("If this address is a player's, we have emailed it a link to a page that gives you a new "
                            "API key. The link works once, for {minutes} minutes.").format(minutes=LINK_MINUTES)}

    def link(self, token: str) -> tuple[RecoveryLink, Player]:
        """GET of a recovery link: the player it recovers, while it can be used. Changes nothing."""
        link = self._links().read_recovery(token)
        request = self.store.recovery(link.request_id)
        player = self.store.get_player(link.player_id)
        if request is None or link.player_id not in request.player_ids or player is None:
            raise LinkError("invalid_link", _("this link is not valid"))
        if link.player_id in request.used:
            raise LinkError("link_used", _("this link was used already: it works once. Ask for a new one if you "
                                           "need it."))
        if self.clock.now() - datetime.fromisoformat(request.created_at) > timedelta(minutes=LINK_MINUTES):
            raise LinkError("link_expired", _("this link has expired: it works for {minutes} minutes. Ask for a new "
                                              "one.").format(minutes=LINK_MINUTES))
        return link, player

    def recover_with_link(self, token: str) -> dict:
        """POST of a recovery link: a new API key (to be shown once); every other key is deleted and
        the link is used, all at once."""
        link, player = self.link(token)
        api_key = ids.new_api_key()
        if not self.store.replace_api_keys(player.id, player.name, ids.hash_api_key(api_key),
                                           iso(self.clock.now()), recovery_id=link.request_id):
            raise LinkError("link_used", _("this link was used already: it works once. Ask for a new one if you "
                                           "need it."))
        return {"player_id": player.id, "name": player.name, "api_key": api_key}

    def reader_language(self, token: str) -> str | None:
        """The language of the player a link was made for (its page speaks it), or None."""
        try:
            player = self.store.get_player(self._links().read_recovery(token).player_id)
        except (LinkError, ServiceError):
            return None
        return player.language if player is not None else None

    # ------------------------------------------------------------------ by recovery code

    def by_code(self, player_id: str, code: str, new_code: str | None) -> dict:
        self.limits.take(CODE_LIMIT, player_id)
        player = self.store.get_player(player_id) if ids.ID.fullmatch(player_id) else None
        stored = player.recovery_code if player is not None else None
        if stored is None:
            ids.hash_recovery_code(code)  # as long as a wrong code takes: the answer's time tells nothing
        if player is None or stored is None or not ids.recovery_code_matches(code, stored):
            raise ServiceError("recovery_refused", _("this player id and recovery code do not match"))
        api_key = ids.new_api_key()
        replaced = self.store.replace_api_keys(player.id, player.name, ids.hash_api_key(api_key), iso(self.clock.now()),
                                               recovery_code=stored,
                                               new_recovery_code=ids.hash_recovery_code(new_code) if new_code else None)
        if not replaced:  # another request used the code first
            raise ServiceError("recovery_refused", _("this player id and recovery code do not match"))
        return {"status": "recovered",
                "detail": _("Here is your new API key, shown only this once; your other keys no longer work."),
                "player_id": player.id, "api_key": api_key, "recovery_code_set": bool(new_code)}

    def _links(self) -> Links:
        if self.links is None:
            raise ServiceError("internal_error", _("email links are not configured"))
        return self.links
