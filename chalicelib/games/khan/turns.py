"""Turn flow: set-up, the four phases of a turn, the reaction window, and the end of the game.

``PHASES`` is the table of the phases (``state["phase"]``) and the steps each allows, one move
(``check_*``, ``apply_*``) per step; read it for the turn's order. Besides the table, a few
rules hold across the phases (``phase_of``, ``apply_step``, ``legal_steps``): a waiting keyword
or a destroyed unit's empty square interrupts the phase, the first action-phase step ends the
maintenance phase, and ``offer_draw`` / ``accept_draw`` / ``decline_draw`` / ``resign`` are
not the phases' business.
"""

from __future__ import annotations

from ...kernel.i18n import N_
from ..base import (
    Candidates, Event, IllegalStep, Move, Phase, Quoted, State, Step, Words, allows, event, no_check, seat_key,
)
from . import actions, combat, keywords
from .setup import MAX_MARKER, START_SQUARES, limit, new_turn, second
from .table import (
    SEATS, as_json, card_id, card_set, command_on, hand_ids, other, take_from_hand, unit_by_key, units_of,
)


# ---------------------------------------------------------------- set-up

def check_place(state: State, seat: int, step: Step) -> None:
    """Each seat places one unit card from its hand as its first unit."""
    cards = card_set(state)
    if step["unit"] not in cards.units:
        raise IllegalStep(N_('{card} is not a unit card of card set {card_set}'), card=Quoted(step['unit']), card_set=cards.id, code="invalid_card")
    if step["unit"] not in hand_ids(state, seat):
        raise IllegalStep(N_('you hold no {card}'), card=step['unit'])


def apply_place(state: State, seat: int, step: Step) -> list[Event]:
    number = take_from_hand(state, seat, step["unit"])
    (x, y), facing = START_SQUARES["first" if seat == state["first"] else "second"]
    state["field"].append({"seat": seat, "card": number, "x": x, "y": y, "facing": facing, "up": True,
                           "wounded": False, "command": None, "grappled_by": []})
    events = [event("place", seat, {"unit": step["unit"], "at": {"x": x, "y": y}, "facing": facing})]
    if seat == state["first"]:
        state["to_move"] = state["active"] = second(state)
        return events
    return events + _start_turn(state, state["first"])


def place_candidates(state: State, seat: int) -> list[Step]:
    cards = card_set(state)
    return [{"type": "place", "unit": u} for u in sorted({c for c in hand_ids(state, seat) if cards.is_unit(c)})]


# ---------------------------------------------------------------- the action phase and the reaction window

def apply_end_action(state: State, seat: int, step: Step) -> list[Event]:
    """The reaction window opens for the other seat if it has a defence command it could play;
    else the engagements begin."""
    opponent = other(seat)
    ended = [event("action_ended", seat, {})]
    if actions.defence_command_candidates(state, opponent):  # each one listed passes its check
        state["phase"] = "reaction"
        state["to_move"] = opponent
        return ended + [event("reaction_window", seat, {"seat": opponent})]
    return ended + _enter_engagements(state)


def apply_end_reaction(state: State, seat: int, step: Step) -> list[Event]:
    state["to_move"] = state["active"]
    return [event("reaction_ended", seat, {})] + _enter_engagements(state)


def _enter_engagements(state: State) -> list[Event]:
    state["phase"] = "engagements"
    state["to_move"] = state["active"]
    return []


# ---------------------------------------------------------------- the engagements

def apply_engage(state: State, seat: int, step: Step) -> list[Event]:
    """One engagement (``combat.apply_engage``); then the game may be over: all five enemy units
    destroyed, or the enemy routed."""
    events = combat.apply_engage(state, seat, step)
    return events + check_annihilation(state, seat) + check_routed(state, seat)


def apply_stay(state: State, seat: int, step: Step) -> list[Event]:
    state["turn"]["advance"] = None
    return [event("stay", seat, {})]


