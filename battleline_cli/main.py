"""``battleline``: play from a terminal, over the HTTP API.

The server and the API key come from flags or the environment (``BATTLELINE_SERVER``,
``BATTLELINE_KEY``). Boards, hands and moves are shown as text, and moves are typed as the
same commands an email reply takes (``play 7R 3``, ``deploy light_cavalry -1 0 N``), or by
their number in ``battleline show``. Errors are one line, never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Optional

import click
import typer
import urllib3

from chalicelib.games.steptypes import CommandError
from chalicelib.games.presenters import PRESENTERS

DEFAULT_SERVER = "http://127.0.0.1:8000"

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Play Battle Line and Khan & General on a correspondence server, from a terminal.")


class Failure(Exception):
    """A failure to tell the user in one line (exit status 1, or 2 when the server is unreachable)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class Client:
    def __init__(self, server: str, key: str | None) -> None:
        self.server = server.rstrip("/")
        self.key = key
        self.http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=5, read=30), retries=False)

    def call(self, method: str, path: str, body: Any = None, *, auth: bool = True) -> Any:
        headers = {"Content-Type": "application/json"}
        if auth:
            if not self.key:
                raise Failure("no API key: pass --key, or set BATTLELINE_KEY (battleline signup gives you one)")
            headers["Authorization"] = f"Bearer {self.key}"
        try:
            response = self.http.request(method, f"{self.server}{path}", headers=headers,
                                         body=json.dumps(body) if body is not None else None)
        except urllib3.exceptions.HTTPError as error:
            raise Failure(f"cannot reach the server at {self.server} ({type(error).__name__}); is it running? "
                          f"(--server, or BATTLELINE_SERVER)", status=2) from None
        try:
            data = json.loads(response.data or b"null")
        except ValueError:
            raise Failure(f"the server at {self.server} answered {response.status} with something that is not "
                          f"JSON: is it a Battle Line server?") from None
        if response.status >= 400:
            if isinstance(data, dict) and "code" in data:
                raise Failure(f"{data.get('detail', data.get('title'))} ({data['code']})")
            raise Failure(f"the server answered {response.status}")
        return data


class Options:
    client: Client


state = Options()


@app.callback()
def main(server: str = typer.Option(DEFAULT_SERVER, envvar="BATTLELINE_SERVER", help="The server's URL."),
         key: Optional[str] = typer.Option(None, envvar="BATTLELINE_KEY", help="Your API key.")) -> None:
    state.client = Client(server, key)


def out(text: str = "") -> None:
    typer.echo(text)


# ---------------------------------------------------------------- players

@app.command()
def signup(name: str, email: Optional[str] = typer.Option(None, help="For emails and play by email.")) -> None:
    """Make a player: its API key is shown once."""
    made = state.client.call("POST", "/v1/players", {"name": name, **({"email": email} if email else {})}, auth=False)
    out(f"player {made['id']} ({made['name']})")
    out(f"your API key, shown only now: {made['api_key']}")
    out(f"export BATTLELINE_KEY={made['api_key']}")


@app.command()
def me() -> None:
    """Who you are, your ratings and your vacation days."""
    found = state.client.call("GET", "/v1/players/me")
    out(f"{found['name']} ({found['id']}); vacation days left: {found['vacation']['days_left']}")
    for game, rating in found["ratings"].items():
        out(f"  {game}: {rating['rating']} (RD {rating['rd']}{', provisional' if rating['provisional'] else ''})")


# ---------------------------------------------------------------- games

@app.command()
def games(to_move: bool = typer.Option(False, "--to-move", help="Only the games waiting for your move.")) -> None:
    """Your games, latest first (or those awaiting your move, soonest deadline first)."""
    found = state.client.call("GET", "/v1/games" + ("?to_move=me" if to_move else ""))["games"]
    if not found:
        out("no games")
    for g in found:
        turn = "your move" if g["your_turn"] else (g["status"] if g["status"] != "active" else f"seat {g['to_move']} to move")
        deadline = f", by {g['deadline']}" if g.get("deadline") else ""
        out(f"{g['game_id']}  {g['game']:<10} seat {g['seat']}  {turn}{deadline}")


def parse_options(pairs: list[str]) -> dict:
    options: dict = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise Failure(f"write options as name=value, not {pair!r}")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


