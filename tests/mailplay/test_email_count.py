"""Issue 36 item 1: at most one email per opponent turn. Whole two-player games are played by the
API, by email replies and by the emails' links, and every email each player gets is counted: the
one that asks them (or tells the creator the game is made), then one for each turn the opponent
ends (the opponent's answer to the challenge counts as one; a game that begins on the answerer's
move tells him so), and the game's end (folded into the
last turn's email when the opponent ended it). A reply's confirmation goes first in the next email
of the game, or alone once no other email followed within ten minutes; never two alike."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

import pytest

from chalicelib.config import build_services
from chalicelib.games.presenters import PRESENTERS
from chalicelib.mailplay import pages
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, PlayerSeat, Preferences
from chalicelib.notify.dispatcher import Outlets
from tests.fakes import FakeClock
from tests.mailplay.test_hidden_information import form_for, links_for
from tests.mailplay.test_languages_by_mail import a_turn
from tests.notify.helpers import LINKS, Outbox, kind_of, text_of, token_of

MINUTE = timedelta(minutes=1)


def challenge(store, first_seat: int, digest: bool = False):
    """Ann challenges Bob (he is asked); the clock is the test's, the sweeper run by hand."""
    clock = FakeClock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    outbox = Outbox()
    services = build_services(store, clock=clock, outlets=Outlets(links=LINKS, mailer=outbox))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Bob"))
    if digest:
        services.players.set_preferences(bob, Preferences(digest={"enabled": True, "time": "08:00"}))
    game = services.creation.create_game(ann, CreateGameRequest(
        game="battleline", seed=11, options={"first_seat": first_seat},
        seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body
    return services, outbox, clock, {1: ann, 2: bob}, game["game_id"]


def deliver(services, clock, minutes: int = 3) -> None:
    """Time passes (less than a confirmation's window unless told), the outbox and the sweeper run."""
    clock.advance(minutes * MINUTE)
    services.dispatcher.drain_outbox()
    services.dispatcher.run_due()


def reply(services, inbound, outbox, player, address_of, text: str, n: int):
    """The player answers the latest email of the game that a reply answers."""
    last = next(m for m in reversed(outbox.sent) if m["To"] == address_of(player) and m["Reply-To"])
    message = EmailMessage()
    message["From"], message["To"] = address_of(player), last["Reply-To"]
    message["Subject"], message["Message-ID"] = "Re: " + last["Subject"], f"<r{n}@example.org>"
    message.set_content(text)
    result = inbound.handle(bytes(message))
    assert result.outcome == "applied", result.reason
    return result


def play_whole_game(store, how: str, first_seat: int, digest: bool = False):
    services, outbox, clock, people, game_id = challenge(store, first_seat, digest)
    inbound = services.inbound
    address_of = {p.id: f"{p.name.lower()}@example.org" for p in people.values()}
    address = lambda p: address_of[p.id]  # noqa: E731
    rng = random.Random(5)
    deliver(services, clock)
    # Bob answers the challenge (an answer from the opponent, as Ann counts her emails)
    if how == "api":
        services.lobby.accept(people[2], game_id)
    elif how == "reply":
        reply(services, inbound, outbox, people[2], address, "accept", 0)
    else:
        asked = next(m for m in outbox.sent if m["To"] == "bob@example.org")
        lines = text_of(asked).splitlines()
        accept = token_of(lines[lines.index("To accept (a page asks you to confirm):") + 1])  # the email's own link
        assert pages.answer_game(services.mailplay, accept).status == 200
    deliver(services, clock)
    turns = {1: 0, 2: 1}  # Bob's answer counts as his for Ann
    ended_by = None
    for n in range(1, 300):
        view = services.games.view_for_seat(game_id, 1)
        if view["status"] == "finished":
            break
        seat = view["to_move"]
        player = people[seat]
        urls = links_for(services.games.story(game_id, seat), "en") if how == "link" else []
        if how == "reply":
            steps = a_turn(services.moves.find(game_id).state, seat, rng)
            reply(services, inbound, outbox, player, address,
                  "\n".join(PRESENTERS["battleline"].say_step(s) for s in steps), n)
        elif urls:  # the whole turn in two page loads
            token = token_of(rng.choice(urls))
            page = pages.step_link_page(services.mailplay, token, "/v1/links/x")
            played = pages.play_step_link(services.mailplay, token, form_for(page, rng))
            assert played.status == 200, (played.title, played.message)
        else:  # by the API, step by step (each its own version)
            for step in a_turn(services.moves.find(game_id).state, seat, rng):
                version = services.games.view_for_seat(game_id, seat)["version"]
                services.games.post_action(player, game_id, ActionRequest(expected_version=version, steps=[step]), None)
        turns[seat] += 1
        ended_by = seat
        deliver(services, clock)
    deliver(services, clock, minutes=30)  # long after: any confirmation still held would go now
    assert services.games.view_for_seat(game_id, 1)["status"] == "finished"
    return services, outbox, people, turns, ended_by


def emails_to(outbox, address: str) -> list:
    return [m for m in outbox.sent if m["To"] == address]


# Every way of playing, either seat first, on the in-memory store; one of them (by reply, the path that
# writes most: the confirmation held as a due delivery, then folded) again on DynamoDB Local. The count is
# the notifier's; the store's part of it is the same whichever way the moves come.
WHOLE_GAMES = [("memory", how, first) for how in ("api", "reply", "link") for first in (1, 2)] + [
    pytest.param("dynamodb_local", "reply", 2, marks=pytest.mark.integration)]


@pytest.mark.parametrize("store, how, first_seat", WHOLE_GAMES, indirect=["store"])
def test_issue36_item1_at_most_one_email_per_opponent_turn_over_a_whole_game(store, how, first_seat):
    services, outbox, people, turns, ended_by = play_whole_game(store, how, first_seat)
    for seat, player in people.items():
        other = 3 - seat
        mine = emails_to(outbox, f"{player.name.lower()}@example.org")
        kinds = [kind_of(m) for m in mine]
        # the email that asks (or tells the creator it is made), one a turn the opponent ended, and the end
        # (in the email of the opponent's last turn, or its own when this player ended the game)
        # (and Bob, when the game begins on his move, the email of that move: his answer's confirmation in it)
        expected = 1 + turns[other] + (1 if ended_by == seat else 0) + (1 if seat == 2 == first_seat else 0)
        assert len(mine) == expected, (seat, kinds, turns, ended_by)
        assert len({m["Message-ID"] for m in mine}) == len(mine)  # never the same email twice
        assert kind_of(mine[-1]) == "finished"  # the game's end is the last email
        if how == "reply":  # each confirmation went first in the next email: none was sent alone
            assert "confirmed" not in kinds
            assert sum(text_of(m).startswith(("Played:", "You accepted")) for m in mine) >= turns[seat] - 1


def test_issue36_item1_a_confirmation_goes_alone_only_when_no_email_follows_within_ten_minutes(store):
    services, outbox, clock, people, game_id = challenge(store, 1)
    inbound = services.inbound
    address = lambda p: f"{p.name.lower()}@example.org"  # noqa: E731
    deliver(services, clock)
    reply(services, inbound, outbox, people[2], address, "accept", 0)  # Ann moves first: no email for Bob now
    deliver(services, clock, minutes=9)
    assert [kind_of(m) for m in emails_to(outbox, "bob@example.org")] == ["invited"]  # held, within the window
    deliver(services, clock, minutes=2)  # ten minutes passed, Ann has not moved: it goes alone
    bobs = emails_to(outbox, "bob@example.org")
    assert [kind_of(m) for m in bobs] == ["invited", "confirmed"]
    assert text_of(bobs[-1]).startswith("You accepted: the game starts. Ann is to move.")
    assert bobs[-1]["References"].startswith(f"<game.{game_id}.{people[2].id}@")  # in the game's thread
    deliver(services, clock, minutes=30)
    assert len(emails_to(outbox, "bob@example.org")) == 2  # once only


def test_issue36_item1_a_refused_reply_is_answered_at_once(store):
    services, outbox, clock, people, game_id = challenge(store, 2)
    inbound = services.inbound
    deliver(services, clock)
    asked = emails_to(outbox, "bob@example.org")[-1]
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "bob@example.org", asked["Reply-To"], "Re"
    message["Message-ID"] = "<x@example.org>"
    message.set_content("perhaps tomorrow")
    assert inbound.handle(bytes(message)).outcome == "refused"
    assert "could not read your answer" in text_of(outbox.sent[-1])


def test_issue36_item1_a_digest_player_gets_no_email_a_move_nor_a_confirmation(store):
    services, outbox, people, turns, ended_by = play_whole_game(store, "api", 2, digest=True)
    kinds = [kind_of(m) for m in emails_to(outbox, "bob@example.org")]
    assert kinds == ["invited", "finished"], kinds  # asked, then the end: his moves are in his daily digest
    # His answer by reply is confirmed by no email either, at once or later.
    services, outbox, clock, people, game_id = challenge(store, 1, digest=True)
    deliver(services, clock)
    reply(services, services.inbound, outbox, people[2],
          lambda p: f"{p.name.lower()}@example.org", "accept", 0)
    deliver(services, clock, minutes=30)
    assert [kind_of(m) for m in emails_to(outbox, "bob@example.org")] == ["invited"]