def check_end_engagements(state: State, seat: int, step: Step) -> None:
    """A unit that used its attack card's mobility (before ``power``) must attack while it can."""
    turn = state["turn"]
    for uid in turn["committed"]:
        unit = unit_by_key(state, uid)
        if unit is not None and uid not in turn["engaged"] and combat.can_still_engage(state, seat, unit):
            raise IllegalStep(N_("the unit at ({x}, {y}) used its attack card's mobility, so it must attack while it can"), x=unit['x'], y=unit['y'])


def apply_end_engagements(state: State, seat: int, step: Step) -> list[Event]:
    """The keywords after ``power`` on attack cards wait to be used (``mobility`` only by a unit
    that engaged): the after-combat phase, or recovery when there are none."""
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


# ---------------------------------------------------------------- recovery and the next turn

def apply_end_turn(state: State, seat: int, step: Step) -> list[Event]:
    """Recovery: move and attack commands go to the discard pile, then the pile returns to the hand."""
    cards = card_set(state)
    state["turn"]["pending"] = []
    for unit in units_of(state, seat):
        command = command_on(state, unit, cards)
        if command is not None and command.kind in ("move", "attack"):
            state["discards"][seat_key(seat)].append(unit["command"])
            unit["command"] = None
    returned = len(state["discards"][seat_key(seat)])
    state["hands"][seat_key(seat)] += state["discards"][seat_key(seat)]
    state["discards"][seat_key(seat)] = []
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


# ---------------------------------------------------------------- the phases and the steps each allows

def _listing(*sources: Candidates) -> Candidates:
    """Candidates from each source in turn."""
    def candidates(state: State, seat: int) -> list[Step]:
        return [step for source in sources for step in source(state, seat)]
    return candidates


def _just(kind: str) -> Candidates:
    return lambda state, seat: [{"type": kind}]


FLIP = Move(actions.check_flip, actions.apply_flip)
DISCARD_DEFENCE = Move(actions.check_discard_defence, actions.apply_discard_defence)
END_TURN = Move(no_check, apply_end_turn)
ACTION_MOVES = {
    "deploy": Move(actions.check_deploy, actions.apply_deploy),
    "command": Move(actions.check_command, actions.apply_command),
    "pay": Move(actions.check_pay, actions.apply_pay),
    "end_action": Move(no_check, apply_end_action),
}
ACTION_CANDIDATES = (actions.deploy_candidates, actions.command_candidates, actions.pay_candidates,
                     _just("end_action"))
KEYWORD_MOVES = {
    "move": Move(keywords.check_move, keywords.apply_move),
    "turn": Move(keywords.check_turn, keywords.apply_turn),
    "skip": Move(keywords.check_skip, keywords.apply_skip),
}

PHASES: dict[str, Phase] = {phase.name: phase for phase in (
    # the first unit of each seat, face up: (0, 0) facing N for the first seat, (0, 1) facing S
    Phase("setup", {"place": Move(check_place, apply_place)}, place_candidates),
    # flip face-down units, discard defence commands; any action-phase step begins the action phase
    Phase("maintenance", {"flip": FLIP, "discard_defence": DISCARD_DEFENCE, **ACTION_MOVES},
          _listing(actions.flip_candidates, actions.discard_defence_candidates, *ACTION_CANDIDATES)),
    # deploy, then command, then pay (each optional, in that order, within the turn's card limit),
    # then end_action
    Phase("action", ACTION_MOVES, _listing(*ACTION_CANDIDATES)),
    # the other seat plays defence commands onto its face-up units without one (skipped when it
    # has none it could play)
    Phase("reaction", {"command": Move(actions.check_defence_command, actions.apply_defence_command),
                       "end_reaction": Move(no_check, apply_end_reaction)},
          _listing(actions.defence_command_candidates, _just("end_reaction"))),
    # engage any number of times; end_turn skips the after-combat keywords
    Phase("engagements", {"engage": Move(combat.check_engage, apply_engage),
                          "end_engagements": Move(check_end_engagements, apply_end_engagements),
                          "end_turn": Move(check_end_engagements, apply_end_turn)},
          _listing(combat.engage_candidates, _just("end_engagements"), _just("end_turn"))),
    # the keywords after power on attack cards (move, turn, skip); end_turn skips what is left
    Phase("after", {**KEYWORD_MOVES, "end_turn": END_TURN}, _listing(keywords.keyword_candidates, _just("end_turn"))),
    # end_turn: move and attack commands go to the discard pile, the whole pile returns to the hand
    Phase("recovery", {"discard_defence": DISCARD_DEFENCE, "end_turn": END_TURN},
          _listing(actions.discard_defence_candidates, _just("end_turn"))),
)}

