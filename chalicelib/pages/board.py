"""The board in a browser as the player sees it: the board view (a headline with names, the clock,
what the others did last, the counts, the move log, the game's table and every legal step in its
step table's sentence, ``presenting.show.describe``) and the board page around it. Drawn from a seat's view
(:meth:`chalicelib.services.boards.Boards.board`), so it shows only what that seat may see.

Each game's table is its own module (``board_battleline.py``, ``board_khan.py``); the page's
script (``templates/board.js``) draws it and lets the player choose a step piece by piece (a card,
then a flag; a unit, then a square, then a facing) and confirm it. Every word the script shows
comes from here, translated (``words``)."""

from __future__ import annotations


from urllib.parse import quote

from ..kernel import talk
from ..games.presenters import PRESENTERS, since_own_move
from ..games.presenters import names as names_of
from ..games.presenters import seat_name
from ..kernel import i18n
from ..kernel.i18n import _, language, speaking
from ..presenting.show import deal, describe
from . import board_battleline, board_khan
from .page import Page

TABLES = {table.GAME: table for table in (board_battleline, board_khan)}  # each game's table on the page


def game_title(game: str, title: str) -> str:
    """The game's name in the language spoken (its presenter's title, as each language's rule books say it)."""
    return title


def table_module(game: str):
    return TABLES[game]


def _finished(view: dict) -> str:
    """Who won and how, in the game's own words."""
    told = PRESENTERS[view["game"]].tell({"type": "game_finished", "seat": None,
                                          "data": {"result": view["result"]}}, view)
    return told or _("The game is over")


def headline(view: dict) -> str:
    """The board's one line: who won and how, whose move it is, or whom the game waits for."""
    if view["status"] == "finished" and view.get("result"):
        return _finished(view)
    if view["status"] == "finished":
        return _("The game is over")
    if view["status"] == "waiting":
        from ..presenting.show import waiting_line

        return waiting_line(view).rstrip(".")
    if view["to_move"] is not None and view["to_move"] == view["you"]:
        turn = PRESENTERS[view["game"]].decision_in_another_turn(view)
        return _("Your move, in {name}'s turn").format(name=turn) if turn else _("Your move")
    return _("{name} is to move").format(name=names_of(view).get(view["to_move"], "?"))


def duration(seconds: int) -> str:
    """A clock's time in the two largest units that matter, as the language says it (CLDR): 2 days,
    5 hours; 2天5小时; 3 時間 10 分; 3 giờ 10 phút."""
    return i18n.duration(seconds)


def clock_lines(view: dict) -> list[dict]:
    """Each seat's time, the running one first said so: what the page shows beside the headline."""
    clock = view.get("clock")
    if not clock or view["status"] != "active":
        return []
    names, you = names_of(view), view["you"]
    lines = []
    for seat in clock["seats"]:
        who = _("You") if seat["seat"] == you else names.get(seat["seat"], "?")
        left = duration(seat["time_left_seconds"])
        if seat["running"] and seat.get("paused_by") == "weekend":
            text = _("{who}: {left} left (the weekend: the clock waits)").format(who=who, left=left)
        elif seat["running"] and seat.get("paused"):
            text = _("{who}: {left} left (on vacation: the clock waits)").format(who=who, left=left)
        elif seat["running"]:
            text = _("{who}: {left} left for this move").format(who=who, left=left)
        else:
            text = _("{who}: {left} for the next move").format(who=who, left=left)
        lines.append({"seat": seat["seat"], "running": seat["running"], "text": text})
    return lines


def seats(view: dict) -> list[dict]:
    you = view["you"]
    return [{"seat": s["seat"], "name": seat_name(s), "you": s["seat"] == you,
             "label": _("You") if s["seat"] == you else seat_name(s)} for s in view["seats"]]


def _drawn(view: dict, events: list[dict]) -> list[str]:
    """The cards the seat drew in its latest turn that it still holds: shown after a draw."""
    you = view["you"]
    if you is None:
        return []
    index = len(events)
    while index > 0 and events[index - 1]["seat"] != you:
        index -= 1
    cards = []
    while index > 0 and events[index - 1]["seat"] == you:
        event = events[index - 1]
        if event["type"] in ("draw", "scout_draw") and "card" in event["data"]:
            cards.insert(0, event["data"]["card"])
        index -= 1
    hand = list(view["state"].get("hand") or [])
    kept = []
    for card in cards:
        if card in hand:
            hand.remove(card)
            kept.append(card)
    return kept


def _told_only(shown, view: dict, events: list[dict]) -> list[dict]:
    """The events worth a sentence: a seat's own steps that tell nothing (closing a reaction window,
    claiming nothing) are not the move the recap goes back to; nor is the end of the game the seat's
    own step brought (its resignation), which is not the others' move (the headline gives the result)."""
    told = [e for e in events if shown.tell(e, view) is not None]
    end = len(told)
    while end > 0 and told[end - 1]["seat"] is None:
        end -= 1
    if 0 < end < len(told) and view["you"] is not None and told[end - 1]["seat"] == view["you"]:
        return told[:end]
    return told


