"""The board's screenshots in docs/screenshots/ (shown in the README), taken from real games on a
running server: a Battle Line game ten turns in, its player choosing a play that wins a flag, and a
Khan & General game two rounds in, its player deploying a unit. Each at a desktop's 1280x900 and a
phone's 390x844, in Debian's Chromium (as tests/integration/test_board_browser.py); and the same
in each language, played by players who chose it (``board-<lang>-desktop.png``,
``board-<lang>-phone.png``, ``board-khan-<lang>-desktop.png``).

Run: make serve (in another shell), then python -m devtools.board_screenshots [URL] [LANGUAGE ...]
"""

from __future__ import annotations

import sys

import requests
from playwright.sync_api import Page, sync_playwright

from devtools.dynamodb_local import ROOT

OUT = ROOT / "docs" / "screenshots"
SIZES = {"1280": {"width": 1280, "height": 900}, "390": {"width": 390, "height": 844}}
QUIET = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class Server:
    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def signup(self, name: str, language: str = "en") -> dict:
        return requests.post(f"{self.url}/v1/players", json={"name": name, "language": language}, timeout=10).json()

    def game(self, creator: dict, players: list[dict], **body) -> str:
        """A game the others accept at once (their ``challenges`` preference), so that it begins."""
        for player in players:
            if player["id"] != creator["id"]:
                requests.put(f"{self.url}/v1/players/me/preferences", headers=self.auth(player), timeout=10,
                             json={"challenges": "accept"}).raise_for_status()
        reply = requests.post(f"{self.url}/v1/games", headers=self.auth(creator), timeout=10, json={
            **body, "seats": [{"player_id": p["id"]} for p in players]})
        reply.raise_for_status()
        return reply.json()["game_id"]

    def view(self, player: dict, game_id: str) -> dict:
        return requests.get(f"{self.url}/v1/games/{game_id}", headers=self.auth(player), timeout=10).json()

    def act(self, player: dict, game_id: str, version: int, *steps: dict, message: str | None = None) -> None:
        reply = requests.post(f"{self.url}/v1/games/{game_id}/actions", headers=self.auth(player), timeout=10,
                              json={"expected_version": version, "steps": list(steps),
                                    **({"message": message} if message else {})})
        reply.raise_for_status()

    def link(self, player: dict, game_id: str) -> str:
        return requests.get(f"{self.url}/v1/games/{game_id}/board-link", headers=self.auth(player),
                            timeout=10).json()["url"]

    @staticmethod
    def auth(player: dict) -> dict:
        return {"Authorization": f"Bearer {player['api_key']}"}


# Each language's players (Ann and Bob) and what they say to each other.
PEOPLE = {"en": ("Ann", "Bob", "Flag 7 will not hold long, Ann.", "We shall see, Bob!"),
          "zh-Hans": ("王芳", "李明", "第七面旗守不了多久。", "走着瞧！"),
          "ja": ("佐藤花子", "鈴木一郎", "7番のフラッグはもう持たないよ。", "どうかな！"),
          "vi": ("Nguyễn Thị Hồng", "Trần Văn Đức", "Cờ 7 không giữ được lâu đâu.", "Để xem nhé!")}


def battle_line(server: Server, language: str = "en") -> str:
    """Seed 2, played the fixed way the browser test plays it: 30 steps in, Ann holds 6P, which
    makes flag 7 hers to claim; Bob's last step carries a message to her."""
    first, second, said, _reply = PEOPLE[language]
    ann, bob = server.signup(first, language), server.signup(second, language)
    game_id = server.game(ann, [ann, bob], game="battleline", seed=2, options={"first_seat": 1})
    players = {1: ann, 2: bob}
    for count in range(30):
        seat = server.view(ann, game_id)["to_move"]
        view = server.view(players[seat], game_id)
        legal = view["legal_steps"]
        if view["phase"] == "play":
            troops = [s for s in legal if s["type"] == "play" and s["card"][0].isdigit()]
            step = troops[(count * 7) % len(troops)]
        elif view["phase"] == "claim":
            step = {"type": "claim", "flags": []}
        else:
            step = next(s for s in legal if s["type"] == "draw")
        server.act(players[seat], game_id, view["version"], step,
                   message=said if count == 29 else None)
    return server.link(ann, game_id)


