"""How each game is shown to people and read from their text commands (emails, pages, the
command line), by the name clients use in ``createGame``; each loaded on first use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import InitVar, dataclass, field
from typing import Any

from . import OnFirstUse
from .base import Step
from ..kernel import i18n
from ..kernel.i18n import N_, _, say
from .steptypes import CommandError, StepTable

__all__ = ["PRESENTERS", "CommandError", "Presenter"]


@dataclass(frozen=True)
class Presenter:
    """How a game is shown to people (emails, pages, the command line) and read from their
    text commands; every function works from a seat's view only. Steps are written, told and
    read by the game's step table.

    ``title`` is the game's name in the language spoken where it is read ("Battle Line", "战线",
    "汗王与大将军"): the presenter is made with its English name, marked ``N_`` for the catalog
    (kept as ``english_title``), and translated on every access."""

    title: InitVar[str]  # made with the English name; read back in the language spoken (below)
    help: str  # the text commands, for replies that could not be read
    example: str  # a command or two, for emails
    steps: StepTable
    text_board: Callable[[dict, int | None], str]
    html_board: Callable[[dict, int | None], str]  # for emails: what common mail clients draw
    svg_board: Callable[[dict, int | None], str]  # for pages in a browser
    hand_html: Callable[[list[str]], str]
    # The game told (story.py): an event in a sentence with the players' names (None: nothing to
    # tell), and the counts a player follows; each from a seat's view (and the events as it sees them).
    tell: Callable[[dict, dict], str | None]  # (event, view)
    counts: Callable[[dict], list[str]]  # (view)
    result_line: Callable[[dict, dict[int, str], int | None], str]  # (result, names, you): who won and why
    options_told: Callable[[dict], list[str]]  # (view): the options a player asked to play needs to know
    turn_label: Callable[[dict], str]  # (state): "turn 7", "round 3"
    bulky_steps: tuple[str, ...] = ()  # step types left out of emails' link lists when there are many
    # Each card id a step may name -> its name in the language spoken (a card not in it reads as its id).
    card_names: Callable[[dict], dict[str, str]] = lambda view: {}  # (view)
    # Example steps told one a line in the help of a reply that could not be read, each command with
    # its sentence (none: the step table's ``help`` as written).
    help_steps: tuple[Step, ...] = ()
    help_asides: tuple[str, ...] = ()
    # Emails and link pages (presenting.show): a card as the templates draw it (None: by its name), the
    # table as rows (None: the board is drawn whole), a play of a card onto the table (the card x flag
    # grid's), and the line above that grid.
    card_face: Callable[[str], dict] | None = None
    table_rows: Callable[[dict, dict[int, str]], list[dict]] | None = None  # (view, each seat's name)
    on_a_spot: Callable[[Step], bool] = lambda step: False
    grid_intro: Callable[[], str] = lambda: ""  # the asides in ``help``'s brackets, said in the reader's language
    # What follows a link's step in the same turn, offered on its page and chosen there (Battle Line:
    # the claim and the draw after a play): (the seat's view now, the phase, the page's choices or
    # None for what it offers first) -> (what was offered, the step taken), or None: nothing follows.
    then: Callable[[dict, str, Any], tuple[dict, dict] | None] = lambda view, phase, choices: None
    # A turn as commands, from a step the seat may take now (view, step, whether the command line
    # numbers its choices): the emails' example and the command line's (None: the step alone).
    example_turn: Callable[[dict, Step, bool], list[str]] | None = None
    # The cards the seat holds but may not play at its decision, grouped by what keeps them in hand
    # (view) -> [(card ids, the reason as Words)] (Battle Line: the tactics count, a second Leader); none
    # when the seat does not choose a card now.
    held_back: Callable[[dict], list[tuple[list[str], Any]]] = lambda view: []
    # Whose turn it is (view) -> seat, or None: a seat may have a decision in another's turn (Khan & General's
    # reaction, Battle Line's discard under Mud), and is told so.
    turn_of: Callable[[dict], int | None] = lambda view: None
    # How a tournament scores a game of it, in a sentence marked N_ (the standings page says it, in the reader's
    # language); empty: the page says nothing of it.
    scoring: str = ""
    english_title: str = field(init=False, default="")

    def __post_init__(self, title: str) -> None:
        object.__setattr__(self, "english_title", title)
        told = self.tell
        # Every sentence of the game's story begins with a capital, a bot's name too ("Bot tham lam đã…").
        object.__setattr__(self, "tell", lambda event, view: capitalised(told(event, view)))

    def told(self, view: dict, events: list[dict]) -> list[str]:
        """The events in sentences (the move log), leaving out what needs no telling."""
        return [line for event in events if (line := self.tell(event, view))]

    def recap(self, view: dict, events: list[dict], limit: int = 12) -> list[str]:
        """What happened since the seat last moved (its own steps left out), in sentences: the first
        thing a player wants to read. A spectator gets the last few events."""
        return self.told(view, since_own_move(events, view["you"]))[-limit:]

    def decision_in_another_turn(self, view: dict) -> str | None:
        """Whose turn it is when the seat's decision falls in another seat's turn (a reaction), by name;
        None in its own turn."""
        turn = self.turn_of(view) if view["status"] == "active" and view["to_move"] == view["you"] else None
        return names(view).get(turn) if turn is not None and turn != view["you"] else None

    def not_playable(self, view: dict) -> list[str]:
        """The cards the seat holds but may not play now, each group with the rule that keeps it in hand,
        in the reader's words (``held_back``): "Not playable now: Alexander, Scout (you have played 1
        tactics card and your opponent 0: …)". The emails', the board page's and the command line's."""
        called = self.card_names(view)
        return [i18n.aside(_("Not playable now: {cards}").format(cards=i18n.joined([called.get(c, c) for c in cards])),
                           say(reason)) for cards, reason in self.held_back(view)]

    def held_for_later(self, view: dict, steps: list[Step]) -> str:
        """What a reply (or the command line's move) leaves for the seat's next decision, and why: its first
        steps gave another seat the decision (Khan & General's reaction window). ``view``: the game after them."""
        return _("Not played yet: {steps}: {name} may answer first (it is their decision now); send them when it "
                 "is your decision again").format(steps=i18n.commands([self.say_step(s) for s in steps]),
                                                  name=names(view).get(view.get("to_move"), "?"))

    def describe_step(self, step: Step) -> str:
        """The step in words, in the language spoken now."""
        return say(self.steps.describe(step))

    def write_step(self, step: Step) -> str:
        return self.steps.write(step)

    def say_step(self, step: Step) -> str:
        """A step as the command that asks for it, in the words of the language spoken now."""
        return self.steps.say(self.steps.write(step))

    def parse_commands(self, text: str) -> list[Step]:
        return self.steps.read_commands(text)

    def parse_reply(self, text: str) -> tuple[list[Step], str | None]:
        """A reply's steps and the message that goes with them (``StepTable.read_reply``)."""
        return self.steps.read_reply(text)


