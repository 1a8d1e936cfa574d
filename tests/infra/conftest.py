"""Building the stack in-process packages the app with Chalice, which loads app.py with the
stage's environment variables set in this process (MAIL_TRANSPORT, TABLE_NAME...): each module
gets the environment back as it was, so no later test runs with a stack's settings.

``make_synth`` is ``make synth``'s output for a public launch, made once for the whole run and
read by test_stack.py and test_nag.py (issue 35: make test's 10 minutes): under pytest-xdist the
workers share it through the run's base temporary folder, the first to need it making it while the
other waits on a file lock."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from infra import checks

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def environment_restored():
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture(scope="session")
def make_synth(tmp_path_factory, worker_id) -> Path:
    """infra/app.py run as ``make synth`` runs it, for infra/checks.py's launch (cdk.json's defaults
    with a mail domain, an alarm email and a public URL): the folder of its template and assets."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # each worker's base folder is in the run's own
        shared = shared.parent
    out = shared / "make-synth.cdk.out"
    with open(shared / "make-synth.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not out.exists():
            partial = shared / "make-synth.partial"
            shutil.rmtree(partial, ignore_errors=True)
            env = {**os.environ, "CDK_OUTDIR": str(partial), "AWS_DEFAULT_REGION": checks.REGION,
                   "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20"}
            run = subprocess.run([sys.executable, "infra/app.py", *(f"{k}={v}" for k, v in checks.CONTEXT.items())],
                                 cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
            assert run.returncode == 0, run.stderr[-3000:]
            partial.rename(out)  # whole or not at all: a failed synth is not read by the next module
    return out
