"""Your-move emails: SES (moto) and the file mailbox, signed step links, one-click unsubscribe."""

import email
import re
from email import policy
from urllib.parse import unquote, urlsplit

import boto3
import pytest
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from chalicelib.mailplay import pages
from chalicelib.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Dispatcher
from chalicelib.mailplay.links import Links
from chalicelib.notify.mail import FileMailbox, SesMailer
from chalicelib.config import build_services
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import create_table_if_missing

LINKS = Links("test-link-secret", "http://play.example")


@pytest.fixture
def ses_world(monkeypatch):
    monkeypatch.setenv("MAIL_FROM", "Battle Line <play@battleline.example>")
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_table_if_missing(client, "t")
        sesv2 = boto3.client("sesv2", region_name="us-east-1")
        sesv2.create_email_identity(EmailIdentity="battleline.example")
        store = DynamoStore(client, "t")
        dispatcher = Dispatcher(store, mailer=SesMailer(sesv2), links=LINKS)
        services = build_services(store, dispatcher=dispatcher)
        yield services, dispatcher, ses_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].sent_messages


def players(services):
    ann = services.players.create_player(CreatePlayerRequest(name="Ann", email="ann@example.org"), None).body
    bob = services.players.create_player(CreatePlayerRequest(name="Bob", email="bob@example.org"), None).body
    return services.players.authenticate(ann["api_key"]), services.players.authenticate(bob["api_key"])


def new_game(services, ann, bob):
    return services.games.create_game(ann, CreateGameRequest(game="battleline", options={"first_seat": 1},
                                                      seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                               None).body


def parsed(raw):
    return email.message_from_string(raw.raw_data if hasattr(raw, "raw_data") else raw, policy=policy.default)


def test_your_move_email_through_ses_has_both_parts_and_no_hidden_cards(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    dispatcher.drain_outbox()
    messages = [parsed(m) for m in sent]
    by_subject = {(m["To"], m["Subject"]) for m in messages}
    assert ("ann@example.org", f"Your move in Battle Line game {game['game_id']} (turn 1)") in by_subject
    assert ("bob@example.org", f"You have a seat in a new Battle Line game {game['game_id']}") in by_subject
    assert not any(m["To"] == "bob@example.org" and m["Subject"].startswith("Your move") for m in messages)
    your_move = next(m for m in messages if m["Subject"].startswith("Your move"))
    assert your_move.get_content_type() == "multipart/alternative"
    text = your_move.get_body(("plain",)).get_content()
    html = your_move.get_body(("html",)).get_content()
    assert "flag 1" in text and "<table" in html
    hand = game["state"]["hand"]
    assert all(card in text for card in hand)
    bob_hand = services.games.view_for_seat(game["game_id"], 2)["state"]["hand"]
    # Bob's cards appear nowhere in Ann's email. Searched outside URLs (link tokens are opaque
    # base64 that can hold "-7R-") and outside the fixed, quoted command examples ("play 7R 3").
    words = re.sub(r'https?://\S+|"[^"\n]*"', " ", text)
    for card in bob_hand:
        assert not re.search(rf"\b{card}\b", words) and f">{card}<" not in html
    links = re.findall(r"http://play\.example/v1/links/\S+", text)
    assert len(links) == len(game["legal_steps"])  # one per legal step
    assert your_move["List-Unsubscribe"].startswith("<http://play.example/v1/unsubscribe/")
    assert your_move["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_file_mailbox_writes_eml_files(store, tmp_path):
    dispatcher = Dispatcher(store, mailer=FileMailbox(tmp_path), links=LINKS)
    services = build_services(store, dispatcher=dispatcher)
    ann, bob = players(services)
    new_game(services, ann, bob)
    dispatcher.drain_outbox()
    files = sorted(tmp_path.glob("*.eml"))
    assert len(files) == 3  # invited x2, your move (Ann)
    subjects = {email.message_from_bytes(f.read_bytes(), policy=policy.default)["Subject"] for f in files}
    assert any(s.startswith("Your move") for s in subjects)


def token_of(url):
    return unquote(urlsplit(url).path.rsplit("/", 1)[1])


def first_links(services, dispatcher, sent):
    dispatcher.drain_outbox()
    your_move = next(parsed(m) for m in sent if parsed(m)["Subject"].startswith("Your move"))
    text = your_move.get_body(("plain",)).get_content()
    return re.findall(r"- (.+?): (http://play\.example/v1/links/\S+)", text)


def test_a_step_link_shows_a_page_on_get_and_plays_only_on_post(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    label, url = first_links(services, dispatcher, sent)[0]
    token = token_of(url)
    page = pages.step_link_page(services.mailplay, token, "/v1/links/x")
    assert page.status == 200 and label in page.title and page.form_action
    assert services.games.view_for_seat(game["game_id"], 1)["version"] == 0  # a GET changes nothing
    played = pages.play_step_link(services.mailplay, token)
    assert played.status == 200 and played.title == f"Played: {label}"
    assert services.games.view_for_seat(game["game_id"], 1)["version"] == 1
    assert played.links and all(link["url"].startswith("http://play.example/v1/links/") for link in played.links)
    again = pages.play_step_link(services.mailplay, token)  # a second click replays, it does not play twice
    assert again.status == 200 and services.games.view_for_seat(game["game_id"], 1)["version"] == 1


def test_a_stale_tampered_or_expired_link_is_refused(ses_world, monkeypatch):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    links = first_links(services, dispatcher, sent)
    pages.play_step_link(services.mailplay, token_of(links[0][1]))
    stale = pages.play_step_link(services.mailplay, token_of(links[1][1]))  # made for version 0; the game is at 1
    assert stale.status == 409
    assert pages.step_link_page(services.mailplay, token_of(links[1][1]), "/x").status == 409
    tampered = token_of(links[1][1])[:-3] + "abc"
    assert pages.play_step_link(services.mailplay, tampered).status == 400
    import itsdangerous.timed

    monkeypatch.setattr(itsdangerous.timed.time, "time", lambda: 1_000_000_000)  # signed long ago
    old = LINKS.step_url(game["game_id"], 1, 1, {"type": "claim", "flags": []})
    monkeypatch.undo()
    assert pages.play_step_link(services.mailplay, token_of(old)).status == 410
    assert services.games.view_for_seat(game["game_id"], 1)["version"] == 1


def test_a_link_plays_only_for_the_seat_it_was_made_for(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    forged = Links("another-secret", "http://play.example").step_url(game["game_id"], 2, 0, {"type": "resign"})
    assert pages.play_step_link(services.mailplay, token_of(forged)).status == 400
    assert services.games.view_for_seat(game["game_id"], 1)["status"] == "active"


def test_one_click_unsubscribe_stops_emails(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    dispatcher.drain_outbox()
    header = next(parsed(m) for m in sent if parsed(m)["To"] == "ann@example.org")["List-Unsubscribe"]
    token = token_of(header.strip("<>"))
    assert pages.unsubscribe_page(services.mailplay, token, "/x").status == 200
    assert pages.unsubscribe(services.mailplay, token).status == 200
    assert services.store.get_player(ann.id).preferences["email"] == []
    before = len(sent)
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    services.games.post_action(ann, game["game_id"], ActionRequest(expected_version=0, steps=[step, {"type": "claim", "flags": []},
                                                                                      {"type": "draw", "deck": "troop"}]), None)
    dispatcher.drain_outbox()
    assert [parsed(m)["To"] for m in sent[before:]] == ["bob@example.org"]  # Bob's move; Ann hears nothing