def _title(self: Presenter) -> str:
    """The game's name in the language spoken now (the rule books' own: "战线", "汗王与大将军")."""
    return _(self.english_title)


# The games' names, for the catalog (each presenter is made with its English one).
TITLES = (N_("Battle Line"), N_("Khan & General"))

# Set after the dataclass is made: a property written in the class body would be taken for the
# default of the ``title`` argument.
Presenter.title = property(_title, doc=_title.__doc__)  # type: ignore[assignment,method-assign]


# The server's bots by name, as a seat they play is called ("greedy bot"), in the reader's language.
BOT_NAMES = {"random": N_("random bot"), "greedy": N_("greedy bot"), "mcts": N_("MCTS bot")}


# Names made from a lower-case message, which a sentence may begin with ("greedy bot", "bot tham lam").
LOWER_CASE_NAMES = (*BOT_NAMES.values(), N_("an open seat"), N_("an invited player"))


def capitalised(sentence: str | None) -> str | None:
    """A sentence that begins with a name made from a lower-case message (``LOWER_CASE_NAMES``), in the
    language spoken, with its first letter capitalised; any other as it is (a player's own name too)."""
    if sentence and sentence[:1].islower() and any(sentence.startswith(_(name)) for name in LOWER_CASE_NAMES):
        return sentence[:1].upper() + sentence[1:]
    return sentence


