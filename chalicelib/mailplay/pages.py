"""The small HTML pages behind email links: a GET only shows what a link would do (mail
scanners open every link); only the page's POST button acts. Each page function asks the
mail-play service (:mod:`.service`) and shows its answer, or why the link cannot be used.

A Battle Line play link's page is the whole turn: it asks which flags to claim and which deck to
draw from after the play, and its one POST plays all of it; the page after shows what was played,
the drawn card, the new hand and what happens next. A link used or outdated says what became of
it (played, and when; or the game moved on, or ended, and how)."""

from __future__ import annotations

import re
from functools import wraps

from ..kernel.errors import ServiceError
from ..kernel.i18n import N_, _, full_width, sentences, speaking
from ..pages.page import MAX_FORM_BYTES, FormProblem, Page
from ..presenting import show
from ..presenting.links import LinkError
from ..kernel.talk import MAX_LENGTH
from .service import Answering, Choices, LinkedStep, LinkRefused, MailPlay, StepRefused, Used

TEMPLATE = "link.html"


def in_readers_language(kind: str):
    """A link page speaks the language of the player its link was made for (their ``language``
    preference), whatever the browser asks for; an invitation (no player yet) or a link that cannot
    be read speaks the request's Accept-Language, as the HTTP adapter set it."""
    def decorate(page_of):
        @wraps(page_of)
        def page(mailplay: MailPlay, token: str, *args, **kwargs) -> Page:
            code = mailplay.reader_language(kind, token)
            if code is None:
                return page_of(mailplay, token, *args, **kwargs)
            with speaking(code):
                shown = page_of(mailplay, token, *args, **kwargs)
            shown.vary = False
            return shown
        return page
    return decorate


def _page(status: int, title: str, message: str, *, code: str = "", **data) -> Page:
    return Page(status, title, message, template=TEMPLATE, data=data, code=code)


def _letter(mailplay: MailPlay, view: dict, moves: bool = False) -> dict:
    return show.letter(view, mailplay.links, moves=moves)


NO_GAME = N_("No such game")


def _asked(question: str) -> str:
    """A question as the language ends it ("？" in Chinese and Japanese)."""
    return question + ("\uff1f" if full_width() else "?")


def _told(view: dict, events: list[dict]) -> str:
    """What an action did, in sentences (its events as the seat sees them)."""
    from ..games.presenters import PRESENTERS

    return sentences(*PRESENTERS[view["game"]].told(view, events))


def _used(view: dict, used: Used | None) -> list[str]:
    """What became of a link: played by it (when, and what it did), or the position changed."""
    if used is None:
        return []
    told = _told(view, used.events)
    if used.by_link:
        return [_("This link was used on {when}: {told}").format(when=show.when(used.at), told=told)]
    mine = any(e["seat"] == view["you"] for e in used.events)
    if mine:
        return [_("This link was not used: you moved otherwise on {when}. {told}").format(
            when=show.when(used.at), told=told)]
    return [_("This link was not used: the game moved on before, on {when}. {told}").format(
        when=show.when(used.at), told=told)]


def _moved_on(mailplay: MailPlay, refused: LinkRefused) -> Page:
    """A link for an earlier position: the game is over (who won and why), the link's move was
    played (when, and what it did), or the game has moved on otherwise; then where it stands now."""
    view, used = refused.view, refused.used
    notes = _used(view, used)
    if view["status"] == "finished":
        return _page(409, _("The game is over"), sentences(show.result_line(view)), code=refused.code, notes=notes,
                     letter=_letter(mailplay, view))
    status = show.whose_move(view)
    if view["to_move"] == view["you"]:
        status = _("It is your move again: the latest email or the board has your current moves.")
    if used is not None and used.by_link:
        return _page(409, _("This move was already played"), notes[0], code=refused.code,
                     notes=[_("Now: {status}").format(status=status)], letter=_letter(mailplay, view, moves=True))
    return _page(409, _("The game has moved on"), status, code=refused.code, notes=notes,
                 letter=_letter(mailplay, view, moves=True))


