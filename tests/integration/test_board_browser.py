"""The board in a real browser (Debian's headless Chromium, driven by Playwright): a seat plays
a whole Battle Line turn by clicking, and the page follows the other seat's move by itself."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect, sync_playwright

pytestmark = pytest.mark.integration

CHROMIUM = Path("/usr/bin/chromium")
QUIET = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM.exists(), "Debian's chromium is missing: `make test` installs it"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=QUIET)
        yield chromium
        chromium.close()


def signup(url: str, name: str) -> dict:
    return requests.post(f"{url}/v1/players", json={"name": name}, timeout=10).json()


def bearer(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['api_key']}"}


def new_game(url: str, ann: dict, bob: dict, **body) -> dict:
    """Ann creates a game for both, with herself as seat 1 and to move."""
    reply = requests.post(f"{url}/v1/games", headers=bearer(ann), timeout=10, json={
        **body, "options": {"first_seat": 1}, "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]})
    assert reply.status_code == 201, reply.text
    return reply.json()


def test_a_seat_plays_a_whole_battle_line_turn_by_clicking(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    auth = {1: bearer(ann), 2: bearer(bob)}
    game = new_game(url, ann, bob, game="battleline", seed=42)
    gid = game["game_id"]
    link = requests.get(f"{url}/v1/games/{gid}/board-link", headers=auth[1], timeout=10).json()["url"]
    card = next(s for s in game["legal_steps"] if s["type"] == "play")["card"]

    page = browser.new_page()
    page.goto(link)
    expect(page.locator("#headline")).to_contain_text("Your move")
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#hand")).to_contain_text(card)
    page.get_by_role("button", name=f"play {card} at flag 5", exact=True).click()
    page.get_by_role("button", name="claim nothing", exact=True).click()
    page.get_by_role("button", name="draw from the troop deck", exact=True).click()
    expect(page.locator("#headline")).to_contain_text("Seat 2 is to move")

    view = requests.get(f"{url}/v1/games/{gid}", headers=auth[1], timeout=10).json()
    assert view["version"] == 3 and view["to_move"] == 2
    assert view["state"]["flags"][4]["cards"][0] == [card]

    # Bob moves through the API; Ann's page, left open, follows without a reload.
    bobs = requests.get(f"{url}/v1/games/{gid}", headers=auth[2], timeout=10).json()
    answer = next(s for s in bobs["legal_steps"] if s["type"] == "play" and s["flag"] == 5)
    reply = requests.post(f"{url}/v1/games/{gid}/actions", headers=auth[2], timeout=10, json={
        "expected_version": 3, "steps": [answer, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]})
    assert reply.status_code == 200, reply.text
    expect(page.locator("#headline")).to_contain_text("Your move", timeout=10_000)
    expect(page.locator("#board svg")).to_contain_text(answer["card"])
    page.close()


def test_a_stale_click_is_refused_on_the_page_and_the_board_catches_up(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    auth = bearer(ann)
    game = new_game(url, ann, bob, game="battleline", seed=7)
    link = requests.get(f"{url}/v1/games/{game['game_id']}/board-link", headers=auth, timeout=10).json()["url"]
    page = browser.new_page()
    page.goto(link)
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    # The same move is made elsewhere (another tab, an email) before the click.
    requests.post(f"{url}/v1/games/{game['game_id']}/actions", headers=auth, timeout=10,
                  json={"expected_version": 0, "steps": [step]})
    page.get_by_role("button", name=f"play {step['card']} at flag {step['flag']}", exact=True).click()
    expect(page.locator("#status")).to_contain_text("version")
    expect(page.get_by_role("button", name="claim nothing", exact=True)).to_be_visible()
    page.close()


def test_a_spectator_watches_a_public_game_without_any_hand(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    auth = bearer(ann)
    game = new_game(url, ann, bob, game="khan", public=True)
    page = browser.new_page()
    page.goto(f"{url}/v1/games/{game['game_id']}/board")
    expect(page.locator("#headline")).to_contain_text("Seat 1 is to move")
    assert page.locator("#steps button").count() == 0 and page.locator("#hand").inner_text() == ""
    requests.post(f"{url}/v1/games/{game['game_id']}/actions", headers=auth, timeout=10,
                  json={"expected_version": 0, "steps": [{"type": "place", "unit": "heavy_cavalry"}]})
    deadline = time.monotonic() + 10
    while "HC" not in page.locator("#board").inner_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    expect(page.locator("#headline")).to_contain_text("Seat 2 is to move")
    page.close()
