"""What every game engine offers, so that the service can run any of them the same way.

An engine is a set of pure functions on plain, JSON-able state (OpenSpiel's state / legal
actions / apply action / observation; boardgame.io's moves on state plus a player view).
It does no I/O and reads no clock; its only randomness is the seeded RNG handed to
``new_game``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from ..kernel.i18n import N_

State = dict[str, Any]

Step = dict[str, Any]
Event = dict[str, Any]

# An event's ``private`` maps a seat ("1", "2") to what only that seat sees. Under this key
# lies what no seat sees (with Khan & General's advanced rules a seat may not look at its
# own payments): it is kept only so that a game's events replay it (``games.replay``).
UNSEEN = "unseen"


def seat_key(seat: int) -> str:
    """A seat as the key of the state's per-seat maps (hands, discards, an event's private part)."""
    return str(seat)


def event(kind: str, seat: int | None, data: dict, *, private: dict | None = None,
          unseen: dict | None = None) -> Event:
    """An event of the game: ``data`` is told to every seat, ``private`` to the acting seat only,
    ``unseen`` to no seat (kept so that the game's events replay it, ``games.replay``)."""
    found: Event = {"type": kind, "seat": seat, "data": data}
    hidden = {}
    if private is not None and seat is not None:
        hidden[seat_key(seat)] = private
    if unseen is not None:
        hidden[UNSEEN] = unseen
    if hidden:
        found["private"] = hidden
    return found


class Words(str):
    """A sentence for a person, made by the rules in English from a template marked for translation
    (``N_("you do not hold {card}")``, or ``Nn_(singular, plural)`` with ``n``) and its words. It *is*
    the English sentence (logs, tests, the API's English detail); ``i18n.say`` says it in the language
    spoken now, its words too when they are Words themselves (a claim's reason inside a refusal).
    A tuple of words reads as a choice ("play or claim"), a list as all of them ("(1, 1) and (2, 1)"): CLDR's
    "or" and "and" lists when said."""

    template: str | tuple[str, str]
    words: dict[str, Any]
    n: int | None

    def __new__(cls, template: str | tuple[str, str], /, *, n: int | None = None, **words: Any) -> "Words":
        english = template if isinstance(template, str) else template[0 if n == 1 else 1]
        shown = {k: _english_list(v) if isinstance(v, (tuple, list)) else v for k, v in words.items()}
        self = super().__new__(cls, english.format(**shown) if words else english)  # no words: as written
        self.template, self.words, self.n = template, words, n
        return self

    def __reduce__(self):  # copies and pickles keep the template
        return (_words, (self.template, self.n, self.words))


class Quoted(str):
    """What the player wrote, quoted in a refusal: ``'xyz 3'`` in English (as ``repr`` writes it);
    ``i18n.say`` quotes it as the language does (“xyz 3”, 「xyz 3」)."""

    quoted: str

    def __new__(cls, text: Any) -> "Quoted":
        self = super().__new__(cls, repr(text))  # not a str (a number posted as a card): as repr shows it
        self.quoted, self._written = (text if isinstance(text, str) else repr(text)), text
        return self

    def __reduce__(self):
        return (Quoted, (self._written,))


def _english_list(items: tuple | list) -> str:
    """A choice (tuple) or all of them (list) in English: "a or b", "a, b, and c"."""
    word, items = ("or" if isinstance(items, tuple) else "and"), [str(item) for item in items]
    if len(items) <= 2:
        return f" {word} ".join(items)
    return ", ".join(items[:-1]) + f", {word} " + items[-1]


def _words(template: str | tuple[str, str], n: int | None, words: dict[str, Any]) -> Words:
    return Words(template, n=n, **words)


class IllegalStep(Exception):
    """A step the rules do not allow now. ``code`` is the stable machine code of the API; ``reason``
    the sentence saying why (Words: English as a str, ``i18n.say(error.reason)`` in the language
    spoken); ``details`` go into the API's problem body.

    ``IllegalStep(N_("flag {flag} cannot be claimed: {reason}"), flag=3, reason=check.reason)``: the
    template is marked for translation and its words given by name; a ready ``Words`` is taken as it is."""

    def __init__(self, template: str | tuple[str, str], /, *, code: str = "illegal_action",
                 details: dict[str, Any] | None = None, n: int | None = None, **words: Any) -> None:
        reason = template if isinstance(template, Words) else Words(template, n=n, **words)
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.details = details or {}


class RulesUnavailable(Exception):
    """The rules a game was begun with are not on this server now, so the game can be neither shown
    nor played: Khan & General's card set whose file is gone (a folder the server no longer reads)
    or was changed in place under the same version. Not the player's doing, and retrying cannot help:
    the game waits until the server's operator restores the rules. The service answers it as
    ``game_unavailable``; the outbox does not retry it.

    The message (``str``) is for the log, with what the operator needs; ``reason`` (Words) says what is
    missing to a player, ``details`` go into the API's problem body."""

    def __init__(self, message: str, *, reason: Words | None = None, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else Words(N_("the rules this game was begun with are not on "
                                                                 "this server now"))
        self.details = details or {}


class GameEngine(Protocol):
    name: str
    rules_version: str  # the rules it plays, recorded on each game ("battleline/1"): docs/records.md
    options_model: type[BaseModel]
    step_schema: Any  # the pydantic type of one step, for validation and the OpenAPI file
    view_model: type[BaseModel]  # the documented shape of view()

    def parse_step(self, raw: object) -> Step:
        """Check a step's shape (raises pydantic.ValidationError) and return it as plain data."""
        ...

    def seat_count(self, options: dict) -> int: ...

    def new_game(self, options: dict, rng: random.Random) -> State: ...

    def legal_steps(self, state: State, seat: int) -> list[Step]: ...

    def apply_step(self, state: State, seat: int, step: Step) -> list[Event]:
        """Apply one step to ``state`` in place and return the events it caused: at least one,
        and enough (with their private parts) for ``step_of`` to tell the step again."""
        ...

    def step_of(self, event: Event) -> Step | None:
        """The step an event records, from its data with every private part merged in; None for
        an event that a step caused (a turn started, a unit destroyed, the game finished)."""
        ...

    def view(self, state: State, seat: int | None) -> dict: ...

    def public_options(self, options: dict, seat: int | None) -> dict:
        """The game's options as a seat (None: a spectator) may see them."""
        ...

    def to_move(self, state: State) -> int | None: ...

    def phase(self, state: State) -> str: ...

    def result(self, state: State) -> dict | None: ...

    def forfeit(self, state: State, seat: int, reason: str) -> list[Event]:
        """The seat loses at once (``reason``: timeout, withdrawn); in place, like apply_step."""
        ...

    def match_points(self, result: dict, options: dict) -> dict[str, float]:
        """Tournament points per seat ("1", "2") of a finished game."""
        ...

    def forfeit_points(self, options: dict) -> float:
        """Tournament points of a pairing won without play."""
        ...

    def rating_pool(self, options: dict) -> str:
        """The ratings (and the leaderboard) a rated game of these options moves: the game type's
        name, or ``<name>:<variant>`` for a variant rated apart (Khan & General's card sets; issue 36,
        item 9). Raises LookupError for a variant the engine does not know."""
        ...


# ---------------------------------------------------------------- phases and their moves
#
# One vocabulary for both engines (boardgame.io's phases naming their moves, python-chess's
# named rules): a game's ``PHASES`` maps each phase to the moves it allows; a move is the
# rule that checks a step (``check_<step>``: raises IllegalStep, its docstring says the rule)
# and the function that plays it (``apply_<step>``); ``<step>_candidates`` lists a seat's
# candidate steps of a type. Events are made by ``event`` and per-seat maps keyed by
# ``seat_key``.

Check = Callable[[State, int, Step], object]
Apply = Callable[[State, int, Step], list[Event]]
Candidates = Callable[[State, int], list[Step]]


@dataclass(frozen=True)
class Move:
    """How one step type is played: ``check`` raises IllegalStep if the rules forbid the step
    now (what it returns is for ``apply``'s use or ignored); ``apply`` plays a checked step in
    place and returns its events."""

    check: Check
    apply: Apply


@dataclass(frozen=True)
class Phase:
    """A phase of the game and the step types it allows, each with its move; ``candidates``
    lists the steps a seat may consider in this phase (every legal step is among them)."""

    name: str
    moves: Mapping[str, Move]
    candidates: Candidates

    def allows(self, state: State, seat: int, step: Step) -> bool:
        """Is ``step`` a step of this phase that its rule allows now?"""
        move = self.moves.get(step["type"])
        return move is not None and allows(move.check, state, seat, step)


def allows(check: Check, state: State, seat: int, step: Step) -> bool:
    """Does the rule ``check`` let the seat take the step now?"""
    try:
        check(state, seat, step)
    except IllegalStep:
        return False
    return True


def no_check(state: State, seat: int, step: Step) -> None:
    """A move whose step is allowed whenever its phase is (``end_action``, ``stay``)."""


class TurnState:
    """The engine accessors every game's state answers the same way: ``to_move``, ``phase``,
    ``result`` are keys of the state."""

    def to_move(self, state: State) -> int | None:
        return state["to_move"]

    def phase(self, state: State) -> str:
        return state["phase"]

    def result(self, state: State) -> dict | None:
        return state["result"]

    def rating_pool(self, options: dict) -> str:
        """One pool of ratings for the game type (``GameEngine.rating_pool``)."""
        return self.name  # type: ignore[attr-defined]


def apply_steps(engine: GameEngine, state: State, seat: int, steps: list[Step]) -> tuple[State, list[Event]]:
    """Apply steps in order, all or nothing: the given state is never changed. An engine may
    offer ``copy_state(state)``, a faster ``copy.deepcopy`` of its states; it is used when offered."""
    copier = getattr(engine, "copy_state", None)
    working = copier(state) if copier is not None else copy.deepcopy(state)
    events: list[Event] = []
    for index, step in enumerate(steps):
        try:
            events.extend(engine.apply_step(working, seat, step))
        except IllegalStep as error:
            error.details.setdefault("step_index", index)
            raise
    return working, events
