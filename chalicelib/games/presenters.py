"""How each game is shown to people and read from their text commands (emails, pages, the
command line), by the name clients use in ``createGame``; each loaded on first use."""

from __future__ import annotations

from . import OnFirstUse
from .base import Presenter

PRESENTERS: OnFirstUse[Presenter] = OnFirstUse("presenter", "PRESENTER")
