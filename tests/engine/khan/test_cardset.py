"""Khan & General's card sets: the default set as the spec gives it, the file checks, and
card-set files a designer adds without touching code."""

from __future__ import annotations

import copy
import json

import pytest

from chalicelib.games.khan import cardset
from devtools import card_set as card_set_tool
from chalicelib.games.khan.cardset import (REGISTRY, CardSetChanged, CardSetError, Registry, parse, parse_keyword, read_file,
                                          warnings)

from .helpers import ENGINE, act, new_game

DEFAULT = REGISTRY.get("khan-default", 1)


def test_the_default_card_set_has_the_specs_unit_types():
    rows = {u.id: (u.faction, u.base, u.melee, u.ranged.forward if u.ranged else None, u.ranged.side if u.ranged else None)
            for u in DEFAULT.units.values()}
    assert rows == {
        "heavy_cavalry": ("khan", 4, True, None, None), "light_cavalry": ("khan", 3, True, None, None),
        "horse_archers": ("khan", 2, True, (1, 2), 1), "spearmen": ("general", 3, True, None, None),
        "swordsmen": ("general", 3, True, None, None), "archers": ("general", 2, False, (2, 3), 1)}


def test_the_default_card_set_has_the_specs_commands_with_keywords_in_order():
    written = {c.id: f"{c.kind} {c.cost} [{'all' if c.units == 'all' else ', '.join(c.units)}]: "
                     f"{', '.join(str(k) for k in c.keywords)}" for c in DEFAULT.commands.values()}
    assert written["charge"] == "attack 1 [heavy_cavalry, light_cavalry]: mobility 2, power +2, melee"
    assert written["raid"] == "attack 1 [light_cavalry, horse_archers]: power +1, melee, flank +1, mobility 2"
    assert written["wheel"] == "move 0 [all]: turn, mobility 1"
    assert written["shield_wall"] == "defend 1 [spearmen, swordsmen]: power +1, trigger 2"
    assert written["hold_fast"] == "defend 2 [swordsmen]: power +1, grapple"
    assert len(written) == 21 and sum(c.faction == "khan" for c in DEFAULT.commands.values()) == 10


def test_the_recommended_decks_are_the_specs():
    assert sorted(DEFAULT.recommended["khan"]) == sorted(
        ["heavy_cavalry"] * 2 + ["light_cavalry"] * 2 + ["horse_archers"] + ["gallop"] * 2 + ["charge"] * 2 +
        ["lance", "raid", "parthian_shot", "arrow_rain", "envelop", "stand_firm"])
    assert sorted(DEFAULT.recommended["general"]) == sorted(
        ["spearmen"] * 2 + ["swordsmen"] * 2 + ["archers", "march", "about_face"] + ["advance"] * 2 +
        ["pike_thrust", "bind", "volley", "pike_wall"] + ["shield_wall"] * 2)


@pytest.mark.parametrize("text, reason", [
    ("powr +2", "is not a keyword"), ("power 2", "signed number"), ("flank 1", "written with +"),
    ("mobility +2", "without a sign"), ("melee 1", "takes no number"), ("activate", "needs a number"),
])
def test_a_badly_written_keyword_is_refused_with_the_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse_keyword(text)


def broken(**changes):
    data = copy.deepcopy(DEFAULT.data)
    data.update(changes)
    return data


def problems(data) -> list[str]:
    with pytest.raises(CardSetError) as refused:
        parse(data, "designer.json")
    return refused.value.problems


def test_a_card_set_file_with_errors_is_refused_with_messages_that_point_at_the_faulty_entry():
    data = copy.deepcopy(DEFAULT.data)
    charge = next(c for c in data["commands"] if c["id"] == "charge")
    charge["keywords"][1] = "powr +2"
    next(u for u in data["units"] if u["id"] == "archers")["base"] = "two"
    found = problems(data)
    assert "commands[charge].keywords[1]: 'powr +2' is not a keyword; the keywords are power, melee, ranged, flank, " \
           "activate, mobility, turn, trigger, grapple, counter, coordinate" in found
    assert any(p.startswith("units[archers].base:") for p in found)


def command(data, card_id):
    return next(c for c in data["commands"] if c["id"] == card_id)


