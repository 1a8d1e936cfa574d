"""Your moves as a player reads them: grouped, never one line a step.

A view's ``legal_steps`` lists every step one by one (64 plays on Battle Line's first turn, 84
deployments on a Khan & General turn). Here they are grouped the way the game is thought: in
Battle Line a line per card with the flags it can go to (``7R → flags 1 2 3 5 8``), a tactic
with its targets; in Khan & General a section per kind of step (deploy: units → squares and
facings; commands; pay; ends). A short decision (a claim, a draw) is numbered instead, and
``battleline play GAME 2`` takes the number. Every choice keeps the steps it stands for, so a
test can check that nothing legal is left out.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from chalicelib.games.battleline.story import card_name
from chalicelib.games.presenters import PRESENTERS
from chalicelib import i18n
from chalicelib.i18n import N_, _, ngettext

from .settings import columns

WIDTH = 110  # a move line longer than this is wrapped
UNBROKEN = re.compile(r"\(-?\d+, -?\d+\)|any facing|facing [NESW](?: [NESW])*")  # never cut across lines
NUMBERED_AT_MOST = 6  # a decision with this many steps or fewer is listed one numbered step a line


@dataclass(frozen=True)
class Choice:
    """One line of moves, under its section's heading (None: a line of its own)."""

    text: str
    steps: tuple[dict, ...]
    section: str | None = None


@dataclass(frozen=True)
class Moves:
    heading: str
    choices: list[Choice]
    numbered: list[dict] = field(default_factory=list)  # the numbered steps, when the decision is short

    def lines(self, write: Callable[[dict], str]) -> list[str]:
        lines = [self.heading]
        if self.numbered:
            return lines + [f"  {number}. {write(step)}" for number, step in enumerate(self.numbered, start=1)]
        section = None
        for choice in self.choices:
            if choice.section != section and choice.section is not None:
                lines.append(f"  {choice.section}")
            section = choice.section
            indent = "    " if section else "  "
            first, *more = choice.text.split("\n")
            lines += _wrapped(indent + first, indent + "    ") + [
                line for text in more for line in _wrapped(indent + "    " + text, indent + "    ")]
        return lines


def _wrapped(line: str, indent: str, width: int = WIDTH) -> list[str]:
    """A long line (a unit's 22 squares) in lines of ``width``, the rest under its start."""
    if columns(line) <= width:
        return [line]
    kept = UNBROKEN.sub(lambda m: m.group(0).replace(" ", "\0"), line)
    return [part.replace("\0", " ") for part in textwrap.wrap(
        kept, width=width, subsequent_indent=indent, break_on_hyphens=False, break_long_words=False)]


def playable(view: dict) -> list[dict]:
    """The steps a move may be chosen from: resigning is its own command, never a number or a line."""
    return [step for step in view["legal_steps"] if step["type"] != "resign"]


def your_moves(view: dict) -> Moves:
    steps = playable(view)
    grouped = (battleline_choices if view["game"] == "battleline" else khan_choices)(view, steps)
    heading = (battleline_heading if view["game"] == "battleline" else khan_heading)(view)
    numbered = steps if len(steps) <= NUMBERED_AT_MOST and not _grouped_anyway(view) else []
    return Moves(heading, grouped, numbered)


def _grouped_anyway(view: dict) -> bool:
    """Battle Line's card plays read best as card → flags, however few."""
    return view["game"] == "battleline" and view["phase"] == "play"


def _in_order(steps: list[dict], key: Callable[[dict], object]) -> dict:
    """The steps by ``key``, keys in the order first seen."""
    found: dict = {}
    for step in steps:
        found.setdefault(key(step), []).append(step)
    return found


def _listed(words: list[str], last: str | None = None) -> str:
    """``a, b, or c`` as the language writes it (CLDR's "or" list: "a、b或c", "a、b、またはc"); with no
    ``last``, a plain row: "a, b, c" ("a、b、c")."""
    if len(words) < 2:
        return "".join(words)
    if last is None:
        return ("、" if i18n.full_width() else ", ").join(words)
    return i18n.either(words)


# ---------------------------------------------------------------- Battle Line

