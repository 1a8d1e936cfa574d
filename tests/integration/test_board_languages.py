"""The board page in each language, in a real browser (Debian's headless Chromium): a player who
chose Chinese, Japanese or Vietnamese gets the whole board in it (the lang attribute, the headline,
the panels, the step being chosen; no English left on a Battle Line board), and every character
drawn comes from a font that has it: for each element with text (CJK, Vietnamese), Chromium's own
account of the fonts it drew with (CDP ``CSS.getPlatformFontsForNode``) names installed fonts
whose character sets (fontconfig) cover every character, so no glyph falls back to a missing one
(a tofu box). Needs a CJK font (`make test` installs Debian's); skipped, saying so, without one."""

from __future__ import annotations

import re
import subprocess
from functools import cache

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.integration.test_board_browser import DESKTOP, PHONE, assert_no_script_errors, bearer, board_link, browser  # noqa: F401

pytestmark = pytest.mark.integration

LANGUAGES = ["en", "zh-Hans", "ja", "vi"]
YOUR_MOVE = {"en": "Your move", "zh-Hans": "轮到你了", "ja": "あなたの手番", "vi": "Lượt của bạn"}
MOVE_LOG = {"en": "Move log", "zh-Hans": "行动记录", "ja": "棋譜", "vi": "Nhật ký nước đi"}
YOUR_HAND = {"en": "Your hand", "zh-Hans": "你的手牌", "ja": "あなたの手札", "vi": "Bài trên tay bạn"}
PEOPLE = {"en": ("Ann", "Bob"), "zh-Hans": ("王芳", "李明"), "ja": ("佐藤花子", "鈴木一郎"),
          "vi": ("Nguyễn Thị Hồng", "Trần Văn Đức")}
# English words the Battle Line board says somewhere; none may be left on a board in another language.
ENGLISH = re.compile(r"\b(Your|You|move|Move|log|hand|Hand|Choose|Confirm|Cancel|Resign|Flag|flag|Draw|draw|"
                     r"Claim|claim|deck|Deck|left|Since|Counts|Troop|Tactics|cards?|Play|Pass)\b")


def fonts_installed() -> bool:
    try:
        found = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=30).stdout
    except FileNotFoundError:
        return False
    return bool(found.strip())


needs_cjk_fonts = pytest.mark.skipif(not fonts_installed(), reason="no CJK font is installed (fc-list :lang=zh finds "
                                     "none): `make test` installs Debian's fonts-noto-cjk")


@cache
def coverage(family: str) -> list[tuple[int, int]]:
    """The code point ranges fontconfig says the installed font ``family`` has (none: not installed)."""
    out = subprocess.run(["fc-list", "--format", "%{charset}\n", family], capture_output=True, text=True,
                         timeout=30).stdout
    ranges = []
    for part in out.split():
        low, _sep, high = part.partition("-")
        ranges.append((int(low, 16), int(high or low, 16)))
    return ranges


def covered(char: str, families: list[str]) -> bool:
    point = ord(char)
    return any(low <= point <= high for family in families for low, high in coverage(family))


