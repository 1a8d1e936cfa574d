"""`battleline play` of a Khan & General turn that ends an action and then goes on: the end of the action
gives the opponent its reaction, so the first commands are played and the command line says which wait for
the player's next decision, as an email reply's answer does (it printed "it is not your decision now" and
played nothing)."""

from __future__ import annotations

import random

from battleline_cli import main
from battleline_cli.client import Client, Failure

from .command import run


def test_a_turn_that_opens_the_opponents_reaction_is_played_up_to_it(api, monkeypatch, capsys):
    class Served(Client):
        def call(self, method, path, body=None, *, auth=True):
            reply = api.request(method, path, body, key=self.key if auth else None)
            if reply.status >= 400:
                raise Failure(f"{reply.body.get('detail')} ({reply.body['code']})", problem=reply.body)
            return reply.body

    monkeypatch.setattr(main, "Client", Served)
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], game="khan", options={"first_seat": 1})
    gid, rng, seats = game["game_id"], random.Random(1), {1: ann, 2: bob}
    for _ in range(300):
        view = api.view(ann, gid)
        seat = view["to_move"]
        now = api.view(seats[seat], gid)
        if seat == 1 and any(s["type"] == "end_action" for s in now["legal_steps"]):
            status, out, err = run(["--key", ann["api_key"], "play", gid, "end action", "end turn", "--wait", "0"],
                                   monkeypatch, capsys)
            assert status == 0, err
            if "Not played yet" in out:
                break
            continue
        steps = [s for s in now["legal_steps"] if s["type"] not in ("resign", "offer_draw")]
        assert api.act(seats[seat], gid, now["version"], rng.choice(steps)).status == 200
    else:
        raise AssertionError("no action of Ann's opened a reaction window")
    assert "Not played yet: end turn: Bob may answer first" in " ".join(out.split())
    after = api.view(ann, gid)
    assert after["version"] == now["version"] + 1 and after["to_move"] == 2
