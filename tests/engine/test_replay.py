"""A game's events replay it exactly (khan.md: "Every accepted step, `end_action` included,
writes at least one event, so a game's events replay it exactly"), for both games.

Random play to the end, with resignations, timeouts and withdrawals (and, in Khan & General,
draw offers) thrown in; then ``games.replay`` deals the game anew from its seed and takes the
steps its events record: it must write the very same events and reach the very same state.
On the way, no Battle Line event's public part names a card in a hand or a deck (what the
replay needs of them stays private).
A run plays 200 Battle Line games (every variant) and 150 Khan & General games (1 to 20
rounds, with combat), in about 20 s together; a scripted game replays a rout.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib.games import ENGINES
from tests.examples import examples
from chalicelib.games.base import UNSEEN
from chalicelib.games.replay import FORFEITS, ReplayError, replay

from .khan.test_properties import choose as khan_choice

BATTLELINE, KHAN = ENGINES["battleline"], ENGINES["khan"]
MAX_STEPS = 20_000
ENDINGS = ("resign", *FORFEITS)


def random_play(engine, options: dict, seed: int, rng: random.Random, choose, *, quit_rate: float) -> tuple[dict, list]:
    """Play a game to its end; every step (and forfeit) must write at least one event."""
    state = engine.new_game(options, random.Random(seed))
    events: list[dict] = []
    for _ in range(MAX_STEPS):
        if engine.result(state) is not None:
            return state, events
        seat = engine.to_move(state)
        deal = game_number(state)
        if rng.random() < quit_rate:
            quitter = rng.choice(sorted({seat, *engine_seats(state)}))
            ending = rng.choice(ENDINGS)
            written = (engine.apply_step(state, quitter, {"type": "resign"}) if ending == "resign"
                       else engine.forfeit(state, quitter, ending))
        else:
            seat, step = choose(state, seat, rng)
            written = engine.apply_step(state, seat, engine.parse_step(step))
            assert written, f"{step} changed the game without an event"
        if engine is BATTLELINE and game_number(state) == deal:  # (a match's next deal reuses the cards)
            assert not public_cards(written) & hidden_cards(state), written
        events += copy.deepcopy(written)
    raise AssertionError(f"the game did not end within {MAX_STEPS} steps")


def game_number(state: dict) -> int:
    return state["match"]["number"] if state.get("match") else 1


def hidden_cards(state: dict) -> set[str]:
    """Battle Line cards no seat may see in another's events: those in hands and decks."""
    return {c for cards in [*state["hands"].values(), *state["decks"].values()] for c in cards}


