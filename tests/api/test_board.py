"""The board in a browser, through the API: a seat's signed link plays as that seat; a public
game's board is open to anyone, and shows no hand."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit
from tests.conftest import signed_link


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def test_a_seats_board_link_shows_its_hand_and_plays_its_steps(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1})
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body
    assert link["seat"] == 1
    page = api.get(path_of(link["url"]))
    assert page.status == 200 and "<svg" in page.body and "Your move" in page.body
    view_path = path_of(link["url"]).replace("/board?", "/board/view?")
    view = api.get(view_path).body
    assert view["hand"] == game["state"]["hand"] and view["you"] == 1
    step = next(c["step"] for c in view["steps"] if c["step"]["type"] == "play")
    played = api.post(view_path.replace("/board/view?", "/board/steps?"), {"expected_version": 0, "step": step})
    assert played.status == 200 and played.body["version"] == 1
    stale = api.post(view_path.replace("/board/view?", "/board/steps?"), {"expected_version": 0, "step": step})
    assert stale.status == 409 and stale.body["code"] == "version_conflict"


def test_a_private_games_board_needs_a_seats_link(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = api.new_game(ann, [ann, bob])
    assert api.get(f"/v1/games/{game['game_id']}/board/view").body["code"] == "game_not_public"
    assert api.get(f"/v1/games/{game['game_id']}/board").status == 403
    reply = api.get(f"/v1/games/{game['game_id']}/board-link", key=cat["api_key"])
    assert reply.status == 403 and reply.body["code"] == "not_seated"
    forged = api.get(f"/v1/games/{game['game_id']}/board/view?seat=abc.def.ghi")
    assert forged.status == 403 and forged.body["code"] == "invalid_link"


def test_a_public_games_board_shows_no_hand_and_no_steps(api):
    ann, bob, cat = api.signup("Ann"), api.signup("Bob"), api.signup("Cat")
    game = api.new_game(ann, [ann, bob], public=True)
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=cat["api_key"]).body
    assert link["seat"] is None
    view = api.get(path_of(link["url"]).replace("/board", "/board/view")).body
    assert view["hand"] == [] and view["steps"] == [] and view["you"] is None
    assert not any(card in view["svg"] or card in view["text"] for card in game["state"]["hand"])
    reply = api.post(f"/v1/games/{game['game_id']}/board/steps", {"expected_version": 0, "step": {"type": "pass"}})
    assert reply.status == 403 and reply.body["code"] == "not_seated"


def test_a_board_link_for_one_game_does_not_open_another(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    first, second = api.new_game(ann, [ann, bob]), api.new_game(ann, [ann, bob])
    link = api.get(f"/v1/games/{first['game_id']}/board-link", key=ann["api_key"]).body["url"]
    token = urlsplit(link).query.removeprefix("seat=")
    reply = api.get(f"/v1/games/{second['game_id']}/board/view?seat={token}")
    assert reply.status == 403 and reply.body["code"] == "invalid_link"


def test_a_khan_board_shows_the_field_and_plays_a_clicked_step(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], game="khan", options={"first_seat": 1}, public=True)
    link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body
    view_path = path_of(link["url"]).replace("/board?", "/board/view?")
    view = api.get(view_path).body
    assert view["game"] == "khan" and "<svg" in view["svg"] and view["headline"] == "Your move"
    place = next(c for c in view["steps"] if c["step"] == {"type": "place", "unit": "heavy_cavalry"})
    assert place["label"] == "Place Heavy cavalry as your first unit"
    played = api.post(view_path.replace("/board/view?", "/board/steps?"), {"expected_version": 0, "step": place["step"]})
    assert played.status == 200 and played.body["version"] == 1 and played.body["headline"] == "Bob is to move"
    watched = api.get(f"/v1/games/{game['game_id']}/board/view").body  # a spectator: no hand, no steps
    assert watched["version"] == 1 and watched["hand"] == [] and watched["steps"] == []
    commands = [card for card in played.body["hand"] if not card.endswith(("cavalry", "archers", "men"))]
    assert commands and not any(card in watched["svg"] or card in watched["text"] for card in commands)


# ---------------------------------------------------------------- what the board tells (issue 17)

def board_paths(api, player: dict, game_id: str) -> tuple[str, str]:
    """(the seat's board view path, its steps path)."""
    link = api.get(f"/v1/games/{game_id}/board-link", key=player["api_key"]).body["url"]
    view = path_of(link).replace("/board?", "/board/view?")
    return view, view.replace("/board/view?", "/board/steps?")


def first_turn(game: dict, flag: int = 5) -> list[dict]:
    card = next(s for s in game["legal_steps"] if s["type"] == "play")["card"]
    return [{"type": "play", "card": card, "flag": flag}, {"type": "claim", "flags": []},
            {"type": "draw", "deck": "troop"}]


def test_the_board_names_the_players_and_tells_what_the_opponent_just_did(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=42, options={"first_seat": 1})
    turn = first_turn(game)
    assert api.act(ann, game["game_id"], 0, *turn).status == 200
    view_path, _ = board_paths(api, bob, game["game_id"])
    view = api.get(view_path).body
    assert view["headline"] == "Your move" and view["phase"] == "play"
    assert [(s["seat"], s["label"]) for s in view["seats"]] == [(1, "Ann"), (2, "You")]
    assert view["recap"] and all(line.startswith("Ann ") for line in view["recap"])
    assert any("flag 5" in line for line in view["recap"])
    assert any(line.startswith("Decks:") for line in view["counts"])
    flag = view["table"]["flags"][4]
    assert flag["top"] == {"seat": 1, "cards": [turn[0]["card"]]} and flag["bottom"] == {"seat": 2, "cards": []}
    anns_path, _ = board_paths(api, ann, game["game_id"])
    assert api.get(anns_path).body["headline"] == "Bob is to move"


def test_the_move_log_grows_by_the_new_lines_only(api, services):
    reads = []
    list_events = services.boards.list_events
    services.boards.list_events = lambda game_id, after: reads.append(after) or list_events(game_id, after)
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=42, options={"first_seat": 1})
    view_path, _ = board_paths(api, ann, game["game_id"])
    api.act(ann, game["game_id"], 0, *first_turn(game))
    whole = api.get(view_path).body
    assert len(whole["log"]) >= 2 and [line["seq"] for line in whole["log"]] == sorted(line["seq"] for line in whole["log"])
    assert any("You played" in line["text"] for line in whole["log"])
    # Nothing new: no line, and nothing retold (the recap and drawn cards stay as the page has them).
    read_before = len(reads)
    assert read_before  # (the board reads through the patched call)
    again = api.get(f"{view_path}&after={whole['log_seq']}").body
    assert len(reads) == read_before  # the page's poll while nothing happens reads no event
    assert again["log"] == [] and again["recap"] is None and again["drawn"] is None
    assert again["log_seq"] == whole["log_seq"]
    bobs = api.view(bob, game["game_id"])
    api.act(bob, game["game_id"], 1, *first_turn(bobs, flag=4))
    later = api.get(f"{view_path}&after={whole['log_seq']}").body
    assert later["log"] and all(line["seq"] > whole["log_seq"] for line in later["log"])
    assert all(line["text"].startswith("Bob ") for line in later["log"]) and later["recap"]


