"""``battleline``: play from a terminal, over the HTTP API.

The server and the API key come from flags or the environment (``BATTLELINE_SERVER``,
``BATTLELINE_KEY``); without either, the key ``battleline signup`` saved in the config file for the
server (settings.py). Boards, hands and moves are shown as text, and moves are typed as the
same commands an email reply takes (``play 7R 3``, ``deploy light_cavalry -1 0 N``), or by
their number in ``battleline show``. Errors are one line, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Optional

import click
import typer

from chalicelib.games.presenters import PRESENTERS, QUIET
from chalicelib.games.steptypes import CommandError
from chalicelib.games.terminal import TERMINALS
from chalicelib.kernel import i18n
from chalicelib.kernel.i18n import N_, _, ngettext, say

from . import playtest as lab, screens, settings
from .client import Client, Failure
from .typed import steps_of

DEFAULT_SERVER = "http://127.0.0.1:8000"

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help=N_("Play Battle Line and Khan & General on a correspondence server, from a terminal."))


class Options:
    client: Client
    chosen: str | None = None  # the language --language or BATTLELINE_LANGUAGE asks for
    language: str = i18n.DEFAULT  # the language spoken (its failures are told in it too)
    speaking = ExitStack()  # the language spoken until the command ends


state = Options()


def player_language(client: Client) -> str:
    """The player's ``language`` preference: the config's copy, or (the first time) the server's,
    then kept; English without a key, or when the server cannot say."""
    cached = settings.cached_language(client.server, client.key)
    if cached or not client.key:
        return cached or i18n.DEFAULT
    try:
        found = client.call("GET", "/v1/players/me/preferences").get("language", i18n.DEFAULT)
    except Failure:
        return i18n.DEFAULT  # the command itself says what is wrong
    settings.cache_language(client.server, client.key, found)
    return found


def speak(code: str) -> None:
    """Speak ``code`` from now on, and ask the server for it (its refusals)."""
    state.speaking.close()
    state.speaking.enter_context(i18n.speaking(code))
    state.language = state.client.language = code


OFFLINE = {"playtest", "balance"}  # (verify --file asks the server only for a card set it lacks)  # commands that need no server and no key


@app.callback()
def main(ctx: typer.Context,
         server: str = typer.Option(DEFAULT_SERVER, envvar="BATTLELINE_SERVER", help=N_("The server's URL.")),
         key: Optional[str] = typer.Option(None, envvar="BATTLELINE_KEY", help=N_("Your API key.")),
         language: Optional[str] = typer.Option(
             None, "--language", envvar="BATTLELINE_LANGUAGE",
             help=N_("Speak this language this time: en, zh-Hans, ja or vi (by default your preference: "
                  "battleline language)."))) -> None:
    state.client = Client(server, key or settings.saved_key(server))
    state.chosen, state.language = None, i18n.DEFAULT
    ctx.call_on_close(state.speaking.close)
    if language:
        state.chosen = settings.language_code(language)
        if state.chosen is None:
            raise Failure(_("no language {language!r}: choose one of {languages}").format(
                language=language, languages=i18n.listed(i18n.LANGUAGES)))
    offline = ctx.invoked_subcommand in OFFLINE  # no request: its language is the one kept, if any
    speak(state.chosen or (settings.cached_language(server, key) or i18n.DEFAULT if offline
                           else player_language(state.client)))


def out(text: str = "") -> None:
    typer.echo(text)


# ---------------------------------------------------------------- players

@app.command(help=N_("Make a player: its API key is shown once and saved in the config file for this server "
                     "(its language is --language's, or English)."))
def signup(name: str, email: Optional[str] = typer.Option(None, help=N_("For emails and play by email."))) -> None:
    body = {"name": name, **({"email": email} if email else {}), **({"language": state.chosen} if state.chosen else {})}
    made = state.client.call("POST", "/v1/players", body, auth=False)
    settings.cache_language(state.client.server, made["api_key"], state.chosen or i18n.DEFAULT)
    out(_("player {id} ({name})").format(id=made["id"], name=made["name"]))
    out(_("your API key, shown only now: {key}").format(key=made["api_key"]))
    try:
        path = settings.save_key(state.client.server, made["api_key"])
    except OSError as error:
        out(_("it could not be saved ({error}): set it for the next commands with").format(error=error))
        out(f"export BATTLELINE_KEY={made['api_key']}")
        return
    out(_("Saved in {path} (readable by you only): the next commands use it. --key or BATTLELINE_KEY "
          "overrides it.").format(path=path))


@app.command(help=N_("Who you are, your ratings and your vacation days."))
def me() -> None:
    found = state.client.call("GET", "/v1/players/me")
    out(_("{name} ({id}); vacation days left: {days}").format(name=found["name"], id=found["id"],
                                                               days=found["vacation"]["days_left"]))
    for pool, rating in found["ratings"].items():
        said = _("{rating} (RD {rd}, provisional)") if rating["provisional"] else _("{rating} (RD {rd})")
        out("  " + _("{title}: {rating}").format(title=pool_title(pool),
                                                 rating=said.format(rating=i18n.number(rating["rating"], 1),
                                                                    rd=i18n.number(rating["rd"], 1))))


def pool_title(pool: str) -> str:
    """A rating pool as a player reads it: the game's title, and a card set other than the game's own
    (getMe's ``<game>:<card set id>``) by its id."""
    game, _sep, card_set = pool.partition(":")
    title = screens.TITLES.get(game, game)
    return _("{title}, card set {card_set}").format(title=title, card_set=card_set) if card_set else title


LANGUAGE_NAMES = {"en": "English", "zh-Hans": "简体中文", "ja": "日本語", "vi": "Tiếng Việt"}


@app.command(help=N_("Your language: emails, pages, the board, this command line and the server's refusals speak it."))
def language(code: Optional[str] = typer.Argument(None, help=N_("en, zh-Hans, ja or vi; none: show yours."))) -> None:
    if code is None:
        found = state.client.call("GET", "/v1/players/me/preferences").get("language", i18n.DEFAULT)
    else:
        chosen = settings.language_code(code)
        if chosen is None:
            raise Failure(_("no language {language!r}: choose one of {languages}").format(
                language=code, languages=i18n.listed(i18n.LANGUAGES)))
        found = state.client.call("PUT", "/v1/players/me/preferences", {"language": chosen})["language"]
    settings.cache_language(state.client.server, state.client.key, found)
    if not state.chosen:
        speak(found)  # said in the language just chosen
    named = _("Your language: {name} ({code}).").format(name=LANGUAGE_NAMES.get(found, found), code=found)
    out(named if code is None else _("Your language is now {name} ({code}).").format(
        name=LANGUAGE_NAMES.get(found, found), code=found))


# ---------------------------------------------------------------- games

@app.command(help=N_("Your games, latest first (or those awaiting your move, soonest deadline first)."))
def games(to_move: bool = typer.Option(False, "--to-move", help=N_("Only the games waiting for your move."))) -> None:
    found = state.client.call("GET", "/v1/games" + ("?to_move=me" if to_move else ""))["games"]
    if not found:
        out(_("no games") if not to_move else _("no game waits for your move"))
    for g in found:
        if g["status"] == "finished":
            turn = _("finished")
        elif g["status"] == "waiting":
            turn = _("waiting for a player to accept")
        else:
            turn = _("your move") if g["your_turn"] else _("their move")
        if g.get("deadline"):
            turn = _("{turn}, by {deadline}").format(turn=turn, deadline=screens.when(g["deadline"]))
        out(f"{g['game_id']}  {settings.pad(screens.TITLES.get(g['game'], g['game']), 15)} {turn}")


def parse_options(pairs: list[str]) -> dict:
    options: dict = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise Failure(_("write options as name=value, not {pair!r}").format(pair=pair))
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


@app.command(help=N_("Start a game against a player (who is asked first), a bot, someone you invite by email, or whoever takes an open seat."))
def new(game: str = typer.Argument("battleline", help=N_("battleline or khan.")),
        against: Optional[str] = typer.Option(None, help=N_("Your opponent's player id.")),
        bot: Optional[str] = typer.Option(None, help=N_("Play a bot: random, greedy or mcts.")),
        invite: Optional[str] = typer.Option(None, help=N_("Invite an opponent by email.")),
        open_: bool = typer.Option(False, "--open", help=N_("An open challenge: a seat for whoever takes it first "
                                                         "(battleline lobby lists them).")),
        rating_min: Optional[int] = typer.Option(None, help=N_("With --open: the lowest rating that may take it.")),
        rating_max: Optional[int] = typer.Option(None, help=N_("With --open: the highest rating that may take it.")),
        second: bool = typer.Option(False, "--second", help=N_("Take seat 2 (you take seat 1 otherwise).")),
        seed: Optional[int] = typer.Option(None, help=N_("Deal from this seed (shown to all; never rated).")),
        option: list[str] = typer.Option([], "--option", "-o", help=N_("A game option, name=value (JSON value).")),
        public: bool = typer.Option(False, help=N_("Anyone may watch its board."))) -> None:
    chosen = [x for x in (against, bot, invite, open_) if x]
    if len(chosen) != 1:
        raise Failure(_("name one opponent: --against PLAYER_ID, --bot NAME, --invite EMAIL or --open"))
    me_ = state.client.call("GET", "/v1/players/me")
    limits = {k: v for k, v in (("rating_min", rating_min), ("rating_max", rating_max)) if v is not None}
    opponent = {"player_id": against} if against else {"bot": bot} if bot else {"email": invite} if invite \
        else {"open": True, **limits}
    seats = [{"player_id": me_["id"]}, opponent]
    if second:
        seats.reverse()
    body = {"game": game, "seats": seats, "options": parse_options(option), "public": public,
            **({"seed": seed} if seed is not None else {})}
    view = state.client.call("POST", "/v1/games", body)
    lines(screens.summary(view))


@app.command(help=N_("Open challenges: games with a seat for whoever takes it first, newest first."))
def lobby(game: str = typer.Argument("battleline", help=N_("battleline or khan."))) -> None:
    found = state.client.call("GET", f"/v1/open-games?game={game}")["games"]
    if not found:
        out(_("no open challenges; make one with: battleline new {game} --open").format(game=game))
    for g in found:
        seat = next(s for s in g["seats"] if s["seat"] == g["open_seat"])
        limits = ""
        if seat.get("rating_min") is not None or seat.get("rating_max") is not None:
            limits = " " + _("ratings {low}-{high}").format(low=seat.get("rating_min") or 0,
                                                            high=seat.get("rating_max") or "")
        rated = _("rated") if g["rated"] else _("unrated")
        may = _("battleline take {game}").format(game=g["game_id"]) if g["may_join"] else _("not for you")
        out(f"{g['game_id']}  {settings.pad(screens.TITLES.get(g['game'], g['game']), 15)} " + _(
            "by {name}, {rated}{limits}: {take}").format(name=g["created_by"]["name"], rated=rated, limits=limits,
                                                          take=may))


@app.command(help=N_("Take a game's open seat (first come, first served)."))
def take(game_id: str) -> None:
    answer(game_id, "join")


def answer(game_id: str, what: str) -> None:
    view = state.client.call("POST", f"/v1/games/{game_id}/{what}")
    lines(screens.summary(view))


@app.command(help=N_("Say yes to a game someone made for you: it starts once every seat has."))
def accept(game_id: str) -> None:
    answer(game_id, "accept")


@app.command(help=N_("Say no to a game someone made for you: it ends, declined, unrated."))
def decline(game_id: str) -> None:
    answer(game_id, "decline")


@app.command(help=N_("Call a game off before its first move: it ends, aborted, unrated."))
def abort(game_id: str) -> None:
    answer(game_id, "abort")


@app.command(help=N_("Enter a tournament before it starts."))
def join(tournament_id: str) -> None:
    found = state.client.call("POST", f"/v1/tournaments/{tournament_id}/join")
    count = len(found["players"])
    out(ngettext("You are in {name} ({count} player so far).", "You are in {name} ({count} players so far).",
                 count).format(name=found["name"], count=count))


# ---------------------------------------------------------------- tournaments

tournament_app = typer.Typer(no_args_is_help=True, help=N_("Tournaments: the open and running ones, one's standings "
                                                           "and your games, entering and leaving (battleline "
                                                           "tournament list, show, join, withdraw)."))
app.add_typer(tournament_app, name="tournament")
tournament_app.command("join", help=N_("Enter a tournament before it starts."))(join)


@tournament_app.command("list", help=N_("Tournaments, newest first: open for entry, running or finished."))
def tournament_list(status: Optional[str] = typer.Option(None, "--status", help=N_("open, running or finished; "
                                                                                 "none: all three."))) -> None:
    query = f"?status={status}" if status else ""
    lines(screens.tournaments(state.client.call("GET", f"/v1/tournaments{query}", auth=False)["tournaments"], status))


@tournament_app.command("show", help=N_("A tournament: its standings, the round's pairings with their games (yours "
                                        "named), or who has entered while it is open."))
def tournament_show(tournament_id: str) -> None:
    found = state.client.call("GET", f"/v1/tournaments/{tournament_id}", auth=False)
    standings = state.client.call("GET", f"/v1/tournaments/{tournament_id}/standings", auth=False)
    lines(screens.tournament(found, standings, _my_id()))


@tournament_app.command("withdraw", help=N_("Leave a tournament (asks first); once it runs, your games still being "
                                            "played are lost and you are paired no more."))
def tournament_withdraw(tournament_id: str,
                        yes: bool = typer.Option(False, "--yes", "-y", help=N_("Do not ask first."))) -> None:
    found = state.client.call("GET", f"/v1/tournaments/{tournament_id}", auth=False)
    me_ = _my_id()
    if me_ is not None and not any(p["player_id"] == me_ and not p["withdrawn"] for p in found["players"]):
        raise Failure(_("you are not in {name}").format(name=found["name"]))  # asked nothing: nothing to leave
    if not yes:
        question = (_("Withdraw from {name}? Your games still being played are lost, and you are paired no more.")
                    if found["status"] == "running" else _("Withdraw from {name}?")).format(name=found["name"])
        if not asked(question):
            raise Failure(_("still in (battleline tournament withdraw {tournament} --yes withdraws without "
                            "asking)").format(tournament=tournament_id))
    state.client.call("POST", f"/v1/tournaments/{tournament_id}/withdraw")
    out(_("You withdrew from {name}.").format(name=found["name"]))


# ---------------------------------------------------------------- ladders

ladder_app = typer.Typer(no_args_is_help=True, help=N_("Ladders: a ranking you climb by beating the players above "
                                                       "you (battleline ladder show, join, challenge)."))
app.add_typer(ladder_app, name="ladder")


def _my_id() -> str | None:
    """Your player id, when a key is given (a ladder is shown to anyone)."""
    if not state.client.key:
        return None
    try:
        return state.client.call("GET", "/v1/players/me")["id"]
    except Failure:
        return None


@ladder_app.command("show", help=N_("A ladder: each player's place, rating and open challenges, and the challenges "
                                    "waiting for an answer."))
def ladder_show(ladder_id: str = typer.Argument("battleline", help=N_("The ladder's id (a game's own ladder: the "
                                                                       "game's name).")),
                ) -> None:
    found = state.client.call("GET", f"/v1/ladders/{ladder_id}", auth=False)
    lines(screens.ladder(found, _my_id()))


@ladder_app.command("join", help=N_("Enter a ladder, at the bottom."))
def ladder_join(ladder_id: str = typer.Argument("battleline", help=N_("The ladder's id (a game's own ladder: the "
                                                                       "game's name)."))) -> None:
    found = state.client.call("POST", f"/v1/ladders/{ladder_id}/join")
    me_ = state.client.call("GET", "/v1/players/me")["id"]
    rank = next((p["rank"] for p in found["players"] if p["player_id"] == me_), len(found["players"]))
    out(_("You are on {ladder}: number {rank} of {count}.").format(ladder=found["name"], rank=rank,
                                                                    count=len(found["players"])))
    out(_("Challenge a player above you with: battleline ladder challenge PLAYER --ladder {ladder}").format(
        ladder=found["id"]))


@ladder_app.command("challenge", help=N_("Challenge a player at most N places above you: the game is made at once and "
                                         "waits for their answer."))
def ladder_challenge(player: str = typer.Argument(..., help=N_("The player's id, or their place on the ladder "
                                                                 "(battleline ladder show).")),
                     ladder_id: str = typer.Option("battleline", "--ladder", help=N_("The ladder's id (a game's own "
                                                                                     "ladder: the game's name)."))
                     ) -> None:
    player_id = player
    if player.isdigit():  # a place on the ladder
        found = state.client.call("GET", f"/v1/ladders/{ladder_id}", auth=False)
        player_id = next((p["player_id"] for p in found["players"] if p["rank"] == int(player)), None)
        if player_id is None:
            raise Failure(_("nobody is number {rank} on {ladder}").format(rank=player, ladder=found["name"]))
    made = state.client.call("POST", f"/v1/ladders/{ladder_id}/challenges", {"player_id": player_id})
    out(_("You challenged {name} (number {rank}): game {game}. They accept by {by}; declining or not answering "
          "counts as a loss for them.").format(name=made["challenged"]["name"], rank=made["challenged"]["rank"],
                                               game=made["game_id"], by=screens.when(made["respond_by"])))
    lines(screens.summary(made["game"]))


def lines(text: list[str], game: str | None = None) -> None:
    """Lines out, coloured as the game colours its text (``game``: none, plain)."""
    for line in text:
        out(screens.coloured(line, game) if game else line)


def card_set_of(view: dict) -> dict | None:
    """The card set the game was dealt from, as the server has it (unit powers, command costs), for a
    game that has one; else None."""
    shown = TERMINALS[view["game"]]
    found = shown.card_set_ref(view)
    path = shown.card_set_path(found) if found else None
    if not path:
        return None
    try:
        return state.client.call("GET", path, auth=False)
    except Failure:
        return None


def show_game(view: dict, *, own: bool = True) -> None:
    events = state.client.events(view["game_id"])
    lines(screens.screen(view, events, card_set_of(view), own=own), view["game"])


@app.command(help=N_("The game: what the others did last, whose move, the board, your hand, the counts, the clock, and your moves grouped (card → flags)."))
def show(game_id: str,
         log_: bool = typer.Option(False, "--log", help=N_("The whole game told instead (as battleline log)."))) -> None:
    if log_:
        return log(game_id)
    show_game(state.client.view(game_id))


@app.command(help=N_("The whole game told, a turn a line: to follow a correspondence game."))
def log(game_id: str) -> None:
    view = state.client.view(game_id)
    lines(screens.log(view, state.client.events(game_id)), view["game"])


def wait_for_bot(game_id: str, view: dict, seconds: float) -> dict:
    """The view once the bot to move has moved (or ``seconds`` have passed): a bot answers at once."""
    deadline = time.monotonic() + seconds
    while view["status"] == "active" and view["to_move"] != view["you"] and time.monotonic() < deadline and any(
            s["seat"] == view["to_move"] and s.get("bot") for s in view["seats"]):
        time.sleep(0.5)
        view = state.client.view(game_id)
    return view


@app.command(context_settings={"ignore_unknown_options": True}, help=N_("Make moves in one go (all or nothing), at the game's current version, then show the game."))
def play(game_id: str,
         commands: list[str] = typer.Argument(
             ..., help=N_('Your moves as an email reply takes them: "play 7R 3" "claim none" "draw troop", or '
                       'play 7R 3 / claim none / draw troop, or a number battleline show gives a short decision.')),
         wait: float = typer.Option(10, help=N_("Seconds to wait for a bot's answer before showing the game.")),
         message: Optional[str] = typer.Option(None, "--message", "-m",
                                               help=N_("A message to your opponent with the moves (one line, at most "
                                                    "500 characters)."))) -> None:
    view = state.client.view(game_id)
    presenter = PRESENTERS[view["game"]]
    try:
        steps = steps_of(commands, view, presenter, game_id)
    except CommandError as error:
        raise Failure(_("{error}; write moves as in an email reply, e.g. {example} (battleline show {game} lists "
                        "yours)").format(error=say(error.reason), example=presenter.example, game=game_id)) from None
    body = {"expected_version": view["version"], "steps": steps, **({"message": message} if message is not None else {})}
    held: list[dict] = []
    try:
        result = state.client.call("POST", f"/v1/games/{game_id}/actions", body)
    except Failure as failed:
        index = failed.problem.get("step_index")
        if failed.problem.get("code") != "not_your_turn" or not index:
            raise
        # The first steps gave another seat the decision (Khan & General's reaction window opens when an action
        # ends): they are played, the rest wait for this seat's next decision, as an email reply's do.
        steps, held = steps[:index], steps[index:]
        result = state.client.call("POST", f"/v1/games/{game_id}/actions", {**body, "steps": steps})
    mine = [e for e in result["events"] if e["seat"] == view["you"] and e["type"] not in QUIET]
    done = screens.sentences(presenter.told(result["view"], mine))
    if not done:
        done = _("Played: {steps}.").format(steps="; ".join(presenter.write_step(s) for s in steps))
    if message is not None:
        done = i18n.sentences(done, _("Your message went with it."))
    if held:
        done = i18n.sentences(done, presenter.held_for_later(result["view"], held))
    lines([done], view["game"])
    out()
    show_game(wait_for_bot(game_id, result["view"], wait), own=False)


# Yes to a question, as a player of each language may type it (anything else is no).
YES = {"y", "yes", "是", "是的", "好", "确定", "はい", "うん", "ｙ", "ｙｅｓ", "có", "co", "vâng", "đồng ý"}


def asked(question: str) -> bool:
    """Did the user say yes to the question (no unless they did; Ctrl-D or Ctrl-C at it is no)?"""
    try:
        said = typer.prompt(question, default="", show_default=False, prompt_suffix=" [y/N]: ")
    except (typer.Abort, click.exceptions.Abort):
        return False
    return said.strip().lower() in YES


@app.command(help=N_("Lose the game now (asks first)."))
def resign(game_id: str, yes: bool = typer.Option(False, "--yes", "-y", help=N_("Do not ask first."))) -> None:
    view = state.client.view(game_id)
    if view["status"] != "active":
        raise Failure(_("game {game} is not being played").format(game=game_id))
    if not yes and not asked(_("Resign {title}? You lose the game.").format(title=screens.title(view))):
        raise Failure(_("not resigned (battleline resign {game} --yes resigns without asking)").format(game=game_id))
    state.client.call("POST", f"/v1/games/{game_id}/actions",
                      {"expected_version": view["version"], "steps": [{"type": "resign"}]})
    out(_("You resigned game {game}.").format(game=game_id))


@app.command(help=N_("A link to the game's board in a browser (it plays as you: keep it to yourself)."))
def board(game_id: str) -> None:
    out(state.client.call("GET", f"/v1/games/{game_id}/board-link")["url"])


# ---------------------------------------------------------------- trust: a finished game checked here

@app.command(help=N_("Check a finished game on this machine: its deal's commitment, then the whole game replayed "
                     "from the revealed seed to its result (exit status 0: verified; 1: it differs; 2: cannot check)."))
def verify(game_id: Optional[str] = typer.Argument(None, help=N_("The game (its record is fetched).")),
           file: Optional[Path] = typer.Option(None, "--file", exists=True, dir_okay=False,
                                               help=N_("A record saved before (getGameRecord's JSON) instead."))) -> None:
    from chalicelib.gamerecord import verify as checking

    if (game_id is None) == (file is None):
        raise Failure(_("give a game id or --file, not both"), status=2)
    if file is not None:
        try:
            record = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise Failure(_("cannot read {file}: {error}").format(file=file, error=error), status=2) from None
    else:
        record = state.client.call("GET", f"/v1/games/{game_id}/record")
    for _attempt in range(2):
        try:
            verdict = checking.verify(record)
            break
        except checking.MissingCardSet as missing:
            ref = missing.ref
            out(_("Fetching card set {id} version {version} from the server…").format(**ref))
            fetched = state.client.call("GET", TERMINALS[record["game"]].card_set_path(ref), auth=False)
            try:
                checking.add_card_set(fetched, ref)
            except checking.Refused as refused:
                raise Failure(str(refused), status=2) from None
        except checking.Refused as refused:
            raise Failure(str(refused), status=2) from None
    else:  # pragma: no cover - a card set added is found
        raise Failure(_("the card set could not be added"), status=2)
    for note in verdict.notes:
        out(note)
    if not verdict.verified:
        for problem in verdict.problems:
            out(problem)
        raise Failure(_("game {game} is NOT verified: its record differs from its replay").format(
            game=record.get("game_id")), status=1)
    out(_("Verified: game {game}, {moves} moves replayed by the rules {rules}; the result matches.").format(
        game=record["game_id"], moves=verdict.moves, rules=record["rules_version"]))


# ---------------------------------------------------------------- designing Khan & General

@app.command(help=N_("Playtest a Khan & General card-set file: bots play it against each other on this machine "
                     "(no server needed), and a report tells how the games went."))
def playtest(
        file: Path = typer.Argument(..., exists=True, dir_okay=False, help=N_("The card-set file (JSON).")),
        games: int = typer.Option(500, min=1, help=N_("How many games.")),
        bot: str = typer.Option("greedy", help=N_("The bot on both sides: greedy, random or mcts.")),
        seed: int = typer.Option(0, help=N_("The same seed plays the same games.")),
        budget_ms: float = typer.Option(50.0, "--budget-ms", min=1,
                                        help=N_("The mcts bot's time a decision, in milliseconds.")),
        compare: bool = typer.Option(False, "--compare",
                                     help=N_("Also play the same games with the default card set, and compare.")),
        out: Optional[Path] = typer.Option(None, help=N_("The report's folder (default: var/playtest/ and the card set's id).")),
        workers: Optional[int] = typer.Option(None, min=1, help=N_("Processes playing at once (default: one a core).")),
        max_rounds: int = typer.Option(40, "--max-rounds", min=1, max=500,
                                       help=N_("The games' last round (the rules: 40)."))) -> None:
    lab.playtest(file, games, bot, seed, budget_ms, compare, out, workers, max_rounds)


@app.command(help=N_("Search for changes to a Khan & General card set that meet your targets: bots play its variants "
                     "on this machine, and the best are written as card-set files beside a report."))
def balance(
        file: Path = typer.Argument(..., exists=True, dir_okay=False, help=N_("The card-set file (JSON).")),
        search: Path = typer.Option(..., exists=True, dir_okay=False,
                                    help=N_("The search file (JSON): what may change, and the targets.")),
        out: Optional[Path] = typer.Option(None, help=N_("The report's folder (default: var/balance/ and the card set's id).")),
        minutes: float = typer.Option(30.0, min=0.1, help=N_("The time budget, in minutes.")),
        seed: int = typer.Option(0, help=N_("The same seed gives the same candidates.")),
        decks: Optional[Path] = typer.Option(None, exists=True, dir_okay=False,
                                             help=N_("Custom decks (JSON: each faction's 15 card ids), so that cards "
                                                     "outside the recommended decks are played.")),
        workers: Optional[int] = typer.Option(None, min=1, help=N_("Processes playing at once (default: one a core)."))) -> None:
    from khan_lab import balance as balancing, report

    if report.matplotlib_missing():
        raise Failure(_("the report's charts need matplotlib, which is not installed: {command}").format(
            command=report.INSTALL_HINT))
    if balancing.balance(file, search, out, minutes, seed, decks, workers, say=typer.echo):
        raise typer.Exit(1)


def early_language(args: list[str]) -> str:
    """The language of the help and of usage errors, known before the arguments are read: --language,
    BATTLELINE_LANGUAGE, or the preference kept for the server and key; never a request."""
    def option(name: str, env: str) -> str | None:
        for index, arg in enumerate(args):
            if arg == name and index + 1 < len(args):
                return args[index + 1]
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
        return os.environ.get(env)

    asked = option("--language", "BATTLELINE_LANGUAGE")
    if asked:
        return settings.language_code(asked) or i18n.DEFAULT
    server = option("--server", "BATTLELINE_SERVER") or DEFAULT_SERVER
    return settings.cached_language(server, option("--key", "BATTLELINE_KEY") or settings.saved_key(server)) \
        or i18n.DEFAULT


def translate_help(command: click.Command) -> None:
    """The help of the command, its subcommands and their options in the language spoken (written
    in English, marked N_)."""
    if command.help:
        command.help = _(command.help)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _(param.help)
    for sub in getattr(command, "commands", {}).values():
        translate_help(sub)


def run() -> None:
    """The console script: one line for any failure, never a traceback."""
    command = typer.main.get_command(app)
    args = sys.argv[1:]
    state.language = early_language(args)
    i18n.in_language(state.language, lambda: translate_help(command))
    try:
        command.main(args=args, prog_name="battleline", standalone_mode=False)
    except Failure as failure:
        typer.echo(i18n.in_language(state.language, lambda: _("error: {reason}")).format(reason=failure), err=True)
        sys.exit(failure.status)
    except (typer.Abort, click.exceptions.Abort):
        sys.exit(130)
    except (typer.Exit, click.exceptions.Exit) as done:
        sys.exit(done.exit_code)
    except (typer.TyperException, click.ClickException) as error:  # a usage error: its own message and usage
        # (typer raises its own copy of click's exceptions, all under typer.TyperException)
        if hasattr(error, "show"):
            error.show()
        sys.exit(getattr(error, "exit_code", 2))
    except Exception as error:  # noqa: BLE001 - a user sees a sentence, not a stack
        typer.echo(i18n.in_language(state.language, lambda: _("error: something went wrong ({error})")).format(
            error=f"{type(error).__name__}: {error}"), err=True)
        sys.exit(1)


if __name__ == "__main__":
    run()
