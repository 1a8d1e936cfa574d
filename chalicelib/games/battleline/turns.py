"""Turn flow: which steps a seat may take now, and what taking one does.

A turn is three phases whose order the ``claim_timing`` option sets (play, claim, draw by
default). Each phase is one step. Some plays open decisions of their own: SCOUT's three
draws and its return (``scout_draw``, ``scout_return``), and the discards owed when Mud
leaves a flag (``mud_discard``, by the owner of each side left with 4 cards, who may not
be the seat whose turn it is). ``PHASES`` is the table of the phases and the steps each
allows: one move (``check_<step>``, whose docstring says the rule, and ``apply_<step>``) per
step, and the phase's candidate steps (``<phase>_candidates``). The functions here change the
state they are given; callers that need the old state keep a copy (see
``games.base.apply_steps``).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from ...kernel.i18n import N_, Nn_
from ..base import Event, IllegalStep, Quoted, Move, Phase, State, Step, Words, event, seat_key
from . import claims, listed, tactics
from .cards import is_card, is_troop
from .claims import ALL_TROOPS, SIDE_SIZE, ClaimCheck, side_size
from .setup import PHASE_ORDER, deal, next_game_rng
from .listed import ListedStep
from .table import (
    active_seats,
    discard,
    flag_at,
    flags_held,
    hand,
    has_free_slot,
    open_flags,
    place,
    restamp,
    seats,
    side_cards,
)

DECKS = ("troop", "tactics")
SCOUT_DRAWS = 3


# ---------------------------------------------------------------- reading the state

def can_play_troop(state: State, seat: int) -> bool:
    return any(is_troop(card) for card in hand(state, seat)) and bool(open_flags(state, seat))


def unseen_pool(state: State) -> int:
    """The unseen troops' mask: ``claims.pool_mask(claims.visible_cards(flags, discards))``, in one pass."""
    cards = chain(chain.from_iterable(chain.from_iterable(flag["cards"] for flag in state["flags"])),
                  chain.from_iterable(state["discards"].values()))
    return ALL_TROOPS & ~claims.troops_mask(cards)


def claim_checks(state: State, seat: int) -> dict[int, ClaimCheck]:
    """Every flag's claim check for ``seat``, with reasons, sharing one pool of unseen troops."""
    pool = unseen_pool(state)
    return {flag["flag"]: claims.check_claim(flag, seat, pool) for flag in state["flags"]}


def provable_flags(state: State, seat: int) -> list[int]:
    """The flags the seat can claim now (``claims.claimable``, the proof, for each)."""
    # Only an unclaimed flag where the seat's side is complete can be claimed (``_verdict``'s
    # "incomplete"): most claim steps have none. Where the opponent's side is complete too, the
    # proof compares the two sides and reads no pool: the unseen pool is built only for a flag
    # whose opposing side is still open.
    provable: list[int] = []
    pool = -1
    # (with two players every flag is between seats 1 and 2, setup.deal: the seat's side is seat - 1; a page
    # proves a table of flags and discards alone, pages.board_battleline)
    two = state.get("players") == 2
    for flag in state["flags"]:
        if flag["claimed_by"] is not None:
            continue
        if two:
            side = seat - 1
        elif seat in (seats := flag["seats"]):
            side = seats.index(seat)
        else:
            continue
        cards = flag["cards"]
        size = side_size(flag) if flag["environment"] else SIDE_SIZE
        if len(cards[side]) < size:
            continue
        if len(cards[1 - side]) >= size:
            if claims.claimable(flag, seat, 0):
                provable.append(flag["flag"])
            continue
        if pool < 0:
            pool = unseen_pool(state)
        if claims.claimable(flag, seat, pool):
            provable.append(flag["flag"])
    return provable


def decks_empty(state: State) -> bool:
    decks = state["decks"]
    return not (decks["troop"] or decks["tactics"])  # (DECKS, spelt out: this runs at every draw step)


# ---------------------------------------------------------------- play: a card, or pass

def check_play(state: State, seat: int, step: Step) -> None:
    """Play a card you hold: a troop into a free slot, a tactics card by its own rule
    (``tactics``)."""
    card = step.get("card")
    if not isinstance(card, str) or not is_card(card):
        raise IllegalStep(N_('{card} is not a card'), card=Quoted(card), code="invalid_card")
    tactics.check_play(state, seat, step)


