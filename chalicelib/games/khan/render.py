"""Khan & General drawn for people, from one seat's view only (so nothing hidden from that seat
can appear): the field, each side's card economy, the seat's own hand and a legend.

- ``text_board``: the command line and plain-text emails (ASCII grid, then words).
- ``html_board``: HTML emails, as a table with inline styles (what phone mail clients draw;
  they do not draw SVG). ``hand_html``: the hand for emails and pages.
- ``svg_board``: the board page; 460 units wide for fields up to 7 squares across (wider
  fields leave out the empty columns beside the units first), every text 15 units or more
  (16 outside small squares), so that scaled to a phone (390 CSS px) text stays about 12 px.

A unit on a square shows a short label of its type (``HC``), its power (base plus its command's
``power``), a wedge on its facing side, and marks for wounded, face down and grappled; the
command lying on it is a badge with the command's label. The legend names every label and
mark the drawing uses, and nothing else (labels of cards not on the board would say which
cards exist). Labels are made once per card set from the card ids (``labels``), unique among
its units and commands; the names are the card set's own (``story.name_of``).

Each drawing takes the view's ``state`` and the seat (None: a spectator), and optionally
``names`` (seat -> the player's name, from the view's ``seats``; without them "Seat 1");
``svg_board`` also ``hand`` (draw the seat's hand too) and ``squares`` (more squares to show,
e.g. where a legal step may go)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from html import escape

from ...kernel import i18n
from ...kernel.i18n import N_, _, ngettext, say, series, svg_font_family
from . import story
from .cardset import CardSet, Command, UnitType, keyword_words

__all__ = ["SEAT_COLOURS", "Entry", "abbreviation", "entries", "hand_html", "hand_lines", "html_board", "labels",
           "legend",
           "svg_board", "text_board"]

ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}
HTML_ARROWS = {"N": "\u2191", "E": "\u2192", "S": "\u2193", "W": "\u2190"}  # ↑ → ↓ ← (never drawn as emoji)
SEAT_COLOURS = {1: "#b71c1c", 2: "#0d47a1"}
SEAT_TINTS = {1: "#fbe3e3", 2: "#e1ebf8"}
COLOUR_WORDS = {1: N_("red"), 2: N_("blue")}
UNKNOWN_FILL = "#5f6b73"
WOUND = "#ffb300"
KIND_COLOURS = {"attack": "#d84315", "defend": "#2e7d32", "move": "#6a1b9a"}
INK, MUTED, PAPER, LINE = "#222222", "#555555", "#f4efe1", "#c9bfa5"


# ---------------------------------------------------------------- labels and words

_LABELS: dict[tuple[str, int], dict[str, str]] = {}


def _candidates(card_id: str) -> Iterable[str]:
    words = [w for w in card_id.split("_") if w]
    letters = "".join(words)
    if len(words) > 1:
        yield words[0][0] + words[-1][0]
    yield letters[:2]
    rest = letters[1:]
    for ch in rest:
        if ch not in "aeiou":
            yield letters[0] + ch
    for ch in rest:
        yield letters[0] + ch
    for digit in "23456789":
        yield letters[0] + digit
    for a in "abcdefghijklmnopqrstuvwxyz":
        for b in "abcdefghijklmnopqrstuvwxyz0123456789":
            yield a + b


def labels(cards: CardSet) -> dict[str, str]:
    """Two characters for each card of the set (units first, then commands, in the file's order):
    the initials of a two-word id, else its first two letters, else another pair; unique in the set."""
    key = (cards.id, cards.version)
    if key not in _LABELS:
        taken: dict[str, str] = {}
        for card_id in [*cards.units, *cards.commands]:
            label = next(c.upper() for c in _candidates(card_id) if c.upper() not in taken.values())
            taken[card_id] = label
        _LABELS[key] = taken
    return _LABELS[key]


def abbreviation(unit_id: str | None, cards: CardSet | None = None) -> str:
    """A unit type's label ("??" for an unknown unit)."""
    if unit_id is None:
        return "??"
    if cards is not None and unit_id in labels(cards):
        return labels(cards)[unit_id]
    words = unit_id.split("_")
    return (words[0][0] + words[1][0] if len(words) > 1 else unit_id[:2]).upper()


def _unit_words(unit: UnitType) -> str:
    parts = [_("power {power}").format(power=unit.base)]
    if unit.melee:
        parts.append(_("melee"))
    if unit.ranged is not None:
        near, far = unit.ranged.forward
        ahead = str(near) if near == far else f"{near}-{far}"
        parts.append(ngettext("ranged {ahead} ahead, {side} square to each side",
                              "ranged {ahead} ahead, {side} squares to each side", unit.ranged.side).format(
            ahead=ahead, side=unit.ranged.side))
    return i18n.series(parts)


def _keyword_said(written: str) -> str:
    """A keyword as the view writes it ("mobility 3", "turn"), in the language spoken."""
    name, _sep, value = written.partition(" ")
    return say(keyword_words(name, int(value) if value.lstrip("+-").isdigit() else None))


def _command_words(command: Command, cards: CardSet, *, executors: bool = False) -> str:
    kind = _(story.KINDS[command.kind])
    head = _("{kind}, cost {cost}").format(kind=kind, cost=command.cost)
    if executors:
        if command.units == "all":
            head = _("{what}, {more}").format(what=head, more=_("any unit"))
        else:
            head = _("{what}, {more}").format(what=head, more=_("for {units}").format(
                units=i18n.series([story.name_of(cards, u) for u in command.units])))
    keywords = i18n.series([say(k.words()) for k in command.keywords])  # as the unit's words are listed
    return _("{what}: {keywords}").format(what=head, keywords=keywords) if keywords else head


def card_words(cards: CardSet | None, card_id: str, *, executors: bool = False) -> str:
    """What a card is and does, without its name: "unit, power 4, melee" or "attack, cost 1: ..."."""
    if cards is None:
        return ""
    if card_id in cards.units:
        return _("unit, {what}").format(what=_unit_words(cards.units[card_id]))
    if card_id in cards.commands:
        return _command_words(cards.commands[card_id], cards, executors=executors)
    return ""


# ---------------------------------------------------------------- what a drawing shows

@dataclass
class Board:
    """One seat's view prepared for drawing: names, labels, and which labels and marks are used."""

    state: dict
    seat: int | None
    names: dict[int, str]
    cards: CardSet | None
    label: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, state: dict, seat: int | None, names: Mapping[int, str] | None) -> Board:
        cards = story.card_set_of(state)
        named = {int(s): str(n) for s, n in (names or {}).items()}
        return cls(state, seat, named, cards, labels(cards) if cards else {})

    @property
    def seats(self) -> list[int]:
        return sorted(int(s) for s in self.state["hand_sizes"])

    def who(self, seat: int) -> str:
        """The player's name (without names: "Seat 1")."""
        return self.names.get(seat) or _("Seat {seat}").format(seat=seat)

    def who_you(self, seat: int) -> str:
        """The player's name, marked "(you)" for the reader's own seat."""
        return _("{name} (you)").format(name=self.who(seat)) if seat == self.seat else self.who(seat)

    def faction(self, seat: int) -> str:
        return story.faction_name(self.cards, self.state.get("factions", {}).get(str(seat), ""))

    def name(self, card_id: str, *, short: bool = False) -> str:
        return story.name_of(self.cards, card_id, short=short)

    def abbr(self, card_id: str | None) -> str:
        if card_id is None:
            return "?"
        return self.label.get(card_id) or abbreviation(card_id)

    def colour_of(self, label: str) -> str:
        """The colour of the seat whose faction has the card with this label."""
        card_id = next((c for c, found in self.label.items() if found == label), None)
        entry = (self.cards.units.get(card_id) or self.cards.commands.get(card_id)) if self.cards and card_id else None
        factions = self.state.get("factions", {})
        seat = next((int(s) for s, f in factions.items() if entry is not None and f == entry.faction), None)
        return SEAT_COLOURS.get(seat, "#444444") if seat else "#444444"

    def kind(self, command_id: str) -> str:
        return self.cards.commands[command_id].kind if self.cards and command_id in self.cards.commands else "move"

    @property
    def field(self) -> list[dict]:
        return self.state["field"]

    def units_used(self) -> list[str]:
        """Unit types drawn on the field, in the card set's order."""
        shown = {u["unit"] for u in self.field if u["unit"]}
        return self.ordered(shown)

    def commands_used(self) -> list[str]:
        shown = {u["command"] for u in self.field if u["command"]}
        return self.ordered(shown)

    def ordered(self, ids: set[str]) -> list[str]:
        """The card ids in the card set's order (units, then commands), any it lacks after them."""
        order = [*self.cards.units, *self.cards.commands] if self.cards else []
        return [c for c in order if c in ids] + sorted(ids - set(order))

    def marks_used(self) -> set[str]:
        marks = set()
        for unit in self.field:
            if unit["wounded"]:
                marks.add("wounded")
            if not unit["face_up"]:
                marks.add("unknown" if unit["unit"] is None else "face_down")
            if unit["grappled_by"]:
                marks.add("grappled")
            if unit["command"]:
                marks.add("command")
        return marks

    def bounds(self, squares: Iterable = (), columns: int | None = None) -> tuple[int, int, int, int]:
        """(left, right, bottom, top): the units and ``squares`` with an empty square around them;
        without the empty columns when that would be more than ``columns`` squares across."""
        points = [(u["x"], u["y"]) for u in self.field] + [_xy(s) for s in squares]
        xs = [x for x, _y in points] or [0]
        ys = [y for _x, y in points] or [0]
        border = 0 if columns is not None and max(xs) - min(xs) + 3 > columns else 1
        return min(xs) - border, max(xs) + border, min(ys) - 1, max(ys) + 1

    def turn_parts(self) -> list[str]:
        """"Round 3 of 40", "Ann's turn: 2 of 4 cards played", and a waiting draw offer."""
        state = self.state
        if state["round"] == 0:
            parts = [_("Set-up: each side places its first unit")]
        else:
            parts = [_("Round {round} of {rounds}").format(round=state["round"], rounds=state["max_rounds"])]
            turn = story.whose_turn(state, self.names, self.seat)
            if turn:
                parts.append(turn)
        for waiting in state.get("pending") or []:
            parts.append(_("Waiting to be used or skipped: {keywords} for the unit at {at}").format(
                keywords=i18n.series([_keyword_said(k) for k in waiting["keywords"]]), at=story.square(waiting["at"])))
        if state.get("advance"):
            parts.append(_("{squares} may advance into {to}").format(
                squares=series([story.square(s) for s in state["advance"]["from"]]),
                to=story.square(state["advance"]["to"])))
        if state.get("draw_offer"):
            parts.append(_("{name} offers a draw").format(name=self.who(state["draw_offer"])))
        return parts

    def turn_line(self) -> str:
        return i18n.sentences(*self.turn_parts()).rstrip(".。")

    def seat_lines(self, seat: int) -> list[str]:
        """A side's counts: hand, limit, discards, units; then its command zone."""
        hand, limit, discards, units, zone = story.side_words(self.state, seat, lambda c: self.name(c, short=True))
        return [series([hand, limit, discards, units]), _("Command zone: {zone}").format(zone=zone)]

    def unit_line(self, unit: dict) -> str:
        """One unit in words: where, whose, what, power, facing, marks, command."""
        where = story.square(unit)
        owner = self.who_you(unit["seat"])
        if unit["unit"] is None:
            return _("{at} {owner}: unknown unit (face down), facing {facing}").format(
                at=where, owner=owner, facing=story.facing(unit["facing"]))
        parts = [f"{self.abbr(unit['unit'])} {self.name(unit['unit'])}"]
        if unit["power"] is not None:
            parts.append(_("power {power}").format(power=unit["power"]))
        parts.append(_("facing {facing}").format(facing=story.facing(unit["facing"])))
        if not unit["face_up"]:
            parts.append(_("face down"))
        if unit["wounded"]:
            parts.append(_("wounded"))
        if unit["grappled_by"]:
            parts.append(_("grappled by {squares}").format(squares=story.items(story.square(g)
                                                                              for g in unit["grappled_by"])))
        if unit["command"]:
            parts.append(_("command {label} {name}").format(label=self.abbr(unit["command"]),
                                                           name=self.name(unit["command"], short=True)))
        if unit.get("activations_left") is not None:
            parts.append(ngettext("{count} attack left", "{count} attacks left", unit["activations_left"]).format(
                count=unit["activations_left"]))
        return f"{where} {owner}{'：' if i18n.full_width() else ': '}{story.clauses(parts)}"


