"""Every command-line test runs with a config file of its own and none of the caller's BATTLELINE_
settings (a developer's key, server or language never reaches a test; a test sets what it needs)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def config(tmp_path, monkeypatch):
    for name in ("BATTLELINE_LANGUAGE", "BATTLELINE_KEY", "BATTLELINE_SERVER", "XDG_CONFIG_HOME", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BATTLELINE_CONFIG", str(tmp_path / "config.json"))
    return tmp_path / "config.json"