# What interrupts a phase until it is dealt with (``phase_of``): a command's keywords before
# power (mobility, turn) are used or skipped at once, in the card's order; a destroyed unit's
# square is taken by a melee attacker of that engagement, or left empty.
KEYWORD = Phase("keyword", KEYWORD_MOVES, keywords.keyword_candidates)
ADVANCE = Phase("advance", {"advance": Move(combat.check_advance, combat.apply_advance),
                            "stay": Move(no_check, apply_stay)}, combat.advance_candidates)

PHASE_WORDS = {"setup": N_("set-up"), "maintenance": N_("the maintenance phase"), "action": N_("the action phase"),
               "reaction": N_("the reaction window"), "engagements": N_("the engagements"),
               "after": N_("the after-combat keywords"), "recovery": N_("recovery")}


def phase_of(state: State, seat: int) -> Phase:
    """The phase whose steps the seat to move may take. Two things interrupt it: a keyword of a
    command the seat just played, waiting on its unit (outside the after-combat phase, whose own
    steps the keywords are), is used or skipped before anything else; and after a unit is
    destroyed, a melee attacker advances into its square, or stays, before the next engagement."""
    phase = state["phase"]
    if phase != "after" and any(e["seat"] == seat for e in state["turn"]["pending"]):
        return KEYWORD
    if phase == "engagements" and state["turn"]["advance"] is not None:
        return ADVANCE
    return PHASES[phase]


def _out_of_place(state: State, phase: Phase, kind: str) -> IllegalStep:
    """Why a step is not one of the phase's now."""
    if phase is KEYWORD:
        return IllegalStep(N_("first use or skip the keyword waiting on the unit you just commanded (move, turn or skip)"))
    if phase is ADVANCE and kind in PHASES["engagements"].moves:
        return IllegalStep(N_("first advance a melee attacker into the destroyed unit's square, or stay"))
    if kind in KEYWORD.moves:
        return IllegalStep(N_("no keyword of yours is waiting to be used"))
    if kind in ADVANCE.moves:
        return IllegalStep(N_("no destroyed unit's square is waiting to be taken"))
    # the step as a player writes it ("end turn", not end_turn), and what the phase allows instead
    allowed = tuple(Quoted(name.replace("_", " ")) for name in phase.moves)
    return IllegalStep(N_('{kind} cannot be taken in {phase}; now: {allowed}'), kind=Quoted(kind.replace("_", " ")),
                       phase=Words(PHASE_WORDS[state['phase']]) if state['phase'] in PHASE_WORDS else state['phase'],
                       allowed=allowed)


def check_step(state: State, seat: int, step: Step) -> Move:
    """The move of a step the seat to move may take now (raises IllegalStep if it may not)."""
    phase = phase_of(state, seat)
    move = phase.moves.get(step["type"])
    if move is None:
        raise _out_of_place(state, phase, step["type"])
    move.check(state, seat, step)
    return move


# ---------------------------------------------------------------- draws

def check_offer_draw(state: State, seat: int, step: Step) -> None:
    """The seat to move may offer a draw once both first units are placed (even with a keyword
    waiting); the offer stands until answered, or until the opponent plays on."""
    if state["draw_offer"] is not None:
        raise IllegalStep(N_("a draw offer is already waiting for an answer"))
    if state["phase"] == "setup":
        raise IllegalStep(N_("a draw may be offered once both first units are placed"))


