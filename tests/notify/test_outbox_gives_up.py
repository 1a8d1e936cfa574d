"""The outbox never loops on a change: one that keeps failing is tried as often as the stream consumer
in AWS tries it (1 + 5), then given up and logged once, and the changes after it go on, on the
in-memory store and on DynamoDB alike. A game whose rules the server lost (a Khan & General card set
gone) holds up nothing: its bot's turn is logged once and dropped, its emails wait on the retry
schedule."""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from chalicelib.config import build_services
from chalicelib.games.khan.cardset import REGISTRY
from chalicelib.http.models import BotSeat, CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import CHANGE_ATTEMPTS, Outlets

from ..api.test_card_set_unavailable import SET_ID, add_set_to_lose
from ..fakes import FakeClock, start_game
from .helpers import LINKS, Outbox, text_of


@pytest.fixture
def clock():
    return FakeClock(datetime.now(timezone.utc).replace(microsecond=0))


@pytest.fixture
def mailed(store, clock):
    """Services on ``store`` whose mail goes to an Outbox; Ann and Bob with email addresses."""
    outbox = Outbox()
    services = build_services(store, clock, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Bob"))
    return services, outbox, ann, bob


def between(ann, bob, game="battleline", **options) -> CreateGameRequest:
    return CreateGameRequest(game=game, options={"first_seat": 1, **options},
                             seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)])


def about(outbox: Outbox, game_id: str) -> list:
    return [mail for mail in outbox.sent if game_id in text_of(mail)]


@pytest.mark.parametrize("store", ["memory", "moto"], indirect=True)
def test_a_change_that_keeps_failing_is_given_up_after_awss_tries_and_the_next_changes_messages_go(
        mailed, monkeypatch, caplog):
    services, outbox, ann, bob = mailed
    broken = start_game(services, ann, between(ann, bob), [ann, bob])["game_id"]
    after = start_game(services, ann, between(ann, bob), [ann, bob])["game_id"]
    dispatcher = services.dispatcher
    dispatch = dispatcher.dispatch

    def failing(message, targets=None, posts=None):
        if message.data.get("game_id") == broken:
            raise RuntimeError("a message nothing can handle")
        dispatch(message, targets, posts)

    monkeypatch.setattr(dispatcher, "dispatch", failing)
    for _ in range(CHANGE_ATTEMPTS - 1):  # raised, as Lambda sees it fail, and read again next time
        with pytest.raises(RuntimeError):
            dispatcher.drain_outbox()
    assert not about(outbox, after)  # held up behind it, for a few rounds only
    with caplog.at_level(logging.ERROR, logger="battleline.notify"):
        assert dispatcher.drain_outbox() > 0
    assert about(outbox, after)  # the next change's messages were delivered
    given_up = [r for r in caplog.records if "gave up" in r.getMessage()]
    assert len(given_up) == 1 and f"game {broken} version 0" in given_up[0].getMessage()
    assert given_up[0].getMessage().count(f"after {CHANGE_ATTEMPTS} attempts") == 1
    assert dispatcher.drain_outbox() == 0 and not about(outbox, broken)  # never tried again


def test_the_local_worker_tries_a_change_as_often_as_the_stream_consumer_in_aws():
    stack = (Path(__file__).resolve().parents[2] / "infra" / "stack.py").read_text()
    consumer = stack[stack.index("def _outbox_consumer"):]
    assert CHANGE_ATTEMPTS == 1 + int(re.search(r"maximum_retry_attempts=(\d+)", consumer).group(1))


def test_a_change_that_fails_once_is_tried_again_and_then_handled(mailed, monkeypatch):
    services, outbox, ann, bob = mailed
    game_id = start_game(services, ann, between(ann, bob), [ann, bob])["game_id"]
    dispatcher = services.dispatcher
    dispatch, failed = dispatcher.dispatch, []

    def once(message, targets=None, posts=None):
        if not failed:
            failed.append(message)
            raise RuntimeError("a passing failure")
        dispatch(message, targets, posts)

    monkeypatch.setattr(dispatcher, "dispatch", once)
    with pytest.raises(RuntimeError):
        dispatcher.drain_outbox()
    assert dispatcher.drain_outbox() > 0 and about(outbox, game_id)


def test_a_bots_turn_in_a_game_whose_card_set_is_gone_is_logged_once_and_other_bots_still_move(
        mailed, monkeypatch, caplog):
    services, _outbox, ann, _bob = mailed
    lost = add_set_to_lose(monkeypatch)

    def against_a_bot(game, **options):  # the bot starts: its turn is in the outbox at once
        return services.creation.create_game(ann, CreateGameRequest(
            game=game, options={"first_seat": 1, **options}, seats=[BotSeat(bot="greedy"), PlayerSeat(player_id=ann.id)]),
            None).body["game_id"]

    khan = against_a_bot("khan", card_set=SET_ID)
    battle = against_a_bot("battleline")
    monkeypatch.delitem(REGISTRY.sets, lost)  # the server restarted without the designer's folder
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            services.dispatcher.drain_outbox()  # never raises: nothing to try again
    assert services.games.view_for_seat(battle, 2)["version"] == 1  # the other game's bot moved
    unplayable = [r for r in caplog.records if "cannot play game" in r.getMessage()]
    assert len(unplayable) == 1 and khan in unplayable[0].getMessage() and unplayable[0].levelno == logging.ERROR
    assert "no card set steppe-lost version 1" in unplayable[0].getMessage() and not unplayable[0].exc_info
    assert not [r for r in caplog.records if "gave up" in r.getMessage()]
    assert services.store.load_game(khan).version == 0  # the bot's turn waits; nothing was played


def test_an_email_of_a_game_whose_card_set_is_gone_waits_on_the_retry_schedule_and_goes_once_it_is_back(
        mailed, monkeypatch, clock, caplog):
    services, outbox, ann, bob = mailed
    lost = add_set_to_lose(monkeypatch)
    kept = REGISTRY.sets[lost]
    game_id = start_game(services, ann, between(ann, bob, game="khan", card_set=SET_ID), [ann, bob])["game_id"]
    monkeypatch.delitem(REGISTRY.sets, lost)
    with caplog.at_level(logging.ERROR, logger="battleline.notify"):
        services.dispatcher.drain_outbox()  # does not raise: the emails wait, the outbox goes on
        services.dispatcher.drain_outbox()
    assert not about(outbox, game_id)
    waiting = [r for r in caplog.records if "waits: its game's rules are not on this server" in r.getMessage()]
    assert waiting and all("no card set steppe-lost version 1" in r.getMessage() for r in waiting)
    assert not [r for r in caplog.records if "gave up" in r.getMessage()]
    REGISTRY.sets[lost] = kept  # the operator restores the file
    clock.advance(timedelta(seconds=10))  # past the first retry's wait
    services.dispatcher.run_due()
    assert about(outbox, game_id)
