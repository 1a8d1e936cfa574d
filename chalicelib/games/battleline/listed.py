"""Listed steps: each step ``legal_steps`` can list is built once and shared by every listing.

A listed step is a :class:`ListedStep`, a ``dict`` to every reader (``step["type"]``, ``==`` with
a plain dict, ``json.dumps``, pydantic, ``dict(step)``, ``{**step}``) whose mutators raise
TypeError, so that no caller can change a step that later listings share. Its lists (a claim's
``flags``, a Scout return's ``cards``) are :class:`ListedList`s and its ``target`` a ListedStep,
frozen alike. ``copy.copy``, ``copy.deepcopy`` and pickling give plain, mutable dicts and lists.

A step built here is well formed by construction: its one spelling (``tactics.canonical``), a
known card, flags in range, only its own fields. ``apply_step`` therefore skips those shape checks
for a ListedStep (``is_listed``), and checks only what the position decides (the hand, the slot,
the proof). A step from anywhere else (a client's JSON) is checked in full.
"""

from __future__ import annotations

from typing import Any, NoReturn


def _frozen(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"a listed step is shared by every listing and cannot be changed; copy it first "
                    f"(dict(step), copy.deepcopy(step)): {dict.__repr__(self) if isinstance(self, dict) else list.__repr__(self)}")


def thaw(value: Any) -> Any:
    """A plain, mutable copy of a listed step (or of anything holding one), all the way down."""
    if isinstance(value, dict):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list):
        return [thaw(item) for item in value]
    return value


class ListedStep(dict):
    """A step as listed: a read-only dict (see the module's docstring)."""

    __slots__ = ()
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _frozen  # type: ignore[assignment]

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return thaw(self)

    def __reduce__(self) -> tuple:
        return (dict, (thaw(self),))


class ListedList(list):
    """A list inside a listed step (a claim's flags, a Scout return's cards): read-only."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = clear = \
        sort = reverse = _frozen  # type: ignore[assignment]

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: dict) -> list:
        return thaw(self)

    def __reduce__(self) -> tuple:
        return (list, (thaw(self),))


def is_listed(step: object) -> bool:
    """Was this step built here (and so is well formed)? Not whether it is legal now."""
    return type(step) is ListedStep


_MADE: dict[tuple, ListedStep] = {}
# Every step of the rules is far fewer (about 18,000, most of them guile plays); a state holding
# cards that are not cards (a posted position) cannot grow this without bound.
_MOST = 50_000


def _make(key: tuple, fields: dict) -> ListedStep:
    made = ListedStep(fields)
    if len(_MADE) < _MOST:
        _MADE[key] = made
    return made


def play(card: str, flag: int) -> ListedStep:
    """A card played into a slot or at a flag."""
    key = ("play", card, flag)
    return _MADE.get(key) or _make(key, {"type": "play", "card": card, "flag": flag})


def play_card(card: str) -> ListedStep:
    """A card played with nothing more (SCOUT)."""
    key = ("play", card)
    return _MADE.get(key) or _make(key, {"type": "play", "card": card})


def target(flag: int, card: str) -> ListedStep:
    key = ("target", flag, card)
    return _MADE.get(key) or _make(key, {"flag": flag, "card": card})


def plays_on(card: str, flag: int, on: str) -> list:
    """A guile tactic's plays on a card at a flag, by destination: [0] names none (DESERTER's, or
    REDEPLOY's discard, spelt ``"discard": true``), [n] moves the card to flag n. Each is made on
    first use (``play_on``)."""
    key = ("on", card, flag, on)
    found = _MADE.get(key)
    if found is None:
        found = [None] * 10
        if len(_MADE) < _MOST:
            _MADE[key] = found  # type: ignore[assignment]
    return found  # type: ignore[return-value]


def play_on(card: str, flag: int, on: str, to_flag: int | None = None) -> ListedStep:
    """A guile tactic played on a card at a flag: moved to ``to_flag``, or (REDEPLOY without
    ``to_flag``) discarded, spelt ``"discard": true``; DESERTER names no destination."""
    row = plays_on(card, flag, on)
    found = row[to_flag or 0]
    if found is None:
        fields: dict[str, Any] = {"type": "play", "card": card, "target": target(flag, on)}
        if to_flag is not None:
            fields["to_flag"] = to_flag
        elif card == "REDEPLOY":
            fields["discard"] = True
        found = row[to_flag or 0] = ListedStep(fields)
    return found


def claim(flags: tuple[int, ...]) -> ListedStep:
    key = ("claim", flags)
    return _MADE.get(key) or _make(key, {"type": "claim", "flags": ListedList(flags)})


def with_deck(kind: str, deck: str) -> ListedStep:
    """A draw or one of SCOUT's draws."""
    key = (kind, deck)
    return _MADE.get(key) or _make(key, {"type": kind, "deck": deck})


def scout_return(cards: tuple[str, ...]) -> ListedStep:
    key = ("scout_return", cards)
    return _MADE.get(key) or _make(key, {"type": "scout_return", "cards": ListedList(cards)})


def mud_discard(flag: int, card: str) -> ListedStep:
    key = ("mud_discard", flag, card)
    return _MADE.get(key) or _make(key, {"type": "mud_discard", "flag": flag, "card": card})


PASS = ListedStep({"type": "pass"})
RESIGN = ListedStep({"type": "resign"})
