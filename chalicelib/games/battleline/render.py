"""The board as text and as HTML (for emails and viewers), from a seat's view only."""

from __future__ import annotations

import unicodedata
from html import escape

from ...kernel.i18n import N_, _, svg_font_family
from .cards import parse_troop

COLOUR_NAMES = {"R": "#c62828", "O": "#ef6c00", "Y": "#b59b00", "G": "#2e7d32", "B": "#1565c0", "P": "#6a1b9a"}


def _side(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def _sides(flag: dict, seat: int | None) -> tuple[list[str], list[str]]:
    """(the opponent's cards, your cards) at a flag; a spectator sees it from seat 1's side."""
    me = seat or 1
    mine = flag["seats"].index(me) if me in flag["seats"] else 0
    return flag["cards"][1 - mine], flag["cards"][mine]


def text_board(view: dict, seat: int | None, names: dict[int, str] | None = None) -> str:
    """One line a flag, in the language spoken: the flag (Fog, Mud, who won it), the opponent's
    side, then yours ("Flag 3 Fog: Bob 3R 4R | You 5B"; a spectator's: both by name). ``names``:
    each seat's player's name (without one, "Seat 2")."""
    names = names or {}
    lines = []
    for flag in view["flags"]:
        theirs, mine = _sides(flag, seat)
        me = seat if seat in flag["seats"] else flag["seats"][0]
        other = next((s for s in flag["seats"] if s != me), me)
        marks = [_(ENVIRONMENT_WORDS[e]) for e in flag["environment"] if e in ENVIRONMENT_WORDS]
        claimed = flag["claimed_by"]
        if claimed:
            marks.append(_won_by(claimed, seat, names))
        label = " ".join([_("Flag {flag}").format(flag=flag["flag"]), *marks])
        them, you = _labels(names, me, other, seat)
        lines.append((_("{label}: {value}").format(label=label, value=them),
                      f"{_side(theirs)}", f"| {you} {_side(mine)}"))
    widths = [max((_width(line[i]) for line in lines), default=0) for i in (0, 1)]
    return "\n".join(f"{_pad(left, widths[0])} {_pad(theirs, widths[1])} {right}" for left, theirs, right in lines)


def _width(text: str) -> int:
    """How many columns ``text`` takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


ENVIRONMENT_WORDS = {"FOG": N_("Fog"), "MUD": N_("Mud")}


def _card_html(card: str) -> str:
    troop = parse_troop(card)
    colour = COLOUR_NAMES[troop.colour] if troop else "#333333"
    return (f'<span style="display:inline-block;min-width:2.4em;padding:2px 4px;margin:1px;border:1px solid {colour};'
            f'border-radius:3px;color:{colour};font-weight:bold;font-family:monospace">{escape(card)}</span>')


def html_board(view: dict, seat: int | None) -> str:
    """A plain table with inline styles: what common mail clients render."""
    rows = []
    for flag in view["flags"]:
        theirs, mine = ("".join(_card_html(c) for c in side) for side in _sides(flag, seat))
        label = f"Flag {flag['flag']}" + "".join(f" {escape(e)}" for e in flag["environment"])
        if flag["claimed_by"]:
            label += f" (seat {flag['claimed_by']})"
        rows.append(f'<tr><td style="padding:4px;text-align:right">{theirs}</td>'
                    f'<td style="padding:4px;text-align:center;background:#eeeeee;white-space:nowrap">{label}</td>'
                    f'<td style="padding:4px">{mine}</td></tr>')
    return ('<table style="border-collapse:collapse;font-family:sans-serif;font-size:14px">'
            '<tr><th>Opponent</th><th></th><th>You</th></tr>' + "".join(rows) + "</table>")


def hand_html(cards: list[str]) -> str:
    return "".join(_card_html(c) for c in cards)


# ---------------------------------------------------------------- the table as SVG (the board page)

COLOUR_WORDS = {"R": N_("red"), "O": N_("orange"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue"),
                "P": N_("purple")}


def tactic_name(card: str) -> str:
    from .story import card_name  # (story reads the presenters' names: loaded when a board is drawn)

    return card_name(card)


def _labels(names: dict[int, str], me: int, other: int, seat: int | None) -> tuple[str, str]:
    """(the name above the table, the name below): "You" below for a seat."""
    below = _("You") if seat is not None else names.get(me, _("Seat {seat}").format(seat=me))
    return names.get(other, _("Seat {seat}").format(seat=other)), below


def _fog_mud(environment: list[str]) -> str:
    return " ".join(_("Fog") if card == "FOG" else _("Mud") for card in environment)


def _won_by(claimed: int, seat: int | None, names: dict[int, str]) -> str:
    if claimed == seat:
        return _("Won by you")
    return _("Won by {name}").format(name=names.get(claimed, _("Seat {seat}").format(seat=claimed)))


CARD_W, CARD_H, GAP = 84, 44, 5
COLUMN = CARD_W + 2 * GAP
MARKER_H = 56
# A troop's colour on the card (fill, text) with a shape of its own, so no two colours rest on hue alone.
CARD_FACES = {"R": ("#c62828", "#ffffff", "\u25cf"), "O": ("#fb8c00", "#1a1a1a", "\u25b2"),
              "Y": ("#fdd835", "#1a1a1a", "\u2605"), "G": ("#2e7d32", "#ffffff", "\u25c6"),
              "B": ("#1565c0", "#ffffff", "\u25a0"), "P": ("#6a1b9a", "#ffffff", "\u2665")}


def _svg_card(x: int, y: int, card: str) -> str:
    """A card: a troop's value large with its colour's shape and word, a tactic by its full name."""
    troop = parse_troop(card)
    if troop:
        fill, ink, shape = CARD_FACES[troop.colour]
        word = _(COLOUR_WORDS[troop.colour])
        return (f'<g><title>{escape(f"{troop.value} {word}")}</title><rect x="{x}" y="{y}" width="{CARD_W}" '
                f'height="{CARD_H}" rx="6" fill="{fill}" stroke="#00000055"/>'
                f'<text x="{x + 8}" y="{y + 29}" font-size="24" font-weight="bold" fill="{ink}">{troop.value}</text>'
                f'<text x="{x + CARD_W - 8}" y="{y + 19}" text-anchor="end" font-size="14" fill="{ink}">{shape}</text>'
                f'<text x="{x + CARD_W - 8}" y="{y + 36}" text-anchor="end" font-size="12" fill="{ink}">'
                f'{escape(word)}</text></g>')
    words = tactic_name(card).split(" ")
    lines = [" ".join(words[:1]), " ".join(words[1:])] if len(words) > 1 else [words[0]]
    text = "".join(f'<tspan x="{x + CARD_W // 2}" dy="{0 if i == 0 else 14}">{escape(line)}</tspan>'
                   for i, line in enumerate(lines))
    return (f'<g><title>{escape(tactic_name(card))}</title><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" '
            f'rx="6" fill="#fff6dc" stroke="#6d4c41" stroke-width="2"/><text x="{x + CARD_W // 2}" '
            f'y="{y + (19 if len(lines) > 1 else 27)}" text-anchor="middle" font-size="12" font-weight="bold" '
            f'fill="#3e2723">{text}</text></g>')


def svg_board(view: dict, seat: int | None, names: dict[int, str] | None = None) -> str:
    """The nine flags as an SVG picture: the opponent's cards above each flag, yours below; Fog and
    Mud on their flag, a claimed flag marked with its winner's name (``names``: each seat's name;
    without them, "you" and the seat)."""
    names = names or {}
    depth = 4 * (CARD_H + GAP) + GAP
    width, height = 9 * COLUMN + 2 * GAP, 2 * depth + MARKER_H + 2 * GAP + 48
    first = view["flags"][0]["seats"] if view["flags"] else [1, 2]
    me = seat if seat in first else first[0]
    other = first[1] if me == first[0] else first[0]
    top_label, bottom_label = _labels(names, me, other, seat)
    title = escape(_("Battle Line"))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" font-family="{svg_font_family()}" role="img" aria-label="{title}">',
             f'<rect width="{width}" height="{height}" rx="10" fill="#5b7f3a"/>',
             f'<text x="{GAP + 4}" y="18" font-size="14" font-weight="bold" fill="#ffffff">{escape(top_label)}</text>',
             f'<text x="{GAP + 4}" y="{height - 8}" font-size="14" font-weight="bold" fill="#ffffff">'
             f'{escape(bottom_label)}</text>']
    middle = 24 + depth
    for index, flag in enumerate(view["flags"]):
        x = GAP + index * COLUMN
        theirs, mine = _sides(flag, seat)
        for row, card in enumerate(theirs):
            parts.append(_svg_card(x + GAP, middle - (row + 1) * (CARD_H + GAP), card))
        for row, card in enumerate(mine):
            parts.append(_svg_card(x + GAP, middle + MARKER_H + GAP + row * (CARD_H + GAP), card))
        claimed = flag["claimed_by"]
        fill = "#efe3c2" if claimed is None else ("#cfe8c9" if claimed == seat else "#f1cccc")
        marks = _fog_mud(flag["environment"])
        won = _won_by(claimed, seat, names) if claimed else ""
        title = ", ".join(part for part in (f'{flag["flag"]}', marks, won) if part)
        parts.append(f'<g><title>{escape(title)}</title><rect x="{x + GAP}" y="{middle}" width="{CARD_W}" '
                     f'height="{MARKER_H - GAP}" rx="8" fill="{fill}" stroke="#3b2a12" stroke-width="2"/>'
                     f'<text x="{x + COLUMN // 2}" y="{middle + 20}" text-anchor="middle" font-size="17" '
                     f'font-weight="bold" fill="#2b1f0e">{flag["flag"]}</text>')
        below = " ".join(part for part in (marks, won) if part)
        if below:
            parts.append(f'<text x="{x + COLUMN // 2}" y="{middle + 40}" text-anchor="middle" font-size="12" '
                         f'font-weight="bold" fill="#2b1f0e">{escape(below[:14])}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------- cards and flags for emails' templates

CARD_COLOURS = {  # colour letter -> (card colour, text colour): readable in mail clients and at a glance
    "R": ("#c62828", "#ffffff"), "O": ("#e65100", "#ffffff"), "Y": ("#fdd835", "#212121"),
    "G": ("#2e7d32", "#ffffff"), "B": ("#1565c0", "#ffffff"), "P": ("#6a1b9a", "#ffffff"),
}


def card(code: str) -> dict:
    """A card for the templates of emails and link pages (presenting.show): a troop by its value on
    its colour, a tactic by its full name; ``described``, a tactic as the text part says it: its name
    and what it stands for ("Companion Cavalry (an 8 of any colour)"), also the card's title."""
    troop = parse_troop(code)
    if troop is None:
        from .story import described  # (as tactic_name)

        name = tactic_name(code)
        return {"code": code, "name": name, "tactic": True, "value": name, "described": described(code),
                "letter": "", "colour": "#ffffff", "ink": "#37474f", "title": described(code)}
    fill, ink = CARD_COLOURS[troop.colour]
    return {"code": code, "name": code, "tactic": False, "value": str(troop.value), "letter": troop.colour,
            "colour": fill, "ink": ink,
            "title": _("{value} {colour}").format(value=troop.value, colour=_(COLOUR_WORDS[troop.colour]))}


