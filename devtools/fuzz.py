"""schemathesis against a running API: no 5xx, and every response matches openapi.yaml.

One run, two lengths: ``make test`` runs it short (tests/integration/test_schemathesis.py, a few
examples an operation in the fuzzing phase), ``make bench`` runs it long (benchmarks/fuzz.py); the
examples, coverage and stateful phases, the checks and the data are the same.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import requests
import yaml

ROOT = Path(__file__).resolve().parents[1]
# Every check schemathesis has (among them: 405 with Allow for a method a path does not take,
# ignored auth, use after delete, schema-invalid data refused), and ours.
CHECKS = "all,errors_are_problem_json"  # tests/integration/schemathesis_hooks.py
# A schema-valid request may still be refused by a rule no schema can state: a link's
# signature (400, 410), a game's seat count, a Khan step sent to a Battle Line game, the
# vacation days left, a deck's legality, a reused Idempotency-Key (422). Those answers are
# documented problems; any other status for valid data still fails the run.
POSITIVE_DATA_STATUSES = ["2xx", "3xx", "400", "401", "403", "404", "409", "410", "422", "429", "5xx"]
TEST_EXAMPLES = 15  # an operation, in the fuzzing phase, in make test
BENCH_EXAMPLES = 40  # in make bench


def run(url: str, workdir: Path, max_examples: int, timeout: float = 540) -> subprocess.CompletedProcess:
    """schemathesis's whole run against ``url`` (its report in ``workdir``/schemathesis.txt)."""
    ann = requests.post(f"{url}/v1/players", json={"name": "Fuzz"}, timeout=10).json()
    bob = requests.post(f"{url}/v1/players", json={"name": "Buzz"}, timeout=10).json()
    game = requests.post(f"{url}/v1/games", headers={"Authorization": f"Bearer {ann['api_key']}"}, timeout=10,
                         json={"game": "battleline", "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}).json()
    # A real game and real players, so that generated requests reach the game logic, not only 404s.
    config = workdir / "schemathesis.toml"
    config.write_text(
        f'headers = {{ Authorization = "Bearer {ann["api_key"]}" }}\n'
        f'[parameters]\n"path.game_id" = "{game["game_id"]}"\n'
        '[generation]\nallow-x00 = false\n'
        f'[checks.positive_data_acceptance]\nexpected-statuses = {json.dumps(POSITIVE_DATA_STATUSES)}\n'
    )
    schemathesis = Path(sys.executable).with_name("schemathesis")
    done = subprocess.run(
        [str(schemathesis), "--config-file", str(config), "run", str(ROOT / "openapi.yaml"), "--url", url,
         "--checks", CHECKS, "--max-examples", str(max_examples), "--phases", "examples,coverage,fuzzing,stateful",
         # One worker: with threads, CPython 3.11 can raise a spurious "AST constructor recursion depth
         # mismatch" inside schemathesis (CPython gh-106905), failing the run for no fault of the API.
         "--seed", "20261121", "--no-color", "--generation-database", "none", "--workers", "1"],
        capture_output=True, text=True, timeout=timeout, cwd=workdir,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT),
             "SCHEMATHESIS_HOOKS": "tests.integration.schemathesis_hooks"},
    )
    (workdir / "schemathesis.txt").write_text(done.stdout)  # the whole report
    return done


def problems(done: subprocess.CompletedProcess) -> list[str]:
    """What is wrong with a run: a failed check, an operation of openapi.yaml not exercised, no
    chained (stateful) calls."""
    found = []
    if done.returncode != 0:
        found.append(done.stdout[-6000:] + done.stderr[-2000:])
    operations = sum(len(ops) for ops in yaml.safe_load((ROOT / "openapi.yaml").read_text())["paths"].values())
    if f"Tested: {operations}" not in done.stdout:
        found.append(f"not every one of the {operations} operations was exercised")
    if not re.search(r"Stateful .*\n\s*Scenarios:\s+[1-9]", done.stdout):
        found.append("no stateful scenario ran: " + done.stdout[-3000:])
    return found
