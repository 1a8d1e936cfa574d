"""Accessible play (issue 23, item 8): the board page (both games, a seat's and a spectator's,
playing and finished), the pages behind emailed links (a step, a played step, resigning, an
answer to a game, an invitation, unsubscribing) and the emails' HTML parts pass axe-core with no
serious or critical violation, in Debian's Chromium driven by Playwright. A Battle Line turn is
played by the keyboard alone (Tab, Space, Enter); cards and flags have text names; what changes
(the opponent's move, your move accepted, the end) is said in a polite live region. The replay page,
the account recovery email and its pages, and the daily digest are checked too."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import boto3
import pytest
from moto import mock_aws
from playwright.sync_api import Page, expect, sync_playwright

from chalicelib.config import build_services
from chalicelib.mailplay import pages
from chalicelib.http.models import (ActionRequest, CreateGameRequest, CreatePlayerRequest, EmailSeat, PlayerSeat,
                               RecoverAccountRequest)
from chalicelib.notify.dispatcher import Outlets
from chalicelib.notify.email import compose_digest
from chalicelib.store.records import Message
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import create_table_if_missing
from tests.integration.test_board_browser import (CHROMIUM, DESKTOP, QUIET, act, board_link, new_game, signup,
                                                  view_of)
from tests.notify.helpers import LINKS, Outbox, grid_cells, html_of, kind_of, text_of

pytestmark = pytest.mark.integration

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
GRAVE = {"serious", "critical"}


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM.exists(), "Debian's chromium is missing: `make test` installs it"
    assert AXE.exists(), "axe-core is missing: `make install` installs it (package.json)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=QUIET)
        yield chromium
        chromium.close()


def axe_violations(page: Page, name: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, one readable line each:
    what page, which rule, how bad, and the first few elements it found."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in result["violations"]:
        if violation["impact"] not in GRAVE:
            continue
        where = "; ".join(" ".join(map(str, node["target"])) + " -> " + node["failureSummary"].replace("\n", " ")
                          for node in violation["nodes"][:3])
        found.append(f"{name}: {violation['id']} ({violation['impact']}, {len(violation['nodes'])}x): "
                     f"{violation['help']} | {where}")
    return found


def assert_accessible(found: list[str]) -> None:
    assert not found, "axe-core found serious or critical violations:\n" + "\n".join(found)


# ---------------------------------------------------------------- the board page

def test_the_board_pages_pass_axe(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    line = new_game(url, ann, bob, game="battleline", seed=42)
    khan = new_game(url, ann, bob, game="khan", public=True, seed=7)
    found: list[str] = []
    page = browser.new_page(viewport=DESKTOP)
    # Battle Line, Ann to move; then with a card chosen (the flags become buttons), and a flag (the turn's form).
    page.goto(board_link(url, ann, line["game_id"]))
    expect(page.locator("#hand button")).to_have_count(7)
    found += axe_violations(page, "Battle Line board, your move")
    page.locator("#hand button:not([disabled])").first.click()
    page.locator("#table button.marker").first.click()
    expect(page.locator("#chooser .deck.troop")).to_be_visible()
    found += axe_violations(page, "Battle Line board, a turn being chosen")
    # Khan & General: a seat's board, and a spectator's.
    page.goto(board_link(url, ann, khan["game_id"]))
    expect(page.locator("#chooser button").first).to_be_visible()
    found += axe_violations(page, "Khan & General board, your move")
    page.goto(f"{url}/v1/games/{khan['game_id']}/board")
    expect(page.locator("#chooser")).to_have_text("You are watching this game.")
    found += axe_violations(page, "Khan & General board, watching")
    # A finished game (Ann resigned).
    act(url, ann, line["game_id"], 0, {"type": "resign"})
    page.goto(board_link(url, bob, line["game_id"]))
    expect(page.locator("#headline")).to_contain_text("won")
    found += axe_violations(page, "Battle Line board, finished")
    replay = board_link(url, bob, line["game_id"]).replace("/board?", "/board/replay?") + "&v=1"
    page.goto(replay)
    expect(page.locator("nav a").first).to_be_visible()
    found += axe_violations(page, "Battle Line replay, a finished game at version 1")
    page.close()
    assert_accessible(found)


# ---------------------------------------------------------------- link pages and emails


def token(url: str) -> str:
    return unquote(urlsplit(url.replace("&amp;", "&")).path.rsplit("/", 1)[1])


def link_in(text: str, kind: str, nth: int = 0) -> str:
    return token(re.findall(rf"http://play\.example/v1/{kind}/\S+", text)[nth])


@pytest.fixture(scope="module")
def mail_world():
    """Every kind of email and link page, as HTML strings: Bob asked to play (the answer email and
    its Accept and Decline pages), Cat invited by address (the invitation and its page), Ann's
    your-move email (a step link's page, the page after playing it, the resign page), the
    game-finished email, and the unsubscribe page."""
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_table_if_missing(client, "t")
        store = DynamoStore(client, "t")
        outbox = Outbox()
        services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
        ann, bob = (services.players.authenticate(services.players.create_player(
            CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
            for name in ("Ann", "Bob"))
        game = services.creation.create_game(ann, CreateGameRequest(
            game="battleline", seed=5, options={"first_seat": 1},
            seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body
        gid = game["game_id"]
        services.dispatcher.drain_outbox()
        htmls: dict[str, str] = {}
        asked = next(m for m in outbox.sent if m["To"] == "bob@example.org" and kind_of(m) == "invited")
        htmls["email: asked to play"] = html_of(asked)
        htmls["page: accept"] = pages.answer_page(services.mailplay, link_in(text_of(asked), "answers"), "/x").html()
        htmls["page: decline"] = pages.answer_page(services.mailplay, link_in(text_of(asked), "answers", 1), "/x").html()
        htmls["page: accepted"] = pages.answer_game(services.mailplay, link_in(text_of(asked), "answers")).html()
        services.dispatcher.drain_outbox()
        your_move = next(m for m in outbox.sent if m["To"] == "ann@example.org" and kind_of(m) == "your_turn")
        htmls["email: your move"] = html_of(your_move)
        step = token(grid_cells(html_of(your_move))[0][0])
        htmls["page: a step link"] = pages.step_link_page(services.mailplay, step, "/x").html()
        resign = re.search(r'href="(http://play\.example/v1/links/[^"]+)"[^>]*>Resign this game', html_of(your_move))
        htmls["page: resign"] = pages.step_link_page(services.mailplay, token(resign.group(1)), "/x").html()
        htmls["page: played"] = pages.play_step_link(services.mailplay, step).html()
        htmls["page: unsubscribe"] = pages.unsubscribe_page(
            services.mailplay, token(LINKS.unsubscribe_url(bob.id)), "/x").html()
        view = services.games.view_for_seat(gid, 2)
        services.games.post_action(bob, gid, ActionRequest(expected_version=view["version"],
                                                           steps=[{"type": "resign"}]), None)
        services.dispatcher.drain_outbox()
        finished = next(m for m in outbox.sent if m["To"] == "ann@example.org" and kind_of(m) == "finished")
        htmls["email: game finished"] = html_of(finished)
        invited = services.creation.create_game(ann, CreateGameRequest(
            game="khan", options={"first_seat": 2},
            seats=[PlayerSeat(player_id=ann.id), EmailSeat(email="cat@example.org")]), None).body
        services.dispatcher.drain_outbox()
        invitation = next(m for m in outbox.sent if m["To"] == "cat@example.org")
        htmls["email: invitation"] = html_of(invitation)
        htmls["page: invitation"] = pages.invitation_page(
            services.mailplay, link_in(text_of(invitation), "invitations"), "/x").html()
        assert invited["status"] == "waiting"
        services.recovery.recover(RecoverAccountRequest(email="ann@example.org"))
        services.dispatcher.drain_outbox()
        recovery = next(m for m in outbox.sent if m["To"] == "ann@example.org" and "API key" in m["Subject"])
        htmls["email: account recovery"] = html_of(recovery)
        recover = re.search(r"/v1/recover/([^\s\"<]+)", text_of(recovery)).group(1)
        htmls["page: account recovery"] = pages.recovery_page(services.recovery, recover, "/x").html()
        htmls["page: the new API key"] = pages.recover_with_link(services.recovery, recover).html()
        digest = Message("msg_digest_a11y", "player.digest", bob.id, {"games": [
            {"game_id": gid, "game": "battleline", "seat": 2, "version": 3, "deadline": "2026-12-01T08:00:00.000Z",
             "opponents": ["Ann"]},
            {"game_id": invited["game_id"], "game": "khan", "seat": 1, "version": 1, "deadline": None,
             "opponents": ["Cat"]}]}, "2026-11-28T07:00:00.000Z")
        htmls["email: daily digest"] = html_of(compose_digest(digest, services.store.get_player(bob.id), LINKS))
        yield htmls


def test_the_link_pages_and_the_emails_pass_axe(browser, mail_world):
    page = browser.new_page(viewport=DESKTOP)
    found: list[str] = []
    for name, html in mail_world.items():
        page.set_content(html)
        found += axe_violations(page, name)
    page.close()
    assert_accessible(found)


# ---------------------------------------------------------------- the keyboard alone, and what is said

FOCUSED = """() => {
  const e = document.activeElement;
  const s = getComputedStyle(e);
  return {tag: e.tagName, text: (e.getAttribute('aria-label') || e.textContent).trim(), card: e.dataset.card || null,
          outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2};
}"""


def tab_to(page: Page, wanted, most: int = 80) -> list[dict]:
    """Press Tab until the focus is on what ``wanted(focused)`` accepts; every element on the way
    shows where the focus is. Returns the elements passed."""
    passed = []
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        passed.append(focused)
        assert focused["outline"], f"no visible focus on {focused}"
        if wanted(focused):
            return passed
    raise AssertionError(f"Tab never reached it; the focus went through {[f['text'][:30] for f in passed]}")


def catch_up(page: Page) -> None:
    """What a tab coming back to the front does: the page asks for the game at once."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def test_a_battle_line_turn_is_played_by_the_keyboard_alone_and_each_change_is_announced(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=42)
    gid = game["game_id"]
    page = browser.new_page(viewport=DESKTOP)
    page.goto(board_link(url, ann, gid))
    expect(page.locator("#hand button")).to_have_count(7)
    # Flags and cards have names a screen reader says.
    expect(page.locator('#table .marker[data-flag="3"]')).to_have_attribute(
        "aria-label", "Flag 3: you 0 cards, Bob 0 cards, unclaimed")
    expect(page.locator('#hand button[data-card="2R"]')).to_have_attribute("aria-label", "2 red")
    # Tab to the card, Space chooses it; the focus goes to the flags offered for it.
    tab_to(page, lambda f: f["card"] == "2R")
    page.keyboard.press("Space")
    expect(page.locator("#chooser button").first).to_be_focused()
    tab_to(page, lambda f: f["text"] == "Flag 5")
    page.keyboard.press("Enter")
    expect(page.locator("#chooser .sentence")).to_have_text("Play 2R at flag 5")  # issue 35: the step table's sentence
    expect(page.locator("#chooser .deck.troop")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#headline")).to_have_text("Bob is to move")
    view = view_of(url, ann, gid)
    assert view["version"] == 1 and view["state"]["flags"][4]["cards"][0] == ["2R"]
    # Said once, politely: the move was played, what it was, and whose move it is now.
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_contain_text("Your move was played.")
    expect(announce).to_contain_text("Bob is to move")
    expect(page.locator('#table .marker[data-flag="5"]')).to_have_attribute(
        "aria-label", "Flag 5: you 1 card, Bob 0 cards, unclaimed")
    # The other seat's move, and then the end, are said as they come.
    bobs = view_of(url, bob, gid)
    play = next(s for s in bobs["legal_steps"] if s["type"] == "play")
    act(url, bob, gid, 1, play, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    catch_up(page)
    expect(announce).to_contain_text("Your move")
    expect(announce).to_contain_text("Bob played")
    act(url, bob, gid, 2, {"type": "resign"})
    catch_up(page)
    expect(announce).to_contain_text("resign")
    expect(page.locator("#headline")).to_contain_text("won")
    page.close()
