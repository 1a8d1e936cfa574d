"""Playing a card: troops, and the ten tactics cards, each card in one place.

Each tactics card is one section below and one entry of ``TACTICS``: a :class:`Tactic` with
the card's rule (``check_<card>``: raises IllegalStep; its docstring is the rule), the plays
the rule allows (``<card>_candidates``, built directly: this runs at every decision) and its
effect (``apply_<card>``). Adding a card is a section here and its line in ``TACTICS`` (plus
its name in ``cards``; a card that changes formations also in ``claims.WILD_VALUES``).

:func:`check_play` says whether a play step is allowed; :func:`card_candidates` lists the
plays it allows (tests check one against the other), so what ``legal_steps`` lists and what
``apply_step`` accepts cannot drift apart. Both read a play in its one spelling
(:func:`canonical`): a field given as null is left out, and REDEPLOY's discard is
``"discard": true``, however the client wrote it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ...kernel.i18n import N_, Nn_
from ..base import Event, IllegalStep, Words, State, Step, event, seat_key
from . import listed
from .cards import ENVIRONMENT_TACTICS, HAND_ORDER, TROOPS, is_troop
from .claims import SIDE_SIZE, side_size
from .setup import FLAG_COUNT
from .table import (
    discard,
    faces,
    flag_at,
    hand,
    has_free_slot,
    is_open,
    opponents,
    owns_on_flag,
    place,
    set_environment,
    side_cards,
    take,
)

_OPTIONAL = ("flag", "target", "to_flag", "discard")
TROOP_CARDS = frozenset(TROOPS)
_ALWAYS = frozenset({"type", "card"})
_FLAG_NUMBERS = range(1, FLAG_COUNT + 1)


# Each card's play into each flag (by flag number; [0] is no step), as listed steps (``listed``:
# built once, shared by every listing, never changed).
_SLOT_PLAYS: dict[str, tuple[Step, ...]] = {}


class Openings(NamedTuple):
    """What every card's candidates read, found once per decision: the flags with a free slot
    on the seat's side, and the unclaimed flags."""

    slots: list[int]
    unclaimed: list[dict]


@dataclass(frozen=True)
class Tactic:
    """One tactics card: its rule, the plays the rule allows, its effect (the card has already
    left the hand and been counted)."""

    check: Callable[[State, int, Step], None]
    candidates: Callable[[State, int, str, Openings], list[Step]]
    apply: Callable[[State, int, Step], None]
    lacking: str  # what the table lacks when ``candidates`` finds nothing (a sentence marked N_): :func:`held_back`


def canonical(step: Step) -> Step:
    """The play as the rules read it, legal_steps lists it and its event records it: optional
    fields given as null left out (null and absent are one step), and a REDEPLOY with a target
    but no ``to_flag`` spelled ``"discard": true``. A play already in its one spelling (most
    are) is returned as it is, not copied: the rules only read it."""
    if None not in step.values() and step.get("card") != "REDEPLOY":
        return step
    step = {k: v for k, v in step.items() if not (k in _OPTIONAL and v is None)}
    if step.get("card") == "REDEPLOY" and "target" in step and "to_flag" not in step:
        step.setdefault("discard", True)
    return step


# ---------------------------------------------------------------- what every play reads

def _flag_or_none(state: State, number: object) -> dict | None:
    try:
        return flag_at(state, number)
    except IllegalStep:
        return None


def _opponent(state: State, seat: int) -> int:
    return opponents(state, seat)[0]


def _check_fields(step: Step, allowed: set[str], what: str) -> None:
    extra = step.keys() - allowed - _ALWAYS
    if not extra:
        return
    extra = sorted(extra)
    if extra:
        raise IllegalStep(N_('{card} is played without {fields}'), card=what, fields=Words(', '.join(extra)))


def _target(state: State, step: Step) -> tuple[dict | None, str | None]:
    target = step.get("target")
    if not isinstance(target, dict):
        return None, None
    return _flag_or_none(state, target.get("flag")), target.get("card")


