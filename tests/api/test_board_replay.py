"""The board's replay (issue 23, item 3): a page per version (``?v=N``), drawn by the server, with
first, previous, next and last links and a move list; everything once the game is finished, a
seat's own view of each past version while it runs, and nothing a seat or a spectator may not see."""

from __future__ import annotations

import html
import re

from .test_board import board_paths, first_turn, hidden_cards_seen, khan_after_a_deployment


def replay_path(api, player: dict, game_id: str) -> str:
    view_path, _steps = board_paths(api, player, game_id)
    return view_path.replace("/board/view?", "/board/replay?")


def at(path: str, version: int) -> str:
    return f"{path}&v={version}"


def control(page: str, name: str) -> str | None:
    """The link of a replay control (first, previous, next, last), None when it is disabled."""
    found = re.search(rf'<a class="replay-button" id="replay-{name}" href="([^"]+)"', page)
    return html.unescape(found.group(1)) if found else None


def version_of(url: str) -> int:
    return int(re.search(r"[?&]v=(\d+)", url).group(1))


def moves_listed(page: str) -> list[str]:
    block = page.split('<ol class="replay-moves"', 1)[1].split("</ol>", 1)[0]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip() for item in block.split("<li")[1:]]


def played_turns(api, ann, bob, gid, turns: int) -> None:
    players = {1: ann, 2: bob}
    for version in range(turns):
        seat = 1 + version % 2
        view = api.view(players[seat], gid)
        play = next(s for s in view["legal_steps"] if s["type"] == "play" and s["card"][0].isdigit())
        deck = "tactics" if version < 4 else "troop"
        assert api.act(players[seat], gid, version, play, {"type": "claim", "flags": []},
                       {"type": "draw", "deck": deck}).status == 200


def test_smoke(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=11, options={"first_seat": 1})
    gid = game["game_id"]
    played_turns(api, ann, bob, gid, 4)
    path = replay_path(api, ann, gid)
    page = api.get(at(path, 2))
    assert page.status == 200, page.body
    print(page.body)
    print(moves_listed(page.body))
