"""Players write from mail clients set to any language: the attribution and header block with which Gmail,
Apple Mail, Outlook and Thunderbird quote our email in German, French, Spanish and more begin the quote, so
the reply is read above it; and a quote no rule knows (our email's own lines: the game's id, its links) is
never sent to the opponent as a message: it could show the seat's hand."""

from __future__ import annotations

import pytest

from chalicelib.mailplay.mailtext import own_text
from tests.notify.helpers import LINKS, game_by_mail, text_of

QUOTED = "Your move.\n\nBattle Line with Bob · game g_0123456789abcdef · turn 1\n\nYour hand: 5R, 7O, 8B"

ATTRIBUTIONS = [
    "Am Mo., 23. Nov. 2026 um 10:00 Uhr schrieb Battle Line <play+g.1.0.x@mail.example>:",
    "Le lun. 23 nov. 2026 à 10:00, Battle Line <play@mail.example> a écrit :",
    "El lun, 23 nov 2026 a las 10:00, Battle Line (<play@mail.example>) escribió:",
    "Il giorno lun 23 nov 2026 alle ore 10:00 Battle Line <play@mail.example> ha scritto:",
    "Em seg., 23 de nov. de 2026 às 10:00, Battle Line <play@mail.example> escreveu:",
    "Op ma 23 nov 2026 om 10:00 schreef Battle Line <play@mail.example>:",
    "23.11.2026, 10:00, Battle Line <play@mail.example> пишет:",
    "-----Ursprüngliche Nachricht-----",
    "-------- Message d'origine --------",
    "Begin forwarded message:",
    "вс, 29 нояб. 2026 г. в 10:00, Battle Line <play+g.1.0.x@mail.example>:",  # Russian Gmail: no verb
    "Dne po 23. 11. 2026 v 10:00 Battle Line <play@mail.example> napsal(a):",  # any client: an address, a colon
    "Den 23 nov. 2026 kl. 10:00 skrev Battle Line <play@mail.example>:",
    # Hebrew Gmail wraps its attribution in bidirectional marks, after the colon too
    "\u202bבתאריך יום ב׳, 23 בנוב׳ 2026 ב-10:00 מאת \u202aBattle Line\u202c\u200f <\u202aplay@mail.example\u202c\u200f>:\u202c",
]
HEADER_BLOCKS = [
    "De : Battle Line <play@mail.example>\nEnvoyé : lundi 23 novembre 2026 10:00\nÀ : Ann <ann@example.org>",
    "De: Battle Line <play@mail.example>\nEnviado: lunes, 23 de noviembre de 2026 10:00\nPara: Ann",
    "________________________________\nVon: Battle Line <play@mail.example>\nGesendet: Montag, 23. November 2026 10:00\n"
    "An: Ann <ann@example.org>\nBetreff: Battle Line with Bob",
    "________________________________\nDe : Battle Line <play@mail.example>\nEnvoyé : lundi 23 novembre 2026 10:00\n"
    "À : Ann <ann@example.org>\nObjet : Battle Line with Bob",
]


@pytest.mark.parametrize("attribution", ATTRIBUTIONS + HEADER_BLOCKS)
def test_a_quote_begun_in_another_language_ends_the_replys_own_text(attribution):
    text = f"play 5R 3\nclaim none\ndraw troop\n\ngood luck\n\n{attribution}\n{QUOTED}\n"
    assert own_text(text) == "play 5R 3\nclaim none\ndraw troop\n\ngood luck\n"


def test_a_message_that_holds_our_email_quoted_is_refused_not_sent(store):
    services, inbound, outbox, view, ann, bob = game_by_mail(store, "battleline")
    card = view["state"]["hand"][0]
    quoted = f"Ann's client quotes this way\n\nYour move.\n\nBattle Line with Bob · game {view['game_id']} · turn 1\n" \
             f"Your hand: {', '.join(view['state']['hand'])}"
    raw = (f"From: ann@example.org\r\nTo: {LINKS.reply_address(view['game_id'], 1, 0)}\r\nSubject: Re\r\n"
           f"Message-ID: <q1@example.org>\r\n\r\nplay {card} 3\nclaim none\ndraw troop\n\nhi\n\n{quoted}\n").encode()
    result = inbound.handle(raw)
    assert result.outcome == "refused" and "could show your hand" in result.reason
    assert services.games.view_for_seat(view["game_id"], 1)["version"] == 0
    assert all(view["state"]["hand"][1] not in text_of(m) for m in outbox.sent if m["To"] == "bob@example.org")


def test_a_message_that_names_another_game_goes_with_the_move(store):
    """Another game's id in a message is the player's words ("g_… is your move too"), not a quote."""
    services, inbound, outbox, view, ann, bob = game_by_mail(store, "battleline")
    card = view["state"]["hand"][0]
    raw = (f"From: ann@example.org\r\nTo: {LINKS.reply_address(view['game_id'], 1, 0)}\r\nSubject: Re\r\n"
           f"Message-ID: <q2@example.org>\r\n\r\nplay {card} 3\nclaim none\ndraw troop\n\n"
           f"g_8ff527eae0d5ec47 is your move too\n").encode()
    assert inbound.handle(raw).outcome == "applied"
