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

from ..errors import ServiceError
from ..i18n import _
from ..store.protocol import Store

MAX_UNFINISHED_GAMES = 100  # games a player may have waiting or active at once (tournaments and ladders count)


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