def public_cards(events: list[dict]) -> set[str]:
    """Every string in the events' public parts (what every seat and spectator is shown)."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for event in events:
        walk(event["data"])
    return found


def engine_seats(state: dict) -> list[int]:
    """The seats still playing (a resigned seat of a three-player game is out)."""
    if "players" in state:
        return [s for s in range(1, state["players"] + 1) if s not in state["resigned"]]
    return [1, 2]


def battleline_choice(state: dict, seat: int, rng: random.Random) -> tuple[int, dict]:
    steps = [s for s in BATTLELINE.legal_steps(state, seat) if s["type"] != "resign"]
    return seat, rng.choice(steps)


def khan_play_choice(state: dict, seat: int, rng: random.Random) -> tuple[int, dict]:
    """Mostly the property tests' fighting player; now and then a draw offer, and the other seat's
    answer (an acceptance, rarely), so that offers lapse, are declined and accepted."""
    offer = state["draw_offer"]
    if offer is not None and offer != seat and rng.random() < 0.5:
        return seat, {"type": "decline_draw"}  # the seat to move may also just play on
    if offer is not None and offer == seat and rng.random() < 0.5:
        return 3 - seat, {"type": "accept_draw" if rng.random() < 0.1 else "decline_draw"}
    steps = KHAN.legal_steps(state, seat)
    if {"type": "offer_draw"} in steps and rng.random() < 0.01:
        return seat, {"type": "offer_draw"}
    return seat, khan_choice(rng, state, seat, [s for s in steps if s["type"] != "resign"])


battleline_options = st.one_of(
    st.fixed_dictionaries({
        "claim_timing": st.sampled_from(["basic", "start", "end"]),
        "auto_claim": st.fixed_dictionaries({"1": st.booleans(), "2": st.booleans()}),
    }),
    st.fixed_dictionaries({"players": st.just(3), "claim_timing": st.sampled_from(["basic", "start", "end"])}),
    st.fixed_dictionaries({"match_games": st.integers(2, 3),
                           "auto_claim": st.fixed_dictionaries({"1": st.booleans(), "2": st.booleans()})}),
    st.fixed_dictionaries({"tactics": st.just(False)}),
)


@settings(max_examples=examples(50, 200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), choices=st.randoms(use_true_random=False), options=battleline_options,
       quit_rate=st.sampled_from([0.0, 0.0, 0.005]))
def test_replaying_a_battleline_games_events_rebuilds_its_state(seed, choices, options, quit_rate):
    opts = BATTLELINE.options_model.model_validate(options).model_dump(mode="json")
    final, events = random_play(BATTLELINE, opts, seed, choices, battleline_choice, quit_rate=quit_rate)
    assert replay(BATTLELINE, opts, seed, events) == final


@settings(max_examples=examples(50, 150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), choices=st.randoms(use_true_random=False),
       max_rounds=st.integers(1, 20), advanced=st.booleans(), first_seat=st.sampled_from([None, 1, 2]),
       quit_rate=st.sampled_from([0.0, 0.0, 0.002]))
def test_replaying_a_khan_games_events_rebuilds_its_state(seed, choices, max_rounds, advanced, first_seat, quit_rate):
    opts = KHAN.options_model.model_validate({"max_rounds": max_rounds, "advanced": advanced,
                                              "first_seat": first_seat}).model_dump(mode="json")
    final, events = random_play(KHAN, opts, seed, choices, khan_play_choice, quit_rate=quit_rate)
    assert replay(KHAN, opts, seed, events) == final


# A real game to its rout (seat 1 the Khan, first): the Khan pays two cards, lances the
# General's only unit on the field in round 3, and the General, who deployed nothing, is
# routed. Its draw offer lapses when the Khan plays on.
ROUT = [(1, {"type": "place", "unit": "heavy_cavalry"}), (2, {"type": "place", "unit": "spearmen"}),
        (1, {"type": "pay", "card": "envelop"}), (1, {"type": "end_action"}), (1, {"type": "end_turn"}),
        (2, {"type": "offer_draw"}), (2, {"type": "end_action"}),
        (1, {"type": "end_reaction"}),  # stand_firm could be paid: the reaction window opened
        (2, {"type": "end_turn"}),
        (1, {"type": "pay", "card": "arrow_rain", "sequence": 1}), (1, {"type": "end_action"}),
        (1, {"type": "end_turn"}), (2, {"type": "end_action"}), (2, {"type": "end_turn"}),
        (1, {"type": "command", "card": "lance", "at": {"x": 0, "y": 0}, "sequence": 1}),
        (1, {"type": "end_action"}),
        (1, {"type": "engage", "target": {"x": 0, "y": 1}, "attackers": [{"x": 0, "y": 0}]})]


def routed_game() -> tuple[dict, dict, list]:
    opts = KHAN.options_model.model_validate({"first_seat": 1}).model_dump(mode="json")
    state = KHAN.new_game(opts, random.Random(9))
    events = []
    for seat, step in ROUT:
        events += KHAN.apply_step(state, seat, KHAN.parse_step(step))
    return opts, state, events


def test_a_routed_game_with_a_lapsed_draw_offer_replays():
    opts, final, events = routed_game()
    assert final["result"]["reason"] == "routed"
    assert "draw_declined" in [e["type"] for e in events]  # the Khan played on
    assert replay(KHAN, opts, 9, events) == final


# ---------------------------------------------------------------- a replay that cannot fail proves nothing

def played(engine, options: dict, seed: int, choose) -> tuple[dict, list]:
    return random_play(engine, options, seed, random.Random(seed), choose, quit_rate=0.0)


def rebuilds(engine, options: dict, seed: int, events: list, final: dict) -> bool:
    try:
        return replay(engine, options, seed, events) == final
    except ReplayError:
        return False


def test_events_that_do_not_replay_the_game_are_caught():
    opts = KHAN.options_model.model_validate({"max_rounds": 3, "advanced": True}).model_dump(mode="json")
    final, events = played(KHAN, opts, 3, khan_play_choice)
    assert rebuilds(KHAN, opts, 3, events, final)
    with pytest.raises(ReplayError, match="writes"):
        replay(KHAN, opts, 3, [e for e in events if e["type"] != "turn_started"])
    # A payment no seat was told of still decides the game: another card, another game.
    pay = next(e for e in events if e["type"] == "pay")
    paid = pay["private"][UNSEEN]["card"]
    pay["private"][UNSEEN]["card"] = "lance" if paid != "lance" else "charge"
    assert not rebuilds(KHAN, opts, 3, events, final)
    opts = BATTLELINE.options_model.model_validate({}).model_dump(mode="json")
    final, events = played(BATTLELINE, opts, 5, battleline_choice)
    assert rebuilds(BATTLELINE, opts, 5, events, final)
    assert not rebuilds(BATTLELINE, opts, 6, events, final)  # another seed deals other cards
