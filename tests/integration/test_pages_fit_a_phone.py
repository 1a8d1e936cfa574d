"""Issue 36, item 2: every board, page, email and report fits a phone's 390 px with no sideways
scroll. In Debian's Chromium at 390x844, in the four languages: the board of both games in the
middle of a game and once it is over, their replays, a tournament's standings, the emails a move
sends (both games) and the playtest lab's report; each measured by
``document.documentElement.scrollWidth``, and the Khan & General field drawn whole inside its box
(no column hidden in a box that scrolls)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from devtools.board_screenshots import Server, battle_line, khan
from tests.integration.test_board_browser import PHONE, browser  # noqa: F401 (a fixture)

pytestmark = pytest.mark.integration

LANGUAGES = ["en", "zh-Hans", "ja", "vi"]

# How far the page scrolls sideways, and the widest thing that reaches past the screen's edge.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  let widest = null;
  for (const element of document.querySelectorAll("body *")) {
    const box = element.getBoundingClientRect();
    if (box.width && box.right > width + 0.5 && (!widest || box.right > widest[1]))
      widest = [element.tagName + (element.id ? "#" + element.id : "") + "." + element.className, box.right];
  }
  return {scroll: document.documentElement.scrollWidth, widest};
}"""


def assert_fits(page: Page, what: str) -> None:
    measured = page.evaluate(OVERFLOW)
    assert measured["scroll"] <= 390, f"{what} scrolls sideways: {measured['scroll']} px wide ({measured['widest']})"


def played_games(server: Server, language: str) -> dict[str, str]:
    """Board links of both games in the middle of a game, and of both once the opponent resigned."""
    links = {"battleline": battle_line(server, language), "khan": khan(server, language)}
    for game in ("battleline", "khan"):
        first, second = server.signup("Ann", language), server.signup("Bob", language)
        game_id = server.game(first, [first, second], game=game, seed=3, options={"first_seat": 1})
        server.act(second, game_id, 0, {"type": "resign"})
        links[f"{game}-finished"] = server.link(first, game_id)
    return links


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_board_and_replay_fits_a_phone_with_no_sideways_scroll(live_server, browser, language):  # noqa: F811
    server = Server(live_server.url)
    page = browser.new_page(viewport=PHONE)
    for name, link in played_games(server, language).items():
        page.goto(link)
        page.wait_for_selector("#table > *")
        assert_fits(page, f"the {name} board")
        if name.startswith("khan"):
            # The field is drawn whole: its picture no wider than its box (no column cut off).
            field = page.evaluate("(() => { const box = document.querySelector('#table .field');"
                                  " return [box.clientWidth, box.scrollWidth]; })()")
            assert field[1] <= field[0], f"the {name} field is cut: {field[1]} px in a {field[0]} px box"
        if name.endswith("finished"):
            page.goto(link.replace("/board?", "/board/replay?v=0&"))
            page.wait_for_selector("#replay-position")
            assert_fits(page, f"the {name} replay")
            with page.expect_navigation():
                page.keyboard.press("End")  # a page of its own
            assert_fits(page, f"the {name} replay's last version")
    page.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_standings_and_emails_fit_a_phone_with_no_sideways_scroll(browser, language):  # noqa: F811
    from chalicelib.kernel.i18n import speaking
    from chalicelib.pages.standings import standings_page
    from devtools.standings_screenshots import played

    page = browser.new_page(viewport=PHONE)
    with speaking(language):
        standings = standings_page(played()).html()
    page.set_content(standings, wait_until="load")
    assert_fits(page, "the standings page")
    emails = sent_emails(language)
    assert len(emails) >= 4
    for subject, html in emails:
        page.set_content(html, wait_until="load")
        assert_fits(page, f"the email {subject!r}")
    page.close()


def sent_emails(language: str) -> list[tuple[str, str]]:
    """(subject, HTML) of the emails both games send their players: the one asking, the first move."""
    from chalicelib.config import build_services
    from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
    from chalicelib.notify.dispatcher import Outlets
    from chalicelib.presenting.links import Links
    from chalicelib.store.memory.store import MemoryStore

    class Outbox:
        def __init__(self) -> None:
            self.sent: list = []

        def send(self, message) -> None:
            self.sent.append(message)

    store, outbox = MemoryStore(), Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=Links("s", "https://play.example")))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org", language=language), None).body["api_key"])
        for name in ("Ann", "Bob"))
    for game in ("battleline", "khan"):
        game_id = services.creation.create_game(ann, CreateGameRequest(
            game=game, options={"first_seat": 1}, seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
            None).body["game_id"]
        services.lobby.accept(bob, game_id)
        services.dispatcher.drain_outbox()
    emails = []
    for message in outbox.sent:
        body = message.get_body(("html",))
        if body is not None:
            emails.append((re.sub(r"\s+", " ", str(message["Subject"])), body.get_content()))
    return emails


def test_the_playtest_report_fits_a_phone_with_no_sideways_scroll(browser, tmp_path):  # noqa: F811
    from khan_lab import lab, play, report

    card_set = play.default_set()
    plan = play.plan_for(card_set, bot="random", games=4, seed=7, max_rounds=6)
    run = lab.measure(plan, card_set, play.estimate(plan), compare=True)
    paths = report.write(run, tmp_path)
    page = browser.new_page(viewport=PHONE)
    page.goto(paths["html"].as_uri())
    assert_fits(page, "the playtest report")
    page.close()


def test_the_balance_report_fits_a_phone_with_no_sideways_scroll(browser, tmp_path):  # noqa: F811
    """Issue 40's report shares the playtest report's page (khan_lab/report.html_document), so its wide
    tables of variants and targets scroll in their own boxes on a phone, not the page."""
    from khan_lab import balance, play, search as searching

    card_set = play.default_set()
    spec = {"bot": "random", "max_rounds": 6, "games": {"batch": 4, "most": 4}, "combine": 1, "candidates": 1,
            "confirm": {"bot": "random", "games": 4, "candidates": 1},
            "changes": [{"field": "commands[lance].cost", "min": 1, "max": 2}],
            "targets": {"win_rate": {"low": 0.3, "high": 0.7}, "cards_played": 0.05}}
    result = searching.Search(card_set, searching.check_search(spec, card_set), seed=0, minutes=5, workers=1).run()
    paths = balance.write(result, tmp_path, "search.json")
    page = browser.new_page(viewport=PHONE)
    page.goto(paths["html"].as_uri())
    assert_fits(page, "the balance report")
    page.close()
