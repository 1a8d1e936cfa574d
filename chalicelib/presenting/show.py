"""What a seat is shown in its emails and on the pages behind their links, from its own view
(so nothing hidden from that seat can appear): the subject of the game's thread, the first line
(what the others just did, and whose move it is), the clock, the table as data for the
templates (Battle Line: each flag's two sides, cards with colour and value, Fog and Mud on their
flag, claimed flags by the winner's name), and the seat's moves grouped: Battle Line's card x
flag grid of links, the other steps by kind, resign apart.

Pure: views in, words and plain data out (the templates draw them, through :mod:`.templates`).
Every sentence goes through gettext (chalicelib/kernel/i18n.py). What is a game's own (its table, its
cards, its story, each step's sentence) is asked of its presenter, ``PRESENTERS[view["game"]]``:
``games/<game>/presenter.py``."""

from __future__ import annotations

from typing import Callable

from ..kernel import i18n, talk
from ..games.base import Words
from ..games.presenters import PRESENTERS, names, seat_name
from ..kernel.i18n import _, ngettext
from .links import Links

StepUrl = Callable[[dict], str]  # a legal step -> its signed link

# ---------------------------------------------------------------- the game and its players


def people(view: dict) -> dict[int, str]:
    """Each seat's name (a seat still kept for an invitation: "an invited player")."""
    return {s["seat"]: _("an open seat") if s.get("open") else _("an invited player")
            if s.get("player_id") is None and not s.get("bot") else seat_name(s) for s in view["seats"]}


def others(view: dict) -> list[str]:
    """The names of the other seats (everyone, for a spectator)."""
    return [name for seat, name in people(view).items() if seat != view["you"]]


def listed(words: list[str]) -> str:
    """'Bob', 'Bob and Cat', 'Bob, Cat, and Dan' (as the reader's language lists them)."""
    return i18n.listed(words)


def title(view: dict) -> str:
    """The game's name in the reader's language (the rule books': 战线, 汗王与大将军)."""
    name = PRESENTERS[view["game"]].title
    return _(name)


def subject(view: dict) -> str:
    """The subject of every email of a game to one player: the same from the invitation to the
    result (what changed is the first line), so that mail clients keep them in one thread."""
    return _("{game} with {players} (game {game_id})").format(game=title(view), players=listed(others(view)),
                                                             game_id=view["game_id"])


def result_line(view: dict) -> str:
    """Who won and why, in names ("Ann won (three adjacent flags)", "You won (...)")."""
    return PRESENTERS[view["game"]].result_line(view["result"], names(view), view["you"])


def whose_move(view: dict) -> str:
    """Whose move it is, who won, or whom the game waits for."""
    if view["status"] == "finished" and view.get("result"):
        return i18n.sentences(result_line(view))
    if view["status"] == "waiting":
        return waiting_line(view)
    if view["to_move"] is not None and view["to_move"] == view["you"]:
        turn = PRESENTERS[view["game"]].decision_in_another_turn(view)
        return _("Your move, in {name}'s turn.").format(name=turn) if turn else _("Your move.")
    return _("{name} is to move.").format(name=names(view).get(view["to_move"], "?"))


def waits_for(view: dict) -> bool:
    """The game waits for the view's seat to answer (accept or decline)."""
    seat = next((s for s in view["seats"] if s["seat"] == view["you"]), None)
    return view["status"] == "waiting" and seat is not None and bool(seat.get("invited")) \
        and seat.get("player_id") is not None


def waiting_line(view: dict) -> str:
    """Whom a game that has not begun waits for: the players asked (their answer), the addresses
    invited by email, the open seats."""
    you, waited = view["you"], []
    for seat in view["seats"]:
        if not seat.get("invited"):
            continue
        if seat.get("open"):
            waited.append(_("a player to take the open seat"))
        elif seat.get("player_id") is None:
            waited.append(_("an invited player to join"))
        elif seat["seat"] == you:
            waited.append(_("your answer"))
        else:
            waited.append(_("{name} to accept").format(name=seat["name"]))
    if not waited:
        return _("The game is about to begin.")
    return _("The game waits for {whom}.").format(whom=listed(waited))


