"""The board's replay (issue 23, item 3): a page per version (``?v=N``), drawn by the server, with
first, previous, next and last links and a move list; everything once the game is finished, a
seat's own view of each past version while it runs, and nothing a seat or a spectator may not see."""

from __future__ import annotations

import html
import os
import re

import pytest

from tests.mailplay.test_hidden_information import Scanner

from .test_board import board_paths, hidden_cards_seen, khan_after_a_deployment


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


def resign(api, player: dict, gid: str) -> None:
    view = api.view(player, gid)
    assert api.act(player, gid, view["version"], {"type": "resign"}).status == 200


def hands_listed(page: str) -> dict[str, str]:
    """The hands a replay page shows: {heading: the cards as written}."""
    if '<section class="replay-hands"' not in page:
        return {}
    block = page.split('<section class="replay-hands"', 1)[1].split("</section>", 1)[0]
    return {html.unescape(h): html.unescape(p) for h, p in re.findall(r"<h2>([^<]*)</h2>\s*<p>([^<]*)</p>", block)}


def stored_hand(services, gid: str, version: int, seat: int) -> str:
    """A seat's hand at a version as the replay writes it (from the store, not the page)."""
    from chalicelib.games.battleline.cards import sort_hand
    from chalicelib.pages.board_battleline import card_name

    state = services.store.load_version(gid, version)[0].state
    return ", ".join(card_name(c) for c in sort_hand(state["hands"][str(seat)]))


