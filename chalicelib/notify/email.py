"""Notification emails: multipart text + HTML, the board drawn, the hand, one signed link per
legal step, and one-click unsubscribe headers (RFC 8058). Built from the receiver's own
view of the game, so nothing hidden from that seat can appear."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from ..games.presenters import PRESENTERS
from ..records import Player
from ..mailplay.links import Links
from .mail import mail_from
from ..records import Message
from ..pages.templates import render



def _headline(message: Message, view: dict) -> str:
    title = PRESENTERS[view["game"]].title
    game = f"game {view['game_id']}"
    if message.type == "game.your_turn":
        turn = view["state"].get("turn", view["state"].get("round", "?"))
        return f"Your move in {title} {game} ({'round' if view['game'] == 'khan' else 'turn'} {turn})"
    if message.type == "game.reminder":
        hours = message.data.get("time_left_seconds", 0) // 3600
        return f"Reminder: your move in {title} {game}, {hours} hours left"
    if message.type == "game.invited":
        return f"You have a seat in a new {title} {game}"
    if message.type == "game.finished":
        return f"{title} {game} is over"
    return f"{title} {game}: a move was made"


MAX_LINKS = 40  # beyond this, an email links only a game's steps that are not bulky (the rest by reply)


def linked_steps(game: str, steps: list[dict]) -> tuple[list[dict], int]:
    """The steps an email links, and how many it leaves to a reply (many deployments or moves)."""
    bulky = PRESENTERS[game].bulky_steps
    if len(steps) <= MAX_LINKS or not bulky:
        return steps, 0
    kept = [s for s in steps if s["type"] not in bulky]
    return kept, len(steps) - len(kept)


TURN_MESSAGES = ("game.your_turn", "game.reminder")


def _deadline(view: dict) -> str | None:
    clock = view.get("clock")
    running = next((s for s in clock["seats"] if s["running"]), None) if clock else None
    return running["deadline"] if running else None


def _result(view: dict) -> str | None:
    result = view.get("result")
    if not result:
        return None
    if result["winner"] is None:
        return f"a draw ({result['reason']})"
    who = "you won" if result["winner"] == view["you"] else f"seat {result['winner']} won"
    return f"{who} ({result['reason'].replace('_', ' ')})"


def compose(message: Message, player: Player, view: dict, links: Links) -> EmailMessage:
    seat = view["you"]
    state = view["state"]
    presenter = PRESENTERS[view["game"]]
    steps = view["legal_steps"] if message.type in TURN_MESSAGES and view["to_move"] == seat else []
    linked, unlinked = linked_steps(view["game"], steps)
    link_list = [{"label": presenter.describe_step(step),
                  "url": links.step_url(view["game_id"], seat, view["version"], step)} for step in linked]
    context = {
        "headline": _headline(message, view),
        "game_id": view["game_id"],
        "version": view["version"],
        "board": None,
        "hand": state.get("hand", []),
        "deadline": _deadline(view),
        "links": link_list,
        "unlinked": unlinked,
        "example": presenter.example,
        "result": _result(view) if message.type == "game.finished" else None,
        "base_url": links.base_url,
        "unsubscribe_url": links.unsubscribe_url(player.id),
    }
    text = render("notification.txt", **{**context, "board": presenter.text_board(state, seat)})
    html = render("notification.html", 
        **{**context, "board": presenter.html_board(state, seat), "hand_html": presenter.hand_html(context["hand"])})
    email = EmailMessage()
    email["From"] = mail_from()
    email["To"] = player.email
    email["Subject"] = context["headline"]
    email["Message-ID"] = make_msgid(domain="battleline.localhost")
    email["X-Battleline-Message"] = message.id
    email["List-Unsubscribe"] = f"<{context['unsubscribe_url']}>"
    email["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    if steps:  # play by email: a reply to this address plays as this seat, at this version
        email["Reply-To"] = links.reply_address(view["game_id"], seat, view["version"])
    email.set_content(text)
    email.add_alternative(html, subtype="html")
    return email


def compose_invitation(data: dict, inviter: str, links: Links) -> EmailMessage:
    """An invitation to a seat, for an address that is not a player yet."""
    title = PRESENTERS[data.get("game", "battleline")].title
    url = links.invitation_url(data["game_id"], data["seat"], data["invite_email"])
    email = EmailMessage()
    email["From"] = mail_from()
    email["To"] = data["invite_email"]
    email["Subject"] = f"{inviter} invites you to a game of {title}"
    email["Message-ID"] = make_msgid(domain="battleline.localhost")
    email.set_content(f"{inviter} has kept seat {data['seat']} for you in a game of {title} "
                      f"(game {data['game_id']}).\n\nTo join, open this link and confirm:\n{url}\n\n"
                      "You can then play by email: we write when it is your move, and you answer with a click "
                      "or a reply. If you do not want to play, ignore this email.\n")
    email.add_alternative(render("page.html", 
        title=f"{inviter} invites you to a game of {title}",
        message=f"Seat {data['seat']} of game {data['game_id']} is kept for you.",
        links=[{"label": "Join the game", "url": url}]), subtype="html")
    return email
