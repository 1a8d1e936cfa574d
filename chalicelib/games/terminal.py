"""How each game is shown on a terminal (the ``battleline`` command line, battleline_cli/), by the
name clients use in ``createGame``; each loaded on first use (``TERMINALS[view["game"]]``).

A game's part is its ``<game>/terminal.py``: how its moves are grouped and headed, its board as
lines of text, its hand, its colours, what the example of a turn types, the card set a view needs.
The command line itself names no game (tests/test_architecture.py); what every game shares lives
here: a line of moves (``Choice``), the helpers the games' parts group steps with, a seat's name as
a terminal writes it, and the columns a line takes on a terminal."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from ..kernel import i18n
from ..kernel.i18n import _
from . import OnFirstUse
from .presenters import PRESENTERS, names


@dataclass(frozen=True)
class Choice:
    """One line of moves, under its section's heading (None: a line of its own)."""

    text: str
    steps: tuple[dict, ...]
    section: str | None = None


def plain_hand(view: dict, card_set: dict | None = None) -> list[str]:
    """The hand as its cards' ids: "Your hand: 7R 3G" (none for a spectator)."""
    if view["you"] is None:
        return []
    return [_("Your hand: {cards}").format(cards=" ".join(view["state"].get("hand") or []) or _("empty"))]


def _none(view: dict) -> list[str]:
    return []


def _first(view: dict, step: dict, numbered: bool) -> list[str]:
    return [PRESENTERS[view["game"]].write_step(step)]


@dataclass(frozen=True)
class Terminal:
    """A game on a terminal; every function works from a seat's view (API shapes) only."""

    heading: Callable[[dict], str]  # (view): what the decision is ("Your move: play a card, then ...")
    choices: Callable[[dict, list[dict]], list[Choice]]  # (view, steps): the steps grouped, every one kept
    board: Callable[[dict, dict | None], list[str]]  # (view, card set or None): the table, its sides named
    hand: Callable[[dict, dict | None], list[str]] = plain_hand  # (view, card set or None)
    grouped_anyway: Callable[[dict], bool] = lambda view: False  # (view): group even a short decision
    notes: Callable[[dict], list[str]] = _none  # (view): lines after the counts
    colour: Callable[[str], str] = lambda line: line  # a line of this game's text coloured for a terminal
    # (view, the first step shown, whether the steps are numbered): the commands of an example turn
    example: Callable[[dict, dict, bool], list[str]] = _first
    card_set_ref: Callable[[dict], dict | None] = lambda view: None  # (view): its card set's id and version
    card_set_path: Callable[[dict], str | None] = lambda ref: None  # (a card set's id and version): its API path
    turn_a_line: bool = True  # the log tells a turn in one paragraph (else a step a line)


TERMINALS: OnFirstUse[Terminal] = OnFirstUse("terminal", "TERMINAL")


# ---------------------------------------------------------------- grouping steps

def in_order(steps: list, key: Callable[[dict], object]) -> dict:
    """The steps by ``key``, keys in the order first seen."""
    found: dict = {}
    for step in steps:
        found.setdefault(key(step), []).append(step)
    return found


def listed(words: list[str], last: str | None = None) -> str:
    """``a, b, or c`` as the language writes it (CLDR's "or" list: "a、b或c", "a、b、またはc"); with no
    ``last``, a plain row: "a, b, c" ("a、b、c")."""
    if len(words) < 2:
        return "".join(words)
    if last is None:
        return ("、" if i18n.full_width() else ", ").join(words)
    return i18n.either(words)


def others(view: dict, steps: list[dict], choices: list[Choice]) -> list[Choice]:
    """Any step no group took (a step type added later): written as its command, each on a line."""
    taken = {id(s) for c in choices for s in c.steps}
    return [Choice(PRESENTERS[view["game"]].write_step(s), (s,)) for s in steps if id(s) not in taken]


# ---------------------------------------------------------------- seats

def name_of(view: dict, seat: int | None) -> str:
    """A seat as people read it: "you", or the player's (or bot's) name."""
    if seat is not None and seat == view["you"]:
        return _("you")
    return names(view).get(seat, "?")


def seat_name(view: dict, seat: int) -> str:
    """A seat's name over its side of the table (an invited seat's name is not told)."""
    found = next((s for s in view["seats"] if s["seat"] == seat), None)
    if found and found.get("invited"):
        return _("invited player")
    return names(view).get(seat, "?")


def yours(name: str) -> str:
    """A name marked as yours: "Ann (you)", "安（你）" (no space before a full-width parenthesis)."""
    mark = _("(you)")
    return name + (mark if mark.startswith("（") else " " + mark)


# ---------------------------------------------------------------- terminal columns

def columns(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide East Asian character (漢字, かな, full-width
    punctuation) takes two, a combining mark (Vietnamese tones written apart) none."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns (as ``f"{text:<{width}}"`` for ASCII)."""
    return text + " " * max(0, width - columns(text))


def right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal columns (as ``f"{text:>{width}}"`` for ASCII)."""
    return " " * max(0, width - columns(text)) + text


def row(items) -> str:
    """Items one after another with no "and": "a, b, c", "a、b、c" in Chinese and Japanese (``i18n.joined``)."""
    return i18n.joined([str(item) for item in items])


def aside(text: str) -> str:
    """``text`` in parentheses after a word: " (text)", "（text）" (full width, no space) in Chinese and
    Japanese (``i18n.aside`` after nothing)."""
    return i18n.aside("", text)