def check_tactics_allowed(state: State, seat: int) -> None:
    """You may play a tactics card only if you have played no more tactics cards than your
    opponent (so at most one ahead); never in a game played without them."""
    if not state["tactics"]:
        raise IllegalStep(N_("this game is played without tactics cards"))
    mine, theirs = _tactics_counts(state, seat)
    if mine > theirs:
        raise IllegalStep(Nn_('you have played {mine} tactics card and your opponent {theirs}: you may not be more than one ahead',
                              'you have played {mine} tactics cards and your opponent {theirs}: you may not be more than one ahead'),
                          n=mine, mine=mine, theirs=theirs)


# ---------------------------------------------------------------- troops: into a slot

def check_slot(state: State, seat: int, step: Step) -> None:
    """A troop (or a morale tactic) is played into a free slot on your side of an unclaimed
    flag: at most 3 cards a side, 4 under Mud (``claims.side_size``)."""
    card = step["card"]
    _check_fields(step, {"flag"}, card)
    flag = _flag_or_none(state, step.get("flag"))
    if flag is None:
        raise IllegalStep(N_('{card} is played into a slot: name a flag from 1 to 9'), card=card)
    if not is_open(flag):
        raise IllegalStep(N_('flag {flag} is claimed; no card may be played there'), flag=flag['flag'])
    if not faces(flag, seat):
        raise IllegalStep(N_('you do not face flag {flag}'), flag=flag['flag'])
    if not has_free_slot(flag, seat):
        raise IllegalStep(N_('your side of flag {flag} is full'), flag=flag['flag'])


def slot_candidates(state: State, seat: int, card: str, openings: Openings) -> list[Step]:
    return list(map(_SLOT_PLAYS[card].__getitem__, openings.slots))


def apply_slot(state: State, seat: int, step: Step) -> None:
    place(state, flag_at(state, step["flag"]), seat, step["card"])


# ---------------------------------------------------------------- ALEXANDER, DARIUS (Leaders)

def check_leader(state: State, seat: int, step: Step) -> None:
    """ALEXANDER, DARIUS (Leader), a morale tactic: any colour and any value, played into a slot
    like a troop. Each player may play only one Leader per game; a second Leader stays in
    hand, unplayable, to the end."""
    check_first_leader(state, seat)
    check_slot(state, seat, step)


def check_first_leader(state: State, seat: int) -> None:
    if state["leaders_played"][seat_key(seat)]:
        raise IllegalStep(N_("you have played a Leader already: a second one stays in your hand to the end"))


def leader_candidates(state: State, seat: int, card: str, openings: Openings) -> list[Step]:
    if state["leaders_played"][str(seat)]:  # (seat_key)
        return []
    return slot_candidates(state, seat, card, openings)


def apply_leader(state: State, seat: int, step: Step) -> None:
    state["leaders_played"][seat_key(seat)] += 1
    apply_slot(state, seat, step)


# ---------------------------------------------------------------- COMPANION (Companion Cavalry)

def check_companion(state: State, seat: int, step: Step) -> None:
    """COMPANION, a morale tactic: any colour, value 8 (``claims.WILD_VALUES``), played into a
    slot like a troop; its colour is fixed only when the flag is resolved, to the owner's best."""
    check_slot(state, seat, step)


# ---------------------------------------------------------------- SHIELD (Shield Bearers)

def check_shield(state: State, seat: int, step: Step) -> None:
    """SHIELD, a morale tactic: any colour, value 1, 2 or 3 (``claims.WILD_VALUES``), played
    into a slot like a troop; its colour and value are fixed only when the flag is resolved,
    to the owner's best."""
    check_slot(state, seat, step)


# ---------------------------------------------------------------- FOG and MUD (environment)

def check_environment(state: State, seat: int, step: Step) -> None:
    """An environment tactic is placed at an unclaimed flag (no slot used) and stays there;
    Fog and Mud may both lie at one flag."""
    card = step["card"]
    _check_fields(step, {"flag"}, card)
    flag = _flag_or_none(state, step.get("flag"))
    if flag is None:
        raise IllegalStep(N_('{card} is placed at a flag: name a flag from 1 to 9'), card=card)
    if not is_open(flag):
        raise IllegalStep(N_('flag {flag} is claimed; no tactics card affects it'), flag=flag['flag'])


