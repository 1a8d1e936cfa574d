"""Turn flow: set-up, the four phases of a turn, the reaction window, and the end of the game.

Phases (``state["phase"]``) and the steps each allows (besides ``resign`` at any time, and
``offer_draw`` / ``accept_draw`` / ``decline_draw``):

* ``setup``: ``place`` (the first unit of each seat, face up: (0, 0) facing N for the first
  seat, (0, 1) facing S for the second).
* ``maintenance``: ``flip``, ``discard_defence``; any action-phase step begins the action phase.
* ``action``: ``deploy``, then ``command``, then ``pay`` (each optional, in that order, within
  the turn's card limit), then ``end_action``. A command's keywords before ``power``
  (``mobility``, ``turn``) wait to be used or skipped at once: ``move``, ``turn``, ``skip``.
* ``reaction``: the other seat may play defence commands (``command``) onto its face-up units
  without one, then ``end_reaction``. Skipped when it has none it could play.
* ``engagements``: ``engage`` any number of times (after a unit is destroyed: ``advance`` a
  melee attacker into its square, or ``stay``), then ``end_engagements``.
* ``after``: keywords after ``power`` on attack cards (``move``, ``turn``, ``skip``).
* ``recovery``: ``discard_defence``, then ``end_turn``: move and attack commands go to the
  discard pile and the whole pile returns to the hand.

``end_turn`` may also close the engagements and after phases (skipping what is left of them).
"""

from __future__ import annotations

from ..base import Event, IllegalStep, State, Step
from . import actions, combat, keywords
from .actions import event
from .setup import MAX_MARKER, START_SQUARES, limit, new_turn, second
from .table import SEATS, card_id, card_set, command_on, hand_ids, key, other, take_from_hand, unit_by_key, units_of

ACTION_STEPS = ("deploy", "command", "pay", "end_action")
DRAW_STEPS = ("offer_draw", "accept_draw", "decline_draw")


# ---------------------------------------------------------------- legal steps

def legal_steps(state: State, seat: int) -> list[Step]:
    if state["result"] is not None or seat not in SEATS:
        return []
    steps: list[Step] = []
    if seat == state["to_move"]:
        steps = [step for step in _candidates(state, seat) if _allowed(state, seat, step)]
        if state["draw_offer"] is None and state["phase"] != "setup":
            steps.append({"type": "offer_draw"})
    if state["draw_offer"] == other(seat):
        steps += [{"type": "accept_draw"}, {"type": "decline_draw"}]
    steps.append({"type": "resign"})
    return steps


def _allowed(state: State, seat: int, step: Step) -> bool:
    try:
        _check(state, seat, step)
    except IllegalStep:
        return False
    return True


def _candidates(state: State, seat: int) -> list[Step]:
    phase, turn = state["phase"], state["turn"]
    if phase == "setup":
        cards = card_set(state)
        return [{"type": "place", "unit": u} for u in sorted({c for c in hand_ids(state, seat) if cards.is_unit(c)})]
    if [e for e in turn["pending"] if e["seat"] == seat] and phase != "after":
        return keywords.keyword_candidates(state, seat)
    if phase in ("maintenance", "action"):
        steps: list[Step] = []
        if phase == "maintenance":
            steps += [{"type": "flip", "at": _at(u)} for u in units_of(state, seat) if not u["up"]]
            steps += _discard_defence_candidates(state, seat)
        return steps + actions.deploy_candidates(state, seat) + actions.command_candidates(state, seat) + \
            actions.pay_candidates(state, seat) + [{"type": "end_action"}]
    if phase == "reaction":
        return actions.command_candidates(state, seat, reaction=True) + [{"type": "end_reaction"}]
    if phase == "engagements":
        if turn["advance"] is not None:
            return combat.advance_candidates(state, seat)
        return combat.engage_candidates(state, seat) + [{"type": "end_engagements"}, {"type": "end_turn"}]
    if phase == "after":
        return keywords.keyword_candidates(state, seat) + [{"type": "end_turn"}]
    if phase == "recovery":
        return _discard_defence_candidates(state, seat) + [{"type": "end_turn"}]
    return []


def _at(unit: dict) -> dict:
    return {"x": unit["x"], "y": unit["y"]}


def _discard_defence_candidates(state: State, seat: int) -> list[Step]:
    cards = card_set(state)
    return [{"type": "discard_defence", "at": _at(u)} for u in units_of(state, seat)
            if (c := command_on(state, u, cards)) is not None and c.kind == "defend"]