def apply_play(state: State, seat: int, step: Step) -> list[Event]:
    events = tactics.apply_play(state, seat, step)
    state["passes_in_a_row"] = 0
    if state["pending"]:
        _next_pending(state)
    return events


def check_pass(state: State, seat: int, step: Step) -> None:
    """You must play if you hold a troop and have a free slot; otherwise you may pass (or
    still play a tactics card instead)."""
    if can_play_troop(state, seat):
        raise IllegalStep(N_("you must play: you hold a troop card and have a free slot"))


def apply_pass(state: State, seat: int, step: Step) -> list[Event]:
    state["passed_this_turn"] = True
    state["passes_in_a_row"] += 1
    return [event("pass", seat, {})]


def play_candidates(state: State, seat: int) -> list[Step]:
    """Every card play the rules allow, then ``pass`` unless a troop may be played."""
    steps = tactics.card_candidates(state, seat)
    if not (steps and steps[0]["card"] in tactics.TROOP_CARDS):  # troop plays, if any, come first
        steps.append(listed.PASS)
    return steps


# ---------------------------------------------------------------- claim

def check_claim(state: State, seat: int, step: Step) -> None:
    """Claim any number of flags (none, too) whose proof holds: your side is complete and the
    opponent cannot beat it (``claims.check_claim``). A refusal names the flag and a
    counterexample."""
    numbers = step.get("flags")
    if not isinstance(numbers, list):
        raise IllegalStep(N_("a claim names a list of flags (an empty list claims nothing)"))
    if len(set(map(repr, numbers))) != len(numbers):
        raise IllegalStep(N_("a claim names each flag once"))
    flags = [flag_at(state, number) for number in numbers]
    pool = unseen_pool(state) if flags else 0
    for flag in flags:
        if not claims.claimable(flag, seat, pool):
            check = claims.check_claim(flag, seat, pool)
            raise IllegalStep(N_('flag {flag} cannot be claimed: {reason}'), flag=flag['flag'], reason=check.reason,
                              details={"flag": flag["flag"], "counterexample": check.counterexample})


def apply_claim(state: State, seat: int, step: Step) -> list[Event]:
    return _claim_flags(state, seat, [flag_at(state, number)["flag"] for number in step["flags"]], auto=False)


def claim_candidates(state: State, seat: int) -> list[Step]:
    """Every provable flag at once, each alone when there are several, and claiming nothing."""
    provable = provable_flags(state, seat)
    if not provable:
        return [_CLAIM_NOTHING]
    steps = [listed.claim(tuple(provable))]
    if len(provable) > 1:
        steps += [listed.claim((number,)) for number in provable]
    steps.append(_CLAIM_NOTHING)
    return steps


_CLAIM_NOTHING = listed.claim(())


def _claim_flags(state: State, seat: int, numbers: list[int], *, auto: bool, stall: bool = False) -> list[Event]:
    for number in numbers:
        state["flags"][number - 1]["claimed_by"] = seat
    if numbers:
        state["passes_in_a_row"] = 0
    data: dict[str, Any] = {"flags": numbers}
    if auto:
        data["auto"] = True
    if stall:
        data["stall"] = True
    return [event("claim", seat, data)] + (_check_victory(state, seat) if numbers else [])


# ---------------------------------------------------------------- draw (and Scout's draws)

def check_draw(state: State, seat: int, step: Step) -> None:
    """Draw one card from the troop deck or the tactics deck; an empty deck cannot be chosen."""
    deck = step.get("deck")
    if deck not in DECKS:
        raise IllegalStep(N_('there is no {deck} deck; choose troop or tactics'), deck=Quoted(deck))
    if not state["decks"][deck]:
        raise IllegalStep({"troop": N_("the troop deck is empty"), "tactics": N_("the tactics deck is empty")}[deck])


def apply_draw(state: State, seat: int, step: Step) -> list[Event]:
    card = _take_from_deck(state, seat, step["deck"])
    return [event("draw", seat, {"deck": step["deck"]}, private={"card": card})]


def draw_candidates(state: State, seat: int) -> list[Step]:
    decks = state["decks"]  # (DECKS, spelt out: this runs at every draw step)
    if decks["troop"]:
        return [_DRAW_TROOP, _DRAW_TACTICS] if decks["tactics"] else [_DRAW_TROOP]
    return [_DRAW_TACTICS] if decks["tactics"] else []


_DRAW_TROOP, _DRAW_TACTICS = (listed.with_deck("draw", deck) for deck in DECKS)