def environment_candidates(state: State, seat: int, card: str, openings: Openings) -> list[Step]:
    return [listed.play(card, f["flag"]) for f in openings.unclaimed if faces(f, seat)]


def apply_environment(state: State, seat: int, step: Step) -> None:
    set_environment(state, flag_at(state, step["flag"]), seat, step["card"])


def check_fog(state: State, seat: int, step: Step) -> None:
    """FOG, at an unclaimed flag: formations do not count there; only the sum decides (a side
    still needs all its cards before it can claim; ``claims``)."""
    check_environment(state, seat, step)


def check_mud(state: State, seat: int, step: Step) -> None:
    """MUD, at an unclaimed flag: each side needs 4 cards there (``claims.side_size``), and
    formations are judged on 4 cards. When Mud leaves a flag, a side left with 4 cards is cut
    to 3 by its owner (``table.queue_mud_discards``, the ``mud_discard`` step)."""
    check_environment(state, seat, step)


# ---------------------------------------------------------------- SCOUT

def check_scout(state: State, seat: int, step: Step) -> None:
    """SCOUT: draw 3 cards, one at a time, each from either deck; then put 2 cards from your
    hand back on top of their own decks (the second named on top). Scout's draws replace the
    turn's draw. It needs at least one card left in the decks; the draws stop early when both
    decks are empty, and then you return one card fewer than you drew (``turns``: the
    ``scout_draw`` and ``scout_return`` steps)."""
    _check_fields(step, set(), "SCOUT")
    if not state["decks"]["troop"] and not state["decks"]["tactics"]:
        raise IllegalStep(N_("SCOUT needs at least one card left in the decks"))


def scout_candidates(state: State, seat: int, card: str, openings: Openings) -> list[Step]:
    if state["decks"]["troop"] or state["decks"]["tactics"]:
        return [listed.play_card(card)]
    return []


def apply_scout(state: State, seat: int, step: Step) -> None:
    discard(state, seat, "SCOUT")
    state["scout"] = {"drawn": 0, "to_return": 0}
    state["phase"] = "scout_draw"


# ---------------------------------------------------------------- REDEPLOY

def check_redeploy(state: State, seat: int, step: Step) -> None:
    """REDEPLOY: take one of your own troop or tactics cards from an unclaimed flag and put it
    on your side of another unclaimed flag (a free slot, or as its environment card:
    ``to_flag``), or discard it face up (``"discard": true``)."""
    _check_fields(step, {"target", "to_flag", "discard"}, "REDEPLOY")
    if "discard" in step and step["discard"] is not True:
        raise IllegalStep(N_("discard is true or left out: to move the card, give to_flag"))
    if "discard" in step and "to_flag" in step:
        raise IllegalStep(N_("REDEPLOY moves the card (to_flag) or discards it (discard: true), not both"))
    flag, card = _target(state, step)
    if flag is None or card is None:
        raise IllegalStep(N_("REDEPLOY needs a target: one of your cards on an unclaimed flag"))
    if not is_open(flag):
        raise IllegalStep(N_('flag {flag} is claimed; no tactics card affects it'), flag=flag['flag'])
    if not owns_on_flag(flag, seat, card):
        raise IllegalStep(N_('{card} is not one of your cards at flag {flag}'), card=card, flag=flag['flag'])
    if "to_flag" not in step:
        return  # discarded
    destination = _flag_or_none(state, step["to_flag"])
    if destination is None:
        raise IllegalStep(N_('there is no flag {to_flag}'), to_flag=repr(step['to_flag']))
    if destination is flag:
        raise IllegalStep(N_("REDEPLOY moves a card to another flag"))
    if not is_open(destination):
        raise IllegalStep(N_('flag {flag} is claimed; no card may be played there'), flag=destination['flag'])
    if card not in ENVIRONMENT_TACTICS and not has_free_slot(destination, seat):
        raise IllegalStep(N_('your side of flag {flag} is full'), flag=destination['flag'])


