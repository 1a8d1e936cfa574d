"""The example turn an email gives (``show.example``, the command line's too) is one the reader could
reply with now: a draw only from a deck that has cards, and under claim_timing "start" (the claim
comes first) a play of a troop the seat holds into a free slot after it, not a made-up card."""

from __future__ import annotations

import copy

from chalicelib.config import build_services
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.presenting import show
from tests.fakes import start_game


def seat_view(store, **options):
    services = build_services(store)
    people = [services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name), None).body["api_key"]) for name in ("Ann", "Bob")]
    return start_game(services, people[0], CreateGameRequest(
        game="battleline", options={"first_seat": 1, **options}, seed=5,
        seats=[PlayerSeat(player_id=people[0].id), PlayerSeat(player_id=people[1].id)]), people)


def test_the_example_draws_only_from_a_deck_that_has_cards(store):
    view = seat_view(store)
    play = show.example(view)[0]
    assert play.startswith("play ") and show.example(view)[1:] == ["claim none", "draw troop"]
    troops_gone = copy.deepcopy(view)
    troops_gone["state"]["decks"]["troop"] = 0
    assert show.example(troops_gone) == [play, "claim none", "draw tactics"]
    troops_gone["state"]["decks"]["tactics"] = 0
    assert show.example(troops_gone) == [play, "claim none"]


def test_a_claim_first_turn_example_plays_a_troop_the_seat_holds_after_the_claim(store):
    view = seat_view(store, claim_timing="start")
    assert view["phase"] == "claim"
    claim, play, draw = show.example(view)
    _, card, flag = play.split()
    assert claim == "claim none" and draw == "draw troop"
    assert card in view["state"]["hand"] and card[0].isdigit() and 1 <= int(flag) <= 9
