"""Your moves as a player reads them: grouped, never one line a step.

A view's ``legal_steps`` lists every step one by one (64 plays on a Battle Line first turn, 84
deployments on a Khan & General turn). Here they are grouped the way the game is thought, by the
game's own part (``chalicelib/games/<game>/terminal.py``, through ``TERMINALS``): a line per card
with the flags it can go to (``7R → flags 1 2 3 5 8``), or a section per kind of step (deploy:
units → squares and facings; commands; pay; ends). A short decision (a claim, a draw) is numbered
instead, and ``battleline play GAME 2`` takes the number. Every choice keeps the steps it stands for, so a
test can check that nothing legal is left out.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from chalicelib.games.terminal import TERMINALS, Choice

from .settings import columns

WIDTH = 110  # a move line longer than this is wrapped
UNBROKEN = re.compile(r"\(-?\d+, -?\d+\)|any facing|facing [NESW](?: [NESW])*")  # never cut across lines
NUMBERED_AT_MOST = 6  # a decision with this many steps or fewer is listed one numbered step a line


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
    """The seat's moves grouped and headed as its game does it (``TERMINALS[game]``)."""
    shown = TERMINALS[view["game"]]
    steps = playable(view)
    numbered = steps if len(steps) <= NUMBERED_AT_MOST and not shown.grouped_anyway(view) else []
    return Moves(shown.heading(view), shown.choices(view, steps), numbered)