def _take_from_deck(state: State, seat: int, deck: str) -> str:
    card = state["decks"][deck].pop()
    state["hands"][str(seat)].append(card)  # (hand(): this runs at every draw)
    return card


def check_scout_draw(state: State, seat: int, step: Step) -> None:
    """SCOUT's draws: 3 cards, one at a time, each from either non-empty deck."""
    check_draw(state, seat, step)


def apply_scout_draw(state: State, seat: int, step: Step) -> list[Event]:
    card = _take_from_deck(state, seat, step["deck"])
    scout = state["scout"]
    scout["drawn"] += 1
    events = [event("scout_draw", seat, {"deck": step["deck"]}, private={"card": card})]
    if scout["drawn"] == SCOUT_DRAWS or decks_empty(state):
        scout["to_return"] = scout["drawn"] - 1  # the hand ends at the size it had before the turn
        if scout["to_return"]:
            state["phase"] = "scout_return"
        else:
            events += _end_scout(state)
    return events


def scout_draw_candidates(state: State, seat: int) -> list[Step]:
    return [listed.with_deck("scout_draw", deck) for deck in DECKS if state["decks"][deck]]


def check_scout_return(state: State, seat: int, step: Step) -> None:
    """After SCOUT's draws, put back one card fewer than you drew (2 after 3 draws), each on
    top of its own deck: the last one named ends on top."""
    cards = step.get("cards")
    count = state["scout"]["to_return"]
    if not isinstance(cards, list) or len(cards) != count:
        raise IllegalStep(Nn_('SCOUT returns {count} card from your hand', 'SCOUT returns {count} cards from your hand'),
                          n=count, count=count)
    if len(set(cards)) != len(cards):
        raise IllegalStep(N_("name each returned card once"))
    missing = [card for card in cards if card not in hand(state, seat)]
    if missing:
        raise IllegalStep(N_('you do not hold {card}'), card=missing[0])


def apply_scout_return(state: State, seat: int, step: Step) -> list[Event]:
    cards = step["cards"]
    decks = []
    for card in cards:  # in order: the last one named ends on top
        hand(state, seat).remove(card)
        deck = "troop" if is_troop(card) else "tactics"
        state["decks"][deck].append(card)
        decks.append(deck)
    return [event("scout_return", seat, {"decks": decks}, private={"cards": list(cards)})] + _end_scout(state)


def scout_return_candidates(state: State, seat: int) -> list[Step]:
    """Every choice of cards to return: the hand is small, so all ordered pairs are listed."""
    cards = list(dict.fromkeys(hand(state, seat)))
    count = state["scout"]["to_return"]
    if count == 1:
        return [listed.scout_return((c,)) for c in cards]
    return [listed.scout_return((a, b)) for a in cards for b in cards if a != b]


def _end_scout(state: State) -> list[Event]:
    state["scout"] = None
    state["scouted_this_turn"] = True  # Scout's draws replace the turn's draw
    state["phase"] = "play"
    return _advance(state)


# ---------------------------------------------------------------- a Mud discard

def check_mud_discard(state: State, seat: int, step: Step) -> None:
    """When Mud leaves a flag and a side then has 4 cards, its owner discards one of them (their
    choice) before play goes on, the acting seat first."""
    pending = state["pending"][0]
    flag = flag_at(state, step.get("flag"))
    if flag["flag"] != pending["flag"]:
        raise IllegalStep(N_('the discard owed is at flag {owed}, not flag {flag}'), owed=pending['flag'],
                          flag=flag['flag'])
    card = step.get("card")
    if card not in side_cards(flag, seat):
        raise IllegalStep(N_('{card} is not on your side of flag {flag}'), card=card, flag=flag['flag'])


def apply_mud_discard(state: State, seat: int, step: Step) -> list[Event]:
    flag, card = flag_at(state, step["flag"]), step["card"]
    side_cards(flag, seat).remove(card)
    discard(state, seat, card)
    restamp(state, flag, seat)
    state["pending"].pop(0)
    events = [event("mud_discard", seat, {"flag": flag["flag"], "card": card})]
    if state["pending"]:
        _next_pending(state)
        return events
    state["phase"] = "play"
    state["to_move"] = state["turn_seat"]
    return events + _advance(state)


def mud_discard_candidates(state: State, seat: int) -> list[Step]:
    pending = state["pending"][0]
    flag = flag_at(state, pending["flag"])
    return [listed.mud_discard(flag["flag"], card) for card in side_cards(flag, seat)]


