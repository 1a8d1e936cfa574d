"""A game told to people (games/<game>/story.py, Presenter.recap and counts): every event of random
games of both games is told in a sentence with the players' names, a seat's recap is what the
others did last, and nothing hidden from that seat is ever told."""

from __future__ import annotations

import random
import re

import pytest

from chalicelib.games import ENGINES
from chalicelib.games.battleline.story import card_name
from chalicelib.games.presenters import PRESENTERS, since_own_move
from chalicelib.store.records import EventRecord

NAMES = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bob"}]


def played(game: str, seed: int, steps: int = 400):
    """A random game: its state and its events as the service records them (seq, data, private)."""
    engine = ENGINES[game]
    options = engine.options_model.model_validate({}).model_dump(mode="json")
    state = engine.new_game(options, random.Random(seed))
    rng, events = random.Random(seed), []
    while engine.result(state) is None and len(events) < steps:
        seat = engine.to_move(state)
        legal = engine.legal_steps(state, seat)
        choices = [s for s in legal if s["type"] not in ("resign", "offer_draw")] or legal
        for raw in engine.apply_step(state, seat, rng.choice(choices)):
            events.append(EventRecord("g_1", len(events) + 1, len(events), raw["type"], raw["seat"], raw["data"],
                                      "2026-11-24T00:00:00.000Z", raw.get("private", {})))
    return engine, state, events


def view_of(engine, state, game: str, seat: int | None) -> dict:
    return {"game": game, "you": seat, "seats": NAMES, "state": engine.view(state, seat)}


@pytest.mark.parametrize("game", ["battleline", "khan"])
def test_every_event_of_random_games_is_told_with_the_players_names(game):
    shown = PRESENTERS[game]
    for seed in range(4):
        engine, state, events = played(game, seed)
        for seat in (1, 2):
            view = view_of(engine, state, game, seat)
            told = shown.told(view, [e.seen_by(seat) for e in events])
            assert told and all(isinstance(line, str) and line for line in told)
            assert any(line.startswith("Bob ") for line in told) if seat == 1 else any(
                line.startswith("Ann ") for line in told)
            assert shown.counts(view)


def test_a_battle_line_draw_is_told_with_its_card_to_the_drawer_only():
    engine, state, events = played("battleline", 1, steps=12)
    shown = PRESENTERS["battleline"]
    draw = next(e for e in events if e.type == "draw")
    card = draw.private[str(draw.seat)]["card"]
    mine = shown.tell(draw.seen_by(draw.seat), view_of(engine, state, "battleline", draw.seat))
    theirs = shown.tell(draw.seen_by(3 - draw.seat), view_of(engine, state, "battleline", 3 - draw.seat))
    named = card_name(card)
    assert mine.startswith("You drew ") and named in mine
    assert named not in theirs and theirs.startswith("Ann drew from the " if draw.seat == 1 else "Bob drew from the ")


def test_a_recap_is_what_the_others_did_last():
    events = [{"seat": 1, "type": "play"}, {"seat": 1, "type": "draw"}, {"seat": 2, "type": "play"},
              {"seat": 2, "type": "claim"}, {"seat": None, "type": "game_finished"}]
    assert since_own_move(events, 1) == events[2:]
    assert since_own_move(events[:4], 2) == events[:2]  # Bob mid-turn: Ann's turn is his recap
    assert since_own_move(events, None) == events


def test_battle_line_counts_name_the_decks_hands_tactics_discards_and_claimable_flags():
    engine, state, _ = played("battleline", 2, steps=200)
    lines = PRESENTERS["battleline"].counts(view_of(engine, state, "battleline", 1))
    text = "\n".join(lines)
    assert text.startswith("Decks: ") and "Hands: you " in text and "Bob " in text and "Tactics played:" in text


# ---------------------------------------------------------------- Khan & General

KHAN_TOLD = {"place", "deploy", "flip", "defence_discarded", "command", "pay", "move", "turn", "advance", "engagement",
             "revealed", "destroyed", "turn_ended", "turn_started", "reaction_window", "game_finished", "resign",
             "draw_offered", "draw_declined", "draw_accepted", "timeout", "withdrawn", "reaction_ended"}
# (a reaction window's end is told: the seat that waited on "may answer with defence commands" reads how it ended)
KHAN_QUIET = {"action_ended", "engagements_ended", "skip", "stay"}


