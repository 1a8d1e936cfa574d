"""The local worker (`make serve` starts it beside the API): reads the table's stream (the outbox),
makes due webhook attempts and sweeps the clocks, as the stream consumer and the two schedules
do in AWS.

``--only outbox`` or ``--only schedules`` runs one side: `make serve` starts one process of each,
as AWS runs them in functions of their own, so a retry that waits on a slow receiver (10 s) never
holds up the outbox, nor a change's first attempts the sweeps. Without it, one process does both
(the live long-poll test)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time

from chalicelib import config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.worker")
    parser.add_argument("--only", choices=("outbox", "schedules"), help="run one side (default: both)")
    only = parser.parse_args(argv).only
    outbox, schedules = only in (None, "outbox"), only in (None, "schedules")
    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format=f"{only or 'worker'}: %(message)s")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    services = config.services()
    dispatcher = services.dispatcher
    # WORKER_INTERVAL_SECONDS: the pause between two rounds (0.25 s; the live long-poll test lowers it,
    # so that the "my move" lists follow each move sooner)
    interval = float(os.environ.get("WORKER_INTERVAL_SECONDS") or 0.25)
    # WORKER_SWEEP_SECONDS: how often the schedules' work runs (due retries, the clocks' and the ladders'
    # sweeps; 2 s). In AWS they run once a minute; each round queries every shard of their index, so
    # running them at the outbox's pace kept an idle `make serve` and its DynamoDB Local busy.
    sweep_every = float(os.environ.get("WORKER_SWEEP_SECONDS") or 2.0)
    swept = float("-inf")
    try:
        while True:
            try:
                if outbox:
                    dispatcher.drain_outbox()
                if schedules and time.monotonic() - swept >= sweep_every:
                    swept = time.monotonic()
                    dispatcher.run_due()
                    services.clocks.sweep_clocks()
                    services.ladders.sweep()
            except Exception:  # keep serving; the outbox keeps what was not done
                logging.exception("dispatch failed; retrying")
            time.sleep(interval)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
