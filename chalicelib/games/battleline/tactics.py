"""Playing a card: troops, and the ten tactics cards with their targets.

:func:`refusal` says why a play step is not allowed (or None when it is); the legal plays
are the candidate steps it does not refuse, so what ``legal_steps`` lists and what
``apply_step`` accepts cannot drift apart. Both read a play in its one spelling
(:func:`canonical`): a field given as null is left out, and REDEPLOY's discard is
``"discard": true``, however the client wrote it.
"""

from __future__ import annotations

from ..base import Event, IllegalStep, State, Step
from .cards import ENVIRONMENT_TACTICS, LEADERS, MORALE_TACTICS, is_tactic, is_troop, sort_hand
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
    seat_key,
    set_environment,
    side_cards,
    take,
)

_OPTIONAL = ("flag", "target", "to_flag", "discard")


def canonical(step: Step) -> Step:
    """The play as the rules read it, legal_steps lists it and its event records it: optional
    fields given as null left out (null and absent are one step), and a REDEPLOY with a target
    but no ``to_flag`` spelled ``"discard": true``."""
    step = {k: v for k, v in step.items() if not (k in _OPTIONAL and v is None)}
    if step.get("card") == "REDEPLOY" and "target" in step and "to_flag" not in step:
        step.setdefault("discard", True)
    return step


def _flag_or_none(state: State, number: object) -> dict | None:
    try:
        return flag_at(state, number)
    except IllegalStep:
        return None


def _opponent(state: State, seat: int) -> int:
    return opponents(state, seat)[0]


def tactics_refusal(state: State, seat: int, card: str) -> str | None:
    """Why ``seat`` may not play tactics card ``card`` at all now, or None."""
    if not state["tactics"]:
        return "this game is played without tactics cards"
    mine = state["tactics_played"][seat_key(seat)]
    theirs = min(state["tactics_played"][seat_key(o)] for o in opponents(state, seat))
    if mine > theirs:
        return (f"you have played {mine} tactics cards and your opponent {theirs}: "
                "you may not be more than one ahead")
    if card in LEADERS and state["leaders_played"][seat_key(seat)]:
        return "you have played a Leader already: a second one stays in your hand to the end"
    return None


def _extra_keys(step: Step, allowed: set[str], what: str) -> str | None:
    extra = sorted(set(step) - allowed - {"type", "card"})
    if extra:
        return f"{what} is played without {', '.join(extra)}"
    return None


def _slot_refusal(state: State, seat: int, step: Step) -> str | None:
    card = step["card"]
    if (why := _extra_keys(step, {"flag"}, card)) is not None:
        return why
    flag = _flag_or_none(state, step.get("flag"))
    if flag is None:
        return f"{card} is played into a slot: name a flag from 1 to 9"
    if not is_open(flag):
        return f"flag {flag['flag']} is claimed; no card may be played there"
    if not faces(flag, seat):
        return f"you do not face flag {flag['flag']}"
    if not has_free_slot(flag, seat):
        return f"your side of flag {flag['flag']} is full"
    return None


def _environment_refusal(state: State, seat: int, step: Step) -> str | None:
    card = step["card"]
    if (why := _extra_keys(step, {"flag"}, card)) is not None:
        return why
    flag = _flag_or_none(state, step.get("flag"))
    if flag is None:
        return f"{card} is placed at a flag: name a flag from 1 to 9"
    if not is_open(flag):
        return f"flag {flag['flag']} is claimed; no tactics card affects it"
    return None


def _target(state: State, step: Step) -> tuple[dict | None, str | None]:
    target = step.get("target")
    if not isinstance(target, dict):
        return None, None
    return _flag_or_none(state, target.get("flag")), target.get("card")


def _scout_refusal(state: State, seat: int, step: Step) -> str | None:
    if (why := _extra_keys(step, set(), "SCOUT")) is not None:
        return why
    if not state["decks"]["troop"] and not state["decks"]["tactics"]:
        return "SCOUT needs at least one card left in the decks"
    return None


