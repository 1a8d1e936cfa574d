"""The bots: every step they choose is legal, over thousands of random positions of both games,
and they do not peek: a position that differs only in what the bot's seat cannot see (the
other hand, the decks, face-down enemy units, enemy sequences) gets the same decision."""

from __future__ import annotations

import copy
import random

import pytest

from chalicelib.bots import BOTS, bot, playing
from chalicelib.bots.battleline_mcts import Mcts
from chalicelib.bots.runner import seat_view
from chalicelib.games.battleline.engine import ENGINE as BATTLELINE
from chalicelib.games.khan.engine import ENGINE as KHAN
from chalicelib.games.base import seat_key
from chalicelib.games.khan.table import card_id, card_set

ENGINES = {"battleline": BATTLELINE, "khan": KHAN}


def quick(game: str, name: str):
    """The bot as tested: MCTS with a small fixed budget (no clock, so the test is exact)."""
    return Mcts(rounds=2, seconds=None) if name == "mcts" else bot(game, name)


def positions(game: str, count: int, seed: int = 0, **options):
    """Positions reached by random play (each seat to move, with its view)."""
    engine = ENGINES[game]
    rng = random.Random(seed)
    opts = engine.options_model.model_validate(options).model_dump(mode="json")
    found = 0
    while found < count:
        state = engine.new_game(opts, rng)
        while engine.result(state) is None and found < count:
            seat = engine.to_move(state)
            yield state, seat, opts
            found += 1
            engine.apply_step(state, seat, rng.choice(playing(engine.legal_steps(state, seat))))


@pytest.mark.parametrize("game, name, count", [
    ("battleline", "random", 2000), ("battleline", "greedy", 2000), ("battleline", "mcts", 200),
    ("khan", "random", 2000), ("khan", "greedy", 2000),
])
def test_a_bot_only_ever_chooses_a_legal_step(game, name, count):
    player, engine = quick(game, name), ENGINES[game]
    rng = random.Random(1)
    for state, seat, options in positions(game, count, seed=7, **({"match_games": 2} if game == "battleline" else {})):
        view = seat_view(engine, state, seat, options)
        step = player.choose(view, rng)
        assert step in view["legal_steps"] and step["type"] not in ("resign", "offer_draw")
        engine.apply_step(copy.deepcopy(state), seat, step)  # the engine accepts it too


# ---------------------------------------------------------------- no peeking

def battleline_twin(state: dict, seat: int, rng: random.Random) -> dict:
    """The same position with the other seat's hand and the decks dealt afresh."""
    twin = copy.deepcopy(state)
    other = str(3 - seat)
    hidden = twin["hands"][other] + twin["decks"]["troop"] + twin["decks"]["tactics"]
    troops = [c for c in hidden if c[0].isdigit()]
    tactics = [c for c in hidden if not c[0].isdigit()]
    rng.shuffle(troops)
    rng.shuffle(tactics)
    hand = twin["hands"][other]
    new_hand = [troops.pop() if c[0].isdigit() else tactics.pop() for c in hand]
    twin["hands"][other] = new_hand
    twin["decks"] = {"troop": troops, "tactics": tactics}
    return twin


def khan_twin(state: dict, seat: int, rng: random.Random) -> dict:
    """The same position with the other seat's hidden cards dealt about: the units in its hand and
    face down on the field trade places, and so do the commands in its hand and its sequences."""
    twin = copy.deepcopy(state)
    other = seat_key(3 - seat)
    is_unit = card_set(twin).is_unit
    deck, hand, sequences = twin["seats"][other]["deck"], twin["hands"][other], twin["sequences"][other]
    hidden_units = [u for u in twin["field"] if u["seat"] == 3 - seat and not u["up"]]
    units = [n for n in hand if is_unit(deck[n])] + [u["card"] for u in hidden_units]
    commands = [n for n in hand if not is_unit(deck[n])] + [n for sequence in sequences for n in sequence]
    rng.shuffle(units)
    rng.shuffle(commands)
    twin["hands"][other] = [units.pop() if is_unit(deck[n]) else commands.pop() for n in hand]
    for unit in hidden_units:
        unit["card"] = units.pop()
    twin["sequences"][other] = [[commands.pop() for _ in sequence] for sequence in sequences]
    return twin


TWINS = {"battleline": battleline_twin, "khan": khan_twin}


@pytest.mark.parametrize("game, name", [(g, n) for g, names in BOTS.items() for n in names])
def test_a_bots_decision_does_not_change_with_what_its_seat_cannot_see(game, name):
    player, engine = quick(game, name), ENGINES[game]
    rng = random.Random(3)
    differed = 0
    for state, seat, options in positions(game, 150 if name == "mcts" else 600, seed=11):
        twin = TWINS[game](state, seat, rng)
        view, twin_view = seat_view(engine, state, seat, options), seat_view(engine, twin, seat, options)
        assert twin_view == view  # the seat sees the same game
        differed += twin != state
        assert player.choose(twin_view, random.Random(5)) == player.choose(view, random.Random(5))
    assert differed > 0  # the hidden cards did change


def test_the_khan_twin_really_changes_hidden_units():
    rng = random.Random(2)
    changed = 0
    for state, seat, _ in positions("khan", 400, seed=13):
        twin = khan_twin(state, seat, rng)
        before = sorted(card_id(state, u["seat"], u["card"]) for u in state["field"] if not u["up"])
        after = sorted(card_id(twin, u["seat"], u["card"]) for u in twin["field"] if not u["up"])
        changed += before != after
    assert changed > 0
