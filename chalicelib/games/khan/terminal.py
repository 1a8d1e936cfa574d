"""Khan & General on a terminal (the ``battleline`` command line; games/terminal.py): moves in a
section per kind of step (deploy: units → squares and facings; commands; pay; ends), the field as
text after who is who, the hand with each card's power, cost and keywords from the game's card set."""

from __future__ import annotations

from collections import Counter

from ...kernel import i18n
from ...kernel.i18n import N_, _, ngettext
from ..presenters import PRESENTERS, names
from ..terminal import Choice, Terminal, aside, in_order, listed, others, plain_hand, row, yours
from . import story
from .presenter import example_turn
from .cardset import keyword_words, parse_keyword
from .story import KINDS

FACINGS = ("N", "E", "S", "W")
KHAN_PHASES = {
    "setup": N_("place your first unit"),
    "maintenance": N_("maintenance (flip face-down units, discard defence commands), or go on to your actions"),
    "action": N_("your actions: deploy, then command, then pay, then end action"),
    "reaction": N_("the reaction window: play defence commands on your units, or end it"),
    "engagements": N_("the engagements: attack, or end them"),
    "after": N_("the keywords after combat"),
    "recovery": N_("recovery: discard defence commands, then end your turn"),
    "keyword": N_("a keyword waits on your unit: use it or skip it"),
    "advance": N_("a unit was destroyed: advance into its square, or stay"),
}


def _sq(square: dict) -> str:
    return f"({square['x']}, {square['y']})"


def _key(square: dict) -> tuple[int, int]:
    return square["x"], square["y"]


def heading(view: dict) -> str:
    state, you = view["state"], view["you"]
    phase = view["phase"]
    if state.get("pending") and any(p.get("seat") == you for p in state["pending"]) and phase != "after":
        phase = "keyword"
    if state.get("advance"):
        phase = "advance"
    if phase == "maintenance" and not any(s["type"] in ("flip", "discard_defence") for s in view["legal_steps"]):
        phase = "action"  # nothing to maintain: the turn is its actions
    what = _(KHAN_PHASES[phase]) if phase in KHAN_PHASES else phase
    waiting = next((p for p in state.get("pending") or [] if p.get("seat") == you), None)
    if phase == "keyword" and waiting:
        what = _("{keywords} waits on your unit at {at}: use it or skip it").format(
            keywords=i18n.series(waiting["keywords"]), at=_sq(waiting["at"]))
    heading = _("Your move: {what}.").format(what=what)
    if phase in ("maintenance", "action") and you is not None:
        limit = state["limits"].get(str(you), 0)
        heading = i18n.sentences(heading, ngettext("{played} of your {limit} card played this turn.",
                                                   "{played} of your {limit} cards played this turn.", limit).format(
            played=state.get("played", 0), limit=limit))
    return heading


def _facings(found: set[str]) -> str:
    if set(FACINGS) <= found:
        return _("any facing")
    return _("facing {facings}").format(facings=" ".join(f for f in FACINGS if f in found))


def _squares_and_facings(places: dict[tuple[int, int], set[str]]) -> str:
    """Squares by the facings they allow: "(0, 1) (1, 1), any facing; (0, 0), facing E S W"."""
    alike = in_order(list(places), lambda square: tuple(f for f in FACINGS if f in places[square]))
    return "; ".join(f"{' '.join(_sq({'x': x, 'y': y}) for x, y in squares)}, {_facings(places[squares[0]])}"
                     for squares in alike.values())


