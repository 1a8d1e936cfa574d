"""`battleline playtest FILE`: the playtest lab from the command line, with no server and no key
needed (a key in the environment does not make it ask a server for the player's language), a
refused card-set file named with its problems (exit 1), and its messages in the language asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from battleline_cli import main
from battleline_cli.client import Client

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FILE = ROOT / "chalicelib/games/khan/cardsets/khan-default.v1.json"
SHORT = ["--games", "2", "--bot", "random", "--max-rounds", "3", "--workers", "1"]


@pytest.fixture(autouse=True)
def no_server(tmp_path, monkeypatch):
    """A key and a server in the environment, and any request to it a failure of the test."""
    for name in ("BATTLELINE_LANGUAGE", "XDG_CONFIG_HOME", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BATTLELINE_CONFIG", str(tmp_path / "config.json"))
    monkeypatch.setenv("BATTLELINE_KEY", "k_not_a_real_key")
    monkeypatch.setenv("BATTLELINE_SERVER", "http://127.0.0.1:9")

    def refuse(*args, **kwargs):
        raise AssertionError("playtest asked the server")
    monkeypatch.setattr(Client, "call", refuse)


def test_playtest_runs_without_a_server_and_writes_the_report(tmp_path):
    out = tmp_path / "report"
    result = CliRunner().invoke(main.app, ["playtest", str(DEFAULT_FILE), *SHORT, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "expected run time: about" in result.output
    assert "2 of 2 games played" in result.output
    assert f"the report: {out / 'report.html'}" in result.output
    assert "random against random" in (out / "report.md").read_text()
    assert (out / "report.html").read_text().startswith("<!doctype html>")


def test_a_refused_card_set_file_exits_1_and_names_the_problem(tmp_path):
    data = json.loads(DEFAULT_FILE.read_text())
    data["id"] = "mine"
    data["recommended"]["khan"] = data["recommended"]["khan"][:-1]
    broken = tmp_path / "mine.json"
    broken.write_text(json.dumps(data))
    result = CliRunner().invoke(main.app, ["playtest", str(broken), *SHORT, "--out", str(tmp_path / "r")])
    assert result.exit_code == 1
    assert "mine.json: refused" in result.output
    assert "recommended[khan]: a deck has exactly 10 command cards, not 9" in result.output
    assert not (tmp_path / "r").exists()


def test_playtest_speaks_the_language_asked(tmp_path):
    result = CliRunner().invoke(main.app, ["--language", "ja", "playtest", str(DEFAULT_FILE), *SHORT,
                                           "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert "expected run time" not in result.output and "予想" in result.output


def test_a_card_set_with_warnings_is_played_and_its_warnings_are_said_first_and_kept_in_the_report(tmp_path):
    data = json.loads(DEFAULT_FILE.read_text())
    data["id"] = "mine"
    next(c for c in data["commands"] if c["id"] == "push_of_pike")["units"] = "all"  # archers take a melee card
    warned = tmp_path / "mine.json"
    warned.write_text(json.dumps(data))
    result = CliRunner().invoke(main.app, ["playtest", str(warned), *SHORT, "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    warning = "warning: commands[push_of_pike].units: archers may take this melee attack but cannot make it"
    assert result.output.startswith(warning)
    assert warning in (tmp_path / "r" / "report.md").read_text()
