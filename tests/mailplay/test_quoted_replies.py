"""A reply's commands end where its mail client quotes the email it answers, in every language our
players write (issue 19): the quote and signature lines of Gmail, Outlook, Apple Mail, QQ Mail,
NetEase and Yahoo Japan, in Chinese, Japanese and Vietnamese as well as English. Before, a Chinese
client's "在 … 写道：" was read as a command and the whole reply refused."""

import pytest

from chalicelib.games.battleline.steps import STEPS

COMMANDS = "play 7R 3\nclaim none\ndraw troop"
QUOTED = "play 9Y 1\nclaim 4\ndraw tactics"  # what the quoted email says: never played


def reads_as_the_turn(reply: str) -> None:
    steps, said = STEPS.read_reply(reply)
    assert [s["type"] for s in steps] == ["play", "claim", "draw"]
    assert steps[0]["card"] == "7R" and steps[2]["deck"] == "troop"
    assert said is None


@pytest.mark.parametrize("client, header", [
    ("Gmail, Chinese", "Ann <ann@example.org> 于2026年11月23日周一 10:04写道："),
    ("Apple Mail, Chinese", "在 2026年11月23日，10:04，Ann <ann@example.org> 写道："),
    ("NetEase 163", '在 2026-11-23 10:04:31，"Ann" <ann@example.org> 写道：'),
    ("Gmail, traditional Chinese", "Ann <ann@example.org> 於 2026年11月23日 週一 上午10:04寫道："),
    ("QQ Mail", "------------------ 原始邮件 ------------------"),
    ("Outlook, Chinese", "-----邮件原件-----"),
    ("Outlook, Chinese headers", "发件人: Ann <ann@example.org>"),
    ("Gmail, Japanese", "2026年11月23日(月) 10:04 Ann <ann@example.org>:"),
    ("Apple Mail, Japanese", "2026/11/23 10:04、Ann <ann@example.org>のメール:"),
    ("Thunderbird, Japanese", "Ann さんのメッセージ:"),
    ("Outlook, Japanese", "-----元のメッセージ-----"),
    ("Outlook, Japanese headers", "差出人: Ann <ann@example.org>"),
    ("Yahoo Japan", "----- Original Message -----"),
    ("Gmail, Vietnamese", "Vào Th 2, 23 thg 11, 2026 lúc 10:04 Ann <ann@example.org> đã viết:"),
    ("Outlook, Vietnamese headers", "Từ: Ann <ann@example.org>"),
    ("Gmail, English", "On Mon, 23 Nov 2026 at 10:04, Ann <ann@example.org> wrote:"),
    ("Outlook, English", "-----Original Message-----"),
])
def test_the_quoted_email_of_each_client_is_never_read_as_commands(client, header):
    reads_as_the_turn(f"{COMMANDS}\n\n{header}\n{QUOTED}\n")
    reads_as_the_turn(f"{COMMANDS}\n{header}\n\n> {QUOTED}\n")


@pytest.mark.parametrize("signature", ["发自我的iPhone", "iPhoneから送信", "Gửi từ iPhone của tôi",
                                       "Sent from my iPhone", "-- "])
def test_a_phone_signature_right_after_the_commands_ends_them(signature):
    reads_as_the_turn(f"{COMMANDS}\n{signature}\n{QUOTED}")


def test_a_full_width_quote_mark_quotes_too():
    reads_as_the_turn(f"{COMMANDS}\n\n＞ {QUOTED}")


def test_a_message_in_chinese_ends_at_the_quote_too():
    steps, said = STEPS.read_reply(f"{COMMANDS}\n\n这一手不错！\n\n发自我的iPhone\n\n"
                                   f"在 2026年11月23日 10:04，Ann 写道：\n> {QUOTED}")
    assert len(steps) == 3 and said == "这一手不错！"


def test_a_reply_quoted_by_a_chinese_mail_client_plays_its_turn(store):
    """The whole path of an email (UTF-8, quoted-printable or base64 as the client sends it): Ann's
    turn, written above QQ Mail's quote of her your-move email, is played; nothing quoted is."""
    from tests.mailplay.test_inbound import reply
    from tests.notify.helpers import LINKS, confirmations_alone, text_of
    from tests.notify.helpers import game_by_mail as mail_game

    services, inbound, outbox, game, ann, bob = mail_game(store, "battleline")
    card = game["state"]["hand"][0]
    text = (f"play {card} 5\nclaim none\ndraw troop\n\n祝好！\n\n"
            "------------------ 原始邮件 ------------------\n发件人: \"Battle Line\" <play@example.org>\n"
            "发送时间: 2026年11月23日(星期一) 上午10:04\n\n轮到你了。\nplay 9Y 1\n")
    result = inbound.handle(reply("Ann <ann@example.org>", LINKS.reply_address(game["game_id"], 1, 0), text))
    assert result.outcome == "applied", result.reason
    view = services.games.view_for_seat(game["game_id"], 1)
    assert view["version"] == 1 and view["state"]["flags"][4]["cards"][0] == [card]
    confirmations_alone(services)  # (no other email of the game followed)
    assert text_of(outbox.sent[-1]).startswith(f"Played: play {card} 5; claim none; draw troop")
    assert services.games.get_game(bob, game["game_id"])["messages"][0]["text"] == "祝好！"
