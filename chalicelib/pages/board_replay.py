"""The board's replay: a page per version of a game (``?v=N``), drawn by the server, so that it steps
through the game without a script (first, previous, next, last links; the script adds the arrow
keys only) and lists every accepted version as a move: who, what in words, when, and the time it
took on its mover's clock. From :meth:`chalicelib.services.boards.Boards.replay`: a seat's own view of
each past version while the game runs, everything once it is finished."""

from __future__ import annotations

from datetime import timezone
from urllib.parse import quote
from zoneinfo import ZoneInfo

from ..kernel import i18n
from ..games.presenters import PRESENTERS
from ..games.presenters import names as names_of
from ..games.presenters import seat_name
from ..kernel.i18n import N_, _, language, speaking
from ..clocks.timecontrol import parse_time, valid_zone
from .board import game_title, headline, reader, table_module
from ..presenting.links import standings_page_path
from .page import Page


def _query(token: str | None, lang: str | None, version: int | None = None) -> str:
    parts = [f"v={version}" if version is not None else "", f"seat={quote(token)}" if token else "",
             f"lang={lang}" if lang and not token else ""]
    joined = "&".join(part for part in parts if part)
    return f"?{joined}" if joined else ""


def when(at: str, zone: str | None) -> dict:
    """A moment as the move list writes it: in the reader's time zone when the game knows it, else UTC."""
    moment = parse_time(at)
    if zone and zone != "UTC" and valid_zone(zone):
        local = moment.astimezone(ZoneInfo(zone))
        return {"iso": at, "text": f"{local:%Y-%m-%d %H:%M} ({zone})"}
    return {"iso": at, "text": f"{moment.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"}


# The steps a game's story leaves untold (nothing changes on the table), said in the move list all
# the same: each version is a row.
QUIET_STEPS = {"claim": N_("{who} claimed nothing"), "action_ended": N_("{who} ended the action phase"),
               "reaction_ended": N_("{who} let the reaction window pass"),
               "engagements_ended": N_("{who} ended the engagements"), "skip": N_("{who} skipped a keyword"),
               "stay": N_("{who} stayed put")}


def _quiet(events: list[dict], view: dict) -> str:
    """A version whose events the story does not tell, in words."""
    seat = next((e["seat"] for e in events if e["seat"] is not None), None)
    who = _("You") if seat is not None and seat == view["you"] else names_of(view).get(seat, "?")
    said = next((QUIET_STEPS[e["type"]] for e in events if e["type"] in QUIET_STEPS), None)
    return _(said or N_("{who} took a step that changes nothing on the table")).format(who=who)


def moves(view: dict) -> list[dict]:
    """One row per accepted version: its number, the seat that made it, what it did in words (as the
    reader may know it), when, and on a timed game the time it took on its mover's clock (pauses
    left out; the record's ``clock_used_seconds``), where that clock ran."""
    replay, shown = view["replay"], PRESENTERS[view["game"]]
    people = names_of(view)
    by_version: dict[int, list[dict]] = {}
    for event in replay["events"]:
        by_version.setdefault(event["version"], []).append(event)
    rows, before = [], replay["created_at"]
    for number in range(replay["latest"] + 1):
        events = by_version.get(number, [])
        at = events[0]["at"] if events else before
        seat = next((e["seat"] for e in events if e["seat"] is not None), None)
        said = [text for e in events if (text := shown.tell(e, view))]
        if not said:
            said = [_("The game begins")] if number == 0 else [_quiet(events, view)]
        took, seconds = None, replay.get("clock_used", {}).get(number)
        if replay["timed"] and seconds is not None:
            took = _("took {time} on the clock").format(time=i18n.duration(int(seconds)))
        rows.append({"version": number, "seat": seat, "name": people.get(seat) if seat is not None else None,
                     "said": said, "when": when(at, replay["zone"]), "took": took,
                     "current": number == replay["version"]})
        before = at
    return rows