def drawn_fonts(page: Page) -> list[tuple[str, str, list[dict]]]:
    """(element, its own text, the platform fonts Chromium drew it with) for every element with text
    of its own (the CJK, kana, full-width punctuation and Vietnamese letters among them)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        children = node.get("children", [])
        stack.extend(children)
        if node.get("nodeType") != 1 or node.get("nodeName") in ("SCRIPT", "STYLE", "TITLE", "NOSCRIPT", "HEAD"):
            continue
        own = "".join(c.get("nodeValue", "") for c in children if c.get("nodeType") == 3)
        if not own.strip():
            continue
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
        if fonts:  # an element not drawn (hidden, or inside a closed dialog) has none
            found.append((node["nodeName"], own.strip(), fonts))
    cdp.detach()
    return found


def assert_no_missing_glyphs(page: Page) -> None:
    drawn = drawn_fonts(page)
    assert len(drawn) > 10, f"too few elements with text to check: {drawn}"
    for element, text, fonts in drawn:
        families = [font["familyName"] for font in fonts]
        assert all(f and "last resort" not in f.lower() for f in families), (element, text, families)
        assert all(coverage(f) for f in families), f"{element} {text!r} drawn with a font fontconfig does not " \
                                                   f"know: {families}"
        missing = sorted({ch for ch in text if not ch.isspace() and not covered(ch, families)})
        assert not missing, f"{element} {text!r}: {missing} are in none of {families} (tofu)"
        assert sum(font["glyphCount"] for font in fonts) >= len(text.replace(" ", "")) // 2


def a_game(url: str, language: str, game: str) -> tuple[dict, dict, str]:
    first, second = PEOPLE[language]
    ann = requests.post(f"{url}/v1/players", json={"name": first, "language": language}, timeout=10).json()
    bob = requests.post(f"{url}/v1/players", json={"name": second, "language": language}, timeout=10).json()
    requests.put(f"{url}/v1/players/me/preferences", headers=bearer(bob), timeout=10,
                 json={"challenges": "accept"}).raise_for_status()
    reply = requests.post(f"{url}/v1/games", headers=bearer(ann), timeout=10, json={
        "game": game, "options": {"first_seat": 1}, "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]})
    assert reply.status_code == 201, reply.text
    return ann, bob, reply.json()["game_id"]


def open_board(browser, link: str, size: dict, accept_language: str = "en-US") -> Page:  # noqa: F811
    """The page in a browser whose language is ``accept_language`` (it sends it as Accept-Language)."""
    context = browser.new_context(viewport=size, locale=accept_language)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(link)
    return page


@needs_cjk_fonts
@pytest.mark.parametrize("size", [pytest.param(DESKTOP, id="1280x900"), pytest.param(PHONE, id="390x844")])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_battle_line_board_is_wholly_in_its_players_language_with_every_glyph_drawn(live_server, browser,  # noqa: F811
                                                                                      language, size):
    ann, _bob, game_id = a_game(live_server.url, language, "battleline")
    page = open_board(browser, board_link(live_server.url, ann, game_id), size)  # the browser asks for English
    assert page.evaluate("document.documentElement.lang") == language
    expect(page.locator("#headline")).to_have_text(YOUR_MOVE[language])
    expect(page.locator("#log-title")).to_have_text(MOVE_LOG[language])
    expect(page.locator("#hand-title")).to_have_text(YOUR_HAND[language])
    # A card, then a flag: the turn's form (claim, draw) is shown, in the language.
    page.locator("#hand button.card:not([disabled])").first.click()
    page.locator("#table button.marker").first.click()
    expect(page.locator("#chooser .deck.troop")).to_be_visible()
    shown = page.locator("body").inner_text()
    if language != "en":
        assert not ENGLISH.findall(shown), f"English left on the {language} board: {set(ENGLISH.findall(shown))}"
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], "the page scrolls sideways"
    assert_no_missing_glyphs(page)
    assert_no_script_errors(page)
    page.context.close()


@needs_cjk_fonts
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_khan_board_is_in_its_players_language_with_every_glyph_drawn(live_server, browser, language):  # noqa: F811
    ann, _bob, game_id = a_game(live_server.url, language, "khan")
    page = open_board(browser, board_link(live_server.url, ann, game_id), DESKTOP)
    assert page.evaluate("document.documentElement.lang") == language
    expect(page.locator("#headline")).to_have_text(YOUR_MOVE[language])
    expect(page.locator("#log-title")).to_have_text(MOVE_LOG[language])
    page.locator('#hand button[data-card="heavy_cavalry"]').first.click()
    expect(page.locator("#chooser .sentence")).to_be_visible()
    field = page.locator("#table svg")
    font = field.evaluate("svg => getComputedStyle(svg.querySelector('text')).fontFamily")
    first = {"en": "DejaVu Sans", "zh-Hans": "PingFang SC", "ja": "Hiragino Sans", "vi": "Segoe UI"}[language]
    assert font.strip('"').startswith(first), font  # the field's own words in the language's fonts
    assert_no_missing_glyphs(page)
    assert_no_script_errors(page)
    page.context.close()


@needs_cjk_fonts
@pytest.mark.parametrize("language, asked", [("zh-Hans", "zh-CN"), ("ja", "ja-JP"), ("vi", "vi-VN")])
def test_a_spectators_board_speaks_the_browsers_language_and_shows_no_hand(live_server, browser, language, asked):  # noqa: F811
    ann, bob = (requests.post(f"{live_server.url}/v1/players", json={"name": n}, timeout=10).json() for n in ("Ann", "Bob"))
    requests.put(f"{live_server.url}/v1/players/me/preferences", headers=bearer(bob), timeout=10,
                 json={"challenges": "accept"}).raise_for_status()
    game = requests.post(f"{live_server.url}/v1/games", headers=bearer(ann), timeout=10, json={
        "game": "battleline", "public": True, "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}).json()
    page = open_board(browser, f"{live_server.url}/v1/games/{game['game_id']}/board", DESKTOP, accept_language=asked)
    assert page.evaluate("document.documentElement.lang") == language
    expect(page.locator("#log-title")).to_have_text(MOVE_LOG[language])
    expect(page.locator("#hand-box")).to_be_hidden()
    hands = [c for p in (ann, bob) for c in requests.get(f"{live_server.url}/v1/games/{game['game_id']}",
                                                          headers=bearer(p), timeout=10).json()["state"]["hand"]]
    assert not any(page.locator(f'[data-card="{card}"]').count() for card in hands)
    assert_no_missing_glyphs(page)
    page.context.close()
