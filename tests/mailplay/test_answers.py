"""A player asked by email answers from the email: Bob, seated by Ann (his ``challenges``
preference left at ``ask``), gets an email that says who asks and the game's options, with an
Accept and a Decline link (each opens a page whose button answers: GET does nothing) and a
reply address ("accept" or "decline" by reply). After an accept the game plays on as usual;
after a decline Ann is told who declined, and nothing is rated."""

import re
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

import pytest

from chalicelib.config import build_services
from chalicelib.mailplay import pages
from chalicelib.presenting.links import Links
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from tests.notify.helpers import LINKS, Outbox, html_of, kind_of, text_of


@pytest.fixture
def asked(store):
    """Ann makes a rated game seating Bob, who is asked (nobody accepts on his behalf); the
    invitations are mailed. Returns (services, outbox, inbound handler, Ann, Bob, the game id)."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Bob"))
    game = services.creation.create_game(ann, CreateGameRequest(
        game="battleline", rated=True, options={"first_seat": 2, "time_control": {"per_move_days": 3}},
        seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body
    assert game["status"] == "waiting"
    services.dispatcher.drain_outbox()
    return services, outbox, services.inbound, ann, bob, game["game_id"]


def mails_to(outbox, address, kind=None):
    return [m for m in outbox.sent if m["To"] == address and (kind is None or kind_of(m) == kind)]


def answer_token(text, answer):
    """The token of the email's Accept or Decline link (the text part lists Accept first)."""
    urls = re.findall(r"http://play\.example/v1/answers/\S+", text)
    assert len(urls) == 2
    return unquote(urlsplit(urls[0 if answer == "accept" else 1]).path.rsplit("/", 1)[1])


def status(services, game_id):
    return services.store.load_game(game_id).status


def reply(sender, to, text):
    message = EmailMessage()
    message["From"], message["To"], message["Subject"], message["Message-ID"] = sender, to, "Re", "<r@example.org>"
    message.set_content(text)
    return bytes(message)


def test_the_asked_player_is_told_who_asks_the_options_and_how_to_answer_and_shown_no_card(asked):
    services, outbox, _, ann, bob, game_id = asked
    [bobs] = mails_to(outbox, "bob@example.org")
    text, html = text_of(bobs), html_of(bobs)
    assert kind_of(bobs) == "invited"
    assert text.startswith("Ann asks you to play a game of Battle Line. The game waits for your answer.")
    for line in ("Players: Ann and you.", "With the tactics cards.", "You move first.", "3 days for each move.",
                 "Rated."):
        assert line in text and line in html
    assert "Or reply to this email with one word: accept or decline." in text
    assert ">Accept</a>" in html and ">Decline</a>" in html
    assert answer_token(text, "accept") != answer_token(text, "decline")
    # A reply answers: the email has a reply address for Bob's seat.
    assert LINKS.read_reply_address(bobs["Reply-To"]).seat == 2
    # No card at all before he answers: neither his hand nor Ann's (links' tokens are opaque).
    words = re.sub(r"https?://\S+", " ", text) + re.sub(r'href="[^"]*"', "", html)
    for seat in (1, 2):
        for card in services.games.view_for_seat(game_id, seat)["state"]["hand"]:
            assert not re.search(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])", words)
    assert "Your hand" not in text + html and "Flag 1" not in text
    # Ann, who asked, is told whom the game waits for.
    [anns] = mails_to(outbox, "ann@example.org")
    assert text_of(anns).startswith("You started a game of Battle Line against Bob. The game waits for Bob to accept.")
    assert anns["Reply-To"] is None and "/v1/answers/" not in text_of(anns)


def test_opening_a_link_changes_nothing_and_accepting_starts_the_game(asked):
    services, outbox, _, ann, bob, game_id = asked
    text = text_of(mails_to(outbox, "bob@example.org")[0])
    accept, decline = answer_token(text, "accept"), answer_token(text, "decline")
    for token in (accept, decline, accept):  # mail scanners open every link
        page = pages.answer_page(services.mailplay, token, "/v1/answers/x")
        assert page.status == 200 and page.title == "Ann asks you to play Battle Line?"
        assert page.data["form"]["action"] == "/v1/answers/x" and "Rated." in page.data["summary"]
    assert status(services, game_id) == "waiting" and services.store.load_game(game_id).version == 0
    assert pages.answer_page(services.mailplay, decline, "/x").data["form"]["danger"]
    outbox.sent.clear()
    page = pages.answer_game(services.mailplay, accept)
    assert page.status == 200 and page.title == "You accepted: the game starts"
    assert page.message == "It is your move."
    assert page.data["button"]["url"] == LINKS.board_url(game_id, 2)
    view = services.games.view_for_seat(game_id, 2)
    assert view["status"] == "active" and view["to_move"] == 2 and view["clock"]["seats"][1]["running"]
    # Bob, to move, gets his your-move email; Ann is told the game began and whose move it is.
    services.dispatcher.drain_outbox()
    [bobs] = mails_to(outbox, "bob@example.org")
    assert kind_of(bobs) == "your_turn" and bobs["Reply-To"]
    [anns] = mails_to(outbox, "ann@example.org")
    assert text_of(anns).startswith("Bob accepted the game. Bob is to move.")
    # Followed again, either link says the game is on, and answers nothing.
    for token in (accept, decline):
        again = pages.answer_game(services.mailplay, token)
        assert again.status == 409 and again.title == "You accepted this game already" and again.message == "Your move."
        assert pages.answer_page(services.mailplay, token, "/x").status == 409
    assert services.store.load_game(game_id).status == "active"


