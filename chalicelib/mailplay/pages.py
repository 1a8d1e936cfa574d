"""The small HTML pages behind email links: a GET only shows what a link would do (mail
scanners open every link); only the page's POST button acts. Each page function asks the
mail-play service (:mod:`.service`) and shows its answer, or why the link cannot be used."""

from __future__ import annotations

from ..games.presenters import PRESENTERS
from .links import LinkError
from ..pages.page import Page
from .service import LinkRefused, MailPlay, StepRefused


def _refusal(refused: LinkRefused, title: str, board: str | None = None) -> Page:
    return Page(refused.status, title, refused.detail, board=board, code=refused.code)


def _board(view: dict, seat: int) -> str:
    return PRESENTERS[view["game"]].html_board(view["state"], seat)


NO_GAME = "No such game"


def step_link_page(mailplay: MailPlay, token: str, action_url: str) -> Page:
    """GET of a step link: what it would do, and a button to do it. Changes nothing."""
    try:
        found = mailplay.step_link(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        if refused.view is None:
            return _refusal(refused, NO_GAME)
        return _refusal(refused, "The game has moved on", _board(refused.view, refused.view["you"]))
    link = found.link
    step = PRESENTERS[found.view["game"]].describe_step(link.step)
    return Page(200, f"Confirm: {step}", f"Game {link.game_id}, seat {link.seat}.", form_action=action_url,
                button=f"Yes, {step}", board=_board(found.view, link.seat))


def play_step_link(mailplay: MailPlay, token: str) -> Page:
    """POST of a step link: plays the step for the seat the link was made for."""
    try:
        played = mailplay.play_step_link(token)
    except LinkError as error:
        return Page.refused(error)
    except StepRefused as refused:
        return _refusal(refused, "That move was not played")
    except LinkRefused as refused:
        return _refusal(refused, NO_GAME)
    link, view = played.link, played.view
    shown = PRESENTERS[view["game"]]
    links = [{"label": shown.describe_step(step), "url": url} for step, url in played.next_steps]
    return Page(200, f"Played: {shown.describe_step(link.step)}", f"Game {link.game_id} is at version {view['version']}.",
                board=_board(view, link.seat), links=links)


def unsubscribe_page(mailplay: MailPlay, token: str, action_url: str) -> Page:
    try:
        mailplay.unsubscribe_link(token)
    except LinkError as error:
        return Page.refused(error)
    return Page(200, "Stop emails?", "You will get no more game emails; webhooks are not affected.",
                form_action=action_url, button="Unsubscribe")


def unsubscribe(mailplay: MailPlay, token: str) -> Page:
    """One-click unsubscribe (RFC 8058): no more email notifications for this player."""
    try:
        mailplay.unsubscribe(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        return _refusal(refused, "No such player")
    return Page(200, "Unsubscribed", "You will get no more game emails.")


ANSWERED = "This invitation was already answered"


def invitation_page(mailplay: MailPlay, token: str, action_url: str) -> Page:
    try:
        invite, game, _ = mailplay.invitation(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        return _refusal(refused, ANSWERED)
    return Page(200, f"Join this game of {PRESENTERS[game.game].title}?", f"Seat {invite.seat} of game {invite.game_id} "
                f"is kept for {invite.email}. You will play by email (or by API, with the key shown next).",
                form_action=action_url, button="Join the game")


def accept_invitation(mailplay: MailPlay, token: str) -> Page:
    """Take the invited seat; the new player's API key is shown on this page, only this once."""
    try:
        joined = mailplay.accept_invitation(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        return _refusal(refused, "Please try again" if refused.code == "version_conflict" else ANSWERED)
    return Page(200, "You are in", f"You have seat {joined['seat']} in game {joined['game_id']}. We will email you "
                f"when it is your move. Your API key, shown only this once, is {joined['api_key']}")
