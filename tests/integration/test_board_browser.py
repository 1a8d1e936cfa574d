"""The board in a real browser (Debian's headless Chromium, driven by Playwright), at a desktop's
1280x900 and a phone's 390x844: a seat plays a whole Battle Line turn by clicking (a card, a flag,
the claim, the draw) and the first Khan & General turns (place, deploy by unit, square and facing,
pay, end the turn); resigning asks first; the page follows the other seat's move by itself; on a
phone nothing is wider than the screen and no text is under 12 px; the keyboard plays too."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect, sync_playwright

pytestmark = pytest.mark.integration

CHROMIUM = Path("/usr/bin/chromium")
QUIET = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="1280x900"), pytest.param(PHONE, id="390x844")]


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
    """Ann creates a game for both, with herself as seat 1 and to move; Bob accepts games made for
    him (preference ``challenges``), so it starts at once."""
    accepting = requests.put(f"{url}/v1/players/me/preferences", headers=bearer(bob), timeout=10,
                             json={"challenges": "accept"})
    assert accepting.status_code == 200, accepting.text
    reply = requests.post(f"{url}/v1/games", headers=bearer(ann), timeout=10, json={
        **body, "options": {"first_seat": 1}, "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]})
    assert reply.status_code == 201, reply.text
    return reply.json()


def board_link(url: str, player: dict, game_id: str) -> str:
    return requests.get(f"{url}/v1/games/{game_id}/board-link", headers=bearer(player), timeout=10).json()["url"]


def view_of(url: str, player: dict, game_id: str) -> dict:
    return requests.get(f"{url}/v1/games/{game_id}", headers=bearer(player), timeout=10).json()


def act(url: str, player: dict, game_id: str, version: int, *steps: dict) -> dict:
    reply = requests.post(f"{url}/v1/games/{game_id}/actions", headers=bearer(player), timeout=10,
                          json={"expected_version": version, "steps": list(steps)})
    assert reply.status_code == 200, reply.text
    return reply.json()


def open_board(browser, link: str, size: dict) -> Page:
    page = browser.new_page(viewport=size)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(link)
    return page


# Every piece of text the page shows, with the size it is drawn at: SVG text scaled as its picture is.
TEXT_SIZES = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || element.closest("script, style, noscript, title")) continue;
    if (!element.getClientRects().length) continue;
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || element.closest(".visually-hidden")) continue;
    let size = parseFloat(style.fontSize);
    const svg = element.closest("svg");
    if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
      size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    }
    found.push([Math.round(size * 100) / 100, element.tagName, node.textContent.trim().slice(0, 40)]);
  }
  return found;
}"""