def khan_played(seed: int, **chosen):
    """A random Khan & General game that leans towards combat, as the service records its events."""
    from chalicelib.games.khan.engine import ENGINE

    from .khan.helpers import options
    from .khan.test_properties import choose
    rng = random.Random(seed)
    state = ENGINE.new_game(options(first_seat=None, **chosen), rng)
    events = []
    while ENGINE.result(state) is None:
        seat = ENGINE.to_move(state)
        for raw in ENGINE.apply_step(state, seat, choose(rng, state, seat, ENGINE.legal_steps(state, seat))):
            events.append(EventRecord("g_1", len(events) + 1, len(events), raw["type"], raw["seat"], raw["data"],
                                      "2026-11-24T00:00:00.000Z", raw.get("private", {})))
    return ENGINE, state, events


def test_every_khan_event_a_player_cares_about_is_told_in_the_games_words_with_names():
    shown, seen = PRESENTERS["khan"], set()
    for seed in range(6):
        engine, state, events = khan_played(seed, max_rounds=25, advanced=seed % 2 == 1)
        for seat in (1, 2, None):
            view = view_of(engine, state, "khan", seat)
            for event in events:
                line = shown.tell(event.seen_by(seat), view)
                assert (line is None) == (event.type in KHAN_QUIET), (event.type, line)
                if line is None:
                    continue
                seen.add(event.type)
                assert "None" not in line and not re.search(r"\b[a-z]+_[a-z_]+\b", line), line  # names, not ids
                actor = event.seat if event.type not in ("reaction_window", "revealed", "destroyed") else \
                    event.data.get("seat", event.data.get("owner"))
                if actor is not None and event.type != "turn_started":
                    expected = "You" if actor == seat else NAMES[actor - 1]["name"]
                    if event.type in ("revealed", "destroyed"):
                        expected = "Your" if actor == seat else NAMES[actor - 1]["name"] + "'s"
                    assert line.startswith(expected + " "), (line, expected)
    assert seen >= KHAN_TOLD - {"resign", "draw_offered", "draw_declined", "draw_accepted", "timeout", "withdrawn"}


def _khan_events(state, seat, *steps):
    from .khan.helpers import act
    return [EventRecord("g", 1, 1, e["type"], e["seat"], e["data"], "now", e.get("private", {}))
            for e in act(state, seat, *steps)]


def _told(state, event, seat):
    from chalicelib.games.khan.engine import ENGINE
    return PRESENTERS["khan"].tell(event.seen_by(seat), view_of(ENGINE, state, "khan", seat))


def test_a_khan_deploy_and_a_payment_name_the_card_to_its_owner_only():
    from .khan.helpers import at, battle, put
    for advanced in (False, True):
        state = battle(advanced=advanced)
        put(state, 1, "heavy_cavalry", 0, 0)
        deploy, pay = _khan_events(state, 1, {"type": "deploy", "unit": "light_cavalry", "at": at(-1, 0), "facing": "N"},
                                   {"type": "pay", "card": "lance"})
        assert _told(state, deploy, 1) == "You deployed Light cavalry face down at (-1, 0), facing north"
        assert _told(state, deploy, 2) == "Ann deployed a unit face down at (-1, 0), facing north"
        assert _told(state, deploy, None) == "Ann deployed a unit face down at (-1, 0), facing north"
        mine = "You paid a card face down as a new sequence 1" if advanced else \
            "You paid Lance face down as a new sequence 1"
        assert _told(state, pay, 1) == mine
        assert _told(state, pay, 2) == "Ann paid a card face down as a new sequence 1"


def test_a_khan_engagement_is_told_with_attack_defence_outcome_and_the_units_names():
    from .khan.helpers import at, battle, put
    state = battle(phase="engagements")
    put(state, 1, "heavy_cavalry", 0, 0, "N", command="lance", wounded=True)
    put(state, 2, "spearmen", 0, 1, "S", up=False, wounded=True)
    revealed, engagement, destroyed, *_ = _khan_events(state, 1, {"type": "engage", "target": at(0, 1),
                                                                  "attackers": [at(0, 0)]})
    assert _told(state, revealed, 1) == "Bob's unit at (0, 1) was turned face up: Spearmen"
    assert _told(state, revealed, 2) == "Your unit at (0, 1) was turned face up: Spearmen"
    assert _told(state, engagement, 1) == \
        "You attacked Bob's unit at (0, 1) from (0, 0): attack 7 against defence 3, destroyed"
    assert _told(state, engagement, 2) == \
        "Ann attacked your unit at (0, 1) from (0, 0): attack 7 against defence 3, destroyed"
    assert _told(state, destroyed, 1) == "Bob's Spearmen at (0, 1) was destroyed"
    assert _told(state, destroyed, 2) == "Your Spearmen at (0, 1) was destroyed"


