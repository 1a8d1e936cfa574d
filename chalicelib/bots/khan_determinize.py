"""A full Khan & General state that agrees with everything one seat can see (a *determinization*).

What the seat sees is kept as it is: the field (face-up units, every command on a unit, facings,
wounds, grapples), its own hand, deck and face-down units, every count (hands, sequences,
discard piles, units left), destroyed units, and the turn's progress (cards played, stage,
engagements left, waiting keywords, an advance to choose).

What it cannot see is dealt at random, consistently with every count:

* the enemy's deck: the cards it has shown (face-up units, commands on its units, destroyed
  units), completed from its faction's recommended deck in the public card set (a deck of its
  own choosing is unknown; the recommended one is the best guess);
* which of the enemy's unseen units are face down on the field and which are in its hand, and
  which of its unseen commands are in its hand, its sequences and its discard pile;
* with the ``advanced`` rules, its own sequence cards and discard pile (it may not look).

Search bots play such states forward; they never look at the real one.
"""

from __future__ import annotations

import random
from collections import Counter

from ..games.base import seat_key
from ..games.khan.cardset import MAX_SAME_COMMAND, MAX_SAME_UNIT, REGISTRY, CardSet

def _minus(cards: list[str], taken: list[str]) -> list[str]:
    """The multiset ``cards`` without ``taken`` (each taken card once)."""
    left = Counter(taken)
    kept = []
    for card in cards:
        if left[card]:
            left[card] -= 1
        else:
            kept.append(card)
    return kept


def _fill(known: list[str], guess: list[str], wanted: int, spares: list[str], limit: int,
          rng: random.Random) -> list[str]:
    """``wanted`` cards: the known ones, then the guessed deck's others (at random if too many),
    then spare card types (at most ``limit`` of a kind) if the guess runs short."""
    cards = list(known)
    rest = _minus(guess, known)
    rng.shuffle(rest)
    cards += rest[:max(0, wanted - len(cards))]
    while len(cards) < wanted:
        choices = [c for c in spares if cards.count(c) < limit] or spares
        cards.append(rng.choice(choices))
    return cards


def _pile(view_state: dict, key: str) -> tuple[list[list[str] | None], list[int], list[str] | None, int]:
    sequences = view_state["sequences"][key]
    discard = view_state["discards"][key]
    return ([p["cards"] for p in sequences], [p["size"] for p in sequences], discard["cards"], discard["size"])


def enemy_deck(view: dict, cards: CardSet, rng: random.Random) -> list[str]:
    """The enemy's 15 (or so) cards as the seat can best guess them."""
    v = view["state"]
    enemy = 3 - view["you"]
    key = seat_key(enemy)
    faction = v["factions"][key]
    shown_units = [u["unit"] for u in v["field"] if u["seat"] == enemy and u["unit"] is not None]
    shown_units += v["destroyed"][key]
    shown_commands = [u["command"] for u in v["field"] if u["seat"] == enemy and u["command"] is not None]
    _, sizes, _, discard_size = _pile(v, key)
    units_total = v["units_left"][key] + len(v["destroyed"][key])
    on_field = sum(1 for u in v["field"] if u["seat"] == enemy)
    commands_total = (v["hand_sizes"][key] + on_field + len(shown_commands) + sum(sizes) + discard_size
                      + len(v["destroyed"][key]) - units_total)
    guess = list(cards.recommended.get(faction, ()))
    unit_types = sorted(u.id for u in cards.units.values() if u.faction == faction)
    command_types = sorted(c.id for c in cards.commands.values() if c.faction == faction)
    units = _fill(shown_units, [c for c in guess if cards.is_unit(c)], units_total, unit_types, MAX_SAME_UNIT, rng)
    commands = _fill(shown_commands, [c for c in guess if c in cards.commands], commands_total, command_types,
                     MAX_SAME_COMMAND, rng)
    return units + commands


class _Numbers:
    """Deck positions by card id, handed out one at a time (copies of a card are alike)."""

    def __init__(self, deck: list[str]) -> None:
        self.free: dict[str, list[int]] = {}
        for number, card in enumerate(deck):
            self.free.setdefault(card, []).append(number)

    def take(self, card: str) -> int:
        return self.free[card].pop(0)

    def rest(self) -> list[int]:
        return sorted(n for numbers in self.free.values() for n in numbers)