def test_a_whole_turn_is_sent_as_one_action_and_the_drawn_card_is_shown(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=42, options={"first_seat": 1})
    view_path, steps_path = board_paths(api, ann, game["game_id"])
    turn = first_turn(game)
    played = api.post(steps_path, {"expected_version": 0, "steps": turn})
    assert played.status == 200, played.body
    assert played.body["version"] == 1 and played.body["to_move"] == 2
    drawn = played.body["drawn"]
    assert len(drawn) == 1 and drawn[0] in played.body["hand"] and turn[0]["card"] not in played.body["hand"]
    assert any(line["text"].startswith("You drew") for line in played.body["log"])


def test_a_board_posts_one_step_or_several_never_both(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=42, options={"first_seat": 1})
    _, steps_path = board_paths(api, ann, game["game_id"])
    turn = first_turn(game)
    for body in ({"expected_version": 0, "step": turn[0], "steps": turn}, {"expected_version": 0},
                 {"expected_version": 0, "steps": []}, {"expected_version": 0, "step": None}):
        reply = api.post(steps_path, body)
        assert reply.status == 422 and reply.body["code"] == "invalid_request", body
    # All or nothing: a turn whose last step is refused leaves the game as it was.
    refused = api.post(steps_path, {"expected_version": 0, "steps": [*turn[:2], {"type": "draw", "deck": "nowhere"}]})
    assert refused.status == 422 and api.view(ann, game["game_id"])["version"] == 0


