"""Play by email: a reply to a game's reply address is read as commands and applied as one
action request for that seat, at the version the address was made for.

A player asked to play a game (it waits for their answer) replies ``accept`` or ``decline``
(or the same in their language: 接受 / 拒绝, 承諾 / 辞退, chấp nhận / từ chối): the lobby answers for them, as the answer links' pages do.

Authenticated by the signed reply address, by the sender being the seat's player, and in
AWS by SES's verdicts: a reply that fails SPF, DKIM, the spam scan or the virus scan
(``VERDICTS``) is ignored, unread. Answers go only to the seat's registered address (never
to an unverified sender, so forged mail makes no backscatter). A message a machine sent, or one
that asks for no answer, is never answered, and answers that are not moves are capped per
address (:mod:`.answering`); a reply to the bare ``play@`` address gets how to play, once a day.
"""

from __future__ import annotations

import hashlib
import logging
import re
from contextvars import ContextVar
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from pydantic import ValidationError

from ..kernel.errors import ServiceError, describe_validation
from ..games.commandwords import answer
from ..games.steptypes import CommandError, command_lines
from ..games.base import RulesUnavailable
from ..games.presenters import PRESENTERS
from ..http.models import ActionRequest
from ..kernel.calls import Idempotency
from ..kernel.clock import Clock
from ..kernel import i18n
from ..kernel.i18n import _, say, speaking
from ..notify import confirmations
from ..notify.email import automatic, mail_from, thread_root, threaded, unsubscribable
from ..notify.mail import Mailer
from ..presenting.links import bare_address
from .answering import PER_HOUR, UNREAD_IN_A_ROW, AnswerCaps, message_hash, never_answer
from ..presenting.templates import render
from ..kernel.talk import MAX_LENGTH
from . import mailtext
from ..presenting import show
from ..presenting.links import LinkError, Links

logger = logging.getLogger("battleline.inbound")
# SES's receipt verdicts a reply must not FAIL (``receipt.<name>Verdict.status``; the receipt rule scans
# for spam and viruses, infra/stack.py): a forged sender, or mail that is spam or carries a virus.
VERDICTS = ("spf", "dkim", "spam", "virus")
ANSWERS = ("accept", "decline")  # a reply's answer to a game it waits for (and its words: commandwords.ANSWERS)


@dataclass
class Inbound:
    outcome: str  # applied | refused (the player was told why) | ignored (no answer sent)
    reason: str
    reply: EmailMessage | None = None


# The parts of the reply being answered that could not be read in full (mailtext.Reply.unread): the
# answer says so, and no message of theirs goes to the other players.
_UNREAD: ContextVar[list[tuple[str, str]]] = ContextVar("unread", default=[])


def _last_refusal_note() -> str:
    return _("That is the last reply this hour that gets an answer when it cannot be played (at most {count} "
             "an hour, against mail loops): until the hour is over, check a turn on the board page before you "
             "send it. A reply that plays is always answered.").format(count=PER_HOUR)


def _unread_note() -> str:
    unread = _UNREAD.get()
    if not unread:
        return ""
    parts = i18n.listed([f"{kind} ({charset or '-'})" for kind, charset in unread])
    return i18n.sentences(_("Part {parts} of your email could not be read in full (its characters do not match "
                            "its character set), so no message of yours went to the other players").format(parts=parts))


def _message_id(message: EmailMessage) -> str | None:
    """The message's Message-ID, to thread an answer under it: None when it has none that reads as one
    ("<id@host>": a malformed one is not repeated in the answer's headers)."""
    found = mailtext.header(message, "Message-ID")
    return found if re.fullmatch(r"<[^<>\s@]+@[^<>\s@]+>", found) else None


def _new_answer(to: str, subject: str, sender: str, mail_domain: str) -> EmailMessage:
    """An answer's envelope: who from, to whom, its subject, date and own Message-ID."""
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = sender, to, subject
    reply["Date"] = formatdate(usegmt=True)
    reply["Message-ID"] = make_msgid(domain=mail_domain)
    return reply


def _answer_word(text: str) -> str:
    """A reply's first command line as an answer's one word ("Accept." reads accept), in the language
    spoken (接受, 承諾, chấp nhận) or in English."""
    lines = command_lines(text)
    return answer(lines[0].strip(" .!。！"), i18n.language()) if lines else ""