def test_a_finished_games_replay_steps_through_every_version_with_every_hand(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = api.new_game(ann, [ann, bob], seed=11, options={"first_seat": 1})["game_id"]
    played_turns(api, ann, bob, gid, 4)
    resign(api, bob, gid)  # version 5
    path = replay_path(api, ann, gid)
    for version in (0, 2, 5):
        page = api.get(at(path, version)).body
        assert f"Version {version} of 5" in page
        # Once the game is over every hand is public: both, as they were at that version.
        assert hands_listed(page) == {"Ann's hand": stored_hand(services, gid, version, 1),
                                      "Bob's hand": stored_hand(services, gid, version, 2)}
    first, middle, last = (api.get(at(path, v)).body for v in (0, 2, 5))
    # The board as it was: nothing played at version 0; Ann's first card on the table from version 1.
    anns_first = services.store.load_version(gid, 1)[0].state["flags"]
    played = next(card for flag in anns_first for card in flag["cards"][0])
    from chalicelib.pages.board_battleline import card_name
    assert f"<title>{card_name(played)}</title>" not in first and f"<title>{card_name(played)}</title>" in middle
    assert "Bob resigned" in last or "resign" in last.lower()
    # The controls: first and previous are off at the start, next and last at the end.
    assert control(first, "first") is None and control(first, "previous") is None
    assert version_of(control(first, "next")) == 1 and version_of(control(first, "last")) == 5
    assert [version_of(control(middle, n)) for n in ("first", "previous", "next", "last")] == [0, 1, 3, 5]
    assert control(last, "next") is None and control(last, "last") is None
    assert all("seat=" in control(middle, n) for n in ("first", "previous", "next", "last"))  # still the seat's
    # The move list: one row per version, each a link to it, the one shown marked.
    rows = moves_listed(middle)
    assert len(rows) == 6 and "aria-current" in rows[2] and "UTC" in rows[1]
    assert re.findall(r'<ol class="replay-moves".*?</ol>', middle, re.S)[0].count("v=") == 6
    # Bob's draws are told now that the game is over ("Bob drew Darius"), not just "from the deck".
    assert not any("Bob drew from" in row for row in rows)


def test_a_replay_past_the_last_version_shows_the_last_and_a_negative_one_is_refused(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = api.new_game(ann, [ann, bob], options={"first_seat": 1})["game_id"]
    played_turns(api, ann, bob, gid, 2)
    path = replay_path(api, ann, gid)
    assert "Version 2 of 2" in api.get(at(path, 99)).body and "Version 2 of 2" in api.get(path).body
    refused = api.get(at(path, -1))
    assert refused.status == 422 and refused.body["code"] == "invalid_request"


def a_secret_game(api, services, game: str, monkeypatch, **extra) -> tuple[dict, dict, str]:
    """A game whose seed is drawn and kept secret; HIDDEN_INFO_SEED=<seed> plays again the one a failure names."""
    chosen = os.environ.get("HIDDEN_INFO_SEED")
    if chosen:
        monkeypatch.setattr(services.games, "new_seed", lambda: int(chosen))
    ann, bob = api.signup("Ann"), api.signup("Bob")
    made = api.new_game(ann, [ann, bob], game=game, options={"first_seat": 1}, **extra)
    return ann, bob, made["game_id"]


@pytest.mark.parametrize("watcher", ["seat", "spectator"])
def test_a_replay_of_a_game_in_play_never_shows_what_the_reader_may_not_see(api, services, monkeypatch, watcher):
    ann, bob, gid = a_secret_game(api, services, "battleline", monkeypatch, public=True)
    played_turns(api, ann, bob, gid, 8)  # Bob holds tactics he drew: never seen by Ann
    scanner = Scanner(services, gid, "battleline")
    path = replay_path(api, ann, gid) if watcher == "seat" else f"/v1/games/{gid}/board/replay?lang=en"
    seat = 1 if watcher == "seat" else None
    bobs = set(api.view(bob, gid)["state"]["hand"])
    for version in range(9):
        page = api.get(at(path, version))
        assert page.status == 200
        scanner.check(seat, page.body, f"the replay at version {version}")
        assert not hidden_cards_seen(page.body, bobs)
        if watcher == "seat":
            assert list(hands_listed(page.body)) == ["Your hand"]
        else:
            assert hands_listed(page.body) == {}
    assert scanner.scanned == 9


def test_a_khan_replay_of_a_game_in_play_hides_the_other_hand_then_shows_it_once_finished(api, services):
    ann, bob, gid = khan_after_a_deployment(api)
    scanner = Scanner(services, gid, "khan")
    path = replay_path(api, bob, gid)
    for version in range(4):
        page = api.get(at(path, version)).body
        scanner.check(2, page, f"the Khan replay at version {version}")
        assert "Lance" not in page and list(hands_listed(page)) == ["Your hand"]
    assert "Version 3 of 3" in page and "<svg" in page
    resign(api, ann, gid)
    over = api.get(at(path, 3)).body
    assert "Ann's hand" in hands_listed(over) and "Bob's hand" in hands_listed(over)
    assert "Light cavalry" in over  # her face-down unit, named once everything is public


def test_a_finished_duplicate_board_replays_no_other_hand_while_its_round_plays(api, services):
    """A board's seats still see their own board, but the hands dealt on it are dealt on the round's
    other boards too: while one of them plays, a finished board's replay stays a seat's own view."""
    from .test_tournaments import duplicate_round
    from .test_tournaments import resign as resign_and_settle

    _organiser, _outsider, _t, [(first, ann, bob), _second] = duplicate_round(api)
    resign_and_settle(api, services, bob, first)
    page = api.get(at(replay_path(api, ann, first), 0)).body
    assert list(hands_listed(page)) == ["Your hand"]


def test_the_board_page_links_to_its_replay_as_the_same_seat(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    gid = api.new_game(ann, [ann, bob], options={"first_seat": 1})["game_id"]
    # One link, read once: a signed link holds the second it was made, so two links may differ.
    path = replay_path(api, ann, gid)
    board = api.get(path.replace("/board/replay?", "/board?")).body
    found = re.search(r'<nav class="replay-link"[^>]*>\s*<a href="([^"]+)"', board)
    assert found and html.unescape(found.group(1)) == path.replace("&lang=en", "")
    back = api.get(html.unescape(found.group(1))).body
    assert "Version 0 of 0" in back and "Your hand" in back


def test_the_move_list_gives_times_in_the_seats_zone_and_the_time_taken_on_a_timed_game(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    assert api.request("PUT", "/v1/players/me/preferences", {"time_zone": "Asia/Tokyo"}, key=ann["api_key"]).status == 200
    timed = api.new_game(ann, [ann, bob], options={"first_seat": 1, "time_control": {"per_move_days": 3}},
                         public=True)["game_id"]
    untimed = api.new_game(ann, [ann, bob], options={"first_seat": 1})["game_id"]
    for gid in (timed, untimed):
        played_turns(api, ann, bob, gid, 2)
    rows = moves_listed(api.get(replay_path(api, ann, timed)).body)
    assert all("(Asia/Tokyo)" in row for row in rows)
    assert "took" not in rows[0] and all("took less than a minute on the clock" in row for row in rows[1:])
    watched = moves_listed(api.get(f"/v1/games/{timed}/board/replay").body)
    assert all(" UTC" in row for row in watched)  # a spectator's zone is not known
    assert not any("took" in row for row in moves_listed(api.get(replay_path(api, ann, untimed)).body))