def test_every_legal_step_is_said_in_a_sentence_with_card_names(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=42, options={"first_seat": 1})
    view_path, _ = board_paths(api, ann, game["game_id"])
    view = api.get(view_path).body
    assert len(view["steps"]) == len(game["legal_steps"])
    labels = {c["label"] for c in view["steps"]}
    assert "Play 8R at flag 5" in labels and "Resign" in labels  # issue 35: the step table's sentence
    faces = view["table"]["cards"]
    assert faces["5O"]["colour_name"] == "orange" and faces["5O"]["value"] == "5" and faces["5O"]["name"] == "5 orange"
    assert all(c["claimable_after"] == [] for c in view["steps"] if c["step"]["type"] == "play")


def khan_after_a_deployment(api):
    """A Khan & General game after both first units and Ann's turn: light cavalry deployed face down
    at (-1, 0), a lance paid into her command zone. Ann, Bob and the game's id."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], game="khan", options={"first_seat": 1})
    gid = game["game_id"]
    api.act(ann, gid, 0, {"type": "place", "unit": "heavy_cavalry"})
    api.act(bob, gid, 1, {"type": "place", "unit": "spearmen"})
    api.act(ann, gid, 2, {"type": "deploy", "unit": "light_cavalry", "at": {"x": -1, "y": 0}, "facing": "N"},
            {"type": "pay", "card": "lance"})
    return ann, bob, gid


def test_a_khan_board_names_the_cards_and_shows_the_card_economy(api):
    ann, bob, gid = khan_after_a_deployment(api)
    view_path, _ = board_paths(api, ann, gid)
    view = api.get(view_path).body
    table = view["table"]
    assert (table["round"], table["max_rounds"], table["played"]) == (1, 40, 2)
    mine = next(side for side in table["sides"] if side["seat"] == 1)
    assert mine["name"] == "You" and mine["limit"] == 2 and mine["units_left"] == 5
    assert mine["sequences"][0]["label"] == "Sequence 1: 1 card, pays a cost of 1"
    assert mine["sequences"][0]["shown"] == "Lance"
    legend = {row["abbr"]: row for row in table["legend"]}
    assert legend["HC"]["name"].startswith("Heavy cavalry") and legend["HC"]["words"] == "power 4, melee"
    assert legend["SP"]["name"].startswith("Spearmen")
    assert [mark["mark"] for mark in table["marks"]] == ["facing", "power", "wounded", "face_down", "command", "grappled"]
    assert table["cards"]["charge"]["name"] == "Charge" and table["cards"]["charge"]["cost"] == 1
    assert not any("_" in c["label"] for c in view["steps"])  # card set names, never ids
    theirs = api.get(board_paths(api, bob, gid)[0]).body["table"]
    anns = next(side for side in theirs["sides"] if side["seat"] == 1)
    assert anns["name"] == "Ann" and anns["sequences"][0]["cards"] is None
    assert anns["sequences"][0]["shown"] == "1 card face down"


TOKEN = re.compile(r"seat=[^\"'&\s]+")


def hidden_cards_seen(text: str, cards: set[str]) -> set[str]:
    """The cards named in ``text`` as words of their own (a link's token left out)."""
    text = TOKEN.sub("seat=", text)
    return {card for card in cards if re.search(rf"(?<![A-Za-z0-9_]){re.escape(card)}(?![A-Za-z0-9_])", text)}


def test_a_board_never_shows_the_other_seats_hand(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=11, options={"first_seat": 1})
    gid = game["game_id"]
    players = {1: ann, 2: bob}
    for version in range(8):  # four turns each, drawing tactics too: the hands hold troops and tactics
        seat = 1 + version % 2
        view = api.view(players[seat], gid)
        play = next(s for s in view["legal_steps"] if s["type"] == "play" and s["card"][0].isdigit())
        deck = "tactics" if version < 4 else "troop"
        assert api.act(players[seat], gid, version, play, {"type": "claim", "flags": []},
                       {"type": "draw", "deck": deck}).status == 200
    for seat, other in ((1, 2), (2, 1)):
        hidden = set(api.view(players[other], gid)["state"]["hand"])
        assert any(not card[0].isdigit() for card in hidden)  # a tactic among them
        view_path, _ = board_paths(api, players[seat], gid)
        page = api.get(view_path.replace("/board/view?", "/board?"))
        body = api.get(view_path)
        assert hidden and not hidden_cards_seen(page.body, hidden) and not hidden_cards_seen(json.dumps(body.body), hidden)
        assert body.body["hand"] and hidden_cards_seen(json.dumps(body.body), set(body.body["hand"]))  # the test sees


def test_a_khan_board_never_shows_the_other_seats_hand_or_payments(api):
    ann, bob, gid = khan_after_a_deployment(api)
    bobs = api.view(bob, gid)
    hidden = set(api.view(ann, gid)["state"]["hand"]) | {"lance", "light_cavalry"}  # Ann's hand, payment, face-down unit
    hidden -= {u["unit"] for u in bobs["state"]["field"] if u["unit"]} | set(bobs["state"]["hand"]) | set(bobs["state"]["deck"])
    view_path, _ = board_paths(api, bob, gid)
    page = api.get(view_path.replace("/board/view?", "/board?")).body
    body = json.dumps(api.get(view_path).body, ensure_ascii=False)
    assert "lance" in hidden and not hidden_cards_seen(page, hidden) and not hidden_cards_seen(body, hidden)
    assert "Lance" not in page and "Light cavalry" not in body


# ---------------------------------------------------------------- the claim a play makes provable

def test_a_play_that_completes_a_provable_flag_plans_its_claim():
    from chalicelib.pages.board_battleline import claimable_after

    flags = [{"flag": n, "seats": [1, 2], "cards": [[], []], "environment": [], "environment_seats": {},
              "claimed_by": None, "first_complete": None} for n in range(1, 10)]
    flags[0]["cards"] = [["8R", "9R"], []]
    flags[1]["cards"] = [["2B", "3G"], ["10Y"]]
    view = {"you": 1, "state": {"flags": flags, "discards": {"1": [], "2": []}, "claimable": []}}
    assert claimable_after(view, {"type": "play", "card": "10R", "flag": 1}) == [1]  # the best formation there is
    assert claimable_after(view, {"type": "play", "card": "4P", "flag": 2}) == []  # an unfinished side beats it
    assert claimable_after(view, {"type": "play", "card": "DESERTER", "target": {"flag": 2, "card": "10Y"}}) is None
    assert claimable_after(view, {"type": "pass"}) == []


def test_the_planned_claim_is_the_claim_the_engine_allows_after_the_play():
    """Whole random games: after every play the page plans, the flags it offers to claim are the
    flags the engine's own view then says the seat can claim (completion order and Mud included)."""
    import copy
    import random

    from chalicelib.games import ENGINES
    from chalicelib.pages.board_battleline import claimable_after

    engine = ENGINES["battleline"]
    checked = offered = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = engine.new_game({"first_seat": 1}, random.Random(seed))
        while engine.result(state) is None:
            seat = engine.to_move(state)
            legal = [s for s in engine.legal_steps(state, seat) if s["type"] != "resign"]
            if engine.phase(state) == "play":
                view = {"you": seat, "state": engine.view(state, seat)}
                for step in rng.sample(legal, min(6, len(legal))):
                    planned = claimable_after(view, step)
                    if planned is None:
                        continue
                    after = copy.deepcopy(state)
                    engine.apply_step(after, seat, step)
                    if engine.result(after) is None and engine.phase(after) == "claim":
                        assert planned == engine.view(after, seat)["claimable"], (seed, step)
                        checked += 1
                        offered += bool(planned)
            step = max(legal, key=lambda s: len(s.get("flags", []))) if engine.phase(state) == "claim" else rng.choice(legal)
            engine.apply_step(state, seat, step)
    assert checked > 500 and offered > 10


def test_a_waiting_games_board_says_whom_it_waits_for_and_offers_the_asked_seat_its_answers(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], consent=False, options={"first_seat": 1})
    boards = {}
    for player in (ann, bob):
        link = api.get(f"/v1/games/{game['game_id']}/board-link", key=player["api_key"]).body
        boards[player["name"]] = path_of(link["url"])
    anns = api.get(boards["Ann"].replace("/board?", "/board/view?")).body
    assert anns["status"] == "waiting" and anns["headline"] == "The game waits for Bob to accept"
    assert anns["waiting"]["links"] == [] and anns["steps"] == []
    bobs = api.get(boards["Bob"].replace("/board?", "/board/view?")).body
    assert bobs["headline"] == "The game waits for your answer"
    assert [link["label"] for link in bobs["waiting"]["links"]] == ["Accept the game", "Decline it"]
    assert "Ann moves first." in bobs["waiting"]["summary"]
    page = api.get(boards["Bob"])
    assert page.status == 200 and '<section id="waiting"' in page.body and 'id="table-box"' in page.body
    accept_path = urlsplit(bobs["waiting"]["links"][0]["url"]).path
    assert f'href="http://testserver{signed_link(accept_path)}' in page.body
    assert '<section id="table-box" class="table-box" aria-label="The table" hidden>' in page.body
    # The link opens the answer page; its button starts the game, and the board shows the table.
    assert "Accept: start the game" in api.get(accept_path).body
    api.post(accept_path, headers={"Content-Type": "application/x-www-form-urlencoded"})
    started = api.get(boards["Bob"].replace("/board?", "/board/view?")).body
    assert started["waiting"] is None and started["headline"] == "Ann is to move"