def assert_readable_on_a_phone(page: Page) -> None:
    """No horizontal scroll of the page, and no text under 12 CSS px (as drawn)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways: {width}px wide"
    sizes = page.evaluate(TEXT_SIZES)
    assert len(sizes) > 20, "no text was measured"
    small = [entry for entry in sizes if entry[0] < 12]
    assert not small, f"text under 12px: {small[:8]}"


def assert_no_script_errors(page: Page) -> None:
    assert not page.errors, page.errors  # type: ignore[attr-defined]


# ---------------------------------------------------------------- Battle Line

@pytest.mark.parametrize("size", SIZES)
def test_a_seat_plays_a_whole_battle_line_turn_by_clicks_and_the_page_follows_the_reply(live_server, browser, size):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=42)
    gid = game["game_id"]
    card = next(s for s in game["legal_steps"] if s["type"] == "play")["card"]
    assert card == "2R"  # seed 42 deals it; the page names it "2 red"

    page = open_board(browser, board_link(url, ann, gid), size)
    expect(page.locator("#headline")).to_have_text("Your move")
    expect(page.locator("#table .bl")).to_contain_text("Bob")
    if size is PHONE:
        assert_readable_on_a_phone(page)
    # A card, then a flag: one button per card and per flag, not per combination.
    assert page.locator("#hand button").count() == 7 and page.locator("#table button").count() == 0
    page.locator(f'#hand button[data-card="{card}"]').click()
    expect(page.locator(f'#hand button[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
    assert page.locator("#table button.marker").count() == 9
    if size is PHONE:
        assert_readable_on_a_phone(page)
    page.locator('#table button.marker[data-flag="5"]').click()
    expect(page.locator("#chooser .sentence")).to_have_text("Play 2R at flag 5")  # issue 35: the step table's sentence
    expect(page.locator("#chooser")).to_contain_text("No flag can be claimed now")
    # Nothing is sent before the clearly worded button that sends the turn.
    assert view_of(url, ann, gid)["version"] == 0
    page.locator("#chooser").get_by_role("button", name="Draw from the troop deck").click()
    expect(page.locator("#headline")).to_have_text("Bob is to move")

    view = view_of(url, ann, gid)
    assert view["version"] == 1 and view["to_move"] == 2  # play, claim and draw: one action
    assert view["state"]["flags"][4]["cards"][0] == [card]
    drawn = next(c for c in view["state"]["hand"] if c not in game["state"]["hand"])
    expect(page.locator("#drawn")).to_contain_text("You drew")
    expect(page.locator(f'#hand button[data-card="{drawn}"] .badge')).to_have_text("new")
    expect(page.locator("#log li").first).to_contain_text("You drew")

    # Bob moves through the API; Ann's page, left open, follows without a reload.
    bobs = view_of(url, bob, gid)
    answer = next(s for s in bobs["legal_steps"] if s["type"] == "play" and s["flag"] == 5)
    act(url, bob, gid, 1, answer, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"})
    expect(page.locator("#headline")).to_have_text("Your move", timeout=10_000)
    expect(page.locator(f'#table .flag-col[data-flag="5"] .side.top [data-card="{answer["card"]}"]')).to_be_visible()
    expect(page.locator("#recap")).to_contain_text("Bob")
    expect(page.locator("#log li").first).to_contain_text("Bob drew")
    if size is PHONE:
        assert_readable_on_a_phone(page)
    assert_no_script_errors(page)
    page.close()


def first_play(legal: list[dict], count: int) -> dict:
    """A fixed way to play (the same steps for the same deal): a troop chosen by the step count."""
    troops = [s for s in legal if s["type"] == "play" and s["card"][0].isdigit()]
    return troops[(count * 7) % len(troops)] if troops else next(s for s in legal if s["type"] != "resign")


def test_a_play_that_makes_a_flag_provable_is_claimed_in_the_same_turn(live_server, browser):
    """Seed 2 played this way for 30 steps gives Ann 6P for flag 7, after which she can prove it."""
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=2)
    gid, players = game["game_id"], {1: ann, 2: bob}
    for count in range(30):
        seat = view_of(url, ann, gid)["to_move"]
        view = view_of(url, players[seat], gid)
        legal = view["legal_steps"]
        step = (first_play(legal, count) if view["phase"] == "play" else {"type": "claim", "flags": []}
                if view["phase"] == "claim" else next(s for s in legal if s["type"] == "draw"))
        act(url, players[seat], gid, view["version"], step)
    version = view_of(url, ann, gid)["version"]

    page = open_board(browser, board_link(url, ann, gid), DESKTOP)
    page.locator('#hand button[data-card="6P"]').click()
    page.locator('#table button.marker[data-flag="7"]').click()
    claim = page.locator("#chooser").get_by_role("button", name="Claim flag 7")
    expect(claim).to_have_attribute("aria-pressed", "false")
    claim.click()
    expect(claim).to_have_attribute("aria-pressed", "true")
    page.locator("#chooser").get_by_role("button", name="Draw from the troop deck").click()
    expect(page.locator("#headline")).to_have_text("Bob is to move")
    view = view_of(url, ann, gid)
    assert view["version"] == version + 1 and view["state"]["flags"][6]["claimed_by"] == 1
    expect(page.locator('#table .flag-col[data-flag="7"] .marker')).to_contain_text("Won by you")
    bobs_page = open_board(browser, board_link(url, bob, gid), DESKTOP)
    expect(bobs_page.locator('#table .flag-col[data-flag="7"] .marker')).to_contain_text("Won by Ann")
    expect(bobs_page.locator("#recap")).to_contain_text("Ann claimed flag 7")
    assert_no_script_errors(page)
    page.close()
    bobs_page.close()


def test_a_stale_click_is_refused_on_the_page_and_the_board_catches_up(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=7)
    page = open_board(browser, board_link(url, ann, game["game_id"]), DESKTOP)
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    # The same move is made elsewhere (another tab, an email) before the clicks.
    act(url, ann, game["game_id"], 0, step)
    page.locator(f'#hand button[data-card="{step["card"]}"]').click()
    page.locator(f'#table button.marker[data-flag="{step["flag"]}"]').click()
    page.locator("#chooser").get_by_role("button", name="Draw from the troop deck").click()
    expect(page.locator("#status")).to_contain_text("version")
    # The board now shows the claim and draw that follow the play made elsewhere.
    expect(page.locator("#chooser").get_by_role("button", name="Draw from the troop deck")).to_be_visible()
    expect(page.locator(f'#table .flag-col[data-flag="{step["flag"]}"] .side.bottom [data-card="{step["card"]}"]')
           ).to_be_visible()
    page.close()


@pytest.mark.parametrize("size", SIZES)
def test_resigning_asks_first_and_cancelling_keeps_the_game_going(live_server, browser, size):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=5)
    gid = game["game_id"]
    page = open_board(browser, board_link(url, ann, gid), size)
    dialog = page.locator("#resign-dialog")
    page.get_by_role("button", name="Resign", exact=True).click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Resign this game?")
    if size is PHONE:
        assert_readable_on_a_phone(page)
    dialog.get_by_role("button", name="No, keep playing").click()
    expect(dialog).to_be_hidden()
    time.sleep(0.5)
    assert view_of(url, ann, gid)["status"] == "active"
    expect(page.locator("#headline")).to_have_text("Your move")
    page.get_by_role("button", name="Resign", exact=True).click()
    dialog.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#headline")).to_contain_text("Bob won")
    view = view_of(url, ann, gid)
    assert view["status"] == "finished" and view["result"]["winner"] == 2 and view["result"]["reason"] == "resign"
    expect(page.get_by_role("button", name="Resign", exact=True)).to_be_hidden()
    expect(page.locator("#chooser")).to_contain_text("The game is over")
    expect(page.locator("#log li").first).to_contain_text("Bob won")
    assert_no_script_errors(page)
    page.close()


def test_the_keyboard_plays_a_turn_with_visible_focus(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=42)
    page = open_board(browser, board_link(url, ann, game["game_id"]), DESKTOP)
    unnamed = page.evaluate("[...document.querySelectorAll('button')].filter(b => "
                            "!(b.getAttribute('aria-label') || b.textContent.trim())).length")
    assert unnamed == 0
    card = page.locator("#hand button:not([disabled])").first
    card.focus()
    outline = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); "
                            "return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()")
    assert outline[0] != "none" and outline[1] >= 2, outline
    page.keyboard.press("Enter")
    page.locator('#table button.marker[data-flag="2"]').focus()
    page.keyboard.press("Escape")  # changes its mind: nothing chosen any more
    expect(page.locator("#table button.marker")).to_have_count(0)
    card.focus()
    page.keyboard.press("Enter")
    page.locator('#table button.marker[data-flag="2"]').focus()
    page.keyboard.press("Enter")
    # The button that sends the turn takes the focus: Enter sends it.
    expect(page.locator("#chooser .deck.troop")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#headline")).to_have_text("Bob is to move")
    assert view_of(url, ann, game["game_id"])["state"]["flags"][1]["cards"][0]
    page.close()


# ---------------------------------------------------------------- Khan & General

@pytest.mark.parametrize("size", SIZES)
def test_a_seat_plays_its_first_khan_turns_by_clicks(live_server, browser, size):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="khan")
    gid = game["game_id"]
    page = open_board(browser, board_link(url, ann, gid), size)
    chooser = page.locator("#chooser")
    expect(page.locator("#headline")).to_have_text("Your move")
    expect(page.locator("#table svg")).to_be_visible()
    expect(page.locator("#info")).to_contain_text("Round 0 of 40")
    expect(page.locator("#hand")).to_contain_text("Heavy cavalry")  # the card set's names
    expect(page.locator("#hand")).not_to_contain_text("heavy_cavalry")
    # which units a command may lie on is a rule: said on every command card, a phone's too
    expect(page.locator("#hand .kcard .kind.for").first).to_be_visible()
    expect(page.locator("#hand .kcard .kind.for").first).to_contain_text("for ")

    # Set-up: place the first unit, chosen by its name.
    chooser.locator('[data-kind="place"]').click()
    chooser.get_by_role("button", name="Heavy cavalry").click()
    expect(chooser.locator(".sentence")).to_have_text("Place Heavy cavalry as your first unit")
    chooser.get_by_role("button", name="Confirm", exact=True).click()
    expect(page.locator("#headline")).to_have_text("Bob is to move")
    act(url, bob, gid, 1, {"type": "place", "unit": "spearmen"})
    expect(page.locator("#headline")).to_have_text("Your move", timeout=10_000)
    expect(page.locator("#recap")).to_contain_text("Bob placed Spearmen")

    # Deploy by choosing a unit, a square, a facing: not one button per combination.
    assert chooser.locator("button").count() < 10
    chooser.locator('[data-kind="deploy"]').click()
    chooser.get_by_role("button", name="Light cavalry").click()
    squares = chooser.locator(".picker button")
    assert 3 <= squares.count() <= 20
    if size is PHONE:
        assert_readable_on_a_phone(page)
    chooser.locator('.picker button[data-x="-1"][data-y="0"]').click()
    chooser.get_by_role("button", name="north").click()
    expect(chooser.locator(".sentence")).to_have_text("Deploy Light cavalry face down at (-1, 0), facing north")
    chooser.get_by_role("button", name="Confirm", exact=True).click()
    expect(page.locator("#info")).to_contain_text("Cards this turn: 1 of 2")
    # Pay a command into the command zone, and end the action phase with it.
    chooser.locator('[data-kind="pay"]').click()
    chooser.get_by_role("button", name="Lance").click()
    expect(chooser.locator(".sentence")).to_have_text("Pay Lance face down into a new sequence")
    chooser.get_by_role("button", name="Confirm and end the action phase").click()
    expect(page.locator("#info")).to_contain_text("Sequence 1: 1 card, pays a cost of 1 (Lance)")
    chooser.locator('[data-kind="end_turn"]').click()
    expect(chooser.locator(".sentence")).to_have_text("End the turn")
    chooser.get_by_role("button", name="Confirm", exact=True).click()
    expect(page.locator("#headline")).to_have_text("Bob is to move")

    view = view_of(url, ann, gid)
    assert view["to_move"] == 2 and len(view["state"]["sequences"]["1"]) == 1
    deployed = next(u for u in view["state"]["field"] if (u["x"], u["y"]) == (-1, 0))
    assert deployed["seat"] == 1 and deployed["unit"] == "light_cavalry" and deployed["facing"] == "N"
    expect(page.locator("#legend, #info")).to_contain_text("HC")
    expect(page.locator("#info")).to_contain_text("wounded")
    if size is PHONE:
        assert_readable_on_a_phone(page)
    assert_no_script_errors(page)
    page.close()


def test_a_spectator_watches_a_public_game_without_any_hand(live_server, browser):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="khan", public=True)
    page = open_board(browser, f"{url}/v1/games/{game['game_id']}/board", DESKTOP)
    expect(page.locator("#headline")).to_have_text("Ann is to move")
    expect(page.locator("#hand-box")).to_be_hidden()
    expect(page.locator("#chooser")).to_have_text("You are watching this game.")
    assert page.locator("#chooser button").count() == 0 and page.locator("#resign").is_hidden()
    act(url, ann, game["game_id"], 0, {"type": "place", "unit": "heavy_cavalry"})
    expect(page.locator("#table")).to_contain_text("HC", timeout=10_000)
    expect(page.locator("#headline")).to_have_text("Bob is to move")
    expect(page.locator("#recap")).to_contain_text("Ann placed Heavy cavalry")
    page.close()


# ---------------------------------------------------------------- every step can be chosen

# Choosing each legal step piece by piece (its own values, in the page's order) ends on that step
# and no other: nothing the rules allow is out of the page's reach, and no choice is ambiguous.
UNREACHABLE = """(board) => {
  view = board;
  const missed = [];
  for (const choice of view.steps) {
    if (!fieldsOf(choice.step.type).length) continue;
    const picked = {type: choice.step.type};
    let reached = null;
    for (let round = 0; round < 10 && !reached; round += 1) {
      const state = analyse(picked);
      if (state.none) break;
      if (state.done) reached = state.done;
      else picked[state.field] = valueOf(choice.step, state.field);
    }
    if (!reached || key(reached.step) !== key(choice.step)) missed.push(choice.label);
  }
  return missed;
}"""


@pytest.mark.parametrize("game_type", ["battleline", "khan"])
def test_every_legal_step_can_be_chosen_on_the_page(live_server, browser, game_type):
    import random

    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game=game_type, seed=3)
    gid, players, rng = game["game_id"], {1: ann, 2: bob}, random.Random(3)
    links = {seat: board_link(url, player, gid).replace("/board?", "/board/view?") for seat, player in players.items()}
    page = open_board(browser, board_link(url, ann, gid), DESKTOP)
    checked, kinds = 0, set()
    seat = view_of(url, ann, gid)["to_move"]
    for _ in range(120):
        if seat is None:
            break
        board = requests.get(links[seat], timeout=10).json()
        assert page.evaluate(UNREACHABLE, board) == []
        checked += len(board["steps"])
        kinds.update(c["step"]["type"] for c in board["steps"])
        legal = [c["step"] for c in board["steps"] if c["step"]["type"] not in ("resign", "offer_draw")]
        # Play on, preferring steps that move the game (attacks, moves, commands) to ending phases.
        busy = [s for s in legal if s["type"] not in ("end_action", "end_engagements", "end_turn", "end_reaction")]
        step = rng.choice(busy if busy and rng.random() < 0.8 else legal)
        seat = act(url, players[seat], gid, board["version"], step)["view"]["to_move"]
    expected = {"battleline": {"play", "claim", "draw"}, "khan": {"place", "deploy", "command", "pay", "move"}}
    assert checked > 1000 and expected[game_type] <= kinds, kinds
    page.close()


def test_a_claim_that_wins_sends_no_draw_after_it(live_server, browser):
    """Three adjacent flags, or five (four in a three-player ring, where flag 9 touches flag 1): the
    game is over, so the turn the page sends ends with the claim."""
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=1)
    page = open_board(browser, board_link(url, ann, game["game_id"]), DESKTOP)
    sent = page.evaluate("""() => {
      const play = {type: "play", card: "X", flag: 3};
      const turn = (held, claimed, ring) => {
        view.table.victory = {held, adjacent: 3, flags: ring ? 4 : 5, ring, count: 9};
        pressed = new Set(claimed);
        return turnSteps(play, ["claim", "draw"], "troop").map((step) => step.type).join(" ");
      };
      return [turn([1, 2], [3], false), turn([1, 2], [5], false), turn([1, 5, 7, 9], [3], false),
              turn([1, 9], [5], true), turn([1, 9], [8], true), turn([], [], false)];
    }""")
    assert sent == ["play claim", "play claim draw", "play claim", "play claim draw", "play claim",
                    "play claim draw"]
    page.close()


# ---------------------------------------------------------------- talk (issue 18)

@pytest.mark.parametrize("size", SIZES)
def test_a_message_goes_with_a_turn_played_by_clicks_and_the_answer_shows_on_the_page(live_server, browser, size):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    game = new_game(url, ann, bob, game="battleline", seed=42)
    gid = game["game_id"]
    page = open_board(browser, board_link(url, ann, gid), size)
    expect(page.locator("#talk")).to_be_visible()
    page.locator("#message").fill("Good luck, <b>Bob</b>!")
    page.locator('#hand button[data-card="2R"]').click()
    page.locator('#table button.marker[data-flag="5"]').click()
    page.locator("#chooser").get_by_role("button", name="Draw from the troop deck").click()
    expect(page.locator("#headline")).to_have_text("Bob is to move")
    expect(page.locator("#talk")).to_be_hidden()
    assert page.locator("#message").input_value() == ""
    expect(page.locator("#log li.said-line").first).to_contain_text("Good luck, <b>Bob</b>!")  # as text

    view = view_of(url, bob, gid)
    assert [m["text"] for m in view["messages"]] == ["Good luck, <b>Bob</b>!"]
    answer = next(s for s in view["legal_steps"] if s["type"] == "play")
    reply = requests.post(f"{url}/v1/games/{gid}/actions", headers=bearer(bob), timeout=10, json={
        "expected_version": 1, "steps": [answer, {"type": "claim", "flags": []}, {"type": "draw", "deck": "troop"}],
        "message": "Thanks Ann \u2013 may the best general win."})
    assert reply.status_code == 200, reply.text
    expect(page.locator("#headline")).to_have_text("Your move", timeout=10_000)
    expect(page.locator("#said")).to_contain_text("Bob says:")
    expect(page.locator("#said blockquote")).to_have_text("Thanks Ann \u2013 may the best general win.")
    expect(page.locator("#log li.said-line").first).to_contain_text("Bob says:")
    if size is PHONE:
        assert_readable_on_a_phone(page)
    assert_no_script_errors(page)
    page.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_seats_notes_are_written_on_its_board_and_kept(live_server, browser, size):
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    gid = new_game(url, ann, bob, game="battleline", seed=42)["game_id"]
    page = open_board(browser, board_link(url, ann, gid), size)
    expect(page.locator("#notes")).to_be_enabled()
    page.locator("#notes").fill("Bob keeps the blue cards.\nHold flag 5 for a wedge.")
    page.get_by_role("button", name="Save notes").click()
    expect(page.locator("#notes-status")).to_have_text("Notes saved.")
    if size is DESKTOP:
        page.screenshot(path="/tmp/notes-board-desktop.png")
    else:
        page.screenshot(path="/tmp/notes-board-phone.png", full_page=True)
        assert_readable_on_a_phone(page)
    mine = requests.get(f"{url}/v1/games/{gid}/notes", headers=bearer(ann), timeout=10).json()
    assert mine["text"] == "Bob keeps the blue cards.\nHold flag 5 for a wedge."
    page.reload()
    expect(page.locator("#notes")).to_have_value("Bob keeps the blue cards.\nHold flag 5 for a wedge.")
    assert_no_script_errors(page)
    page.close()
    theirs = open_board(browser, board_link(url, bob, gid), size)
    expect(theirs.locator("#notes")).to_be_enabled()
    assert theirs.locator("#notes").input_value() == ""  # the other seat's board shows its own notes only
    theirs.close()


def test_a_game_not_yet_begun_offers_no_replay_until_its_first_move(live_server, browser):
    """Waiting for a seat's answer, the board has nothing to step through: no replay link, and the move
    log's "Nothing yet." is not numbered as a line of it. The link comes with the first move, as the
    page follows it."""
    url = live_server.url
    ann, bob = signup(url, "Ann"), signup(url, "Bob")
    reply = requests.post(f"{url}/v1/games", headers=bearer(ann), timeout=10, json={
        "game": "battleline", "options": {"first_seat": 1}, "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]})
    assert reply.status_code == 201 and reply.json()["status"] == "waiting", reply.text
    game_id = reply.json()["game_id"]
    page = open_board(browser, board_link(url, ann, game_id), DESKTOP)
    expect(page.locator("#log li")).to_have_text(["Nothing yet."])
    assert page.locator("#log li").evaluate("li => getComputedStyle(li).listStyleType") == "none"
    expect(page.locator("#replay-link")).to_be_hidden()
    accepted = requests.post(f"{url}/v1/games/{game_id}/accept", headers=bearer(bob), timeout=10)
    assert accepted.status_code == 200, accepted.text
    view = view_of(url, ann, game_id)
    troop = next(s for s in view["legal_steps"] if s["type"] == "play")
    act(url, ann, game_id, view["version"], troop)
    expect(page.locator("#replay-link")).to_be_visible(timeout=20_000)
    expect(page.locator("#log li").first).not_to_have_text("Nothing yet.")
    assert_no_script_errors(page)
    page.close()
