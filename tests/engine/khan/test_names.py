"""Khan & General's names in each language (issue 19): a card set names its set, factions, units
and commands per language (``names``), the board, the story and the pages read them in the
reader's language, falling back to the English ``name`` (and an older file's bilingual name
still reads by script). Names are presentation: they are not part of the digest a game records."""

from __future__ import annotations

import copy
import json

import pytest

from chalicelib.games.khan import story
from chalicelib.games.khan.cardset import REGISTRY, CardSetError, parse
from chalicelib.games.presenters import PRESENTERS
from chalicelib.kernel.i18n import speaking
from chalicelib.services.card_sets import check_khan_card_set
from devtools import card_set as card_set_tool

from .helpers import ENGINE, mid_game

DEFAULT = REGISTRY.get("khan-default", 1)
DIGEST_BEFORE_NAMES = "5908d061a474b20d"  # khan-default v1 as published, before it had names
NAMES = {1: "Ann", 2: "Bob"}

# What a reader of each language reads for Ann's heavy cavalry, Bob's spearmen, the lance on
# Ann's unit, and the two factions.
READ = {
    "en": ("Heavy cavalry", "Spearmen", "Lance", "Khan (cavalry)", "General (infantry)"),
    "zh-Hans": ("重骑兵", "长枪兵", "骑枪突刺", "汗王（骑兵）", "大将军（步兵）"),
    "ja": ("重騎兵", "長槍兵", "騎槍突撃", "ハーン（騎兵）", "大将軍（歩兵）"),
    "vi": ("Kỵ binh nặng", "Lính giáo dài", "Đâm thương", "Khả Hãn (kỵ binh)", "Đại tướng quân (bộ binh)"),
}


def without_names(data: dict) -> dict:
    data = copy.deepcopy(data)
    data.pop("names", None)
    for group in ("factions", "units", "commands"):
        for entry in data[group]:
            entry.pop("names", None)
    return data


@pytest.mark.parametrize("language", list(READ))
def test_the_text_board_names_units_commands_and_factions_in_the_readers_language(language):
    heavy, spear, lance, khan, general = READ[language]
    state = mid_game()
    with speaking(language):
        board = PRESENTERS["khan"].text_board(ENGINE.view(state, 1), 1, NAMES)
    assert f"HC {heavy}" in board and f"SP {spear}" in board and f"LA {lance}" in board  # labels stay Latin
    assert khan in board and general in board
    others = {name for other, words in READ.items() if other != language for name in words[:3]} - set(READ[language])
    assert not [name for name in others if name in board], "a name in another language"


@pytest.mark.parametrize("language", list(READ))
def test_a_story_sentence_names_the_unit_in_the_readers_language(language):
    state = mid_game()
    view = {"game": "khan", "you": 2, "seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bob"}],
            "state": ENGINE.view(state, 2)}
    event = {"type": "destroyed", "seat": 2, "data": {"unit": "heavy_cavalry", "owner": 1, "at": {"x": 0, "y": 0}}}
    with speaking(language):
        said = PRESENTERS["khan"].tell(event, view)
    assert READ[language][0] in said and "Ann" in said
    if language != "zh-Hans":
        assert "重骑兵" not in said  # the English name's Chinese part is not read out


def test_a_command_without_a_name_is_named_per_language_and_by_its_id_in_english():
    with speaking("en"):
        assert story.name_of(DEFAULT, "stand_firm") == "Stand firm"
    with speaking("ja"):
        assert story.name_of(DEFAULT, "stand_firm") == "踏みとどまる"
    with speaking("vi"):
        assert story.name_of(DEFAULT, "parthian_shot", short=False) == "Vừa chạy vừa bắn"


def test_the_set_and_its_factions_are_named_per_language():
    with speaking("zh-Hans"):
        assert story.set_name(DEFAULT) == "汗王与大将军：默认卡牌"
        assert story.faction_name(DEFAULT, "khan") == "汗王（骑兵）"
    assert story.set_name(DEFAULT) == "Khan & General: the default cards"
    assert story.faction_name(DEFAULT, "nobody") == "nobody"


def test_an_older_bilingual_name_still_reads_by_script_and_english_falls_back():
    """A file without ``names`` (the default set as it was published): sentences take the part
    of "Heavy cavalry 重骑兵" in the reader's script, the legend the whole name."""
    older = parse(without_names(DEFAULT.data), "older.json")
    with speaking("zh-Hans"):
        assert story.name_of(older, "heavy_cavalry") == "重骑兵"
        assert story.faction_name(older, "khan") == "Khan (cavalry)"  # no Chinese given: the English name
    with speaking("vi"):
        assert story.name_of(older, "heavy_cavalry") == "Heavy cavalry"
        assert story.name_of(older, "heavy_cavalry", short=False) == "Heavy cavalry 重骑兵"