def summary(view: dict) -> list[str]:
    """What a player asked to play needs to know to answer: the players, the options that matter
    (tactics, who starts, a match; Khan's card set and sides), the time control and whether the game
    is rated. From the seat's view: no card of anyone's is named."""
    options, you, who = view.get("options") or {}, view["you"], people(view)
    lines = [_("Players: {players}.").format(players=listed(
        [_("you") if seat == you else name for seat, name in who.items()]))]
    first = options.get("first_seat")
    lines += PRESENTERS[view["game"]].options_told(view)
    if first is None:
        lines.append(_("Who moves first was drawn at random."))
    elif first == you:
        lines.append(_("You move first."))
    else:
        lines.append(_("{name} moves first.").format(name=who.get(first, "?")))
    control = options.get("time_control")
    if not control:
        lines.append(_("No time limit."))
    elif "per_move_days" in control:
        days = control["per_move_days"]
        lines.append(ngettext("{count} day for each move.", "{count} days for each move.", days).format(count=days))
    elif "moves" in control:
        lines.append(_("{days} for every {moves}, unused time carried forward.").format(
            days=ngettext("{count} day", "{count} days", control["days"]).format(count=control["days"]),
            moves=ngettext("{count} move", "{count} moves", control["moves"]).format(count=control["moves"])))
    else:
        lines.append(_("{initial} to start, {increment} more for each move, at most {most}.").format(
            initial=_days(control["initial_days"]), increment=_days(control["increment_days"]),
            most=_days(control["max_days"])))
    if control and control.get("weekend_pause"):
        lines.append(_("Clocks stop on Saturdays and Sundays (in each player's time zone)."))
    if control and control.get("vacations_allowed") is False:
        lines.append(_("Vacations do not stop the clock."))
    lines.append(_("Rated.") if view.get("rated") else _("Not rated."))
    return lines


def _days(count: int) -> str:
    return ngettext("{count} day", "{count} days", count).format(count=count)


def _sentences(lines: list[str]) -> str:
    return i18n.sentences(*lines)


_close = i18n.full_width


joined = i18n.joined


commands = i18n.commands


def noted(head: str, notes: list[str]) -> str:
    """A head with notes in brackets: "Flag 3 (Fog; won by Bob)" / "地区 3（迷雾；已被Bob占据）"."""
    if not notes:
        return head
    return f"{head}（{'；'.join(notes)}）" if _close() else f"{head} ({'; '.join(notes)})"


def recap(view: dict) -> list[str]:
    """What the others did since the seat last moved, in sentences with their names."""
    return PRESENTERS[view["game"]].recap(view, view.get("recent") or [])


def first_line(view: dict) -> str:
    """The line an email opens with: what the others just did, then whose move it is (or who won
    and why, also for the loser)."""
    told = recap(view)
    status = whose_move(view)
    if not told and view["version"] == 0 and view["to_move"] == view["you"] and view["status"] == "active":
        status = _("Your move: you play first.")
    if status.rstrip(".。") in (line.rstrip(".。") for line in told):
        status = ""
    return _sentences([*told, *([status] if status else [])])


def turn_label(view: dict) -> str:
    """Where the game is: "turn 7" (Battle Line), "round 3" (Khan & General)."""
    return PRESENTERS[view["game"]].turn_label(view["state"])


# ---------------------------------------------------------------- the clock


_duration = i18n.duration
when = i18n.moment  # "Nov 30, 2026 12:00 UTC", in the reader's language (CLDR)


def clock_line(view: dict) -> str:
    """The deadline of the seat to move, in time left and as a moment; or that there is none."""
    clock = view.get("clock")
    if view["status"] != "active":
        return ""
    if not clock:
        return _("No time limit.")
    running = next((s for s in clock["seats"] if s["running"]), None)
    if running is None:
        return ""
    if running.get("paused") and running.get("paused_by") != "weekend":
        who = _("You are") if running["seat"] == view["you"] else _("{name} is").format(
            name=names(view).get(running["seat"], "?"))
        return _("{who} on vacation: the clock is stopped.").format(who=who)
    left, deadline = _duration(running["time_left_seconds"]), when(running.get("deadline"))
    if running.get("paused"):  # the weekend pause: the deadline is known, and worth telling
        if running["seat"] == view["you"]:
            return _("Your clock stands still for the weekend: {left} left (until {deadline}).").format(
                left=left, deadline=deadline)
        return _("{name}'s clock stands still for the weekend: {left} left (until {deadline}).").format(
            name=names(view).get(running["seat"], "?"), left=left, deadline=deadline)
    if running["seat"] == view["you"]:
        return _("Your clock: {left} left (until {deadline}).").format(left=left, deadline=deadline)
    return _("{name}'s clock: {left} left (until {deadline}).").format(
        name=names(view).get(running["seat"], "?"), left=left, deadline=deadline)


def deadline(view: dict) -> str | None:
    clock = view.get("clock")
    running = next((s for s in clock["seats"] if s["running"]), None) if clock else None
    return running["deadline"] if running else None


