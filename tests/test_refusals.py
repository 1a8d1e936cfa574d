"""The rules' words a player reads, in the player's language (issue 19): a refusal of the rules
(IllegalStep, CommandError) and a step in words are made by the engines in English from a template
marked for translation (``Words``), and said in the language spoken where a person reads them: the
API's problem detail, the answer to an email reply, the move lists of emails and link pages. The
engines stay language-free: ``str(refusal)`` is the English sentence (logs), the ``code`` is stable."""

from __future__ import annotations

import ast
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from chalicelib.kernel import i18n
from chalicelib.config import build_services
from chalicelib.games import ENGINES, IllegalStep
from chalicelib.games.base import Words
from chalicelib.games.presenters import PRESENTERS
from chalicelib.games.steptypes import CommandError
from chalicelib.kernel.i18n import N_, say
from chalicelib.presenting.show import describe
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets

from tests.fakes import start_game
from tests.notify.helpers import LINKS, Outbox, kind_of, text_of

ROOT = Path(__file__).resolve().parent.parent
ENGINES_DIR = ROOT / "chalicelib" / "games"

# The same refusal (a draw when a card must be played first), as each language says it: the steps
# by their names in the reader's language (issue 36, item 4: no English step name in a Japanese refusal).
DRAW_REFUSED = {
    "en": "a draw step is not allowed now: this is the play step (expected pass or play)",
    "zh-Hans": "现在不能抓牌：现在是出牌阶段（可以略过或出牌）",
    "ja": "今は「引く」はできません：今は「プレイ」の段階です（できるのはパスまたはプレイ）",
    "vi": "bây giờ không được rút bài: đây là bước đánh bài (được phép: bỏ lượt hoặc đánh bài)",
}
ENGLISH_WORDS = re.compile(r"\b(?:is not allowed|expected|step|cannot|flag|the unit at|command the|end the|offer a)\b")


# ---------------------------------------------------------------- the words themselves


def test_a_refusal_reads_english_as_a_string_and_the_language_spoken_when_said():
    refusal = IllegalStep(N_("flag {flag} cannot be claimed: {reason}"), flag=3, code="illegal_action",
                          reason=Words(N_("flag {flag} is already claimed"), flag=3), details={"flag": 3})
    assert str(refusal) == refusal.reason == "flag 3 cannot be claimed: flag 3 is already claimed"
    assert refusal.details == {"flag": 3} and refusal.code == "illegal_action"
    with i18n.speaking("zh-Hans"):
        assert say(refusal.reason) == "不能声明占据地区3：地区3已被占据"  # the nested reason too
    with i18n.speaking("vi"):
        assert say(refusal.reason) == "không thể chiếm chốt 3: chốt 3 đã bị chiếm"
    assert say(refusal.reason) == str(refusal)  # English: the template itself
    assert say("plain words") == "plain words"
    written = CommandError(N_("cannot read {line}"), line="'play {7R}'")  # a player's braces are words, not fields
    assert str(written) == "cannot read 'play {7R}'" and i18n.in_language("ja", lambda: say(written.reason)) == \
        "'play {7R}'を読み取れません"


def test_a_claim_the_rules_refuse_says_why_in_each_language():
    engine = ENGINES["battleline"]
    import random
    state = engine.new_game(engine.options_model(first_seat=1).model_dump(), random.Random(4))
    card = state["hands"]["1"][0]
    with pytest.raises(IllegalStep) as refused:
        from chalicelib.games import apply_steps
        apply_steps(engine, state, 1, [{"type": "play", "card": card, "flag": 1}, {"type": "claim", "flags": [1]}])
    assert str(refused.value) == "flag 1 cannot be claimed: your side of flag 1 has 1 of the 3 cards it needs"
    said = {language: i18n.in_language(language, lambda: say(refused.value.reason)) for language in DRAW_REFUSED}
    assert said["zh-Hans"] == "不能声明占据地区1：你在地区1一侧只有1张牌，需要3张"
    assert said["ja"] == "フラッグ1の勝利は宣言できません：フラッグ1のあなたの側は、必要な3枚のうち1枚しかありません"
    assert said["vi"] == "không thể chiếm chốt 1: phía bạn ở chốt 1 mới có 1 trên 3 lá cần có"


def test_a_command_that_cannot_be_read_is_refused_in_the_language_spoken():
    with pytest.raises(CommandError) as refused:
        PRESENTERS["battleline"].parse_reply("play 7Z 3")
    assert str(refused.value) == "'7Z' is not a card (write troops as 7R, 10P; tactics by name)"
    with i18n.speaking("ja"):
        assert say(refused.value.reason) == "「7Z」はカードではありません（軍隊カードは7R、10Pのように、戦略カードは名前で書きます）"