TACTIC_RULES = {
    "ALEXANDER": N_("a leader, any colour and value; one leader each"),
    "DARIUS": N_("a leader, any colour and value; one leader each"),
    "COMPANION": N_("an 8 of any colour"),
    "SHIELD": N_("a 1, 2 or 3 of any colour"),
    "FOG": N_("the higher total wins the flag, formations do not count"),
    "MUD": N_("four cards a side at the flag"),
    "SCOUT": N_("draw three cards, then put two back"),
    "REDEPLOY": N_("move a card of yours to another flag, or discard it"),
    "DESERTER": N_("discard a card of your opponent's"),
    "TRAITOR": N_("take a troop of your opponent's to your side"),
}
PHASE_ORDER = {"basic": ("play", "claim", "draw"), "start": ("claim", "play", "draw"), "end": ("play", "draw", "claim")}
BATTLELINE_PHASES = {
    "play": N_("play a card"), "claim": N_("claim flags"), "draw": N_("draw a card"),
    "scout_draw": N_("Scout: draw a card"), "scout_return": N_("Scout: put cards back on the decks"),
    "mud_discard": N_("Mud left a flag: discard a card there"),
}


def _flags(numbers: list[int]) -> str:
    return ngettext("flag {flags}", "flags {flags}", len(numbers)).format(flags=" ".join(map(str, numbers)))


def _explained(card: str, example: str) -> str:
    """A tactic's rule and an example of its command, for the line under its targets."""
    return _("{name}: {rule}; e.g. {example}").format(name=card_name(card), rule=_(TACTIC_RULES[card]),
                                                      example=example)


def _rule(card: str) -> str:
    return " " + _("({name}: {rule})").format(name=card_name(card), rule=_(TACTIC_RULES[card])) \
        if card in TACTIC_RULES else ""


def battleline_heading(view: dict) -> str:
    """What the decision is, and the rest of the turn after it."""
    phase = view["phase"]
    order = PHASE_ORDER.get(view["state"].get("claim_timing", "basic"), PHASE_ORDER["basic"])
    if phase not in order:
        return _("Your move: {what}.").format(what=_(BATTLELINE_PHASES.get(phase, phase)))
    turn = [_(BATTLELINE_PHASES[p]) for p in order[order.index(phase):]]
    return _("Your move: {steps}.").format(steps=_(", then ").join(turn))


def battleline_choices(view: dict, steps: list[dict]) -> list[Choice]:
    choices: list[Choice] = []
    plays = [s for s in steps if s["type"] == "play"]
    placed = _in_order([s for s in plays if "flag" in s], lambda s: s["card"])
    if placed:
        width = max(len(card) for card in placed)
        section = _("play CARD FLAG:")
        for card, found in placed.items():
            choices.append(Choice(f"{card:<{width}} → {_flags([s['flag'] for s in found])}{_rule(card)}",
                                  tuple(found), section))
    section = _("play a tactics card on the table (as in the example):")
    for card, found in _in_order([s for s in plays if "flag" not in s], lambda s: s["card"]).items():
        if card == "SCOUT":
            choices.append(Choice(f"SCOUT\n{_explained(card, 'play SCOUT')}", tuple(found), section))
        elif card == "DESERTER":
            example = f"play DESERTER {found[0]['target']['flag']} {found[0]['target']['card']}"
            choices.append(Choice(_("{card} → {targets}").format(card=card, targets=_targets([s["target"] for s in found]))
                                  + "\n" + _explained(card, example), tuple(found), section))
        else:  # TRAITOR, REDEPLOY: a target, then where it goes
            choices += _moved_targets(card, found, section)
    if view["phase"] == "play":
        choices += _tactics_held_back(view, plays)
    passes = [s for s in steps if s["type"] == "pass"]
    if passes:
        choices.append(Choice(_("pass (you have no troop you can play)"), tuple(passes)))
    claims = [s for s in steps if s["type"] == "claim"]
    if claims:
        choices.append(_claim_choice(claims))
    for kind, command in (("draw", "draw"), ("scout_draw", "scout")):
        draws = [s for s in steps if s["type"] == kind]
        if draws:
            decks = view["state"]["decks"]
            choices.append(Choice(" · ".join(
                ngettext("{command} {deck} ({count} card left)", "{command} {deck} ({count} cards left)",
                         decks[s["deck"]]).format(command=command, deck=s["deck"], count=decks[s["deck"]])
                for s in draws), tuple(draws)))
    returns = [s for s in steps if s["type"] == "scout_return"]
    if returns:
        count = len(returns[0]["cards"])
        cards = list(dict.fromkeys(c for s in returns for c in s["cards"]))
        choices.append(Choice(ngettext(
            "return CARD: one of {cards}", "return CARD CARD: {count} of {cards} (the last one named goes on top)",
            count).format(count=count, cards=" ".join(cards)), tuple(returns)))
    for flag, found in _in_order([s for s in steps if s["type"] == "mud_discard"], lambda s: s["flag"]).items():
        choices.append(Choice(_("mud {flag} CARD: one of {cards}").format(
            flag=flag, cards=" ".join(s["card"] for s in found)), tuple(found)))
    return choices + _others(view, steps, choices)