# ---------------------------------------------------------------- checking a step where it comes

def _check(state: State, seat: int, step: Step) -> None:
    """Raise IllegalStep if the step may not be taken now by the seat to move."""
    kind, phase, turn = step["type"], state["phase"], state["turn"]
    waiting = [e for e in turn["pending"] if e["seat"] == seat] if phase != "after" else []
    if waiting and kind not in ("move", "turn", "skip", "offer_draw"):
        raise IllegalStep("first use or skip the keyword waiting on the unit you just commanded "
                          "(move, turn or skip)")
    if kind == "offer_draw":
        if state["draw_offer"] is not None:
            raise IllegalStep("a draw offer is already waiting for an answer")
        if phase == "setup":
            raise IllegalStep("a draw may be offered once both first units are placed")
        return
    if kind == "place":
        _phase(phase, "setup", kind)
        _check_place(state, seat, step)
    elif kind == "flip":
        _phase(phase, "maintenance", kind)
        actions.check_flip(state, seat, step)
    elif kind == "discard_defence":
        _phase(phase, ("maintenance", "recovery"), kind)
        actions.check_discard_defence(state, seat, step)
    elif kind == "deploy":
        _phase(phase, ("maintenance", "action"), kind)
        actions.check_deploy(state, seat, step)
    elif kind == "command":
        _phase(phase, ("maintenance", "action", "reaction"), kind)
        actions.check_command(state, seat, step, reaction=phase == "reaction")
    elif kind == "pay":
        _phase(phase, ("maintenance", "action"), kind)
        actions.check_pay(state, seat, step)
    elif kind == "end_action":
        _phase(phase, ("maintenance", "action"), kind)
    elif kind == "end_reaction":
        _phase(phase, "reaction", kind)
    elif kind in ("move", "turn", "skip"):
        if not waiting and phase != "after":
            raise IllegalStep("no keyword of yours is waiting to be used")
        {"move": keywords.check_move, "turn": keywords.check_turn, "skip": keywords.check_skip}[kind](state, seat, step)
    elif kind == "engage":
        _phase(phase, "engagements", kind)
        _no_advance_waiting(state)
        combat.check_engage(state, seat, step)
    elif kind in ("advance", "stay"):
        if phase != "engagements" or turn["advance"] is None:
            raise IllegalStep("no destroyed unit's square is waiting to be taken")
        if kind == "advance":
            combat.check_advance(state, seat, step)
    elif kind == "end_engagements":
        _phase(phase, "engagements", kind)
        _check_end_engagements(state, seat)
    elif kind == "end_turn":
        _phase(phase, ("engagements", "after", "recovery"), kind)
        if phase == "engagements":
            _check_end_engagements(state, seat)
    else:  # pragma: no cover - the step schema admits no other type
        raise IllegalStep(f"unknown step {kind!r}", code="invalid_step")


PHASE_WORDS = {"setup": "set-up", "maintenance": "the maintenance phase", "action": "the action phase",
               "reaction": "the reaction window", "engagements": "the engagements", "after": "the after-combat "
               "keywords", "recovery": "recovery"}


def _phase(phase: str, allowed: str | tuple[str, ...], kind: str) -> None:
    allowed = (allowed,) if isinstance(allowed, str) else allowed
    if phase not in allowed:
        raise IllegalStep(f"{kind} is not a step of {PHASE_WORDS.get(phase, phase)}")


def _no_advance_waiting(state: State) -> None:
    if state["turn"]["advance"] is not None:
        raise IllegalStep("first advance a melee attacker into the destroyed unit's square, or stay")


def _check_end_engagements(state: State, seat: int) -> None:
    _no_advance_waiting(state)
    turn = state["turn"]
    for uid in turn["committed"]:
        unit = unit_by_key(state, uid)
        if unit is not None and uid not in turn["engaged"] and combat.can_still_engage(state, seat, unit):
            raise IllegalStep(f"the unit at ({unit['x']}, {unit['y']}) used its attack card's mobility, so it must "
                              f"attack while it can")


def _check_place(state: State, seat: int, step: Step) -> None:
    cards = card_set(state)
    if step["unit"] not in cards.units:
        raise IllegalStep(f"{step['unit']!r} is not a unit card of card set {cards.id}", code="invalid_card")
    if step["unit"] not in hand_ids(state, seat):
        raise IllegalStep(f"you hold no {step['unit']}")


