"""A ladder's positions: gapped sort keys, so that a result moves one rung and no other.

Rank is the order of the rungs' positions. A player who joins stands below the last rung
(:func:`below`, ``GAP`` further down); a challenger who wins takes a position between the
loser's predecessor and the loser (:func:`between`), so the loser and everyone between them and
the challenger's old rung move down one place without being written. Positions are decimals
written so that their text sorts as their value (a 20-digit integer part, then ``.`` and the
fraction's digits, never a trailing zero): there is always a decimal between two others, so the
gaps never run out and nothing is ever re-spaced. The integer gaps (``GAP`` between players who
joined one after the other, ``FIRST`` above the first) take about 20 (40 at the top) wins into
one gap before a fraction appears; then a key grows by a digit every three or so wins into the
same gap, far within DynamoDB's 1,024-byte sort keys.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext

from ..kernel.i18n import N_, _

# The standing ladders, one per game, by id (the game type), and their names (in the reader's language).
STANDING_NAMES = {"battleline": N_("Battle Line ladder"), "khan": N_("Khan & General ladder")}


def name(ladder_id: str, stored: str) -> str:
    """A ladder's name as its reader reads it: a standing ladder's in their language, an organiser's as
    they wrote it."""
    return _(STANDING_NAMES[ladder_id]) if ladder_id in STANDING_NAMES else stored


FIRST = 10**12  # the first player's position: room for 40 halvings above them
GAP = 10**6  # between a player who joins and the last one before them
WIDTH = 20  # digits of a position's integer part
PRECISION = 1100  # digits Decimal keeps (a sort key has at most 1,024 bytes)


def key(value: Decimal) -> str:
    """A position as its sort key: text order is numeric order."""
    whole, _dot, fraction = format(value, "f").partition(".")  # exact: no context rounds it
    fraction = fraction.rstrip("0")
    return f"{int(whole):0{WIDTH}d}" + (f".{fraction}" if fraction else "")


def value(position: str) -> Decimal:
    return Decimal(position)


def below(last: str | None) -> str:
    """A new player's position: below the last rung (the first player's at ``FIRST``)."""
    if last is None:
        return key(Decimal(FIRST))
    return key(Decimal(int(value(last)) + GAP))


def between(upper: str | None, lower: str) -> str:
    """A position just above ``lower`` and below ``upper`` (None: ``lower`` is at the top), with the
    fewest digits: the middle of the gap, rounded as far as it stays inside."""
    with localcontext() as context:  # a thread's own context: each has its own precision
        context.prec = PRECISION
        low = value(upper) if upper is not None else Decimal(0)
        high = value(lower)
        if not low < high:
            raise ValueError(f"no position between {upper!r} and {lower!r}")
        middle = (low + high) / 2
        places = 0
        while True:
            candidate = middle.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
            if low < candidate < high:
                return key(candidate)
            places += 1


def reach(challenger_rank: int, target_rank: int, max_places_above: int) -> str | None:
    """Why the challenger (at ``challenger_rank``) may not challenge the player at ``target_rank``:
    ``not_above`` (the target is not above them) or ``too_far_above`` (more than
    ``max_places_above`` places above); None if they may."""
    if target_rank >= challenger_rank:
        return "not_above"
    if challenger_rank - target_rank > max_places_above:
        return "too_far_above"
    return None