def waiting(view: dict) -> dict | None:
    """A game that has not begun: whom it waits for and, for the seat asked, its answer links
    (each opens the page whose button answers); None once the game began."""
    if view["status"] != "waiting":
        return None
    from ..presenting.show import summary

    answers = view.get("answers") or {}
    links = [{"url": answers[a], "label": label, "danger": a == "decline"}
             for a, label in (("accept", _("Accept the game")), ("decline", _("Decline it"))) if a in answers]
    text = _("You are asked to play: accept and it begins, decline and it ends unplayed.") if links else \
        _("The game begins once every seat is settled; this page follows it.")
    return {"text": text, "summary": summary(view) if view["you"] is not None else [], "links": links}


def reader(view: dict, lang: str | None = None) -> str:
    """The language the board speaks: its seat's player's (``reader_language``), else a spectator's
    ``?lang=``, else the one the request asked for (Accept-Language, spoken around the call)."""
    return view.get("reader_language") or lang or language()


def board_view(view: dict, lang: str | None = None) -> dict:
    """What the board page shows now, in its reader's language (:func:`reader`)."""
    with speaking(reader(view, lang)):
        return _board_view(view)


def _board_view(view: dict) -> dict:
    """What the board page shows now, from the view of the seat it plays as (None: a spectator).
    ``view`` may carry ``events`` (the events after the page's ``after``, as the seat sees them)
    and ``recent`` (the latest events; None when nothing happened since ``after``): the move log
    grows by the new lines only, and the recap and drawn cards are told again only when the game
    moved."""
    seat, shown = view["you"], PRESENTERS[view["game"]]
    tables = table_module(view["game"])
    steps = [{"label": describe(view, s), "step": s} for s in view["legal_steps"]]
    events = view.get("events") or []
    recent = view.get("recent")
    people = {s["seat"]: seat_name(s) for s in view["seats"]}
    log = [{"seq": e["seq"], "text": e["data"]["text"], "said_by": people.get(e["seat"], "?")} if talk.is_message(e)
           else {"seq": e["seq"], "text": text} for e in events
           if talk.is_message(e) and "text" in e["data"] or (text := shown.tell(e, view))]
    return {"game_id": view["game_id"], "game": view["game"], "title": game_title(view["game"], shown.title), "version": view["version"],
            "status": view["status"], "you": seat, "to_move": view["to_move"], "phase": view["phase"],
            "headline": headline(view), "waiting": waiting(view), "seats": seats(view), "clock": clock_lines(view),
            "counts": shown.counts(view),
            "recap": None if recent is None else shown.recap(view, _told_only(shown, view, recent)),
            "drawn": None if recent is None else _drawn(view, recent),
            "messages": None if recent is None else talk.from_others(
                talk.messages(since_own_move(recent, seat), people), seat),
            "log": log, "log_seq": max([e["seq"] for e in events], default=view.get("after", 0)),
            "svg": tables.svg(view) if hasattr(tables, "svg") else shown.svg_board(view["state"], seat), "text": shown.text_board(view["state"], seat, people),
            "hand": view["state"].get("hand", []),
            "table": tables.table(view, steps),
            "steps": steps,
            "deal": deal(view)}