def redeploy_candidates(state: State, seat: int, card: str, openings: Openings) -> list[Step]:
    steps: list[Step] = []
    for f in openings.unclaimed:
        number = f["flag"]
        for own in side_cards(f, seat):
            row = listed.plays_on(card, number, own)
            steps.append(row[0] or listed.play_on(card, number, own))  # discarded
            steps += [row[n] or listed.play_on(card, number, own, n) for n in openings.slots if n != number]
        for own in f["environment"]:
            if f["environment_seats"].get(own) == seat:
                steps.append(listed.play_on(card, number, own))
                steps += [listed.play_on(card, number, own, d["flag"]) for d in openings.unclaimed if d is not f]
    return steps


def apply_redeploy(state: State, seat: int, step: Step) -> None:
    discard(state, seat, "REDEPLOY")
    source = flag_at(state, step["target"]["flag"])
    card = step["target"]["card"]
    take(state, source, seat, card, acting=seat)
    if step.get("discard"):
        discard(state, seat, card)
    elif card in ENVIRONMENT_TACTICS:
        set_environment(state, flag_at(state, step["to_flag"]), seat, card)
    else:
        place(state, flag_at(state, step["to_flag"]), seat, card)


# ---------------------------------------------------------------- DESERTER

def check_deserter(state: State, seat: int, step: Step) -> None:
    """DESERTER: discard face up one troop or tactics card from the opponent's side of an
    unclaimed flag (it goes to its owner's discard area)."""
    _check_fields(step, {"target"}, "DESERTER")
    flag, card = _target(state, step)
    if flag is None or card is None:
        raise IllegalStep(N_("DESERTER needs a target: one of your opponent's cards on an unclaimed flag"))
    if not is_open(flag):
        raise IllegalStep(N_('flag {flag} is claimed; no tactics card affects it'), flag=flag['flag'])
    if not owns_on_flag(flag, _opponent(state, seat), card):
        raise IllegalStep(N_("{card} is not one of your opponent's cards at flag {flag}"), card=card, flag=flag['flag'])


def deserter_candidates(state: State, seat: int, card: str, openings: Openings) -> list[Step]:
    opponent = _opponent(state, seat)
    steps: list[Step] = []
    for f in openings.unclaimed:
        theirs = side_cards(f, opponent) + [e for e in f["environment"] if f["environment_seats"].get(e) == opponent]
        steps += [listed.plays_on(card, f["flag"], c)[0] or listed.play_on(card, f["flag"], c) for c in theirs]
    return steps


def apply_deserter(state: State, seat: int, step: Step) -> None:
    discard(state, seat, "DESERTER")
    opponent = _opponent(state, seat)
    card = step["target"]["card"]
    take(state, flag_at(state, step["target"]["flag"]), opponent, card, acting=seat)
    discard(state, opponent, card)


# ---------------------------------------------------------------- TRAITOR

def check_traitor(state: State, seat: int, step: Step) -> None:
    """TRAITOR: take one troop card (not a tactics card) from the opponent's side of an
    unclaimed flag and put it into a free slot on your side of an unclaimed flag (``to_flag``)."""
    _check_fields(step, {"target", "to_flag"}, "TRAITOR")
    flag, card = _target(state, step)
    if flag is None or card is None:
        raise IllegalStep(N_("TRAITOR needs a target: a troop on your opponent's side of an unclaimed flag"))
    if not is_open(flag):
        raise IllegalStep(N_('flag {flag} is claimed; no tactics card affects it'), flag=flag['flag'])
    if not is_troop(card):
        raise IllegalStep(N_("TRAITOR takes troop cards only, not tactics cards"))
    if not owns_on_flag(flag, _opponent(state, seat), card):
        raise IllegalStep(N_("{card} is not on your opponent's side of flag {flag}"), card=card, flag=flag['flag'])
    destination = _flag_or_none(state, step.get("to_flag"))
    if destination is None:
        raise IllegalStep(N_("TRAITOR needs to_flag: an unclaimed flag with a free slot on your side"))
    if not has_free_slot(destination, seat):
        raise IllegalStep(N_('you have no free slot at flag {flag}'), flag=destination['flag'])


