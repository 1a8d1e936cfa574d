"""``make mail-in < message.eml``: hand a raw email to the play-by-email handler, as SES does
in AWS. The answer goes to the file mailbox (or SMTP_URL), like every other email."""

from __future__ import annotations

import sys

from chalicelib import config


def main() -> int:
    result = config.inbound().handle(sys.stdin.buffer.read())
    print(f"{result.outcome}: {result.reason}")
    return 0 if result.outcome != "ignored" else 1


if __name__ == "__main__":
    sys.exit(main())
