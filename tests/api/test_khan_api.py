"""Khan & General through the API: creation with decks and card sets, play, refusals, hidden
information, events, email and play by email, clocks, ratings and tournaments."""

from __future__ import annotations

import re

import pytest

from chalicelib.games.khan.steps import STEPS
from chalicelib.games.steptypes import CommandError
from chalicelib.notify.email import compose
from chalicelib.notify.messages import Message

from ..engine.khan.test_rules import KHAN_PLUS
from ..notify.helpers import LINKS, confirmations_alone, game_by_mail
from ..mailplay.test_inbound import reply

parse_line, parse_commands, write_step = STEPS.read_line, STEPS.read_commands, STEPS.write


def khan(api, creator, seated, **options):
    return api.new_game(creator, seated, game="khan", options={"first_seat": 1, **options})


def setup_done(api, ann, bob, game):
    """Both first units placed: Ann's heavy cavalry at (0, 0), Bob's spearmen at (0, 1)."""
    assert api.act(ann, game["game_id"], 0, {"type": "place", "unit": "heavy_cavalry"}).status == 200
    reply_ = api.act(bob, game["game_id"], 1, {"type": "place", "unit": "spearmen"})
    assert reply_.status == 200, reply_.body
    return reply_.body["view"]


def test_a_khan_game_is_created_with_recommended_decks_and_its_card_set(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan(api, ann, [ann, bob])
    assert game["game"] == "khan" and game["phase"] == "setup" and game["to_move"] == 1
    assert game["state"]["card_set"] == {"id": "khan-default", "version": 1}
    assert game["state"]["factions"] == {"1": "khan", "2": "general"}
    assert game["options"]["card_set_version"] == 1
    assert set(game["options"]["decks"]) == {"1"}  # only the creator's own deck
    assert api.view(bob, game["game_id"])["options"]["decks"].keys() == {"2"}
    assert [s["type"] for s in game["legal_steps"]] == ["place", "place", "place", "resign"]


def test_a_seat_may_bring_its_own_deck(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan(api, ann, [ann, bob], decks={"1": KHAN_PLUS})
    assert sorted(game["state"]["deck"]) == sorted(KHAN_PLUS)


@pytest.mark.parametrize("options, code, words", [
    ({"decks": {"1": KHAN_PLUS[:14]}}, "invalid_deck", "exactly 10 command cards, not 9"),
    ({"decks": {"2": KHAN_PLUS}}, "invalid_deck", "are not general cards"),
    ({"card_set": "nope"}, "unknown_card_set", "there is no card set nope"),
    ({"card_set_version": 7}, "unknown_card_set", "khan-default version 7"),
    ({"max_rounds": 0}, "invalid_options", "max_rounds"),
    ({"factions": {"1": "khan", "2": "khan"}}, "invalid_options", "factions"),
])
def test_bad_khan_options_are_refused_with_the_reason(api, options, code, words):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    reply_ = api.post("/v1/games", {"game": "khan", "options": options,
                                    "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}, key=ann["api_key"])
    assert reply_.status == 422 and reply_.body["code"] == code and words in reply_.body["detail"], reply_.body


def test_a_turn_is_played_through_the_api_and_the_enemy_sees_an_unknown_unit(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan(api, ann, [ann, bob])
    view = setup_done(api, ann, bob, game)
    assert view["phase"] == "maintenance" and view["to_move"] == 1
    turn = api.act(ann, game["game_id"], view["version"],
                   {"type": "deploy", "unit": "light_cavalry", "at": {"x": -1, "y": 0}, "facing": "N"},
                   {"type": "pay", "card": "lance"}, {"type": "end_action"}, {"type": "end_turn"})
    assert turn.status == 200, turn.body
    assert turn.body["view"]["to_move"] == 2
    bobs = api.view(bob, game["game_id"])
    hidden = next(u for u in bobs["state"]["field"] if (u["x"], u["y"]) == (-1, 0))
    assert hidden["unit"] is None and hidden["facing"] == "N"
    assert bobs["state"]["sequences"]["1"] == [{"cards": None, "size": 1}]
    events = api.get(f"/v1/games/{game['game_id']}/events?after=0", key=bob["api_key"]).body["events"]
    deploy = next(e for e in events if e["type"] == "deploy")
    pay = next(e for e in events if e["type"] == "pay")
    assert "unit" not in deploy["data"] and "card" not in pay["data"]
    mine = api.get(f"/v1/games/{game['game_id']}/events?after=0", key=ann["api_key"]).body["events"]
    assert next(e for e in mine if e["type"] == "deploy")["data"]["unit"] == "light_cavalry"


def test_illegal_and_malformed_khan_steps_are_refused_with_stable_codes(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan(api, ann, [ann, bob])
    view = setup_done(api, ann, bob, game)
    game_id, version = game["game_id"], view["version"]
    cases = [
        ({"type": "deploy", "unit": "light_cavalry", "at": {"x": 1, "y": 1}, "facing": "N"}, 422, "illegal_action"),
        ({"type": "deploy", "unit": "Light Cavalry", "at": {"x": -1, "y": 0}, "facing": "N"}, 422, "invalid_card"),
        ({"type": "deploy", "unit": "trebuchet", "at": {"x": -1, "y": 0}, "facing": "N"}, 422, "invalid_card"),
        ({"type": "deploy", "unit": "light_cavalry", "at": {"x": -1}, "facing": "N"}, 422, "invalid_step"),
        ({"type": "fly"}, 422, "invalid_step"),
    ]
    for step, status, code in cases:
        reply_ = api.act(ann, game_id, version, step)
        assert (reply_.status, reply_.body["code"]) == (status, code), (step, reply_.body)
        assert reply_.headers["content-type"] == "application/problem+json"
    reply_ = api.act(bob, game_id, version, {"type": "end_action"})
    assert (reply_.status, reply_.body["code"]) == (403, "not_your_turn")
    # All or nothing: a good step followed by a bad one changes nothing.
    reply_ = api.act(ann, game_id, version, {"type": "pay", "card": "lance"}, {"type": "pay", "card": "raid"})
    assert reply_.body["code"] == "illegal_action" and reply_.body["step_index"] == 1
    assert api.view(ann, game_id)["version"] == version


def test_resigning_a_khan_game_gives_its_result(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan(api, ann, [ann, bob])
    view = setup_done(api, ann, bob, game)
    reply_ = api.act(bob, game["game_id"], view["version"], {"type": "resign"})
    assert reply_.body["view"]["result"] == {"winner": 1, "reason": "resign", "destroyed": {"1": 0, "2": 0},
                                             "wounded": {"1": 0, "2": 0}}
    assert reply_.body["view"]["status"] == "finished"


def test_a_khan_game_takes_a_time_control_and_is_rated(api, services):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan(api, ann, [ann, bob], time_control={"per_move_days": 2})
    assert game["clock"]["control"] == {"per_move_days": 2} and game["clock"]["seats"][0]["running"] is True
    view = setup_done(api, ann, bob, game)
    api.act(ann, game["game_id"], view["version"], {"type": "resign"})
    services.dispatcher.drain_outbox()
    ratings = api.get("/v1/players/me", key=bob["api_key"]).body["ratings"]
    assert ratings["khan"]["wins"] == 1 and "battleline" not in ratings


# ---------------------------------------------------------------- email and play by email

@pytest.fixture
def khan_by_mail(store):
    return game_by_mail(store, "khan")


def test_a_khan_your_move_email_draws_the_field_and_shows_nothing_hidden(khan_by_mail):
    from chalicelib.http.models import ActionRequest

    services, _, _, game, ann, bob = khan_by_mail
    gid = game["game_id"]
    services.games.post_action(ann, gid, ActionRequest(expected_version=0, steps=[{"type": "place", "unit": "heavy_cavalry"}]),
                        None)
    services.games.post_action(bob, gid, ActionRequest(expected_version=1, steps=[{"type": "place", "unit": "spearmen"}]),
                        None)
    services.games.post_action(ann, gid, ActionRequest(expected_version=2, steps=[
        {"type": "deploy", "unit": "horse_archers", "at": {"x": 1, "y": -1}, "facing": "N"},
        {"type": "pay", "card": "lance"}, {"type": "end_action"}, {"type": "end_turn"}]), None)
    view = services.games.view_for_seat(gid, 2)
    message = Message("m1", "game.your_turn", bob.id, {"game_id": gid, "game": "khan", "seat": 2}, "now")
    mail = compose(message, services.store.get_player(bob.id), view, LINKS)
    text = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    assert mail["Subject"] == f"Khan & General with Ann (game {gid})" and "<table" in html  # mail clients draw no SVG
    assert "horse_archers" not in text and "horse_archers" not in html and "lance" not in text
    assert "Horse archers" not in text and "Horse archers" not in html and "Lance" not in text + html
    assert "unknown unit" in text
    links = re.findall(r'href="(http://play\.example/v1/links/[^"]+)"', html)
    assert 0 < len(links) <= len(view["legal_steps"])
    assert "deployments" in text and "/board?seat=" in text and mail["Reply-To"].startswith("play+")


def test_a_khan_reply_is_played_as_commands(khan_by_mail):
    services, inbound, outbox, game, ann, bob = khan_by_mail
    address = LINKS.reply_address(game["game_id"], 1, 0)
    result = inbound.handle(reply("Ann <ann@example.org>", address, "place heavy_cavalry\n"))
    assert result.outcome == "applied", result.reason
    confirmations_alone(services)  # (her turn passed: held for her next email, alone if none follows)
    assert "Played: place heavy_cavalry" in outbox.sent[-1].get_body(("plain",)).get_content()
    address = LINKS.reply_address(game["game_id"], 2, 1)
    result = inbound.handle(reply("Bob <bob@example.org>", address, "place spearmen", "<r2@example.org>"))
    assert result.outcome == "applied"
    address = LINKS.reply_address(game["game_id"], 1, 2)
    text = "deploy light_cavalry -1 0 N\npay lance\nend action\nend turn\n"
    result = inbound.handle(reply("Ann <ann@example.org>", address, text, "<r3@example.org>"))
    assert result.outcome == "applied", result.reason
    assert services.games.view_for_seat(game["game_id"], 1)["to_move"] == 2
    bad = inbound.handle(reply("Bob <bob@example.org>", LINKS.reply_address(game["game_id"], 2, 3), "charge!",
                               "<r4@example.org>"))
    assert bad.outcome == "refused" and "deploy light_cavalry -1 0 N" in outbox.sent[-1].get_body(("plain",)).get_content()


@pytest.mark.parametrize("line, step", [
    ("place heavy_cavalry", {"type": "place", "unit": "heavy_cavalry"}),
    ("Deploy Light_Cavalry -1 0 n", {"type": "deploy", "unit": "light_cavalry", "at": {"x": -1, "y": 0}, "facing": "N"}),
    ("command charge 0 0 seq 1", {"type": "command", "card": "charge", "at": {"x": 0, "y": 0}, "sequence": 1}),
    ("command gallop (0, 0)", {"type": "command", "card": "gallop", "at": {"x": 0, "y": 0}}),
    ("pay lance", {"type": "pay", "card": "lance"}),
    ("pay lance seq 2", {"type": "pay", "card": "lance", "sequence": 2}),
    ("move 0 0 to 1 2 E", {"type": "move", "at": {"x": 0, "y": 0}, "to": {"x": 1, "y": 2}, "facing": "E"}),
    ("turn 0 0 w", {"type": "turn", "at": {"x": 0, "y": 0}, "facing": "W"}),
    ("engage 0 1 with 0 0, 1 1", {"type": "engage", "target": {"x": 0, "y": 1},
                                  "attackers": [{"x": 0, "y": 0}, {"x": 1, "y": 1}]}),
    ("end engagements", {"type": "end_engagements"}),
    ("discard 0 0", {"type": "discard_defence", "at": {"x": 0, "y": 0}}),
    ("offer draw", {"type": "offer_draw"}),
    ("stay", {"type": "stay"}),
])
def test_khan_text_commands_read_and_write_every_step(line, step):
    assert parse_line(line) == step
    assert parse_line(write_step(step)) == step


@pytest.mark.parametrize("text, reason", [
    ("deploy light_cavalry one 0 N", "not a coordinate"), ("turn 0 0 up", "not a facing"),
    ("pay lance sequence", "write the sequence as 'seq 2'"), ("charge!", "cannot read"), ("", "no command"),
])
def test_unreadable_khan_commands_say_why(text, reason):
    with pytest.raises(CommandError, match=reason):
        parse_commands(text)


def test_a_khan_line_of_only_brackets_and_commas_is_unreadable_not_a_crash():
    """"(", ")" and "," read as spaces: a line of nothing else has no words (it used to raise IndexError)."""
    with pytest.raises(CommandError, match=r"cannot read '\(, \)'"):
        parse_commands("(, )")


# ---------------------------------------------------------------- tournaments

def test_a_khan_tournament_plays_match_games_at_once_with_seats_alternating_scoring_1_half_0(api, services):
    from .test_tournaments import create, get, join, start

    ann, bob = api.signup("Ann"), api.signup("Bob")
    t = create(api, ann, game="khan", match_games=2)
    join(api, t, ann, bob)
    t = start(api, ann, t)
    pairing = t["pairings"][0]
    assert t["match_games"] == 2 and len(pairing["game_ids"]) == 2
    first, second = (services.moves.find(g) for g in pairing["game_ids"])
    assert [s.player_id for s in first.seats] == [s.player_id for s in reversed(second.seats)]
    by_id = {ann["id"]: ann, bob["id"]: bob}
    # Game 1: seat 2 resigns. Game 2: the players agree a draw.
    loser = by_id[first.seats[1].player_id]
    assert api.act(loser, first.id, 0, {"type": "resign"}).status == 200
    for version in (0, 1):  # each seat places its first unit (a random seat starts)
        mover = by_id[second.seats[api.view(ann, second.id)["to_move"] - 1].player_id]
        assert api.act(mover, second.id, version, api.view(mover, second.id)["legal_steps"][0]).status == 200
    opener = by_id[second.seats[api.view(ann, second.id)["to_move"] - 1].player_id]
    other = ann if opener is bob else bob
    assert api.act(opener, second.id, 2, {"type": "offer_draw"}).status == 200
    assert api.act(other, second.id, 3, {"type": "accept_draw"}).status == 200
    services.dispatcher.drain_outbox()
    rows = api.get(f"/v1/tournaments/{t['id']}/standings").body["standings"]
    winner = first.seats[0].player_id
    assert {r["player_id"]: r["points"] for r in rows} == {winner: 1.5, loser["id"]: 0.5}
    assert get(api, t)["status"] == "finished"


def test_a_battle_line_tournament_takes_match_games_as_its_match(api):
    from .test_tournaments import create

    ann = api.signup("Ann")
    t = create(api, ann, match_games=3)
    assert t["match_games"] == 3 and t["options"]["match_games"] == 3
    reply_ = api.post("/v1/tournaments", {"name": "x", "game": "battleline", "format": "swiss", "match_games": 3,
                                          "options": {"match_games": 5}}, key=ann["api_key"])
    assert reply_.status == 422 and reply_.body["code"] == "invalid_tournament"


# ---------------------------------------------------------------- card sets

def test_the_card_sets_are_listed_and_readable_without_an_account(api):
    listed = api.get("/v1/khan/card-sets").body
    assert {"id": "khan-default", "version": 1} in [{"id": c["id"], "version": c["version"]} for c in listed["card_sets"]]
    document = api.get("/v1/khan/card-sets/khan-default").body
    charge = next(c for c in document["commands"] if c["id"] == "charge")
    assert charge["keywords"] == ["mobility 2", "power +2", "melee"] and document["version"] == 1
    assert api.get("/v1/khan/card-sets/khan-default?version=1").body["digest"] == document["digest"]
    missing = api.get("/v1/khan/card-sets/nope")
    assert missing.status == 404 and missing.body["code"] == "card_set_not_found"


def test_a_designer_checks_a_card_set_file_and_hears_every_fault_by_entry(api):
    document = api.get("/v1/khan/card-sets/khan-default").body
    mine = {k: v for k, v in document.items() if k not in ("digest",)}
    mine.update(id="my-set", version=1)
    good = api.post("/v1/khan/card-sets/check", mine).body
    assert good["valid"] is True and good["problems"] == []
    next(c for c in mine["commands"] if c["id"] == "lance")["units"] = ["heavy_cav"]
    mine["units"][0]["base"] = -1
    bad = api.post("/v1/khan/card-sets/check", mine).body
    assert bad["valid"] is False and any(p.startswith("units[heavy_cavalry].base") for p in bad["problems"])
    assert api.post("/v1/khan/card-sets/check", raw="[1, 2]").body["code"] == "invalid_request"


def test_a_designer_hears_that_a_published_id_and_version_cannot_change_and_what_is_likely_a_mistake(api):
    """Issue 20: the check said valid to a file reusing khan-default version 1 with other rules, which
    the server then refused to load; and it said nothing of cards a designer surely did not mean."""
    document = api.get("/v1/khan/card-sets/khan-default").body
    mine = {k: v for k, v in document.items() if k not in ("digest",)}
    next(c for c in mine["commands"] if c["id"] == "push_of_pike")["units"] = "all"  # archers take a melee card
    clash = api.post("/v1/khan/card-sets/check", mine).body
    assert clash["valid"] is False and clash["warnings"] == []
    assert clash["problems"][0].startswith("version: khan-default version 1 is already defined by khan-default.v1.json")
    assert "give this file version 2" in clash["problems"][0]
    mine["version"] = 2
    checked = api.post("/v1/khan/card-sets/check", mine).body
    assert checked["valid"] is True and checked["version"] == 2 and checked["problems"] == []
    assert checked["warnings"] == ["commands[push_of_pike].units: archers may take this melee attack but cannot make "
                                   "it (the card would be wasted on it); name the units that can: "
                                   "[\"spearmen\", \"swordsmen\"]"]


def test_a_khan_step_link_shows_the_field_and_plays_the_step(api):
    from ..conftest import LINKS as SERVICE_LINKS

    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = khan(api, ann, [ann, bob])
    step = {"type": "place", "unit": "horse_archers"}
    path = SERVICE_LINKS.step_url(game["game_id"], 1, 0, step).removeprefix(SERVICE_LINKS.base_url)
    page = api.get(path)
    assert page.status == 200 and "Place Horse archers as your first unit?" in page.body
    assert "<table" in page.body and "Set-up: each side places its first unit" in page.body  # the field
    played = api.post(path)
    assert played.status == 200 and "You placed Horse archers" in played.body
    assert api.view(ann, game["game_id"])["state"]["field"][0]["unit"] == "horse_archers"