def _next_pending(state: State) -> None:
    state["phase"] = "mud_discard"
    state["to_move"] = state["pending"][0]["seat"]


# ---------------------------------------------------------------- the phases

# Each step (and phase) by its name in words, as a refusal says it in the reader's language.
STEP_NAMES = {"play": N_("play"), "pass": N_("pass"), "claim": N_("claim"), "draw": N_("draw"),
              "scout_draw": N_("Scout's draws"), "scout_return": N_("Scout's return"),
              "mud_discard": N_("Mud's discard")}


def _step_name(kind: Any) -> Words | Quoted:
    """A step type's name in words; anything else quoted as the player wrote it."""
    return Words(STEP_NAMES[kind]) if isinstance(kind, str) and kind in STEP_NAMES else Quoted(kind)


PHASES: dict[str, Phase] = {phase.name: phase for phase in (
    # play a card, or pass when no troop may be played
    Phase("play", {"play": Move(check_play, apply_play), "pass": Move(check_pass, apply_pass)}, play_candidates),
    # claim the flags you can prove (before the play with claim_timing "start", after the draw with "end")
    Phase("claim", {"claim": Move(check_claim, apply_claim)}, claim_candidates),
    # draw one card (skipped after a Scout or with both decks empty)
    Phase("draw", {"draw": Move(check_draw, apply_draw)}, draw_candidates),
    # SCOUT's draws, then its return
    Phase("scout_draw", {"scout_draw": Move(check_scout_draw, apply_scout_draw)}, scout_draw_candidates),
    Phase("scout_return", {"scout_return": Move(check_scout_return, apply_scout_return)}, scout_return_candidates),
    # the discards owed when Mud leaves a flag, by each side's owner
    Phase("mud_discard", {"mud_discard": Move(check_mud_discard, apply_mud_discard)}, mud_discard_candidates),
)}


# ---------------------------------------------------------------- legal steps, applying a step

def legal_steps(state: State, seat: int) -> list[Step]:
    """The phase's candidate steps for the seat to move (each one its rule allows), then
    ``resign`` (any seat still playing, at any time)."""
    if state["result"] is not None or not 1 <= seat <= state["players"] or seat in state["resigned"]:
        return []
    steps: list[Step] = []
    if seat == state["to_move"]:
        steps = PHASES[state["phase"]].candidates(state, seat)
    steps.append(listed.RESIGN)
    return steps


def apply_step(state: State, seat: int, step: Step) -> list[Event]:
    if type(step) is ListedStep and state["result"] is None and seat == state["to_move"] \
            and seat not in state["resigned"] and (taken := _LISTED.get(state["phase"])) is not None:
        events = taken(state, seat, step)
        if events is not None:
            return events
    if state["result"] is not None:
        raise IllegalStep(N_("the game is over"), code="game_finished")
    if not 1 <= seat <= state["players"]:
        raise IllegalStep(N_('there is no seat {seat} in this game'), seat=seat, code="not_seated")
    if seat in state["resigned"]:
        raise IllegalStep(N_("you have resigned from this game"), code="not_your_turn")
    kind = step.get("type")
    if kind == "resign":
        return _resign(state, seat)
    if seat != state["to_move"]:
        raise IllegalStep(N_("it is seat {to_move}'s decision now, not seat {seat}'s"), to_move=state['to_move'], seat=seat, code="not_your_turn")
    phase = PHASES[state["phase"]]
    move = phase.moves.get(kind)
    if move is None:
        raise IllegalStep(N_('a {kind} step is not allowed now: this is the {phase} step (expected {expected})'),
                          kind=_step_name(kind), phase=_step_name(state['phase']),
                          expected=tuple(_step_name(name) for name in sorted(phase.moves)))
    move.check(state, seat, step)
    before, game = state["phase"], _game_number(state)
    events = move.apply(state, seat, step)
    # A turn phase moves on, unless the step opened a decision of its own (Scout, a Mud
    # discard) or ended the game (in a match: dealt the next one, which starts afresh).
    if state["phase"] == before and state["result"] is None and _turn_phase(state, before) \
            and _game_number(state) == game:
        events += _advance(state)
    return events


# ---------------------------------------------------------------- a listed step, taken directly
#
# A step ``legal_steps`` listed (a ListedStep) is well formed by construction (``listed``): the
# common ones are taken here without their shape checks, when the position allows them (the same
# predicates as their rules: the card held, ``has_free_slot``, a deck not empty). Anything else
# (None) goes the whole way through ``apply_step``'s checks, which refuse it in their words.

