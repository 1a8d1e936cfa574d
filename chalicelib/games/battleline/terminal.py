"""Battle Line on a terminal (the ``battleline`` command line; games/terminal.py): moves grouped
the way the game is thought (a line per card with the flags it can go to, ``7R → flags 1 2 3 5 8``;
a tactic with its targets and its rule), the nine flags a line each, the hand with what each tactics
card stands for, troops in their colours."""

from __future__ import annotations

import os
import re

import click

from ...kernel import i18n
from ...kernel.i18n import N_, _, ngettext
from ..presenters import names
from ..terminal import Choice, Terminal, columns, in_order, name_of, others, pad, plain_hand, seat_name, yours
from .presenter import example_turn
from .setup import PHASE_ORDER
from .story import TACTIC_RULES, card_name, described, tactic_rule

BATTLELINE_PHASES = {
    "play": N_("play a card"), "claim": N_("claim flags"), "draw": N_("draw a card"),
    "scout_draw": N_("Scout: draw a card"), "scout_return": N_("Scout: put cards back on the decks"),
    "mud_discard": N_("Mud left a flag: discard a card there"),
}


def _flags(numbers: list[int]) -> str:
    return ngettext("flag {flags}", "flags {flags}", len(numbers)).format(flags=" ".join(map(str, numbers)))


def _explained(card: str, example: str) -> str:
    """A tactic's rule and an example of its command, for the line under its targets."""
    return _("{name}: {rule}; e.g. {example}").format(name=card_name(card), rule=tactic_rule(card),
                                                      example=example)


def _rule(card: str) -> str:
    return " " + _("({name}: {rule})").format(name=card_name(card), rule=tactic_rule(card)) \
        if card in TACTIC_RULES else ""


def heading(view: dict) -> str:
    """What the decision is, and the rest of the turn after it."""
    phase = view["phase"]
    order = PHASE_ORDER.get(view["state"].get("claim_timing", "basic"), PHASE_ORDER["basic"])
    if phase not in order:
        return _("Your move: {what}.").format(what=_(BATTLELINE_PHASES.get(phase, phase)))
    turn = [_(BATTLELINE_PHASES[p]) for p in order[order.index(phase):]]
    return _("Your move: {steps}.").format(steps=_(", then ").join(turn))


def choices(view: dict, steps: list[dict]) -> list[Choice]:
    choices: list[Choice] = []
    plays = [s for s in steps if s["type"] == "play"]
    placed = in_order([s for s in plays if "flag" in s], lambda s: s["card"])
    if placed:
        width = max(len(card) for card in placed)
        section = _("play CARD FLAG:")
        for card, found in placed.items():
            choices.append(Choice(f"{card:<{width}} → {_flags([s['flag'] for s in found])}{_rule(card)}",
                                  tuple(found), section))
    section = _("play a tactics card on the table (as in the example):")
    for card, found in in_order([s for s in plays if "flag" not in s], lambda s: s["card"]).items():
        if card == "SCOUT":
            choices.append(Choice(f"SCOUT\n{_explained(card, 'play SCOUT')}", tuple(found), section))
        elif card == "DESERTER":
            example = f"play DESERTER {found[0]['target']['flag']} {found[0]['target']['card']}"
            choices.append(Choice(_("{card} → {targets}").format(card=card, targets=_targets([s["target"] for s in found]))
                                  + "\n" + _explained(card, example), tuple(found), section))
        else:  # TRAITOR, REDEPLOY: a target, then where it goes
            choices += _moved_targets(card, found, section)
    if view["phase"] == "play":
        choices += _tactics_held_back(view)
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
    for flag, found in in_order([s for s in steps if s["type"] == "mud_discard"], lambda s: s["flag"]).items():
        choices.append(Choice(_("mud {flag} CARD: one of {cards}").format(
            flag=flag, cards=" ".join(s["card"] for s in found)), tuple(found)))
    return choices + others(view, steps, choices)


def _tactics_held_back(view: dict) -> list[Choice]:
    """The cards you hold but may not play now, each with the rule that keeps it in hand, as the emails and
    the board page say it (``Presenter.not_playable``): a player sees them in the hand."""
    from .presenter import PRESENTER

    return [Choice(line, ()) for line in PRESENTER.not_playable(view)]


def _targets(targets: list[dict]) -> str:
    """Cards on the table by flag: "flag 1: 3G · flag 4: 5P COMPANION"."""
    by_flag = in_order(targets, lambda t: t["flag"])
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

    by_target = in_order(found, lambda s: (s["target"]["flag"], s["target"]["card"]))
    choices = []
    for (numbers, discard), targets in in_order(list(by_target), places).items():
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