def khan(server: Server, language: str = "en") -> str:
    """Each side deploys a unit and pays a command; then Ann, in her second round, is to move."""
    first, second, _said, _reply = PEOPLE[language]
    ann, bob = server.signup(first, language), server.signup(second, language)
    game_id = server.game(ann, [ann, bob], game="khan", seed=1, options={"first_seat": 1})
    players = {1: ann, 2: bob}
    server.act(ann, game_id, 0, {"type": "place", "unit": "heavy_cavalry"})
    server.act(bob, game_id, 1, {"type": "place", "unit": "spearmen"})
    server.act(ann, game_id, 2, {"type": "deploy", "unit": "light_cavalry", "at": {"x": -1, "y": 0}, "facing": "N"},
               {"type": "pay", "card": "charge"}, {"type": "end_action"})
    bobs = server.view(bob, game_id)
    while bobs["to_move"] != 2 or bobs["phase"] not in ("maintenance", "action"):
        _end_something(server, players, game_id)
        bobs = server.view(bob, game_id)
    deploy = next(s for s in bobs["legal_steps"] if s["type"] == "deploy" and s["unit"] == "archers"
                  and s["facing"] == "S")
    server.act(bob, game_id, bobs["version"], deploy, {"type": "pay", "card": "volley"}, {"type": "end_action"})
    anns = server.view(ann, game_id)
    while anns["to_move"] != 1 or anns["phase"] not in ("maintenance", "action"):
        _end_something(server, players, game_id)
        anns = server.view(ann, game_id)
    return server.link(ann, game_id)


def _end_something(server: Server, players: dict, game_id: str) -> None:
    """The seat to move ends its window or phase (a reaction, the engagements, the turn)."""
    seat = server.view(players[1], game_id)["to_move"]
    view = server.view(players[seat], game_id)
    types = [s["type"] for s in view["legal_steps"]]
    end = next(t for t in ("end_reaction", "end_turn", "end_engagements", "end_action") if t in types)
    server.act(players[seat], game_id, view["version"], {"type": end})


def shoot(page: Page, name: str) -> None:
    """The whole page, laid out in a window as tall as it is (so that the panel that sticks to the
    bottom of a phone's screen while a step is chosen sits where the page puts it)."""
    OUT.mkdir(parents=True, exist_ok=True)
    size = dict(page.viewport_size)
    page.set_viewport_size({"width": size["width"], "height": page.evaluate("document.documentElement.scrollHeight")})
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
    page.set_viewport_size(size)
    print(f"wrote {(OUT / f'{name}.png').relative_to(ROOT)}")


LANGUAGES = ("en", "zh-Hans", "ja", "vi")
DEVICES = {"1280": "desktop", "390": "phone"}


def choose_a_winning_play(page: Page, language: str) -> None:
    """Ann plays 6P at flag 7, claims it and writes back; the troop deck, which sends it all, has
    the focus. Chosen by what the buttons are, not what they say: the same in every language."""
    page.locator('#hand button[data-card="6P"]').click()
    page.locator('#table button.marker[data-flag="7"]').click()
    page.locator('#chooser [data-claim="7"]').click()
    page.locator("#message").fill(PEOPLE[language][3])
    page.locator("#chooser .deck.troop").focus()


def choose_a_deployment(page: Page) -> None:
    page.locator('#chooser [data-kind="deploy"]').click()
    page.locator('#hand button[data-card="horse_archers"]').click()


def main() -> int:
    server = Server(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
    languages = sys.argv[2:] or LANGUAGES
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=QUIET)
        for language in languages:
            for width, size in SIZES.items():
                page = browser.new_page(viewport=size)
                page.goto(battle_line(server, language))
                choose_a_winning_play(page, language)
                shoot(page, f"board-battleline-{width}" if language == "en" else f"board-{language}-{DEVICES[width]}")
                if language == "en" or width == "1280":
                    page.goto(khan(server, language))
                    choose_a_deployment(page)
                    shoot(page, f"board-khan-{width}" if language == "en" else f"board-khan-{language}-{DEVICES[width]}")
                page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
