"""A Khan & General email comes from the game by its name, and gives each card of the reader's hand
with the id a reply types (its name is the card set's, in the reader's language: a Chinese name is no
command), in the text part and the HTML part, and a reply with the id shown plays; a Chinese player's
unreadable reply is answered with the commands in Chinese."""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import parseaddr

import pytest

from chalicelib.config import build_services
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from tests.fakes import start_game
from tests.notify.helpers import LINKS, Outbox, html_of, kind_of, text_of


def khan_by_mail(store, language: str):
    """Ann (seat 1, first) and Bob, both reading ``language``, in a seeded Khan & General game; mail
    goes to an Outbox. Returns (services, outbox, Ann's view)."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    people = [services.players.authenticate(services.players.create_player(CreatePlayerRequest(
        name=name, email=f"{name.lower()}@example.org", language=language), None).body["api_key"])
        for name in ("Ann", "Bob")]
    view = start_game(services, people[0], CreateGameRequest(
        game="khan", options={"first_seat": 1}, seed=3,
        seats=[PlayerSeat(player_id=people[0].id), PlayerSeat(player_id=people[1].id)]), people)
    return services, outbox, view


def reply_as_ann(services, view: dict, text: str, message_id: str):
    reply = EmailMessage()
    reply["From"], reply["To"] = "ann@example.org", LINKS.reply_address(view["game_id"], 1, view["version"])
    reply["Subject"], reply["Message-ID"] = "Re", message_id
    reply.set_content(text)
    return services.inbound.handle(bytes(reply))


@pytest.mark.parametrize("language", ["zh-Hans", "ja", "en"])
def test_a_khan_email_shows_each_card_of_the_hand_with_the_id_a_reply_types(store, language):
    services, outbox, view = khan_by_mail(store, language)
    services.dispatcher.drain_outbox()
    mail = next(m for m in outbox.sent if m["To"] == "ann@example.org" and kind_of(m) == "your_turn")
    text, html = text_of(mail), html_of(mail)
    # from the game, by its name in the reader's language, at the server's one address
    sender = parseaddr(str(mail["From"]))
    assert sender[0] == {"zh-Hans": "汗王与大将军", "ja": "Khan & General", "en": "Khan & General"}[language], sender
    hand = view["state"]["hand"]
    for card in set(hand):
        assert re.search(rf"\[{card}\]", text), (card, text)  # "重骑兵 [heavy_cavalry]: ..."
        assert f">{card}</span>" in html, card
    unit = next(s for s in view["legal_steps"] if s["type"] == "place")["unit"]
    place = "放置" if language == "zh-Hans" else "place"  # (Khan & General's commands in Chinese and English)
    assert reply_as_ann(services, view, f"{place} {unit}", "<place@example.org>").outcome == "applied"


def test_a_chinese_khan_players_unreadable_reply_is_answered_with_the_commands_in_chinese(store):
    services, outbox, view = khan_by_mail(store, "zh-Hans")
    assert reply_as_ann(services, view, "放一个骑兵", "<garbled@example.org>").outcome == "refused"
    text = text_of(outbox.sent[-1])
    # each command in the reader's words with what it does (a card by its name), English still read
    assert "部署 light_cavalry -1 0 北" in text and "将轻骑兵卡背朝上部署在(-1, 0)，朝向北" in text
    assert "结束行动" in text and "也可以用英文指令" in text


def test_a_khan_email_says_each_sides_counts_once_in_each_part(store):
    """The board drawn whole carries each side's hand, limit, discards, units and command zone (by the
    number its units carry in the text); the email does not say them again after it."""
    services, outbox, view = khan_by_mail(store, "en")
    services.dispatcher.drain_outbox()
    mail = next(m for m in outbox.sent if m["To"] == "ann@example.org" and kind_of(m) == "your_turn")
    text, html = text_of(mail), html_of(mail)
    assert text.count("15 cards in hand, up to 1 card a turn") == 1, text
    assert text.count("15 cards in hand, up to 2 cards a turn") == 1
    assert text.count("Ann (you)") == 1 and "Command zone: empty" in text
    assert "Your hand:" in text and "(15 cards)" not in text  # the hand's size is in Ann's line
    assert html.count("15 cards in hand, up to 1 card a turn") == 1
    assert html.count("15 cards in hand, up to 2 cards a turn") == 1


def test_a_reply_whose_action_opens_the_opponents_reaction_plays_up_to_it_and_says_what_waits(store):
    """A reply that ends an action and then its turn: the end of the action gives the opponent the decision
    (the reaction window), so its first steps are played and the rest waits for Ann's next decision, said
    so (it was refused whole, "it is not your decision now", nothing played)."""
    import random

    from chalicelib.http.models import ActionRequest

    services, outbox, view = khan_by_mail(store, "en")
    game_id, rng = view["game_id"], random.Random(1)
    for number in range(200):  # random steps of both seats; Ann ends her turn by email when she can
        seat = services.games.view_for_seat(game_id, 1)["to_move"]
        now = services.games.view_for_seat(game_id, seat)
        if seat == 1 and any(s["type"] == "end_action" for s in now["legal_steps"]):
            result = reply_as_ann(services, now, "end action\nend turn", f"<ends{number}@example.org>")
            assert result.outcome == "applied", result.reason
            if "Not played yet" in result.reason:
                break
            continue
        steps = [s for s in now["legal_steps"] if s["type"] not in ("resign", "offer_draw")]
        services.games.post_action(services.games.seat_player(game_id, seat), game_id, ActionRequest(
            expected_version=now["version"], steps=[rng.choice(steps)]), None)
    else:
        raise AssertionError("no action of Ann's opened a reaction window")
    assert result.reason.startswith("Played: end action.") and "Not played yet: end turn: Bob may answer first" \
        in result.reason
    after = services.games.view_for_seat(game_id, 1)
    assert after["version"] == now["version"] + 1 and after["to_move"] == 2
    # Bob's decision falls in Ann's turn (his reaction): his email and board say so
    from chalicelib.pages.board import headline
    from chalicelib.presenting import show

    bobs = services.games.view_for_seat(game_id, 2)
    assert show.whose_move(bobs) == "Your move, in Ann's turn." and headline(bobs) == "Your move, in Ann's turn"
    assert show.whose_move(after) == "Bob is to move."
