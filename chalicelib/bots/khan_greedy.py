"""The greedy Khan & General bot: every decision scored one step ahead from its own view.

It flips its units, brings them towards the enemy, lays attack commands on units that have
(or can reach) an enemy in range, pays costs so that its sequences keep a command affordable,
shields threatened units in the reaction window, and fights the engagement that hurts most.
It reads the cards from the game's card set (public) and the field as its seat sees it: a
face-down enemy counts as an average unit.
"""

from __future__ import annotations

import random

from ..games.khan.cardset import REGISTRY, CardSet
from ..games.khan.grid import area, front
from . import playing

UNKNOWN_POWER = 3  # a face-down enemy, as far as the bot can tell


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class Field:
    """The bot's reading of its view."""

    def __init__(self, view: dict) -> None:
        self.state = view["state"]
        self.seat = view["you"]
        ref = self.state["card_set"]
        self.cards: CardSet = REGISTRY.get(ref["id"], ref["version"])
        self.units = {(u["x"], u["y"]): u for u in self.state["field"]}
        self.enemies = [u for u in self.state["field"] if u["seat"] != self.seat]
        self.mine = [u for u in self.state["field"] if u["seat"] == self.seat]
        self.enemy_squares = {(e["x"], e["y"]) for e in self.enemies}
        self._read: dict[tuple[int, int], tuple[int, str]] = {}  # a square's answers, asked once a decision

    def unit(self, square: dict) -> dict | None:
        return self.units.get((square["x"], square["y"]))

    def nearest_enemy(self, square: tuple[int, int]) -> int:
        return self.reading(square)[0]

    def facing_towards(self, square: tuple[int, int]) -> str:
        return self.reading(square)[1]

    def reading(self, square: tuple[int, int]) -> tuple[int, str]:
        """The distance to the nearest enemy (0 with none), and the facing towards it (the first of the
        nearest, in the field's order): found once a square a decision."""
        found = self._read.get(square)
        if found is None:
            if not self.enemies:
                found = (0, "N" if self.seat == self.state["first_seat"] else "S")
            else:
                best, target = None, None
                for e in self.enemies:
                    d = abs(square[0] - e["x"]) + abs(square[1] - e["y"])
                    if best is None or d < best:
                        best, target = d, e
                dx, dy = target["x"] - square[0], target["y"] - square[1]
                if abs(dx) >= abs(dy):
                    found = (best, "E" if dx > 0 else "W")
                else:
                    found = (best, "N" if dy > 0 else "S")
            self._read[square] = found
        return found

    def reaches(self, square: tuple[int, int], facing: str, unit_type: str, command: str) -> list[dict]:
        """Enemies a unit of this type would have in range with this attack card."""
        kind = self.cards.units[unit_type]
        card = self.cards.commands[command]
        found = []
        if card.has("melee") and kind.melee:
            found += [e for e in self.enemies if (e["x"], e["y"]) == front(square, facing)]
        if card.has("ranged") and kind.ranged is not None:
            zone = area(square, facing, kind.ranged.offsets())
            found += [e for e in self.enemies if (e["x"], e["y"]) in zone]
        return found

    def threatened(self, unit: dict) -> bool:
        """Does an enemy face it from next door (or could shoot at it)?"""
        here = (unit["x"], unit["y"])
        return any(distance(here, (e["x"], e["y"])) <= 2 for e in self.enemies)

    def power(self, unit: dict) -> int:
        return unit["power"] if unit["power"] is not None else UNKNOWN_POWER


def score(field: Field, step: dict) -> float:
    kind = step["type"]
    if kind in ("move", "turn"):  # first: the most numerous steps of a playout
        at = step["at"]
        to = step.get("to", at)
        square = (to["x"], to["y"])
        nearest, towards = field.reading(square)
        face_enemy = front(square, step["facing"]) in field.enemy_squares
        return 10.0 - nearest + (6.0 if face_enemy else 0.0) + \
            (1.0 if step["facing"] == towards else 0.0) + (0.0 if (at["x"], at["y"]) in field.units else -1.0)
    if kind == "place":
        return field.cards.units[step["unit"]].base
    if kind == "flip":
        return 50.0
    if kind == "deploy":
        square = (step["at"]["x"], step["at"]["y"])
        facing_bonus = 2.0 if step["facing"] == field.facing_towards(square) else 0.0
        return 30.0 - 2 * field.nearest_enemy(square) + facing_bonus + field.cards.units[step["unit"]].base / 10
    if kind == "command":
        unit = field.unit(step["at"])
        card = field.cards.commands[step["card"]]
        here = (unit["x"], unit["y"])
        if card.kind == "attack":
            targets = field.reaches(here, unit["facing"], unit["unit"], card.id)
            charges = any(k.name == "mobility" for k in card.split()[0])  # it may move before it strikes
            if targets:
                return 40.0 + card.power + 0.1 * card.cost
            if charges and field.nearest_enemy(here) <= card.value("mobility") + 1:
                return 25.0 + card.power
            return -5.0
        if card.kind == "move":
            return 15.0 + min(card.value("mobility"), field.nearest_enemy(here)) if field.enemies else 5.0
        return 18.0 + card.power if field.threatened(unit) else 1.0 + card.power / 10
    if kind == "pay":
        sizes = [p["size"] for p in field.state["sequences"][str(field.seat)]]
        into = sizes[step["sequence"] - 1] if step.get("sequence") else 0
        # Sequences of 1 and 2 pay most commands; never bury a card in a long one.
        return (8.0 if into < 2 else -2.0) - 0.1 * field.cards.commands[step["card"]].power
    if kind == "skip":
        return 0.5
    if kind == "engage":
        target = field.unit(step["target"])
        attack = sum(field.power(field.unit(a)) for a in step["attackers"])
        defence = field.power(target)
        if attack > 2 * defence or (attack > defence and target["wounded"]):
            return 60.0 + defence
        if attack > defence:
            return 45.0 + defence - len(step["attackers"])
        return -10.0
    if kind == "advance":
        return 5.0
    if kind == "stay":
        return 4.0
    if kind == "end_action":
        return 0.0
    if kind in ("end_reaction", "end_engagements"):
        return 0.0
    if kind == "end_turn":
        return -1.0
    if kind == "discard_defence":
        return -3.0
    return -20.0


class Greedy:
    name = "greedy"

    def choose(self, view: dict, rng: random.Random) -> dict:
        steps = playing(view["legal_steps"])
        field = Field(view)
        best, best_key = None, None
        for step in steps:  # max(steps, key=(score, rng.random())), without a call a step
            key = (score(field, step), rng.random())
            if best_key is None or key > best_key:
                best, best_key = step, key
        if best is None:
            raise ValueError("no step to choose from")
        return best

