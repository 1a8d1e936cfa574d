"""The board's screenshots in docs/screenshots/ (shown in the README), taken from real games on a
running server: a Battle Line game ten turns in, its player choosing a play that wins a flag, and a
Khan & General game two rounds in, its player deploying a unit. Each at a desktop's 1280x900 and a
phone's 390x844, in Debian's Chromium (as tests/integration/test_board_browser.py).

Run: make serve (in another shell), then python -m devtools.board_screenshots [URL]
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

    def signup(self, name: str) -> dict:
        return requests.post(f"{self.url}/v1/players", json={"name": name}, timeout=10).json()

    def game(self, creator: dict, players: list[dict], **body) -> str:
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


def battle_line(server: Server) -> str:
    """Seed 2, played the fixed way the browser test plays it: 30 steps in, Ann holds 6P, which
    makes flag 7 hers to claim; Bob's last step carries a message to her."""
    ann, bob = server.signup("Ann"), server.signup("Bob")
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
                   message="Flag 7 will not hold long, Ann." if count == 29 else None)
    return server.link(ann, game_id)


def khan(server: Server) -> str:
    """Each side deploys a unit and pays a command; then Ann, in her second round, is to move."""
    ann, bob = server.signup("Ann"), server.signup("Bob")
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


def main() -> int:
    server = Server(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=QUIET)
        for width, size in SIZES.items():
            page = browser.new_page(viewport=size)
            page.goto(battle_line(server))
            page.locator('#hand button[data-card="6P"]').click()
            page.locator('#table button.marker[data-flag="7"]').click()
            page.locator("#chooser").get_by_role("button", name="Claim flag 7").click()
            page.locator("#message").fill("We shall see, Bob!")
            page.locator("#chooser .deck.troop").focus()
            shoot(page, f"board-battleline-{width}")
            page.goto(khan(server))
            page.locator('#chooser [data-kind="deploy"]').click()
            page.locator("#chooser").get_by_role("button", name="Horse archers").click()
            shoot(page, f"board-khan-{width}")
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
