"""Invitations by email for seats given as {email}: the game waits until they are accepted."""

import re
from urllib.parse import unquote, urlsplit

import pytest

from chalicelib.mailplay import pages
from chalicelib.kernel.errors import ServiceError
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, EmailSeat, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from chalicelib.presenting.links import Links
from chalicelib.config import build_services

from tests.notify.helpers import LINKS, Outbox, html_of, kind_of, text_of


@pytest.fixture
def invited(store):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann = services.players.create_player(CreatePlayerRequest(name="Ann", email="ann@example.org"), None).body
    ann = services.players.authenticate(ann["api_key"])
    game = services.creation.create_game(ann, CreateGameRequest(game="battleline", options={"first_seat": 2},
                                                      seats=[PlayerSeat(player_id=ann.id), EmailSeat(email="Cat@Example.org")]),
                               None).body
    return services, outbox, ann, game


def token_in(text, kind):
    url = re.search(rf"http://play\.example/v1/{kind}/\S+", text).group(0)
    return unquote(urlsplit(url).path.rsplit("/", 1)[1])


def test_an_email_seat_gets_an_invitation_and_the_game_waits(invited):
    services, outbox, ann, game = invited
    assert game["status"] == "waiting" and game["to_move"] is None and game["legal_steps"] == []
    assert game["seats"][1] == {"seat": 2, "player_id": None, "name": "(invited)", "invited": True, "bot": None, "open": False}
    assert "cat@example.org" not in repr(game)  # the invited address is not shown to others
    with pytest.raises(ServiceError) as refused:
        services.games.post_action(ann, game["game_id"], ActionRequest(expected_version=0, steps=[{"type": "resign"}]), None)
    assert refused.value.code == "game_not_started"
    services.dispatcher.drain_outbox()
    invitation = next(m for m in outbox.sent if m["To"] == "cat@example.org")
    assert invitation["Subject"] == "Ann invites you to a game of Battle Line"
    assert not any(kind_of(m) == "your_turn" for m in outbox.sent)  # nobody moves yet


def test_accepting_makes_a_player_seats_it_and_starts_the_game(invited):
    services, outbox, ann, game = invited
    services.dispatcher.drain_outbox()
    text = next(m for m in outbox.sent if m["To"] == "cat@example.org").get_body(("plain",)).get_content()
    token = token_in(text, "invitations")
    assert pages.invitation_page(services.mailplay, token, "/x").status == 200
    assert services.store.load_game(game["game_id"]).status == "waiting"  # a GET changes nothing
    page = pages.accept_invitation(services.mailplay, token)
    assert page.status == 200 and "bl_live_" in page.message
    key = re.search(r"bl_live_\S+", page.message).group(0)
    cat = services.players.authenticate(key)
    assert services.store.get_player(cat.id).email == "cat@example.org"
    view = services.games.get_game(cat, game["game_id"])
    assert view["status"] == "active" and view["you"] == 2 and view["to_move"] == 2 and view["legal_steps"]
    services.dispatcher.drain_outbox()
    assert any(m["To"] == "cat@example.org" and kind_of(m) == "your_turn" for m in outbox.sent)
    assert pages.accept_invitation(services.mailplay, token).status == 409  # a seat is taken once


def test_a_forged_invitation_is_refused(invited):
    services, outbox, ann, game = invited
    forged = Links("other", "http://play.example").invitation_url(game["game_id"], 2, "cat@example.org")
    assert pages.accept_invitation(services.mailplay, unquote(urlsplit(forged).path.rsplit("/", 1)[1])).status == 400
    assert services.store.load_game(game["game_id"]).status == "waiting"


def test_an_invitation_names_who_invites_and_the_other_players(store):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"]) for name in ("Ann", "Bob"))
    game = services.creation.create_game(ann, CreateGameRequest(game="battleline", options={"players": 3}, seats=[
        PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id), EmailSeat(email="cat@example.org")]), None).body
    services.dispatcher.drain_outbox()
    invitation = next(m for m in outbox.sent if m["To"] == "cat@example.org")
    lead = f"Ann invites you to play Battle Line against Ann and Bob (game {game['game_id']})."
    assert text_of(invitation).startswith(lead) and lead in html_of(invitation)
    page = pages.invitation_page(services.mailplay, token_in(text_of(invitation), "invitations"), "/x")
    assert page.message.startswith("Ann invites you to play Battle Line against Ann and Bob.")
    bobs = next(m for m in outbox.sent if m["To"] == "bob@example.org" and kind_of(m) == "invited")
    assert text_of(bobs).startswith("Ann asks you to play a game of Battle Line against Ann and an invited player. "
                                    "The game waits for your answer and an invited player to join.")


def test_an_invitation_page_says_which_card_set_and_side_the_friend_would_play(store):
    """A designer invites friends to play a card set of their own: the page they join from names it."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann = services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name="Ann", email="ann@example.org"), None).body["api_key"])
    services.creation.create_game(ann, CreateGameRequest(game="khan", options={"first_seat": 1}, seats=[
        PlayerSeat(player_id=ann.id), EmailSeat(email="cat@example.org")]), None)
    services.dispatcher.drain_outbox()
    invitation = next(m for m in outbox.sent if m["To"] == "cat@example.org")
    page = pages.invitation_page(services.mailplay, token_in(text_of(invitation), "invitations"), "/x")
    assert page.data["summary"][:4] == ["Players: Ann and you.",
                                        "Card set: Khan & General: the default cards; at most 40 rounds.",
                                        "You play the General (infantry) side.", "Ann moves first."]
