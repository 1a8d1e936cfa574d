"""The board's replay in a real browser (Debian's headless Chromium, driven by Playwright): the arrow
keys step through a finished game, Home and End jump to its ends, and the move shown is marked."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect

from .test_board_browser import DESKTOP, bearer, board_link, browser, new_game, signup  # noqa: F401 (a fixture)

pytestmark = pytest.mark.integration


def test_the_arrow_keys_step_through_a_finished_games_replay(live_server, browser):  # noqa: F811
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=42)
    gid = game["game_id"]
    card = next(s for s in game["legal_steps"] if s["type"] == "play")["card"]
    turn = [{"type": "play", "card": card, "flag": 2}, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}]
    assert requests.post(f"{url}/v1/games/{gid}/actions", headers=bearer(ann), timeout=10,
                         json={"expected_version": 0, "steps": turn}).status_code == 200
    assert requests.post(f"{url}/v1/games/{gid}/actions", headers=bearer(bob), timeout=10,
                         json={"expected_version": 1, "steps": [{"type": "resign"}]}).status_code == 200
    page = browser.new_page(viewport=DESKTOP)
    page.goto(board_link(url, ann, gid).replace("/board?", "/board/replay?v=0&"))
    expect(page.locator("#replay-position")).to_have_text("Version 0 of 2")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_have_text("Version 1 of 2")
    expect(page.locator(".replay-moves li.current")).to_contain_text("You played")
    page.keyboard.press("End")
    expect(page.locator("#replay-position")).to_have_text("Version 2 of 2")
    page.keyboard.press("ArrowRight")  # nothing past the end
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-position")).to_have_text("Version 1 of 2")
    page.keyboard.press("Home")
    expect(page.locator("#replay-position")).to_have_text("Version 0 of 2")
    page.locator(".replay-moves a").nth(2).click()  # a row of the move list jumps there
    expect(page.locator("#replay-position")).to_have_text("Version 2 of 2")
    page.close()
