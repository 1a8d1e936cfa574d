"""Play by email: a reply to a game's reply address is read as commands and applied as one
action request for that seat, at the version the address was made for.

Authenticated by the signed reply address, by the sender being the seat's player, and in
AWS by SES's SPF and DKIM verdicts. Answers go only to the seat's registered address (never
to an unverified sender, so forged mail makes no backscatter).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, make_msgid, parseaddr

from ..errors import ServiceError
from ..games.steptypes import CommandError
from ..games.presenters import PRESENTERS
from ..models import ActionRequest
from ..calls import Idempotency
from ..notify.email import linked_steps
from ..notify.mail import Mailer, mail_from
from .links import LinkError, Links

logger = logging.getLogger("battleline.inbound")


@dataclass
class Inbound:
    outcome: str  # applied | refused (the player was told why) | ignored (no answer sent)
    reason: str
    reply: EmailMessage | None = None


class InboundMail:
    def __init__(self, games, mailer: Mailer, links: Links) -> None:
        self.games = games  # the games service: seat_player, view_for_seat, post_action
        self.mailer = mailer
        self.links = links

    def handle(self, raw: bytes, recipients: list[str] | None = None, verdicts: dict[str, str] | None = None) -> Inbound:
        message = message_from_bytes(raw, policy=policy.default)
        failed = [name for name, verdict in (verdicts or {}).items() if verdict.upper() == "FAIL"]
        if failed:
            return self._ignore(f"{' and '.join(failed).upper()} failed")
        addresses = recipients or [a for _, a in getaddresses(message.get_all("To", []) + message.get_all("Cc", []))]
        reply_to = None
        for address in addresses:
            if address.lower().startswith("play+"):
                try:
                    reply_to = self.links.read_reply_address(address)
                    break
                except LinkError as error:
                    return self._ignore(str(error))
        if reply_to is None:
            return self._ignore("not addressed to a game")
        player = self.games.seat_player(reply_to.game_id, reply_to.seat)
        if player is None or not player.email:
            return self._ignore("no such game or seat")
        sender = parseaddr(message.get("From", ""))[1]
        if sender.lower() != player.email.lower():
            return self._ignore(f"{sender or 'the sender'} is not seat {reply_to.seat}'s player")
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        presenter = PRESENTERS[self.games.view_for_seat(reply_to.game_id, reply_to.seat)["game"]]
        try:
            steps = presenter.parse_commands(text)
        except CommandError as error:
            return self._answer(player, reply_to, message, "refused", f"I could not read your message: {error}",
                                help_text=True)
        key = hashlib.sha256((message.get("Message-ID") or text).encode()).hexdigest()
        try:
            self.games.post_action(player, reply_to.game_id,
                                     ActionRequest(expected_version=reply_to.version, steps=steps),
                                     Idempotency(f"mail:{key[:40]}", key))
        except ServiceError as error:
            why = ("the game has moved on since that email; here is where it stands now"
                   if error.code == "version_conflict" else error.detail)
            return self._answer(player, reply_to, message, "refused", f"Not played: {why}")
        played = "; ".join(presenter.write_step(s) for s in steps)
        return self._answer(player, reply_to, message, "applied", f"Played: {played}")

    def _ignore(self, reason: str) -> Inbound:
        logger.info("inbound mail ignored: %s", reason)
        return Inbound("ignored", reason)

    def _answer(self, player, reply_to, original: EmailMessage, outcome: str, headline: str,
                help_text: bool = False) -> Inbound:
        view = self.games.view_for_seat(reply_to.game_id, reply_to.seat)
        presenter = PRESENTERS[view["game"]]
        mine = view["to_move"] == reply_to.seat and view["status"] == "active"
        listed, unlisted = linked_steps(view["game"], view["legal_steps"] if mine else [])
        moves = [presenter.write_step(step) for step in listed]
        lines = [headline, "", f"Game {view['game_id']}, version {view['version']}:", "",
                 presenter.text_board(view["state"], reply_to.seat), "",
                 "Your hand: " + (" ".join(view["state"]["hand"]) or "(empty)"), ""]
        if moves:
            lines += ["It is your decision. Reply with one of:", *[f"  {m}" for m in moves], ""]
            if unlisted:
                lines += [f"...or one of {unlisted} more deployments, moves and payments (commands below).", ""]
                help_text = True
        elif view["status"] == "finished":
            lines += [f"The game is over: {view['result']}", ""]
        else:
            lines += [f"Seat {view['to_move']} is to move; you will hear when it is your turn.", ""]
        if help_text:
            lines += ["Commands:", presenter.help, ""]
        reply = EmailMessage()
        reply["From"] = mail_from()
        reply["To"] = player.email
        reply["Subject"] = "Re: " + (original.get("Subject") or f"{presenter.title} game {view['game_id']}")
        reply["Message-ID"] = make_msgid(domain="battleline.localhost")
        if original.get("Message-ID"):
            reply["In-Reply-To"] = original["Message-ID"]
        if moves:
            reply["Reply-To"] = self.links.reply_address(view["game_id"], reply_to.seat, view["version"])
        reply.set_content("\n".join(lines))
        self.mailer.send(reply)
        return Inbound(outcome, headline, reply)
