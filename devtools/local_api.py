"""The API on a local port: Chalice's own local server, with a listen backlog that takes
bursts of concurrent clients (``chalice local`` keeps socketserver's default of 5, which
resets connections under load). Usage: python -m devtools.local_api --port 8000
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from chalice.cli.factory import CLIFactory
from chalice.local import ChaliceRequestHandler, LocalDevServer, ThreadedHTTPServer

from devtools.dynamodb_local import ROOT


class BurstTolerantServer(ThreadedHTTPServer):
    request_queue_size = 128


class RequestHandler(ChaliceRequestHandler):
    """Routes every method, so that an unknown one (TRACE, QUERY...) gets the 405 that API
    Gateway would give rather than http.server's 501 page."""

    def __getattr__(self, name: str):
        if name.startswith("do_"):
            return self._generic_handle
        raise AttributeError(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--stage", default="dev")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(message)s")
    os.environ.setdefault("PUBLIC_URL", f"http://{args.host}:{args.port}")  # links in pages and emails
    config = CLIFactory(str(ROOT)).create_config_obj(chalice_stage_name=args.stage)
    server = LocalDevServer(config.chalice_app, config, args.host, args.port, server_cls=BurstTolerantServer,
                            handler_cls=RequestHandler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