def test_a_khan_counter_and_a_command_with_its_payment_are_told():
    from .khan.helpers import at, battle, cost, put
    state = battle(phase="engagements")
    put(state, 1, "heavy_cavalry", 0, 0, "N", command="lance")
    put(state, 2, "spearmen", 0, 1, "S", command="pike_wall")
    engagement = _khan_events(state, 1, {"type": "engage", "target": at(0, 1), "attackers": [at(0, 0)]})[0]
    assert _told(state, engagement, 2) == ("Ann attacked your unit at (0, 1) from (0, 0): attack 7 against defence 6, "
                                           "wounded; the counter wounded the attacker at (0, 0)")
    state = battle(phase="action")
    state["turn"]["stage"] = "command"
    put(state, 1, "heavy_cavalry", 0, 0, "N")
    cost(state, 1, "gallop")
    command = _khan_events(state, 1, {"type": "command", "card": "charge", "at": at(0, 0), "sequence": 1})[0]
    assert _told(state, command, 2) == \
        "Ann played Charge on the unit at (0, 0), paid with sequence 1 (1 card to the discards)"


def test_khan_turns_and_the_end_are_told_in_names():
    engine, state, events = khan_played(1, max_rounds=3)
    started = next(e for e in events if e.type == "turn_started")
    mine = _told(state, started, started.seat)
    assert re.fullmatch(r"Round 1: your turn, up to \d cards?", mine)
    assert _told(state, started, 3 - started.seat).startswith(f"Round 1: {NAMES[started.seat - 1]['name']}'s turn")
    finished = next(e for e in events if e.type == "game_finished")
    line = _told(state, finished, None)
    assert line.startswith(("Ann won (", "Bob won (", "A draw (")), line


def test_khan_counts_name_each_side_with_its_hand_limit_command_zone_discards_and_units():
    from chalicelib.games.khan.engine import ENGINE

    from .khan.helpers import mid_game
    state = mid_game()
    ann = PRESENTERS["khan"].counts(view_of(ENGINE, state, "khan", 1))
    assert ann == [
        "Round 6 of 40. Your turn: 0 of 5 cards played",
        "You: 6 cards in hand, up to 5 cards a turn, 1 discarded (Arrow rain), 5 units left",
        "Your command zone: sequence 1 (2 cards: Charge, Envelop), sequence 2 (1 card: Gallop)",
        "Bob: 9 cards in hand, up to 5 cards a turn, 0 discarded, 5 units left",
        "Bob's command zone: sequence 1 (1 card)",
    ]
    bob = PRESENTERS["khan"].counts(view_of(ENGINE, state, "khan", 2))
    assert bob[0] == "Round 6 of 40. Ann's turn: 0 of 5 cards played"
    assert "Ann's command zone: sequence 1 (2 cards), sequence 2 (1 card)" in bob
    assert not any("Charge" in line or "Arrow rain" in line for line in bob)


def test_khan_card_names_come_from_the_card_set_and_bilingual_names_are_shortened_in_sentences():
    from chalicelib.games.khan import story
    from chalicelib.kernel.i18n import speaking
    assert story.short_name("Heavy cavalry 重骑兵") == "Heavy cavalry" and story.short_name("Spearmen") == "Spearmen"
    with speaking("zh"):
        assert story.short_name("Heavy cavalry 重骑兵") == "重骑兵"
    engine, state, _ = played("khan", 0, steps=3)
    named = story.card_names(view_of(engine, state, "khan", 1))
    assert named["heavy_cavalry"] == "Heavy cavalry" and named["stand_firm"] == "Stand firm"  # names.en, the id
    with speaking("zh-Hans"):
        named = story.card_names(view_of(engine, state, "khan", 1))
    assert named["heavy_cavalry"] == "重骑兵" and named["stand_firm"] == "坚守"  # the set's names.zh-Hans


def test_a_defence_in_the_opponents_turn_does_not_cut_the_recap_of_that_turn():
    """Khan & General: Ann defends in Bob's reaction window; her recap at her next turn is Bob's
    whole turn, not only what followed her defence."""
    events = [{"seat": 1, "type": "turn_started"}, {"seat": 1, "type": "deploy"}, {"seat": 1, "type": "turn_ended"},
              {"seat": 2, "type": "turn_started"}, {"seat": 2, "type": "pay"}, {"seat": 2, "type": "action_ended"},
              {"seat": 1, "type": "command"}, {"seat": 1, "type": "reaction_ended"},
              {"seat": 2, "type": "engagement"}, {"seat": 2, "type": "turn_ended"}, {"seat": 1, "type": "turn_started"}]
    assert since_own_move(events, 1) == events[3:10]
    assert since_own_move(events[:8], 2) == events[6:8]  # Bob, mid-turn: Ann's defence is what he has not seen
