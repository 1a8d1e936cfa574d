"""Mail that does not arrive: SES's bounce and complaint events (its configuration set publishes
them to SNS, which invokes ``mail_events``, infra/stack.py) stop all mail to the address.

- A **permanent bounce** (``bounceType`` Permanent: no such mailbox, a domain that takes no mail,
  an address on SES's suppression list) stops it: ``bounced``.
- A **complaint** (the reader marked our mail as spam, through their provider's feedback loop)
  stops it: ``complained``.
- A **transient bounce** (a full mailbox, a server down for a while) or an undetermined one is
  ignored: SES has retried it for hours already, the next email may well arrive, and a stop for a
  full mailbox would end mail the player wants. Only permanent failures and complaints count
  against the account's reputation (the alarms on SES's bounce and complaint rates watch those).
  Rejects and delivery delays are ignored too (the first is a virus in our own mail; the second
  retries).

The stop is one item in the address's own partition (``keys.email_status``, by its hash: no
stored item and no log line holds the address). Every email is checked against it just before it
is sent (``Dispatcher._mail``: one read, only when an email is about to go), whether the address
is a player's or an invitation's. The player sees it in their preferences (``email_status``) and
resumes mail by setting their address again (updatePreferences ``email_address``, the same or a
new one). An event SNS delivers again changes nothing: the first stop is kept, and an event older
than the player's resumption is ignored.

Both formats are read: the configuration set's event publishing (``eventType``) and the
identity's feedback notifications (``notificationType``); their bodies are the same.
"""

from __future__ import annotations

import logging
from datetime import datetime

from ..kernel import ids
from ..kernel.clock import Clock, iso
from ..kernel.i18n import _
from ..store.records import EmailStop
from ..store.protocol import Store

logger = logging.getLogger("battleline.mailevents")

BOUNCED, COMPLAINED = "bounced", "complained"
UNSUBSCRIBED = "unsubscribed"  # an invitation's List-Unsubscribe (mailplay/service.py): no player to turn email off for


class MailEvents:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def handle(self, event: dict) -> str:
        """One SES event (an SNS message's body): ``stopped`` (mail to at least one address stopped
        now), ``unchanged`` (stopped already) or ``ignored`` (not an event that stops mail)."""
        kind = event.get("eventType") or event.get("notificationType") or ""
        if kind == "Bounce":
            bounce = event.get("bounce") or {}
            if bounce.get("bounceType") != "Permanent":
                logger.info("SES bounce ignored: %s/%s", bounce.get("bounceType"), bounce.get("bounceSubType"))
                return "ignored"
            reason, detail, body = BOUNCED, f"Permanent/{bounce.get('bounceSubType') or 'General'}", bounce
            recipients = bounce.get("bouncedRecipients") or []
        elif kind == "Complaint":
            complaint = event.get("complaint") or {}
            reason, body = COMPLAINED, complaint
            detail = complaint.get("complaintFeedbackType") or complaint.get("complaintSubType") or "complaint"
            recipients = complaint.get("complainedRecipients") or []
        else:
            logger.info("SES event ignored: %s", kind or "no type")
            return "ignored"
        since = self._when(body.get("timestamp") or (event.get("mail") or {}).get("timestamp"))
        stopped = False
        for recipient in recipients:
            address = (recipient or {}).get("emailAddress")
            if not address:
                continue
            email_hash = ids.hash_email(address)
            now_stopped = self.store.stop_email(email_hash, EmailStop(reason, since, detail))
            logger.info("mail to address %s: %s (%s)", email_hash[:16], "stopped" if now_stopped else "unchanged",
                        reason)
            stopped = stopped or now_stopped
        return "stopped" if stopped else "unchanged"

    def _when(self, timestamp: str | None) -> str:
        """The event's own time (ISO UTC, as the store writes times), else now."""
        try:
            return iso(datetime.fromisoformat(timestamp.replace("Z", "+00:00")))  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            return iso(self.clock.now())


def email_status(stop: EmailStop | None) -> dict | None:
    """What the player's preferences show of a stop (None: mail goes)."""
    if stop is None:
        return None
    detail = (_("Your address rejected our emails permanently (SES reported: {kind}), so we send it no more "
                "email. Set your address again (updatePreferences email_address), corrected or the same, to "
                "resume.").format(kind=stop.kind)
              if stop.reason == BOUNCED else
              _("Your address was unsubscribed from our emails (with the link in an invitation to it), so we send "
                "it no more email. Set your address again (updatePreferences email_address) to resume.")
              if stop.reason == UNSUBSCRIBED else
              _("Our emails to your address were marked as spam, so we send it no more email. Set your address "
                "again (updatePreferences email_address) to resume."))
    return {"state": "stopped", "reason": stop.reason, "since": stop.since, "detail": detail}