def test_names_are_not_part_of_the_digest():
    assert DEFAULT.digest == DIGEST_BEFORE_NAMES  # games begun before names were added keep their set
    bare = without_names(DEFAULT.data)
    assert parse(bare).digest == DIGEST_BEFORE_NAMES
    renamed = copy.deepcopy(DEFAULT.data)
    renamed["units"][0]["names"]["vi"] = "Thiết kỵ"
    assert parse(renamed).digest == DIGEST_BEFORE_NAMES
    rules = copy.deepcopy(bare)
    rules["units"][0]["name"] = "Cataphracts"  # the English name is still the file's own
    assert parse(rules).digest != DIGEST_BEFORE_NAMES


@pytest.mark.parametrize("where, key, entry", [
    ("units", "zh", "units[heavy_cavalry].names"), ("commands", "fr", "commands[gallop].names"),
    ("factions", "zh_Hans", "factions[khan].names"), (None, "english", "names"),
])
def test_a_names_key_that_is_not_a_language_is_refused_naming_the_entry_and_field(where, key, entry):
    data = copy.deepcopy(DEFAULT.data)
    target = data[where][0] if where else data
    target.setdefault("names", {})[key] = "x"
    with pytest.raises(CardSetError) as refused:
        parse(data, "mine.json")
    problem = next(p for p in refused.value.problems if p.startswith(entry + ":"))
    assert repr(key) in problem and "zh-Hans" in problem and "is not a language of this server" in problem
    if key in ("zh", "zh_Hans"):
        assert "did you mean 'zh-Hans'?" in problem
    checked = check_khan_card_set(data)  # the API's checkKhanCardSet says the same
    assert not checked["valid"] and problem in checked["problems"]


def test_an_empty_name_in_a_language_is_refused():
    data = copy.deepcopy(DEFAULT.data)
    data["commands"][1]["names"]["ja"] = ""
    with pytest.raises(CardSetError, match=r"commands\[wheel\]\.names\.ja"):
        parse(data)


def test_check_card_set_says_which_entries_have_no_name_in_a_language(tmp_path, capsys):
    data = copy.deepcopy(DEFAULT.data)
    del data["commands"][0]["names"]["vi"]
    path = tmp_path / "mine.v1.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert card_set_tool.main(["check", str(path)]) == 0  # a hint, not a fault
    printed = capsys.readouterr().out
    assert "names in vi: none for commands[gallop] (English is shown)" in printed
    assert "names in zh-Hans: every entry" in printed


def test_every_entry_of_the_default_set_is_named_in_every_language():
    assert not any(card_set_tool.names_missing(DEFAULT).values())
    assert set(card_set_tool.names_missing(DEFAULT)) == {"zh-Hans", "ja", "vi"}


# Each language's word for north, as a step's sentence says a facing (issue 35: "facing north", not "facing N").
NORTH = {"en": "facing north", "zh-Hans": "朝向北", "ja": "北向きで", "vi": "quay mặt về bắc"}


@pytest.mark.parametrize("language", list(NORTH))
def test_khan_step_words_say_facing_north_in_full(language):
    """A deploy, a move and a turn say their facing as a direction in the reader's words, in the
    step table's one sentence (emails, link pages, the board page, replies' help), and a refusal
    says it too: "facing north", as the story of the game does, never "facing N"."""
    from chalicelib.kernel.i18n import _, say

    from .helpers import act, at, battle, put, refused

    presenter = PRESENTERS["khan"]
    with speaking(language):
        deploy = presenter.describe_step({"type": "deploy", "unit": "light_cavalry", "at": at(-1, 0), "facing": "N"})
        turn = presenter.describe_step({"type": "turn", "at": at(0, 0), "facing": "W"})
        move = presenter.describe_step({"type": "move", "at": at(0, 0), "to": at(0, 1), "facing": "E"})
        west, east = _(story.FACINGS["W"]), _(story.FACINGS["E"])
    assert NORTH[language] in deploy and west in turn and east in move
    for sentence in (deploy, turn, move):
        assert not any(f"{word} {code}" in sentence for word in ("facing", "face") for code in "NESW")
    if language == "en":
        assert deploy == "deploy light_cavalry face down at (-1, 0), facing north"
        assert turn == "turn the unit at (0, 0) to face west"
        assert move == "move the unit at (0, 0) to (0, 1) facing east"
    state = battle(active=2)
    put(state, 2, "swordsmen", 0, 0, "S")
    act(state, 2, {"type": "command", "card": "about_face", "at": at(0, 0)})
    reason = refused(state, 2, {"type": "turn", "at": at(0, 0), "facing": "S"})
    with speaking(language):
        told, south = say(reason), _(story.FACINGS["S"])
    assert south in told and (language != "en" or told == "the unit faces south already; skip the keyword instead")
