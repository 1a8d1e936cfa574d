"""Issue 40: a candidate of the balance search (`make balance`) can be played by email. The card-set
file a (tiny) search writes is checked by the server (checkKhanCardSet: clean), registered as a
designer's file is (a file in the folder KHAN_CARD_SETS_DIR names), and a Khan & General game on it
is made between two players; its invitation names the candidate's card set, and the players play
their turns by replying to their emails."""

from __future__ import annotations

import json
import random
import re
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

import pytest
from markupsafe import escape

from chalicelib.config import build_services
from chalicelib.games.khan.cardset import REGISTRY, Registry
from chalicelib.games.presenters import PRESENTERS
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.mailplay import pages
from chalicelib.notify.dispatcher import Outlets
from khan_lab import search as searching
from tests.lab.test_balance import run_search
from tests.notify.helpers import LINKS, Outbox, html_of, kind_of, text_of


@pytest.fixture(scope="module")
def candidate_file(tmp_path_factory):
    """The best candidate's card-set file, as ``make balance`` writes it, in a designer's card-set folder."""
    result = run_search()
    assert result.candidates
    return searching.write_candidate(result, result.candidates[0], tmp_path_factory.mktemp("cardsets"))


def test_a_balance_candidate_is_accepted_by_the_server_and_played_by_email(store, api, candidate_file, monkeypatch):
    data = json.loads(candidate_file.read_text())
    checked = api.post("/v1/khan/card-sets/check", data).body  # checkKhanCardSet
    assert checked["valid"] is True and checked["problems"] == [] and checked["warnings"] == []
    assert (checked["id"], checked["version"]) == ("khan-default", 2)
    # registered as the server registers a designer's file: read from its card-set folder (KHAN_CARD_SETS_DIR)
    designers = Registry([candidate_file.parent])
    candidate = designers.get("khan-default", 2)
    assert designers.refused == {} and candidate.digest != REGISTRY.get("khan-default", 1).digest
    monkeypatch.setitem(REGISTRY.sets, ("khan-default", 2), candidate)

    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, cat = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Cat"))
    game = services.creation.create_game(ann, CreateGameRequest(
        game="khan", options={"first_seat": 1, "card_set": "khan-default", "card_set_version": 2}, seed=3,
        seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=cat.id)]), None).body
    assert game["status"] == "waiting" and game["state"]["card_set"] == {"id": "khan-default", "version": 2}
    services.dispatcher.drain_outbox()
    invitation = next(m for m in outbox.sent if m["To"] == "cat@example.org" and kind_of(m) == "invited")
    # the email asking Cat to play names the candidate's card set and its version, told apart from the original
    assert f"Card set: {candidate.name}, version 2; at most 40 rounds." in text_of(invitation)
    assert f"Card set: {escape(candidate.name)}, version 2; at most 40 rounds." in html_of(invitation)
    answers = [unquote(urlsplit(url).path.rsplit("/", 1)[1])
               for url in re.findall(r"http://play\.example/v1/answers/[^\s\"<]+", text_of(invitation))]
    accept = next(token for token in answers if LINKS.read_answer(token).answer == "accept")
    accepted = pages.answer_game(services.mailplay, accept)  # Cat accepts from the email's link
    assert accepted.status == 200, accepted.message
    game_id = game["game_id"]

    rng, by_seat, replies = random.Random(5), {1: "ann@example.org", 2: "cat@example.org"}, []
    while sum(a != b for a, b in zip(replies, replies[1:])) < 3 and len(replies) < 80:
        # the players' turns (at least two each), each step a reply to the latest email the player got
        services.dispatcher.drain_outbox()
        seat = services.games.view_for_seat(game_id, 1)["to_move"]
        got = [m for m in outbox.sent if m["To"] == by_seat[seat]]
        assert got, f"no email for seat {seat}"
        view = services.games.story(game_id, seat)
        step = rng.choice([s for s in view["legal_steps"] if s["type"] != "resign"])
        reply = EmailMessage()
        reply["From"], reply["To"] = by_seat[seat], LINKS.reply_address(game_id, seat, view["version"])
        reply["Message-ID"], reply["Subject"] = f"<r{len(replies)}@example.org>", f"Re: {got[-1]['Subject']}"
        reply.set_content(PRESENTERS["khan"].say_step(step))
        answered = services.inbound.handle(bytes(reply))
        assert answered.outcome == "applied", answered.reason
        replies.append(seat)
    assert sum(a != b for a, b in zip(replies, replies[1:])) >= 3, replies  # Ann, Cat, Ann, Cat at least
    services.dispatcher.drain_outbox()
    assert any(kind_of(m) == "your_turn" for m in outbox.sent if m["To"] == "cat@example.org")
    record = services.moves.find(game_id)
    assert record.state["card_set"]["version"] == 2 and record.version >= len(replies)