def traitor_candidates(state: State, seat: int, card: str, openings: Openings) -> list[Step]:
    opponent = _opponent(state, seat)
    steps: list[Step] = []
    for f in openings.unclaimed:
        number = f["flag"]
        for c in side_cards(f, opponent):
            if c in TROOP_CARDS:
                row = listed.plays_on(card, number, c)
                steps += [row[n] or listed.play_on(card, number, c, n) for n in openings.slots]
    return steps


def apply_traitor(state: State, seat: int, step: Step) -> None:
    discard(state, seat, "TRAITOR")
    card = step["target"]["card"]
    take(state, flag_at(state, step["target"]["flag"]), _opponent(state, seat), card, acting=seat)
    place(state, flag_at(state, step["to_flag"]), seat, card)


# ---------------------------------------------------------------- the cards

NO_SLOT = N_("none of your sides at an unclaimed flag has a free slot")
LEADER = Tactic(check_leader, leader_candidates, apply_leader, NO_SLOT)

TACTICS: dict[str, Tactic] = {
    "ALEXANDER": LEADER,
    "DARIUS": LEADER,
    "COMPANION": Tactic(check_companion, slot_candidates, apply_slot, NO_SLOT),
    "SHIELD": Tactic(check_shield, slot_candidates, apply_slot, NO_SLOT),
    "FOG": Tactic(check_fog, environment_candidates, apply_environment, N_("every flag is claimed")),
    "MUD": Tactic(check_mud, environment_candidates, apply_environment, N_("every flag is claimed")),
    "SCOUT": Tactic(check_scout, scout_candidates, apply_scout, N_("both decks are empty")),
    "REDEPLOY": Tactic(check_redeploy, redeploy_candidates, apply_redeploy,
                       N_("you have no card at an unclaimed flag to move")),
    "DESERTER": Tactic(check_deserter, deserter_candidates, apply_deserter,
                       N_("your opponent has no card at an unclaimed flag")),
    "TRAITOR": Tactic(check_traitor, traitor_candidates, apply_traitor,
                      N_("your opponent has no troop at an unclaimed flag, or none of your sides has a free slot")),
}
_SLOT_PLAYS.update((card, (None, *(listed.play(card, n) for n in _FLAG_NUMBERS))) for card in (*TROOPS, *TACTICS))


# ---------------------------------------------------------------- a play, whatever the card

def check_play(state: State, seat: int, step: Step) -> None:
    """You play a card you hold: a troop into a slot, a tactics card by its own rule (and only
    while you are not ahead in tactics cards played)."""
    step = canonical(step)
    card = step.get("card")
    if card not in hand(state, seat):
        raise IllegalStep(N_('you do not hold {card}'), card=card)
    if is_troop(card):
        check_slot(state, seat, step)
        return
    check_tactics_allowed(state, seat)
    TACTICS[card].check(state, seat, step)


def card_candidates(state: State, seat: int) -> list[Step]:
    """Every play step :func:`check_play` allows, troops first, each card's built by its own
    ``candidates`` (tests check this against check_play over every candidate step)."""
    cards = sorted(set(state["hands"][str(seat)]), key=HAND_ORDER.__getitem__)  # each card once, as a hand is shown
    # is_open and has_free_slot, spelt out (this runs at every play decision); side_size is asked
    # only at a flag with an environment card, the only thing that changes a side's size
    flags = state["flags"]
    if state["players"] == 2:  # every flag is between seats 1 and 2 (setup.deal): the seat's side is seat - 1
        side = seat - 1
        slots = [f["flag"] for f in flags if f["claimed_by"] is None and len(f["cards"][side]) < (
            side_size(f) if f["environment"] else SIDE_SIZE)]
    else:
        slots = [f["flag"] for f in flags if f["claimed_by"] is None and seat in (seats_here := f["seats"]) and len(
            f["cards"][seats_here.index(seat)]) < (side_size(f) if f["environment"] else SIDE_SIZE)]
    steps: list[Step] = []
    for card in cards:
        if card in TROOP_CARDS:
            steps += map(_SLOT_PLAYS[card].__getitem__, slots)  # slot_candidates, in C
            continue
        if not _tactics_allowed(state, seat):
            break  # (tactics cards sort after the troops)
        openings = Openings(slots, [f for f in flags if f["claimed_by"] is None])
        for tactic in cards[cards.index(card):]:
            steps += TACTICS[tactic].candidates(state, seat, tactic, openings)
        break
    return steps