# ---------------------------------------------------------------- cards and the table


def face(view: dict, code: str) -> dict:
    """A card for the templates, as its game draws it (Battle Line: a troop by its value on its
    colour, a tactic by its full name); a game that draws none: its name."""
    presenter = PRESENTERS[view["game"]]
    if presenter.card_face is not None:
        return presenter.card_face(code)
    name = card_names(view["game"], [code], view)[0]
    return {"code": code, "name": name, "tactic": True, "value": name, "letter": "", "colour": "#ffffff",
            "ink": "#37474f", "title": name}


def card_names(game: str, cards: list[str], view: dict) -> list[str]:
    """Cards by the names people read (Battle Line's tactics in full, Khan's by its card set; a card
    its game does not name: its id, as words)."""
    named = PRESENTERS[game].card_names(view)
    return [named.get(c) or (c if c[:1].isdigit() else c.replace("_", " ").capitalize()) for c in cards]


def table(view: dict) -> list[dict]:
    """The game's table as rows the templates draw (Battle Line's nine flags, each with its sides, in
    the seat's view); empty for a game whose board is drawn whole (``board_html``)."""
    presenter = PRESENTERS[view["game"]]
    return presenter.table_rows(view, people(view)) if presenter.table_rows is not None else []


def table_text(rows: list[dict]) -> list[str]:
    """The table one line a flag, for the text part: 'Flag 3 (Fog; won by Bob): Bob 7O 8O 9O | You 3R'."""
    lines = []
    for row in rows:
        notes = list(row["environment"])
        if row["claimed"]:
            notes.append(_("won by {name}").format(name=row["claimed"]))
        elif row["claimable"]:
            notes.append(_("you can claim it"))
        head = noted(row["label"], notes)
        sides = " | ".join(f"{side['name']} {joined([c.get('described', c['name']) for c in side['cards']]) or '-'}"
                           for side in row["sides"])
        lines.append(f"{head}{'：' if _close() else ': '}{sides}")
    return lines


# ---------------------------------------------------------------- a step in words


def describe(view: dict, step: dict) -> str:
    """A step in its one sentence, as a link, a button, a confirmation and a reply's help say it:
    its game's step table's words, a card by its name ("Play Traitor on 9B at flag 3 to flag 5")."""
    presenter = PRESENTERS[view["game"]]
    made = presenter.steps.describe(step)
    if getattr(made, "template", None) and made.words:  # a card by its name, not its id ("heavy_cavalry")
        named = presenter.card_names(view)
        made = Words(made.template, n=made.n, **{key: _named(value, named) for key, value in made.words.items()})
    words = i18n.say(made)
    template = getattr(made, "template", "")
    template = template[0] if isinstance(template, tuple) else template
    if template and _(template).startswith("{"):  # begins with a card's id ("heavy_cavalryを…"): as written
        return words
    return words[:1].upper() + words[1:]


def _named(value: object, named: dict[str, str]) -> object:
    if type(value) is str:
        return named.get(value, value)
    if isinstance(value, list):
        return [named.get(item, item) if type(item) is str else item for item in value]
    return value


# ---------------------------------------------------------------- the seat's moves, grouped

MOST_LISTED = 12  # beyond this, one kind of step is left to the board page (and replies)


def my_steps(view: dict) -> list[dict]:
    """The steps the seat may take now (resign apart): none unless it is the seat's decision."""
    if view["status"] != "active" or view["to_move"] != view["you"]:
        return []
    return [s for s in view["legal_steps"] if s["type"] != "resign"]


def can_resign(view: dict) -> bool:
    return any(s["type"] == "resign" for s in view["legal_steps"])


def _on_a_spot(view: dict, step: dict) -> bool:
    """A play of a card onto a place of the table (Battle Line: a flag), for the card x place grid."""
    return PRESENTERS[view["game"]].on_a_spot(step)


def grid(view: dict, url: StepUrl) -> dict | None:
    """The card x flag grid (Battle Line's): one row per card that can be played on a flag, one column
    per flag where some card can go, a link in each cell where that card can go. None when the
    seat has no such play (a game with no such plays: always)."""
    plays = [s for s in my_steps(view) if _on_a_spot(view, s)]
    if not plays:
        return None
    flags = sorted({s["flag"] for s in plays})
    by_card: dict[str, dict[int, dict]] = {}
    for step in plays:
        by_card.setdefault(step["card"], {})[step["flag"]] = step
    order = {c: i for i, c in enumerate(view["state"].get("hand", []))}
    rows = []
    for code in sorted(by_card, key=lambda c: order.get(c, len(order))):
        cells = []
        for flag in flags:
            step = by_card[code].get(flag)
            cells.append({"flag": flag, "url": url(step), "label": describe(view, step)} if step else None)
        rows.append({"card": face(view, code), "cells": cells})
    return {"flags": flags, "rows": rows}


