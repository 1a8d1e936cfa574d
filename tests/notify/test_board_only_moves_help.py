"""A your-move email whose moves are too many to list (a tactic's targets: "...and on the board page:
Traitor: 42 ways") says how a reply writes them: the commands, as a refused reply's answer does."""

from __future__ import annotations

import random

from chalicelib.http.models import ActionRequest
from tests.notify.helpers import game_by_mail, kind_of, text_of


def test_an_email_that_leaves_moves_to_the_board_page_says_how_a_reply_writes_them(store):
    services, _inbound, outbox, view, ann, bob = game_by_mail(store, "battleline")
    players, rng, checked = {1: ann, 2: bob}, random.Random(4), 0
    for _turn in range(160):
        services.dispatcher.drain_outbox()
        for mail in outbox.sent:
            text = text_of(mail)
            if kind_of(mail) == "your_turn" and "...and on the board page:" in text:
                checked += 1
                assert "Commands:" in text and "play TRAITOR 3 9B 5" in text and "play DESERTER 3 9B" in text
        outbox.sent.clear()
        seen = services.games.view_for_seat(view["game_id"], 1)
        if seen["status"] != "active":
            break
        seat = seen["to_move"]
        mine = services.games.view_for_seat(view["game_id"], seat)
        step = rng.choice([s for s in mine["legal_steps"] if s["type"] != "resign"])
        services.games.post_action(players[seat], view["game_id"],
                                   ActionRequest(expected_version=mine["version"], steps=[step]), None)
    assert checked, "no email left moves to the board page: play longer or another seed"
