"""A player's replies to two games are two requests: the same Message-ID (a client that reuses one) or the
same text without one, sent to each game's reply address, plays in each game; a reply is told "Played"
only when its own game moved."""

from __future__ import annotations

from chalicelib.http.models import CreateGameRequest, PlayerSeat
from tests.fakes import start_game
from tests.notify.helpers import LINKS, game_by_mail


def two_games(store):
    services, inbound, outbox, first, ann, bob = game_by_mail(store, "battleline")
    second = start_game(services, ann, CreateGameRequest(game="battleline", options={"first_seat": 1}, seed=6,
                                                         seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                        [ann, bob])
    return services, inbound, first, second


def mail(to: str, text: str, message_id: str | None) -> bytes:
    head = f"From: ann@example.org\r\nTo: {to}\r\nSubject: Re\r\n" + (f"Message-ID: {message_id}\r\n" if message_id else "")
    return (head + "\r\n" + text + "\r\n").encode()


def test_the_same_message_id_to_two_games_plays_in_both(store):
    services, inbound, first, second = two_games(store)
    for game in (first, second):
        result = inbound.handle(mail(LINKS.reply_address(game["game_id"], 1, 0), "resign", "<same@example.org>"))
        assert result.outcome == "applied"
        assert services.games.view_for_seat(game["game_id"], 1)["status"] == "finished"


def test_the_same_text_without_a_message_id_to_two_games_plays_in_both(store):
    services, inbound, first, second = two_games(store)
    for game in (first, second):
        result = inbound.handle(mail(LINKS.reply_address(game["game_id"], 1, 0), "resign", None))
        assert result.outcome == "applied", result.reason
        assert services.games.view_for_seat(game["game_id"], 1)["status"] == "finished"