class InboundMail:
    def __init__(self, games, mailer: Mailer, links: Links, lobby=None, *, players=None,
                 caps: AnswerCaps | None = None, store=None, clock: Clock | None = None) -> None:
        self.games = games  # the games service: seat_player, view_for_seat, post_action
        self.mailer = mailer
        self.links = links
        self.lobby = lobby  # the lobby service: accept, decline (a reply that answers a game)
        self.players = players  # the players service: who has an address (the bare address's answer)
        self.caps = caps  # the caps on answers per address (chalicelib.wiring's mail area gives them)
        self.store = store  # where a played reply's confirmation waits for the next email (notify/confirmations.py)
        self.clock = clock

    def handle(self, raw: bytes, recipients: list[str] | None = None, verdicts: dict[str, str] | None = None,
               envelope_from: str | None = None) -> Inbound:
        message = message_from_bytes(raw, policy=policy.default)
        failed = [name for name, verdict in (verdicts or {}).items() if verdict.upper() == "FAIL"]
        if failed:
            return self._ignore(f"{' and '.join(failed).upper()} failed")
        automatic = never_answer(message, envelope_from)
        if automatic is not None:  # a machine's message (a bounce, an out-of-office reply...): a loop otherwise
            return self._ignore(f"never answered: {automatic}")
        addresses = recipients or mailtext.addresses_of(mailtext.header_values(message, "To")
                                                        + mailtext.header_values(message, "Cc"))
        reply_to, read_at, refused = None, "", None
        for address in addresses:  # the first reply address that reads (a forged one beside it changes nothing)
            if address.lower().startswith("play+"):
                try:
                    reply_to, read_at = self.links.read_reply_address(address), address
                    break
                except LinkError as error:
                    refused = refused or str(error)
        if reply_to is None and refused is not None:
            return self._ignore(refused)
        if reply_to is None:
            if any(address.lower() == bare_address(self.links).lower() for address in addresses):
                return self._how_to_play(message)
            return self._ignore("not addressed to a game")
        player = self.games.seat_player(reply_to.game_id, reply_to.seat)
        if player is None or not player.email:
            return self._ignore("no such game or seat")
        sender = mailtext.address_of(mailtext.header(message, "From"))
        if sender.lower() != player.email.lower():
            return self._ignore(f"{sender or 'the sender'} is not seat {reply_to.seat}'s player")
        seen = message_hash(message, raw, read_at)
        if self.caps is not None and self.caps.answered(player.email, seen):  # SES delivered it again
            return self._ignore("delivered again: played and answered already")
        with speaking(getattr(player, "language", None)):  # read in the player's words, answered in them
            try:
                result = self._play(player, reply_to, message)
            except RulesUnavailable as error:  # the game waits for the operator: said, never raised
                logger.error("a reply to game %s cannot be read: %s", reply_to.game_id, error)
                result = self._waits_for_operator(player, reply_to, message, say(error.reason))
        if self.caps is not None and (result.reply is not None or result.outcome == "applied"):
            self.caps.mark_answered(player.email, seen)
        return result

    def _play(self, player, reply_to, message: EmailMessage) -> Inbound:
        read = mailtext.read_reply(message)  # whatever its character set, from its HTML if need be, unquoted
        with speaking(player.language):  # the answer, and the rules' reason in it, in the player's language
            token = _UNREAD.set(read.unread)
            try:
                return self._reply(player, reply_to, message, read.text)
            finally:
                _UNREAD.reset(token)

    def _reply(self, player, reply_to, message: EmailMessage, text: str) -> Inbound:
        """A reply from the seat's player: an answer to an invitation, or commands to play."""
        view = self.games.view_for_seat(reply_to.game_id, reply_to.seat)
        if show.waits_for(view):
            return self._answer_game(player, reply_to, message, text)
        if _answer_word(text) in ANSWERS:  # an answer, to a game that waits for it no more
            return self._answer(player, reply_to, message, "refused", _("Not answered: {why}").format(
                why=_("your seat in this game is settled already")))
        if view["status"] == "finished":  # a reply to an email from before the end: no move is owed any more
            return self._answer(player, reply_to, message, "refused", _("Not played: {why}").format(
                why=_("the game is over")))
        presenter = PRESENTERS[view["game"]]
        try:
            steps, said = presenter.parse_reply(text)
            if said and (_UNREAD.get() or mailtext.REPLACEMENT in said):  # never a message read lossily
                said = None
            if said and mailtext.quotes_our_email(said, reply_to.game_id):  # a quote no rule knew: it may hold the hand
                return self._answer(player, reply_to, message, "refused", _("Not played: {why}").format(
                    why=_("after your commands, your reply holds our email, quoted in a way we could not tell "
                          "from your own words (it holds the game's id or one of its links), and it could show your "
                          "hand to your opponent: delete the quoted email from your reply and send it again")))
            request = ActionRequest(expected_version=reply_to.version, steps=steps, message=said)
        except CommandError as error:
            return self._answer(player, reply_to, message, "refused",
                                _("I could not read your message: {error}").format(error=say(error.reason)), help_text=True,
                                unreadable=True)
        except ValidationError as error:  # the message to the others (too long, a control character)
            why = (_("it holds {count} characters, and at most {most} go with a move").format(
                count=len(said), most=MAX_LENGTH) if said and len(said) > MAX_LENGTH else describe_validation(error))
            if not any(problem["loc"][:1] == ("message",) for problem in error.errors()):
                return self._answer(player, reply_to, message, "refused", _("Not played: {why}").format(why=why))
            return self._answer(player, reply_to, message, "refused",
                                _("Not played: your message to the other players cannot go: {why}").format(why=why))
        # The request's Idempotency-Key: this reply to this seat at this version (a player's keys are one
        # space: the same Message-ID or text sent to two games, or twice to one, is each its own request);
        # its fingerprint the request itself.
        key = hashlib.sha256("\n".join([reply_to.game_id, str(reply_to.seat), str(reply_to.version),
                                         mailtext.header(message, "Message-ID"), text]).encode()).hexdigest()
        fingerprint = hashlib.sha256(request.model_dump_json().encode()).hexdigest()
        held: list[dict] = []  # steps of the reply left for the seat's next decision
        try:
            outcome = self.games.post_action(player, reply_to.game_id, request,
                                             Idempotency(f"mail:{key[:40]}", fingerprint))
        except ServiceError as error:
            index = error.extra.get("step_index")
            if error.code == "not_your_turn" and index:
                # The reply's first steps passed the decision to another seat (Khan & General's reaction
                # window opens when an action ends): they are played, and the rest waits for the seat's
                # next decision, which the situation after the answer may change.
                steps, held = steps[:index], steps[index:]
                try:
                    outcome = self.games.post_action(player, reply_to.game_id, ActionRequest(
                        expected_version=reply_to.version, steps=steps, message=said),
                        Idempotency(f"mail:{key[:34]}:first", fingerprint))
                except ServiceError as again:
                    error = again
                    held = []
            if not held:
                why = (_("the game has moved on since that email; here is where it stands now")
                       if error.code == "version_conflict" else error.detail)
                return self._answer(player, reply_to, message, "refused", _("Not played: {why}").format(why=why))
        played = _("Played: {steps}").format(steps=show.commands([presenter.say_step(s) for s in steps]))
        if said:
            played = i18n.sentences(played, _("Your message went with it."))
        if held:
            played = i18n.sentences(played, presenter.held_for_later(
                self.games.view_for_seat(reply_to.game_id, reply_to.seat), held))
        return self._answer(player, reply_to, message, "applied", played, events=outcome.body.get("events", []))

    def _answer_game(self, player, reply_to, message: EmailMessage, text: str) -> Inbound:
        """A reply from a player the game waits for: its first line says ``accept`` or ``decline``."""
        word = _answer_word(text)
        if word not in ANSWERS or self.lobby is None:
            return self._answer(player, reply_to, message, "refused", _(
                "I could not read your answer: reply with one word, accept or decline."), unreadable=True)
        try:
            getattr(self.lobby, word)(player, reply_to.game_id)
        except ServiceError as error:
            return self._answer(player, reply_to, message, "refused", _("Not answered: {why}").format(why=error.detail))
        headline = _("You accepted: the game starts.") if word == "accept" else _("Declined.")
        return self._answer(player, reply_to, message, "applied", headline, answering=True)

    def _ignore(self, reason: str) -> Inbound:
        logger.info("inbound mail ignored: %s", reason)
        return Inbound("ignored", reason)

    def _answer(self, player, reply_to, original: EmailMessage, outcome: str, headline: str,
                help_text: bool = False, events: list[dict] | None = None, unreadable: bool = False,
                answering: bool = False) -> Inbound:
        """The answer to a reply, in the game's thread: what was played (the drawn card too) or why
        not, then the game as the seat sees it now, with its moves if it is its decision. A refusal
        is not sent beyond the address's caps (:class:`.answering.AnswerCaps`)."""
        if self.caps is not None:
            if not self.caps.read(player.email, unreadable):
                return self._ignore(f"not answered: the last {UNREAD_IN_A_ROW} messages could not be read either")
            answered = self.caps.may_answer(player.email) if outcome == "refused" else 0
            if outcome == "refused" and not answered:
                return self._ignore(f"not answered: {PER_HOUR} refusals to this address this hour already")
            if answered == PER_HOUR:  # the hour's last refusal answered: say so, or the next ones look lost
                headline = i18n.sentences(headline, _last_refusal_note())
        headline = i18n.sentences(headline, _unread_note())
        if outcome == "applied" and getattr(player, "digest", False):
            return Inbound(outcome, headline)  # a digest player gets their digest only (issue 36)
        now = self.games.view_for_seat(reply_to.game_id, reply_to.seat) if outcome == "applied" else None
        # A turn played in parts (Khan & General's steps) needs this answer now: its reply address
        # plays the rest. An answer to an invitation is followed by the game's own email.
        goes_on = now is not None and now["status"] == "active" and now.get("to_move") == reply_to.seat \
            and not answering
        if outcome == "applied" and not goes_on and self.store is not None and self.clock is not None:
            # Said first in the next email of the game to this seat, or alone if none follows soon
            # (notify/confirmations.py): at most one email per opponent turn.
            confirmations.hold(self.store, self.clock, player.id, reply_to.game_id, reply_to.seat, now["version"],
                               headline)
            return Inbound(outcome, headline)
        view = self.games.story(reply_to.game_id, reply_to.seat)
        presenter = PRESENTERS[view["game"]]
        context = show.letter(view, self.links, first=headline)
        told = presenter.told(view, events or [])
        status = show.whose_move(view) if view["status"] == "active" or view.get("result") else ""
        if status.rstrip(".。") in (line.rstrip(".。") for line in told):
            status = ""  # the result, told already by the step that ended the game (a resignation)
        context["intro"] = i18n.sentences(*told, status)
        context["help"] = show.help_text(view) if help_text or context["left"] else ""
        context["reply_works"] = context["your_move"]
        context["unsubscribe_url"] = self.links.unsubscribe_url(player.id)
        asked = show.waits_for(view)
        if asked:  # still waiting for this seat's answer: ask again (no table, no hand), a reply answers
            context["asked"] = {"summary": show.summary(view),
                                "accept_url": self.links.answer_url(view["game_id"], reply_to.seat, player.id, "accept"),
                                "decline_url": self.links.answer_url(view["game_id"], reply_to.seat, player.id,
                                                                     "decline")}
        # the game's thread's own subject: never "Re: Re: ..."
        reply = _new_answer(player.email, context["subject"], mail_from(view["game"]), self.links.mail_domain)
        root = thread_root(view["game_id"], player.id, self.links.mail_domain)
        threaded(reply, root, _message_id(original))
        if context["your_move"] or asked:
            reply["Reply-To"] = self.links.reply_address(view["game_id"], reply_to.seat, view["version"])
        unsubscribable(reply, context["unsubscribe_url"])
        automatic(reply)
        reply.set_content(render("notification.txt", **context))
        reply.add_alternative(render("notification.html", **context), subtype="html")
        self.mailer.send(reply)
        return Inbound(outcome, headline, reply)

    def _waits_for_operator(self, player, reply_to, original: EmailMessage, why: str) -> Inbound:
        """The answer to a reply to a game whose rules the server lost (a Khan & General card set): nothing
        was played, and why, in the game's thread; the game cannot be drawn, so the answer is this alone."""
        if self.caps is not None and not self.caps.may_answer(player.email):
            return self._ignore("not answered: the game's rules are unavailable, and the hour's answers are spent")
        reply = _new_answer(player.email, _("Your reply to game {game} was not played").format(game=reply_to.game_id),
                            mail_from(), self.links.mail_domain)
        threaded(reply, thread_root(reply_to.game_id, player.id, self.links.mail_domain), _message_id(original))
        unsubscribable(reply, self.links.unsubscribe_url(player.id))
        automatic(reply)
        reply.set_content(_("Not played: {why}").format(why=why) + "\n")
        self.mailer.send(reply)
        return Inbound("refused", why, reply)

    def _how_to_play(self, message: EmailMessage) -> Inbound:
        """A message to the bare ``play@`` address (a reply to an invitation, or a first try): how to
        play by email, in the sender's language if a player has their address; once a day an address."""
        sender = mailtext.address_of(mailtext.header(message, "From"))
        if "@" not in sender:
            return self._ignore("to the bare address, from no address")
        if self.caps is not None and not (self.caps.first_today(sender) and self.caps.may_answer(sender)):
            return self._ignore("to the bare address: answered once today already")
        player = self.players.with_email(sender) if self.players is not None else None
        with speaking(player.language if player is not None else None):
            reply = _new_answer(sender, _("How to play by email"), mail_from(), self.links.mail_domain)
            if (replied := _message_id(message)) is not None:
                reply["In-Reply-To"] = reply["References"] = replied
            if player is not None:
                unsubscribable(reply, self.links.unsubscribe_url(player.id))
            automatic(reply)
            reply.set_content("\n\n".join([
                _("This address reads only replies to the emails of a game, so your message was not read."),
                _("To play by email, reply to the latest email of your game: its reply address plays your seat, "
                  "and the email lists the commands you can write."),
                _("To join a game you were invited to, open the link in the invitation."),
                _("This answer is sent once a day at most."),
            ]) + "\n")
        self.mailer.send(reply)
        return Inbound("refused", "how to play", reply)
