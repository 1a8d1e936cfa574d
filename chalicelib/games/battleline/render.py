"""The board as text and as HTML (for emails and viewers), from a seat's view only."""

from __future__ import annotations

from html import escape

from .cards import parse_troop

COLOUR_NAMES = {"R": "#c62828", "O": "#ef6c00", "Y": "#b59b00", "G": "#2e7d32", "B": "#1565c0", "P": "#6a1b9a"}


def _side(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def _sides(flag: dict, seat: int | None) -> tuple[list[str], list[str]]:
    """(the opponent's cards, your cards) at a flag; a spectator sees it from seat 1's side."""
    me = seat or 1
    mine = flag["seats"].index(me) if me in flag["seats"] else 0
    return flag["cards"][1 - mine], flag["cards"][mine]


def text_board(view: dict, seat: int | None) -> str:
    """One line a flag: the opponent's side, the flag (claims, Fog, Mud), your side."""
    lines = []
    for flag in view["flags"]:
        theirs, mine = _sides(flag, seat)
        marks = "".join(e[0] for e in flag["environment"])  # F, M
        claimed = f" won by seat {flag['claimed_by']}" if flag["claimed_by"] else ""
        lines.append(f"flag {flag['flag']}{(' ' + marks) if marks else ''}{claimed}: "
                     f"them {_side(theirs):<16} | you {_side(mine)}")
    return "\n".join(lines)


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


CARD_W, CARD_H, GAP = 58, 34, 4
COLUMN = CARD_W + 2 * GAP + 8


def _svg_card(x: int, y: int, card: str) -> str:
    troop = parse_troop(card)
    colour = COLOUR_NAMES[troop.colour] if troop else "#37474f"
    label = card if troop else card[:6]
    return (f'<g><title>{escape(card)}</title><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" '
            f'fill="#ffffff" stroke="{colour}" stroke-width="2"/><text x="{x + CARD_W // 2}" y="{y + 22}" '
            f'text-anchor="middle" font-size="{15 if troop else 10}" font-weight="bold" fill="{colour}">'
            f'{escape(label)}</text></g>')


def svg_board(view: dict, seat: int | None) -> str:
    """The nine flags as an SVG picture: the opponent's cards above each flag, yours below."""
    depth = 4 * (CARD_H + GAP)
    width, height = 9 * COLUMN + 2 * GAP, 2 * depth + 70
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" font-family="sans-serif" role="img" aria-label="Battle Line table">',
             f'<rect width="{width}" height="{height}" fill="#f4efe1"/>']
    middle = depth + 10
    for index, flag in enumerate(view["flags"]):
        x = GAP + index * COLUMN
        theirs, mine = _sides(flag, seat)
        for row, card in enumerate(theirs):
            parts.append(_svg_card(x + GAP + 4, middle - GAP - (row + 1) * (CARD_H + GAP), card))
        for row, card in enumerate(mine):
            parts.append(_svg_card(x + GAP + 4, middle + 50 + GAP + row * (CARD_H + GAP), card))
        claimed = flag["claimed_by"]
        fill = "#9e9e9e" if claimed is None else ("#2e7d32" if claimed == seat else "#c62828")
        label = "".join(e[0] for e in flag["environment"])
        parts.append(f'<g><title>flag {flag["flag"]}' + (f', won by seat {claimed}' if claimed else '') +
                     f'</title><rect x="{x + 8}" y="{middle + 5}" width="{COLUMN - 16}" height="40" rx="8" '
                     f'fill="{fill}"/><text x="{x + COLUMN // 2}" y="{middle + 31}" text-anchor="middle" '
                     f'font-size="16" font-weight="bold" fill="#ffffff">{flag["flag"]}{escape(label)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
