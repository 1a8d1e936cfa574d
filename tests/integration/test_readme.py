"""The README's first game with curl, run as written against a live server."""

import re
import subprocess

import pytest

from devtools.dynamodb_local import ROOT

pytestmark = pytest.mark.integration


def walkthrough() -> tuple[str, list[str]]:
    text = (ROOT / "README.md").read_text()
    start = text.index("## A first game with curl")
    section = text[start:text.index("\n## ", start)]  # up to the next section
    script = "".join(re.findall(r"```sh\n(.*?)```", section, re.S))  # Battle Line, then Khan & General
    expected, previous = [], ""
    for line in script.splitlines():
        if line.startswith("# ") and previous and not previous.startswith("#"):
            expected.append(line[2:])
        previous = line
    return script, expected


def test_readme_first_game_works_as_written(live_server):
    script, expected = walkthrough()
    assert len(expected) >= 6
    script = script.replace("API=http://127.0.0.1:8000", f"API={live_server.url}")
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == expected
