"""How each game is shown to people and read from their text commands (emails, pages, the
command line), by the name clients use in ``createGame``; each loaded on first use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import OnFirstUse
from .base import Step
from .steptypes import CommandError, StepTable

__all__ = ["PRESENTERS", "CommandError", "Presenter"]


@dataclass(frozen=True)
class Presenter:
    """How a game is shown to people (emails, pages, the command line) and read from their
    text commands; every function works from a seat's view only. Steps are written, told and
    read by the game's step table."""

    title: str
    help: str  # the text commands, for replies that could not be read
    example: str  # a command or two, for emails
    steps: StepTable
    text_board: Callable[[dict, int | None], str]
    html_board: Callable[[dict, int | None], str]  # for emails: what common mail clients draw
    svg_board: Callable[[dict, int | None], str]  # for pages in a browser
    hand_html: Callable[[list[str]], str]
    bulky_steps: tuple[str, ...] = ()  # step types left out of emails' link lists when there are many

    def describe_step(self, step: Step) -> str:
        return self.steps.describe(step)

    def write_step(self, step: Step) -> str:
        return self.steps.write(step)

    def parse_commands(self, text: str) -> list[Step]:
        return self.steps.read_commands(text)


PRESENTERS: OnFirstUse[Presenter] = OnFirstUse("presenter", "PRESENTER")
