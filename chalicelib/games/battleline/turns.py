"""Turn flow: which steps a seat may take now, and what taking one does.

A turn is three phases whose order the ``claim_timing`` option sets (play, claim, draw by
default). Each phase is one step. The functions here change the state they are given;
callers that need the old state keep a copy (see ``games.base.apply_steps``).
"""

from __future__ import annotations

from typing import Any

from ..base import Event, IllegalStep, State, Step
from .cards import is_card, is_troop, sort_hand
from .claims import ClaimCheck, check_claim, pool_mask, side_size, visible_cards
from .setup import PHASE_ORDER

DECKS = ("troop", "tactics")


# ---------------------------------------------------------------- reading the state

def seat_key(seat: int) -> str:
    return str(seat)


def hand(state: State, seat: int) -> list[str]:
    return state["hands"][seat_key(seat)]


def seats(state: State) -> list[int]:
    return list(range(1, state["players"] + 1))


def flag_at(state: State, number: Any) -> dict:
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(state["flags"]):
        raise IllegalStep(f"there is no flag {number!r}; flags are numbered 1 to {len(state['flags'])}")
    return state["flags"][number - 1]


def has_free_slot(flag: dict, seat: int) -> bool:
    if flag["claimed_by"] is not None or seat not in flag["seats"]:
        return False
    return len(flag["cards"][flag["seats"].index(seat)]) < side_size(flag)


def open_flags(state: State, seat: int) -> list[dict]:
    return [flag for flag in state["flags"] if has_free_slot(flag, seat)]


def can_play_troop(state: State, seat: int) -> bool:
    return any(is_troop(card) for card in hand(state, seat)) and bool(open_flags(state, seat))


def claim_checks(state: State, seat: int) -> dict[int, ClaimCheck]:
    """Every flag's claim check for ``seat``, with one shared pool of unseen troops."""
    pool = pool_mask(visible_cards(state["flags"], state["discards"]))
    return {flag["flag"]: check_claim(flag, seat, pool) for flag in state["flags"]}


def provable_flags(state: State, seat: int) -> list[int]:
    return [number for number, check in claim_checks(state, seat).items() if check.claimable]


def flags_held(state: State, seat: int) -> list[int]:
    return [flag["flag"] for flag in state["flags"] if flag["claimed_by"] == seat]


# ---------------------------------------------------------------- legal steps

def legal_steps(state: State, seat: int) -> list[Step]:
    if state["result"] is not None or seat not in seats(state):
        return []
    steps: list[Step] = []
    if seat == state["to_move"]:
        phase = state["phase"]
        if phase == "play":
            steps += _play_steps(state, seat)
        elif phase == "claim":
            provable = provable_flags(state, seat)
            steps.append({"type": "claim", "flags": provable})
            if len(provable) > 1:
                steps += [{"type": "claim", "flags": [number]} for number in provable]
            if provable:
                steps.append({"type": "claim", "flags": []})
        elif phase == "draw":
            steps += [{"type": "draw", "deck": deck} for deck in DECKS if state["decks"][deck]]
    steps.append({"type": "resign"})
    return steps


def _play_steps(state: State, seat: int) -> list[Step]:
    flags = open_flags(state, seat)
    troops = [card for card in sort_hand(hand(state, seat)) if is_troop(card)]
    steps = [{"type": "play", "card": card, "flag": flag["flag"]} for card in troops for flag in flags]
    if not steps:
        steps.append({"type": "pass"})
    return steps


# ---------------------------------------------------------------- applying a step

def apply_step(state: State, seat: int, step: Step) -> list[Event]:
    if state["result"] is not None:
        raise IllegalStep("the game is over", code="game_finished")
    if seat not in seats(state):
        raise IllegalStep(f"there is no seat {seat} in this game", code="not_seated")
    kind = step.get("type")
    if kind == "resign":
        return _resign(state, seat)
    if seat != state["to_move"]:
        raise IllegalStep(
            f"it is seat {state['to_move']}'s turn, not seat {seat}'s", code="not_your_turn"
        )
    handler = _PHASE_STEPS.get(state["phase"], {}).get(kind)
    if handler is None:
        expected = " or ".join(sorted(_PHASE_STEPS.get(state["phase"], {})))
        raise IllegalStep(
            f"a {kind!r} step is not allowed now: this is the {state['phase']} step of the turn "
            f"(expected {expected})"
        )
    events = handler(state, seat, step)
    if state["result"] is None:
        events += _advance(state)
    return events


def _play(state: State, seat: int, step: Step) -> list[Event]:
    card = step.get("card")
    if not isinstance(card, str) or not is_card(card):
        raise IllegalStep(f"{card!r} is not a card", code="invalid_card")
    if card not in hand(state, seat):
        raise IllegalStep(f"you do not hold {card}")
    if not is_troop(card):
        raise IllegalStep(f"{card} cannot be played in this game: it has no tactics cards")
    flag = flag_at(state, step.get("flag"))
    if flag["claimed_by"] is not None:
        raise IllegalStep(f"flag {flag['flag']} is claimed; no card may be played there")
    if not has_free_slot(flag, seat):
        raise IllegalStep(f"your side of flag {flag['flag']} is full")
    hand(state, seat).remove(card)
    side = flag["seats"].index(seat)
    flag["cards"][side].append(card)
    note_completion(state, flag, side)
    state["passes_in_a_row"] = 0
    return [_event("play", seat, {"card": card, "flag": flag["flag"]})]