def _answer_draw(state: State, seat: int, kind: str) -> list[Event]:
    """Either seat answers its opponent's offer at any time: accepting draws the game."""
    if state["draw_offer"] != other(seat):
        raise IllegalStep(N_("no draw offer of your opponent is waiting"))
    state["draw_offer"] = None
    if kind == "decline_draw":
        return [event("draw_declined", seat, {})]
    return [event("draw_accepted", seat, {})] + finish(state, None, "draw_agreed")


def _play_on(state: State, seat: int) -> list[Event]:
    """Playing on declines the opponent's draw offer."""
    if state["draw_offer"] != other(seat):
        return []
    state["draw_offer"] = None
    return [event("draw_declined", seat, {})]


# ---------------------------------------------------------------- legal steps and applying one

def legal_steps(state: State, seat: int) -> list[Step]:
    """The phase's steps whose rules allow them now (for the seat to move), then the draw steps,
    then ``resign`` (any seat, at any time)."""
    if state["result"] is not None or seat not in SEATS:
        return []
    steps: list[Step] = []
    if seat == state["to_move"]:
        phase = phase_of(state, seat)
        listing = LEGAL.get(phase.name)
        steps = listing(state, seat) if listing is not None else checked_steps(state, seat, phase)
        if allows(check_offer_draw, state, seat, {"type": "offer_draw"}):
            steps.append({"type": "offer_draw"})
    if state["draw_offer"] == other(seat):
        steps += [{"type": "accept_draw"}, {"type": "decline_draw"}]
    steps.append({"type": "resign"})
    return steps


def checked_steps(state: State, seat: int, phase: Phase) -> list[Step]:
    """The phase's candidates that its rules allow, each put to its check: what ``LEGAL`` lists faster."""
    return [step for step in phase.candidates(state, seat) if phase.allows(state, seat, step)]


# ---------------------------------------------------------------- legal steps without a check each
#
# ``legal_steps`` is what a bot's playouts call most. Most candidates pass their check whatever
# it asks (a deploy square is listed only where the rules allow one), so each phase's listing
# below asks once what its checks would ask of every candidate (room left, the stage), and puts
# to the full check only the candidates whose fate it cannot tell so. The same steps in the same
# order as ``checked_steps`` (tests/engine/khan/test_legal_listing.py holds it on random games).

def _action_steps(state: State, seat: int) -> list[Step]:
    """Deploy, command, pay (each while the turn's stage and card limit allow), then end_action."""
    turn = state["turn"]
    steps: list[Step] = []
    if turn["played"] < limit(state, seat):
        stage = turn["stage"]
        if stage == "deploy":
            steps += actions.deploy_candidates(state, seat)
        if stage != "pay":
            steps += actions.command_candidates(state, seat)
        if not turn.get("paid"):
            steps += actions.payable_candidates(state, seat)
    steps.append({"type": "end_action"})
    return steps


def _maintenance_steps(state: State, seat: int) -> list[Step]:
    return actions.flip_candidates(state, seat) + actions.discard_defence_candidates(state, seat) + \
        _action_steps(state, seat)


def _reaction_steps(state: State, seat: int) -> list[Step]:
    return actions.defence_command_candidates(state, seat) + [{"type": "end_reaction"}]


def _engagement_steps(state: State, seat: int) -> list[Step]:
    """Every listed engagement is legal; ending them is not while a committed unit could still attack
    (``check_end_engagements``, asked of the listed engagements)."""
    engagements = combat.engage_candidates(state, seat)
    turn = state["turn"]
    for uid in turn["committed"]:
        unit = unit_by_key(state, uid)
        if unit is not None and uid not in turn["engaged"]:
            here = as_json((unit["x"], unit["y"]))
            if any(here in step["attackers"] for step in engagements):
                return engagements
    return engagements + [{"type": "end_engagements"}, {"type": "end_turn"}]


