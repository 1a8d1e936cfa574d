"""`battleline join TOURNAMENT` says the event joined and how many are in it, as a sentence with the
count's own plural ("1 player", "3 players"), in the reader's language."""

from __future__ import annotations

import pytest

from battleline_cli import main
from battleline_cli.client import Client

from .command import run


@pytest.fixture
def joined(monkeypatch):
    entrants = []

    class Answered(Client):
        def call(self, method, path, body=None, *, auth=True):
            assert (method, path) == ("POST", "/v1/tournaments/t_1/join")
            entrants.append({"player_id": f"p_{len(entrants)}"})
            return {"id": "t_1", "name": "Winter Swiss", "players": list(entrants)}

    monkeypatch.setattr(main, "Client", Answered)


def test_joining_says_how_many_are_in_with_the_counts_plural(joined, monkeypatch, capsys):
    said = [run(["--key", "k", "--language", language, "join", "t_1"], monkeypatch, capsys)[1].strip()
            for language in ("en", "en", "ja")]
    assert said == ["You are in Winter Swiss (1 player so far).", "You are in Winter Swiss (2 players so far).",
                    "Winter Swissに参加しました（現在3人）。"]
