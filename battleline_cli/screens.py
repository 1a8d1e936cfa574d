"""What the command line prints about a game, from a seat's view and the events as it sees them
(API shapes only): a title with the players' names, what happened since your last move, whose
move, the board with its sides named, your hand, the counts, the claimable flags, the clock, and
your moves grouped (``moves.py``). Every sentence goes through gettext."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping

import click

from chalicelib.games.battleline.story import card_name
from chalicelib.games.khan.story import KINDS as KHAN_KINDS
from chalicelib import i18n, talk
from chalicelib.games.presenters import PRESENTERS, QUIET, Presenter, names, since_own_move
from chalicelib.i18n import N_, _, ngettext

from .moves import Moves, your_moves
from .settings import aside, columns, pad, row, wrap

class _Title(str):
    """A game's name that pads by the columns a terminal gives it (汗王与大将军 takes 12), so that
    ``f"{title:<15}"`` lines up in every language."""

    def __format__(self, spec: str) -> str:
        found = re.fullmatch(r"([<>^]?)(\d+)", spec)
        if not found:
            return super().__format__(spec)
        room = int(found.group(2)) - columns(self)
        if room <= 0:
            return str(self)
        side = found.group(1) or "<"
        left = room // 2 if side == "^" else (room if side == ">" else 0)
        return " " * left + str(self) + " " * (room - left)


class _Titles(Mapping):
    """Each game's name by its code, in the language spoken when read ("战线", "Khan & General")."""

    _ENGLISH = {"battleline": N_("Battle Line"), "khan": N_("Khan & General")}

    def __getitem__(self, game: str) -> str:
        return _Title(_(self._ENGLISH[game]))

    def __iter__(self):
        return iter(self._ENGLISH)

    def __len__(self) -> int:
        return len(self._ENGLISH)


TITLES = _Titles()
# Battle Line's colours on a terminal (click leaves them out when the output is not one): orange is
# the 256-colour palette's, so that 4O never reads as 40.
COLOURS = {"R": "red", "O": 208, "Y": "yellow", "G": "green", "B": "bright_blue", "P": "magenta"}
TROOP = re.compile(r"(?<![\w(])(10|[1-9])([ROYGBP])(?![\w)])")


def coloured(line: str) -> str:
    """A Battle Line line with each troop card in its colour (none with NO_COLOR set)."""
    if os.environ.get("NO_COLOR"):
        return line
    return TROOP.sub(lambda m: click.style(m.group(0), fg=COLOURS[m.group(2)], bold=True), line)


def presenter_of(view: dict) -> Presenter:
    return PRESENTERS[view["game"]]


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


def sentence_name(view: dict, seat: int | None) -> str:
    """A seat at the start of a sentence: "You", or the name."""
    if seat is not None and seat == view["you"]:
        return _("You")
    return names(view).get(seat, "?")


# ---------------------------------------------------------------- who plays, whose move

def title(view: dict) -> str:
    """``Battle Line, game g_1: Ann (you) against greedy bot``."""
    seated = []
    for seat in view["seats"]:
        if seat.get("open"):
            seated.append(_("an open seat"))
            continue
        if seat.get("invited") and not seat.get("player_id"):  # whom an email invites is private
            seated.append(_("a player invited by email"))
            continue
        seated.append(yours(seat["name"]) if seat["seat"] == view["you"] else seat["name"])
    players = _("{first} against {second}").format(first=seated[0], second=seated[1]) if len(seated) == 2 \
        else i18n.listed(seated)
    return _("{title}, game {game}: {players}").format(title=TITLES.get(view["game"], view["game"]),
                                                       game=view["game_id"], players=players)


def result_sentence(view: dict) -> str:
    """Who won and why, in names (the game's own words for the reason)."""
    told = presenter_of(view).tell({"type": "game_finished", "seat": None, "data": {"result": view["result"]}}, view)
    return _("The game is over: {result}.").format(result=told or view["result"].get("reason", ""))


