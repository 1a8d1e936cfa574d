"""`battleline me`: who you are, your vacation days and a line per rating, each pool named as a
player reads it (a card set other than the game's own by its id, never the raw `<game>:<set>` key);
and a usage mistake answered with the command's usage."""

from __future__ import annotations

import pytest

from battleline_cli import main
from battleline_cli.client import Client

from .command import run

ME = {"id": "p_1", "name": "Ann", "vacation": {"days_left": 30},
      "ratings": {"battleline": {"rating": 1612.4, "rd": 80.0, "provisional": False},
                  "khan": {"rating": 1500.0, "rd": 350.0, "provisional": True},
                  "khan:desert-raid": {"rating": 1540.2, "rd": 290.1, "provisional": True}}}


@pytest.fixture(autouse=True)
def server(monkeypatch):
    class Answered(Client):
        def call(self, method, path, body=None, *, auth=True):
            assert (method, path) == ("GET", "/v1/players/me")
            return ME

    monkeypatch.setattr(main, "Client", Answered)


def test_me_names_each_rating_pool_by_its_game_and_card_set(monkeypatch, capsys):
    status, out, _err = run(["--key", "k", "--language", "en", "me"], monkeypatch, capsys)
    assert status == 0
    assert out.splitlines() == ["Ann (p_1); vacation days left: 30",
                                "  Battle Line: 1,612.4 (RD 80.0)",
                                "  Khan & General: 1,500.0 (RD 350.0, provisional)",
                                "  Khan & General, card set desert-raid: 1,540.2 (RD 290.1, provisional)"]


def test_me_names_a_card_set_in_the_players_language(monkeypatch, capsys):
    _status, out, _err = run(["--key", "k", "--language", "ja", "me"], monkeypatch, capsys)
    assert "カードセット desert-raid" in out and "khan:" not in out


@pytest.mark.parametrize("args, said", [(["play"], "Missing argument 'game_id'"),
                                        (["withdraw", "t_1"], "No such command 'withdraw'"),
                                        (["--badopt", "me"], "No such option: --badopt")])
def test_a_usage_mistake_is_answered_with_the_usage_not_something_went_wrong(monkeypatch, capsys, args, said):
    status, _out, err = run(["--key", "k", "--language", "en", *args], monkeypatch, capsys)
    assert status == 2 and "Usage: battleline" in err and said in err and "something went wrong" not in err
