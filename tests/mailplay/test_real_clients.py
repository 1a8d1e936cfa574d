"""Replies as real mail clients send them (issue 34, items 6, 8, 9, 10), each a raw message built
as bytes in its real encoding: Shift_JIS labelled Windows-31J or x-sjis, ISO-2022-JP as Japanese
carriers send it, GB18030 labelled x-gbk, Big5, unknown-8bit, HTML-only from Outlook, Gmail's
HTML with an empty text part, Outlook's and Gmail's quotes, and the Chinese and Japanese clients'.
Each is played, or answered clearly; none crashes the handler (before, an unknown label raised
LookupError, and in AWS the message was retried, then dropped, with no answer)."""

from __future__ import annotations

import base64
from email import message_from_bytes, policy

import pytest

from chalicelib.kernel import i18n
from chalicelib.games.battleline.steps import STEPS
from chalicelib.games.commandwords import ANSWERS, BATTLELINE, KHAN, TRADITIONAL, answer
from chalicelib.mailplay import mailtext
from tests.mailplay.test_languages_by_mail import game_in
from tests.notify.helpers import LINKS, confirmations_alone, text_of
from tests.notify.helpers import game_by_mail as mail_game


def raw(sender: str, to: str, body: bytes, *, content_type: str = "text/plain", charset: str | None = "utf-8",
        encoding: str = "8bit", headers: bytes = b"") -> bytes:
    """A reply as a client sends it: headers, then the body already in its bytes."""
    label = f'; charset="{charset}"' if charset else ""
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: Re: Battle Line\r\nMessage-ID: <{hash(body)}@client.example>\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: {content_type}{label}\r\n"
            f"Content-Transfer-Encoding: {encoding}\r\n").encode() + headers + b"\r\n" + body


def turn_of(services, game_id: str) -> tuple[str, int]:
    view = services.games.view_for_seat(game_id, 1)
    return view["state"]["hand"][0], view["version"]


def played(services, game_id: str, card: str, flag: int) -> bool:
    view = services.games.view_for_seat(game_id, 1)
    return view["version"] == 1 and view["state"]["flags"][flag - 1]["cards"][0] == [card]


def said_to(services, people, game_id: str) -> list[str]:
    return [m["text"] for m in services.games.get_game(people[2], game_id).get("messages", [])]


@pytest.fixture
def english(store):
    services, inbound, outbox, game, ann, bob = mail_game(store, "battleline")
    return services, inbound, outbox, game["game_id"], {1: ann, 2: bob}


# ---------------------------------------------------------------- item 6: character sets

JAPANESE_TURN = "出す {card} 3\n宣言なし\n引く 軍隊\n\nよろしくお願いします①\n"  # ① is cp932's (NEC), not Shift_JIS's


@pytest.mark.parametrize("label", ["Windows-31J", "x-sjis", "Shift_JIS"])
def test_item_6_shift_jis_labelled_as_japanese_mailers_label_it_is_played(store, label):
    services, inbound, outbox, people, game_id = game_in(store, "ja")
    card, version = turn_of(services, game_id)
    body = JAPANESE_TURN.format(card=card).encode("cp932")
    result = inbound.handle(raw("p1@example.org", LINKS.reply_address(game_id, 1, version), body, charset=label))
    assert result.outcome == "applied", result.reason
    assert played(services, game_id, card, 3)
    assert said_to(services, people, game_id) == ["よろしくお願いします①"]


def test_item_6_iso_2022_jp_as_japanese_carriers_send_it_is_played(store):
    services, inbound, outbox, people, game_id = game_in(store, "ja")
    card, version = turn_of(services, game_id)
    body = JAPANESE_TURN.format(card=card).replace("①", "").encode("iso2022_jp")
    name = base64.b64encode("佐藤".encode("iso2022_jp")).decode()
    result = inbound.handle(raw(f"=?ISO-2022-JP?B?{name}?= <p1@example.org>", LINKS.reply_address(game_id, 1, version),
                                body, charset="ISO-2022-JP", encoding="7bit"))
    assert result.outcome == "applied", result.reason
    assert said_to(services, people, game_id) == ["よろしくお願いします"]


