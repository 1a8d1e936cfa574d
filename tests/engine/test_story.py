"""A game told to people (games/<game>/story.py, Presenter.recap and counts): every event of random
games of both games is told in a sentence with the players' names, a seat's recap is what the
others did last, and nothing hidden from that seat is ever told."""

from __future__ import annotations

import random

import pytest

from chalicelib.games import ENGINES
from chalicelib.games.battleline.story import card_name
from chalicelib.games.presenters import PRESENTERS, since_own_move
from chalicelib.records import EventRecord

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


def test_khan_names_a_command_without_a_name_of_its_own_and_says_your_turn():
    """The default set's commands have ids only ("march"): a command played is told by its id, never
    as "None"; a seat's own turn is "your turn", not "You's turn"."""
    view = {"game": "khan", "you": 1, "seats": NAMES, "state": {"card_set": {"id": "khan-default", "version": 1}}}
    shown = PRESENTERS["khan"]
    played_ = shown.tell({"type": "command", "seat": 2, "data": {"card": "pike_wall", "at": {"x": 0, "y": 1}}}, view)
    assert played_ == "Bob played pike wall on the unit at (0, 1)"
    mine = shown.tell({"type": "turn_started", "seat": 1, "data": {"round": 2, "cards": 3}}, view)
    theirs = shown.tell({"type": "turn_started", "seat": 2, "data": {"round": 2, "cards": 3}}, view)
    assert mine == "Round 2: your turn (3 cards)" and theirs == "Round 2: Bob's turn (3 cards)"


def test_a_defence_in_the_opponents_turn_does_not_cut_the_recap_of_that_turn():
    """Khan & General: Ann defends in Bob's reaction window; her recap at her next turn is Bob's
    whole turn, not only what followed her defence."""
    events = [{"seat": 1, "type": "turn_started"}, {"seat": 1, "type": "deploy"}, {"seat": 1, "type": "turn_ended"},
              {"seat": 2, "type": "turn_started"}, {"seat": 2, "type": "pay"}, {"seat": 2, "type": "action_ended"},
              {"seat": 1, "type": "command"}, {"seat": 1, "type": "reaction_ended"},
              {"seat": 2, "type": "engagement"}, {"seat": 2, "type": "turn_ended"}, {"seat": 1, "type": "turn_started"}]
    assert since_own_move(events, 1) == events[3:10]
    assert since_own_move(events[:8], 2) == events[6:8]  # Bob, mid-turn: Ann's defence is what he has not seen
