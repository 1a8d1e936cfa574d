"""The board in a browser as the player sees it: the board view (a headline, the table as SVG
and text, the hand, each legal step labelled) and the board page around it. Drawn from a
seat's view (:meth:`chalicelib.services.boards.Boards.board`), so it shows only what that seat
may see."""

from __future__ import annotations

from urllib.parse import quote

from ..games.presenters import PRESENTERS
from .page import Page


def headline(view: dict) -> str:
    """The board's one line: who won and how, whose move it is, or whom the game waits for."""
    seat = view["you"]
    if view["status"] == "finished":
        result = view["result"]
        line = "A draw" if result["winner"] is None else (
            "You won" if result["winner"] == seat else f"Seat {result['winner']} won")
        return line + f" ({result['reason'].replace('_', ' ')})"
    if view["status"] == "waiting":
        return "Waiting for invited players"
    return "Your move" if view["to_move"] == seat else f"Seat {view['to_move']} is to move"


def board_view(view: dict) -> dict:
    """What the board page shows now, from the view of the seat it plays as (None: a spectator)."""
    seat, shown = view["you"], PRESENTERS[view["game"]]
    return {"game_id": view["game_id"], "game": view["game"], "title": shown.title, "version": view["version"],
            "status": view["status"], "you": seat, "to_move": view["to_move"], "headline": headline(view),
            "svg": shown.svg_board(view["state"], seat), "text": shown.text_board(view["state"], seat),
            "hand": view["state"].get("hand", []),
            "steps": [{"label": shown.describe_step(s), "step": s} for s in view["legal_steps"]]}


def board_page(view: dict, token: str | None) -> Page:
    """The board page: its first view, and where it asks for the next ones and sends its steps."""
    board = board_view(view)
    game_id = board["game_id"]
    query = f"?seat={quote(token)}" if token else ""
    return Page(200, f"{board['title']}: game {game_id}", board["headline"], template="board.html",
                data={"board": board, "view_url": f"/v1/games/{game_id}/board/view{query}",
                      "step_url": f"/v1/games/{game_id}/board/steps{query}"})