def hands(view: dict) -> list[dict]:
    """The hands the replay shows: once the game is finished every seat's, else the reader's own
    (each card by its name: a troop's value and colour, a tactic's or a unit's full name)."""
    people, card_names = names_of(view), table_module(view["game"]).hand_names
    if "hands" in view:
        return [{"label": _("{name}'s hand").format(name=people.get(seat, "?")), "cards": card_names(view, cards)}
                for seat, cards in sorted(view["hands"].items())]
    if view["you"] is not None:
        return [{"label": _("Your hand"), "cards": card_names(view, view["state"].get("hand") or [])}]
    return []


def _state_line(view: dict) -> str:
    """Where the game stood at the version shown: who won, or whose move came next."""
    if view["status"] != "active" or view["to_move"] is None:
        return headline(view)
    who = _("you") if view["to_move"] == view["you"] else names_of(view).get(view["to_move"], "?")
    return _("Next to move: {name}").format(name=who)


def _way_back(view: dict, token: str | None, lang: str | None) -> dict:
    """Where the page leads back to: the board, for a seat's link or a public game; else (a finished
    tournament game's replay, open to anyone from its standings) the tournament's standings, as the
    board of a game that is not public answers no one without a seat's link."""
    if token or view.get("public") or not view.get("tournament_id"):
        return {"back_url": f"/v1/games/{view['game_id']}/board" + _query(token, lang), "back_label": _("Back to the board")}
    return {"back_url": standings_page_path(view["tournament_id"]), "back_label": _("Back to the standings")}


def replay_page(view: dict, token: str | None, lang: str | None = None) -> Page:
    """The replay page at the view's version, in the board's language (:func:`board.reader`)."""
    with speaking(reader(view, lang)):
        page = _replay_page(view, token, lang)
    page.vary = not view.get("reader_language") and not lang
    return page


def _replay_page(view: dict, token: str | None, lang: str | None) -> Page:
    replay, game_id = view["replay"], view["game_id"]
    shown, tables = PRESENTERS[view["game"]], table_module(view["game"])
    version, latest = replay["version"], replay["latest"]
    base = f"/v1/games/{game_id}/board/replay"

    def link(number: int) -> str:
        return base + _query(token, lang, number)

    controls = [
        {"id": "replay-first", "label": _("First"), "hint": _("Go to the start of the game"), "url": link(0),
         "off": version == 0, "rel": None, "key": "Home"},
        {"id": "replay-previous", "label": _("Previous"), "hint": _("One move back"), "url": link(version - 1),
         "off": version == 0, "rel": "prev", "key": "ArrowLeft"},
        {"id": "replay-next", "label": _("Next"), "hint": _("One move on"), "url": link(version + 1),
         "off": version >= latest, "rel": "next", "key": "ArrowRight"},
        {"id": "replay-last", "label": _("Last"), "hint": _("Go to the latest move"), "url": link(latest),
         "off": version >= latest, "rel": None, "key": "End"},
    ]
    title = game_title(view["game"], shown.title)
    players = " \u2013 ".join(seat_name(s) for s in view["seats"])
    if replay["finished"]:
        note = _("The game is over: every hand is shown.")
    elif view["you"] is not None:
        note = _("The game is still being played: you see each move as your seat saw it then.")
    else:
        note = _("The game is still being played: you see what any spectator saw.")
    drawn = tables.everything(view)
    board = {"svg": tables.svg(drawn) if hasattr(tables, "svg") else shown.svg_board(drawn["state"], view["you"]),
             "counts": shown.counts(view), "flags": tables.flag_rows(view)}
    data = {"lang": language(), "fonts": i18n.FONTS, "game": view["game"], "board": board,
            "position": _("Version {version} of {latest}").format(version=version, latest=latest),
            "state_line": _state_line(view), "note": note, "controls": controls,
            "moves": [{**move, "url": link(move["version"])} for move in moves(view)],
            "hands": hands(view), "version": version, **_way_back(view, token, lang)}
    return Page(200, _("{label}: {value}").format(label=_("Replay"), value=f"{title}: {players}"),
                _("{label}: {value}").format(label=title, value=players), template="replay.html", data=data)