def _redeploy_refusal(state: State, seat: int, step: Step) -> str | None:
    if (why := _extra_keys(step, {"target", "to_flag", "discard"}, "REDEPLOY")) is not None:
        return why
    if "discard" in step and step["discard"] is not True:
        return "discard is true or left out: to move the card, give to_flag"
    if "discard" in step and "to_flag" in step:
        return "REDEPLOY moves the card (to_flag) or discards it (discard: true), not both"
    flag, card = _target(state, step)
    if flag is None or card is None:
        return "REDEPLOY needs a target: one of your cards on an unclaimed flag"
    if not is_open(flag):
        return f"flag {flag['flag']} is claimed; no tactics card affects it"
    if not owns_on_flag(flag, seat, card):
        return f"{card} is not one of your cards at flag {flag['flag']}"
    if "to_flag" not in step:
        return None  # discarded
    destination = _flag_or_none(state, step["to_flag"])
    if destination is None:
        return f"there is no flag {step['to_flag']!r}"
    if destination is flag:
        return "REDEPLOY moves a card to another flag"
    if not is_open(destination):
        return f"flag {destination['flag']} is claimed; no card may be played there"
    if card in ENVIRONMENT_TACTICS:
        return None
    if not has_free_slot(destination, seat):
        return f"your side of flag {destination['flag']} is full"
    return None


def _deserter_refusal(state: State, seat: int, step: Step) -> str | None:
    if (why := _extra_keys(step, {"target"}, "DESERTER")) is not None:
        return why
    flag, card = _target(state, step)
    if flag is None or card is None:
        return "DESERTER needs a target: one of your opponent's cards on an unclaimed flag"
    if not is_open(flag):
        return f"flag {flag['flag']} is claimed; no tactics card affects it"
    if not owns_on_flag(flag, _opponent(state, seat), card):
        return f"{card} is not one of your opponent's cards at flag {flag['flag']}"
    return None


def _traitor_refusal(state: State, seat: int, step: Step) -> str | None:
    if (why := _extra_keys(step, {"target", "to_flag"}, "TRAITOR")) is not None:
        return why
    flag, card = _target(state, step)
    if flag is None or card is None:
        return "TRAITOR needs a target: a troop on your opponent's side of an unclaimed flag"
    if not is_open(flag):
        return f"flag {flag['flag']} is claimed; no tactics card affects it"
    if not is_troop(card):
        return "TRAITOR takes troop cards only, not tactics cards"
    if not owns_on_flag(flag, _opponent(state, seat), card):
        return f"{card} is not on your opponent's side of flag {flag['flag']}"
    destination = _flag_or_none(state, step.get("to_flag"))
    if destination is None:
        return "TRAITOR needs to_flag: an unclaimed flag with a free slot on your side"
    if not has_free_slot(destination, seat):
        return f"you have no free slot at flag {destination['flag']}"
    return None


_REFUSALS = {
    "SCOUT": _scout_refusal,
    "REDEPLOY": _redeploy_refusal,
    "DESERTER": _deserter_refusal,
    "TRAITOR": _traitor_refusal,
    **{card: _environment_refusal for card in ENVIRONMENT_TACTICS},
    **{card: _slot_refusal for card in MORALE_TACTICS},
}


def refusal(state: State, seat: int, step: Step) -> str | None:
    """Why this play step is not allowed now, or None when it is."""
    step = canonical(step)
    card = step.get("card")
    if card not in hand(state, seat):
        return f"you do not hold {card}"
    if is_troop(card):
        return _slot_refusal(state, seat, step)
    why = tactics_refusal(state, seat, card)
    return why if why is not None else _REFUSALS[card](state, seat, step)


# ---------------------------------------------------------------- the legal plays

def legal_plays(state: State, seat: int) -> list[Step]:
    """Every play step :func:`refusal` accepts, built directly (this runs at every decision;
    tests check it against refusal over every candidate step)."""
    cards = list(dict.fromkeys(sort_hand(hand(state, seat))))
    open_slots = [f["flag"] for f in state["flags"] if has_free_slot(f, seat)]
    unclaimed = [f for f in state["flags"] if is_open(f)]
    steps: list[Step] = []
    for card in cards:
        if is_troop(card):
            steps += [{"type": "play", "card": card, "flag": n} for n in open_slots]
            continue
        if tactics_refusal(state, seat, card) is not None:
            continue
        if card in MORALE_TACTICS:
            steps += [{"type": "play", "card": card, "flag": n} for n in open_slots]
        elif card in ENVIRONMENT_TACTICS:
            steps += [{"type": "play", "card": card, "flag": f["flag"]} for f in unclaimed if faces(f, seat)]
        elif card == "SCOUT":
            if state["decks"]["troop"] or state["decks"]["tactics"]:
                steps.append({"type": "play", "card": card})
        else:
            steps += _guile_plays(state, seat, card, unclaimed, open_slots)
    return steps