@pytest.mark.parametrize("change, expected", [
    (lambda d: command(d, "charge").update(units=["heavy_cav"]), "commands[charge].units: 'heavy_cav' is not a unit"),
    (lambda d: command(d, "charge").update(units=["spearmen"]), "commands[charge].units: spearmen is a general unit"),
    (lambda d: command(d, "pike_thrust").update(units=["archers", "spearmen"]),
     "commands[pike_thrust].units: archers cannot fight in melee"),
    (lambda d: command(d, "parthian_shot").update(units=["light_cavalry"]),
     "commands[parthian_shot].units: light_cavalry has no ranged area"),
    (lambda d: command(d, "gallop").update(keywords=["mobility 3", "counter"]),
     "commands[gallop].keywords[1]: 'counter' does not belong on a move command"),
    (lambda d: command(d, "lance").update(keywords=["power +3", "flank +2"]),
     "commands[lance].keywords: an attack command needs melee or ranged"),
    (lambda d: d["units"].append(dict(d["units"][0])), "units[heavy_cavalry]: the id 'heavy_cavalry' is used twice"),
    (lambda d: d["recommended"]["khan"].pop(), "recommended[khan]: a deck has exactly 10 command cards, not 9"),
    (lambda d: d["units"][0].update(faction="mongols"), "units[heavy_cavalry].faction: 'mongols' is not one of"),
])
def test_card_set_cross_checks_name_the_entry(change, expected):
    data = copy.deepcopy(DEFAULT.data)
    change(data)
    assert any(p.startswith(expected) for p in problems(data)), problems(data)


def test_a_faction_whose_cards_no_deck_can_hold_is_refused_naming_the_faction():
    data = copy.deepcopy(DEFAULT.data)
    data["commands"] = [c for c in data["commands"] if c["faction"] != "general" or c["id"] in (
        "march", "about_face", "advance", "pike_thrust")]
    data["recommended"]["general"] = ["spearmen", "spearmen", "swordsmen", "swordsmen", "archers"] + \
        ["march", "march", "about_face", "about_face", "advance", "advance", "pike_thrust", "pike_thrust"]
    assert "factions[general]: no deck can hold this faction's cards: a deck holds 5 units (at most 3 of a type) " \
           "and 10 commands (at most 2 of a card), and the faction has 3 unit types and 4 commands" in problems(data)


def scouts(data) -> None:
    """A unit type that can neither fight in melee nor shoot, and an attack card only it may take."""
    data["units"].append({"id": "scouts", "faction": "general", "name": "Scouts", "base": 1, "melee": False,
                          "ranged": None})
    data["commands"].append({"id": "ambush", "faction": "general", "name": "Ambush", "kind": "attack", "cost": 1,
                             "units": ["scouts"], "keywords": ["power +1", "melee", "ranged"]})


@pytest.mark.parametrize("change, expected", [
    (lambda d: command(d, "volley").update(keywords=["power -3", "ranged"]),
     "commands[volley].keywords[0]: power -3 takes the power of archers (base 2) to -1; a unit's power below 0 "
     "helps its enemy"),
    (lambda d: command(d, "push_of_pike").update(units="all"),
     "commands[push_of_pike].units: archers may take this melee attack but cannot make it (the card would be "
     "wasted on it); name the units that can: [\"spearmen\", \"swordsmen\"]"),
    (lambda d: command(d, "parthian_shot").update(keywords=["power +1", "ranged", "flank +1"]),
     "commands[parthian_shot].keywords[2]: flank +1 counts in melee only, and horse_archers can only shoot with "
     "this card"),
    (scouts, "commands[ambush].units: no unit that may carry it out can make a melee or ranged attack, so no deck "
             "can use this card"),
])
def test_a_valid_card_set_is_warned_of_what_a_designer_most_likely_did_not_mean(change, expected):
    data = copy.deepcopy(DEFAULT.data)
    change(data)
    assert warnings(parse(data, "designer.json")) == [expected]


def test_the_default_card_set_has_no_warnings():
    assert warnings(DEFAULT) == []


def test_a_file_reusing_a_published_id_and_version_with_other_rules_is_invalid_but_new_names_are_not():
    """Issue 20: the checker used to say valid, and only the server refused the file later."""
    edited = copy.deepcopy(DEFAULT.data)
    edited["units"][0]["base"] = 5
    review = REGISTRY.check(edited, "mine.json")
    assert review.card_set is None and review.problems == [
        f"version: khan-default version 1 is already defined by khan-default.v1.json with other rules (digest "
        f"{DEFAULT.digest}; this file's is {parse(edited).digest}); a published version never changes, so give "
        f"this file version 2"]
    renamed = copy.deepcopy(DEFAULT.data)
    renamed["units"][0]["names"]["vi"] = "Thiết kỵ"  # names are presentation: the rules are the same
    assert REGISTRY.check(renamed, "mine.json").card_set is not None


