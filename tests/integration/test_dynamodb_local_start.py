"""DynamoDB Local's start (devtools/dynamodb_local.py; issue 37, item 2): whatever stops it midway,
the Java process it started does not outlive it (left running, it holds var/dynamodb and its port,
and the next `make serve` fails too), and a slow start says that it is waiting."""

from __future__ import annotations

import os
import time

import pytest

from devtools import dynamodb_local
from devtools.dynamodb_local import DynamoDBLocal

pytestmark = pytest.mark.integration


def java_processes_on(port: int) -> list[int]:
    """The Java processes whose command line names ``-port <port>``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                args = cmdline.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        if args and os.path.basename(args[0]) == "java" and "-port" in args and \
                args[args.index("-port") + 1:args.index("-port") + 2] == [str(port)]:
            found.append(int(entry))
    return found


def test_item2_a_start_that_times_out_leaves_no_java_process(tmp_path):
    ddb = DynamoDBLocal(db_path=tmp_path / "dynamodb", timeout=0.05)  # Java cannot answer that fast
    with pytest.raises(TimeoutError):
        ddb.start()
    assert ddb.process is None
    assert java_processes_on(ddb.port) == []


def test_item2_a_start_interrupted_midway_leaves_no_java_process(tmp_path, monkeypatch):
    """Ctrl-C (or make serve's SIGTERM) while Java starts: the process is stopped, the interrupt
    goes on."""
    started = []

    def interrupted(port, **kwargs):
        started.append(kwargs["process"].pid)
        deadline = time.monotonic() + 30
        while not java_processes_on(port) and time.monotonic() < deadline:  # Java is running (exec done)
            time.sleep(0.05)
        assert java_processes_on(port) == started
        raise KeyboardInterrupt

    monkeypatch.setattr(dynamodb_local, "wait_for_port", interrupted)
    ddb = DynamoDBLocal(db_path=tmp_path / "dynamodb")
    with pytest.raises(KeyboardInterrupt):
        ddb.start()
    assert started and java_processes_on(ddb.port) == []
    assert not os.path.exists(f"/proc/{started[0]}")  # stopped and reaped


def test_item2_a_slow_start_says_it_is_waiting(capsys):
    """No fixed minute of silence: every few seconds, a line on stderr says what is awaited."""
    before = time.monotonic()
    with pytest.raises(TimeoutError):
        dynamodb_local.wait_for_port(dynamodb_local.free_port(), timeout=0.5, waiting="nothing at all", every=0.1)
    assert time.monotonic() - before < 5
    assert "still waiting for nothing at all" in capsys.readouterr().err