def test_a_declined_or_aborted_games_board_says_who_ended_it(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    declined = api.new_game(ann, [ann, bob], consent=False)
    api.post(f"/v1/games/{declined['game_id']}/decline", key=bob["api_key"])
    aborted = api.new_game(ann, [ann, bob])
    api.post(f"/v1/games/{aborted['game_id']}/abort", key=ann["api_key"])
    for game, expected in ((declined, "Bob declined the game"), (aborted, "You called the game off before its first move")):
        link = api.get(f"/v1/games/{game['game_id']}/board-link", key=ann["api_key"]).body
        view = api.get(path_of(link["url"]).replace("/board?", "/board/view?")).body
        assert view["headline"] == expected
        assert expected in [line["text"] for line in view["log"]]


def test_the_khan_pages_legend_explains_each_command_badge_as_the_emails_legend_does():
    """A command lying on a unit is a badge on the field (SF, PW...): the board page's legend gives its
    name, kind, cost and keywords, the very entries of the emails' legend (render.entries), in the
    reader's language, beside the unit types'."""
    from chalicelib.games.khan import render
    from chalicelib.kernel import i18n
    from chalicelib.pages import board_khan
    from tests.engine.khan.helpers import ENGINE, mid_game

    state = ENGINE.view(mid_game(), 1)
    seats = [{"seat": 1, "name": "Ann", "player_id": "p-ann"}, {"seat": 2, "name": "Bob", "player_id": "p-bob"}]
    for language in ("en", "ja"):
        with i18n.speaking(language):
            legend = board_khan.table({"state": state, "you": 1, "seats": seats}, [])["legend"]
            emails = [row for row in render.legend(render.Board.of(state, 1, {1: "Ann", 2: "Bob"}))
                      if row[0] in ("unit", "command")]
            page = {(row["what"], row["abbr"]): render.Entry(row["what"], row["abbr"], row["name"], row["words"]).said()
                    for row in legend}
            assert all(page.get((what, label)) == words for what, label, words in emails), (page, emails)
            badges = {row["abbr"]: row for row in legend if row["what"] == "command"}
            assert set(badges) == {"LA", "SF", "PW", "BI"}  # each command on the field, none other
            assert badges["SF"]["colour"] == render.KIND_COLOURS["defend"]
        if language == "en":
            assert badges["SF"]["name"] == "Stand firm" and badges["SF"]["words"].startswith("defence, cost ")
            assert badges["LA"]["words"] == "attack, cost 2: power +3, melee, flank +2"
        else:
            assert badges["LA"]["name"] != "Lance" and "cost" not in badges["LA"]["words"]