def _xy(square) -> tuple[int, int]:
    return (square["x"], square["y"]) if isinstance(square, Mapping) else (int(square[0]), int(square[1]))


MARKS = {
    "facing": N_("wedge: the unit's facing, its front square"),
    "power": N_("number: power (base plus its command)"),
    "wounded": N_("amber corner: wounded (beaten again, it is destroyed)"),
    "face_down": N_("pale, dashed: your unit face down (only you know it)"),
    "unknown": N_("grey ?: a unit face down, unknown to you"),
    "grappled": N_("chain: grappled (cannot move; attacks only its grappler)"),
    "command": N_("badge: the command on the unit (attack orange, defence green, move purple)"),
}
TEXT_MARKS = {
    "facing": N_("^ > v <: facing north, east, south, west"),
    "power": N_("number after the facing: power (base plus its command)"),
    "wounded": N_("*: wounded"),
    "face_down": N_("~: face down (yours: only you know it)"),
    "unknown": N_("??: a unit face down, unknown to you"),
    "grappled": N_("G: grappled"),
    "command": N_("commands on units are listed under Units"),
}


@dataclass(frozen=True)
class Entry:
    """One line of a legend: ``what`` it explains ("seat", "mark", "unit" or "command"), its ``label``
    (a seat's number, a mark's name, a card's two letters), the card's ``name`` (empty for seats and
    marks), its ``words`` (a unit's power and reach; a command's kind, cost and keywords) and the
    ``colour`` its sample is drawn in (a unit's seat's, a command's kind's)."""

    what: str
    label: str
    name: str
    words: str
    colour: str = ""

    def said(self) -> str:
        """The line in words: "Heavy cavalry: power 4, melee"."""
        if not self.name:
            return self.words
        return _("{label}: {value}").format(label=self.name, value=self.words) if self.words else self.name