def _tactics_held_back(view: dict, plays: list[dict]) -> list[Choice]:
    """The tactics cards you hold but may not play now, and why: a player sees them in the hand."""
    state, you = view["state"], view["you"]
    playable_now = {s["card"] for s in plays}
    held = [c for c in dict.fromkeys(state.get("hand") or []) if c in TACTIC_RULES and c not in playable_now]
    if not held or you is None:
        return []
    played = state.get("tactics_played") or {}
    mine = played.get(str(you), 0)
    others = [n for seat, n in played.items() if seat != str(you)]
    if others and mine > min(others):
        opponent = next((s["name"] for s in view.get("seats", []) if s["seat"] != you), None)
        why = _("you are a tactics card ahead of {opponent}").format(opponent=opponent or _("your opponent"))
    elif all(c in ("ALEXANDER", "DARIUS") for c in held) and (state.get("leaders_played") or {}).get(str(you)):
        why = _("you have played your leader: a second one stays in your hand")
    else:
        why = _("nowhere to play them now")
    return [Choice(_("Not now: {cards} ({why})").format(cards=" ".join(held), why=why), ())]


def _targets(targets: list[dict]) -> str:
    """Cards on the table by flag: "flag 1: 3G · flag 4: 5P COMPANION"."""
    by_flag = _in_order(targets, lambda t: t["flag"])
    return " · ".join(_("flag {flag}: {cards}").format(flag=flag, cards=" ".join(t["card"] for t in found))
                      for flag, found in by_flag.items())


def _moved_targets(card: str, found: list[dict], section: str) -> list[Choice]:
    """TRAITOR and REDEPLOY: the targets that can go to the same places, a line each (REDEPLOY's
    card cannot stay on its own flag: targets are alike when they may go to the same flags but
    their own)."""
    def where(step: dict) -> int | None:
        return None if step.get("discard") or step.get("to_flag") is None else step["to_flag"]

    def places(target: tuple[int, str]) -> tuple:
        numbers = {where(s) for s in by_target[target]} - {None}
        if card == "REDEPLOY":
            numbers.add(target[0])
        return tuple(sorted(numbers)), any(where(s) is None for s in by_target[target])

    by_target = _in_order(found, lambda s: (s["target"]["flag"], s["target"]["card"]))
    choices = []
    for (numbers, discard), targets in _in_order(list(by_target), places).items():
        dest = (_("another of {flags}") if card == "REDEPLOY" else "{flags}").format(flags=_flags(list(numbers))) \
            if numbers else ""
        if discard:
            dest = _("{flags} or the discard pile").format(flags=dest) if dest else _("the discard pile")
        group = by_target[targets[0]]
        first = next((s for s in group if where(s) is not None), group[0])  # moving it, the likelier example
        example = f"play {card} {first['target']['flag']} {first['target']['card']} {where(first) or 'discard'}"
        choices.append(Choice(_("{card} → {targets}, to {places}").format(
            card=card, targets=_targets([{"flag": f, "card": c} for f, c in targets]), places=dest)
            + "\n" + _explained(card, example), tuple(s for t in targets for s in by_target[t]), section))
    return choices


def _claim_choice(claims: list[dict]) -> Choice:
    written = ["claim " + (" ".join(map(str, s["flags"])) or "none") for s in claims]
    return Choice(" · ".join(written), tuple(claims))


def _others(view: dict, steps: list[dict], choices: list[Choice]) -> list[Choice]:
    """Any step no group took (a step type added later): written as its command, each on a line."""
    taken = {id(s) for c in choices for s in c.steps}
    return [Choice(PRESENTERS[view["game"]].write_step(s), (s,)) for s in steps if id(s) not in taken]


# ---------------------------------------------------------------- Khan & General

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


def khan_heading(view: dict) -> str:
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
    alike = _in_order(list(places), lambda square: tuple(f for f in FACINGS if f in places[square]))
    return "; ".join(f"{' '.join(_sq({'x': x, 'y': y}) for x, y in squares)}, {_facings(places[squares[0]])}"
                     for squares in alike.values())