# ---------------------------------------------------------------- applying a step

def apply_step(state: State, seat: int, step: Step) -> list[Event]:
    if state["result"] is not None:
        raise IllegalStep("the game is over")
    kind = step["type"]
    if kind == "resign":
        return forfeit(state, seat, "resign")
    if kind in ("accept_draw", "decline_draw"):
        if state["draw_offer"] != other(seat):
            raise IllegalStep("no draw offer of your opponent is waiting")
        state["draw_offer"] = None
        if kind == "decline_draw":
            return [event("draw_declined", seat, {})]
        return [event("draw_accepted", seat, {})] + finish(state, None, "draw_agreed")
    if seat != state["to_move"]:
        raise IllegalStep("it is not your decision now", code="not_your_turn")
    _check(state, seat, step)
    events: list[Event] = []
    if state["draw_offer"] == other(seat):  # playing on declines the offer
        state["draw_offer"] = None
        events.append(event("draw_declined", seat, {}))
    if kind == "offer_draw":
        state["draw_offer"] = seat
        return events + [event("draw_offered", seat, {})]
    phase = state["phase"]
    if phase == "maintenance" and kind in ACTION_STEPS:
        state["phase"] = "action"
    events += _APPLY[kind](state, seat, step)
    if state["result"] is None:
        events += _settle(state)
    return events


def _apply_place(state: State, seat: int, step: Step) -> list[Event]:
    number = take_from_hand(state, seat, step["unit"])
    (x, y), facing = START_SQUARES["first" if seat == state["first"] else "second"]
    state["field"].append({"seat": seat, "card": number, "x": x, "y": y, "facing": facing, "up": True,
                           "wounded": False, "command": None, "grappled_by": []})
    events = [event("place", seat, {"unit": step["unit"], "at": {"x": x, "y": y}, "facing": facing})]
    if seat == state["first"]:
        state["to_move"] = state["active"] = second(state)
        return events
    return events + _start_turn(state, state["first"])


def _apply_end_action(state: State, seat: int, step: Step) -> list[Event]:
    opponent = other(seat)
    ended = [event("action_ended", seat, {})]
    if any(_allowed_reaction(state, opponent, s) for s in actions.command_candidates(state, opponent, reaction=True)):
        state["phase"] = "reaction"
        state["to_move"] = opponent
        return ended + [event("reaction_window", seat, {"seat": opponent})]
    return ended + _enter_engagements(state)


def _allowed_reaction(state: State, seat: int, step: Step) -> bool:
    try:
        actions.check_command(state, seat, step, reaction=True)
    except IllegalStep:
        return False
    return True


def _apply_end_reaction(state: State, seat: int, step: Step) -> list[Event]:
    state["to_move"] = state["active"]
    return [event("reaction_ended", seat, {})] + _enter_engagements(state)


def _enter_engagements(state: State) -> list[Event]:
    state["phase"] = "engagements"
    state["to_move"] = state["active"]
    return []


def _apply_stay(state: State, seat: int, step: Step) -> list[Event]:
    state["turn"]["advance"] = None
    return [event("stay", seat, {})]


def _apply_engage(state: State, seat: int, step: Step) -> list[Event]:
    """One engagement; then the game may be over: all five enemy units destroyed, or the enemy routed."""
    events = combat.apply_engage(state, seat, step)
    return events + check_annihilation(state, seat) + check_routed(state, seat)


def _apply_end_engagements(state: State, seat: int, step: Step) -> list[Event]:
    cards = card_set(state)
    turn = state["turn"]
    for unit in sorted(units_of(state, seat), key=lambda u: (u["x"], u["y"])):
        command = command_on(state, unit, cards)
        if command is None or command.kind != "attack":
            continue
        _, after = command.split()
        uid = f"{unit['seat']}:{unit['card']}"
        moves = [[k.name, k.value] for k in after
                 if k.name == "turn" or (k.name == "mobility" and uid in turn["engaged"])]
        if moves:
            turn["pending"].append({"unit": uid, "seat": seat, "keywords": moves, "attack": True})
    state["phase"] = "after" if turn["pending"] else "recovery"
    return [event("engagements_ended", seat, {})]