def seat_name(seat: dict) -> str:
    """A seat's player's name as people read it: a bot account's (``bot_account``) says so, "Robo
    (bot)", wherever the name is shown (pages, emails, the story of the game); a seat the server's
    bot plays (``bot``) is that bot, "greedy bot", in the reader's language."""
    bot = BOT_NAMES.get(seat.get("bot") or "") if not seat.get("player_id") else None
    if bot:
        return _(bot)
    return _("{name} (bot)").format(name=seat["name"]) if seat.get("bot_account") else seat["name"]


def names(view: dict) -> dict[int, str]:
    """Each seat's name as people read it (a player's name, a bot's, or an open invitation): a seat
    still kept for an invitation is "an invited player" in the reader's language, not the stored
    "(invited)"."""
    return {s["seat"]: _("an open seat") if s.get("open") else _("an invited player")
            if s.get("invited") and not s.get("player_id") else seat_name(s) for s in view["seats"]}


def since_own_move(events: list[dict], seat: int | None) -> list[dict]:
    """What the others did last: the latest run of events not the seat's own (its own steps at the
    end, taken since, are left out too: a turn of several steps recaps the opponent's). A step the
    seat takes in another seat's turn (a defence in Khan & General's reaction window) does not end
    the run: the opponent's whole turn is told. A spectator gets every event."""
    if seat is None:
        return events
    turn_of, current = [], None  # whose turn each event falls in, where the game says (turn_started)
    for event in events:
        if event["type"] == "turn_started":
            current = event["seat"]
        turn_of.append(current)

    def own(index: int) -> bool:
        event = events[index]
        return event["seat"] == seat and event["type"] not in QUIET and turn_of[index] in (None, seat)

    end = len(events)
    while end > 0 and (own(end - 1) or events[end - 1]["type"] in QUIET):
        end -= 1
    start = end
    while start > 0 and not own(start - 1):
        start -= 1
    return events[start:end]


def unplayed_line(result: dict, names: dict[int, str], you: int | None) -> str | None:
    """How a game that never began ended (``declined``: the result's seat said no to it;
    ``aborted``: the result's seat called it off before its first move), in names; None for a
    game its rules ended. Nobody won such a game: it is never "a draw"."""
    seat, code = result.get("seat"), result.get("reason")
    if code == "declined" and result.get("lapsed"):  # a ladder challenge not answered in time
        if seat is not None and seat == you:
            return _("You did not answer in time: the game counts as declined")
        return _("{name} did not answer in time: the game counts as declined").format(
            name=names.get(seat) or _("an invited player"))
    if code == "declined":
        if seat is not None and seat == you:
            return _("You declined the game")
        return _("{name} declined the game").format(name=names.get(seat) or _("an invited player"))
    if code == "aborted" and result.get("abandoned"):
        if seat is not None and seat == you:
            return _("Your time ran out before your first move: the game was aborted, unrated")
        return _("{name} never made a move in time: the game was aborted, unrated").format(name=names.get(seat, "?"))
    if code == "aborted":
        if seat is not None and seat == you:
            return _("You called the game off before its first move")
        if seat is None:
            return _("The game was called off before its first move")
        return _("{name} called the game off before its first move").format(name=names.get(seat, "?"))
    return None


def tell_lobby(event: dict, view: dict, result_line: Callable[[dict, dict[int, str], int | None], str]) -> str | None:
    """The lobby's events in a sentence (a seat accepted or was taken, the game declined or called
    off); None for any other event."""
    kind, seat, you = event["type"], event["seat"], view["you"]
    who = _("You") if seat is not None and seat == you else names(view).get(seat, "?")
    if kind == "seat_accepted":
        return _("{who} accepted the game").format(who=who)
    if kind in ("seat_joined", "seat_taken"):
        return _("{who} joined the game").format(who=who)
    if kind in ("game_declined", "game_aborted") and event["data"].get("result"):
        return result_line(event["data"]["result"], names(view), you)
    return None


QUIET = ("turn_started", "reaction_window")  # events a seat is named in without having moved


PRESENTERS: OnFirstUse[Presenter] = OnFirstUse("presenter", "PRESENTER")