def held_back(state: State, seat: int, card: str) -> Words:
    """Why a card the seat holds has no play at its play decision (none of its plays is listed): the
    rule that keeps it in hand, as that rule's refusal says it (a second Leader, held for good; more
    tactics cards played than the opponent), else what its plays need that the table lacks now (``Tactic.lacking``;
    a troop: a free slot). Reads only what every seat sees (the table, the decks' sizes, the tactics
    and Leaders played), so a seat's view of the state will do."""
    try:
        if not is_troop(card):
            if TACTICS[card] is LEADER:  # first: a second Leader is held for good, whatever the count
                check_first_leader(state, seat)
            check_tactics_allowed(state, seat)
    except IllegalStep as refused:
        return refused.reason
    return Words(NO_SLOT if is_troop(card) else TACTICS[card].lacking)


def _tactics_counts(state: State, seat: int) -> tuple[int, int]:
    """Tactics cards played by the seat, and by the opponent who played fewest."""
    played = state["tactics_played"]
    if state["players"] == 2:  # (seat_key, opponents: spelt out, this runs at every play decision)
        return played[str(seat)], played[str(3 - seat)]
    return played[seat_key(seat)], min(played[seat_key(o)] for o in opponents(state, seat))


def _tactics_allowed(state: State, seat: int) -> bool:
    """:func:`check_tactics_allowed` without its refusal (a play decision asks, it is not refused)."""
    if not state["tactics"]:
        return False
    mine, theirs = _tactics_counts(state, seat)
    return mine <= theirs


def play_superset(state: State, seat: int) -> list[Step]:
    """A superset of the legal plays (every card held × every flag and target, a REDEPLOY's
    discard in each spelling), for tests: the rules must accept exactly the legal plays, up to
    :func:`canonical`."""
    flags = [f["flag"] for f in state["flags"]]
    on_table = [(f["flag"], c) for f in state["flags"] for side in f["cards"] for c in side]
    on_table += [(f["flag"], e) for f in state["flags"] for e in f["environment"]]
    steps: list[Step] = []
    for card in dict.fromkeys(hand(state, seat)):
        steps += [{"type": "play", "card": card, "flag": n} for n in flags]
        steps.append({"type": "play", "card": card})
        for number, target in on_table:
            steps.append({"type": "play", "card": card, "target": {"flag": number, "card": target}})
            steps += [{"type": "play", "card": card, "target": {"flag": number, "card": target}, "to_flag": n}
                      for n in [None, *flags]]
            steps += [{"type": "play", "card": card, "target": {"flag": number, "card": target}, "discard": True},
                      {"type": "play", "card": card, "target": {"flag": number, "card": target}, "discard": True,
                       "to_flag": None}]
    return steps


def apply_play(state: State, seat: int, step: Step) -> list[Event]:
    """Play a card (the step must have passed :func:`check_play`). Returns the play event."""
    step = canonical(step)
    card = step["card"]
    hand(state, seat).remove(card)
    data = {k: step[k] for k in ("card", *_OPTIONAL) if k in step}
    if "target" in data:
        data["target"] = dict(data["target"])  # (the event's own, not a listed step's)
    if is_troop(card):
        apply_slot(state, seat, step)
    else:
        state["tactics_played"][seat_key(seat)] += 1
        TACTICS[card].apply(state, seat, step)
    return [event("play", seat, data)]


__all__ = ["TACTICS", "Tactic", "apply_play", "canonical", "card_candidates", "check_play",
           "check_tactics_allowed", "held_back", "play_superset"]