def _apply_end_turn(state: State, seat: int, step: Step) -> list[Event]:
    """Recovery: move and attack commands go to the discard pile, then the pile returns to the hand."""
    cards = card_set(state)
    state["turn"]["pending"] = []
    for unit in units_of(state, seat):
        command = command_on(state, unit, cards)
        if command is not None and command.kind in ("move", "attack"):
            state["discards"][key(seat)].append(unit["command"])
            unit["command"] = None
    returned = len(state["discards"][key(seat)])
    state["hands"][key(seat)] += state["discards"][key(seat)]
    state["discards"][key(seat)] = []
    events = [event("turn_ended", seat, {"returned_to_hand": returned})]
    if seat == second(state) and state["round"] >= state["max_rounds"]:
        return events + _after_last_round(state)
    return events + _start_turn(state, other(seat))


def _start_turn(state: State, seat: int) -> list[Event]:
    if seat == state["first"]:
        state["round"] += 1
        state["marker"] = min(state["marker"] + 1, MAX_MARKER)
    state["active"] = state["to_move"] = seat
    state["phase"] = "maintenance"
    state["turn"] = new_turn()
    return [event("turn_started", seat, {"round": state["round"], "cards": limit(state, seat)})]


def _settle(state: State) -> list[Event]:
    """After a step: a phase with nothing left but its end moves on by itself where nothing is lost."""
    if state["phase"] == "after" and not state["turn"]["pending"]:
        state["phase"] = "recovery"
    return []


_APPLY = {
    "place": _apply_place,
    "flip": actions.apply_flip,
    "discard_defence": actions.apply_discard_defence,
    "deploy": actions.apply_deploy,
    "command": lambda state, seat, step: actions.apply_command(state, seat, step,
                                                               reaction=state["phase"] == "reaction"),
    "pay": actions.apply_pay,
    "move": keywords.apply_move,
    "turn": keywords.apply_turn,
    "skip": keywords.apply_skip,
    "end_action": _apply_end_action,
    "end_reaction": _apply_end_reaction,
    "engage": _apply_engage,
    "advance": combat.apply_advance,
    "stay": _apply_stay,
    "end_engagements": _apply_end_engagements,
    "end_turn": _apply_end_turn,
}


# ---------------------------------------------------------------- the end

def _kills(state: State, seat: int) -> int:
    return len(state["destroyed"][key(other(seat))])


def _wounds(state: State, seat: int) -> int:
    return sum(1 for u in units_of(state, other(seat)) if u["wounded"])


def check_annihilation(state: State, seat: int) -> list[Event]:
    """The seat that destroyed all five enemy units wins at once."""
    deck = state["seats"][key(other(seat))]["deck"]
    units = sum(1 for n in range(len(deck)) if card_set(state).is_unit(card_id(state, other(seat), n)))
    if _kills(state, seat) >= units:
        return finish(state, seat, "annihilation")
    return []


def check_routed(state: State, seat: int) -> list[Event]:
    """Decision (routed): after an engagement, a seat with no unit on the field (face up or
    down) could never deploy again, so it loses at once, whatever units it still holds."""
    if state["result"] is None and not units_of(state, other(seat)):
        return finish(state, seat, "routed")
    return []


def _after_last_round(state: State) -> list[Event]:
    """After ``max_rounds``: most enemy units destroyed wins, then most enemy wounds, else a draw."""
    score = {s: (_kills(state, s), _wounds(state, s)) for s in SEATS}
    best = max(score.values())
    leaders = [s for s in SEATS if score[s] == best]
    return finish(state, leaders[0] if len(leaders) == 1 else None, "max_rounds")


def finish(state: State, winner: int | None, reason: str) -> list[Event]:
    result = {"winner": winner, "reason": reason,
              "destroyed": {key(s): _kills(state, s) for s in SEATS},
              "wounded": {key(s): _wounds(state, s) for s in SEATS}}
    state["result"] = result
    state["phase"] = "finished"
    state["to_move"] = None
    state["draw_offer"] = None
    state["turn"]["pending"] = []
    state["turn"]["advance"] = None
    return [event("game_finished", None, {"result": result})]


def forfeit(state: State, seat: int, reason: str) -> list[Event]:
    """The seat loses at once: it resigned, ran out of time, or withdrew from a tournament."""
    if state["result"] is not None:
        return []
    return [event(reason, seat, {})] + finish(state, other(seat), reason)