def entries(board: Board, marks: Mapping[str, str] = MARKS, *, units: Iterable[str] = ()) -> list[Entry]:
    """What a legend holds, the drawings' and the board page's: each side, then every mark, unit type
    and command the drawing uses (``units``: more unit types to name, e.g. those of the seat's own
    hand), explained."""
    rows: list[Entry] = []
    for seat in board.seats:
        rows.append(Entry("seat", str(seat), "", _("{name}: {faction}, {colour}").format(
            name=board.who_you(seat), faction=board.faction(seat), colour=_(COLOUR_WORDS.get(seat, "")))))
    used = board.marks_used()
    if board.field:
        used |= {"facing", "power"}
    for mark in ("facing", "power", "wounded", "face_down", "unknown", "grappled", "command"):
        if mark in used:
            rows.append(Entry("mark", mark, "", _(marks[mark])))
    for unit_id in board.ordered(set(board.units_used()) | set(units)):
        words = _unit_words(board.cards.units[unit_id]) if board.cards and unit_id in board.cards.units else ""
        label = board.abbr(unit_id)
        rows.append(Entry("unit", label, board.name(unit_id), words, board.colour_of(label)))
    for command_id in board.commands_used():
        rows.append(Entry("command", board.abbr(command_id), board.name(command_id),
                          card_words(board.cards, command_id), KIND_COLOURS[board.kind(command_id)]))
    return rows


def legend(board: Board, marks: Mapping[str, str] = MARKS) -> list[tuple[str, str, str]]:
    """Every label and mark the drawing uses, explained: (what, label, words) with what one of
    "seat", "mark", "unit", "command"."""
    return [(entry.what, entry.label, entry.said()) for entry in entries(board, marks)]


def hand_lines(state: dict, cards: CardSet | None = None) -> list[tuple[str, int, str, str]]:
    """The seat's hand, units first: (card id, copies, name, what it is and does)."""
    cards = cards or story.card_set_of(state)
    held = Counter(state.get("hand") or [])
    order = [*cards.units, *cards.commands] if cards else []
    ids = [c for c in order if c in held] + sorted(set(held) - set(order))
    return [(c, held[c], story.name_of(cards, c, short=False), card_words(cards, c, executors=True)) for c in ids]


# ---------------------------------------------------------------- text

def _text_cell(board: Board, unit: dict) -> str:
    if unit["unit"] is None:
        return f"{unit['seat']}??{ARROWS[unit['facing']]}~"
    power = "" if unit["power"] is None else str(unit["power"])
    mark = "*" if unit["wounded"] else ("~" if not unit["face_up"] else "")
    grappled = "G" if unit["grappled_by"] else ""
    return f"{unit['seat']}{board.abbr(unit['unit'])}{ARROWS[unit['facing']]}{power}{mark}{grappled}"


