"""`battleline play GAME COMMANDS --message TEXT`: the message goes with the moves' one request."""

from __future__ import annotations

from typer.testing import CliRunner

from battleline_cli import main
from battleline_cli.client import Client, Failure


def test_play_sends_its_message_with_the_moves(monkeypatch):
    sent = []

    class Recording(Client):
        def view(self, game_id):
            return {"game_id": game_id, "game": "battleline", "version": 3, "you": 1, "to_move": 1,
                    "status": "active", "legal_steps": [], "seats": [], "state": {}}

        def call(self, method, path, body=None, *, auth=True):
            sent.append((method, path, body))
            raise Failure("recorded")

    monkeypatch.setattr(main, "Client", Recording)
    result = CliRunner().invoke(main.app, ["play", "g_1", "play", "7R", "3", "-m", "hello there"])
    assert isinstance(result.exception, Failure)  # stopped after the request was recorded
    assert sent == [("POST", "/v1/games/g_1/actions", {"expected_version": 3, "message": "hello there",
                                                       "steps": [{"type": "play", "card": "7R", "flag": 3}]})]
