"""The limit on a player's unfinished games (issue 23): creating a game, joining one, accepting
one or asking for a rematch is refused (409 ``too_many_games``) while the player already has
``MAX_UNFINISHED_GAMES`` games not finished. Tournament and ladder games count, but are never
refused: their pairings are made by the event, not asked for by the player.

A game someone else made and the player has not accepted yet does not count for them until they
accept it (else anyone could fill another player's quota with challenges); their own games waiting
for an opponent do.

The count is not kept anywhere: it is the player's memberships that are not finished, counted by
one query of the player's own partition (``Store.count_unfinished_games``, ``Select=COUNT``), so
it cannot drift from the games themselves and no request writes a counter (the write budget).
Two requests at once may both pass at ``MAX - 1`` (the limit is checked, not reserved): a player
can go over by the requests they send at the same moment, never further."""

from __future__ import annotations

import math
from datetime import datetime, time, timedelta, timezone

from ..kernel.clock import Clock
from ..kernel.errors import Retryable, ServiceError
from ..kernel.i18n import _
from ..store.records import InvitationCount
from ..store.protocol import Store

MAX_UNFINISHED_GAMES = 100  # games a player may have waiting or active at once (tournaments and ladders count)
INVITATIONS_PER_DAY = 20  # invitations by email a player may send in a UTC day (env INVITATIONS_PER_DAY)


class GameLimit:
    def __init__(self, store: Store, most: int = MAX_UNFINISHED_GAMES) -> None:
        self.store = store
        self.most = most

    def refuse_if_full(self, player_id: str, *, seat: int | None = None, name: str | None = None) -> None:
        """``too_many_games`` if the player has ``most`` unfinished games already. With ``seat``/``name``:
        the player is someone else the caller seats (who accepts every game made for them)."""
        if self.store.count_unfinished_games(player_id) < self.most:
            return
        if seat is None:
            raise ServiceError("too_many_games", _("you have {most} unfinished games, the most a player may have: "
                                                   "finish or decline some first").format(most=self.most),
                               limit=self.most)
        raise ServiceError("too_many_games", _("seat {number}: {name} has {most} unfinished games, the most a player "
                                               "may have").format(number=seat, name=name, most=self.most),
                           limit=self.most)


class InvitationLimit:
    """The cap on invitations by email (issue 24): a player may invite at most ``most`` addresses
    that are not players yet in a UTC day. Anyone may sign up and invite any address, and each
    invitation is an email the server sends to someone who never asked for it: a flood of them
    would harm the sending domain's reputation with SES. Seats of existing players, bots and open
    seats do not count (nothing is mailed to an address that did not sign up); tournaments and
    ladders pair players, never addresses.

    The count is stored, so it holds across Lambda instances: one item per player and UTC day in
    the player's own partition (``INVITATIONS#<day>``, TTL), raised in the very transaction that
    creates the game, on condition that it stays within the cap (``Store.create_game``). A refused
    or failed creation counts nothing; a game made is always counted. Over the cap: 429
    ``too_many_invitations`` with ``limit`` and ``Retry-After`` (seconds to the next UTC midnight)."""

    def __init__(self, clock: Clock, most: int = INVITATIONS_PER_DAY) -> None:
        self.clock = clock
        self.most = most

    def count(self, player_id: str, invitations: int) -> InvitationCount | None:
        """What a new game with ``invitations`` invited addresses adds to its creator's count (None:
        nothing to count); ``too_many_invitations`` at once if one game invites more than a day allows."""
        if invitations == 0:
            return None
        now = self.clock.now().astimezone(timezone.utc)
        if invitations > self.most:
            raise self.refusal(now)
        # kept a day past its own day, then TTL deletes it (a stale counter is never read: the key has the day)
        return InvitationCount(player_id, now.date().isoformat(), invitations, self.most,
                               int(next_utc_midnight(now).timestamp()) + 24 * 3600)

    def refusal(self, now: datetime | None = None) -> ServiceError:
        """``too_many_invitations``, to be tried again at the next UTC midnight."""
        now = (now or self.clock.now()).astimezone(timezone.utc)
        wait = max(1, math.ceil((next_utc_midnight(now) - now).total_seconds()))
        return Retryable("too_many_invitations", _("you may invite at most {most} email addresses a day (UTC); "
                                                   "try again after midnight UTC, or invite players by their id")
                         .format(most=self.most), wait, limit=self.most)


def next_utc_midnight(now: datetime) -> datetime:
    """When the UTC day of ``now`` ends: the day's invitation count is over, a new one starts."""
    return datetime.combine(now.astimezone(timezone.utc).date() + timedelta(days=1), time(), timezone.utc)