def _waiting(view: dict) -> str:
    """Whom a game that has not begun waits for: your answer, a player asked, an address invited."""
    waited = [s for s in view["seats"] if s.get("invited")]
    if any(s["seat"] == view["you"] and s.get("player_id") for s in waited):
        return _("Waiting for your answer: accept or decline the game (battleline accept {game} or battleline "
                 "decline {game}, or the links in your email).").format(game=view["game_id"])
    asked = [s["name"] for s in waited if s.get("player_id") and not s.get("open")]
    if asked:
        return _("Waiting for {names} to accept.").format(names=i18n.listed(asked))
    if any(s.get("open") for s in waited):
        return _("Waiting for a player to take the open seat.")
    return _("Waiting for the invited player to accept the invitation sent by email.")


def whose_move(view: dict) -> str:
    if view["status"] == "finished":
        return result_sentence(view)
    if view["status"] == "waiting":
        return _waiting(view)
    if view["to_move"] == view["you"]:
        return _("Your move.")
    bot = next((s for s in view["seats"] if s["seat"] == view["to_move"] and s.get("bot")), None)
    if bot:
        return _("{name} is to move (a bot: it moves by itself in a moment).").format(name=bot["name"])
    return _("{name} is to move.").format(name=name_of(view, view["to_move"]))


# ---------------------------------------------------------------- what happened

def turns(events: list[dict]) -> list[list[dict]]:
    """The events in runs by one seat (an event of no seat, such as the game's end, its own run)."""
    runs: list[list[dict]] = []
    for event in events:
        if event["type"] == "game_created":
            continue
        if runs and runs[-1][-1]["seat"] == event["seat"] and event["seat"] is not None \
                and event["type"] != "turn_started":
            runs[-1].append(event)
        else:
            runs.append([event])
    return runs


def told_turns(view: dict, events: list[dict]) -> list[str]:
    """Each run of one seat's events in a line: "Bob played 7R at flag 3. Bob drew from the troop deck."."""
    told = (presenter_of(view).told(view, run) for run in turns(events))
    return [sentences(lines) for lines in told if lines]


def sentences(lines: list[str]) -> str:
    """Sentences one after another, each ended as the language ends one ("。" and no space in Chinese
    and Japanese)."""
    return i18n.sentences(*lines)


def in_turn(parts: list[str]) -> str:
    """Clauses one after another, "; " between them ("；" in Chinese and Japanese)."""
    return ("；" if i18n.full_width() else "; ").join(parts)


def said(view: dict, events: list[dict]) -> list[str]:
    """The other seats' messages since your last move (listEvents holds none for a spectator, nor
    when you turned messages off), each quoted under its sender's name."""
    found = talk.from_others(talk.messages(since_own_move(events, view["you"]), names(view)), view["you"])
    return [line for m in found for line in ("", _("{name} says:").format(name=m["name"]),
                                               *wrap(m["text"], 76, "  > ", "  > "))]


def story(view: dict, events: list[dict], *, own: bool = True) -> list[str]:
    """What a player reads first: what the others did since your last move (or, waiting for them,
    your own last turn, unless ``own`` is False; at the end, how the game ended)."""
    shown = presenter_of(view)
    you = view["you"]
    if view["status"] == "finished":
        runs = [told for run in turns([e for e in events if e["type"] != "game_finished"])
                if (told := shown.told(view, run))][-2:]
        lines = [sentences(told) for told in runs] if view["game"] == "battleline" else \
            [line for told in runs for line in told]
        return [_("How it ended:")] + [f"  {line}" for line in lines] if lines else []
    if you is None:
        lines = shown.recap(view, events, limit=8)
        return [_("Last moves:")] + [f"  {line}" for line in lines] if lines else []
    if view["to_move"] != you:
        runs = [run for run in turns(events) if run[0]["seat"] == you]
        lines = shown.told(view, runs[-1]) if runs and own else []
        return [_("Your last turn:")] + [f"  {line}" for line in lines] if lines else []
    lines = shown.recap(view, events)
    so_far = shown.told(view, this_turn(events, you))
    if so_far:  # mid-turn: what the others did came before your own steps
        if not own:
            return []
        told = [_("Before your turn:")] + [f"  {line}" for line in lines] if lines else []
        return told + [_("Your turn so far:")] + [f"  {line}" for line in so_far]
    if not lines:
        return []
    return [_("Since your last move:")] + [f"  {line}" for line in lines]


def this_turn(events: list[dict], seat: int) -> list[dict]:
    """The seat's own steps at the end of the events: its turn so far, when it is still to move."""
    end = len(events)
    while end > 0 and (events[end - 1]["seat"] == seat or events[end - 1]["type"] in QUIET):
        end -= 1
    return [e for e in events[end:] if e["type"] not in QUIET]