@app.command()
def new(game: str = typer.Argument("battleline", help="battleline or khan."),
        against: Optional[str] = typer.Option(None, help="Your opponent's player id."),
        bot: Optional[str] = typer.Option(None, help="Play a bot: random, greedy (or mcts, in Battle Line)."),
        invite: Optional[str] = typer.Option(None, help="Invite an opponent by email."),
        second: bool = typer.Option(False, "--second", help="Take seat 2 (you take seat 1 otherwise)."),
        seed: Optional[int] = typer.Option(None, help="Deal from this seed (shown to all; never rated)."),
        option: list[str] = typer.Option([], "--option", "-o", help="A game option, name=value (JSON value)."),
        public: bool = typer.Option(False, help="Anyone may watch its board.")) -> None:
    """Start a game against a player, a bot, or someone you invite by email."""
    chosen = [x for x in (against, bot, invite) if x]
    if len(chosen) != 1:
        raise Failure("name one opponent: --against PLAYER_ID, --bot NAME or --invite EMAIL")
    me_ = state.client.call("GET", "/v1/players/me")
    opponent = {"player_id": against} if against else {"bot": bot} if bot else {"email": invite}
    seats = [{"player_id": me_["id"]}, opponent]
    if second:
        seats.reverse()
    body = {"game": game, "seats": seats, "options": parse_options(option), "public": public,
            **({"seed": seed} if seed is not None else {})}
    view = state.client.call("POST", "/v1/games", body)
    out(f"game {view['game_id']} ({game}): you have seat {view['you']}")
    show_view(view)


@app.command()
def join(tournament_id: str) -> None:
    """Enter a tournament before it starts."""
    found = state.client.call("POST", f"/v1/tournaments/{tournament_id}/join")
    out(f"you are in {found['name']} ({len(found['players'])} players)")


@app.command()
def show(game_id: str) -> None:
    """The board, your hand, and the moves you may make now (numbered)."""
    show_view(state.client.call("GET", f"/v1/games/{game_id}"))


def show_view(view: dict) -> None:
    presenter = PRESENTERS[view["game"]]
    out(presenter.text_board(view["state"], view["you"]))
    out()
    if view["state"].get("hand"):
        out("Your hand: " + " ".join(view["state"]["hand"]))
    if view["status"] == "finished":
        result = view["result"]
        who = "a draw" if result["winner"] is None else ("you won" if result["winner"] == view["you"]
                                                          else f"seat {result['winner']} won")
        out(f"The game is over: {who} ({result['reason'].replace('_', ' ')}).")
        return
    if view["to_move"] != view["you"]:
        out(f"Seat {view['to_move']} is to move (version {view['version']}).")
        return
    out(f"Your move (version {view['version']}, {view['phase']}):")
    for number, step in enumerate(view["legal_steps"], start=1):
        out(f"  {number:>3}. {presenter.write_step(step)}")


@app.command()
def play(game_id: str, commands: list[str] = typer.Argument(
        ..., help='Moves as commands ("play 7R 3" "claim none" "draw troop") or numbers from `show`.')) -> None:
    """Make moves in one go (all or nothing), at the game's current version."""
    view = state.client.call("GET", f"/v1/games/{game_id}")
    presenter = PRESENTERS[view["game"]]
    steps = []
    for command in commands:
        if command.strip().isdigit():
            number = int(command)
            if not 1 <= number <= len(view["legal_steps"]):
                raise Failure(f"there is no move {number} now (see battleline show {game_id})")
            steps.append(view["legal_steps"][number - 1])
            continue
        try:
            steps += presenter.parse_commands(command)
        except CommandError as error:
            raise Failure(f"{error}\n{presenter.help}") from None
    result = state.client.call("POST", f"/v1/games/{game_id}/actions",
                               {"expected_version": view["version"], "steps": steps})
    out("played: " + "; ".join(presenter.write_step(s) for s in steps))
    show_view(result["view"])


@app.command()
def resign(game_id: str) -> None:
    """Lose the game now."""
    view = state.client.call("GET", f"/v1/games/{game_id}")
    state.client.call("POST", f"/v1/games/{game_id}/actions",
                      {"expected_version": view["version"], "steps": [{"type": "resign"}]})
    out(f"you resigned game {game_id}")


@app.command()
def board(game_id: str) -> None:
    """A link to the game's board in a browser (it plays as you: keep it to yourself)."""
    out(state.client.call("GET", f"/v1/games/{game_id}/board-link")["url"])


def run() -> None:
    """The console script: one line for any failure, never a traceback."""
    try:
        app(standalone_mode=False)
    except Failure as failure:
        typer.echo(f"error: {failure}", err=True)
        sys.exit(failure.status)
    except click.ClickException as error:  # a usage error: click's own message
        error.show()
        sys.exit(error.exit_code)
    except click.exceptions.Abort:
        sys.exit(130)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except Exception as error:  # noqa: BLE001 - a user sees a sentence, not a stack
        typer.echo(f"error: something went wrong ({type(error).__name__}: {error})", err=True)
        sys.exit(1)


if __name__ == "__main__":
    run()
