"""Run devtools.mail_in against the DynamoDB Local that `make serve` is running: its
endpoint and link secret are read from the data directory (DATA_DIR, default var/)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from devtools.dynamodb_local import LOCAL_CREDENTIALS, ROOT


def main() -> int:
    data = Path(os.environ.get("DATA_DIR", ROOT / "var"))
    state = data / "serve.env"
    if not state.exists():
        print("make serve is not running (no var/serve.env): start it first", file=sys.stderr)
        return 2
    for line in state.read_text().splitlines():
        name, _, value = line.partition("=")
        os.environ.setdefault(name, value)
    os.environ.update({k: v for k, v in LOCAL_CREDENTIALS.items() if k not in os.environ})
    from devtools import mail_in

    return mail_in.main()


if __name__ == "__main__":
    sys.exit(main())