def choices(view: dict, steps: list[dict]) -> list[Choice]:
    by_type = in_order(steps, lambda s: s["type"])
    choices: list[Choice] = []

    def add(section: str, text: str, found: list[dict]) -> None:
        choices.append(Choice(text, tuple(found), section))

    def at_squares(*kinds: tuple[str, str, str]) -> None:
        """Steps that name only a square, one line a kind: ``flip 0 0 1 0``."""
        for kind, command, meaning in kinds:
            if kind in by_type:
                found = by_type[kind]
                add(_("{command} X Y ({meaning}):").format(command=command, meaning=_(meaning)),
                    " ".join(_sq(s["at"]) for s in found), found)

    if "place" in by_type:
        found = by_type["place"]
        add(_("place UNIT (your first unit, face up):"), " ".join(s["unit"] for s in found), found)
    at_squares(("flip", "flip", N_("a face-down unit of yours face up")),
               ("discard_defence", "discard", N_("the defence command on your unit")))
    if "deploy" in by_type:
        places: dict[str, dict] = {}
        for step in by_type["deploy"]:
            places.setdefault(step["unit"], {}).setdefault(_key(step["at"]), set()).add(step["facing"])
        section = _("deploy UNIT X Y FACING (a unit from your hand, face down):")
        alike = in_order(list(places), lambda unit: tuple(sorted((k, tuple(sorted(v))) for k, v in places[unit].items())))
        for units in alike.values():
            found = [s for s in by_type["deploy"] if s["unit"] in units]
            add(section, f"{', '.join(units)} → {_squares_and_facings(places[units[0]])}", found)
    if "command" in by_type:
        section = _("command CARD X Y [seq N] (a command card onto your unit, paid by a sequence):")
        for card, found in in_order(by_type["command"], lambda s: s["card"]).items():
            add(section, f"{card} → {_commanded(found)}", found)
    if "pay" in by_type:
        section = _("pay CARD [seq N] (a card face down into your command zone):")
        paid: dict[str, list[dict]] = in_order(by_type["pay"], lambda s: s["card"])
        for where, cards in in_order(list(paid), lambda card: tuple(s.get("sequence") for s in paid[card])).items():
            into = [(_("sequence {number}").format(number=n) if n else _("a new sequence")) for n in where]
            either = listed(into, _("or"))  # outside the f-string, where gettext's extractor sees it
            add(section, f"{' '.join(cards)} → {either}",
                [s for card in cards for s in paid[card]])
    if "move" in by_type:
        section = _("move X Y to X Y FACING (the unit's waiting move):")
        for at, found in in_order(by_type["move"], lambda s: _key(s["at"])).items():
            places = {}
            for step in found:
                places.setdefault(_key(step["to"]), set()).add(step["facing"])
            add(section, _("the unit at {at} → {places}").format(at=_sq(found[0]["at"]),
                                                                  places=_squares_and_facings(places)), found)
    if "turn" in by_type:
        section = _("turn X Y FACING (the unit's waiting turn):")
        for at, found in in_order(by_type["turn"], lambda s: _key(s["at"])).items():
            add(section, _("the unit at {at} → {facings}").format(
                at=_sq(found[0]["at"]), facings=_facings({s["facing"] for s in found})), found)
    if "engage" in by_type:
        section = _("engage X Y with X Y, X Y (attack the enemy unit at the first square):")
        by_target = in_order(by_type["engage"], lambda s: _key(s["target"]))
        for attackers, targets in in_order(list(by_target), lambda t: _attackers(by_target[t])).items():
            add(section, _("{targets} with {attackers}").format(
                targets=" ".join(_sq({"x": x, "y": y}) for x, y in targets), attackers=attackers),
                [s for t in targets for s in by_target[t]])
    at_squares(("skip", "skip", N_("leave the waiting keyword unused")),
               ("advance", "advance", N_("move into the destroyed unit's square")))
    bare = [s for s in steps if set(s) == {"type"}]
    if bare:
        choices.append(Choice(" · ".join(PRESENTERS[view["game"]].write_step(s) for s in bare), tuple(bare)))
    return choices + others(view, steps, choices)


def _commanded(found: list[dict]) -> str:
    """Where a command card can go: "(0, 0) or (-2, -2), paid by sequence 1 or 2" when every unit
    may take it from every sequence named."""
    squares = list(dict.fromkeys(_key(s["at"]) for s in found))
    paid = list(dict.fromkeys(s.get("sequence") for s in found))
    units = listed([_sq({"x": x, "y": y}) for x, y in squares], _("or"))
    if len(found) != len(squares) * len(paid):
        return listed([_sq(s["at"]) + (f" seq {s['sequence']}" if s.get("sequence") else "") for s in found],
                       _("or"))
    if paid == [None]:
        return units
    return _("{units}, paid by sequence {sequences}").format(
        units=units, sequences=listed([str(n) for n in paid if n], _("or")))


def _attackers(found: list[dict]) -> str:
    """The attacker groups for one target: "any of (0, 0), (1, 0)" when every group of them may attack."""
    groups = [tuple(sorted(_key(a) for a in s["attackers"])) for s in found]
    squares = sorted({square for group in groups for square in group})
    if len(squares) > 1 and len(set(groups)) == 2 ** len(squares) - 1:
        return _("any of {squares}").format(squares=i18n.series(_sq({"x": x, "y": y}) for x, y in squares))
    return " | ".join(" + ".join(_sq({"x": x, "y": y}) for x, y in group) for group in groups)


