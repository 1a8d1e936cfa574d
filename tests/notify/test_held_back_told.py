"""A card the seat holds but may not play now is said with the rule that keeps it in hand, under the moves
of its email (both parts) and under the hand on its board page: "Not playable now: Alexander, Scout (you
have played 1 tactics card and your opponent 0: …)". Nothing tells it to the seat not on the move."""

from __future__ import annotations

import random

from chalicelib.http.models import ActionRequest
from chalicelib.pages.board import board_view
from chalicelib.games.battleline.presenter import PRESENTER
from tests.notify.helpers import game_by_mail, html_of, kind_of, text_of


def test_a_held_back_tactics_card_is_said_with_its_rule_in_the_email_and_on_the_board(store):
    services, _inbound, outbox, view, ann, bob = game_by_mail(store, "battleline")
    who, rng, game_id = {1: ann, 2: bob}, random.Random(3), view["game_id"]
    for _ in range(60):  # random legal steps until the seat on the move holds a card it may not play
        seat = services.games.get_game(ann, game_id)["to_move"]
        view = services.games.get_game(who[seat], game_id)
        if PRESENTER.not_playable(view):
            break
        steps = [s for s in view["legal_steps"] if s["type"] != "resign"]
        services.games.post_action(who[seat], game_id, ActionRequest(
            expected_version=view["version"], steps=[rng.choice(steps)]), None)
    else:
        raise AssertionError("no card was held back in 60 steps")
    hand, offered = view["state"]["hand"], {s.get("card") for s in view["legal_steps"]}
    kept = [card for card in hand if card not in offered]
    assert kept and view["state"]["tactics_played"][str(seat)] > view["state"]["tactics_played"][str(3 - seat)]
    line = PRESENTER.not_playable(view)[0]
    assert line.startswith("Not playable now: ") and "tactics card and your opponent 0" in line

    services.dispatcher.drain_outbox()
    to = f"{who[seat].name.lower()}@example.org"
    mail = [m for m in outbox.sent if m["To"] == to and kind_of(m) == "your_turn"][-1]
    assert line in text_of(mail).splitlines()
    assert line in html_of(mail).replace("\n", " ")
    other = [m for m in outbox.sent if m["To"] != to][-1]
    assert "Not playable now" not in text_of(other)

    assert board_view(view, "en")["table"]["held_back"] == [line]
    watcher = services.games.get_game(who[3 - seat], game_id)
    assert board_view(watcher, "en")["table"]["held_back"] == []


def test_the_command_line_says_a_held_back_card_under_its_moves(store):
    from battleline_cli.screens import screen

    services, _inbound, _outbox, view, ann, bob = game_by_mail(store, "battleline")
    who, rng, game_id = {1: ann, 2: bob}, random.Random(3), view["game_id"]
    while not PRESENTER.not_playable(view := services.games.get_game(
            who[services.games.get_game(ann, game_id)["to_move"]], game_id)):
        steps = [s for s in view["legal_steps"] if s["type"] != "resign"]
        services.games.post_action(who[view["you"]], game_id, ActionRequest(
            expected_version=view["version"], steps=[rng.choice(steps)]), None)
    text = " ".join(" ".join(screen(view, [])).split())  # (the command line wraps long lines)
    said = PRESENTER.not_playable(view)[0]
    assert text.count("Not playable now") == 1 and said in text
    assert text.index(said) < text.index("battleline play")
