"""Issue 36 item 5: games that never began get short emails (no table, no hand): the creator's
"you started a game" while it waits for the others, and a declined challenge's end."""

from __future__ import annotations

from chalicelib.config import build_services
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from tests.notify.helpers import LINKS, Outbox, html_of, kind_of, text_of


def asked_game(store):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Bob"))
    game = services.creation.create_game(ann, CreateGameRequest(game="battleline", options={"first_seat": 1},
                                                                seats=[PlayerSeat(player_id=ann.id),
                                                                       PlayerSeat(player_id=bob.id)]), None).body
    services.dispatcher.drain_outbox()
    return services, outbox, ann, bob, game["game_id"]


def no_board(mail) -> None:
    text, html = text_of(mail), html_of(mail)
    assert "Your hand" not in text + html and "(empty)" not in text and "Flag 1:" not in text, text
    assert "/board?seat=" in text


def test_issue36_item5_the_creator_is_told_the_game_is_made_without_an_empty_hand(store):
    services, outbox, ann, bob, game_id = asked_game(store)
    [started] = [m for m in outbox.sent if m["To"] == "ann@example.org"]
    assert text_of(started).startswith("You started a game of Battle Line against Bob. The game waits for Bob")
    no_board(started)
    assert "- " in text_of(started)  # what the game is (its summary), as the one asked sees it
    asked = next(m for m in outbox.sent if m["To"] == "bob@example.org")
    assert "Your hand" not in text_of(asked)


def test_issue36_item5_a_declined_challenge_ends_in_a_short_email(store):
    services, outbox, ann, bob, game_id = asked_game(store)
    outbox.sent.clear()
    services.lobby.decline(bob, game_id)
    services.dispatcher.drain_outbox()
    finished = [m for m in outbox.sent if kind_of(m) == "finished"]
    assert {m["To"] for m in finished} == {"ann@example.org", "bob@example.org"}
    for mail in finished:
        no_board(mail)
        assert "Deal commitment" not in text_of(mail) and "battleline verify" not in text_of(mail)
    anns = next(m for m in finished if m["To"] == "ann@example.org")
    assert text_of(anns).startswith("Bob declined the game.")
