"""A full Battle Line state that agrees with everything one seat can see (a *determinization*):
the table, the discards, its own hand, every count; the cards it cannot see (the other
hands, the decks) dealt at random from those it has not seen. Search bots play such states
forward; they never look at the real one.
"""

from __future__ import annotations

import random

from ..games.battleline.cards import TACTICS, TROOPS
from ..games.battleline.claims import side_size, visible_cards


def _flags(view_flags: list[dict]) -> tuple[list[dict], int]:
    """The flags with completion stamps that keep the order the view tells (first_complete)."""
    flags, stamp = [], 0
    for flag in view_flags:
        size = side_size(flag)
        complete = [len(side) >= size for side in flag["cards"]]
        order = [0, 1]
        if flag["first_complete"] is not None and flag["first_complete"] in flag["seats"]:
            first = flag["seats"].index(flag["first_complete"])
            order = [first, 1 - first]
        completed: list[int | None] = [None, None]
        for side in order:
            if complete[side]:
                stamp += 1
                completed[side] = stamp
        flags.append({"flag": flag["flag"], "seats": list(flag["seats"]), "cards": [list(s) for s in flag["cards"]],
                      "environment": list(flag["environment"]),
                      "environment_seats": dict(flag["environment_seats"]), "claimed_by": flag["claimed_by"],
                      "completed": completed})
    return flags, stamp


def determinize(view: dict, rng: random.Random) -> dict:
    """A state consistent with the seat's view (``view`` is a seat's game view)."""
    v = view["state"]
    seat = view["you"]
    me = str(seat)
    seen = set(visible_cards(v["flags"], v["discards"])) | set(v["hand"])
    unseen_troops = [c for c in TROOPS if c not in seen]
    unseen_tactics = [c for c in TACTICS if c not in seen] if v["tactics"] else []
    rng.shuffle(unseen_troops)
    rng.shuffle(unseen_tactics)
    others = [s for s in v["hand_sizes"] if s != me]
    # The tactics deck's size is known: the rest of the unseen tactics are in the other hands.
    tactics_in_hands = max(0, len(unseen_tactics) - v["decks"].get("tactics", 0))
    hands: dict[str, list[str]] = {me: list(v["hand"])}
    for key in others:
        size = v["hand_sizes"][key]
        taken = [unseen_tactics.pop() for _ in range(min(size, tactics_in_hands, len(unseen_tactics)))]
        tactics_in_hands -= len(taken)
        taken += [unseen_troops.pop() for _ in range(min(size - len(taken), len(unseen_troops)))]
        hands[key] = taken
    flags, stamps = _flags(v["flags"])
    match = view["state"]["match"]
    return {
        "players": v["players"], "tactics": v["tactics"], "claim_timing": v["claim_timing"],
        "auto_claim": dict(view["options"].get("auto_claim", {})),
        "match": {**match, "seed": rng.getrandbits(64)} if match else None,
        "result": view["result"],
        "hands": hands,
        "decks": {"troop": unseen_troops[:v["decks"].get("troop", 0)],
                  "tactics": unseen_tactics[:v["decks"].get("tactics", 0)]},
        "flags": flags,
        "discards": {k: list(p) for k, p in v["discards"].items()},
        "tactics_played": dict(v["tactics_played"]), "leaders_played": dict(v["leaders_played"]),
        "completions": stamps, "turn_seat": v["turn_seat"], "first_seat_of_game": v["first_seat_of_game"],
        "to_move": view["to_move"], "phase": view["phase"], "turn": v["turn"],
        "passed_this_turn": v["passed_this_turn"], "scouted_this_turn": v["scouted_this_turn"],
        "scout": dict(v["scout"]) if v["scout"] else None, "pending": [dict(p) for p in v["pending"]],
        "passes_in_a_row": v["passes_in_a_row"], "resigned": list(v["resigned"]),
    }