def table(view: dict, who: dict[int, str]) -> list[dict]:
    """The nine flags for the templates, each with its two sides (the others' first, the seat's own
    second, each with its player's name in ``who``), Fog and Mud, who won it, and whether the seat
    may claim it now."""
    state, you = view["state"], view["you"]
    claimable = set(state.get("claimable") or [])
    rows = []
    for flag in state["flags"]:
        seats = list(flag["seats"])
        order = [1 - seats.index(you), seats.index(you)] if you in seats else [0, 1]
        sides = [{"seat": seats[i], "name": _("You") if seats[i] == you else who.get(seats[i], "?"),
                  "mine": seats[i] == you, "cards": [card(c) for c in flag["cards"][i]]} for i in order]
        claimed = flag["claimed_by"]
        rows.append({
            "flag": flag["flag"], "label": _("Flag {flag}").format(flag=flag["flag"]), "sides": sides,
            "environment": [_(ENVIRONMENT_WORDS.get(e, e)) for e in flag["environment"]],
            "claimed": None if claimed is None else (_("you") if claimed == you else who.get(claimed, "?")),
            "claimed_mine": claimed is not None and claimed == you,
            "claimable": flag["flag"] in claimable,
        })
    return rows


def on_a_flag(step: dict) -> bool:
    """A play of a card onto a flag (the email's card x flag grid), not a tactic's move."""
    return step["type"] == "play" and "flag" in step and "target" not in step


def grid_intro(say) -> str:
    """The line above the text part's grid: how its cells are written as commands, in the reader's words."""
    return _("Where each card can go ({play} CARD FLAG; then {claim} FLAGS or {none}; then {troop} or "
             "{tactics}):").format(play=say("play"), claim=say("claim"), none=say("claim none"),
                                   troop=say("draw troop"), tactics=say("draw tactics"))