def words() -> dict:
    """Every sentence the page's script builds, in the language spoken (``{name}`` fields are filled
    in by the script)."""
    return {
        "notes_saving": _("Saving your notes…"), "notes_saved": _("Notes saved."),
        "notes_refused": _("Your notes were not saved: {reason}"),
        "you": _("You"), "your_hand": _("Your hand"), "hand_of": _("{name}'s hand: {count} cards"),
        "flag": _("Flag {flag}"), "won_by": _("Won by {name}"), "won_by_you": _("Won by you"),
        "side_card": _("{name} {count} card"), "side_cards": _("{name} {count} cards"), "unclaimed": _("unclaimed"), "you_side": _("you"),
        "accepted": _("Your move was played."),
        # what the live region says: the moves just made, then where the game stands
        "announce_moves": _("{moves}. {now}."), "announce_now": _("{now}."), "announce_yours": _("{accepted} {now}"),
        "confirm": _("Confirm"), "cancel": _("Cancel"), "choose_again": _("Choose again"),
        "nothing_to_do": _("Nothing to do now: the page follows the game as it moves."),
        "watching": _("You are watching this game."),
        "game_over": _("The game is over: the move log tells how it went."),
        "choose_card": _("Choose a card from your hand to play."),
        "choose_flag": _("Choose a flag for {card}."),
        "choose_target": _("Choose the card {card} takes."),
        "choose_destination": _("Where does {card} go? Choose a flag."),
        "discard_it": _("Discard it"),
        "choose_claims": _("Claim: press each flag you claim (none pressed claims nothing)."),
        "claim_flag": _("Claim flag {flag}"), "claiming": _("claim"),
        "no_claims": _("No flag can be claimed now."),
        "then_draw": _("Then draw, which sends your turn:"),
        "draw_troop": _("Draw from the troop deck"), "draw_tactics": _("Draw from the tactics deck"),
        "claim_none": _("Claim nothing"), "claim_these": _("Claim flags {flags}"),
        "claim_wins": _("This claim wins the game."),
        "troop_deck": _("Troop deck"), "tactics_deck": _("Tactics deck"),
        "cards_left": _("{count} left"),
        "choose_deck": _("Choose a deck to draw from."),
        "choose_return": _("Choose the cards to put back, in order (the last one ends on top)."),
        "choose_mud": _("Mud left the flag: choose a card to discard from flag {flag}."),
        "pass": _("Pass"), "resign": _("Resign"),
        "resign_title": _("Resign this game?"),
        "resign_text": _("You lose the game at once. This cannot be undone."),
        "resign_confirm": _("Yes, resign"), "keep_playing": _("No, keep playing"),
        "drawn": _("You drew {cards}."), "new_card": _("new"),
        "says": _("{name} says:"),
        "log": _("Move log"), "recap": _("Since your last move"),
        "recap_before": _("Their last move"), "recap_watch": _("Latest moves"),
        "nothing_yet": _("Nothing yet."), "nothing_new": _("Nothing new since your last step."),
        "sending": _("Sending\u2026"), "refused": _("That step was not played: {reason}"),
        "moved_on": _("The game moved on; the board shows it now."),
        "offline": _("The server could not be reached; trying again."),
        "other_steps": _("Other steps"),
        "discards": _("Discarded"), "none": _("none"),
        # Khan & General
        "choose_kind": _("Choose what to do, or a card from your hand."),
        "choose_unit": _("Choose a unit from your hand."),
        "choose_command": _("Choose a command card from your hand."),
        "choose_square": _("Choose a square."),
        "choose_square_for": _("Choose a square for {unit}."),
        "choose_unit_for": _("Choose the unit that takes {card}."),
        "choose_unit_to_move": _("Choose the unit to move."),
        "choose_where": _("Choose where {unit} goes."),
        "choose_enemy": _("Choose the enemy unit to attack."),
        "choose_unit_on_field": _("Choose a unit on the field."),
        "choose_facing": _("Choose the way it faces."),
        "choose_sequence": _("Choose how to pay."),
        "choose_attackers": _("Choose the attackers."),
        "new_sequence": _("A new sequence"),
        "no_sequence": _("Costs nothing"),
        "kind_place": _("Place your first unit"), "kind_deploy": _("Deploy a unit"),
        "kind_command": _("Play a command"), "kind_pay": _("Pay into your command zone"),
        "kind_move": _("Move a unit"), "kind_turn": _("Turn a unit"), "kind_skip": _("Skip a keyword"),
        "kind_flip": _("Turn a unit face up"), "kind_discard_defence": _("Discard a defence command"),
        "kind_engage": _("Attack"), "kind_advance": _("Advance"),
        "and_end_action": _("Confirm and end the action phase"),
        "and_end_turn": _("Confirm and end the turn"),
        "round": _("Round {round} of {rounds}"), "limit": _("Cards this turn: {played} of {limit}"),
        "command_zone": _("Command zone"), "empty": _("empty"),
        "units_left": _("Units left: {count}"), "in_hand": _("In hand: {count}"),
        "limit_of": _("Card limit: {limit}"),
        "destroyed": _("Destroyed"), "legend": _("Legend"), "power": _("power {power}"),
        "cost": _("cost {cost}"), "for_units": _("for {units}"),
        "square_here": _("Square {square}"), "occupied_by": _("{unit} ({who})"),
        "field": _("The field"),
        # how the script writes a label and its value, two phrases in a row, a detail in brackets
        "labelled": _("{label}: {value}"), "also": _("{first}, {second}"), "aside": _("{text} ({detail})"),
    }


def board_page(view: dict, token: str | None, lang: str | None = None) -> Page:
    """The board page: its first view, and where it asks for the next ones and sends its steps. It
    speaks the seat's player's language, or a spectator's Accept-Language (then it varies with it)."""
    with speaking(reader(view, lang)):
        page = _board_page(view, token, lang)
    page.vary = not view.get("reader_language") and not lang
    return page


def _board_page(view: dict, token: str | None, lang: str | None) -> Page:
    board = _board_view(view)
    game_id = board["game_id"]
    query = "&".join(part for part in (f"seat={quote(token)}" if token else "",
                                         f"lang={lang}" if lang and not token else "") if part)
    query = f"?{query}" if query else ""
    players = " \u2013 ".join(s["name"] for s in board["seats"])
    return Page(200, _("{label}: {value}").format(label=board["title"], value=players), board["headline"], template="board.html",
                data={"board": board, "words": words(), "lang": language(), "fonts": i18n.FONTS, "most": talk.MAX_LENGTH, "view_url": f"/v1/games/{game_id}/board/view{query}",
                      "step_url": f"/v1/games/{game_id}/board/steps{query}",
                      "notes_url": f"/v1/games/{game_id}/board/notes{query}" if token else None,
                      "notes_most": talk.NOTES_MAX_LENGTH,
                      "replay_url": f"/v1/games/{game_id}/board/replay{query}"})
