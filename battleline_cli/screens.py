"""What the command line prints about a game, from a seat's view and the events as it sees them
(API shapes only): a title with the players' names, what happened since your last move, whose
move, the board with its sides named, your hand, the counts, the claimable flags, the clock, and
your moves grouped (``moves.py``). Every sentence goes through gettext."""

from __future__ import annotations

import re
from collections.abc import Mapping

from chalicelib.kernel import i18n, talk
from chalicelib.games import GAMES
from chalicelib.games.presenters import PRESENTERS, QUIET, Presenter, names, since_own_move
from chalicelib.games.terminal import TERMINALS, name_of, seat_name, yours  # noqa: F401 - this module's too
from chalicelib.kernel.i18n import N_, _, ngettext
from chalicelib.tournaments.told import FORMATS, TIE_BREAKS, short
from chalicelib.tournaments.told import number as score

from .moves import Moves, your_moves
from .settings import aside, columns, pad, right, row, wrap

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
    """Each game's name by its code, in the language spoken when read ("战线", "Khan & General"): its
    presenter's title."""

    def __getitem__(self, game: str) -> str:
        return _Title(PRESENTERS[game].title)

    def __iter__(self):
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


TITLES = _Titles()
def presenter_of(view: dict) -> Presenter:
    return PRESENTERS[view["game"]]


def coloured(line: str, game: str) -> str:
    """A line of the game's text coloured for a terminal, as its game colours it (Battle Line's troops
    in their colours; none with NO_COLOR set)."""
    return TERMINALS[game].colour(line) if game in TERMINALS else line


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
        lines = [sentences(told) for told in runs] if TERMINALS[view["game"]].turn_a_line else \
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

def board(view: dict, card_set: dict | None = None) -> list[str]:
    """The table, its sides named, as its game draws it on a terminal."""
    return TERMINALS[view["game"]].board(view, card_set)


def hand(view: dict, card_set: dict | None = None) -> list[str]:
    """Your hand, as your game tells it (none for a spectator)."""
    return TERMINALS[view["game"]].hand(view, card_set)


# ---------------------------------------------------------------- the clock
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
    game = view["game_id"]
    steps = moves.numbered or [c.steps[0] for c in moves.choices if c.steps]
    if not steps:
        return []
    written = TERMINALS[view["game"]].example(view, steps[0], bool(moves.numbered))
    quoted = " ".join(f'"{w}"' for w in written)
    lines = [_("Type your move as in an email reply, e.g. battleline play {game} {commands}").format(
        game=game, commands=quoted)]
    if moves.numbered:
        lines.append(_("or by its number: battleline play {game} 1").format(game=game))
    return lines


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
    if view["status"] != "waiting" and presenter_of(view).table_rows is not None:
        lines += presenter_of(view).counts(view)  # (a board drawn whole says its own; a game not begun has none)
    lines += TERMINALS[view["game"]].notes(view)
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
        paragraphs = [sentences(told)] if TERMINALS[view["game"]].turn_a_line else [i18n.sentences(line) for line in told]
        for index, paragraph in enumerate(paragraphs):
            lines += wrap(paragraph, 100, f"{number:>4}. " if index == 0 else " " * 6, " " * 6)
    if not runs:
        lines.append(_("Nothing has happened yet."))
    if view["status"] != "finished":
        lines += ["", whose_move(view)]
    return lines


def ladder(found: dict, you: str | None = None) -> list[str]:
    """``battleline ladder show``: its rules, its players top first (you marked), the open challenges."""
    lines = [_("{ladder} ({game}): challenge up to {places} places above you, {challenges} open challenges at "
               "most, {days} days to accept.").format(
        ladder=found["name"], game=TITLES.get(found["game"], found["game"]), places=found["max_places_above"],
        challenges=found["max_open_challenges"], days=found["response_days"]), ""]
    players = found["players"]
    if not players:
        return lines + [_("Nobody is on it yet: be the first with battleline ladder join {ladder}").format(
            ladder=found["id"])]
    named = [yours(p["name"]) if p["player_id"] == you else p["name"] for p in players]
    width = max(columns(name) for name in named)
    for player, name in zip(players, named):
        notes = [_("provisional")] if player["provisional"] else []
        if player["open_challenges"]:
            notes.append(ngettext("{count} open challenge", "{count} open challenges", player["open_challenges"]).format(
                count=player["open_challenges"]))
        rating = i18n.number(player["rating"], 0) + (aside(row(notes)) if notes else "")
        lines.append(f"{player['rank']:>4}. {pad(name, width)}  {player['player_id']}  {rating}")
    if found["challenges"]:
        lines += ["", _("Open challenges:")]
        for challenge in found["challenges"]:
            lines.append("  " + _("{challenger} challenges {challenged}: game {game}, to be accepted by {by}").format(
                challenger=challenge["challenger"]["name"], challenged=challenge["challenged"]["name"],
                game=challenge["game_id"], by=when(challenge["respond_by"])))
    if you is not None and not any(p["player_id"] == you for p in players):
        lines += ["", _("You are not on it: battleline ladder join {ladder}").format(ladder=found["id"])]
    elif you is not None:
        lines += ["", _("Challenge a player above you with: battleline ladder challenge PLAYER --ladder {ladder}").format(
            ladder=found["id"])]
    return lines


# ---------------------------------------------------------------- tournaments

STATES = {"open": N_("open for entry"), "running": N_("being played"), "finished": N_("finished")}


