"""schemathesis against the running app: no 5xx, and every response matches openapi.yaml.

The run is devtools/fuzz.py's, short: its fuzzing phase tries fewer examples an operation than
``make bench``'s (benchmarks/fuzz.py), and its coverage phase sends the valid cases only, and none
of playOnBoard's, whose step is postAction's (the rest are ``make bench``'s;
tests/api/test_hostile_requests.py sends every operation invalid data); the examples and stateful
phases are whole."""

import pytest

from devtools import fuzz

pytestmark = pytest.mark.integration


def test_schemathesis_finds_no_server_error_and_no_schema_mismatch(live_server, tmp_path):
    done = fuzz.run(live_server.url, tmp_path, fuzz.TEST_EXAMPLES)  # the report is kept with pytest's tmp dirs
    found = fuzz.problems(done, tmp_path)
    assert not found, "\n".join(found)
