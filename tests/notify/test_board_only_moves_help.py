"""A your-move email whose moves are too many to list (a tactic's targets, Khan & General's
deployments) gives, for each kind left to the board page, one of its moves as a reply writes it
("...and on the board page: Traitor: 42 choices (e.g. play TRAITOR 3 9B 5)"): a move the seat can
make now, so a reply need not guess the form."""

from __future__ import annotations

import random
import re

import pytest

from chalicelib.http.models import ActionRequest
from chalicelib.kernel import i18n
from chalicelib.presenting import show
from tests.notify.helpers import game_by_mail, kind_of, text_of


def test_each_kind_left_to_the_board_page_comes_with_one_of_its_moves_as_a_reply_writes_it(store):
    services, _inbound, outbox, view, ann, bob = game_by_mail(store, "battleline")
    players, rng, checked = {1: ann, 2: bob}, random.Random(4), 0
    for _turn in range(160):
        services.dispatcher.drain_outbox()
        for mail in outbox.sent:
            if kind_of(mail) != "your_turn":
                continue
            seat = 1 if mail["To"] == "ann@example.org" else 2
            mine = services.games.view_for_seat(view["game_id"], seat)
            for left in re.findall(r"\.\.\.and on the board page: (.*)", text_of(mail)):
                checked += 1
                example = re.fullmatch(r".*: \d+ choices \(e\.g\. (.+)\)", left)
                assert example, left
                assert show.PRESENTERS["battleline"].steps.read_line(example.group(1)) in mine["legal_steps"]
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


@pytest.mark.parametrize("language", ["zh-Hans", "ja", "vi"])
def test_every_kind_of_step_an_email_leaves_to_the_board_page_is_named_in_the_readers_language(language):
    """Each step type of each game is counted by its step table's name for such steps, translated: not
    its type's id in English ("Command: 13 choices" in a Japanese email)."""
    for game in ("battleline", "khan"):
        for name in show.PRESENTERS[game].steps.names():
            english = i18n.in_language("en", lambda: show.kind_name({"game": game}, name))
            said = i18n.in_language(language, lambda: show.kind_name({"game": game}, name))
            assert said != english and "_" not in said, (game, name, said)
    commands = [{"type": "command", "card": "charge", "at": {"x": x, "y": 0}, "sequence": 1} for x in range(13)]
    view = {"game": "khan", "status": "active", "to_move": 1, "you": 1, "legal_steps": commands}
    with i18n.speaking(language):
        _found, left = show.groups(view, lambda step: "")
        kind = show.PRESENTERS["khan"].steps["command"].kind
    assert len(left) == 1 and not left[0].startswith(("Command", "Commands")) and kind == "commands"
    assert i18n.in_language("en", lambda: show.groups(view, lambda step: ""))[1] == [
        "Commands: 13 choices (e.g. command charge 0 0 seq 1)"]
