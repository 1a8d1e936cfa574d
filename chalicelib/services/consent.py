"""The one consent check of a game that seats other players (issue 34): ``createGame`` and
``rematchGame`` both ask it, so that a rematch is refused wherever the same game made anew would be.

Before anything is written: each named player's ``challenges`` preference (``refuse``: 403
``challenges_refused``; ``accept``: their seat is settled at once; ``ask``: they are asked), each
bot account's policy (422 ``bot_refuses``) and blocks either way round (403 ``blocked``, for the
players named and for addresses invited by email). As the game is written (inside the
idempotent write, so that a retry of a game made is answered again): the limit on unfinished games
of the creator and of every other player seated at once (409 ``too_many_games``), and the daily
cap on invitations by email (429 ``too_many_invitations``), counted in the game's own transaction.
Tournaments and ladders pair players without asking (entering is consent) and do not come here."""

from __future__ import annotations

from ..bots import policy as botpolicy
from ..kernel.errors import ServiceError
from ..kernel.i18n import _
from ..store.records import InvitationCount, Player, SeatRecord
from .blocks import Blocks
from .limits import GameLimit, InvitationLimit


class Consent:
    def __init__(self, *, blocks: Blocks | None = None, limit: GameLimit | None = None,
                 invitations: InvitationLimit | None = None) -> None:
        self.blocks = blocks  # who blocked whom (None: nobody)
        self.limit = limit  # the most unfinished games a player may have (None: no limit)
        self.invitations = invitations  # the daily cap on invitations by email (None: no cap)

    @staticmethod
    def player_seat(number: int, player: Player, creator: str) -> SeatRecord:
        """``player``'s seat in a game ``creator`` makes: refused if they take no games made for
        them; settled at once for the creator and for a player who accepts every game."""
        if player.id != creator and player.challenges == "refuse":
            raise ServiceError("challenges_refused", _("seat {number}: {name} takes no games made for them "
                                                       "(open seats and tournaments only)").format(
                                                       number=number, name=player.name))
        return SeatRecord(number, player.id, player.name,
                          accepted=player.id == creator or player.challenges == "accept", bot_account=player.bot)

    @staticmethod
    def refuse_by_policy(seated: dict[int, Player], creator: str, game: str, rated: bool,
                         control: dict | None) -> None:
        """``bot_refuses`` if a bot account seated (by seat number) by someone else does not play
        such a game (``rated`` as the game will be made)."""
        for number, player in seated.items():
            if player.id == creator or not player.bot_policy:
                continue
            reason = botpolicy.refusal(player.bot_policy, game, rated, control)
            if reason:
                raise ServiceError("bot_refuses", _("seat {number}: {reason}").format(number=number, reason=reason))

    def refuse_if_blocked(self, creator: str, seats: list[SeatRecord]) -> None:
        """``blocked`` if the creator and a player seated, or a player with an address invited,
        blocked each other."""
        if self.blocks is None:
            return
        self.blocks.refuse_if_blocked(creator, [s.player_id for s in seats if s.player_id])
        self.blocks.refuse_if_blocked_at(creator, [s.email for s in seats if s.email and not s.player_id])

    def as_made(self, creator: str, seats: list[SeatRecord]) -> InvitationCount | None:
        """Checked as the game is written: the limits on unfinished games (the creator's; and of a
        player seated at once, who accepts every game made for them), then what the game adds to the
        creator's invitations by email today (None: nothing to count)."""
        if self.limit is not None:
            self.limit.refuse_if_full(creator)
            for s in seats:
                if s.player_id and s.player_id != creator and s.accepted:
                    self.limit.refuse_if_full(s.player_id, seat=s.seat, name=s.name)
        invited = sum(1 for s in seats if s.email and not s.player_id)  # addresses, not players
        return self.invitations.count(creator, invited) if self.invitations is not None else None

    def refusal(self) -> ServiceError:
        """The answer when the day's invitations ran out as the game was written."""
        assert self.invitations is not None  # only a counted game can reach its limit
        return self.invitations.refusal()