def groups(view: dict, url: StepUrl) -> tuple[list[dict], list[str]]:
    """The seat's other steps as links, grouped by kind (a kind with too many left out), and what
    was left out, in words, each with one of its steps as a reply writes it ('60 deployments (e.g.
    deploy light_cavalry -1 0 N)'): those are for the board page or a reply."""
    steps = [s for s in my_steps(view) if not _on_a_spot(view, s)]
    presenter = PRESENTERS[view["game"]]
    bulky = presenter.bulky_steps
    kinds: dict[str, list[dict]] = {}
    for step in steps:
        key = step["type"] if step["type"] != "play" else f"play {step['card']}"
        kinds.setdefault(key, []).append(step)
    found, left = [], []
    for key, members in kinds.items():
        if (key in bulky and len(steps) > MOST_LISTED) or len(members) > MOST_LISTED:
            if key in bulky:
                kind = _("{count} {kind}").format(count=len(members), kind=_(presenter.steps[key].kind))
            else:
                kind = ngettext("{what}: {count} choice", "{what}: {count} choices", len(members)).format(
                    what=kind_name(view, key), count=len(members))
            example = _("e.g. {example}").format(example=presenter.say_step(members[0]))
            left.append(i18n.aside(kind, example))
            continue
        found.append({"kind": key, "links": [{"label": describe(view, s), "url": url(s),
                                              "command": presenter.say_step(s)} for s in members]})
    return found, left


def kind_name(view: dict, key: str) -> str:
    """A kind of step by its name in the reader's language: a card's play by the card ("Traitor"),
    else what its step table calls such steps ("Claims")."""
    presenter = PRESENTERS[view["game"]]
    if key.startswith("play "):
        code = key.split(" ", 1)[1]
        return presenter.card_names(view).get(code, code)
    said = _(presenter.steps[key].kind)
    return said[:1].upper() + said[1:]


def example(view: dict) -> list[str]:
    """A whole turn written as reply commands in the reader's words, from the seat's own moves when
    it has them (so the example names only its own cards and steps it could take): its game's example
    turn (``Presenter.example_turn``, as the command line shows it) from a card onto the table if it may
    play one, else from its first step."""
    presenter = PRESENTERS[view["game"]]
    steps = my_steps(view)
    first = next((s for s in steps if _on_a_spot(view, s)), steps[0] if steps else None)
    if first is None:
        return [presenter.steps.say(line.strip('"')) for line in presenter.example.split(", ")]
    turn = presenter.example_turn(view, first, False) if presenter.example_turn else [presenter.write_step(first)]
    return [presenter.steps.say(line) for line in turn]


