"""Play by email in each language (issue 19): a player's reply is read in their language and in
English. A whole Battle Line game is played by email in Chinese and one in Japanese, both players of
that language writing as such a person would (their command words, full-width characters, a short
message) and quoted by their mail client (QQ Mail and NetEase; Gmail and Yahoo Japan); every email
they get is in their language, and the game ends with a result. Then each command word of the tables
(games/commandwords.py) is read and played, and a bad reply is refused in the player's language with
the right word suggested."""

from __future__ import annotations

import copy
import re
import random
import unicodedata
from email.message import EmailMessage

import pytest

from chalicelib.kernel import i18n
from chalicelib.config import build_services
from chalicelib.games.battleline.engine import ENGINE
from chalicelib.games.battleline.steps import STEPS
from chalicelib.games.commandwords import BATTLELINE
from chalicelib.games.steptypes import CommandError
from chalicelib.games.battleline import render
from chalicelib.presenting import show
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from tests.fakes import start_game
from tests.notify.helpers import LINKS, Outbox, confirmations_alone, html_of, text_of

NAMES = {"zh-Hans": ("王芳", "李雷"), "ja": ("佐藤", "鈴木"), "vi": ("Lan", "Minh")}


def game_in(store, language: str, seed: int = 11):
    """Two players of ``language`` in a seeded Battle Line game; mail goes to an Outbox."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    people = {}
    for seat, name in enumerate(NAMES[language], start=1):
        made = services.players.create_player(CreatePlayerRequest(
            name=name, email=f"p{seat}@example.org", language=language), None).body
        people[seat] = services.players.authenticate(made["api_key"])
    view = start_game(services, people[1], CreateGameRequest(
        game="battleline", options={"first_seat": 1}, seed=seed,
        seats=[PlayerSeat(player_id=people[1].id), PlayerSeat(player_id=people[2].id)]), list(people.values()))
    services.dispatcher.drain_outbox()
    return services, services.inbound, outbox, people, view["game_id"]


def full_width(text: str) -> str:
    """ASCII letters, digits and spaces typed with a CJK input method's full-width mode."""
    return "".join("\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


# ---------------------------------------------------------------- how a native writes a turn

def zh_line(step: dict, turn: int) -> str:
    """A step as a Chinese player types it, a different way each turn."""
    kind = step["type"]
    if kind == "play" and "flag" in step and "target" not in step:
        card, flag = step["card"], step["flag"]
        if not card[0].isdigit():
            return f"出 {render.card(card)['name']} {flag}"  # a tactic by its rule book name: 出 亚历山大 3
        return [f"出{card}到{flag}", full_width(f"打出 {card} {flag}"), f"出 {card.lower()} {flag}",
                f"出牌 {card} 第{flag}地区"][turn % 4]
    if kind == "claim":
        if not step["flags"]:
            return ["不声明", "声明 无"][turn % 2]
        return ["声明 " + "、".join(map(str, step["flags"])), "声明占据 " + "，".join(map(str, step["flags"])),
                "宣告" + "和".join(map(str, step["flags"]))][turn % 3]
    if kind == "draw":
        return ("抓部队", "摸 部队牌", "抽部队")[turn % 3] if step["deck"] == "troop" else ("抓战术", "抽 战术牌")[turn % 2]
    if kind == "pass":
        return ["过", "跳过"][turn % 2]
    return STEPS.say(STEPS.write(step))  # the rest as the email's command reference writes them


def ja_line(step: dict, turn: int) -> str:
    """A step as a Japanese player types it: often the verb last, as the sentence goes."""
    kind = step["type"]
    if kind == "play" and "flag" in step and "target" not in step:
        card, flag = step["card"], step["flag"]
        if not card[0].isdigit():
            return f"{render.card(card)['name']}をフラッグ{flag}に出す"
        return [f"{card}を{flag}に出す", full_width(f"プレイ {card} {flag}"), f"フラッグ{flag}に{card.lower()}を出す",
                f"出す {card} {flag}"][turn % 4]
    if kind == "claim":
        if not step["flags"]:
            return ["宣言なし", "宣言しない"][turn % 2]
        return ["宣言 " + "、".join(map(str, step["flags"])),
                "フラッグ" + "、".join(map(str, step["flags"])) + "を宣言"][turn % 2]
    if kind == "draw":
        return ("軍隊を引く", "引く 軍隊", "軍隊山札から引く")[turn % 3] if step["deck"] == "troop" else \
            ("戦略を引く", "ドロー 戦略カード")[turn % 2]
    if kind == "pass":
        return "パス"
    return STEPS.say(STEPS.write(step))


WRITERS = {"zh-Hans": zh_line, "ja": ja_line}
SAYINGS = {"zh-Hans": ["加油！", "这步不错。", "该你了，朋友。"], "ja": ["よろしくお願いします。", "いい手ですね！", "次はどうしますか？"]}


def quoted(language: str, turn: int, mail) -> str:
    """The email a reply answers, quoted as the player's mail client quotes it (commands in it too)."""
    text = text_of(mail)
    if language == "zh-Hans":
        if turn % 2:  # QQ Mail: a rule and the headers, the email unmarked below
            return ("------------------&nbsp;原始邮件&nbsp;------------------".replace("&nbsp;", " ") +
                    f"\n发件人: \"战线\" <play@example.org>\n发送时间: 2026年11月23日(星期一) 上午10:04\n"
                    f"收件人: \"{NAMES[language][0]}\"<p1@example.org>\n主题: {mail['Subject']}\n\n{text}")
        return "在 2026-11-23 10:04:31，\"战线\" <play@example.org> 写道：\n" + \
            "\n".join("> " + line for line in text.splitlines())  # NetEase 163
    if turn % 2:  # Yahoo Japan
        return f"----- Original Message -----\nFrom: play@example.org\nDate: 2026/11/23 10:04\n\n{text}"
    return "2026年11月23日(月) 10:04 Battle Line <play@example.org>:\n" + \
        "\n".join("> " + line for line in text.splitlines())  # Gmail, Japanese


def a_turn(state: dict, seat: int, rng: random.Random) -> list[dict]:
    """The steps of the seat's whole turn, as a player would choose them: a card, every flag it can
    claim, a deck (planned on a copy of the game, the way the player reads their email)."""
    working, steps = copy.deepcopy(state), []
    while ENGINE.to_move(working) == seat and ENGINE.result(working) is None and len(steps) < 8:
        legal = [s for s in ENGINE.legal_steps(working, seat) if s["type"] != "resign"]
        claims = [s for s in legal if s["type"] == "claim"]
        step = max(claims, key=lambda s: len(s["flags"])) if claims else rng.choice(legal)
        ENGINE.apply_step(working, seat, step)
        steps.append(step)
    return steps


def mail_to(outbox, address: str):
    return [m for m in outbox.sent if m["To"] == address]


CJK = ("CJK", "HIRAGANA", "KATAKANA")


def in_language(text: str) -> bool:
    return any(unicodedata.name(c, "").startswith(CJK) for c in text)


ENGLISH = ("Your move", "YOUR MOVE", "Reply to this email", "Your hand", "is to move", "Played:", "won", "Commands:")


@pytest.mark.parametrize("language", ["zh-Hans", "ja"])
def test_a_whole_game_by_email_between_two_players_of_a_language(store, language):
    services, inbound, outbox, people, game_id = game_in(store, language)
    rng, write = random.Random(3), WRITERS[language]
    address = {seat: f"p{seat}@example.org" for seat in people}
    for turn in range(200):
        view = services.games.view_for_seat(game_id, 1)
        if view["status"] == "finished":
            break
        seat = view["to_move"]
        last = next(m for m in reversed(mail_to(outbox, address[seat])) if m["Reply-To"])
        steps = a_turn(services.moves.find(game_id).state, seat, rng)
        with i18n.speaking(language):
            lines = [write(step, turn) for step in steps]
        said = "\n\n" + SAYINGS[language][turn % 3] if turn % 4 == 1 else ""
        signature = "\n\n发自我的iPhone" if language == "zh-Hans" and turn % 5 == 0 else ""
        message = EmailMessage()
        message["From"], message["To"] = address[seat], last["Reply-To"]  # the client answers to Reply-To
        message["Subject"], message["Message-ID"] = "回复：" + last["Subject"], f"<t{turn}@example.org>"
        message.set_content("\n".join(lines) + said + signature + "\n\n" + quoted(language, turn, last))
        result = inbound.handle(bytes(message))
        assert result.outcome == "applied", (lines, result.reason)
        # (its confirmation goes first in the next email of the game: checked with every email below)
        if said:
            assert services.games.get_game(people[seat], game_id)["messages"][-1]["text"] == said.strip()
        services.dispatcher.drain_outbox()
    view = services.games.view_for_seat(game_id, 1)
    assert view["status"] == "finished" and view["result"], "the game did not end"
    # every email they got is in their language: its subject, its text (no English sentence left) and
    # its HTML (lang, fonts that draw the script)
    assert len(outbox.sent) > 40
    for mail in outbox.sent:
        text = text_of(mail)
        assert in_language(mail["Subject"]), mail["Subject"]
        assert "Battle Line with" not in mail["Subject"] and in_language(text.splitlines()[0])
        words = re.sub(r"https?://\S+", "", text)  # a link's signed token may spell "won" by chance
        assert not [english for english in ENGLISH if english in words], text
        # typeset as the language is: no ASCII space after a full-width colon or stop ("ボード画面：http…"),
        # no doubled stop, asides in full-width brackets
        assert not re.search(r"[：。，、；] |。[.。]|   \(", text), text
        html = html_of(mail)
        assert f'<html lang="{language}">' in html
        assert ("PingFang SC" if language == "zh-Hans" else "Hiragino Sans") in html
    # the last emails tell each of them who won, in their words
    for seat, player in people.items():
        last = mail_to(outbox, address[seat])[-1]
        seat_view = services.games.view_for_seat(game_id, seat)
        won = i18n.in_language(language, lambda: show.result_line(seat_view))
        assert in_language(won) and text_of(last).count(won) == 1, text_of(last)  # told once, not twice
    if language == "zh-Hans":
        assert "战线" in outbox.sent[-1]["Subject"] and "对局" in outbox.sent[-1]["Subject"]
    else:
        assert "とのバトルライン" in outbox.sent[-1]["Subject"] and "ゲーム" in outbox.sent[-1]["Subject"]


# ---------------------------------------------------------------- each word of the tables

READS = {  # (language, a line a native writes) -> the step
    ("zh-Hans", "出7R到3"): {"type": "play", "card": "7R", "flag": 3},
    ("zh-Hans", "打出　７ｒ　３"): {"type": "play", "card": "7R", "flag": 3},
    ("zh-Hans", "出 侦察卡"): {"type": "play", "card": "SCOUT"},
    ("zh-Hans", "出红7到3"): {"type": "play", "card": "7R", "flag": 3},  # a troop as the rule book writes it
    ("zh-Hans", "放回 红10、蓝8"): {"type": "scout_return", "cards": ["10R", "8B"]},
    ("zh-Hans", "出 调整卡 3 9B 弃"): {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"},
                                      "discard": True},
    ("zh-Hans", "出 叛逆卡 3 9B 到 5"): {"type": "play", "card": "TRAITOR", "target": {"flag": 3, "card": "9B"},
                                        "to_flag": 5},
    ("zh-Hans", "声明 3、5。"): {"type": "claim", "flags": [3, 5]},
    ("zh-Hans", "宣告3和5"): {"type": "claim", "flags": [3, 5]},
    ("zh-Hans", "不声明"): {"type": "claim", "flags": []},
    ("zh-Hans", "抓部队牌"): {"type": "draw", "deck": "troop"},
    ("zh-Hans", "摸战术"): {"type": "draw", "deck": "tactics"},
    ("zh-Hans", "侦察抓 战术"): {"type": "scout_draw", "deck": "tactics"},
    ("zh-Hans", "放回 7R、8R"): {"type": "scout_return", "cards": ["7R", "8R"]},
    ("zh-Hans", "弃 4 2G"): {"type": "mud_discard", "flag": 4, "card": "2G"},
    ("ja", "7Rを3に出す"): {"type": "play", "card": "7R", "flag": 3},
    ("ja", "フラッグ３に７Ｒを出す"): {"type": "play", "card": "7R", "flag": 3},
    ("ja", "偵察をプレイ"): {"type": "play", "card": "SCOUT"},
    ("ja", "フラッグ3に黄8を出す"): {"type": "play", "card": "8Y", "flag": 3},  # 002「黄8」
    ("ja", "フラッグ3、5を宣言"): {"type": "claim", "flags": [3, 5]},
    ("ja", "宣言なし"): {"type": "claim", "flags": []},
    ("ja", "軍隊山札から引く"): {"type": "draw", "deck": "troop"},
    ("ja", "戦略カードを引く"): {"type": "draw", "deck": "tactics"},
    ("ja", "7R 8Rを戻す"): {"type": "scout_return", "cards": ["7R", "8R"]},
    ("vi", "đánh 7R vào chốt 3"): {"type": "play", "card": "7R", "flag": 3},
    ("vi", "danh 7r 3"): {"type": "play", "card": "7R", "flag": 3},  # typed without diacritics
    ("vi", "chiếm chốt 3, 5"): {"type": "claim", "flags": [3, 5]},
    ("vi", "không chiếm"): {"type": "claim", "flags": []},
    ("vi", "rút bài lính"): {"type": "draw", "deck": "troop"},
    ("vi", "rut chien thuat"): {"type": "draw", "deck": "tactics"},
    ("vi", "bỏ lượt"): {"type": "pass"},
    ("vi", "đánh REDEPLOY 3 9B bỏ"): {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"},
                                      "discard": True},
    ("vi", "bỏ 4 2G"): {"type": "mud_discard", "flag": 4, "card": "2G"},
}


@pytest.mark.parametrize("language, line", list(READS))
def test_a_line_written_as_a_native_writes_it_reads_as_its_step(language, line):
    with i18n.speaking(language):
        assert STEPS.read_line(line) == READS[language, line]


ARGUMENTS = {"play": " 7R 3", "claim": " 3 5", "draw": None, "scout": None, "return": " 7R 8R", "mud": " 4 2G",
             "pass": "", "resign": "", "claim none": ""}


@pytest.mark.parametrize("language", list(BATTLELINE))
def test_every_command_word_of_a_language_reads_and_english_still_does(language):
    """Each word of the language's table leads a line read as its English command; each deck word
    and "none" too; and the English commands read as before."""
    table = BATTLELINE[language]
    with i18n.speaking(language):
        for english, words in table.commands.items():
            for word in words:
                if english in ("draw", "scout"):
                    for deck, names in (("troop", table.words["troop"]), ("tactics", table.words["tactics"])):
                        for name in names:
                            assert STEPS.read_line(f"{word} {name}")["deck"] == deck, (word, name)
                    continue
                expected = STEPS.read_line(english + ARGUMENTS[english])
                assert STEPS.read_line(word + ARGUMENTS[english]) == expected, word
        for none in table.words["none"]:
            assert STEPS.read_line(f"{table.commands['claim'][0]} {none}") == {"type": "claim", "flags": []}
        for english in ("play 7R 3", "claim none", "draw troop", "pass", "resign"):
            assert STEPS.read_line(english) == i18n.in_language("en", lambda: STEPS.read_line(english))


@pytest.mark.parametrize("language", list(BATTLELINE))
def test_each_play_claim_draw_and_resign_word_is_played_by_reply(store, language):
    """A game where every way of writing a play, a claim and a draw is sent by reply and played,
    turn after turn, and the game ends by the language's resign word."""
    services, inbound, outbox, people, game_id = game_in(store, language, seed=5)
    table = BATTLELINE[language]
    plays, claims, draws = table.commands["play"], table.commands["claim"], table.commands["draw"]
    nones = list(table.commands["claim none"]) + [f"{claims[0]} {w}" for w in table.words["none"]]
    decks = [*table.words["troop"], *table.words["tactics"]]  # the tactics deck has 10 cards: enough
    for turn in range(max(len(plays), len(claims), len(draws), len(nones), len(decks))):
        view = services.games.view_for_seat(game_id, 1)
        seat = view["to_move"]
        view = services.games.view_for_seat(game_id, seat)
        play = next(s for s in view["legal_steps"] if s["type"] == "play" and s["card"][0].isdigit())
        claim = nones[turn % len(nones)] if turn % 2 else claims[turn % len(claims)]
        text = (f"{plays[turn % len(plays)]} {play['card']} {play['flag']}\n{claim}\n"
                f"{draws[turn % len(draws)]} {decks[turn % len(decks)]}")
        message = EmailMessage()
        message["From"], message["To"] = f"p{seat}@example.org", LINKS.reply_address(game_id, seat, view["version"])
        message["Subject"], message["Message-ID"] = "Re", f"<w{turn}@example.org>"
        message.set_content(text)
        result = inbound.handle(bytes(message))
        assert result.outcome == "applied", (text, result.reason)
        assert services.games.view_for_seat(game_id, seat)["version"] == view["version"] + 1
    seat = services.games.view_for_seat(game_id, 1)["to_move"]
    version = services.games.view_for_seat(game_id, seat)["version"]
    message = EmailMessage()
    message["From"], message["To"] = f"p{seat}@example.org", LINKS.reply_address(game_id, seat, version)
    message["Subject"], message["Message-ID"] = "Re", "<resign@example.org>"
    message.set_content(table.commands["resign"][-1])
    assert inbound.handle(bytes(message)).outcome == "applied"
    assert services.games.view_for_seat(game_id, 1)["result"]["reason"] == "resign"


REFUSALS = {  # a bad reply -> words its refusal holds, in the player's language, and the right word
    "zh-Hans": ("出 7R", ["无法读懂", "出 7R 3"]),
    "ja": ("7Rを出す", ["読み取れません", "プレイ 7R 3"]),
    "vi": ("rút linhh", ["không phải là một xấp bài", "lính"]),
}


@pytest.mark.parametrize("language", list(REFUSALS))
def test_a_reply_that_cannot_be_read_is_refused_in_the_players_language_with_the_right_word(store, language):
    services, inbound, outbox, people, game_id = game_in(store, language)
    line, told = REFUSALS[language]
    message = EmailMessage()
    message["From"], message["To"] = "p1@example.org", LINKS.reply_address(game_id, 1, 0)
    message["Subject"], message["Message-ID"] = "Re", "<bad@example.org>"
    message.set_content(line)
    result = inbound.handle(bytes(message))
    assert result.outcome == "refused"
    first = text_of(result.reply).splitlines()[0]
    assert all(word in first for word in told), first
    assert "cannot read" not in first and "I could not read" not in first
    with i18n.speaking(language):  # an unknown word: the commands' words are listed, the language's first
        with pytest.raises(CommandError) as refused:
            STEPS.read_line("hello 7R 3")
    assert BATTLELINE[language].commands["play"][0] in str(refused.value) and "play" in str(refused.value)


def test_the_email_says_the_commands_in_the_readers_words_and_that_english_works_too(store):
    services, inbound, outbox, people, game_id = game_in(store, "zh-Hans")
    mail = next(m for m in outbox.sent if m["To"] == "p1@example.org" and m["Reply-To"])
    text = text_of(mail)
    assert "不声明\n" in text and "抓 部队\n" in text and "\n    出 " in text
    assert "也可以用英文指令：play " in text and "claim none、draw troop" in text
    assert "“留言：”" in text  # the message line's word, in Chinese
    html = html_of(mail)
    assert "不声明" in html and "也可以用英文指令" in html and "。." not in text + html


KHAN_READS = [  # Khan & General in its rule book's words (003, Chinese): the same step as the English
    ("部署 light_cavalry －１ ０ 北", "deploy light_cavalry -1 0 N"),
    ("部署light_cavalry在-1 0朝北", "deploy light_cavalry -1 0 N"),
    ("移动0 0到1 2东", "move 0 0 to 1 2 E"),
    ("交战 0 1 用 0 0、1 1", "engage 0 1 with 0 0, 1 1"),
    ("指令 charge 0 0 序列 1", "command charge 0 0 seq 1"),
    ("支付 lance 指令序列 2", "pay lance seq 2"),
    ("转向 0 0 西", "turn 0 0 W"), ("翻开 1 -1", "flip 1 -1"), ("弃 0 0", "discard 0 0"),
    ("跳过 0 0", "skip 0 0"), ("推进 0 0", "advance 0 0"), ("不推进", "stay"), ("放置 heavy_cavalry", "place heavy_cavalry"),
    ("结束行动。", "end action"), ("结束反应", "end reaction"), ("结束交战", "end engagements"), ("结束回合", "end turn"),
    ("提和", "offer draw"), ("接受平局", "accept draw"), ("拒绝平局", "decline draw"), ("认输", "resign"),
]


@pytest.mark.parametrize("line, english", KHAN_READS)
def test_a_khan_command_in_chinese_reads_as_its_english_step(line, english):
    from chalicelib.games.khan.steps import STEPS as KHAN_STEPS

    with i18n.speaking("zh-Hans"):
        step = KHAN_STEPS.read_line(line)
        assert KHAN_STEPS.read_line(KHAN_STEPS.say(english)) == step  # what its emails write reads back
    assert step == KHAN_STEPS.read_line(english)


@pytest.mark.parametrize("language, word, answer", [
    ("zh-Hans", "接受！", "accept"), ("zh-Hans", "拒绝。", "decline"), ("ja", "承諾します", "accept"),
    ("ja", "辞退", "decline"), ("vi", "Chấp nhận.", "accept"), ("vi", "tu choi", "decline"),
])
def test_a_player_asked_to_play_answers_by_reply_in_their_language(store, language, word, answer):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(CreatePlayerRequest(
        name=name, email=f"{name.lower()}@example.org", language=language), None).body["api_key"])
        for name in ("Ann", "Bob"))
    game = services.creation.create_game(ann, CreateGameRequest(game="battleline", seats=[
        PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body
    services.dispatcher.drain_outbox()
    asked = next(m for m in outbox.sent if m["To"] == "bob@example.org")
    # the email names the language's word to reply with (a word the reader reads as accept), not only English's,
    # in both its parts
    native = {"zh-Hans": "“接受”", "ja": "「承諾」", "vi": "“chấp nhận”"}[language]
    assert native in text_of(asked) and native in html_of(asked)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"], message["Message-ID"] = (
        "bob@example.org", asked["Reply-To"], "Re", "<a@example.org>")
    message.set_content("maybe later")  # no answer: asked again, with the same words
    assert services.inbound.handle(bytes(message)).outcome == "refused"
    assert native in text_of(outbox.sent[-1]).split("\n\n")[0]
    del message["Message-ID"]
    message["Message-ID"] = "<b@example.org>"
    message.set_content(word)
    result = services.inbound.handle(bytes(message))
    assert result.outcome == "applied", result.reason
    assert services.store.load_game(game["game_id"]).status == ("active" if answer == "accept" else "finished")
    sent = len(outbox.sent)
    services.dispatcher.drain_outbox()
    confirmations_alone(services)  # held for the next email of the game, else sent alone: one email either way
    [answered] = [m for m in outbox.sent[sent:] if m["To"] == "bob@example.org"]
    first = text_of(answered).splitlines()[0]  # "You accepted: …" / "Declined." in their words
    assert first and not first.startswith(("You accepted", "Declined")), first


def test_what_a_player_wrote_is_quoted_as_their_language_quotes_it(store):
    """A reply that cannot be read is answered with the line quoted in the player's quotes."""
    services, inbound, outbox, people, game_id = game_in(store, "ja")
    last = next(m for m in reversed(mail_to(outbox, "p1@example.org")) if m["Reply-To"])
    message = EmailMessage()
    message["From"], message["To"], message["Subject"], message["Message-ID"] = (
        "p1@example.org", last["Reply-To"], "Re", "<q@example.org>")
    message.set_content("xyz 3")
    assert inbound.handle(bytes(message)).outcome == "refused"
    first = text_of(outbox.sent[-1]).splitlines()[0]
    assert "「xyz 3」を読み取れません" in first and "'xyz 3'" not in first, first


@pytest.mark.parametrize("language, subject, english", [
    ("ja", "佐藤さんからバトルラインのゲームへの招待", "invites you"), ("zh-Hans", "王芳邀请你玩一局战线", "invites you")])
def test_an_invitation_to_an_address_is_written_in_the_inviters_language(store, language, subject, english):
    """The address has no language yet: its invitation speaks the inviter's; the inviter's own
    email names the seat kept for it in their words, never the stored "(invited)"."""
    from chalicelib.http.models import EmailSeat

    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    inviter = services.players.authenticate(services.players.create_player(CreatePlayerRequest(
        name=NAMES[language][0], email="p1@example.org", language=language), None).body["api_key"])
    services.creation.create_game(inviter, CreateGameRequest(game="battleline", seats=[
        PlayerSeat(player_id=inviter.id), EmailSeat(email="new@example.org")]), None)
    services.dispatcher.drain_outbox()
    invitation = next(m for m in outbox.sent if m["To"] == "new@example.org")
    assert invitation["Subject"] == subject and english not in text_of(invitation)
    assert f'<html lang="{language}">' in html_of(invitation)
    own = text_of(next(m for m in outbox.sent if m["To"] == "p1@example.org"))
    assert "(invited)" not in own and ("招待されたプレイヤー" if language == "ja" else "受邀玩家") in own


def test_a_reminder_tells_the_time_left_once(store):
    """Its first line says it is still your move and how long you have: the line under the game's
    name does not say it again."""
    from chalicelib.notify import messages
    from chalicelib.notify.email import compose

    services = build_services(store, outlets=Outlets(mailer=Outbox(), links=LINKS))
    people = [services.players.authenticate(services.players.create_player(CreatePlayerRequest(
        name=name, email=f"p{seat}@example.org", language="ja"), None).body["api_key"])
        for seat, name in enumerate(NAMES["ja"], start=1)]
    view = start_game(services, people[0], CreateGameRequest(
        game="battleline", options={"first_seat": 1, "time_control": {"per_move_days": 3}}, seed=11,
        seats=[PlayerSeat(player_id=p.id) for p in people]), people)
    record = services.store.load_game(view["game_id"])
    message = messages.reminder(record, 1, people[0].id, "reminder_24h", "2026-11-27T10:00:00Z", 86400,
                                "2026-11-26T10:00:00Z")
    with i18n.speaking("ja"):
        seat_view = services.games.view_for_seat(view["game_id"], 1)
        text = text_of(compose(message, services.store.get_player(people[0].id), seat_view, LINKS))
    assert text.startswith("リマインダー：まだあなたの手番です。持ち時間は24時間以内に切れます。あなたの持ち時間：残り"), text
    assert sum("持ち時間" in line for line in text.splitlines()) == 1, text
    assert re.search(r"残り\d日\d+時間（", text.splitlines()[0]), text  # "2日23時間", not CLDR's "2 日 23 時間"