def khan_choices(view: dict, steps: list[dict]) -> list[Choice]:
    by_type = _in_order(steps, lambda s: s["type"])
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
        alike = _in_order(list(places), lambda unit: tuple(sorted((k, tuple(sorted(v))) for k, v in places[unit].items())))
        for units in alike.values():
            found = [s for s in by_type["deploy"] if s["unit"] in units]
            add(section, f"{', '.join(units)} → {_squares_and_facings(places[units[0]])}", found)
    if "command" in by_type:
        section = _("command CARD X Y [seq N] (a command card onto your unit, paid by a sequence):")
        for card, found in _in_order(by_type["command"], lambda s: s["card"]).items():
            add(section, f"{card} → {_commanded(found)}", found)
    if "pay" in by_type:
        section = _("pay CARD [seq N] (a card face down into your command zone):")
        paid: dict[str, list[dict]] = _in_order(by_type["pay"], lambda s: s["card"])
        for where, cards in _in_order(list(paid), lambda card: tuple(s.get("sequence") for s in paid[card])).items():
            into = [(_("sequence {number}").format(number=n) if n else _("a new sequence")) for n in where]
            either = _listed(into, _("or"))  # outside the f-string, where gettext's extractor sees it
            add(section, f"{' '.join(cards)} → {either}",
                [s for card in cards for s in paid[card]])
    if "move" in by_type:
        section = _("move X Y to X Y FACING (the unit's waiting move):")
        for at, found in _in_order(by_type["move"], lambda s: _key(s["at"])).items():
            places = {}
            for step in found:
                places.setdefault(_key(step["to"]), set()).add(step["facing"])
            add(section, _("the unit at {at} → {places}").format(at=_sq(found[0]["at"]),
                                                                  places=_squares_and_facings(places)), found)
    if "turn" in by_type:
        section = _("turn X Y FACING (the unit's waiting turn):")
        for at, found in _in_order(by_type["turn"], lambda s: _key(s["at"])).items():
            add(section, _("the unit at {at} → {facings}").format(
                at=_sq(found[0]["at"]), facings=_facings({s["facing"] for s in found})), found)
    if "engage" in by_type:
        section = _("engage X Y with X Y, X Y (attack the enemy unit at the first square):")
        by_target = _in_order(by_type["engage"], lambda s: _key(s["target"]))
        for attackers, targets in _in_order(list(by_target), lambda t: _attackers(by_target[t])).items():
            add(section, _("{targets} with {attackers}").format(
                targets=" ".join(_sq({"x": x, "y": y}) for x, y in targets), attackers=attackers),
                [s for t in targets for s in by_target[t]])
    at_squares(("skip", "skip", N_("leave the waiting keyword unused")),
               ("advance", "advance", N_("move into the destroyed unit's square")))
    bare = [s for s in steps if set(s) == {"type"}]
    if bare:
        choices.append(Choice(" · ".join(PRESENTERS["khan"].write_step(s) for s in bare), tuple(bare)))
    return choices + _others(view, steps, choices)


def _commanded(found: list[dict]) -> str:
    """Where a command card can go: "(0, 0) or (-2, -2), paid by sequence 1 or 2" when every unit
    may take it from every sequence named."""
    squares = list(dict.fromkeys(_key(s["at"]) for s in found))
    paid = list(dict.fromkeys(s.get("sequence") for s in found))
    units = _listed([_sq({"x": x, "y": y}) for x, y in squares], _("or"))
    if len(found) != len(squares) * len(paid):
        return _listed([_sq(s["at"]) + (f" seq {s['sequence']}" if s.get("sequence") else "") for s in found],
                       _("or"))
    if paid == [None]:
        return units
    return _("{units}, paid by sequence {sequences}").format(
        units=units, sequences=_listed([str(n) for n in paid if n], _("or")))


def _attackers(found: list[dict]) -> str:
    """The attacker groups for one target: "any of (0, 0), (1, 0)" when every group of them may attack."""
    groups = [tuple(sorted(_key(a) for a in s["attackers"])) for s in found]
    squares = sorted({square for group in groups for square in group})
    if len(squares) > 1 and len(set(groups)) == 2 ** len(squares) - 1:
        return _("any of {squares}").format(squares=i18n.series(_sq({"x": x, "y": y}) for x, y in squares))
    return " | ".join(" + ".join(_sq({"x": x, "y": y}) for x, y in group) for group in groups)