# ---------------------------------------------------------------- where a person reads a refusal


@pytest.mark.parametrize("language", ["zh-Hans", "ja", "vi"])
def test_the_api_refuses_an_illegal_move_in_the_language_spoken_with_the_same_code(api, language):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=11, options={"first_seat": 1})
    english = api.act(ann, game["game_id"], 0, {"type": "draw", "deck": "troop"})
    with i18n.speaking(language):  # as the request's language is spoken (Accept-Language)
        reply = api.act(ann, game["game_id"], 0, {"type": "draw", "deck": "troop"},
                        headers={"Accept-Language": language})
    assert english.status == reply.status == 422
    assert english.body["code"] == reply.body["code"] == "illegal_action"
    assert english.body["detail"] == DRAW_REFUSED["en"]
    assert reply.body["detail"] == DRAW_REFUSED[language]


def mail_game(store, game: str, language: str):
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    made = [services.players.create_player(CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org",
                                                               language=speaks), None).body
            for name, speaks in (("Ann", language), ("Bob", "en"))]
    ann, bob = (services.players.authenticate(p["api_key"]) for p in made)
    view = start_game(services, ann, CreateGameRequest(game=game, options={"first_seat": 1}, seed=5,
                                                       seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                      [ann, bob])
    return services, services.inbound, outbox, view


def a_reply(to: str, text: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "ann@example.org", to, "Re: Your move"
    message["Message-ID"] = "<r1@example.org>"
    message.set_content(text)
    return bytes(message)


@pytest.mark.parametrize("language", ["zh-Hans", "ja", "vi"])
def test_an_email_reply_the_rules_refuse_is_answered_in_the_players_language(store, language):
    services, inbound, outbox, game = mail_game(store, "battleline", language)
    address = LINKS.reply_address(game["game_id"], 1, 0)
    result = inbound.handle(a_reply(address, "draw troop"))
    assert result.outcome == "refused"
    text = text_of(outbox.sent[-1])
    assert DRAW_REFUSED[language] in text and DRAW_REFUSED["en"] not in text
    unreadable = inbound.handle(a_reply(address, "play 7Z 3"))
    assert unreadable.outcome == "refused"
    expected = {"zh-Hans": "“7Z”不是一张牌", "ja": "「7Z」はカードではありません", "vi": "“7Z” không phải là một lá bài"}
    assert expected[language] in text_of(outbox.sent[-1]) and "is not a card" not in text_of(outbox.sent[-1])
    assert i18n.language() == "en"  # nothing spoken outside the answer


def test_a_khan_email_in_japanese_lists_its_moves_without_english_step_words(store):
    services, inbound, outbox, game = mail_game(store, "khan", "ja")
    services.dispatcher.drain_outbox()
    anns = [m for m in outbox.sent if m["To"] == "ann@example.org" and kind_of(m) == "your_turn"]
    assert anns, [kind_of(m) for m in outbox.sent]
    text = text_of(anns[-1])
    view = services.games.view_for_seat(game["game_id"], 1)
    steps = ENGINES["khan"].legal_steps(services.moves.find(game["game_id"]).state, 1)
    english = {describe(view, step) for step in steps}
    japanese = {i18n.in_language("ja", lambda s=step: describe(view, s)) for step in steps}
    assert english and not english & japanese
    assert not any(words in text for words in english), [w for w in english if w in text]
    assert any(words in text for words in japanese)
    # every Khan step, in words, says it in Japanese: none reads as its English
    samples = [{"type": "command", "card": "charge", "at": {"x": 1, "y": 2}, "sequence": 2}, {"type": "end_action"},
               {"type": "offer_draw"}, {"type": "pay", "card": "charge"}, {"type": "stay"}, {"type": "end_turn"},
               {"type": "engage", "target": {"x": 0, "y": 1}, "attackers": [{"x": 1, "y": 1}, {"x": 2, "y": 1}]}]
    with i18n.speaking("ja"):
        said = [PRESENTERS["khan"].describe_step(step) for step in samples]
    assert said[0] == "(1, 2)のユニットにchargeを命令する（命令列2で支払う）" and said[1] == "行動フェイズを終える"
    assert said[6] == "(1, 1)、(2, 1)で(0, 1)を攻撃する"
    assert not [s for s in said if ENGLISH_WORDS.search(s)], said


def test_khan_keywords_read_in_the_language_spoken():
    from chalicelib.games.khan.render import card_words
    from chalicelib.games.khan.cardset import REGISTRY
    cards = REGISTRY.get("khan-default", 1)
    command = next(c for c in cards.commands.values() if c.keywords)
    english = card_words(cards, command.id)
    with i18n.speaking("zh-Hans"):
        chinese = card_words(cards, command.id)
    assert str(command.keywords[0]).split()[0] in english
    assert not re.search(r"\b(?:power|melee|flank|mobility|counter|coordinate|activate|trigger|grapple)\b", chinese), chinese


# ---------------------------------------------------------------- every refusal translatable


REFUSALS = {"IllegalStep", "CommandError", "Unreadable"}
MARKS = {"N_", "Nn_"}


def _refusals():
    """Each ``IllegalStep(...)``/``CommandError(...)``/``Unreadable(...)`` made in the engines, with
    where it is and its first argument."""
    for path in sorted(ENGINES_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS and node.args:
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0]


def _marked(node: ast.AST) -> list[str] | None:
    """The templates a refusal's first argument marks for translation; None if it holds words that
    are not marked (a plain string, an f-string, a concatenation)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKS:
        return [node.args[0].value] if node.args and isinstance(node.args[0], ast.Constant) else None  # the msgid
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):  # {"deploy": N_(...), ...}[wanted]
        found = [_marked(v) for v in node.value.values]
        return None if any(f is None for f in found) else [t for f in found for t in f]
    if isinstance(node, ast.Name):  # a ready Words (a reason made by a rule's check)
        return []
    return None


def test_every_refusal_of_the_engines_is_a_template_marked_for_translation():
    found = list(_refusals())
    assert len(found) > 100  # the scan sees the engines' refusals
    unmarked = [where for where, argument in found if _marked(argument) is None]
    assert not unmarked, f"refusals with words gettext never sees (use N_(template), name=...): {unmarked}"


def test_every_refusal_template_is_in_the_messages_template_and_translated():
    templates = {t for _, argument in _refusals() for t in (_marked(argument) or [])}
    with open(ROOT / "chalicelib" / "locale" / "messages.pot", "rb") as file:
        extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(file) if m.id}
    assert templates and not templates - extracted, sorted(templates - extracted)
    for language in ("zh_Hans", "ja", "vi"):
        path = ROOT / "chalicelib" / "locale" / language / "LC_MESSAGES" / "messages.po"
        with open(path, "rb") as file:
            catalog = {m.id if isinstance(m.id, str) else m.id[0]: m for m in read_po(file) if m.id}
        missing = [t for t in templates if not catalog[t].string or catalog[t].fuzzy]
        assert not missing, (language, missing)


def test_the_scan_catches_a_refusal_written_as_an_f_string():
    written = ast.parse('IllegalStep(f"you do not hold {card}")\nIllegalStep("the game is over")\n'
                        'IllegalStep(N_("you do not hold {card}"), card=card)')
    calls = [n for n in ast.walk(written) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "IllegalStep"]
    assert [_marked(c.args[0]) for c in calls] == [None, None, ["you do not hold {card}"]]


def test_no_gettext_call_hides_inside_an_f_string():
    """Python 3.11's tokenizer gives Babel an f-string as one token: a ``_("...")`` inside one is never
    extracted, so it is never translated."""
    hidden = []
    for folder in ("chalicelib", "battleline_cli", "khan_lab"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.JoinedStr):
                    hidden += [f"{path.relative_to(ROOT)}:{sub.lineno}" for sub in ast.walk(node)
                               if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)
                               and sub.func.id in ("_", "gettext", "ngettext", "N_")
                               and sub.args and isinstance(sub.args[0], ast.Constant)]
    assert not hidden, hidden


def test_a_step_that_does_not_match_the_schema_is_described_in_the_language_spoken(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=11, options={"first_seat": 1})
    bad = {"type": "draw", "deck": "hand"}
    english = api.act(ann, game["game_id"], 0, bad)
    with i18n.speaking("ja"):
        japanese = api.act(ann, game["game_id"], 0, bad, headers={"Accept-Language": "ja"})
    assert english.body["code"] == japanese.body["code"] == "invalid_step"
    assert english.body["detail"] == "step 0: draw.deck: Input should be 'troop' or 'tactics'"  # pydantic's English
    assert japanese.body["detail"] == "ステップ0：draw.deck：値は'troop'または'tactics'のいずれかにしてください"
