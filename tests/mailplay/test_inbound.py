"""Play by email: replies parsed as commands and applied as the seat; everything else refused."""

import base64
import json
from email.message import EmailMessage

import pytest

from chalicelib.games.battleline.steps import STEPS
from chalicelib.games.steptypes import CommandError

parse_line, parse_commands, write_step, describe_step = STEPS.read_line, STEPS.read_commands, STEPS.write, STEPS.describe
from chalicelib.http.models import ActionRequest
from chalicelib.presenting.links import Links

from tests.notify.helpers import LINKS, confirmations_alone, kind_of, text_of
from tests.notify.helpers import game_by_mail as mail_game


@pytest.fixture
def game_by_mail(store):
    return mail_game(store, "battleline")


def reply(sender, to, text, message_id="<r1@example.org>"):
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: Your move"
    message["Message-ID"] = message_id
    message.set_content(text)
    return bytes(message)


def version(services, game):
    return services.games.view_for_seat(game["game_id"], 1)["version"]


def test_a_valid_reply_is_played_as_one_action_and_confirmed(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    card = game["state"]["hand"][0]
    address = LINKS.reply_address(game["game_id"], 1, 0)
    text = f"play {card.lower()} 5\nclaim none\ndraw troop\n\nOn Mon, Ann wrote:\n> play 9Y 1\n"
    result = inbound.handle(reply("Ann <ann@example.org>", address, text))
    assert result.outcome == "applied"
    view = services.games.view_for_seat(game["game_id"], 1)
    assert view["version"] == 1 and view["state"]["flags"][4]["cards"][0] == [card] and view["to_move"] == 2
    sent = len(outbox.sent)
    confirmations_alone(services)  # no other email of the game within the window: the confirmation goes alone
    [answer] = outbox.sent[sent:]
    text = text_of(answer)
    assert answer["To"] == "ann@example.org" and text.startswith(f"Played: play {card} 5; claim none; draw troop")
    drawn = next(c for c in view["state"]["hand"] if c not in game["state"]["hand"])
    assert drawn in text
    assert answer["Subject"] == f"Battle Line with Bob (game {game['game_id']})"  # the thread's, never "Re: Re:"


def test_issue34_item11_the_same_reply_delivered_twice_is_played_once_and_answered_once(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    address = LINKS.reply_address(game["game_id"], 1, 0)
    message = reply("ann@example.org", address, f"play {game['state']['hand'][0]} 2")
    assert inbound.handle(message).outcome == "applied"
    answers = len(outbox.sent)
    # SES delivers it again (a relay adds its own Received: header): the same Message-ID and body.
    again = inbound.handle(b"Received: from relay.example.org\r\n" + message)
    assert again.outcome == "ignored" and again.reply is None
    assert version(services, game) == 1 and len(outbox.sent) == answers


def test_garbage_is_refused_with_the_commands_and_the_legal_moves(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    address = LINKS.reply_address(game["game_id"], 1, 0)
    result = inbound.handle(reply("ann@example.org", address, "hello, I think I will attack the left flank"))
    assert result.outcome == "refused" and version(services, game) == 0
    text = text_of(outbox.sent[-1])
    assert "could not read" in text and "Commands:" in text
    assert f"    play {game['state']['hand'][0]} 1\n    claim none\n    draw troop" in text  # a turn, as commands
    assert f"    {game['state']['hand'][0]}: flags 1 2 3 4 5 6 7 8 9" in text  # and where each card can go
    assert outbox.sent[-1]["Reply-To"] == address


def test_an_illegal_move_is_refused_with_the_reason(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    address = LINKS.reply_address(game["game_id"], 1, 0)
    result = inbound.handle(reply("ann@example.org", address, "draw troop"))
    assert result.outcome == "refused" and "not allowed now" in text_of(outbox.sent[-1])


def test_a_reply_from_another_player_is_ignored(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    address = LINKS.reply_address(game["game_id"], 1, 0)  # Ann's seat
    result = inbound.handle(reply("bob@example.org", address, f"play {game['state']['hand'][0]} 1"))
    assert result.outcome == "ignored" and version(services, game) == 0 and outbox.sent == []


def test_a_forged_reply_address_is_ignored(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    real = LINKS.reply_address(game["game_id"], 1, 0)
    forged = real.replace(".1.0.", ".2.0.")  # claims seat 2 with seat 1's signature
    other_key = Links("not-our-secret", "http://x", "mail.example").reply_address(game["game_id"], 1, 0)
    for address in (forged, other_key):
        result = inbound.handle(reply("ann@example.org", address, "resign"))
        assert result.outcome == "ignored" and "not a reply address" in result.reason
    assert services.games.view_for_seat(game["game_id"], 1)["status"] == "active" and outbox.sent == []


def test_a_stale_reply_is_refused_with_the_current_moves(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    old = LINKS.reply_address(game["game_id"], 1, 0)
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    services.games.post_action(ann, game["game_id"], ActionRequest(expected_version=0, steps=[step]), None)
    result = inbound.handle(reply("ann@example.org", old, "claim none"))
    assert result.outcome == "refused" and version(services, game) == 1
    text = text_of(outbox.sent[-1])
    assert "moved on" in text and "    claim none" in text
    assert outbox.sent[-1]["Reply-To"] == LINKS.reply_address(game["game_id"], 1, 1)


def test_a_reply_to_an_email_from_before_the_end_says_the_game_is_over(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    old = LINKS.reply_address(game["game_id"], 1, 0)
    services.games.post_action(bob, game["game_id"], ActionRequest(expected_version=0, steps=[{"type": "resign"}]),
                               None)
    step = next(s for s in game["legal_steps"] if s["type"] == "play")
    result = inbound.handle(reply("ann@example.org", old, f"play {step['card']} {step['flag']}"))
    assert result.outcome == "refused"
    text = text_of(outbox.sent[-1])
    assert text.startswith("Not played: the game is over.") and "moved on" not in text
    assert outbox.sent[-1]["Reply-To"] is None  # nothing more to reply with


def test_failed_spf_or_dkim_is_ignored(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    address = LINKS.reply_address(game["game_id"], 1, 0)
    result = inbound.handle(reply("ann@example.org", address, "resign"), verdicts={"spf": "PASS", "dkim": "FAIL"})
    assert result.outcome == "ignored" and "DKIM" in result.reason
    assert services.games.view_for_seat(game["game_id"], 1)["status"] == "active"


def test_the_sns_lambda_path_plays_a_raw_reply(game_by_mail, monkeypatch):
    import app as app_module
    from chalicelib import config

    services, inbound, outbox, game, ann, bob = game_by_mail
    monkeypatch.setattr(config, "inbound", lambda: inbound)
    address = LINKS.reply_address(game["game_id"], 1, 0)
    raw = reply("ann@example.org", address, f"play {game['state']['hand'][0]} 9")
    notice = {"notificationType": "Received", "content": base64.b64encode(raw).decode(),
              "receipt": {"recipients": [address], "spfVerdict": {"status": "PASS"}, "dkimVerdict": {"status": "PASS"},
                          "action": {"type": "SNS", "encoding": "BASE64"}}}
    result = app_module.inbound_mail({"Records": [{"Sns": {"Message": json.dumps(notice)}}]}, None)
    assert result == {"outcomes": ["applied"]} and version(services, game) == 1


def test_your_move_emails_carry_the_seats_reply_address(game_by_mail):
    services, inbound, outbox, game, ann, bob = game_by_mail
    services.dispatcher.drain_outbox()
    your_move = next(m for m in outbox.sent if kind_of(m) == "your_turn")
    assert your_move["Reply-To"] == LINKS.reply_address(game["game_id"], 1, 0)
    assert len(your_move["Reply-To"].split("@")[0]) <= 64


@pytest.mark.parametrize(
    "line, step",
    [
        ("play 7R 3", {"type": "play", "card": "7R", "flag": 3}),
        ("PLAY 10p 9", {"type": "play", "card": "10P", "flag": 9}),
        ("play fog 4", {"type": "play", "card": "FOG", "flag": 4}),
        ("play scout", {"type": "play", "card": "SCOUT"}),
        ("play deserter 3 9B", {"type": "play", "card": "DESERTER", "target": {"flag": 3, "card": "9B"}}),
        ("play traitor 3 9B 5", {"type": "play", "card": "TRAITOR", "target": {"flag": 3, "card": "9B"}, "to_flag": 5}),
        ("play redeploy 3 9B discard", {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"}, "discard": True}),
        ("play redeploy 3 9B 5", {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"}, "to_flag": 5}),
        ("claim 3 5", {"type": "claim", "flags": [3, 5]}),
        ("claim 3, 5", {"type": "claim", "flags": [3, 5]}),
        ("claim none", {"type": "claim", "flags": []}),
        ("draw tactics", {"type": "draw", "deck": "tactics"}),
        ("scout troop", {"type": "scout_draw", "deck": "troop"}),
        ("return 7R 8R", {"type": "scout_return", "cards": ["7R", "8R"]}),
        ("mud 4 2G", {"type": "mud_discard", "flag": 4, "card": "2G"}),
        ("pass", {"type": "pass"}),
        ("resign", {"type": "resign"}),
    ],
)
def test_email_commands_read_as_steps_and_write_back(line, step):
    assert parse_line(line) == step
    assert parse_line(write_step(step)) == step


@pytest.mark.parametrize("text", ["", "attack!", "play 7R", "play 7R 10", "play 07R 3", "draw sideways", "claim x"])
def test_unreadable_commands_are_refused(text):
    with pytest.raises(CommandError):
        parse_commands(text)


@pytest.mark.parametrize("spelling", [{"discard": True}, {"to_flag": None}, {}])
def test_email_shows_a_redeploy_discard_as_discard_however_it_is_spelled(spelling):
    step = {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"}, **spelling}
    assert write_step(step) == "play REDEPLOY 3 9B discard"


@pytest.mark.parametrize("spelling", [{"discard": True}, {"to_flag": None}, {}])
def test_a_redeploy_discard_is_described_as_a_discard(spelling):
    """The label of a your-move link or a confirmation page says the card is discarded."""
    step = {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"}, **spelling}
    assert describe_step(step) == "play REDEPLOY to discard 9B at flag 3"
    assert describe_step({**step, "to_flag": 5, "discard": None}) == "play REDEPLOY on 9B at flag 3 to flag 5"


def test_email_redeploy_without_a_destination_asks_for_one():
    """By email the discard is written out: a REDEPLOY naming no destination is more likely a slip."""
    with pytest.raises(CommandError, match="discard"):
        parse_commands("play redeploy 3 9B")


@pytest.mark.parametrize("verdict", ["spamVerdict", "virusVerdict"])
def test_a_reply_ses_found_spam_or_a_virus_in_is_not_played(game_by_mail, monkeypatch, verdict):
    """SES's spam and virus verdicts refuse a reply as a failed SPF or DKIM does (through the SNS path,
    which reads them off the receipt)."""
    import app as app_module
    from chalicelib import config

    services, inbound, outbox, game, ann, bob = game_by_mail
    monkeypatch.setattr(config, "inbound", lambda: inbound)
    address = LINKS.reply_address(game["game_id"], 1, 0)
    raw = reply("ann@example.org", address, f"play {game['state']['hand'][0]} 9")
    sent = len(outbox.sent)
    receipt = {"recipients": [address], "spfVerdict": {"status": "PASS"}, "dkimVerdict": {"status": "PASS"},
               "spamVerdict": {"status": "PASS"}, "virusVerdict": {"status": "PASS"},
               "action": {"type": "SNS", "encoding": "BASE64"}}
    notice = {"notificationType": "Received", "content": base64.b64encode(raw).decode(),
              "receipt": {**receipt, verdict: {"status": "FAIL"}}}
    result = app_module.inbound_mail({"Records": [{"Sns": {"Message": json.dumps(notice)}}]}, None)
    assert result == {"outcomes": ["ignored"]} and version(services, game) == 0
    assert len(outbox.sent) == sent  # no answer: nothing goes back to mail SES refused
    assert inbound.handle(raw, verdicts={"spf": "PASS", "dkim": "PASS", verdict[:-7]: "FAIL"}).reason == \
        f"{verdict[:-7].upper()} failed"