def _width(text: str) -> int:
    """How many columns a monospaced font gives the text (a Chinese or Japanese character takes two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def help_text(view: dict) -> str:
    """The commands a reply may hold, in the reader's words, each with what it does; English ones
    are read too (and English readers get the step table's own help)."""
    presenter = PRESENTERS[view["game"]]
    if not presenter.help_steps or presenter.steps.words() is None:
        text = presenter.help
        for aside in presenter.help_asides:
            text = text.replace(f"({aside})", bracketed(_(aside)))  # its asides in the reader's words
        return text
    said = [(presenter.say_step(step), describe(view, step)) for step in presenter.help_steps]
    width = max(_width(command) for command, _what in said)
    lines = [f"    {command}{' ' * (width - _width(command))}   {what}" for command, what in said]
    return "\n".join([*lines, "", english_too(view, fixed=True)])


bracketed = i18n.bracketed


def english_too(view: dict, fixed: bool = False) -> str:
    """That replies in English are read too, for a reader whose language has its own command words:
    the seat's own example in English (``fixed``: the game's example, the same for everyone)."""
    presenter = PRESENTERS[view["game"]]
    if presenter.steps.words() is None:
        return ""
    examples = [line.strip('"') for line in presenter.example.split(", ")] if fixed else \
        i18n.in_language("en", lambda: example(view))
    return _("English commands are read too: {examples}").format(examples=joined(examples))


def grid_intro(view: dict) -> str:
    """The line above the text part's grid: how its cells are written as commands, in the reader's words."""
    return PRESENTERS[view["game"]].grid_intro()


def hand(view: dict) -> list[dict]:
    """The seat's hand as the templates draw it."""
    return [face(view, c) for c in view["state"].get("hand") or []]


# ---------------------------------------------------------------- all of it, for a template


def letter(view: dict, links: Links, *, intro: str = "", first: str | None = None,
           moves: bool = True) -> dict:
    """Everything an email (or a page) tells a seat about its game, for the templates: ``first``
    replaces the first line (an answer to a reply says what it played); ``moves``: link the
    seat's moves, if it is its decision."""
    seat, game_id, presenter = view["you"], view["game_id"], PRESENTERS[view["game"]]
    rows = table(view)
    drawn_whole = not rows  # a game whose board is drawn whole (Khan & General's), not as rows of a table

    def url(step: dict) -> str:
        return links.step_url(game_id, seat, view["version"], step)

    mine = moves and bool(my_steps(view))
    linked = grid(view, url) if mine else None
    found, left = groups(view, url) if mine else ([], [])
    cards = hand(view)
    return {
        "subject": subject(view),
        "first_line": first if first is not None else first_line(view),
        "intro": intro,
        "title": title(view),
        "game_id": game_id,
        "game_line": _("{game} with {players} · game {game_id} · {turn}").format(
            game=title(view), players=listed(others(view)), game_id=game_id,
            turn=turn_label(view)),
        "status": whose_move(view),
        "clock": clock_line(view),
        "table_rows": not drawn_whole,
        "table": rows,
        "table_text": table_text(rows),
        "two_sides": not drawn_whole and len(view["seats"]) == 2,
        "board_html": presenter.html_board(view["state"], seat, names(view)) if drawn_whole else None,
        # a board drawn whole comes with its hand as its game draws it: each card's name, what it does and
        # the id a reply types (a table's hand is its cards' faces, each named as a reply names it)
        "board_text": presenter.text_board(view["state"], seat, names(view), hand=True) if drawn_whole else None,
        "hand_html": presenter.hand_html([c["code"] for c in cards], view["state"]) if drawn_whole else None,
        "hand": cards,
        "hand_text": joined([c.get("described", c["name"]) for c in cards]),  # a tactic with what it stands for
        "counts": presenter.counts(view),
        "your_move": mine,
        "grid": linked,
        "grid_text": _grid_text(view, linked),
        "groups": found,
        "left": left,
        "example": example(view),
        "english_too": english_too(view),
        "held_back": presenter.not_playable(view) if mine else [],
        "grid_intro": grid_intro(view),
        "board_url": links.board_url(game_id, seat),
        "resign_url": url({"type": "resign"}) if mine and can_resign(view) else None,
        "api_url": f"{links.base_url}/v1/games/{game_id}",
        "messages": said_to(view),
    }


def said_to(view: dict) -> list[dict]:
    """The other seats' messages since the seat last moved (``recent`` holds none for a player who
    turned messages off, nor for a spectator): each with its sender's name and text."""
    return talk.from_others(talk.messages(view.get("recent") or [], names(view)), view["you"])


def _grid_text(view: dict, grid: dict | None) -> list[str]:
    """The grid for the text part, as reply commands: 'play 7R 1 2 3 ... (any of these flags)'."""
    if grid is None:
        return []
    return [_("{card}: flags {flags}").format(card=row["card"]["name"],
                                             flags=" ".join(str(c["flag"]) for c in row["cells"] if c))
            for row in grid["rows"]]


def deal(view: dict) -> dict | None:
    """The deal's commitment as the board page and the emails show it (docs/rules.md, "Provably
    fair deals"): from the start, the commitment; once the view reveals them (a finished game, but
    never a duplicate tournament's board before its round reveals), the seed and the salt too, and
    how to check them. Only what the view holds: nothing is worked out here. None: a game made
    before deals were committed to."""
    commitment = view.get("deal_commitment")
    if not commitment:
        return None
    revealed = view.get("seed") is not None and view.get("deal_salt") is not None
    shown = [(_("Deal commitment"), commitment)]
    if revealed:
        shown += [(_("Seed"), str(view["seed"])), (_("Salt"), view["deal_salt"])]
    lines = []
    for label, value in shown:
        before, after = _("{label}: {value}").format(label=label, value="\0").split("\0")
        lines.append({"before": before, "value": value, "after": after, "text": before + value + after})
    if revealed:
        about = _("The seed and the salt are shown now that the game is over: anyone can check the deal "
                  "and every move with this command:")
    else:
        about = _("The SHA-256 of the game id, its seed and a secret salt, fixed before the first move: "
                  "the deal cannot change during play. The seed and the salt are shown when the game is over.")
    return {"lines": lines, "about": about, "command": f"battleline verify {view['game_id']}" if revealed else None}
