"""Issue 36 item 7: ``battleline signup`` keeps the key it prints in the CLI's config file (mode 0600),
says where, and the next command works with no export line; ``--key`` and ``BATTLELINE_KEY`` still
override the saved key."""

from __future__ import annotations

import stat

import pytest

from battleline_cli import main
from battleline_cli.client import Client, Failure
from .command import run


@pytest.fixture(autouse=True)
def config(tmp_path, monkeypatch):
    for name in ("BATTLELINE_KEY", "BATTLELINE_LANGUAGE", "BATTLELINE_SERVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BATTLELINE_CONFIG", str(tmp_path / "battleline" / "config.json"))
    return tmp_path / "battleline" / "config.json"


@pytest.fixture
def keys_used(monkeypatch):
    """A server that signs up players (key_1, key_2, ...) and answers listGames, recording the key
    each signed-in request came with."""
    used: list[str] = []
    made: list[str] = []

    class Recorded(Client):
        def call(self, method, path, body=None, *, auth=True):
            if method == "POST" and path == "/v1/players":
                made.append(f"bl_key_{len(made) + 1}")
                return {"id": f"p_{len(made)}", "name": body["name"], "api_key": made[-1]}
            if auth and not self.key:
                raise Failure("no API key")
            if path == "/v1/players/me/preferences":
                return {"language": "en"}
            used.append(self.key)
            return {"games": []}

    monkeypatch.setattr(main, "Client", Recorded)
    return used


def test_item_7_signup_keeps_the_key_and_the_next_command_works_without_an_export(keys_used, config, monkeypatch,
                                                                                     capsys):
    status, out, _err = run(["signup", "Ann"], monkeypatch, capsys)
    assert status == 0
    assert "bl_key_1" in out and str(config) in out  # the key shown, and where it was saved
    assert "export BATTLELINE_KEY" not in out  # nothing to copy
    assert stat.S_IMODE(config.stat().st_mode) == 0o600  # a key: readable by its owner only
    status, out, err = run(["games"], monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert "no games" in out and keys_used == ["bl_key_1"]


def test_item_7_the_key_option_and_the_environment_override_the_saved_key(keys_used, monkeypatch, capsys):
    run(["signup", "Ann"], monkeypatch, capsys)
    run(["--key", "bl_given", "games"], monkeypatch, capsys)
    monkeypatch.setenv("BATTLELINE_KEY", "bl_from_env")
    run(["games"], monkeypatch, capsys)
    run(["--key", "bl_given", "games"], monkeypatch, capsys)  # the option over the environment
    monkeypatch.delenv("BATTLELINE_KEY")
    run(["games"], monkeypatch, capsys)
    assert keys_used == ["bl_given", "bl_from_env", "bl_given", "bl_key_1"]


def test_item_7_the_key_is_kept_per_server_and_a_new_signup_replaces_it(keys_used, monkeypatch, capsys):
    run(["signup", "Ann"], monkeypatch, capsys)
    status, _out, err = run(["--server", "http://elsewhere:8000", "games"], monkeypatch, capsys)
    assert status == 1 and "no API key" in err  # another server's key is not sent here
    run(["signup", "Bob"], monkeypatch, capsys)
    run(["games"], monkeypatch, capsys)
    assert keys_used == ["bl_key_2"]


def test_item_7_an_old_config_file_is_made_private_when_the_key_is_saved(keys_used, config, monkeypatch, capsys):
    config.parent.mkdir(parents=True)
    config.write_text('{"languages": {}}\n')
    config.chmod(0o644)
    run(["signup", "Ann"], monkeypatch, capsys)
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
