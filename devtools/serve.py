"""``make serve``: DynamoDB Local (data under var/), the table, the API on 127.0.0.1, and the
notification worker.

PORT sets the API's port (default 8000); DynamoDB Local takes a free port of its own.
Ctrl-C stops everything this started.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path

from chalicelib.store.schema import LayoutMismatch, check_layout, create_table_if_missing
from devtools.dynamodb_local import ROOT, DynamoDBLocal, port_is_free, server_environment, wait_for_port

TABLE = os.environ.get("TABLE_NAME", "battleline")


def _link_secret(data: Path) -> str:
    """The key that signs email links, made once and kept with the data, so links survive restarts."""
    if os.environ.get("LINK_SECRET"):
        return os.environ["LINK_SECRET"]
    path = data / "link-secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(32))
    return path.read_text().strip()


def _say(line: str) -> None:
    """One line, written whole at once: the API and the worker write to the same terminal, and a
    line written in pieces could run into one of theirs."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    port = int(os.environ.get("PORT", "8000"))
    if not port_is_free(port):
        print(f"port {port} is in use: stop what listens there, or choose another with PORT=...", file=sys.stderr)
        return 1
    # Ctrl-C and `kill` both stop everything, even when started from a shell that ignores SIGINT.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    data = Path(os.environ.get("DATA_DIR", ROOT / "var"))
    db = DynamoDBLocal(db_path=data / "dynamodb")
    _say(f"starting DynamoDB Local on port {db.port} (data in {db.db_path})")
    try:
        db.start()  # stops what it started, whatever stops it
    except KeyboardInterrupt:
        return 0
    except (TimeoutError, RuntimeError) as failed:
        print(f"DynamoDB Local did not start: {failed}", file=sys.stderr)
        return 1
    api: subprocess.Popen | None = None
    worker: subprocess.Popen | None = None
    sweeper: subprocess.Popen | None = None
    try:
        if create_table_if_missing(db.client(), TABLE):
            print(f"created table {TABLE}")
        try:
            check_layout(db.client(), TABLE)
        except LayoutMismatch as mismatch:
            print(f"{mismatch} (data in {db.db_path})", file=sys.stderr)
            return 1
        env = {**server_environment(db.endpoint, TABLE), "MAIL_DIR": str(data / "mail"),
               "LINK_SECRET": _link_secret(data), "PUBLIC_URL": os.environ.get("PUBLIC_URL", f"http://127.0.0.1:{port}")}
        # for make mail-in (a designer's Khan & General card sets too: replies play games that use them)
        shared = ("DYNAMODB_ENDPOINT", "TABLE_NAME", "MAIL_DIR", "LINK_SECRET", "LINK_SECRET_PREVIOUS", "LINK_SECRET_WEBHOOKS",
                  "PUBLIC_URL", "KHAN_CARD_SETS_DIR")
        (data / "serve.env").write_text("".join(f"{name}={env[name]}\n" for name in shared if env.get(name)))
        api = subprocess.Popen([sys.executable, "-m", "devtools.local_api", "--port", str(port)], cwd=ROOT, env=env)
        # The outbox and the schedules in processes of their own, as in AWS: a retry waiting on a slow
        # receiver never holds up the outbox (devtools/worker.py).
        worker = subprocess.Popen([sys.executable, "-m", "devtools.worker", "--only", "outbox"], cwd=ROOT,
                                  env={**env, "STREAM_CHECKPOINT": str(data / "stream-checkpoint.json")})
        sweeper = subprocess.Popen([sys.executable, "-m", "devtools.worker", "--only", "schedules"], cwd=ROOT, env=env)
        wait_for_port(port, process=api, waiting=f"the API to answer on port {port}")
        _say(f"API on http://127.0.0.1:{port} (DynamoDB Local on {db.endpoint}, data in {db.db_path}); "
             f"notification worker running, emails in {data / 'mail'}. Ctrl-C stops them all.")
        return api.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        for process in (worker, sweeper, api):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        db.stop()
        (data / "serve.env").unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