# ---------------------------------------------------------------- the table

def battleline_board(view: dict) -> list[str]:
    """The nine flags, a line each: the opponent's side, then yours, under their names; Fog and Mud
    by name; a claimed flag with its winner's name; a flag you can claim now marked."""
    state, you = view["state"], view["you"]
    claimable = set(state.get("claimable") or [])

    def sides(flag: dict) -> tuple[int, int]:
        """(the seat on the left, the seat on the right): yours on the right; a spectator sees seat 1's."""
        seats = flag["seats"]
        right = you if you in seats else (1 if 1 in seats else seats[0])
        return next(s for s in seats if s != right), right

    def cards(flag: dict, seat: int) -> str:
        return " ".join(flag["cards"][flag["seats"].index(seat)]) or "-"

    rows = []
    for flag in state["flags"]:
        left, right = sides(flag)
        label = _("flag {number}").format(number=flag["flag"])
        ground = " ".join(card_name(e) for e in flag["environment"])
        note = ""
        if flag["claimed_by"]:
            note = _("won by {name}").format(name=name_of(view, flag["claimed_by"]))
        elif flag["flag"] in claimable:
            note = _("you can claim it")
        rows.append((label, ground, left, cards(flag, left), right, cards(flag, right), note))
    two = len({s for row in rows for s in (row[2], row[4])}) == 2
    # Widths in terminal columns: 地区 1 and フラッグ1 take more than their characters.
    label_w = max(columns(r[0]) + (columns(r[1]) + 1 if r[1] else 0) for r in rows)
    if two:
        left_seat, right_seat = rows[0][2], rows[0][4]
        left_name = seat_name(view, left_seat)
        right_name = yours(names(view).get(right_seat, "?")) if right_seat == you else names(view).get(right_seat, "?")
        left_w = max([columns(left_name)] + [columns(r[3]) for r in rows])
        lines = [f"{pad('', label_w)}  {pad(left_name, left_w)}   {right_name}"]
        for label, ground, _l, theirs, _r, mine, note in rows:
            where = f"{label} {ground}" if ground else label
            lines.append(f"{pad(where, label_w)}  {pad(theirs, left_w)} | {pad(mine, 12)}  {note}".rstrip())
        return lines
    lines = []
    for label, ground, left, theirs, right, mine, note in rows:  # three players: each flag names its two sides
        where = f"{label} {ground}" if ground else label
        lines.append((pad(where, label_w) + "  " + _("{name}: {cards}").format(name=name_of(view, left), cards=theirs)
                      + " | " + _("{name}: {cards}").format(name=name_of(view, right), cards=mine)
                      + f"  {note}").rstrip())
    return lines


def khan_board(view: dict, card_set: dict | None) -> list[str]:
    """The presenter's text field, after who is who: its seat numbers named."""
    factions = {f["id"]: (f.get("names") or {}).get(i18n.language()) or f["name"]
                for f in (card_set or {}).get("factions", [])}
    legend = []
    for seat in view["seats"]:
        faction = view["state"].get("factions", {}).get(str(seat["seat"]))
        who = yours(seat["name"]) if seat["seat"] == view["you"] else seat["name"]
        legend.append(_("seat {seat} is {who}, {faction}").format(seat=seat["seat"], who=who,
                                                                  faction=_faction(view, faction, factions)))
    sentence = in_turn(legend)
    return [i18n.sentences(sentence[:1].upper() + sentence[1:]), ""] + \
        presenter_of(view).text_board(view["state"], view["you"], names(view), hand=False).rstrip().split("\n")


def _faction(view: dict, faction: str | None, factions: dict) -> str:
    """A faction as the server's card set names it (in English, or its name in the language spoken),
    else in the language spoken as the card set the game's rules know names it ("汗王（骑兵）"), else its id."""
    from chalicelib.games.khan import story as khan_story

    try:
        known = khan_story.card_set_of(view["state"])
    except Exception:  # a card set this client's rules do not know
        known = None
    if faction in factions and (i18n.language() == "en" or not known):
        return factions[faction]
    return khan_story.faction_name(known, faction or "") if known else factions.get(faction, faction)