# ---------------------------------------------------------------- the table

def board(view: dict, card_set: dict | None = None) -> list[str]:
    """The nine flags, a line each: the opponent's side, then yours, under their names; Fog and Mud
    by name; a claimed flag with its winner's name; a flag you can claim now marked."""
    state, you = view["state"], view["you"]
    claimable = set(state.get("claimable") or [])

    def sides(flag: dict) -> tuple[int, int]:
        """(the seat on the left, the seat on the right): yours on the right; a spectator sees seat 1's."""
        seats = flag["seats"]
        right = you if you in seats else (1 if 1 in seats else seats[0])
        return next(s for s in seats if s != right), right

    def cards(flag: dict, seat: int) -> str:
        return " ".join(flag["cards"][flag["seats"].index(seat)]) or "-"

    rows = []
    for flag in state["flags"]:
        left, right = sides(flag)
        label = _("flag {number}").format(number=flag["flag"])
        ground = " ".join(card_name(e) for e in flag["environment"])
        note = ""
        if flag["claimed_by"]:
            note = _("won by {name}").format(name=name_of(view, flag["claimed_by"]))
        elif flag["flag"] in claimable:
            note = _("you can claim it")
        rows.append((label, ground, left, cards(flag, left), right, cards(flag, right), note))
    two = len({s for row in rows for s in (row[2], row[4])}) == 2
    # Widths in terminal columns: 地区 1 and フラッグ1 take more than their characters.
    label_w = max(columns(r[0]) + (columns(r[1]) + 1 if r[1] else 0) for r in rows)
    if two:
        left_seat, right_seat = rows[0][2], rows[0][4]
        left_name = seat_name(view, left_seat)
        right_name = yours(names(view).get(right_seat, "?")) if right_seat == you else names(view).get(right_seat, "?")
        left_w = max([columns(left_name)] + [columns(r[3]) for r in rows])
        lines = [f"{pad('', label_w)}  {pad(left_name, left_w)}   {right_name}"]
        for label, ground, _l, theirs, _r, mine, note in rows:
            where = f"{label} {ground}" if ground else label
            lines.append(f"{pad(where, label_w)}  {pad(theirs, left_w)} | {pad(mine, 12)}  {note}".rstrip())
        return lines
    lines = []
    for label, ground, left, theirs, right, mine, note in rows:  # three players: each flag names its two sides
        where = f"{label} {ground}" if ground else label
        lines.append((pad(where, label_w) + "  " + _("{name}: {cards}").format(name=name_of(view, left), cards=theirs)
                      + " | " + _("{name}: {cards}").format(name=name_of(view, right), cards=mine)
                      + f"  {note}").rstrip())
    return lines


def grouped_anyway(view: dict) -> bool:
    """Battle Line's card plays read best as card → flags, however few."""
    return view["phase"] == "play"


def hand(view: dict, card_set: dict | None = None) -> list[str]:
    """The hand as its cards' ids, then each tactics card in it with what it stands for, as the board
    page tells it ("COMPANION: Companion Cavalry (an 8 of any colour)")."""
    lines = plain_hand(view)
    colon = "：" if i18n.full_width() else ": "
    return lines + [f"  {card}{colon}{described(card)}" for card in dict.fromkeys(view["state"].get("hand") or [])
                    if card in TACTIC_RULES] if lines else []


def notes(view: dict) -> list[str]:
    if view["status"] == "active" and view["you"] is not None and not view["state"].get("claimable"):
        return [_("You cannot claim a flag now.")]
    return []


# Battle Line's colours on a terminal (click leaves them out when the output is not one): orange is
# the 256-colour palette's, so that 4O never reads as 40.
COLOURS = {"R": "red", "O": 208, "Y": "yellow", "G": "green", "B": "bright_blue", "P": "magenta"}
TROOP = re.compile(r"(?<![\w(])(10|[1-9])([ROYGBP])(?![\w)])")


def coloured(line: str) -> str:
    """A Battle Line line with each troop card in its colour (none with NO_COLOR set)."""
    if os.environ.get("NO_COLOR"):
        return line
    return TROOP.sub(lambda m: click.style(m.group(0), fg=COLOURS[m.group(2)], bold=True), line)


TERMINAL = Terminal(heading=heading, choices=choices, board=board, hand=hand, grouped_anyway=grouped_anyway,
                    notes=notes, colour=coloured, example=example_turn)