def _keyword_steps(state: State, seat: int) -> list[Step]:
    """The waiting keywords' candidates, each checked; a move's check finds the squares its unit
    reaches once for all its moves (``keywords.move_allowed``), not a path a move."""
    listed = keywords.keyword_candidates(state, seat)
    entries = [e for e in state["turn"]["pending"] if e["seat"] == seat]
    if len({e["unit"] for e in entries}) == len(entries) and \
            all(e["keywords"][0][0] in ("mobility", "turn") for e in entries) and \
            (state["phase"] == "after" or not any(e["attack"] for e in entries)):
        # Each listed step's check finds the keyword it was listed for, and asks nothing the listing
        # did not: a move ends where its unit reaches, a turn changes the facing, a skip is free.
        return listed
    steps, reach = [], {}
    for step in listed:
        if step["type"] == "move":
            if keywords.move_allowed(state, seat, step, reach):
                steps.append(step)
        elif allows(keywords.KEYWORD_CHECKS[step["type"]], state, seat, step):
            steps.append(step)
    return steps


def _after_steps(state: State, seat: int) -> list[Step]:
    return _keyword_steps(state, seat) + [{"type": "end_turn"}]


LEGAL: dict[str, Candidates] = {
    "setup": place_candidates,
    "maintenance": _maintenance_steps,
    "action": _action_steps,
    "reaction": _reaction_steps,
    "engagements": _engagement_steps,
    "after": _after_steps,
    "recovery": _listing(actions.discard_defence_candidates, _just("end_turn")),
    "keyword": _keyword_steps,
    "advance": combat.advance_candidates,
}


# The moves whose apply begins with the move's own check (before it changes anything).
CHECKED_BY_APPLY = {actions.apply_flip, actions.apply_discard_defence, actions.apply_deploy, actions.apply_command,
                    actions.apply_pay, actions.apply_defence_command, apply_engage, keywords.apply_move,
                    keywords.apply_turn, keywords.apply_skip, combat.apply_advance}


def apply_step(state: State, seat: int, step: Step) -> list[Event]:
    if state["result"] is not None:
        raise IllegalStep(N_("the game is over"))
    kind = step["type"]
    if kind == "resign":
        return forfeit(state, seat, "resign")
    if kind in ("accept_draw", "decline_draw"):
        return _answer_draw(state, seat, kind)
    if seat != state["to_move"]:
        raise IllegalStep(N_("it is not your decision now"), code="not_your_turn")
    if kind == "offer_draw":
        check_offer_draw(state, seat, step)
        state["draw_offer"] = seat
        return [event("draw_offered", seat, {})]
    if state["draw_offer"] != other(seat) and not (state["phase"] == "maintenance" and kind in PHASES["action"].moves):
        # Nothing changes before the move's apply, whose own first act is its check: checked once.
        phase = phase_of(state, seat)
        move = phase.moves.get(kind)
        if move is None:
            raise _out_of_place(state, phase, kind)
        if move.apply not in CHECKED_BY_APPLY:
            move.check(state, seat, step)
    else:
        move = check_step(state, seat, step)
    events = _play_on(state, seat)
    if state["phase"] == "maintenance" and kind in PHASES["action"].moves:
        state["phase"] = "action"
    events += move.apply(state, seat, step)
    if state["result"] is None:
        events += _settle(state)
    return events


# ---------------------------------------------------------------- the end

def _kills(state: State, seat: int) -> int:
    return len(state["destroyed"][seat_key(other(seat))])


def _wounds(state: State, seat: int) -> int:
    return sum(1 for u in units_of(state, other(seat)) if u["wounded"])


def check_annihilation(state: State, seat: int) -> list[Event]:
    """The seat that destroyed all five enemy units wins at once."""
    deck = state["seats"][seat_key(other(seat))]["deck"]
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
              "destroyed": {seat_key(s): _kills(state, s) for s in SEATS},
              "wounded": {seat_key(s): _wounds(state, s) for s in SEATS}}
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