def _named(view: dict, card: str) -> list[str]:
    """Outside English, a card's name in the language spoken beside the id typed for it ([] in
    English, where the id is the name)."""
    if i18n.language() == "en":
        return []
    from chalicelib.games.khan import story as khan_story

    try:
        known = khan_story.card_set_of(view["state"])
    except Exception:  # a card set this client's rules do not know
        return []
    return [khan_story.name_of(known, card, short=False)] if known else []


def _keyword(text: str) -> str:
    """A keyword as the card set writes it ("power +2") in the language spoken ("战斗力+2")."""
    from chalicelib.games.khan.cardset import keyword_words, parse_keyword

    try:
        found = parse_keyword(text)
    except ValueError:
        return text
    return i18n.say(keyword_words(found.name, found.value))


def board(view: dict, card_set: dict | None = None) -> list[str]:
    return battleline_board(view) if view["game"] == "battleline" else khan_board(view, card_set)


def hand(view: dict, card_set: dict | None = None) -> list[str]:
    cards = view["state"].get("hand") or []
    if view["you"] is None:
        return []
    if view["game"] != "khan" or not card_set or not cards:
        return [_("Your hand: {cards}").format(cards=" ".join(cards) or _("empty"))]
    units = {u["id"]: u for u in card_set.get("units", [])}
    commands = {c["id"]: c for c in card_set.get("commands", [])}
    held = Counter(cards)

    def times(card: str) -> str:
        return f"{card} ×{held[card]}" if held[card] > 1 else card

    lines = [ngettext("Your hand ({count} card):", "Your hand ({count} cards):", len(cards)).format(count=len(cards))]
    unit_words = []
    for card in (c for c in held if c in units):
        unit = units[card]
        power = _named(view, card) + [_("power {power}").format(power=unit["base"])] + ([_keyword("ranged")] if unit.get("ranged") else [])
        unit_words.append(times(card) + aside(row(power)))
    if unit_words:
        lines.append("  " + _("units: {units}").format(units=row(unit_words)))
    held_commands = [c for c in held if c in commands]
    if held_commands:
        lines.append("  " + _("commands:"))
    for card in held_commands:
        command = commands[card]
        lines.append("    " + _("{card}: {kind} command, cost {cost}: {keywords}").format(
            card=times(card) + "".join(aside(name) for name in _named(view, card)), kind=_(KHAN_KINDS.get(command["kind"], command["kind"])), cost=command["cost"],
            keywords=row([_keyword(k) for k in command["keywords"]])))
    other = [times(c) for c in held if c not in units and c not in commands]
    if other:
        lines.append("  " + " ".join(other))
    return lines


# ---------------------------------------------------------------- the clock

duration = i18n.duration  # "2 days, 3 hours", in the player's language (CLDR)
when = i18n.moment  # an API time as "Nov 27, 2026 05:40 UTC", in the player's language


def clock(view: dict) -> list[str]:
    found = view.get("clock")
    if not found:
        return [_("No clock: no time limit.")] if view["status"] == "active" else []
    control = found["control"]
    if "per_move_days" in control:
        kind = ngettext("{days} day a move", "{days} days a move", control["per_move_days"]).format(
            days=control["per_move_days"])
    elif "moves" in control:
        kind = ngettext("{days} day for every {moves} moves", "{days} days for every {moves} moves",
                        control.get("days", 0)).format(days=control.get("days"), moves=control.get("moves"))
    else:
        kind = _("{initial} days, +{increment} a move, at most {most}").format(
            initial=control.get("initial_days"), increment=control.get("increment_days"), most=control.get("max_days"))
    parts = []
    for seat in found["seats"]:
        left = duration(seat["time_left_seconds"])
        if seat["running"] and seat.get("deadline"):
            text = _("{who}: {left} left, until {deadline}").format(who=sentence_name(view, seat["seat"]), left=left,
                                                                     deadline=when(seat["deadline"]))
        else:
            text = _("{who}: {left}").format(who=sentence_name(view, seat["seat"]), left=left)
        if seat.get("paused_by") == "weekend":
            text += " " + _("(the weekend: the clock is stopped)")
        elif seat.get("paused"):
            text += " " + _("(on vacation: the clock is stopped)")
        parts.append(text)
    return [_("Clock ({kind}): {seats}").format(kind=kind, seats=in_turn(parts))]


# ---------------------------------------------------------------- moves

