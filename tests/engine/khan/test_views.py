"""Khan & General: what each seat (and a spectator) may see."""

from __future__ import annotations

from chalicelib.games.base import UNSEEN
from chalicelib.store.records import EventRecord

from .helpers import ENGINE, act, at, battle, charged, cost, put


def position(**chosen):
    state = battle(**chosen)
    put(state, 1, "heavy_cavalry", 0, 0, command="stand_firm")
    put(state, 1, "horse_archers", 1, -1, "W", up=False)
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")
    put(state, 2, "archers", 2, 3, "E", up=False)
    cost(state, 1, "lance", "envelop")
    cost(state, 2, "march")
    state["discards"]["1"].append(state["hands"]["1"].pop())
    return state


def unit_view(view, x, y):
    return next(u for u in view["field"] if (u["x"], u["y"]) == (x, y))


def test_a_face_down_enemy_unit_is_an_unknown_unit_with_its_facing():
    mine = ENGINE.view(position(), 1)
    hidden = unit_view(mine, 2, 3)
    assert hidden["unit"] is None and hidden["power"] is None and hidden["facing"] == "E"
    assert hidden["face_up"] is False


def test_a_seat_sees_its_own_face_down_units():
    assert unit_view(ENGINE.view(position(), 1), 1, -1)["unit"] == "horse_archers"


def test_every_command_lying_on_a_unit_is_seen_by_all():
    for seat in (1, 2, None):
        view = ENGINE.view(position(), seat)
        assert unit_view(view, 0, 0)["command"] == "stand_firm" and unit_view(view, 0, 1)["command"] == "pike_wall"


def test_enemy_sequences_hand_and_discard_pile_only_as_counts():
    view = ENGINE.view(position(), 2)
    assert view["sequences"]["1"] == [{"cards": None, "size": 2}]
    assert view["discards"]["1"] == {"cards": None, "size": 1}
    assert view["hand_sizes"]["1"] == 15 - 2 - 1 - 2 - 1 and view["hand"] == sorted(view["hand"])
    assert not {"charge", "gallop", "lance", "envelop"} & set(view["hand"])


def test_a_seat_sees_its_own_sequence_cards_and_discard_pile():
    view = ENGINE.view(position(), 1)
    assert view["sequences"]["1"] == [{"cards": ["envelop", "lance"], "size": 2}]
    assert view["discards"]["1"]["size"] == 1 and view["discards"]["1"]["cards"] is not None


def test_advanced_rules_hide_your_own_sequence_cards_and_discard_pile():
    view = ENGINE.view(position(advanced=True), 1)
    assert view["sequences"]["1"] == [{"cards": None, "size": 2}]
    assert view["discards"]["1"] == {"cards": None, "size": 1}
    assert view["hand"]  # your hand you still see


def test_a_spectator_sees_no_hand_no_deck_and_no_face_down_unit():
    view = ENGINE.view(position(), None)
    assert view["hand"] == [] and view["deck"] == []
    assert unit_view(view, 1, -1)["unit"] is None and unit_view(view, 2, 3)["unit"] is None


def test_a_deployed_units_type_is_told_only_to_its_owner():
    state = battle()
    put(state, 1, "heavy_cavalry", 0, 0)
    events = act(state, 1, {"type": "deploy", "unit": "light_cavalry", "at": at(-1, 0), "facing": "N"})
    assert "unit" not in events[0]["data"] and events[0]["private"] == {"1": {"unit": "light_cavalry"}}


def seen(event: dict, seat: int | None) -> dict:
    """An event's data as the service shows it to a seat (None: a spectator)."""
    record = EventRecord("g", 1, 1, event["type"], event["seat"], event["data"], "now", event.get("private", {}))
    return record.seen_by(seat)["data"]


def test_a_paid_cards_identity_is_told_only_to_its_owner_and_not_at_all_with_advanced_rules():
    events = act(battle(), 1, {"type": "pay", "card": "lance"})
    assert "card" not in events[0]["data"] and events[0]["private"] == {"1": {"card": "lance"}}
    assert seen(events[0], 1)["card"] == "lance" and "card" not in seen(events[0], 2)
    events = act(battle(advanced=True), 1, {"type": "pay", "card": "lance"})
    # Kept apart for replays only: no seat, not even the payer, is told.
    assert events[0]["private"] == {UNSEEN: {"card": "lance"}}
    assert all("card" not in seen(events[0], seat) for seat in (1, 2, None))


def test_the_other_seats_deck_is_never_shown():
    options = ENGINE.options_model.model_validate({}).model_dump(mode="json")
    assert set(ENGINE.public_options(options, 1)["decks"]) == {"1"}
    assert ENGINE.public_options(options, None)["decks"] == {}
    assert ENGINE.view(position(), 2)["deck"][0] == "spearmen"


def test_every_seat_sees_which_attackers_must_attack_and_how_often_each_unit_was_engaged():
    """Public facts of the turn (everyone saw the moves and engagements): a unit that used its
    attack card's mobility must attack while it can; trigger counts the engagements against a unit."""
    state = charged()
    for seat in (1, 2, None):
        assert ENGINE.view(state, seat)["must_attack"] == [at(0, 0)] and ENGINE.view(state, seat)["attacked"] == []
    act(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})
    view = ENGINE.view(state, 2)
    assert view["must_attack"] == []
    assert view["attacked"] == [{**at(0, 1), "times": 1}]  # 6 against 3: wounded, still there