def _guile_plays(state: State, seat: int, card: str, unclaimed: list[dict], open_slots: list[int]) -> list[Step]:
    opponent = _opponent(state, seat)
    steps: list[Step] = []
    for f in unclaimed:
        number = f["flag"]
        if card == "REDEPLOY":
            for own in side_cards(f, seat):
                target = {"flag": number, "card": own}
                steps.append({"type": "play", "card": card, "target": target, "discard": True})
                steps += [{"type": "play", "card": card, "target": target, "to_flag": n} for n in open_slots if n != number]
            for own in f["environment"]:
                if f["environment_seats"].get(own) == seat:
                    target = {"flag": number, "card": own}
                    steps.append({"type": "play", "card": card, "target": target, "discard": True})
                    steps += [{"type": "play", "card": card, "target": target, "to_flag": d["flag"]}
                              for d in unclaimed if d is not f]
        elif card == "DESERTER":
            theirs = side_cards(f, opponent) + [e for e in f["environment"] if f["environment_seats"].get(e) == opponent]
            steps += [{"type": "play", "card": card, "target": {"flag": number, "card": c}} for c in theirs]
        else:  # TRAITOR
            steps += [{"type": "play", "card": card, "target": {"flag": number, "card": c}, "to_flag": n}
                      for c in side_cards(f, opponent) if is_troop(c) for n in open_slots]
    return steps


def candidate_plays(state: State, seat: int) -> list[Step]:
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


# ---------------------------------------------------------------- effects

def play(state: State, seat: int, step: Step) -> list[Event]:
    """Play a card (the step must not be refused). Returns the play event."""
    step = canonical(step)
    why = refusal(state, seat, step)
    if why is not None:
        raise IllegalStep(why)
    card = step["card"]
    hand(state, seat).remove(card)
    data = {k: step[k] for k in ("card", *_OPTIONAL) if k in step}
    if is_tactic(card):
        state["tactics_played"][seat_key(seat)] += 1
    if card in LEADERS:
        state["leaders_played"][seat_key(seat)] += 1
    if is_troop(card) or card in MORALE_TACTICS:
        place(state, flag_at(state, step["flag"]), seat, card)
    elif card in ENVIRONMENT_TACTICS:
        set_environment(state, flag_at(state, step["flag"]), seat, card)
    else:
        discard(state, seat, card)
        _GUILE[card](state, seat, step)
    return [{"type": "play", "seat": seat, "data": data}]


def _scout(state: State, seat: int, step: Step) -> None:
    state["scout"] = {"drawn": 0, "to_return": 0}
    state["phase"] = "scout_draw"


def _redeploy(state: State, seat: int, step: Step) -> None:
    source = flag_at(state, step["target"]["flag"])
    card = step["target"]["card"]
    take(state, source, seat, card, acting=seat)
    if step.get("discard"):
        discard(state, seat, card)
    elif card in ENVIRONMENT_TACTICS:
        set_environment(state, flag_at(state, step["to_flag"]), seat, card)
    else:
        place(state, flag_at(state, step["to_flag"]), seat, card)


def _deserter(state: State, seat: int, step: Step) -> None:
    opponent = _opponent(state, seat)
    card = step["target"]["card"]
    take(state, flag_at(state, step["target"]["flag"]), opponent, card, acting=seat)
    discard(state, opponent, card)


def _traitor(state: State, seat: int, step: Step) -> None:
    card = step["target"]["card"]
    take(state, flag_at(state, step["target"]["flag"]), _opponent(state, seat), card, acting=seat)
    place(state, flag_at(state, step["to_flag"]), seat, card)


_GUILE = {"SCOUT": _scout, "REDEPLOY": _redeploy, "DESERTER": _deserter, "TRAITOR": _traitor}


__all__ = ["canonical", "candidate_plays", "legal_plays", "play", "refusal", "tactics_refusal"]