# ---------------------------------------------------------------- the field

def board(view: dict, card_set: dict | None = None) -> list[str]:
    """The presenter's text field, after who is who: its seat numbers named."""
    factions = {f["id"]: (f.get("names") or {}).get(i18n.language()) or f["name"]
                for f in (card_set or {}).get("factions", [])}
    legend = []
    for seat in view["seats"]:
        faction = view["state"].get("factions", {}).get(str(seat["seat"]))
        who = yours(seat["name"]) if seat["seat"] == view["you"] else seat["name"]
        legend.append(_("seat {seat} is {who}, {faction}").format(seat=seat["seat"], who=who,
                                                                  faction=_faction(view, faction, factions)))
    sentence = i18n.clauses(legend)
    return [i18n.sentences(sentence[:1].upper() + sentence[1:]), ""] + \
        PRESENTERS[view["game"]].text_board(view["state"], view["you"], names(view), hand=False).rstrip().split("\n")


def _faction(view: dict, faction: str | None, factions: dict) -> str:
    """A faction as the server's card set names it (in English, or its name in the language spoken),
    else in the language spoken as the card set the game's rules know names it ("汗王（骑兵）"), else its id."""
    try:
        known = story.card_set_of(view["state"])
    except Exception:  # a card set this client's rules do not know
        known = None
    if faction in factions and (i18n.language() == "en" or not known):
        return factions[faction]
    return story.faction_name(known, faction or "") if known else factions.get(faction, faction)


def _named(view: dict, card: str) -> list[str]:
    """Outside English, a card's name in the language spoken beside the id typed for it ([] in
    English, where the id is the name)."""
    if i18n.language() == "en":
        return []
    try:
        known = story.card_set_of(view["state"])
    except Exception:  # a card set this client's rules do not know
        return []
    return [story.name_of(known, card, short=False)] if known else []


def _keyword(text: str) -> str:
    """A keyword as the card set writes it ("power +2") in the language spoken ("战斗力+2")."""
    try:
        found = parse_keyword(text)
    except ValueError:
        return text
    return i18n.say(keyword_words(found.name, found.value))


def hand(view: dict, card_set: dict | None = None) -> list[str]:
    """The hand by kind: units with their power, commands with their kind, cost and keywords (from the
    card set the server has; without it, the cards' ids)."""
    cards = view["state"].get("hand") or []
    if view["you"] is None:
        return []
    if not card_set or not cards:
        return plain_hand(view)
    units = {u["id"]: u for u in card_set.get("units", [])}
    commands = {c["id"]: c for c in card_set.get("commands", [])}
    held = Counter(cards)

    def times(card: str) -> str:
        return f"{card} ×{held[card]}" if held[card] > 1 else card

    lines = [ngettext("Your hand ({count} card):", "Your hand ({count} cards):", len(cards)).format(count=len(cards))]
    unit_words = []
    for card in (c for c in held if c in units):
        unit = units[card]
        power = _named(view, card) + [_("power {power}").format(power=unit["base"])] + ([_keyword("ranged")] if unit.get("ranged") else [])
        unit_words.append(times(card) + aside(row(power)))
    if unit_words:
        lines.append("  " + _("units: {units}").format(units=row(unit_words)))
    held_commands = [c for c in held if c in commands]
    if held_commands:
        lines.append("  " + _("commands:"))
    for card in held_commands:
        command = commands[card]
        lines.append("    " + _("{card}: {kind} command, cost {cost}: {keywords}").format(
            card=times(card) + "".join(aside(name) for name in _named(view, card)), kind=_(KINDS.get(command["kind"], command["kind"])), cost=command["cost"],
            keywords=row([_keyword(k) for k in command["keywords"]])))
    other = [times(c) for c in held if c not in units and c not in commands]
    if other:
        lines.append("  " + " ".join(other))
    return lines


def card_set_ref(view: dict) -> dict | None:
    """The id and version of the card set the game was dealt from."""
    return view["state"].get("card_set")


def card_set_path(ref: dict) -> str:
    """getKhanCardSet's path for a card set's id and version."""
    return f"/v1/khan/card-sets/{ref['id']}?version={ref['version']}"


TERMINAL = Terminal(heading=heading, choices=choices, board=board, hand=hand, example=example_turn,
                    card_set_ref=card_set_ref, card_set_path=card_set_path, turn_a_line=False)
