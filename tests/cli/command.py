"""The ``battleline`` command run in-process as its console script runs it, for the command line's
tests without a process of its own (the Client each test fakes is patched into ``main``)."""

from __future__ import annotations

import io
import sys

from battleline_cli import main
from chalicelib.kernel import i18n


def run(args: list[str], monkeypatch, capsys, stdin: str = "", env: dict | None = None) -> tuple[int, str, str]:
    """`battleline ARGS` as the console script runs it: its exit status, stdout and stderr."""
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "argv", ["battleline", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        main.run()
        status = 0
    except SystemExit as done:
        status = done.code or 0
    captured = capsys.readouterr()
    assert i18n.language() == "en"  # the command's language ended with it
    return status, captured.out, captured.err