def test_item_6_gb18030_labelled_x_gbk_keeps_every_gbk_character(store):
    services, inbound, outbox, people, game_id = game_in(store, "zh-Hans")
    card, version = turn_of(services, game_id)
    body = f"出 {card} 到 3\n不声明\n抓部队\n\n喆哥加油！\n".encode("gb18030")  # 喆: GBK's, not GB2312's
    result = inbound.handle(raw("p1@example.org", LINKS.reply_address(game_id, 1, version), body, charset="x-gbk"))
    assert result.outcome == "applied", result.reason
    assert said_to(services, people, game_id) == ["喆哥加油！"]


def test_item_6_unknown_8bit_in_utf_8_is_played(english):
    services, inbound, outbox, game_id, people = english
    card, version = turn_of(services, game_id)
    body = f"play {card} 3\nclaim none\ndraw troop\n\nbonne chance, José\n".encode()
    result = inbound.handle(raw("ann@example.org", LINKS.reply_address(game_id, 1, version), body,
                                charset="unknown-8bit"))
    assert result.outcome == "applied", result.reason
    assert said_to(services, people, game_id) == ["bonne chance, José"]


def test_item_6_a_part_read_lossily_plays_its_commands_but_no_message_goes_and_the_answer_says_why(english):
    """A mailer cut a character in half: the commands are read, the message is not forwarded (it
    would reach the opponent with a replacement character), and the answer names the part."""
    services, inbound, outbox, game_id, people = english
    card, version = turn_of(services, game_id)
    body = f"play {card} 3\nclaim none\ndraw troop\n\nこんにちは、よろしくお願いしま".encode()[:-1]
    result = inbound.handle(raw("ann@example.org", LINKS.reply_address(game_id, 1, version), body, charset="utf-8"))
    assert result.outcome == "applied", result.reason
    assert said_to(services, people, game_id) == []
    confirmations_alone(services)  # (no other email of the game followed)
    first = text_of(outbox.sent[-1]).splitlines()[0]
    assert first.startswith(f"Played: play {card} 3") and "Part text/plain (utf-8) of your email could not be " \
        "read in full" in first and "no message of yours went to the other players" in first