def _take_listed_play(state: State, seat: int, step: Step) -> list[Event] | None:
    """A troop into a slot (``check_slot``: the card held, a free slot on the seat's side)."""
    if step["type"] != "play" or (card := step["card"]) not in tactics.TROOP_CARDS or state["pending"]:
        return None
    number, flags, cards = step["flag"], state["flags"], state["hands"][str(seat)]
    if number > len(flags) or card not in cards or not has_free_slot(flag := flags[number - 1], seat):
        return None
    cards.remove(card)
    place(state, flag, seat, card)
    state["passes_in_a_row"] = 0
    return [{"type": "play", "seat": seat, "data": {"card": card, "flag": number}}] + _advance(state)  # (event())


def _take_listed_claim(state: State, seat: int, step: Step) -> list[Event] | None:
    """Claiming nothing (flags are claimed through ``check_claim``'s proof)."""
    if step["type"] != "claim" or step["flags"]:
        return None
    return [{"type": "claim", "seat": seat, "data": {"flags": []}}] + _advance(state)  # (event())


def _take_listed_draw(state: State, seat: int, step: Step) -> list[Event] | None:
    """A draw from a deck that is not empty (``check_draw``)."""
    if step["type"] != "draw" or not state["decks"][step["deck"]]:
        return None
    return apply_draw(state, seat, step) + _advance(state)


_LISTED = {"play": _take_listed_play, "claim": _take_listed_claim, "draw": _take_listed_draw}


def _turn_phase(state: State, phase: str) -> bool:
    return phase in PHASE_ORDER[state["claim_timing"]]


def _game_number(state: State) -> int:
    return state["match"]["number"] if state["match"] else 1


def forfeit(state: State, seat: int, reason: str) -> list[Event]:
    """The seat loses without playing on: it resigned, its time ran out, or it withdrew from a
    tournament. Like a resignation, it concedes a whole match; with three players the others play on."""
    if state["result"] is not None or seat in state["resigned"]:
        return []
    return _resign(state, seat, reason)


def _resign(state: State, seat: int, reason: str = "resign") -> list[Event]:
    events = [event(reason, seat, {})]
    if state["players"] == 2:
        return events + _finish(state, [s for s in seats(state) if s != seat][0], reason, whole_match=True)
    # Three players: the seat is out; the others play on. The last one left wins.
    state["resigned"].append(seat)
    left = active_seats(state)
    if len(left) == 1:
        return events + _finish(state, left[0], reason, whole_match=True)
    if state["turn_seat"] == seat:
        game = _game_number(state)
        events += _end_turn(state)
        if state["result"] is None and _game_number(state) == game:
            state["phase"] = PHASE_ORDER[state["claim_timing"]][0]
            events += _enter_phase(state)
    return events


# ---------------------------------------------------------------- turn flow and the end

def _advance(state: State) -> list[Event]:
    """Move on to the next phase that needs a decision, ending turns (and the game) on the way."""
    following = _FOLLOWING[state["claim_timing"], state["phase"]]
    if following is not None:
        state["phase"] = following
        return _enter_phase(state)
    game = _game_number(state)
    events = _end_turn(state)
    if state["result"] is None and _game_number(state) == game:  # (a match's next game began by itself)
        state["phase"] = PHASE_ORDER[state["claim_timing"]][0]
        events += _enter_phase(state)
    return events


# The phase after each turn phase in each claim timing (None: the turn ends); ValueError for a
# phase that is not a turn phase, as ``order.index`` raised.
class _Following(dict):
    def __missing__(self, key: tuple[str, str]) -> None:
        raise ValueError(f"{key[1]!r} is not in list")


_FOLLOWING = _Following({(timing, phase): (order[i + 1] if i + 1 < len(order) else None)
                         for timing, order in PHASE_ORDER.items() for i, phase in enumerate(order)})


def _enter_phase(state: State) -> list[Event]:
    """Skip phases with nothing to decide: no draw after a Scout or with both decks empty; the
    claim is made for a seat that has auto-claim on. Decision (claim after a pass): a seat that
    passed still takes its claim step and its draw."""
    seat = state["to_move"] = state["turn_seat"]
    phase = state["phase"]
    if phase == "draw":
        return _advance(state) if state["scouted_this_turn"] or decks_empty(state) else []
    if phase == "claim" and state["auto_claim"].get(str(seat)):  # (seat_key)
        game = _game_number(state)
        events = _claim_flags(state, seat, provable_flags(state, seat), auto=True)
        if state["result"] is None and _game_number(state) == game:
            events += _advance(state)
        return events
    return []


