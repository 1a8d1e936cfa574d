"""Screenshots of answering a game by email, in docs/screenshots/: the email Bob gets when Ann
asks him to play, the page his Accept link opens, and his board while the game waits for him. At a
desktop's 1280x900 and a phone's 390x844, in Debian's Chromium (as devtools/board_screenshots.py).

Made in-process (moto stands in for DynamoDB; no server needed): the pages are rendered as the
server renders them and shown to the browser as they are.

Run: python -m devtools.answer_screenshots
"""

from __future__ import annotations

import os
import re
import sys
from urllib.parse import unquote, urlsplit

for _name, _value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                      "AWS_DEFAULT_REGION": "us-east-1"}.items():
    os.environ.setdefault(_name, _value)

import boto3  # noqa: E402
from moto import mock_aws  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from chalicelib.config import build_services  # noqa: E402
from chalicelib.mailplay import pages  # noqa: E402
from chalicelib.presenting.links import Links  # noqa: E402
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat  # noqa: E402
from chalicelib.notify.dispatcher import Outlets  # noqa: E402
from chalicelib.pages import board as board_page  # noqa: E402
from chalicelib.store.dynamodb import DynamoStore  # noqa: E402
from chalicelib.store.schema import create_table_if_missing  # noqa: E402
from devtools.board_screenshots import OUT, QUIET, SIZES  # noqa: E402
from devtools.dynamodb_local import ROOT  # noqa: E402

LINKS = Links("screenshot-secret", "https://play.example")


class Outbox:
    def __init__(self) -> None:
        self.sent = []

    def send(self, message) -> None:
        self.sent.append(message)


def rendered() -> dict[str, str]:
    """The HTML of Bob's invitation email, of his Accept link's page and of his waiting board."""
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_table_if_missing(client, "screens")
        store, outbox = DynamoStore(client, "screens"), Outbox()
        services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
        ann, bob = (services.players.authenticate(services.players.create_player(
            CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
            for name in ("Ann", "Bob"))
        game_id = services.creation.create_game(ann, CreateGameRequest(
            game="battleline", rated=True, options={"first_seat": 1, "time_control": {"per_move_days": 3}},
            seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body["game_id"]
        services.dispatcher.drain_outbox()
        email = next(m for m in outbox.sent if m["To"] == "bob@example.org")
        html = email.get_body(("html",)).get_content()
        url = re.search(r"https://play\.example/v1/answers/[^\s\"]+", email.get_body(("plain",)).get_content()).group(0)
        token = unquote(urlsplit(url).path.rsplit("/", 1)[1])
        answer = pages.answer_page(services.mailplay, token, urlsplit(url).path).html()
        seat = LINKS.board_url(game_id, 2).split("seat=", 1)[1]
        board = board_page.board_page(services.boards.board(game_id, unquote(seat)), unquote(seat)).html()
        return {"email-asked": html, "answer-page": answer, "board-waiting": board}


def main() -> int:
    shots = rendered()
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=QUIET)
        for width, size in SIZES.items():
            for name, html in shots.items():  # noqa: B023 (each page routed while it is shown)
                page = browser.new_page(viewport=size)
                # Shown at the server's address, so that the board's own calls (its notes) reach
                # somewhere: answered here as a server with no notes yet would answer them.
                page.route("https://play.example/**", lambda route: route.fulfill(
                    content_type="application/json", body='{"text": ""}') if "/notes" in route.request.url
                    else route.fulfill(content_type="text/html; charset=utf-8", body=html))
                page.goto("https://play.example/page", wait_until="load")
                path = OUT / f"{name}-{width}.png"
                page.screenshot(path=str(path), full_page=True)
                print(f"wrote {path.relative_to(ROOT)}")
                page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