def test_the_creator_moving_first_is_told_by_the_your_move_email(store):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Bob"))
    game_id = services.creation.create_game(ann, CreateGameRequest(game="battleline", options={"first_seat": 1}, seats=[
        PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body["game_id"]
    services.dispatcher.drain_outbox()
    outbox.sent.clear()
    services.lobby.accept(bob, game_id)  # by API this time
    services.dispatcher.drain_outbox()
    assert [kind_of(m) for m in mails_to(outbox, "ann@example.org")] == ["your_turn"]
    assert text_of(mails_to(outbox, "ann@example.org")[0]).startswith("Bob accepted the game. Your move.")
    assert mails_to(outbox, "bob@example.org") == []  # he answered; Ann moves


def test_declining_ends_the_game_unrated_and_ann_is_told_who_declined(asked):
    services, outbox, _, ann, bob, game_id = asked
    decline = answer_token(text_of(mails_to(outbox, "bob@example.org")[0]), "decline")
    outbox.sent.clear()
    page = pages.answer_game(services.mailplay, decline)
    assert page.status == 200 and page.title == "You declined"
    assert page.message == "The game is over before it began: it counts for nothing. Ann is told."
    view = services.games.view_for_seat(game_id, 1)
    assert view["status"] == "finished" and view["result"] == {"winner": None, "reason": "declined", "seat": 2}
    services.dispatcher.drain_outbox()
    [anns] = mails_to(outbox, "ann@example.org", "finished")
    assert text_of(anns).startswith("Bob declined the game.")
    assert "won" not in text_of(anns) and "draw" not in text_of(anns).lower()
    assert text_of(mails_to(outbox, "bob@example.org", "finished")[0]).startswith("You declined the game.")
    assert services.ratings.player_ratings(ann) == {} and services.ratings.player_ratings(bob) == {}  # not rated
    # The link followed again: the game is over, and how.
    again = pages.answer_page(services.mailplay, decline, "/x")
    assert again.status == 409 and again.title == "This game is over" and again.message == "You declined the game."


def test_an_answer_link_for_a_game_called_off_says_so(asked):
    services, outbox, _, ann, bob, game_id = asked
    accept = answer_token(text_of(mails_to(outbox, "bob@example.org")[0]), "accept")
    services.lobby.abort(ann, game_id)
    for page in (pages.answer_page(services.mailplay, accept, "/x"), pages.answer_game(services.mailplay, accept)):
        assert page.status == 409 and page.title == "This game is over"
        assert page.message == "Ann called the game off before its first move."
    assert services.store.load_game(game_id).ended["reason"] == "aborted"


def test_forged_and_foreign_tokens_are_refused(asked):
    services, outbox, _, ann, bob, game_id = asked
    forged = Links("another-secret", "http://play.example").answer_url(game_id, 2, bob.id, "accept")
    token = unquote(urlsplit(forged).path.rsplit("/", 1)[1])
    step = unquote(urlsplit(LINKS.step_url(game_id, 2, 0, {"type": "resign"})).path.rsplit("/", 1)[1])
    for bad in (token, step, "not-a-token"):
        assert pages.answer_page(services.mailplay, bad, "/x").status == 400
        assert pages.answer_game(services.mailplay, bad).status == 400
    # Signed for Ann's seat (she is not asked): nothing to answer, nothing done.
    anns = unquote(urlsplit(LINKS.answer_url(game_id, 1, ann.id, "decline")).path.rsplit("/", 1)[1])
    assert pages.answer_game(services.mailplay, anns).status == 409
    assert status(services, game_id) == "waiting"


def test_a_reply_accept_starts_the_game(asked):
    services, outbox, inbound, ann, bob, game_id = asked
    address = mails_to(outbox, "bob@example.org")[0]["Reply-To"]
    outbox.sent.clear()
    result = inbound.handle(reply("Bob <bob@example.org>", address, "Accept.\n\nOn Mon, Ann wrote:\n> decline"))
    assert result.outcome == "applied"
    assert services.store.load_game(game_id).status == "active"
    assert outbox.sent == []  # held for the next email: his move's
    services.dispatcher.drain_outbox()
    [answer] = [m for m in outbox.sent if m["To"] == "bob@example.org"]  # one email, never two alike
    assert text_of(answer).startswith("You accepted: the game starts. Your move.")
    assert answer["Reply-To"]  # his move: a reply plays
    # Sent again (or "decline" after it), the game is settled: told so, nothing changes.
    again = inbound.handle(reply("bob@example.org", address, "decline"))
    assert again.outcome == "refused" and "settled already" in again.reason
    assert services.store.load_game(game_id).status == "active"


def test_a_reply_decline_declines_and_an_unreadable_answer_asks_again(asked):
    services, outbox, inbound, ann, bob, game_id = asked
    address = mails_to(outbox, "bob@example.org")[0]["Reply-To"]
    assert inbound.handle(reply("ann@example.org", address, "accept")).outcome == "ignored"  # not Bob
    outbox.sent.clear()
    unread = inbound.handle(reply("bob@example.org", address, "maybe later"))
    assert unread.outcome == "refused" and status(services, game_id) == "waiting"
    text = text_of(outbox.sent[-1])
    assert text.startswith("I could not read your answer: reply with one word, accept or decline.")
    assert "/v1/answers/" in text and outbox.sent[-1]["Reply-To"] and "Your hand" not in text
    assert inbound.handle(reply("bob@example.org", address, "decline")).outcome == "applied"
    assert services.store.load_game(game_id).ended == {"winner": None, "reason": "declined", "seat": 2}
