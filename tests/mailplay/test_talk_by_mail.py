"""Talk by email (issue 18): the text after a reply's commands is a message to the opponent, who
reads it in their next email (quoted, with the sender's name, escaped in HTML); a player who turned
messages off reads none."""

import pytest

from chalicelib.games.battleline.steps import STEPS
from chalicelib.games.steptypes import CommandError
from chalicelib.http.models import Preferences

from tests.notify.helpers import LINKS, confirmations_alone, html_of, kind_of, text_of
from tests.notify.helpers import game_by_mail as mail_game

from .test_inbound import reply


@pytest.fixture
def game_by_mail(store):
    return mail_game(store, "battleline")


def commands(services, game_id, seat):
    view = services.games.view_for_seat(game_id, seat)
    play = next(s for s in view["legal_steps"] if s["type"] == "play" and "flag" in s and s["card"][0].isdigit())
    return f"play {play['card']} {play['flag']}\nclaim none\ndraw troop", view["version"]


def emails_to(outbox, address, kind=None):
    return [m for m in outbox.sent if m["To"] == address and (kind is None or kind_of(m) == kind)]


def test_a_whole_exchange_by_email(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    gid = game["game_id"]
    # Ann plays her turn and, after a blank line, writes to Bob (with characters HTML must escape)
    moves, version = commands(services, gid, 1)
    text = f"{moves}\n\nGood luck <b>Bob</b> & have fun!\nSecond line.\n\n-- \nAnn\n\nOn Mon, Bob wrote:\n> old"
    result = inbound.handle(reply("Ann <ann@example.org>", LINKS.reply_address(gid, 1, version), text))
    assert result.outcome == "applied", result.reason
    confirmations_alone(services)  # (the window passed with no other email of the game to Ann)
    assert "Your message went with it." in text_of(outbox.sent[-1])
    assert "Good luck" not in text_of(outbox.sent[-1])  # her own message is not told back to her
    services.dispatcher.drain_outbox()
    to_bob = emails_to(outbox, "bob@example.org", "your_turn")[-1]
    assert "Ann says:\n> Good luck <b>Bob</b> & have fun! Second line.\n" in text_of(to_bob)
    html = html_of(to_bob)
    assert "Good luck &lt;b&gt;Bob&lt;/b&gt; &amp; have fun! Second line." in html and "<b>Bob</b>" not in html
    assert "Ann says:" in html
    assert "leave a blank line and write it" in text_of(to_bob)  # the email says how to answer
    # Bob answers the same way, with "message:" on the line after his commands
    moves, version = commands(services, gid, 2)
    result = inbound.handle(reply("bob@example.org", LINKS.reply_address(gid, 2, version),
                                  f"{moves}\nmessage: Thanks, you too.\nSent from my phone", "<b1@example.org>"))
    assert result.outcome == "applied", result.reason
    services.dispatcher.drain_outbox()
    to_ann = emails_to(outbox, "ann@example.org", "your_turn")[-1]
    assert "Bob says:\n> Thanks, you too.\n" in text_of(to_ann) and "Good luck" not in text_of(to_ann)
    # both are in the game's events, for both seats
    events = services.store.list_events(gid)
    assert [e.seen_by(2)["data"]["text"] for e in events if e.type == "message"] == [
        "Good luck <b>Bob</b> & have fun! Second line.", "Thanks, you too."]


def test_messages_off_keeps_them_out_of_emails(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    gid = game["game_id"]
    services.players.set_preferences(bob, Preferences(messages=False))
    moves, version = commands(services, gid, 1)
    result = inbound.handle(reply("ann@example.org", LINKS.reply_address(gid, 1, version), f"{moves}\n\nhello Bob"))
    assert result.outcome == "applied"
    services.dispatcher.drain_outbox()
    to_bob = emails_to(outbox, "bob@example.org", "your_turn")[-1]
    assert "hello Bob" not in text_of(to_bob) and "hello Bob" not in html_of(to_bob)
    assert "says:" not in text_of(to_bob)
    assert services.store.get_player(bob.id).preferences["email"]  # the other preferences kept their value


def test_a_message_too_long_or_a_typo_in_the_commands_plays_nothing(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    gid = game["game_id"]
    moves, version = commands(services, gid, 1)
    address = LINKS.reply_address(gid, 1, version)
    result = inbound.handle(reply("ann@example.org", address, f"{moves}\n\n{'blah ' * 120}"))
    assert result.outcome == "refused" and "at most 500" in result.reason
    assert services.games.view_for_seat(gid, 1)["version"] == version
    # a line of the commands' own paragraph that is no command is never taken for a message
    result = inbound.handle(reply("ann@example.org", address, f"{moves}\ndarw troop", "<r2@example.org>"))
    assert result.outcome == "refused" and "darw troop" in result.reason and "blank line" in result.reason
    assert services.games.view_for_seat(gid, 1)["version"] == version


@pytest.mark.parametrize("text, steps, message", [
    ("play 7R 3\nclaim none\ndraw troop\n\nNice one!\nSee you.", 3, "Nice one! See you."),
    ("play 7R 3\n\nclaim none\n\ndraw troop", 3, None),  # blank lines between commands: still commands
    ("play 7R 3\nmessage: hi", 1, "hi"),
    ("play 7R 3\nSay:   hi   there", 1, "hi there"),
    ("play 7R 3\n\ndraw troop was lucky\n\nOn Tue, Bob wrote:\n> quoted", 1, "draw troop was lucky"),
    ("play 7R 3\n\nthanks\n\nSent from my iPhone", 1, "thanks"),
    ("play 7R 3\n\n-- \nAnn", 1, None),
])
def test_how_a_reply_is_read(text, steps, message):
    read_steps, said = STEPS.read_reply(text)
    assert len(read_steps) == steps and said == message


@pytest.mark.parametrize("text", ["hello Bob", "message: hi", "play 7R 3\nhello", ""])
def test_a_reply_without_commands_first_is_refused(text):
    with pytest.raises(CommandError):
        STEPS.read_reply(text)


def test_a_link_page_shows_the_opponents_message_and_sends_one_with_the_turn(game_by_mail):
    from chalicelib.mailplay import pages
    from chalicelib.presenting.templates import render

    services, inbound, outbox, game, ann, bob = game_by_mail
    gid = game["game_id"]
    moves, version = commands(services, gid, 1)
    assert inbound.handle(reply("ann@example.org", LINKS.reply_address(gid, 1, version),
                                f"{moves}\n\n<script>alert(1)</script> your move")).outcome == "applied"
    view = services.games.view_for_seat(gid, 2)
    step = next(s for s in view["legal_steps"] if s["type"] == "play" and "flag" in s and s["card"][0].isdigit())
    token = LINKS.step_url(gid, 2, view["version"], step).rsplit("/", 1)[1]
    page = pages.step_link_page(services.mailplay, token, "/post-here")
    html = render(page.template, title=page.title, message=page.message, data=page.data)
    assert "Ann says:" in html and "&lt;script&gt;alert(1)&lt;/script&gt; your move" in html and "<script>" not in html
    assert '<textarea name="message" maxlength="500"' in html
    # too long: nothing is played, and the page says why
    refused = pages.play_step_link(services.mailplay, token, {"turn": ["1"], "deck": ["troop"],
                                                              "message": ["x" * 501]})
    assert refused.status == 422 and services.games.view_for_seat(gid, 2)["version"] == view["version"]
    played = pages.play_step_link(services.mailplay, token, {"turn": ["1"], "deck": ["troop"],
                                                             "message": ["Nice\r\nplay,   Ann"]})
    assert played.status == 200
    said = [e.seen_by(1)["data"]["text"] for e in services.store.list_events(gid) if e.type == "message"]
    assert said[-1] == "Nice play, Ann"