def note_completion(state: State, flag: dict, side: int) -> None:
    """Stamp a side that just reached its size; a side that falls short loses its stamp."""
    if len(flag["cards"][side]) >= side_size(flag):
        if flag["completed"][side] is None:
            state["completions"] += 1
            flag["completed"][side] = state["completions"]
    else:
        flag["completed"][side] = None


def _pass(state: State, seat: int, step: Step) -> list[Event]:
    if can_play_troop(state, seat):
        raise IllegalStep("you must play: you hold a troop card and have a free slot")
    state["passed_this_turn"] = True
    state["passes_in_a_row"] += 1
    return [_event("pass", seat, {})]


def _claim(state: State, seat: int, step: Step) -> list[Event]:
    numbers = step.get("flags")
    if not isinstance(numbers, list):
        raise IllegalStep("a claim names a list of flags (an empty list claims nothing)")
    if len(set(map(repr, numbers))) != len(numbers):
        raise IllegalStep("a claim names each flag once")
    flags = [flag_at(state, number) for number in numbers]
    if flags:
        checks = claim_checks(state, seat)
        for flag in flags:
            check = checks[flag["flag"]]
            if not check.claimable:
                raise IllegalStep(
                    f"flag {flag['flag']} cannot be claimed: {check.reason}",
                    flag=flag["flag"],
                    counterexample=check.counterexample,
                )
    return _claim_flags(state, seat, [flag["flag"] for flag in flags], auto=False)


def _claim_flags(state: State, seat: int, numbers: list[int], *, auto: bool) -> list[Event]:
    for number in numbers:
        state["flags"][number - 1]["claimed_by"] = seat
    if numbers:
        state["passes_in_a_row"] = 0
    data: dict[str, Any] = {"flags": numbers}
    if auto:
        data["auto"] = True
    events = [_event("claim", seat, data)]
    return events + _check_victory(state, seat)


def _draw(state: State, seat: int, step: Step) -> list[Event]:
    deck = step.get("deck")
    if deck not in DECKS:
        raise IllegalStep(f"there is no {deck!r} deck; choose troop or tactics")
    if not state["decks"][deck]:
        raise IllegalStep(f"the {deck} deck is empty")
    card = state["decks"][deck].pop()
    hand(state, seat).append(card)
    return [_event("draw", seat, {"deck": deck}, private={"card": card})]


def _resign(state: State, seat: int) -> list[Event]:
    others = [s for s in seats(state) if s != seat]
    winner = others[0] if len(others) == 1 else None
    return [_event("resign", seat, {})] + _finish(state, winner, "resign")


_PHASE_STEPS = {
    "play": {"play": _play, "pass": _pass},
    "claim": {"claim": _claim},
    "draw": {"draw": _draw},
}


# ---------------------------------------------------------------- turn flow and the end

def _advance(state: State) -> list[Event]:
    """Move on to the next phase that needs a decision, ending turns and the game on the way."""
    events: list[Event] = []
    while state["result"] is None:
        order = PHASE_ORDER[state["claim_timing"]]
        index = order.index(state["phase"])
        if index + 1 < len(order):
            state["phase"] = order[index + 1]
        else:
            events += _end_turn(state)
            if state["result"] is not None:
                break
            state["phase"] = order[0]
        seat = state["to_move"]
        if state["phase"] == "draw" and (
            state["passed_this_turn"] or not any(state["decks"][deck] for deck in DECKS)
        ):
            continue  # a pass keeps the hand as it is; with both decks empty there is no draw
        if state["phase"] == "claim" and state["auto_claim"].get(seat_key(seat)):
            events += _claim_flags(state, seat, provable_flags(state, seat), auto=True)
            continue
        break
    return events


def _end_turn(state: State) -> list[Event]:
    if state["passes_in_a_row"] >= state["players"]:
        held = {seat: len(flags_held(state, seat)) for seat in seats(state)}
        most = max(held.values())
        leaders = [seat for seat, count in held.items() if count == most]
        return _finish(state, leaders[0] if len(leaders) == 1 else None, "stall")
    ring = seats(state)
    state["to_move"] = ring[(ring.index(state["to_move"]) + 1) % len(ring)]
    state["turn"] += 1
    state["passed_this_turn"] = False
    return []


def adjacent_run(held: list[int], flag_count: int, *, ring: bool) -> int:
    """The longest run of adjacent held flags (on a ring, 9 and 1 are adjacent)."""
    owned = set(held)
    best = 0
    for start in range(1, flag_count + 1):
        length = 0
        while length < flag_count and (((start - 1 + length) % flag_count) + 1 if ring else start + length) in owned:
            length += 1
        best = max(best, length)
    return best


def _check_victory(state: State, seat: int) -> list[Event]:
    held = flags_held(state, seat)
    ring = state["players"] == 3
    if adjacent_run(held, len(state["flags"]), ring=ring) >= 3:
        return _finish(state, seat, "adjacent_flags")
    if len(held) >= (4 if ring else 5):
        return _finish(state, seat, "flag_count")
    return []


def _finish(state: State, winner: int | None, reason: str) -> list[Event]:
    state["result"] = {
        "winner": winner,
        "reason": reason,
        "flags": {seat_key(seat): len(flags_held(state, seat)) for seat in seats(state)},
    }
    state["phase"] = "finished"
    state["to_move"] = None
    return [_event("game_finished", None, {"result": state["result"]})]


def _event(kind: str, seat: int | None, data: dict, *, private: dict | None = None) -> Event:
    event: Event = {"type": kind, "seat": seat, "data": data}
    if private is not None and seat is not None:
        event["private"] = {seat_key(seat): private}
    return event