def _end_turn(state: State) -> list[Event]:
    if state["passes_in_a_row"] and state["passes_in_a_row"] >= len(players := active_seats(state)):
        game = _game_number(state)
        events = _stall_claims(state)
        if state["result"] is not None or _game_number(state) != game:
            return events
        if not events:
            held = {seat: len(flags_held(state, seat)) for seat in players}
            most = max(held.values())
            leaders = [seat for seat, count in held.items() if count == most]
            return _finish(state, leaders[0] if len(leaders) == 1 else None, "stall")
        return events + _next_turn(state)
    return _next_turn(state)


def _stall_claims(state: State) -> list[Event]:
    """Decision (stall, provable flags): before a stall ends the game, every flag a seat can
    prove is claimed for it, the seat whose turn ends first, then the others in turn order.
    The events (claims marked ``auto`` and ``stall``) are none when no flag changes hands."""
    ring = seats(state)
    start = ring.index(state["turn_seat"])
    events: list[Event] = []
    for seat in ring[start:] + ring[:start]:
        if seat not in active_seats(state):
            continue
        numbers = provable_flags(state, seat)
        if numbers:
            game = _game_number(state)
            events += _claim_flags(state, seat, numbers, auto=True, stall=True)
            if state["result"] is not None or _game_number(state) != game:
                break
    return events


def _next_turn(state: State) -> list[Event]:
    count, resigned = state["players"], state["resigned"]
    turn_seat = state["turn_seat"]
    while True:  # the next seat round the table still playing
        turn_seat = turn_seat % count + 1
        if turn_seat not in resigned:
            break
    state["turn_seat"] = state["to_move"] = turn_seat
    state["turn"] += 1
    state["passed_this_turn"] = False
    state["scouted_this_turn"] = False
    return []


def adjacent_run(held: list[int], flag_count: int, *, ring: bool) -> int:
    """The longest run of adjacent held flags (on a ring, 9 and 1 are adjacent)."""
    owned = set(held)
    if ring and len(owned) == flag_count:
        return flag_count
    best = 0
    for start in range(1, flag_count + 1):
        length = 0
        while length < flag_count:
            number = ((start - 1 + length) % flag_count) + 1 if ring else start + length
            if number not in owned:
                break
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


def _finish(state: State, winner: int | None, reason: str, *, whole_match: bool = False) -> list[Event]:
    """End the game, or in a match the current game, dealing the next one."""
    flags = {seat_key(seat): len(flags_held(state, seat)) for seat in seats(state)}
    result: dict[str, Any] = {"winner": winner, "reason": reason, "flags": flags}
    match = state["match"]
    if match is None:
        return _close(state, result)
    for seat in seats(state):
        match["scores"][seat_key(seat)] += 5 if seat == winner else flags[seat_key(seat)]
    match["results"].append({"game": match["number"], **result})
    if whole_match or match["number"] == match["games"]:
        scores = match["scores"]
        best = max(scores.values())
        top = [int(seat) for seat, score in scores.items() if score == best]
        final = {"winner": winner if whole_match else (top[0] if len(top) == 1 else None),
                 "reason": reason if whole_match else "match", "flags": flags,
                 "scores": dict(scores), "games": list(match["results"])}
        return _close(state, final)
    starter = winner if winner is not None else _after(state, state["first_seat_of_game"])
    match["number"] += 1
    finished = event("match_game_finished", None, {"result": result, "scores": dict(match["scores"]),
                                                   "next_game": match["number"], "next_starts": starter})
    deal(state, next_game_rng(match), starter)
    return [finished] + _enter_phase(state)


def _after(state: State, seat: int) -> int:
    ring = seats(state)
    return ring[(ring.index(seat) + 1) % len(ring)]


def _close(state: State, result: dict) -> list[Event]:
    state["result"] = result
    state["phase"] = "finished"
    state["to_move"] = None
    state["pending"] = []
    state["scout"] = None
    return [event("game_finished", None, {"result": result})]


__all__ = ["PHASES", "adjacent_run", "apply_step", "can_play_troop", "claim_checks", "legal_steps", "provable_flags",
           "side_size"]
