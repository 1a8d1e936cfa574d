"""The field as text (emails, the command line) and as SVG (emails, pages, viewers), drawn
from a seat's view only, so nothing hidden from that seat can appear (steps in words are
``steps.py``'s)."""

from __future__ import annotations

from html import escape

ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}
SEAT_COLOURS = {1: "#b71c1c", 2: "#0d47a1"}
CELL = 64


def abbreviation(unit_id: str | None) -> str:
    """Two letters for a unit type: the initials of a two-word id, else its first two letters."""
    if unit_id is None:
        return "??"
    words = unit_id.split("_")
    return (words[0][0] + words[1][0] if len(words) > 1 else unit_id[:2]).upper()


def _bounds(field: list[dict]) -> tuple[int, int, int, int]:
    xs = [u["x"] for u in field] or [0]
    ys = [u["y"] for u in field] or [0]
    return min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1


def _cell(unit: dict) -> str:
    mark = "*" if unit["wounded"] else ("~" if not unit["face_up"] else " ")
    return f"{unit['seat']}{abbreviation(unit['unit'])}{ARROWS[unit['facing']]}{mark}"


def text_board(state: dict, seat: int | None) -> str:
    """A grid (north up; each unit as seat, type, facing; * wounded, ~ face down; ?? unknown),
    then one line per unit with its command."""
    field = state["field"]
    left, right, bottom, top = _bounds(field)
    at = {(u["x"], u["y"]): u for u in field}
    header = "     " + "".join(f"{x:^6}" for x in range(left, right + 1))
    rows = [header]
    for y in range(top, bottom - 1, -1):
        cells = "".join(f"{_cell(at[(x, y)]) if (x, y) in at else '  .  ':^6}" for x in range(left, right + 1))
        rows.append(f"{y:>4} {cells}")
    lines = ["\n".join(rows), ""]
    for unit in field:
        who = "yours" if unit["seat"] == seat else f"seat {unit['seat']}"
        what = unit["unit"] or "unknown unit"
        details = [f"faces {unit['facing']}"]
        if not unit["face_up"]:
            details.append("face down")
        if unit["wounded"]:
            details.append("wounded")
        if unit["command"]:
            details.append(f"command {unit['command']}")
        if unit["grappled_by"]:
            details.append("grappled")
        lines.append(f"({unit['x']}, {unit['y']}) {what} ({who}): {', '.join(details)}")
    lines.append("")
    lines.append(f"Round {state['round']} of {state['max_rounds']}; cards this turn: "
                 + ", ".join(f"seat {s} {n}" for s, n in state["limits"].items())
                 + "; units left: " + ", ".join(f"seat {s} {n}" for s, n in state["units_left"].items()))
    for s, sequences in state["sequences"].items():
        if sequences:
            lines.append(f"Seat {s}'s command zone: " + "; ".join(
                f"sequence {i}: {' '.join(p['cards']) if p['cards'] is not None else str(p['size']) + ' face down'}"
                for i, p in enumerate(sequences, start=1)))
    return "\n".join(lines)


def svg_board(state: dict, seat: int | None) -> str:
    """The field as an SVG picture: squares, units in their seat's colour with a facing wedge,
    wounds and commands; coordinates along the edges."""
    field = state["field"]
    left, right, bottom, top = _bounds(field)
    width, height = (right - left + 2) * CELL, (top - bottom + 2) * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" font-family="sans-serif" role="img" aria-label="Khan and General field">',
             f'<rect width="{width}" height="{height}" fill="#f4efe1"/>']

    def corner(x: int, y: int) -> tuple[int, int]:
        return (x - left + 1) * CELL, (top - y) * CELL

    for x in range(left, right + 1):
        cx, _ = corner(x, top)
        parts.append(f'<text x="{cx + CELL // 2}" y="{height - CELL // 3}" text-anchor="middle" font-size="12" '
                     f'fill="#555">{x}</text>')
    for y in range(bottom, top + 1):
        _, cy = corner(left, y)
        parts.append(f'<text x="{CELL // 2}" y="{cy + CELL // 2 + 4}" text-anchor="middle" font-size="12" '
                     f'fill="#555">{y}</text>')
        for x in range(left, right + 1):
            cx, cy = corner(x, y)
            parts.append(f'<rect x="{cx}" y="{cy}" width="{CELL}" height="{CELL}" fill="none" stroke="#c9bfa5"/>')
    for unit in field:
        cx, cy = corner(unit["x"], unit["y"])
        colour = SEAT_COLOURS.get(unit["seat"], "#333")
        fill = colour if unit["face_up"] else "#777777"
        mine = " (yours)" if unit["seat"] == seat else ""
        title = escape(f"({unit['x']}, {unit['y']}) {unit['unit'] or 'unknown unit'}, seat {unit['seat']}{mine}, "
                       f"faces {unit['facing']}" + (", wounded" if unit["wounded"] else "")
                       + (f", command {unit['command']}" if unit["command"] else ""))
        parts.append(f'<g><title>{title}</title>')
        parts.append(f'<rect x="{cx + 6}" y="{cy + 6}" width="{CELL - 12}" height="{CELL - 12}" rx="6" fill="{fill}" '
                     f'stroke="{colour}" stroke-width="3"/>')
        mid_x, mid_y = cx + CELL // 2, cy + CELL // 2
        tip = {"N": (mid_x, cy + 2), "S": (mid_x, cy + CELL - 2), "E": (cx + CELL - 2, mid_y), "W": (cx + 2, mid_y)}
        base = {"N": ((mid_x - 8, cy + 12), (mid_x + 8, cy + 12)), "S": ((mid_x - 8, cy + CELL - 12), (mid_x + 8, cy + CELL - 12)),
                "E": ((cx + CELL - 12, mid_y - 8), (cx + CELL - 12, mid_y + 8)),
                "W": ((cx + 12, mid_y - 8), (cx + 12, mid_y + 8))}
        (ax, ay), (bx, by) = base[unit["facing"]]
        tx, ty = tip[unit["facing"]]
        parts.append(f'<polygon points="{tx},{ty} {ax},{ay} {bx},{by}" fill="#ffd54f" stroke="#5d4037"/>')
        parts.append(f'<text x="{mid_x}" y="{mid_y + 5}" text-anchor="middle" font-size="16" font-weight="bold" '
                     f'fill="#ffffff">{escape(abbreviation(unit["unit"]))}</text>')
        if unit["wounded"]:
            parts.append(f'<circle cx="{cx + CELL - 14}" cy="{cy + 14}" r="6" fill="#ff1744" stroke="#ffffff"/>')
        if unit["command"]:
            parts.append(f'<text x="{mid_x}" y="{cy + CELL - 9}" text-anchor="middle" font-size="9" '
                         f'fill="#ffffff">{escape(unit["command"][:12])}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def html_board(state: dict, seat: int | None) -> str:
    """For emails and pages: the SVG, and the text board for clients that do not draw SVG."""
    return (f'<div>{svg_board(state, seat)}</div><pre style="font-size:12px">{escape(text_board(state, seat))}'
            f'</pre>')


def hand_html(cards: list[str]) -> str:
    return escape(" ".join(cards))