def determinize(view: dict, rng: random.Random) -> dict:
    """A state consistent with the seat's view (``view``: a seat's game view, as the bots get it)."""
    v = view["state"]
    seat = view["you"]
    enemy = 3 - seat
    ref = v["card_set"]
    cards = REGISTRY.get(ref["id"], ref["version"])
    decks = {seat: list(v["deck"]), enemy: enemy_deck(view, cards, rng)}
    numbers = {s: _Numbers(decks[s]) for s in (seat, enemy)}

    # The field: each unit gets a deck number of its type (dealt for face-down enemies below).
    hidden_enemies = []
    field = []
    for u in v["field"]:
        unit = {"seat": u["seat"], "card": None, "x": u["x"], "y": u["y"], "facing": u["facing"], "up": u["face_up"],
                "wounded": u["wounded"], "command": None, "grappled_by": []}
        if u["unit"] is not None:
            unit["card"] = numbers[u["seat"]].take(u["unit"])
        else:
            hidden_enemies.append(unit)
        if u["command"] is not None:
            unit["command"] = numbers[u["seat"]].take(u["command"])
        field.append(unit)
    destroyed = {seat_key(s): [numbers[s].take(c) for c in v["destroyed"][seat_key(s)]] for s in (seat, enemy)}
    hands: dict[str, list[int]] = {}
    sequences: dict[str, list[list[int]]] = {}
    discards: dict[str, list[int]] = {}

    # Own cards: the hand is known; sequences and discards too, unless the advanced rules hide them.
    key = seat_key(seat)
    hands[key] = [numbers[seat].take(c) for c in v["hand"]]
    seq_cards, seq_sizes, discard_cards, discard_size = _pile(v, key)
    known_own = [c for pile in seq_cards if pile is not None for c in pile] + (discard_cards or [])
    hidden_own = _minus([decks[seat][n] for n in numbers[seat].rest()], known_own)
    rng.shuffle(hidden_own)
    sequences[key] = [[numbers[seat].take(c) for c in (pile if pile is not None else
                                                       [hidden_own.pop() for _ in range(size)])]
                      for pile, size in zip(seq_cards, seq_sizes)]
    discards[key] = [numbers[seat].take(c) for c in (discard_cards if discard_cards is not None else
                                                     [hidden_own.pop() for _ in range(discard_size)])]

    # The enemy's unseen cards: units to its face-down units and hand, commands to hand, sequences, discard.
    key = seat_key(enemy)
    unseen = numbers[enemy].rest()
    unit_numbers = [n for n in unseen if cards.is_unit(decks[enemy][n])]
    command_numbers = [n for n in unseen if not cards.is_unit(decks[enemy][n])]
    rng.shuffle(unit_numbers)
    rng.shuffle(command_numbers)
    for unit in hidden_enemies:
        unit["card"] = unit_numbers.pop()
    _, seq_sizes, _, discard_size = _pile(v, key)
    sequences[key] = [[command_numbers.pop() for _ in range(size)] for size in seq_sizes]
    discards[key] = [command_numbers.pop() for _ in range(discard_size)]
    hands[key] = sorted(unit_numbers + command_numbers)

    # Grapples, the turn: units are known by their keys now.
    at = {(u["x"], u["y"]): u for u in field}

    def uid(square: dict) -> str:
        unit = at[(square["x"], square["y"])]
        return f"{unit['seat']}:{unit['card']}"

    for u, unit in zip(v["field"], field):
        unit["grappled_by"] = [uid(g) for g in u["grappled_by"]]
    activations, engaged = {}, []
    for unit, u in zip(field, v["field"]):
        command = cards.commands.get(u["command"]) if u["command"] else None
        if u["activations_left"] is not None and command is not None:
            used = max(0, (command.value("activate") or 1) - u["activations_left"])
            if used:
                activations[f"{unit['seat']}:{unit['card']}"] = used
                engaged.append(f"{unit['seat']}:{unit['card']}")
    pending = []
    for entry in v["pending"]:
        unit = at[(entry["at"]["x"], entry["at"]["y"])]
        command = cards.commands.get(decks[unit["seat"]][unit["command"]]) if unit["command"] is not None else None
        keywords = [[w.split()[0], int(w.split()[1]) if len(w.split()) > 1 else None] for w in entry["keywords"]]
        pending.append({"unit": uid(entry["at"]), "seat": entry["seat"], "keywords": keywords,
                        "attack": command is not None and command.kind == "attack"})
    advance = None
    if v["advance"] is not None:
        advance = {"to": [v["advance"]["to"]["x"], v["advance"]["to"]["y"]],
                   "units": [uid(s) for s in v["advance"]["from"]]}
    turn = {"played": v["played"], "stage": v["stage"], "activations": activations,
            "hits": {uid(a): a["times"] for a in v["attacked"]}, "engaged": engaged,
            "committed": [uid(s) for s in v["must_attack"]], "pending": pending, "advance": advance}
    if v["stage"] == "pay":
        turn["paid"] = True
    return {
        "card_set": {"id": cards.id, "version": cards.version, "digest": cards.digest},
        "seats": {seat_key(s): {"faction": v["factions"][seat_key(s)], "deck": decks[s]} for s in (1, 2)},
        "first": v["first_seat"], "max_rounds": v["max_rounds"], "advanced": v["advanced"], "round": v["round"],
        "marker": v["marker"], "active": v["active"], "to_move": view["to_move"], "phase": view["phase"],
        "hands": {k: hands[k] for k in ("1", "2")}, "discards": {k: discards[k] for k in ("1", "2")},
        "sequences": {k: sequences[k] for k in ("1", "2")}, "field": field,
        "destroyed": {k: destroyed[k] for k in ("1", "2")}, "turn": turn, "draw_offer": v["draw_offer"],
        "result": view["result"],
    }