def test_the_check_command_warns_and_refuses_a_second_file_reusing_the_firsts_version(tmp_path, capsys):
    first, second = designer_set(version=1), designer_set(version=1)
    command(first, "push_of_pike")["units"] = "all"
    second["units"][1]["base"] = 9
    (tmp_path / "a.json").write_text(json.dumps(first))
    (tmp_path / "b.json").write_text(json.dumps(second))
    assert card_set_tool.main(["check", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 1
    out = capsys.readouterr().out
    assert "a.json: steppe-test version 1 is valid" in out
    assert "  warning: commands[push_of_pike].units: archers may take this melee attack" in out
    assert "b.json: refused\n  - version: steppe-test version 1 is already defined by a.json with other rules" in out


def test_the_check_command_shows_a_designer_every_fault(tmp_path, capsys):
    path = tmp_path / "mine.json"
    data = copy.deepcopy(DEFAULT.data)
    command(data, "charge")["keywords"] = ["mobility 2", "powr +2", "melee"]
    path.write_text(json.dumps(data))
    assert card_set_tool.main(["check", str(path)]) == 1
    assert "commands[charge].keywords[1]" in capsys.readouterr().out
    path.write_text("{not json")
    assert card_set_tool.main(["check", str(path)]) == 1
    assert "not valid JSON" in capsys.readouterr().out
    assert card_set_tool.main(["check", "chalicelib/games/khan/cardsets/khan-default.v1.json"]) == 0


def designer_set(**changes) -> dict:
    data = copy.deepcopy(DEFAULT.data)
    data.update(id="steppe-test", name="A designer's test set", **changes)
    next(u for u in data["units"] if u["id"] == "heavy_cavalry")["base"] = 5
    return data


@pytest.fixture
def designer_file(tmp_path):
    """A designer's card-set file in the extra folder, loaded as the server loads it; removed after."""
    (tmp_path / "steppe-test.v1.json").write_text(json.dumps(designer_set(version=1)))
    before = dict(REGISTRY.sets)
    REGISTRY.load_dir(tmp_path)
    yield tmp_path
    REGISTRY.sets.clear()
    REGISTRY.sets.update(before)


def test_a_designer_adds_a_card_set_file_and_plays_it_without_touching_code(designer_file, monkeypatch):
    monkeypatch.setenv(cardset.EXTRA_DIR_VARIABLE, str(designer_file))
    assert ("steppe-test", 1) in {(s.id, s.version) for s in cardset.default_registry().all()}
    state = new_game(card_set="steppe-test")
    act(state, 1, {"type": "place", "unit": "heavy_cavalry"})
    assert ENGINE.view(state, 1)["card_set"] == {"id": "steppe-test", "version": 1}
    assert ENGINE.view(state, 1)["field"][0]["power"] == 5


def test_a_game_keeps_its_card_set_version_when_a_newer_one_is_added(designer_file):
    state = new_game(card_set="steppe-test")
    (designer_file / "steppe-test.v2.json").write_text(json.dumps(designer_set(version=2)))
    REGISTRY.load_dir(designer_file)
    assert new_game(card_set="steppe-test")["card_set"]["version"] == 2
    assert state["card_set"]["version"] == 1
    act(state, 1, {"type": "place", "unit": "heavy_cavalry"})  # still plays with version 1


def test_a_card_set_version_edited_in_place_is_refused_rather_than_changing_games():
    registry = Registry()
    registry.add(parse(designer_set(version=1), "a.json"))
    edited = designer_set(version=1)
    edited["units"][1]["base"] = 9
    registry.add(parse(edited, "b.json"))
    assert "already defined by a.json" in registry.refused["b.json"][0]
    with pytest.raises(CardSetChanged):
        registry.get("steppe-test", 1, digest="0000")


def test_an_unknown_card_set_is_refused_naming_the_ones_there_are():
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as refused:
        ENGINE.options_model.model_validate({"card_set": "nope"})
    error = refused.value.errors()[0]
    assert error["type"] == "unknown_card_set" and "khan-default v1" in error["msg"]


def test_one_reading_of_a_file_tells_schema_faults_with_the_value_given_and_ids_used_twice(tmp_path):
    """A designer's file with a missing field, a cost out of range and an id used twice hears of all three at
    once, each refused value named; a control character in the JSON reads "at line", once."""
    data = copy.deepcopy(DEFAULT.data)
    del data["units"][0]["base"]
    command(data, "lance")["cost"] = 7
    data["commands"].append(dict(command(data, "charge")))
    with pytest.raises(CardSetError) as raised:
        parse(data)
    problems = raised.value.problems
    assert any(p.startswith(f"units[{data['units'][0]['id']}].base: Field required") for p in problems)
    assert "commands[lance].cost: Input should be less than or equal to 3, not 7" in problems
    assert any("the id 'charge' is used twice" in p for p in problems)
    path = tmp_path / "broken.json"
    path.write_text('{"id": "a\u0001b"}')
    with pytest.raises(CardSetError) as raised:
        read_file(path)
    assert "Invalid control character at line 1" in raised.value.problems[0]
