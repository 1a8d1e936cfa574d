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

_LIMIT = 10_000  # (a game makes some tens of keys; a few MB at most)
CLAIMABLE, REFUSED, REFUSED_AT = "claimable", "refused", "refused at"
# (my side's cards, the opponent's, Fog, Mud, mine completed first) ->
#   (CLAIMABLE, pool): claimable with this pool and any inside it;
#   (REFUSED, troops): refused while every one of these troops is unseen;
#   (REFUSED_AT, pool): refused with this pool (its counterexample not yet asked for).
_REMEMBERED: dict[tuple, tuple[str, int]] = {}


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
        kind, mask = known
        if kind is CLAIMABLE and not pool & ~mask:  # the pool is inside the one proved claimable
            return True
        if kind is REFUSED_AT:  # refused with the pool ``mask``: the same pool, or its counterexample
            if pool == mask:
                return False
            kind, mask = REFUSED, _counterexample(flag, seat, mask)
            _remember(key, (kind, mask))
        if kind is REFUSED and not mask & ~pool:  # the counterexample's troops are all still unseen
            return False
    if claims.claimable(flag, seat, pool):
        _remember(key, (CLAIMABLE, pool))
        return True
    size = claims.side_size(flag)
    if len(cards[side]) < size:  # an incomplete side is refused without a proof
        return False
    # Refused. Its counterexample is asked for only if the flag is judged again with another pool
    # (many are claimed, or change, first); with both sides complete the pool plays no part.
    _remember(key, (REFUSED, 0) if len(cards[1 - side]) >= size else (REFUSED_AT, pool))
    return False


def _counterexample(flag: dict, seat: int, pool: int) -> int:
    """The troops of the refusal's counterexample with this pool (none: a mask no pool holds)."""
    example = claims.check_claim(flag, seat, pool).counterexample
    if example is None:
        return ~0
    troops = 0
    for card in example["added"]:
        troops |= CARD_BIT[card]
    return troops


def _remember(key: tuple, verdict: tuple[str, int]) -> None:
    if len(_REMEMBERED) >= _LIMIT:
        _REMEMBERED.clear()
    _REMEMBERED[key] = verdict


def clear() -> None:
    """Forget every remembered verdict."""
    _REMEMBERED.clear()
