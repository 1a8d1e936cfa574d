"""devtools/fuzz.py's reading of a schemathesis run: the statuses each operation got (counted by
tests/integration/schemathesis_hooks.py) and the run refused when the fuzz player's key died, so
that most signed-in operations were tested only up to the auth check."""

import subprocess

import yaml

from devtools import fuzz

SIGNED_IN = [op["operationId"] for ops in yaml.safe_load((fuzz.ROOT / "openapi.yaml").read_text())["paths"].values()
             for op in ops.values() if op.get("security")]
OPERATIONS = sum(1 for ops in yaml.safe_load((fuzz.ROOT / "openapi.yaml").read_text())["paths"].values() for _ in ops)
PASSED = subprocess.CompletedProcess([], 0, f"Stateful (in 1s)\n     Scenarios:    3\n  Tested: {OPERATIONS}\n", "")


def write_log(tmp_path, lines):
    (tmp_path / fuzz.STATUS_LOG).write_text("".join(f"{line} 0.25\n" for line in lines))


def test_statuses_counts_each_operations_answers_and_the_table_sums_them(tmp_path):
    write_log(tmp_path, ["getMe 200 -", "getMe 401 unauthorized", "getMe 200 -", "postAction 422 illegal_action"])
    assert fuzz.statuses(tmp_path) == {"getMe": {200: 2, 401: 1}, "postAction": {422: 1}}
    assert fuzz.statuses(tmp_path, by_code=True)["postAction"] == {"422 illegal_action": 1}
    assert fuzz.seconds(tmp_path) == {"getMe": 0.75, "postAction": 0.25}
    table = fuzz.status_table(fuzz.statuses(tmp_path))
    assert "getMe                            3  200:2 401:1" in table
    assert table.splitlines()[-1].split() == ["all", "4", "200:2", "401:1", "422:1"]


def test_a_run_whose_key_died_is_refused(tmp_path):
    """Every signed-in operation answered 401 after a revoked key: the run fails, naming them."""
    write_log(tmp_path, [f"{op} 401 unauthorized" for op in SIGNED_IN] + ["getMe 200 -"])
    found = fuzz.problems(PASSED, tmp_path)
    assert len(found) == 1 and f"{len(SIGNED_IN) - 1} of the {len(SIGNED_IN)} signed-in operations" in found[0]
    assert "listGames" in found[0]


def test_a_run_that_got_past_the_auth_check_is_not_refused(tmp_path):
    """A few operations refused (a 403 on another's object, say) are within the share allowed."""
    refused = int(fuzz.AUTH_ONLY_SHARE * len(SIGNED_IN))
    write_log(tmp_path, [f"{op} {'403 not_seated' if n < refused else '200 -'}" for n, op in enumerate(SIGNED_IN)])
    assert fuzz.problems(PASSED, tmp_path) == []
