"""Your-move emails as a correspondence player reads them: one subject and one thread per game,
the opponent's move in the first line, names (never "seat 1"), the counts and the claimable
flags, a card x flag grid of links, a whole turn in two page loads; SES (moto) and the file
mailbox; signed step links; one-click unsubscribe."""

import email
import re
from email import policy

import boto3
import pytest
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from chalicelib.config import build_services
from chalicelib.mailplay import pages
from chalicelib.presenting.links import Links
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.mail import FileMailbox, SesMailer
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import create_table_if_missing
from tests.notify.helpers import (Outbox, grid_cells, html_of, kind_of, parsed, step_links, text_of,
                                  token_of)
from ..fakes import start_game

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
        services = build_services(store, outlets=Outlets(mailer=SesMailer(sesv2), links=LINKS))
        yield services, services.dispatcher, ses_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].sent_messages


@pytest.fixture
def mailed(store):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    return services, outbox


def players(services):
    ann = services.players.create_player(CreatePlayerRequest(name="Ann", email="ann@example.org"), None).body
    bob = services.players.create_player(CreatePlayerRequest(name="Bob", email="bob@example.org"), None).body
    return services.players.authenticate(ann["api_key"]), services.players.authenticate(bob["api_key"])


def new_game(services, ann, bob, seed=None):
    return start_game(services, ann, CreateGameRequest(game="battleline", options={"first_seat": 1}, seed=seed,
                                                       seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                      [ann, bob])


def visible(html: str) -> str:
    """The words an HTML part shows (tags out: a card drawn as 7<span>R</span> reads 7R)."""
    return re.sub(r"<[^>]+>", "", html)


def first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def plays_on_flags(view):
    return [s for s in view["legal_steps"] if s["type"] == "play" and "flag" in s and "target" not in s]


def turn(services, player, game_id, seat, flag_first=True):
    """A whole turn by the API: the troop at the lowest flag it may go, claim nothing, draw a troop."""
    view = services.games.view_for_seat(game_id, seat)
    play = min((s for s in plays_on_flags(view) if s["card"][0].isdigit()), key=lambda s: s["flag"])
    services.games.post_action(player, game_id, ActionRequest(expected_version=view["version"], steps=[
        play, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]), None)
    return play


# ---------------------------------------------------------------- what an email says


def test_your_move_email_through_ses_has_both_parts_the_grid_and_no_hidden_cards(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    gid = game["game_id"]
    dispatcher.drain_outbox()
    messages = [parsed(m) for m in sent]
    assert {(m["To"], m["Subject"]) for m in messages} == {
        ("ann@example.org", f"Battle Line with Bob (game {gid})"), ("bob@example.org", f"Battle Line with Ann (game {gid})")}
    assert not any(m["To"] == "bob@example.org" and kind_of(m) == "your_turn" for m in messages)
    your_move = next(m for m in messages if kind_of(m) == "your_turn")
    assert your_move["To"] == "ann@example.org" and your_move.get_content_type() == "multipart/alternative"
    text, html = text_of(your_move), html_of(your_move)
    # the game starts on Ann's move: one email, her invitation's first line and her move (issue 36 item 1)
    assert first_line(text) == "You started a game of Battle Line against Bob. Your move: you play first."
    assert "Flag 1: Bob - | You -" in text and "<table" in html and "seat 1" not in text + html
    hand = game["state"]["hand"]
    assert all(card in text and card in visible(html) for card in hand)
    bob_hand = services.games.view_for_seat(gid, 2)["state"]["hand"]
    # Bob's cards appear nowhere in Ann's email (links' tokens are opaque: searched outside URLs).
    words = re.sub(r"https?://\S+", " ", text) + visible(re.sub(r'href="[^"]*"', "", html))
    for card in bob_hand:
        assert not re.search(rf"(?<![0-9A-Z]){card}(?![0-9A-Z])", words)
    # One grid cell per card and flag it may be played at, and no list of links.
    cells = grid_cells(html)
    assert sorted((label, flag) for _, label, flag in cells) == sorted(
        (f"Play {s['card']} at flag {s['flag']}", s["flag"]) for s in plays_on_flags(game))
    assert len(step_links(html)) == len(cells) + 1  # + resign, apart
    assert len(re.findall(r"/v1/links/", text)) == 1  # the text part: reply commands, the board, resign
    assert your_move["List-Unsubscribe"].startswith("<http://play.example/v1/unsubscribe/")
    assert your_move["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_first_line_tells_the_opponents_move_in_both_parts(mailed):
    services, outbox = mailed
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    play = turn(services, ann, game["game_id"], 1)
    services.dispatcher.drain_outbox()
    bobs = next(m for m in outbox.sent if m["To"] == "bob@example.org" and kind_of(m) == "your_turn")
    expected = f"Ann played {play['card']} at flag {play['flag']}. Ann drew from the troop deck. Your move."
    assert first_line(text_of(bobs)) == expected
    assert re.search(r"<h1[^>]*>([^<]*)</h1>", html_of(bobs)).group(1) == expected
    assert f"Flag {play['flag']}: Ann {play['card']} | You -" in text_of(bobs)


def test_every_email_of_a_game_to_a_player_has_one_subject_and_one_thread(store):
    from tests.notify.helpers import LINKS as MAIL_LINKS
    from tests.notify.helpers import game_by_mail

    services, inbound, outbox, game, ann, bob = game_by_mail(store, "battleline")
    gid = game["game_id"]
    services.dispatcher.drain_outbox()
    ours = next(m for m in outbox.sent if m["To"] == "ann@example.org" and kind_of(m) == "your_turn")
    reply = email.message.EmailMessage()
    reply["From"], reply["To"], reply["Message-ID"] = "ann@example.org", ours["Reply-To"], "<r1@example.org>"
    reply["Subject"] = "Re: Re: " + ours["Subject"]  # as a mail client may pile it up
    reply["In-Reply-To"] = ours["Message-ID"]
    reply.set_content(f"play {game['state']['hand'][0]} 4\nclaim none\ndraw troop\n")
    assert inbound.handle(bytes(reply)).outcome == "applied"
    turn(services, bob, gid, 2)
    services.dispatcher.drain_outbox()
    ann_view = services.games.view_for_seat(gid, 1)
    services.games.post_action(bob, gid, ActionRequest(expected_version=ann_view["version"], steps=[{"type": "resign"}]),
                               None)
    services.dispatcher.drain_outbox()
    anns = [m for m in outbox.sent if m["To"] == "ann@example.org"]
    # Her move from the start: the invitation says so; her reply's confirmation goes first in her next email.
    assert [kind_of(m) for m in anns] == ["your_turn", "your_turn", "finished"]
    assert {m["Subject"] for m in anns} == {f"Battle Line with Bob (game {gid})"}
    root = anns[0]["Message-ID"]  # the game began on her move: that email is the thread's first
    assert root == f"<game.{gid}.{ann.id}@{MAIL_LINKS.mail_domain}>"
    for mail in anns:
        if mail["Message-ID"] != root:
            assert mail["References"].split()[0] == root and mail["In-Reply-To"]
    assert text_of(anns[1]).startswith(f"Played: play {game['state']['hand'][0]} 4; claim none; draw troop. Bob played ")
    assert len({m["Message-ID"] for m in anns}) == len(anns)
    last = first_line(text_of(anns[-1]))  # all Bob did since Ann's turn: his turn, then resigning
    assert last.startswith("Bob played ") and last.endswith(". Bob drew from the troop deck. Bob resigned. "
                                                            "You won (resignation).")
    bobs_last = [m for m in outbox.sent if m["To"] == "bob@example.org"][-1]
    assert kind_of(bobs_last) == "finished" and first_line(text_of(bobs_last)) == "Ann won (resignation)."


def test_the_creator_is_told_she_started_the_game_and_the_other_who_invited_him(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    dispatcher.drain_outbox()
    # The game begins on Ann's move: her your-move email is her invitation too (one email, not two).
    invited = {m["To"]: m for m in map(parsed, sent) if kind_of(m) in ("invited", "your_turn")}
    assert len(list(sent)) == 2
    assert first_line(text_of(invited["ann@example.org"])) == "You started a game of Battle Line against Bob. Your move: you play first."
    assert first_line(text_of(invited["bob@example.org"])) == (
        "Ann invited you to a game of Battle Line: you play against Ann. Ann is to move.")
    assert all("You have a seat" not in text_of(m) + html_of(m) for m in invited.values())
    assert game["game_id"] in invited["bob@example.org"]["Subject"]


def test_a_reminder_keeps_the_subject_and_says_how_long_is_left(mailed):
    from chalicelib.notify.email import compose
    from chalicelib.store.records import Message

    services, outbox = mailed
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    view = services.games.story(game["game_id"], 1)
    view["clock"] = {"control": {"per_move_days": 3}, "seats": [
        {"seat": 1, "time_left_seconds": 26 * 3600, "moves": 0, "running": True, "deadline": "2026-11-30T12:00:00Z",
         "paused": False},
        {"seat": 2, "time_left_seconds": 3 * 86400, "moves": 0, "running": False, "deadline": None, "paused": False}]}
    mail = compose(Message(f"msg_{game['game_id']}_0_reminder_24h_1", "game.reminder", ann.id, {
        "game_id": game["game_id"], "seat": 1, "time_left_seconds": 26 * 3600}, "now"),
        services.store.get_player(ann.id), view, LINKS)
    assert mail["Subject"] == f"Battle Line with Bob (game {game['game_id']})"
    assert first_line(text_of(mail)).startswith(
        "Reminder: it is still your move. Your clock: 1 day, 2 hours left (until Nov 30, 2026 12:00 UTC).")


@pytest.mark.parametrize("kind, opening", [
    ("reminder_14d", "Reminder: 14 days without a move; it is still your move."),
    ("reminder_80", "Reminder: it is still your move, and 80% of your time for it is used."),
    ("reminder_24h", "Reminder: it is still your move, and your time runs out within 24 hours."),
])
def test_a_reminder_says_which_reminder_it_is(mailed, kind, opening):
    from chalicelib.notify.email import compose
    from chalicelib.store.records import Message

    services, outbox = mailed
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    view = services.games.story(game["game_id"], 1)
    view["clock"] = {"control": {"per_move_days": 40}, "seats": [
        {"seat": 1, "time_left_seconds": 20 * 3600, "moves": 0, "running": True, "deadline": "2026-11-30T12:00:00Z",
         "paused": False, "paused_by": None},
        {"seat": 2, "time_left_seconds": 40 * 86400, "moves": 0, "running": False, "deadline": None, "paused": False,
         "paused_by": None}]}
    mail = compose(Message(f"msg_{game['game_id']}_0_{kind}_1", "game.reminder", ann.id, {
        "game_id": game["game_id"], "seat": 1, "reminder": kind, "time_left_seconds": 20 * 3600}, "now"),
        services.store.get_player(ann.id), view, LINKS)
    assert first_line(text_of(mail)).startswith(f"{opening} Your clock: 20 hours left (until Nov 30, 2026 12:00 UTC).")


def reach_a_claim(services, game, ann, bob):
    """Both fill the flags from the left until the seat to move could claim a flag (flag 1, once
    both sides are complete): its your-move email, its view."""
    gid, by_seat = game["game_id"], {1: ann, 2: bob}
    for _ in range(20):
        view = services.games.view_for_seat(gid, 1)
        seat = view["to_move"]
        if services.games.view_for_seat(gid, seat)["state"]["claimable"]:
            break
        turn(services, by_seat[seat], gid, seat)
    services.dispatcher.drain_outbox()
    view = services.games.view_for_seat(gid, seat)
    assert view["state"]["claimable"], "no claim came up"
    return seat, view


def test_the_email_gives_the_counts_and_the_flags_you_can_claim(mailed):
    services, outbox = mailed
    ann, bob = players(services)
    game = new_game(services, ann, bob, seed=11)
    seat, view = reach_a_claim(services, game, ann, bob)
    mail = [m for m in outbox.sent if kind_of(m) == "your_turn"][-1]
    text, html = text_of(mail), visible(html_of(mail))
    other = "Bob" if seat == 1 else "Ann"
    flags = view["state"]["claimable"]
    decks = view["state"]["decks"]
    for part in (text, html):
        assert f"Decks: {decks['troop']} troop cards, {decks['tactics']} tactics cards" in part
        assert f"Hands: {'you 7 cards, ' + other if seat == 1 else other + ' 7 cards, you'} 7 cards" in part
        assert f"Tactics played: {'you 0, ' + other if seat == 1 else other + ' 0, you'} 0" in part
        assert f"You can claim flag {flags[0]}" in part
    assert f"Flag {flags[0]} (you can claim it)" in text and "you can claim" in html


# ---------------------------------------------------------------- links: a whole turn in two page loads


def test_a_whole_turn_by_links_takes_two_page_loads_and_shows_the_drawn_card(mailed):
    services, outbox = mailed
    ann, bob = players(services)
    game = new_game(services, ann, bob, seed=11)
    seat, view = reach_a_claim(services, game, ann, bob)
    gid, flag = game["game_id"], view["state"]["claimable"][0]
    mail = [m for m in outbox.sent if kind_of(m) == "your_turn"][-1]
    url, label, at = next(c for c in grid_cells(html_of(mail)) if c[2] != flag)
    token = token_of(url)
    # Load 1: the link's page asks what to claim and which deck to draw from, after the play.
    page = pages.step_link_page(services.mailplay, token, "/v1/links/x")
    html = page.html()
    assert page.status == 200 and page.title == f"{label}?"
    assert re.search(rf'<input type="checkbox" name="claim" value="{flag}" checked', html)
    assert 'name="deck" value="troop" checked' in html and 'name="deck" value="tactics"' in html
    assert services.games.view_for_seat(gid, seat)["version"] == view["version"]  # a GET changes nothing
    # Load 2: its one POST plays the play, the claim and the draw as one action.
    done = pages.play_step_link(services.mailplay, token, {"turn": ["1"], "claim": [str(flag)], "deck": ["troop"]})
    after = services.games.view_for_seat(gid, seat)
    assert done.status == 200 and after["version"] == view["version"] + 1
    assert after["state"]["flags"][flag - 1]["claimed_by"] == seat
    drawn = next(c for c in after["state"]["hand"] if c not in view["state"]["hand"])
    shown = done.html()
    assert f"You drew {drawn} from the troop deck" in done.message
    assert re.search(r"You drew:.*" + re.escape(drawn[:-1]) + r"<span[^>]*>" + drawn[-1], shown)
    assert all(card in visible(shown) for card in after["state"]["hand"])  # the new hand
    other = "Bob" if seat == 1 else "Ann"
    assert f"{other} is to move. We will email you when it is your move." in done.data["notes"]
    assert "won by you" in shown


def test_choices_left_unticked_claim_nothing_and_draw_the_chosen_deck(mailed):
    services, outbox = mailed
    ann, bob = players(services)
    game = new_game(services, ann, bob, seed=11)
    seat, view = reach_a_claim(services, game, ann, bob)
    mail = [m for m in outbox.sent if kind_of(m) == "your_turn"][-1]
    url = grid_cells(html_of(mail))[0][0]
    pages.play_step_link(services.mailplay, token_of(url), {"turn": ["1"], "deck": ["tactics"]})
    events = services.games.list_events(ann if seat == 1 else bob, game["game_id"], 0)["events"]
    last = [e for e in events if e["version"] == view["version"] + 1]
    assert [e["type"] for e in last] == ["play", "claim", "draw"]
    assert last[1]["data"]["flags"] == [] and last[2]["data"]["deck"] == "tactics"


def test_a_step_link_shows_a_page_on_get_and_plays_only_on_post(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    dispatcher.drain_outbox()
    your_move = next(m for m in map(parsed, sent) if kind_of(m) == "your_turn")
    url, label, _ = grid_cells(html_of(your_move))[0]
    token = token_of(url)
    page = pages.step_link_page(services.mailplay, token, "/v1/links/x")
    assert page.status == 200 and page.title == f"{label}?" and page.data["form"]["action"] == "/v1/links/x"
    assert services.games.view_for_seat(game["game_id"], 1)["version"] == 0  # a GET changes nothing
    played = pages.play_step_link(services.mailplay, token)  # without the page's form: its defaults
    assert played.status == 200 and played.title == "Played" and label.replace("Play", "You played") in played.message
    assert services.games.view_for_seat(game["game_id"], 1)["version"] == 1
    again = pages.play_step_link(services.mailplay, token)  # a second click replays, it does not play twice
    assert again.status == 200 and again.title == "This move was already played"
    assert services.games.view_for_seat(game["game_id"], 1)["version"] == 1


def test_the_resign_link_asks_to_confirm_on_its_page(ses_world):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    dispatcher.drain_outbox()
    your_move = next(m for m in map(parsed, sent) if kind_of(m) == "your_turn")
    resign = re.search(r'href="(http://play\.example/v1/links/[^"]+)"[^>]*>Resign this game', html_of(your_move))
    page = pages.step_link_page(services.mailplay, token_of(resign.group(1)), "/x")
    assert page.title == "Resign this game against Bob?" and "cannot be undone" in page.message
    assert page.data["form"]["danger"] and page.data["form"]["button"] == "Yes, resign"
    assert services.games.view_for_seat(game["game_id"], 1)["status"] == "active"


def test_a_used_link_says_when_it_was_played_and_after_the_end_who_won(mailed):
    services, outbox = mailed
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    gid = game["game_id"]
    services.dispatcher.drain_outbox()
    ann_mail = next(m for m in outbox.sent if m["To"] == "ann@example.org" and kind_of(m) == "your_turn")
    cells = grid_cells(html_of(ann_mail))
    used, unused = token_of(cells[0][0]), token_of(cells[1][0])
    pages.play_step_link(services.mailplay, used, {"turn": ["1"], "deck": ["troop"]})
    services.dispatcher.drain_outbox()
    bob_mail = next(m for m in outbox.sent if m["To"] == "bob@example.org" and kind_of(m) == "your_turn")
    bob_token = token_of(grid_cells(html_of(bob_mail))[0][0])
    services.games.post_action(bob, gid, ActionRequest(expected_version=1, steps=[{"type": "resign"}]), None)

    long_after = pages.step_link_page(services.mailplay, used, "/x")
    assert long_after.title == "The game is over" and long_after.message == "You won (resignation)."
    assert long_after.data["notes"][0].startswith("This link was used on ")
    assert cells[0][1].replace("Play", "You played") in long_after.data["notes"][0]
    clicked_again = pages.play_step_link(services.mailplay, used, {"turn": ["1"], "deck": ["troop"]})
    assert clicked_again.title == "The game is over" and clicked_again.message == "You won (resignation)."
    assert clicked_again.data["notes"][0].startswith("Played on ")
    assert "Played:" not in clicked_again.html() and "Played:" not in long_after.html()
    other = pages.play_step_link(services.mailplay, unused)  # made for the same position, never used
    assert other.status == 409 and other.title == "The game is over"
    assert other.data["notes"][0].startswith("This link was not used: you moved otherwise on ")
    bobs = pages.step_link_page(services.mailplay, bob_token, "/x")
    assert bobs.title == "The game is over" and bobs.message == "Ann won (resignation)."


def test_a_stale_tampered_or_expired_link_is_refused(ses_world, monkeypatch):
    services, dispatcher, sent = ses_world
    ann, bob = players(services)
    game = new_game(services, ann, bob)
    dispatcher.drain_outbox()
    your_move = next(m for m in map(parsed, sent) if kind_of(m) == "your_turn")
    links = [url for url, _, _ in grid_cells(html_of(your_move))]
    pages.play_step_link(services.mailplay, token_of(links[0]))
    stale = pages.play_step_link(services.mailplay, token_of(links[1]))  # made for version 0; the game is at 1
    assert stale.status == 409 and stale.title == "The game has moved on" and stale.message == "Bob is to move."
    assert pages.step_link_page(services.mailplay, token_of(links[1]), "/x").status == 409
    tampered = token_of(links[1])[:-3] + "abc"
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


# ---------------------------------------------------------------- transports and unsubscribing


def test_file_mailbox_writes_eml_files(store, tmp_path):
    services = build_services(store, outlets=Outlets(mailer=FileMailbox(tmp_path), links=LINKS))
    ann, bob = players(services)
    new_game(services, ann, bob)
    services.dispatcher.drain_outbox()
    files = sorted(tmp_path.glob("*.eml"))
    assert len(files) == 2  # invited (Bob), your move (Ann: her invitation too)
    kinds = {kind_of(email.message_from_bytes(f.read_bytes(), policy=policy.default)) for f in files}
    assert kinds == {"invited", "your_turn"}


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
    services.games.post_action(ann, game["game_id"], ActionRequest(expected_version=0, steps=[
        step, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]), None)
    dispatcher.drain_outbox()
    assert [parsed(m)["To"] for m in sent[before:]] == ["bob@example.org"]  # Bob's move; Ann hears nothing


def test_a_three_player_email_names_both_opponents_and_each_flags_sides(mailed):
    services, outbox = mailed
    people = [services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Bob", "Cat")]
    game = start_game(services, people[0], CreateGameRequest(game="battleline", options={
        "players": 3, "first_seat": 1}, seats=[PlayerSeat(player_id=p.id) for p in people]), people)
    services.dispatcher.drain_outbox()
    mail = next(m for m in outbox.sent if kind_of(m) == "your_turn")
    assert mail["Subject"] == f"Battle Line with Bob and Cat (game {game['game_id']})"
    text = text_of(mail)
    assert "Flag 1: Bob - | You -" in text and "Flag 4: Bob - | Cat -" in text and "Flag 7: Cat - | You -" in text
    assert grid_cells(html_of(mail))