def _turn_form(view: dict, step: dict, turn: list[dict], action_url: str) -> dict:
    """The confirmation form: the step, then what the rest of the turn lets the seat choose."""
    parts = []
    for part in turn:
        if part["type"] == "claim":
            parts.append({"type": "claim", "flags": part["flags"]})
        else:
            labels = {"troop": _("A troop card ({count} left)"), "tactics": _("A tactics card ({count} left)")}
            parts.append({"type": "draw", "decks": [{"deck": deck, "label": labels.get(deck, deck).format(count=n)}
                                                    for deck, n in part["decks"].items()]})
    resign = step["type"] == "resign"
    words = show.describe(view, step)
    button = _("Yes, resign") if resign else (_("Play this turn") if parts else _("Yes: {step}").format(
        step=words[:1].lower() + words[1:]))
    return {"action": action_url, "parts": parts, "button": button, "danger": resign, "talk": not resign,
            "most": MAX_LENGTH}


@in_readers_language("step")
def step_link_page(mailplay: MailPlay, token: str, action_url: str) -> Page:
    """GET of a step link: what it would do (with a Battle Line play, the claim and the draw that
    follow it, to choose), and a button to do it. Changes nothing."""
    try:
        found = mailplay.step_link(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        if refused.view is None:
            return Page(refused.status, _(NO_GAME), refused.detail, code=refused.code)
        return _moved_on(mailplay, refused)
    view, step = found.view, found.link.step
    letter = _letter(mailplay, view)
    if letter["table_rows"] and show.PRESENTERS[view["game"]].on_a_spot(step):
        for row in letter["table"]:  # the card shown where it would go, outlined
            if row["flag"] == step["flag"]:
                row["sides"][-1]["cards"].append({**show.face(view, step["card"]), "pending": True})
    form = _turn_form(view, step, found.turn, action_url)
    if step["type"] == "resign":
        players = show.listed(show.others(view))
        return _page(200, _("Resign this game against {players}?").format(players=players),
                     _("The game ends at once and you lose it. This cannot be undone."), form=form, letter=letter)
    recap = show.recap(view)
    notes = [_("Since your last move: {told}").format(told=sentences(*recap))] if recap else []
    message = _("Then choose what to claim and which deck to draw from: one click plays the whole turn.") \
        if form["parts"] else _("Confirm to play it.")
    return _page(200, _asked(show.describe(view, step)), message, form=form, notes=notes, letter=letter)


def _choices(form: "dict[str, list[str]] | FormProblem | None") -> Choices | None:
    """The turn the page's form chose (None: the page's defaults, e.g. a POST without its form). A body
    that is no form of ours, or a choice the page does not offer, is refused (ServiceError), in the
    reader's language: never read as the page's defaults."""
    if isinstance(form, FormProblem):
        raise ServiceError(form.code, _("the form is larger than this page's form can be ({most} bytes at most): "
                                        "nothing was done").format(most=MAX_FORM_BYTES)
                           if form.code == "payload_too_large" else _("the form cannot be read: nothing was done"))
    said = " ".join(" ".join(form.get("message", [])).split()) if form else ""  # a textarea's lines: one line
    claims, decks = (form.get("claim", []), form.get("deck", [])) if form else ([], [])
    if not form or ("turn" not in form and not claims and not decks):
        return Choices(message=said) if said else None
    if "turn" not in form or not all(re.fullmatch(r"[1-9]", v) for v in claims) or len(decks) > 1 or \
            any(v not in ("troop", "tactics") for v in decks):  # not a choice the page offers: never a default
        raise ServiceError("invalid_request", _("the form holds a choice this page does not offer: nothing was done"))
    return Choices(claims=tuple(int(v) for v in claims), deck=decks[0] if decks else None, message=said or None)


def _drawn(played: LinkedStep) -> list[str]:
    return [e["data"]["card"] for e in played.events
            if e["type"] in ("draw", "scout_draw") and e["seat"] == played.link.seat and "card" in e["data"]]


@in_readers_language("step")
def play_step_link(mailplay: MailPlay, token: str, form: dict[str, list[str]] | None = None) -> Page:
    """POST of a step link: plays the step for the seat the link was made for, with the rest of
    the turn as the form chose it; or, followed again, says when it was played and where the game
    stands now."""
    try:
        chosen = _choices(form)
    except ServiceError as refused:  # said here, in the reader's language (the page's player's)
        return _page(refused.status, _("That move was not played"), refused.detail, code=refused.code)
    try:
        played = mailplay.play_step_link(token, chosen)
    except LinkError as error:
        return Page.refused(error)
    except StepRefused as refused:
        letter = _letter(mailplay, refused.view) if refused.view else None
        return _page(refused.status, _("That move was not played"), refused.detail, code=refused.code,
                     letter=letter)
    except LinkRefused as refused:
        if refused.view is None:
            return Page(refused.status, _(NO_GAME), refused.detail, code=refused.code)
        if refused.used is not None and refused.used.by_link:
            return _already_played(mailplay, refused.view, refused.used.at, refused.used.events, refused.code, 409)
        return _moved_on(mailplay, refused)
    view = played.view
    if played.replayed:
        return _already_played(mailplay, view, played.played_at, played.events)
    drawn = [show.face(view, c) for c in _drawn(played)]
    codes = {c["code"] for c in drawn if "code" in c}
    letter = _letter(mailplay, view, moves=True)
    for card in letter["hand"]:
        card["new"] = card["code"] in codes
    next_line = show.whose_move(view)
    if view["status"] == "active" and view["to_move"] != view["you"]:
        next_line = sentences(next_line, _("We will email you when it is your move."))
    elif view["status"] == "active":
        next_line = _("It is still your decision: choose below.")
    done = _told(view, played.events) or sentences(show.describe(view, played.link.step))  # a step with no story
    if chosen is not None and chosen.message and not played.replayed:
        done = sentences(done, _("Your message went with it."))
    return _page(200, _("Played"), done, notes=[next_line], drawn=drawn, letter=letter)


def _already_played(mailplay: MailPlay, view: dict, at: str | None, events: list[dict], code: str = "",
                    status: int = 200) -> Page:
    """A link followed again: when it was played and what it did, then where the game stands now."""
    notes = [_("Played on {when}: {told}").format(when=show.when(at), told=_told(view, events))]
    now = sentences(show.result_line(view)) if view["status"] == "finished" else show.whose_move(view)
    title = _("The game is over") if view["status"] == "finished" else _("This move was already played")
    return _page(status, title, now, code=code, notes=notes, letter=_letter(mailplay, view, moves=True))


@in_readers_language("unsubscribe")
def unsubscribe_page(mailplay: MailPlay, token: str, action_url: str) -> Page:
    try:
        mailplay.unsubscribe_link(token)
    except LinkError as error:
        return Page.refused(error)
    return _page(200, _("Stop emails?"), _("You will get no more game emails; webhooks are not affected."),
                 form={"action": action_url, "parts": [], "button": _("Unsubscribe"), "danger": False})


@in_readers_language("unsubscribe")
def unsubscribe(mailplay: MailPlay, token: str) -> Page:
    """One-click unsubscribe (RFC 8058): no more email notifications for this player."""
    try:
        mailplay.unsubscribe(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        return Page(refused.status, _("No such player"), refused.detail, code=refused.code)
    return _page(200, _("Unsubscribed"), _("You will get no more game emails."))


ANSWERED = N_("This invitation was already answered")


def invitation_page(mailplay: MailPlay, token: str, action_url: str) -> Page:
    try:
        invite, game, _seat = mailplay.invitation(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        return Page(refused.status, _(ANSWERED), refused.detail, code=refused.code)
    from ..games.presenters import PRESENTERS

    title = _(PRESENTERS[game.game].title)
    inviter = next((s.name for s in game.seats if s.player_id and s.player_id == game.created_by), None)
    players = show.listed([_("an invited player") if s.player_id is None and not s.bot else s.name for s in game.seats
                           if s.seat != invite.seat])
    lead = _("{inviter} invites you to play {game} against {players}.").format(
        inviter=inviter, game=title, players=players) if inviter else \
        _("A seat in a game of {game} against {players} is kept for you.").format(game=title, players=players)
    return _page(200, _("Join this game of {game}?").format(game=title),
                 sentences(lead, _("The seat is kept for {email}. You will play by email (or by API, with the key "
                                "shown next).").format(email=invite.email)),
                 summary=show.summary(mailplay.view_for_seat(game.id, invite.seat)),  # its card set, who starts
                 form={"action": action_url, "parts": [], "button": _("Join the game"), "danger": False})


def accept_invitation(mailplay: MailPlay, token: str) -> Page:
    """Take the invited seat; the new player's API key is shown on this page, only this once."""
    try:
        joined = mailplay.accept_invitation(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        title = _("Please try again") if refused.code == "version_conflict" else _(ANSWERED)
        return Page(refused.status, title, refused.detail, code=refused.code)
    return _page(200, _("You are in"), _("You joined game {game_id}. We will email you when it is your move. Your API "
                                         "key, shown only this once, is {key}").format(game_id=joined["game_id"],
                                                                                      key=joined["api_key"]))


# ---------------------------------------------------------------- answers: accept or decline a game


def _asks(answering: Answering) -> str:
    game = show.title(answering.view)
    if answering.asked_by:
        return _("{name} asks you to play {game}").format(name=answering.asked_by, game=game)
    return _("You are asked to play {game}").format(game=game)


def _board_button(mailplay: MailPlay, view: dict) -> dict:
    return {"url": mailplay.links.board_url(view["game_id"], view["you"]), "label": _("Open the board")}


def _settled(mailplay: MailPlay, view: dict, code: str, status: int = 409) -> Page:
    """An answer link for a seat that waits for no answer any more: the game is over (how), or
    it was accepted already (and where it stands)."""
    if view["status"] == "finished":
        return _page(status, _("This game is over"), sentences(show.result_line(view)), code=code,
                     button=_board_button(mailplay, view))
    return _page(status, _("You accepted this game already"), show.whose_move(view), code=code,
                 button=_board_button(mailplay, view))


@in_readers_language("answer")
def answer_page(mailplay: MailPlay, token: str, action_url: str) -> Page:
    """GET of an answer link (accept or decline): who asks, the game and its options, and one
    button that answers. Changes nothing (mail scanners open every link)."""
    try:
        answering = mailplay.answer_link(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        if refused.view is None:
            return Page(refused.status, _(NO_GAME) if refused.code == "game_not_found" else
                        _("This link cannot be used"), refused.detail, code=refused.code)
        return _settled(mailplay, refused.view, refused.code)
    link, view = answering.link, answering.view
    other = "decline" if link.answer == "accept" else "accept"
    other_url = mailplay.links.answer_url(link.game_id, link.seat, link.player_id, other,
                                          key_generation=link.key_generation)
    summary = show.summary(view)
    if link.answer == "accept":
        return _page(200, _asked(_asks(answering)), _("Accept and the game begins; decline and it ends, unplayed."),
                     summary=summary, form={"action": action_url, "parts": [], "danger": False,
                                            "button": _("Accept: start the game")},
                     other={"url": other_url, "label": _("Decline instead…")})
    return _page(200, _asked(_asks(answering)), _("Declining ends the game at once: it is never played and never "
                                                 "rated. {name} is told.").format(name=answering.asked_by or
                                                                                 _("The other players")),
                 summary=summary, form={"action": action_url, "parts": [], "danger": True,
                                        "button": _("Decline the game")},
                 other={"url": other_url, "label": _("Accept instead…")})


@in_readers_language("answer")
def answer_game(mailplay: MailPlay, token: str) -> Page:
    """POST of an answer link: the lobby accepts or declines; the page says what follows (the
    game begins and whose move it is, with the board; or it is over, declined)."""
    try:
        answering = mailplay.answer(token)
    except LinkError as error:
        return Page.refused(error)
    except LinkRefused as refused:
        if refused.code == "version_conflict":
            return Page(409, _("Please try again"), _("The game changed while you answered; open the link again."),
                        code=refused.code)
        if refused.view is None:
            return Page(refused.status, _(NO_GAME) if refused.code == "game_not_found" else
                        _("This link cannot be used"), refused.detail, code=refused.code)
        return _settled(mailplay, refused.view, refused.code)
    view = answering.view
    if answering.link.answer == "decline":
        told = _("{name} is told.").format(name=answering.asked_by) if answering.asked_by else ""
        return _page(200, _("You declined"), sentences(
            _("The game is over before it began: it counts for nothing."), told))
    if view["status"] == "waiting":
        return _page(200, _("You accepted"), sentences(
                     show.whose_move(view), _("We will email you when the game begins.")), button=_board_button(mailplay, view))
    move = _("It is your move.") if view["to_move"] == view["you"] else \
        _("It is {name}'s move; we will email you when it is yours.").format(
            name=show.people(view).get(view["to_move"], "?"))
    return _page(200, _("You accepted: the game starts"), move, summary=show.summary(view),
                 button=_board_button(mailplay, view))


# ---------------------------------------------------------------- account recovery (services/recovery.py)

USED_TITLE = N_("This link was used already")


def _recovery_refused(error: LinkError) -> Page:
    """Why a recovery link cannot be used, as a sentence (the refusal's detail begins in lower case)."""
    told = str(error)
    told = told[:1].upper() + told[1:]
    if error.code == "link_used":
        return Page(410, _(USED_TITLE), told, code=error.code)
    return Page(410 if error.code == "link_expired" else 400, _("This link cannot be used"), told, code=error.code)


def _as_recovered(recovery, token: str, page_of) -> Page:
    """A recovery page speaks its player's language (the request's when the link cannot be read)."""
    code = recovery.reader_language(token)
    if code is None:
        return page_of()
    with speaking(code):
        shown = page_of()
    shown.vary = False
    return shown


def recovery_page(recovery, token: str, action_url: str) -> Page:
    """GET of a recovery link: whose account, what the button does. Changes nothing (mail
    scanners open every link)."""
    def page() -> Page:
        try:
            _link, player = recovery.link(token)
        except LinkError as error:
            return _recovery_refused(error)
        return _page(200, _("A new API key for {name}?").format(name=player.name),
                     _("The button below gives you a new API key and stops every key you have now: programs that "
                       "use an old key must be given the new one."),
                     notes=[_("Did not ask for this? Then close this page: nothing changes.")],
                     form={"action": action_url, "parts": [], "danger": True, "button": _("Get a new API key")})
    return _as_recovered(recovery, token, page)


def recover_with_link(recovery, token: str) -> Page:
    """POST of a recovery link: the new key, shown only this once."""
    def page() -> Page:
        try:
            recovered = recovery.recover_with_link(token)
        except LinkError as error:
            return _recovery_refused(error)
        return _page(200, _("Your new API key"),
                     _("{name}, your old keys no longer work. Copy this key now: it is shown only this once (we keep "
                       "only a hash of it).").format(name=recovered["name"]),
                     secret={"label": _("API key"), "value": recovered["api_key"]},
                     notes=[_("Your player id is {player_id}.").format(player_id=recovered["player_id"])])
    return _as_recovered(recovery, token, page)
