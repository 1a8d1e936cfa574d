"""Claim verdicts the engine remembers from one claim step to the next (issue 39).

A flag's verdict (``claims.claimable``) depends only on the flag (both sides' cards, Fog, Mud,
which side completed first) and on the unseen troops (the pool), and it is monotone in the
pool, whatever the game:

* claimable with a pool P, the flag is claimable with any pool inside P (the opponent has
  fewer ways to complete, never more);
* refused because the opponent can complete with the troops C (the refusal's counterexample),
  the flag is refused with any pool that still holds C (that completion still beats the
  claimer).

Within a game the pool only shrinks (a card seen stays seen until the next deal), so a flag
whose side is complete is proved once and then mostly answered from here at every later claim
step. Whatever these two rules do not answer is proved again by ``claims``; the answer is
always the proof's. The memory is bounded (forgotten whole when full) and :func:`clear`
empties it.
"""

from __future__ import annotations

from . import claims
from .claims import CARD_BIT

_LIMIT = 50_000
# (my side's cards, the opponent's, Fog, Mud, mine completed first) ->
#   (True, pool): claimable with this pool and any inside it;
#   (False, troops): refused while every one of these troops is unseen.
_REMEMBERED: dict[tuple, tuple[bool, int]] = {}


def claimable(flag: dict, seat: int, pool: int) -> bool:
    """``claims.claimable(flag, seat, pool)``, answered from an earlier proof when the rules above allow."""
    seats = flag["seats"]
    if flag["claimed_by"] is not None or seat not in seats:
        return claims.claimable(flag, seat, pool)
    side = seats.index(seat)
    cards, environment = flag["cards"], flag["environment"]
    key = (tuple(cards[side]), tuple(cards[1 - side]), "FOG" in environment, "MUD" in environment,
           claims.completed_earlier(flag, side))
    known = _REMEMBERED.get(key)
    if known is not None:
        ok, mask = known
        if ok and not pool & ~mask:  # the pool is inside the one proved claimable
            return True
        if not ok and not mask & ~pool:  # the counterexample's troops are all still unseen
            return False
    if claims.claimable(flag, seat, pool):
        _remember(key, (True, pool))
        return True
    if len(cards[side]) >= claims.side_size(flag):  # (an incomplete side is refused without a proof)
        example = claims.check_claim(flag, seat, pool).counterexample
        if example is not None:
            troops = 0
            for card in example["added"]:
                troops |= CARD_BIT[card]
            _remember(key, (False, troops))
    return False


def _remember(key: tuple, verdict: tuple[bool, int]) -> None:
    if len(_REMEMBERED) >= _LIMIT:
        _REMEMBERED.clear()
    _REMEMBERED[key] = verdict


def clear() -> None:
    """Forget every remembered verdict."""
    _REMEMBERED.clear()