def example_turn(view: dict, moves: Moves) -> list[str]:
    """How to type a move: the commands of an email reply, a whole turn at once."""
    shown = presenter_of(view)
    game = view["game_id"]
    steps = moves.numbered or [c.steps[0] for c in moves.choices if c.steps]
    if not steps:
        return []
    written = [shown.write_step(steps[0])]
    if view["game"] == "battleline" and view["phase"] in ("play", "claim"):
        state = view["state"]
        order = {"start": ("claim", "play", "draw"), "end": ("play", "draw", "claim")}.get(
            state.get("claim_timing"), ("play", "claim", "draw"))
        for phase in order[order.index(view["phase"]) + 1:]:
            if phase == "claim":
                written.append("claim none")
            elif phase == "draw" and any(state["decks"].values()):
                written.append("draw troop" if state["decks"].get("troop") else "draw tactics")
            elif phase == "play":
                written.append(next((shown.write_step(s) for s in view["legal_steps"] if s["type"] == "play"),
                                    "play 7R 3"))
    if view["game"] == "khan" and not moves.numbered and any(s["type"] == "end_action" for s in view["legal_steps"]):
        written = _khan_actions(view)
    quoted = " ".join(f'"{w}"' for w in written)
    lines = [_("Type your move as in an email reply, e.g. battleline play {game} {commands}").format(
        game=game, commands=quoted)]
    if moves.numbered:
        lines.append(_("or by its number: battleline play {game} 1").format(game=game))
    return lines


def _khan_actions(view: dict) -> list[str]:
    """A Khan & General action phase to type at once: a deployment and a card paid if the turn's
    card limit allows, then the end of the actions (the reaction window is the opponent's)."""
    shown, state = presenter_of(view), view["state"]
    room = state["limits"].get(str(view["you"]), 0) - state.get("played", 0)
    written = []
    for kind in ("deploy", "pay"):
        step = next((s for s in view["legal_steps"] if s["type"] == kind), None)
        if step and len(written) < room:
            written.append(shown.write_step(step))
    return written + ["end action"]


# ---------------------------------------------------------------- the whole screen

def screen(view: dict, events: list[dict], card_set: dict | None = None, *, own: bool = True) -> list[str]:
    """``battleline show``: everything a correspondence player needs to move, in reading order."""
    lines = [title(view)]
    told = story(view, events, own=own)
    if told:
        lines += [""] + told
    lines += said(view, events)
    lines += ["", whose_move(view), ""]
    lines += board(view, card_set)
    lines.append("")
    lines += hand(view, card_set)
    if view["status"] != "waiting":  # no game yet to count
        lines += presenter_of(view).counts(view)
    if view["game"] == "battleline" and view["status"] == "active" and view["you"] is not None \
            and not view["state"].get("claimable"):
        lines.append(_("You cannot claim a flag now."))
    lines += clock(view)
    if view["status"] == "active" and view["you"] is not None and view["to_move"] == view["you"]:
        moves = your_moves(view)
        lines.append("")
        lines += moves.lines(presenter_of(view).write_step)
        lines += example_turn(view, moves)
        lines.append(_("Resign with: battleline resign {game}").format(game=view["game_id"]))
    return lines


def summary(view: dict) -> list[str]:
    """``battleline new``: the game made, whose move, and how to see it."""
    game = view["game_id"]
    lines = [title(view), whose_move(view)]
    lines.append(_("See it with: battleline show {game} (the board in a browser: battleline board {game})").format(
        game=game))
    return lines


def log(view: dict, events: list[dict]) -> list[str]:
    """``battleline log``: the whole game told, a turn a paragraph (Battle Line's turns of two or
    three steps in a line; Khan & General's longer turns a step a line)."""
    lines = [title(view), ""]
    shown = presenter_of(view)
    runs = [told for run in turns(events) if (told := shown.told(view, run))]
    for number, told in enumerate(runs, start=1):
        paragraphs = [sentences(told)] if view["game"] == "battleline" else [i18n.sentences(line) for line in told]
        for index, paragraph in enumerate(paragraphs):
            lines += wrap(paragraph, 100, f"{number:>4}. " if index == 0 else " " * 6, " " * 6)
    if not runs:
        lines.append(_("Nothing has happened yet."))
    if view["status"] != "finished":
        lines += ["", whose_move(view)]
    return lines
