"""The text part's list of moves says each as its command, with its sentence in brackets only where the
sentence says more than the command ("claim none   (Claim nothing)", but "pass", not "pass   (Pass)")."""

from __future__ import annotations

from chalicelib.notify.email import render
from chalicelib.presenting import show
from tests.notify.helpers import LINKS, game_by_mail


def test_a_move_whose_sentence_is_its_command_is_not_said_twice(store):
    _services, _inbound, _outbox, view, _ann, _bob = game_by_mail(store, "battleline")
    context = show.letter(view, LINKS)
    context.update(groups=[{"kind": "pass", "links": [
        {"label": "Pass", "command": "pass", "url": "http://play.example/a"},
        {"label": "Claim nothing", "command": "claim none", "url": "http://play.example/b"}]}], left=[],
        unsubscribe_url="http://play.example/u", reply_works=True)
    lines = render("notification.txt", **context).splitlines()
    assert "    pass" in lines and "    claim none   (Claim nothing)" in lines
    assert not any("(Pass)" in line for line in lines)