def tournament_state(found: dict) -> str:
    """Where a tournament stands, in a few words: open for entry, a round of so many, finished."""
    if found["status"] == "running":
        return _("round {round} of {rounds}").format(round=found["round"], rounds=found["rounds"] or "?")
    return _(STATES.get(found["status"], found["status"]))


def tournament_kind(found: dict) -> str:
    """"Battle Line, Swiss": the game and the format."""
    return _("{game}, {format}").format(game=TITLES.get(found["game"], found["game"]),
                                        format=_(FORMATS.get(found["format"], found["format"])))


def tournaments(found: list[dict], status: str | None = None) -> list[str]:
    """``battleline tournament list``: each tournament in a line, newest first, and how to enter one."""
    if not found:
        return [_("No tournaments here yet.") if status is None else _("No tournament here is {state}.").format(
            state=_(STATES.get(status, status)))]
    width = max(columns(t["name"]) for t in found)
    lines = [f"{t['id']}  {pad(t['name'], width)}  " + _("{kind}: {state}, {players}").format(
        kind=tournament_kind(t), state=tournament_state(t),
        players=ngettext("{count} player", "{count} players", t["players"]).format(count=t["players"])) for t in found]
    if any(t["status"] == "open" for t in found):
        lines += ["", _("Enter one that is open with: battleline tournament join TOURNAMENT")]
    return lines


def tournament(view: dict, standings: dict, you: str | None = None) -> list[str]:
    """``battleline tournament show``: where it stands, its players (open) or its standings with the first
    tie-break (running, finished), the round's pairings with their games, yours named, and its page."""
    lines = [_("{name} ({kind}): {state}").format(name=view["name"], kind=tournament_kind(view),
                                                 state=tournament_state(view)), ""]
    entered = [p for p in view["players"] if not p["withdrawn"]]
    is_in = any(p["player_id"] == you for p in entered)
    if view["status"] == "open":
        names_in = [yours(p["name"]) if p["player_id"] == you else p["name"] for p in entered]
        lines.append(ngettext("{count} player entered: {names}", "{count} players entered: {names}",
                              len(entered)).format(count=len(entered), names=i18n.joined(names_in)) if entered
                     else _("Nobody has entered yet."))
    else:
        lines += _standings(standings, you)
        lines += _round(view, you)
    lines.append("")
    if view["status"] == "open" and you is not None and not is_in:
        lines.append(_("Enter it with: battleline tournament join {tournament}").format(tournament=view["id"]))
    elif view["status"] != "finished" and is_in:
        lines.append(_("Leave it with: battleline tournament withdraw {tournament}").format(tournament=view["id"]))
    lines.append(_("The standings page: {url}").format(url=standings["html_url"]))
    return lines


def _standings(standings: dict, you: str | None) -> list[str]:
    """The standings, a player a line: rank, name, points, the first tie-break (withdrawn players said so)."""
    first = standings["tie_break_order"][0]
    named = [yours(r["name"]) if r["player_id"] == you else r["name"] for r in standings["standings"]]
    player, points = _("Player"), _("Points")  # said first: a _() inside an f-string is never extracted
    width = max([columns(name) for name in named] + [columns(player)])
    tie = TIE_BREAKS.get(first, (first, ""))[0]
    lines = [f"      {pad(player, width)}  {right(points, 6)}  {right(tie, 6)}"]
    for standing, name in zip(standings["standings"], named):
        notes = ([_("withdrawn")] if standing["withdrawn"] else []) + ([_("annulled")] if standing["annulled"] else [])
        lines.append(f"{standing['rank'] or '-':>4}. {pad(name, width)}  {right(score(standing['points']), 6)}  "
                     f"{right(short(standing['tie_breaks'].get(first, 0)), 6)}" + (f"  {aside(row(notes))}" if notes else ""))
    lines.append(_("{short}: {name}; then {others}").format(
        short=tie, name=_(TIE_BREAKS.get(first, (first, first))[1]),
        others=i18n.joined([TIE_BREAKS.get(n, (n,))[0] for n in standings["tie_break_order"][1:]]) or "-"))
    return lines


def _round(view: dict, you: str | None) -> list[str]:
    """The round being played: each board's players and its games (being played, or the points), a bye."""
    pairings = [p for p in view["pairings"] if p["round"] == view["round"]]
    if view["status"] != "running" or not pairings:
        return []
    lines = ["", _("Round {round}:").format(round=view["round"])]
    mine = []
    for pairing in pairings:
        first, second = pairing["first"], pairing["second"]
        who = [yours(p["name"]) if p["player_id"] == you else p["name"] for p in (first, second) if p]
        if second is None:
            lines.append("  " + _("Board {board}: {name}, a bye").format(board=pairing["board"], name=who[0]))
            continue
        if pairing["points"] is None:
            state = ngettext("game {games}, being played", "games {games}, being played",
                             len(pairing["game_ids"])).format(games=i18n.joined(pairing["game_ids"]))
        else:
            state = _("{first} to {second}").format(first=score(pairing["points"][0]), second=score(pairing["points"][1]))
        lines.append("  " + _("Board {board}: {first} against {second}: {state}").format(
            board=pairing["board"], first=who[0], second=who[1], state=state))
        if you in (first["player_id"], second["player_id"]) and pairing["points"] is None:
            mine += pairing["game_ids"]
    lines += [_("Your game: battleline show {game}").format(game=game) for game in mine]
    return lines
