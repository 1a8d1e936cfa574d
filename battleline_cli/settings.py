"""What the command line keeps between runs, and how wide its text is on a terminal.

The player's ``language`` preference lives on the server (getPreferences); the command line keeps a
copy in its config file, so that a command costs no extra request to know which language to speak.
The copy is per server and per API key (the key itself is never written: a hash of it names the
entry). ``battleline language`` reads the preference from the server again and ``battleline
language CODE`` sets it there; both refresh the copy. ``--language`` or ``BATTLELINE_LANGUAGE``
overrides it for one run.

It keeps the API key ``battleline signup`` made too, per server, so that the next command works
without an export line; ``--key`` or ``BATTLELINE_KEY`` overrides it. Holding a key, the file is
written readable by its owner only (mode 0600).

The file is ``$BATTLELINE_CONFIG``, else ``$XDG_CONFIG_HOME/battleline/config.json`` (by default
``~/.config/battleline/config.json``).
"""

from __future__ import annotations

import hashlib
import json
import os
import unicodedata
from pathlib import Path

from chalicelib.kernel import i18n
from chalicelib.games.terminal import aside, columns, pad, right, row  # noqa: F401 - the CLI's, shared with the games' parts


def config_path() -> Path:
    if os.environ.get("BATTLELINE_CONFIG"):
        return Path(os.environ["BATTLELINE_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "battleline/config.json"  # the program's own folder


def _read() -> dict:
    try:
        found = json.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _entry(server: str, key: str) -> str:
    return server.rstrip("/") + " " + hashlib.sha256(key.encode()).hexdigest()[:16]


def cached_language(server: str, key: str | None) -> str | None:
    """The player's language as last read from (or set on) the server, or None."""
    if not key:
        return None
    found = (_read().get("languages") or {}).get(_entry(server, key))
    return found if found in i18n.LANGUAGES else None


def cache_language(server: str, key: str | None, language: str) -> None:
    """Keep the player's language for the next runs (a config file that cannot be written is no error:
    the next run asks the server again)."""
    if not key:
        return
    config = _read()
    config.setdefault("languages", {})[_entry(server, key)] = language
    try:
        _write(config)
    except OSError:
        pass


def _write(config: dict) -> Path:
    """The config file written whole, readable and writable by its owner only (it may hold an API key):
    a new file is made with mode 0600 (never readable by others, not even for a moment), an old one
    is set to it."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(config, indent=2, sort_keys=True) + "\n"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    return path


def saved_key(server: str) -> str | None:
    """The API key ``battleline signup`` kept for this server, or None."""
    found = (_read().get("keys") or {}).get(server.rstrip("/"))
    return found if isinstance(found, str) and found else None


def save_key(server: str, key: str) -> Path:
    """Keep ``key`` as this server's key for the next runs; the file's path (OSError if it cannot be
    written)."""
    config = _read()
    config.setdefault("keys", {})[server.rstrip("/")] = key
    return _write(config)


def language_code(asked: str) -> str | None:
    """One of our languages from what a person types: en, zh-Hans, ja, vi, and the tags they are known
    by too (zh, zh-CN, zh_Hans, ja-JP, vi-VN, EN); None for any other."""
    tag = asked.strip().replace("_", "-")
    for code in i18n.LANGUAGES:
        if tag.lower() == code.lower():
            return code
    found = i18n.negotiate(tag)
    if found != i18n.DEFAULT or tag.lower().split("-")[0] == "en":
        return found
    return None


# ---------------------------------------------------------------- terminal columns

def _pieces(text: str) -> list[str]:
    """``text`` cut where a line may break: at spaces (kept with the word before them) and before or
    after a wide character (Chinese and Japanese are written without spaces)."""
    pieces: list[str] = []
    for ch in text:
        wide = unicodedata.east_asian_width(ch) in "WF"
        if not pieces or wide or pieces[-1].endswith(" ") or _wide_end(pieces[-1]):
            if pieces and not wide and ch == " ":
                pieces[-1] += ch  # a space stays at the end of its word
                continue
            if pieces and wide and ch in "、。，．：；！？）」』】" and not pieces[-1].endswith(" "):
                pieces[-1] += ch  # no line begins with a closing mark
                continue
            pieces.append(ch)
        else:
            pieces[-1] += ch
    return pieces


def _wide_end(piece: str) -> bool:
    return bool(piece) and unicodedata.east_asian_width(piece[-1]) in "WF"


def wrap(text: str, width: int, initial: str = "", subsequent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns (a word longer than a line stays whole),
    as ``textwrap.wrap`` does for English, breaking Chinese and Japanese between characters too."""
    lines: list[str] = []
    line = initial
    for piece in _pieces(" ".join(text.split())):
        if columns((line + piece).rstrip()) > width and line.strip():
            lines.append(line.rstrip())
            line = subsequent + piece.lstrip()
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines
