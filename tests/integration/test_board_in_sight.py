"""Issue 36, item 3, in Debian's Chromium: Battle Line at 1280x900 keeps the hand and the turn's
panel in sight without scrolling (BGA keeps the hand in sight), before and while a play is being
chosen; ending a Khan & General turn from the engagements takes 2 clicks, not 4 (End the
engagements -> Confirm -> End the turn -> Confirm)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from devtools.board_screenshots import Server, battle_line
from tests.integration.test_board_browser import DESKTOP, browser  # noqa: F401 (a fixture)

pytestmark = pytest.mark.integration


def assert_in_sight(page: Page, *selectors: str) -> None:
    """Each of ``selectors`` wholly within the 900 px of the window (bounding boxes are relative to it)."""
    for selector in selectors:
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert box["y"] >= 0 and box["y"] + box["height"] <= 900, f"{selector} is out of sight: {box}"


@pytest.mark.parametrize("language", ["en", "vi"])
def test_battle_line_at_1280x900_the_hand_and_the_turn_panel_are_in_sight_without_scrolling(
        live_server, browser, language):  # noqa: F811
    page = browser.new_page(viewport=DESKTOP)
    page.goto(battle_line(Server(live_server.url), language))  # 30 steps in, a message from Bob
    page.wait_for_selector("#hand button")
    assert page.evaluate("window.scrollY") == 0
    assert_in_sight(page, "#hand-box", "#action", "#table-box")
    # Choosing a play (a card, a flag, the claim) grows the panel; the deck that sends the turn takes
    # the focus, and the page brings it into sight with the hand still in sight: no scrolling by hand.
    page.locator('#hand button[data-card="6P"]').click()
    page.locator('#table button.marker[data-flag="7"]').click()
    page.locator('#chooser [data-claim="7"]').click()
    assert_in_sight(page, "#hand-box", "#action", "#chooser .deck.troop")
    page.close()


def test_ending_a_khan_turn_from_the_engagements_takes_2_clicks(live_server, browser):  # noqa: F811
    server = Server(live_server.url)
    ann, bob = server.signup("Ann"), server.signup("Bob")
    game_id = server.game(ann, [ann, bob], game="khan", seed=1, options={"first_seat": 1})
    server.act(ann, game_id, 0, {"type": "place", "unit": "heavy_cavalry"})
    server.act(bob, game_id, 1, {"type": "place", "unit": "spearmen"})
    server.act(ann, game_id, 2, {"type": "end_action"})
    view = server.view(ann, game_id)
    if view["to_move"] == 2:  # Bob's reaction window
        server.act(bob, game_id, view["version"], {"type": "end_reaction"})
    assert server.view(ann, game_id)["phase"] == "engagements"

    page = browser.new_page(viewport=DESKTOP)
    clicks = []
    page.expose_function("counted", lambda: clicks.append(1))
    page.add_init_script("document.addEventListener('click', () => window.counted(), true)")
    page.goto(server.link(ann, game_id))
    chooser = page.locator("#chooser")
    expect(page.locator("#headline")).to_have_text("Your move")
    chooser.locator('[data-kind="end_engagements"]').click()
    chooser.get_by_role("button", name="Confirm and end the turn").click()
    expect(page.locator("#headline")).to_have_text("Bob is to move")
    assert len(clicks) == 2
    view = server.view(ann, game_id)
    assert view["to_move"] == 2 and view["phase"] in ("maintenance", "action")
    page.close()