def text_board(state: dict, seat: int | None, names: Mapping[int, str] | None = None, *, hand: bool = True) -> str:
    """The board in plain text: whose turn, a grid (north up; a unit as seat, label, facing,
    power and marks), the units in words, each side's counts and command zone (by the number the
    grid gives its units), your hand (names, ids to type, what each card does), and the legend. It
    holds the game's ``counts``: a text that draws it needs no other."""
    board = Board.of(state, seat, names)
    left, right, bottom, top = board.bounds()
    at = {(u["x"], u["y"]): u for u in board.field}
    cells = {square: _text_cell(board, unit) for square, unit in at.items()}
    width = max([7, *(len(c) + 1 for c in cells.values())])
    lines = [board.turn_line(), ""]
    lines.append("     " + "".join(f"{x:^{width}}" for x in range(left, right + 1)))
    for y in range(top, bottom - 1, -1):
        lines.append(f"{y:>4} " + "".join(f"{cells.get((x, y), '.'):^{width}}" for x in range(left, right + 1)))
    lines.append(_("North is up."))
    if board.field:
        lines += ["", _("Units:")] + [f"  {board.unit_line(u)}" for u in board.field]
    for side in sorted(board.seats, key=lambda s: (s != seat, s)):
        first, zone = board.seat_lines(side)
        who = series([board.who_you(side), board.faction(side)])
        lines += ["", f"{side} = " + _("{label}: {value}").format(label=who, value=first), f"  {zone}"]
    if hand and seat is not None:
        held = hand_lines(state, board.cards)
        lines += ["", _("Your hand:")]  # (its size is in your side's line above)
        for card_id, copies, name, words in held:
            many = f"{copies} x " if copies > 1 else ""
            said = f"{many}{name} [{card_id}]"
            lines.append("  " + (_("{label}: {value}").format(label=said, value=words) if words else said))
        if not held:
            lines.append("  " + _("(empty)"))
    rows = [row for row in legend(board, TEXT_MARKS) if row[0] != "seat"]  # each side said above, by its number
    if rows:
        lines += ["", _("Legend:")]
        lines += [f"  {label} = {words}" if what != "mark" else f"  {words}" for what, label, words in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- HTML (emails)

_TD = "padding:0;text-align:center;vertical-align:middle;"
_PILL = "display:inline-block;border-radius:3px;padding:0 3px;font-weight:bold;"


def _html_unit_box(board: Board, unit: dict) -> str:
    """The unit inside its square, in up to three short lines: label and facing arrow; power
    and marks; the command badge."""
    colour = SEAT_COLOURS.get(unit["seat"], INK)
    arrow = HTML_ARROWS[unit["facing"]]
    box = ("width:46px;min-height:44px;border-radius:6px;margin:2px auto;box-sizing:border-box;font-size:13px;"
           "line-height:15px;padding:1px 0;white-space:nowrap;")
    if unit["unit"] is None:
        return (f'<div style="{box}border:3px solid {colour};background:{UNKNOWN_FILL};color:#ffffff;'
                f'font-weight:bold;padding-top:11px">?{arrow}</div>')
    if unit["face_up"]:
        look, ink = f"border:3px solid {colour};background:{colour};", "#ffffff"
    else:
        look, ink = f"border:3px dashed {colour};background:{SEAT_TINTS.get(unit['seat'], '#eeeeee')};", colour
    lines = [f"<b>{escape(board.abbr(unit['unit']))}</b>{arrow}"]
    second = ""
    if unit["power"] is not None:
        second += (f'<span style="{_PILL}background:#ffffff;color:{INK};border-radius:7px;font-size:12px">'
                   f'{unit["power"]}</span>')
    if unit["wounded"]:
        second += f'<span style="color:{WOUND}">&#9679;</span>'  # ●
    if unit["grappled_by"]:
        second += "<b>G</b>"
    lines.append(second)
    if unit["command"]:
        lines.append(f'<span style="{_PILL}font-size:12px;background:{KIND_COLOURS[board.kind(unit["command"])]};'
                     f'color:#ffffff">{escape(board.abbr(unit["command"]))}</span>')
    return f'<div style="{box}{look}color:{ink}">{"<br>".join(lines)}</div>'


def _html_cell(board: Board, unit: dict | None) -> str:
    style = f"{_TD}width:50px;height:50px;border:1px solid {LINE};background:#fbf8ef;"
    if unit is None:
        return f'<td style="{style}"></td>'
    return f'<td title="{escape(board.unit_line(unit))}" style="{style}">{_html_unit_box(board, unit)}</td>'


HTML_MARKS = {
    "facing": N_("arrow after the label: the unit's facing, its front square"),
    "power": N_("white number: power (base plus its command)"),
    "wounded": N_("amber dot: wounded (beaten again, it is destroyed)"),
    "face_down": N_("pale, dashed: your unit face down (only you know it)"),
    "unknown": N_("grey ?: a unit face down, unknown to you"),
    "grappled": N_("G: grappled (cannot move; attacks only its grappler)"),
    "command": N_("badge: the command on the unit (attack orange, defence green, move purple)"),
}


def _html_key(board: Board, what: str, label: str) -> str:
    """The sample shown before a legend line in HTML."""
    if what == "seat":
        return f'<span style="{_PILL}background:{SEAT_COLOURS.get(int(label), INK)};color:#ffffff">{label}</span>'
    if what in ("unit", "command"):
        colour = board.colour_of(label) if what == "unit" else KIND_COLOURS[board.kind(_command_of(board, label))]
        return f'<span style="{_PILL}background:{colour};color:#ffffff">{escape(label)}</span>'
    seat = board.seat or 1
    samples = {
        "facing": "&#8593;",
        "power": f'<span style="{_PILL}background:#ffffff;color:{INK};border:1px solid {INK};border-radius:7px">4</span>',
        "wounded": f'<span style="color:{WOUND}">&#9679;</span>',
        "face_down": f'<span style="{_PILL}border:2px dashed {SEAT_COLOURS.get(seat)};background:{SEAT_TINTS.get(seat)}">'
                     "&nbsp;&nbsp;</span>",
        "unknown": f'<span style="{_PILL}background:{UNKNOWN_FILL};color:#ffffff">?</span>',
        "grappled": "<b>G</b>",
        "command": "".join(f'<span style="color:{c}">&#9632;</span>' for c in KIND_COLOURS.values()),
    }
    return samples.get(label, "")


def html_board(state: dict, seat: int | None, names: Mapping[int, str] | None = None) -> str:
    """For emails: whose turn, the field as a table (north up), each side's counts and command
    zone, the units in words, and the legend; inline styles only. The hand is ``hand_html``'s."""
    board = Board.of(state, seat, names)
    left, right, bottom, top = board.bounds()
    at = {(u["x"], u["y"]): u for u in board.field}
    axis = f'style="{_TD}color:{MUTED};font-size:12px;padding:0 4px"'
    rows = ["<tr><td></td>" + "".join(f"<td {axis}>{x}</td>" for x in range(left, right + 1)) + "</tr>"]
    for y in range(top, bottom - 1, -1):
        rows.append(f"<tr><td {axis}>{y}</td>" + "".join(_html_cell(board, at.get((x, y)))
                                                         for x in range(left, right + 1)) + "</tr>")
    grid = ('<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;'
            f'margin:6px 0">{"".join(rows)}</table>')
    parts = [f'<div style="font-family:sans-serif;font-size:14px;line-height:1.4;color:{INK}">',
             f'<p style="margin:0 0 4px 0"><b>{escape(board.turn_line())}</b></p>']
    sides = sorted(board.seats, key=lambda s: (s != seat, s))

    def side_html(side: int) -> str:
        first, zone = board.seat_lines(side)
        colour = SEAT_COLOURS.get(side, INK)
        return (f'<p style="margin:0 0 8px 0;border-left:6px solid {colour};padding-left:6px">'
                f'<b style="color:{colour}">{escape(board.who_you(side))}</b> &middot; '
                f'{escape(board.faction(side))}<br>{escape(first)}<br>{escape(zone)}</p>')

    parts += [side_html(side) for side in sides[1:]]
    # gettext's extractor cannot see inside an f-string (Python 3.11): the words are said outside it
    north, units, legend_head = _("North is up."), _("Units"), _("Legend")
    parts += [grid, f'<p style="margin:0 0 8px 0;color:{MUTED};font-size:12px">{escape(north)}</p>']
    parts += [side_html(side) for side in sides[:1]]
    if board.field:
        parts.append(f'<p style="margin:0 0 8px 0;font-size:13px"><b>{escape(units)}</b><br>'
                     + "<br>".join(escape(board.unit_line(u)) for u in board.field) + "</p>")
    rows = [f'<tr><td style="padding:1px 6px 1px 0;vertical-align:top;white-space:nowrap">'
            f'{_html_key(board, what, label)}</td><td style="padding:1px 0">{escape(words)}</td></tr>'
            for what, label, words in legend(board, HTML_MARKS)]
    parts.append(f'<p style="margin:0"><b>{escape(legend_head)}</b></p>'
                 f'<table role="presentation" style="border-collapse:collapse;font-size:13px">{"".join(rows)}</table>')
    parts.append("</div>")
    return "".join(parts)


def _command_of(board: Board, label: str) -> str:
    return next((c for c, found in board.label.items() if found == label), "")


def hand_html(cards: list[str], state: dict | None = None) -> str:
    """The hand for emails and pages: each card by its name and label, what it is and does (a
    command's kind, cost, who may execute it, keywords), and its id, to type in a reply. With the
    view's state its card set's names; without, those of a card set that has every card."""
    found = story.card_set_of(state) if state else None
    if found is None:  # the default set if it has every card, else the newest set that has
        from .cardset import DEFAULT_CARD_SET, REGISTRY
        sets = sorted(REGISTRY.all(), key=lambda c: (c.id == DEFAULT_CARD_SET, c.version), reverse=True)
        found = next((c for c in sets if all(card in c.units or card in c.commands for card in cards)), None)
    board = Board({"factions": (state or {}).get("factions", {}), "field": [], "hand_sizes": {}}, None, {}, found,
                  labels(found) if found else {})
    held = hand_lines({"hand": cards}, found)
    if not held:
        return escape(_("(empty)"))
    items = []
    for card_id, copies, name, words in held:
        label = board.abbr(card_id)
        is_command = found is not None and card_id in found.commands
        colour = KIND_COLOURS[found.commands[card_id].kind] if is_command else board.colour_of(label)
        many = f"{copies} &times; " if copies > 1 else ""
        items.append(f'<div style="display:inline-block;vertical-align:top;width:148px;margin:0 6px 6px 0;'
                     f'padding:4px 6px;border:1px solid {colour};border-left:6px solid {colour};border-radius:4px;'
                     f'font-family:sans-serif;font-size:13px;line-height:1.35;color:{INK}">'
                     f'<span style="{_PILL}background:{colour};color:#ffffff">{escape(label)}</span> '
                     f'<b>{many}{escape(name)}</b>'
                     + (f'<br>{escape(words)}' if words else "")
                     + f'<br><span style="font-family:monospace;color:{MUTED}">{escape(card_id)}</span></div>')
    return "".join(items)


# ---------------------------------------------------------------- SVG (the board page)

WIDTH = 460  # fits a phone (390 CSS px, 374 drawn) at a scale of about 0.81: 16-unit text reads as 13 px
PAD = 12
AXIS = 26
FONT = 16
LINE_HEIGHT = 22
CELL_MIN, CELL_MAX = 50, 76
FIELD_COLUMNS = 7  # beyond this, the empty columns beside the units are left out


_NARROW = set(" .,:;'!|()[]-ijlrtf")
_WIDE = set("mwMW@")


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """About how wide ``text`` is drawn in a sans-serif font (generous: wrapping leaves room)."""
    total = 0.0
    for ch in text:
        if ord(ch) >= 0x2E80:  # CJK and other wide characters
            total += 1.0
        elif ch in _WIDE:
            total += 0.98
        elif ch in _NARROW:
            total += 0.38
        elif ch.isupper():
            total += 0.74
        elif ch.isdigit():
            total += 0.66
        else:
            total += 0.63
    return total * size * (1.1 if bold else 1.0)


# Where a line may break in Chinese and Japanese, which write no spaces: between any two wide
# characters, but never before closing punctuation nor after opening punctuation (kinsoku).
_NO_LINE_START = set("、。，．,.・：；？！:;?!）」』】〕〉》”’ーぁぃぅぇぉっゃゅょァィゥェォッャュョ々〜～…")
_NO_LINE_END = set("（「『【〔〈《“‘")
_PIECES = re.compile(r"\s+|[\u2e80-\ufaff\uff00-\uffef]|[^\s\u2e80-\ufaff\uff00-\uffef]+")


def _pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` as the pieces a line may break between: (piece, written after a space)."""
    pieces: list[tuple[str, bool]] = []
    space = False
    for token in _PIECES.findall(text):
        if token.isspace():
            space = True
            continue
        if pieces and not space and (token[0] in _NO_LINE_START or pieces[-1][0][-1] in _NO_LINE_END):
            pieces[-1] = (pieces[-1][0] + token, pieces[-1][1])
        else:
            pieces.append((token, space))
        space = False
    return pieces


def wrap(text: str, width: float, size: float = FONT, *, bold: bool = False) -> list[str]:
    """``text`` in lines no wider than ``width``: broken at spaces, and between wide characters in
    Chinese and Japanese (a word longer than a line stands alone)."""
    lines: list[str] = []
    current = ""
    for piece, space in _pieces(text):
        trial = f"{current}{' ' if space else ''}{piece}" if current else piece
        if current and text_width(trial, size, bold=bold) > width:
            lines.append(current)
            current = piece
        else:
            current = trial
    if current:
        lines.append(current)
    return lines or [""]


def _text(x: float, y: float, text: str, *, size: int = FONT, anchor: str = "start", bold: bool = False,
          fill: str = INK) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{weight}>'
            f'{escape(text)}</text>')


class _Canvas:
    """SVG parts laid out top to bottom in a column ``width`` wide."""

    def __init__(self, width: float) -> None:
        self.width = width
        self.y = float(PAD)
        self.parts: list[str] = []

    def add(self, part: str) -> None:
        self.parts.append(part)

    def lines(self, text: str, *, x: float = PAD, size: int = FONT, bold: bool = False, fill: str = INK,
              indent: float = 0) -> None:
        for line in wrap(text, self.width - x - PAD - indent, size, bold=bold):
            self.y += LINE_HEIGHT * size / FONT
            self.add(_text(x + indent, self.y - 6, line, size=size, bold=bold, fill=fill))

    def gap(self, height: float = 8) -> None:
        self.y += height


def _wedge(x: float, y: float, size: float, facing: str) -> str:
    """A triangle on the tile's ``facing`` edge, pointing out of it into the gap between squares."""
    half, out, into = max(7.0, size * 0.17), 7, 3
    mid_x, mid_y = x + size / 2, y + size / 2
    points = {
        "N": [(mid_x, y - out), (mid_x - half, y + into), (mid_x + half, y + into)],
        "S": [(mid_x, y + size + out), (mid_x - half, y + size - into), (mid_x + half, y + size - into)],
        "E": [(x + size + out, mid_y), (x + size - into, mid_y - half), (x + size - into, mid_y + half)],
        "W": [(x - out, mid_y), (x + into, mid_y - half), (x + into, mid_y + half)],
    }[facing]
    return (f'<polygon points="{" ".join(f"{px:g},{py:g}" for px, py in points)}" fill="#ffffff" '
            f'stroke="{INK}" stroke-width="1.5" stroke-linejoin="round"/>')


def _chain(x: float, y: float) -> str:
    """Two links: the grappled mark."""
    links = (f'<ellipse cx="{x - 5:g}" cy="{y:g}" rx="7" ry="4.5"/>'
             f'<ellipse cx="{x + 5:g}" cy="{y:g}" rx="7" ry="4.5"/>')
    return (f'<g fill="none" stroke="#ffffff" stroke-width="6">{links}</g>'
            f'<g fill="none" stroke="{INK}" stroke-width="2.5">{links}</g>')


def _tile(board: Board, unit: dict, x: float, y: float, cell: float) -> str:
    """A unit on its square: tile, facing wedge, label, power, command badge, marks. Below 60
    units a square, a compact layout keeps every text 15 units or more."""
    compact = cell < 60
    pad = 4 if compact else 6
    size = cell - 2 * pad
    tx, ty = x + pad, y + pad
    colour = SEAT_COLOURS.get(unit["seat"], INK)
    if unit["unit"] is None:
        fill, dash, ink = UNKNOWN_FILL, "", "#ffffff"
    elif unit["face_up"]:
        fill, dash, ink = colour, "", "#ffffff"
    else:
        fill, dash, ink = SEAT_TINTS.get(unit["seat"], "#eeeeee"), ' stroke-dasharray="6 4"', colour
    parts = [f'<g class="unit" data-x="{unit["x"]}" data-y="{unit["y"]}" data-seat="{unit["seat"]}">'
             f'<title>{escape(board.unit_line(unit))}</title>',
             f'<rect x="{tx:g}" y="{ty:g}" width="{size:g}" height="{size:g}" rx="6" fill="{fill}" stroke="{colour}" '
             f'stroke-width="3"{dash}/>']
    if unit["wounded"]:
        corner = size * 0.36
        parts.append(f'<path d="M{tx:g},{ty + 6:g} Q{tx:g},{ty:g} {tx + 6:g},{ty:g} L{tx + corner:g},{ty:g} '
                     f'L{tx:g},{ty + corner:g} Z" fill="{WOUND}" stroke="{INK}" stroke-width="1"/>')
    parts.append(_wedge(tx, ty, size, unit["facing"]))
    label_size = 16 if compact else 20
    small = 15 if compact else FONT
    parts.append(_text(tx + size / 2, ty + size * (0.43 if compact else 0.45) + (0 if compact else 1),
                       board.abbr(unit["unit"]), size=label_size, anchor="middle", bold=True, fill=ink))
    if unit["command"]:
        badge = board.abbr(unit["command"])
        width, height = text_width(badge, small, bold=True) * 0.9 + 5, small + 3
        top = ty + size - height - 2
        parts.append(f'<rect x="{tx + 2:g}" y="{top:g}" width="{width:g}" height="{height:g}" rx="3" '
                     f'fill="{KIND_COLOURS[board.kind(unit["command"])]}" stroke="#ffffff" stroke-width="1"/>')
        parts.append(_text(tx + 2 + width / 2, top + height / 2 + small * 0.36, badge, size=small, anchor="middle",
                           bold=True, fill="#ffffff"))
    if unit["power"] is not None:  # a round badge on the tile's lower right corner
        radius = 10 if compact else 11
        cx, cy = tx + size - 3, ty + size - 3
        parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius}" fill="#ffffff" stroke="{INK}" stroke-width="1.2"/>')
        parts.append(_text(cx, cy + small * 0.36, str(unit["power"]), size=small, anchor="middle", bold=True))
    if unit["grappled_by"]:
        parts.append(_chain(tx + size - 8, ty + 3))
    parts.append("</g>")
    return "".join(parts)


def _field(board: Board, canvas: _Canvas, squares: Iterable) -> None:
    left, right, bottom, top = board.bounds(squares, FIELD_COLUMNS)
    columns, rows = right - left + 1, top - bottom + 1
    cell = max(CELL_MIN, min(CELL_MAX, (canvas.width - 2 * PAD - AXIS) // columns))
    x0 = (canvas.width - AXIS - columns * cell) / 2 + AXIS
    y0 = canvas.y + 4

    def corner(x: int, y: int) -> tuple[float, float]:
        return x0 + (x - left) * cell, y0 + (top - y) * cell

    canvas.add(f'<rect x="{x0:g}" y="{y0:g}" width="{columns * cell:g}" height="{rows * cell:g}" fill="#fbf8ef"/>')
    for y in range(bottom, top + 1):
        _, cy = corner(left, y)
        canvas.add(_text(x0 - 6, cy + cell / 2 + 6, str(y), anchor="end", fill=MUTED))
        for x in range(left, right + 1):
            cx, _cy = corner(x, y)
            canvas.add(f'<rect class="square" data-x="{x}" data-y="{y}" x="{cx:g}" y="{cy:g}" width="{cell:g}" '
                       f'height="{cell:g}" fill="none" stroke="{LINE}" stroke-width="1.5"/>')
    for x in range(left, right + 1):
        cx, _cy = corner(x, bottom)
        canvas.add(_text(cx + cell / 2, y0 + rows * cell + 18, str(x), anchor="middle", fill=MUTED))
    by_key = {(u["x"], u["y"]): u for u in board.field}
    for unit in board.field:  # grapples: a dashed line from the grappled unit to its grappler
        for grappler in unit["grappled_by"]:
            if (grappler["x"], grappler["y"]) in by_key:
                ax, ay = corner(unit["x"], unit["y"])
                bx, by = corner(grappler["x"], grappler["y"])
                canvas.add(f'<line x1="{ax + cell / 2:g}" y1="{ay + cell / 2:g}" x2="{bx + cell / 2:g}" '
                           f'y2="{by + cell / 2:g}" stroke="{INK}" stroke-width="3" stroke-dasharray="5 4"/>')
    for unit in board.field:
        canvas.add(_tile(board, unit, *corner(unit["x"], unit["y"]), cell))
    canvas.y = y0 + rows * cell + 24


def _sequences(board: Board, canvas: _Canvas, side: int) -> None:
    """The command zone as small stacks of face-down cards, each with its number."""
    sequences = board.state["sequences"][str(side)]
    x = PAD + 8
    canvas.y += LINE_HEIGHT
    label = _("Command zone:")
    canvas.add(_text(PAD + 8, canvas.y - 6, label))
    x += text_width(label, FONT) + 8
    if not sequences:
        canvas.add(_text(x, canvas.y - 6, _("empty"), fill=MUTED))
    colour = SEAT_COLOURS.get(side, INK)
    for number, pile in enumerate(sequences, start=1):
        width = 18 + pile["size"] * 9 + 12
        if x + width > canvas.width - PAD:
            x = PAD + 8
            canvas.y += LINE_HEIGHT + 4
        top = canvas.y - 20
        size = ngettext("{count} card", "{count} cards", pile["size"]).format(count=pile["size"])
        title = _("sequence {number}: {size}").format(number=number, size=size)
        canvas.add(f'<g class="sequence"><title>{escape(title)}</title>')
        canvas.add(_text(x, canvas.y - 6, str(number), bold=True, fill=MUTED))
        for card in range(pile["size"]):
            canvas.add(f'<rect x="{x + 13 + card * 9:g}" y="{top:g}" width="14" height="20" rx="2" fill="{colour}" '
                       f'stroke="#ffffff" stroke-width="1.2"/>')
        canvas.add("</g>")
        x += width
    for number, pile in enumerate(sequences, start=1):
        if pile.get("cards"):
            canvas.lines(_("{number}: {cards}").format(number=number, cards=series([
                board.name(c, short=True) for c in pile["cards"]])), indent=8, fill=MUTED)


def _side(board: Board, canvas: _Canvas, side: int) -> None:
    colour = SEAT_COLOURS.get(side, INK)
    top = canvas.y
    canvas.y += LINE_HEIGHT + 2
    canvas.add(f'<rect x="{PAD:g}" y="{canvas.y - 17:g}" width="14" height="14" rx="2" fill="{colour}"/>')
    name = board.who_you(side)
    canvas.add(_text(PAD + 20, canvas.y - 4, name, bold=True, fill=colour, size=18))
    canvas.add(_text(PAD + 26 + text_width(name, 18, bold=True), canvas.y - 4, board.faction(side), fill=MUTED))
    first, _zone = board.seat_lines(side)
    canvas.lines(first, indent=8)
    _sequences(board, canvas, side)
    canvas.add(f'<rect x="{PAD - 6:g}" y="{top + 2:g}" width="3" height="{canvas.y - top:g}" fill="{colour}"/>')
    canvas.gap(10)


def _legend(board: Board, canvas: _Canvas) -> None:
    canvas.y += LINE_HEIGHT
    canvas.add(_text(PAD, canvas.y - 6, _("Legend"), bold=True, size=18))
    key_width = 40
    for what, label, words in legend(board):
        if what == "seat":
            continue  # each side is named above in its colour
        start = canvas.y
        lines = wrap(words, canvas.width - 2 * PAD - key_width)
        for number, line in enumerate(lines):
            canvas.y += LINE_HEIGHT
            canvas.add(_text(PAD + key_width, canvas.y - 6, line))
        canvas.add(_legend_key(board, what, label, PAD, start + 3))
        canvas.y += 4


def _legend_key(board: Board, what: str, label: str, x: float, y: float) -> str:
    """The sample drawn before a legend line."""
    if what == "unit":
        return (f'<rect x="{x:g}" y="{y:g}" width="34" height="20" rx="4" fill="{board.colour_of(label)}"/>'
                + _text(x + 17, y + 16, label, anchor="middle", bold=True, fill="#ffffff"))
    if what == "command":
        colour = KIND_COLOURS[board.kind(_command_of(board, label))]
        return (f'<rect x="{x:g}" y="{y:g}" width="34" height="20" rx="3" fill="{colour}"/>'
                + _text(x + 17, y + 16, label, anchor="middle", bold=True, fill="#ffffff"))
    if label == "facing":
        return (f'<rect x="{x + 4:g}" y="{y + 6:g}" width="26" height="14" rx="3" fill="#888888"/>'
                + _wedge(x + 4, y + 6, 26, "N"))
    if label == "power":
        return (f'<circle cx="{x + 17:g}" cy="{y + 10:g}" r="10" fill="#ffffff" stroke="{INK}"/>'
                + _text(x + 17, y + 15.5, "4", anchor="middle", bold=True))
    if label == "wounded":
        return (f'<rect x="{x + 4:g}" y="{y:g}" width="26" height="20" rx="3" fill="#888888"/>'
                f'<path d="M{x + 4:g},{y:g} L{x + 16:g},{y:g} L{x + 4:g},{y + 12:g} Z" fill="{WOUND}" stroke="{INK}"/>')
    if label == "face_down":
        seat = board.seat or 1
        return (f'<rect x="{x + 4:g}" y="{y:g}" width="26" height="20" rx="3" fill="{SEAT_TINTS.get(seat)}" '
                f'stroke="{SEAT_COLOURS.get(seat)}" stroke-width="2" stroke-dasharray="4 3"/>')
    if label == "unknown":
        return (f'<rect x="{x + 4:g}" y="{y:g}" width="26" height="20" rx="3" fill="{UNKNOWN_FILL}"/>'
                + _text(x + 17, y + 16, "?", anchor="middle", bold=True, fill="#ffffff"))
    if label == "grappled":
        return f'<rect x="{x + 4:g}" y="{y:g}" width="26" height="20" rx="3" fill="#888888"/>' + _chain(x + 17, y + 10)
    if label == "command":
        return "".join(f'<rect x="{x + 1 + i * 11:g}" y="{y + 4:g}" width="10" height="12" rx="2" fill="{c}"/>'
                       for i, c in enumerate(KIND_COLOURS.values()))
    return ""


def _hand(board: Board, canvas: _Canvas) -> None:
    held = hand_lines(board.state, board.cards)
    count = len(board.state.get("hand") or [])
    canvas.y += LINE_HEIGHT
    canvas.add(_text(PAD, canvas.y - 6, ngettext("Your hand ({count} card)", "Your hand ({count} cards)",
                                                 count).format(count=count), bold=True, size=18))
    if not held:
        canvas.lines(_("(empty)"), fill=MUTED)
    for card_id, copies, name, words in held:
        kind = board.kind(card_id) if board.cards and card_id in board.cards.commands else None
        colour = KIND_COLOURS[kind] if kind else board.colour_of(board.abbr(card_id))
        start = canvas.y
        title = (f"{copies} \u00d7 " if copies > 1 else "") + name
        canvas.lines(title, x=PAD + 46, bold=True)
        if words:
            canvas.lines(words, x=PAD + 46, fill=MUTED)
        canvas.add(f'<rect x="{PAD:g}" y="{start + 5:g}" width="38" height="{canvas.y - start - 4:g}" rx="4" '
                   f'fill="{colour}"/>' + _text(PAD + 19, start + 22, board.abbr(card_id), anchor="middle", bold=True,
                                               fill="#ffffff"))
        canvas.y += 4


def svg_board(state: dict, seat: int | None, names: Mapping[int, str] | None = None, *, hand: bool = False,
              squares: Iterable = (), field_only: bool = False) -> str:
    """The board as an SVG picture, top to bottom: whose turn; the opponent's side (counts,
    command zone); the field (north up); your side; your hand (with ``hand``); the legend.
    A spectator sees seat 2 above the field and seat 1 below. Squares carry ``class="square"``
    and ``data-x``/``data-y``, units ``class="unit"``, ``data-x``/``data-y``/``data-seat``, for a
    page that lets people click them; ``squares`` widens the field to show them too. ``field_only``:
    the field alone (a page that shows the turn, the sides and the legend as text of its own)."""
    board = Board.of(state, seat, names)
    squares = list(squares)
    left, right, _bottom, _top = board.bounds(squares, FIELD_COLUMNS)
    columns = right - left + 1
    width = max(WIDTH, 2 * PAD + AXIS + columns * CELL_MIN)
    canvas = _Canvas(width)
    if field_only:
        _field(board, canvas, squares)
    else:
        first, *rest = board.turn_parts()
        canvas.lines(first, bold=True, size=18)
        for part in rest:
            canvas.lines(part)
        canvas.gap(4)
        below = seat if seat in board.seats else 1
        for side in board.seats:
            if side != below:
                _side(board, canvas, side)
        _field(board, canvas, squares)
        if below in board.seats:
            _side(board, canvas, below)
        if hand and seat is not None:
            _hand(board, canvas)
            canvas.gap(6)
        _legend(board, canvas)
    height = canvas.y + PAD
    label = escape(_("Khan and General: the field, each side's cards, and the legend"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
            f'height="{height:g}" style="max-width:100%;height:auto" font-family="{svg_font_family()}" role="img" '
            f'aria-label="{label}"><rect width="{width:g}" height="{height:g}" fill="{PAPER}"/>'
            + "".join(canvas.parts) + "</svg>")