NASTY = [  # (what is wrong, the raw reply after its From/To lines)
    ("a bogus charset", b'Content-Type: text/plain; charset="../../etc/passwd"\r\n\r\nplay 7R 3'),
    ("a text transform as charset", b"Content-Type: text/plain; charset=rot13\r\n\r\nplay 7R 3"),
    ("unknown-8bit garbage", b"Content-Type: text/plain; charset=unknown-8bit\r\n\r\n\xff\xfe\x00\x81play"),
    ("bad base64", b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!*&^"),
    ("bad quoted-printable", b"Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=ZZ=\r\n="),
    ("an unknown transfer encoding", b"Content-Type: text/plain\r\nContent-Transfer-Encoding: x-uue\r\n\r\nplay"),
    ("multipart without a boundary", b"Content-Type: multipart/alternative\r\n\r\nplay 7R 3"),
    ("multipart never closed", b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain;'
                               b" charset=x-bogus\r\n\r\n\xe5\x87\xba\r\n--b"),
    ("an undecodable encoded word", b"Subject: =?x-unknown?B?////?= =?utf-8?Q?=FF=FE?=\r\n\r\nplay 7R 3"),
    ("8-bit bytes in headers", b"Subject: \xff\xfe\x81\r\nMessage-ID: <\xe5\x87\xba@x>\r\n\r\nplay 7R 3"),
    ("an RFC 2231 charset that is no charset", b"Content-Type: text/plain; charset*=bogus''%FF%FE\r\n\r\nplay"),
    ("HTML in a bogus charset", b"Content-Type: text/html; charset=x-nothing\r\n\r\n<p>\xff<b>play</p></div></td>"),
    ("an empty message", b"\r\n"),
    ("no body at all", b""),
]


@pytest.mark.parametrize("what, rest", NASTY, ids=[n for n, _ in NASTY])
def test_item_6_no_header_or_body_crashes_the_handler(english, what, rest):
    services, inbound, outbox, game_id, people = english
    address = LINKS.reply_address(game_id, 1, 0)
    result = inbound.handle(f"From: ann@example.org\r\nTo: {address}\r\n".encode() + rest)
    assert result.outcome in ("applied", "refused"), result.reason  # read, and answered: never a crash
    assert outbox.sent and outbox.sent[-1]["To"] == "ann@example.org"


@pytest.mark.parametrize("what, rest", NASTY, ids=[n for n, _ in NASTY])
def test_item_6_the_reader_reads_every_nasty_message_without_raising(what, rest):
    message = message_from_bytes(b"From: a@example.org\r\n" + rest, policy=policy.default)
    assert isinstance(mailtext.read_reply(message).text, str)


def test_item_6_aliases_then_utf_8_then_detection():
    assert mailtext.decode("出す".encode("cp932"), "Windows-31J").text == "出す"
    assert mailtext.decode("喆".encode("gb18030"), "gb2312").text == "喆"  # GBK's, under a GB2312 label
    assert mailtext.decode("抓 部隊".encode("big5"), "big5").text == "抓 部隊"
    assert mailtext.decode("José".encode(), "unknown-8bit") == mailtext.Decoded("José")
    detected = mailtext.decode("游戏开始了，我们来玩吧，祝你好运".encode("gb18030"), None)
    assert detected.text == "游戏开始了，我们来玩吧，祝你好运" and not detected.lossy


# ---------------------------------------------------------------- item 8: HTML

OUTLOOK_HTML = """<html xmlns:o="urn:schemas-microsoft-com:office:office"><head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style>p {{margin:0}}</style></head>
<body dir="ltr"><div style="font-family: Calibri">play {card} 3</div>
<div style="font-family: Calibri">claim&nbsp;none</div><div style="font-family: Calibri">draw troop</div>
<div><br></div><div>Good luck &amp; have fun</div>
<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">
<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri" style="font-size:11pt"><b>From:</b> Battle Line
&lt;play@mail.example&gt;<br><b>Sent:</b> Monday, November 23, 2026 10:04 AM<br><b>To:</b> Ann
&lt;ann@example.org&gt;<br><b>Subject:</b> Battle Line with Bob</font><div>&nbsp;</div></div>
<div>YOUR MOVE<br>play 9Y 1<br><a href="http://play.example/u/x">To stop these emails</a></div></body></html>"""


def test_item_8_an_html_only_reply_from_outlook_is_played(english):
    services, inbound, outbox, game_id, people = english
    card, version = turn_of(services, game_id)
    body = OUTLOOK_HTML.format(card=card).encode()
    result = inbound.handle(raw("Ann <ann@example.org>", LINKS.reply_address(game_id, 1, version), body,
                                content_type="text/html", charset="utf-8"))
    assert result.outcome == "applied", result.reason
    assert played(services, game_id, card, 3) and said_to(services, people, game_id) == ["Good luck & have fun"]


def test_item_8_a_reply_whose_text_part_is_empty_is_read_from_its_html(english):
    """Gmail-like: an empty text/plain part beside the HTML, whose quote is a gmail_quote blockquote
    (its commands are never played)."""
    services, inbound, outbox, game_id, people = english
    card, version = turn_of(services, game_id)
    html = (f'<div dir="ltr">play {card} 3<br>claim none<br>draw troop</div><br><div class="gmail_quote">'
            '<div dir="ltr" class="gmail_attr">On Mon, Nov 23, 2026 at 10:04 AM Battle Line &lt;play@x&gt; wrote:<br>'
            '</div><blockquote class="gmail_quote">play 9Y 1<br>claim 4</blockquote></div>')
    body = ("--b1\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n\r\n--b1\r\nContent-Type: text/html; "
            "charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + html.replace("=", "=3D") + "\r\n--b1--\r\n").encode()
    result = inbound.handle(raw("ann@example.org", LINKS.reply_address(game_id, 1, version), body,
                                content_type='multipart/alternative; boundary="b1"', charset=None))
    assert result.outcome == "applied", result.reason
    assert played(services, game_id, card, 3) and said_to(services, people, game_id) == []


def test_item_8_html_is_read_as_text_with_quotes_as_quotes():
    text = mailtext.html_text("<p>play 7R 3</p><p>claim none</p><p>&nbsp;</p><p>Nice&#33;</p>"
                              "<blockquote><p>play 9Y 1</p></blockquote><script>play 1R 1</script>")
    assert text == "play 7R 3\nclaim none\n\nNice!\n> play 9Y 1"


# ---------------------------------------------------------------- item 9: quotes

OUTLOOK_HEADER = ("________________________________\nFrom: Battle Line <play@mail.example>\n"
                  "Sent: Monday, November 23, 2026 10:04 AM\nTo: Ann <ann@example.org>\nSubject: Battle Line with Bob\n\n")
OUR_EMAIL = "Ann is to move.\n\nYOUR MOVE\n    play 9Y 1\n\nTo stop these emails: http://play.example/u/x\n"


@pytest.mark.parametrize("posted", ["top", "bottom"])
def test_item_9_outlooks_rule_ends_the_commands_top_and_bottom_posted(english, posted):
    services, inbound, outbox, game_id, people = english
    card, version = turn_of(services, game_id)
    commands = f"play {card} 3\r\nclaim none\r\ndraw troop\r\n"
    text = (commands + "\r\n" + OUTLOOK_HEADER + OUR_EMAIL if posted == "top"
            else OUTLOOK_HEADER + OUR_EMAIL + "\r\n" + commands)
    result = inbound.handle(raw("ann@example.org", LINKS.reply_address(game_id, 1, version),
                                text.replace("\r\n", "\n").replace("\n", "\r\n").encode("cp1252"),
                                charset="Windows-1252", encoding="8bit"))
    assert result.outcome == "applied", result.reason
    assert played(services, game_id, card, 3)
    assert said_to(services, people, game_id) == []  # the rule is no message to the opponent


def test_item_9_gmails_attribution_wrapped_over_two_lines_is_a_quote_header(english):
    services, inbound, outbox, game_id, people = english
    card, version = turn_of(services, game_id)
    text = (f"play {card} 3\nclaim none\ndraw troop\n\nOn Mon, Nov 23, 2026 at 10:04 AM Battle Line <\n"
            "play+abc@mail.example> wrote:\n\n> YOUR MOVE\n> play 9Y 1\n")
    result = inbound.handle(raw("ann@example.org", LINKS.reply_address(game_id, 1, version), text.encode()))
    assert result.outcome == "applied", result.reason
    assert said_to(services, people, game_id) == []


@pytest.mark.parametrize("client, header", [
    ("QQ Mail", "------------------ 原始邮件 ------------------"),
    ("QQ Mail HTML", "------------------\xa0原始邮件\xa0------------------"),
    ("NetEase 163", '在 2026-11-23 10:04:31，"Battle Line" <play@mail.example> 写道：'),
    ("NetEase, wrapped", '在 2026-11-23 10:04:31，"Battle Line" <\nplay@mail.example> 写道：'),
    ("Yahoo Japan", "----- Original Message -----"),
    ("Outlook, Japanese", "--- 元のメッセージ ---"),
    ("Outlook, Big5", "-----原始郵件-----"),
    ("Thunderbird, Traditional Chinese", "-------- 原始訊息 --------"),
    ("Outlook, Traditional Chinese headers", "________________________________\n寄件者: Battle Line <play@x>"),
    ("Outlook, Japanese headers", "________________________________\n差出人: Battle Line <play@x>\n送信日時: 2026年11月23日 10:04"),
    ("Gmail, wrapped", "On Mon, Nov 23, 2026 at 10:04 AM Battle Line <\nplay@mail.example> wrote:"),
])
def test_item_9_the_chinese_and_japanese_clients_quote_headers_end_the_commands(client, header):
    text = mailtext.own_text(f"play 7R 3\nclaim none\ndraw troop\n\n{header}\nplay 9Y 1\nclaim 4\n")
    steps, said = STEPS.read_reply(text)
    assert [s["type"] for s in steps] == ["play", "claim", "draw"] and said is None


def test_item_9_a_big5_outlook_reply_is_played(store):
    services, inbound, outbox, people, game_id = game_in(store, "zh-Hans")
    card, version = turn_of(services, game_id)
    text = (f"出 {card} 3\r\n不聲明\r\n抓 部隊\r\n\r\n-----原始郵件-----\r\n寄件者: Battle Line <play@mail.example>\r\n"
            "出 9Y 1\r\n")
    result = inbound.handle(raw("p1@example.org", LINKS.reply_address(game_id, 1, version), text.encode("big5"),
                                charset="big5"))
    assert result.outcome == "applied", result.reason
    assert played(services, game_id, card, 3) and said_to(services, people, game_id) == []


# ---------------------------------------------------------------- item 10: forgiving readers

@pytest.mark.parametrize("line", ["ｐｌａｙ　８Ｒ　３", "Play 8R 3.", "PLAY 8r 3!", "play 8R 3。", "ｐｌａｙ　８Ｒ　３．"])
def test_item_10_full_width_and_trailing_punctuation_read_for_english_players(line):
    assert STEPS.read_line(line) == {"type": "play", "card": "8R", "flag": 3}


def test_item_10_an_english_reply_in_full_width_with_full_stops_is_played(english):
    services, inbound, outbox, game_id, people = english
    card, version = turn_of(services, game_id)
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" if c == " " else c for c in card)
    text = f"ｐｌａｙ　{wide}　３\nClaim none.\nDraw troop.\n"
    result = inbound.handle(raw("ann@example.org", LINKS.reply_address(game_id, 1, version), text.encode()))
    assert result.outcome == "applied", result.reason
    assert played(services, game_id, card, 3)


SIMPLIFIED_TO_TRADITIONAL = str.maketrans({s: chr(t) for t, s in TRADITIONAL.items() if chr(t) not in "裏佔於"}
                                          | {"占": "佔", "于": "於"})


def traditional(word: str) -> str:
    return word.translate(SIMPLIFIED_TO_TRADITIONAL)


@pytest.mark.parametrize("table", [BATTLELINE["zh-Hans"], KHAN["zh-Hans"]], ids=["battleline", "khan"])
def test_item_10_every_chinese_command_word_reads_in_traditional_characters(table):
    """Each command word, written as a Big5 writer can (every character of it in Big5), reads as its
    Simplified form does."""
    every = [w for words in (*table.commands.values(), *table.words.values()) for w in words] + list(table.fillers)
    for word in every:
        written = traditional(word)
        written.encode("big5")  # a Big5 writer can type it (raises if a Simplified character is left)
        assert table.english(f"{written} 7R") == table.english(f"{word} 7R"), (word, written)
    for colour in table.colours:
        assert table.english(f"出{traditional(colour)}7到3") == table.english(f"出{colour}7到3")


def test_item_10_the_traditional_words_of_the_issue_read():
    with i18n.speaking("zh-Hans"):
        assert STEPS.read_line("不聲明") == {"type": "claim", "flags": []}
        assert STEPS.read_line("抓 部隊") == {"type": "draw", "deck": "troop"}
        assert STEPS.read_line("出 紅7 到 3") == {"type": "play", "card": "7R", "flag": 3}
        assert STEPS.read_line("不聲明佔據") == {"type": "claim", "flags": []}
    for english_word, words in ANSWERS["zh-Hans"].items():
        for word in words:
            written = traditional(word)
            written.encode("big5")
            assert answer(written, "zh-Hans") == english_word


def test_a_guess_over_a_label_no_codec_can_read_is_lossy():
    """Bytes that a label says are in a character set no codec reads them in (an unknown name, punycode) are
    a guess when detection reads them: lossy, so no message read that way goes to the other players. Without
    a label, detection is the only reading and is kept."""
    assert mailtext.decode(b"hello \xff\xfe there", "x-klingon").lossy
    assert mailtext.decode(b"\xff\xfe\xfd caf\xe9", "punycode").lossy
    assert not mailtext.decode("游戏开始了，我们来玩吧，祝你好运".encode("gb18030"), None).lossy
