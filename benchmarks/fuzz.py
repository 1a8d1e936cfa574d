"""schemathesis's long run: the run of tests/integration/test_schemathesis.py (devtools/fuzz.py)
with more examples an operation in its fuzzing phase and the coverage phase's invalid cases too,
against the API as the tests start it
(`chalice local` on DynamoDB Local, the suite's rate limits and 1 s long-polls).

Run: make bench (or python -m benchmarks.fuzz [--examples N])
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from devtools import fuzz
from devtools.dynamodb_local import ROOT, DynamoDBLocal, free_port, server_environment, wait_for_port
from chalicelib.store.schema import create_table_if_missing

# As tests/conftest.py sets them: the fuzzer's thousands of requests from one address stay under the
# rate limits, and a long-poll it asks for waits 1 s.
SUITE_ENVIRONMENT = {"RATE_LIMIT_PER_KEY": "1000000/1", "RATE_LIMIT_SIGNUPS": "1000000/1",
                     "RATE_LIMIT_RECOVERY": "1000000/1", "RATE_LIMIT_RECOVERY_EMAIL": "1000000/1",
                     "RATE_LIMIT_RECOVERY_CODE": "1000000/1", "LONG_POLL_MAX_SECONDS": "1"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=fuzz.BENCH_EXAMPLES, help="an operation, in the fuzzing phase")
    args = parser.parse_args(argv)
    os.environ.update(SUITE_ENVIRONMENT)
    with DynamoDBLocal() as ddb, tempfile.TemporaryDirectory(prefix="fuzz-bench-") as work:
        table = "fuzz-bench"
        create_table_if_missing(ddb.client(), table)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "devtools.local_api", "--port", str(port)], cwd=ROOT,
            env={**server_environment(ddb.endpoint, table), "PUBLIC_URL": f"http://127.0.0.1:{port}"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port, process=server)
            started = time.monotonic()
            done = fuzz.run(f"http://127.0.0.1:{port}", Path(work), args.examples, timeout=3600,
                            coverage=fuzz.BENCH_COVERAGE, coverage_skipped=())
            seconds = time.monotonic() - started
            found = fuzz.problems(done, Path(work))
            counts = fuzz.statuses(Path(work))
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"schemathesis, {args.examples} examples an operation: {seconds:.0f} s")
    print("\n".join(line for line in done.stdout.splitlines() if line.strip().startswith(("✅", "❌", "Tested"))))
    print("Statuses by operation:\n" + fuzz.status_table(counts))
    if found:
        raise SystemExit("\n".join(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
