"""A step is the same whether an optional field is absent or null (issue 14): a client
generated from openapi.yaml may send every optional field, null when it has no value.

Random games of both games; at each decision some legal steps (the one played among them) are
sent with every optional field they leave out set to null, parsed as the API parses them, and
must be accepted with the very same events and state as the step itself.
"""

from __future__ import annotations

import copy
import random
import typing

import pytest

from chalicelib.games import ENGINES

from .test_replay import battleline_choice, khan_play_choice

BATTLELINE, KHAN = ENGINES["battleline"], ENGINES["khan"]
SAMPLE = 3  # legal steps tried at each decision, besides the one played
MAX_STEPS = 3_000


def step_models(engine) -> dict[str, type]:
    """Each step type's pydantic model, from the engine's discriminated union."""
    union = typing.get_args(engine.step_schema)[0]
    return {typing.get_args(m.model_fields["type"].annotation)[0]: m for m in typing.get_args(union)}


def optional_fields(engine) -> dict[str, set[str]]:
    return {kind: {name for name, field in model.model_fields.items() if not field.is_required()}
            for kind, model in step_models(engine).items()}


def with_nulls(engine, step: dict) -> dict:
    """The step as a generated client sends it: every optional field it leaves out, null."""
    return {**{name: None for name in optional_fields(engine)[step["type"]]}, **step}


def same_effect(engine, state: dict, seat: int, step: dict) -> None:
    """The step with nulls is accepted and does exactly what the step does."""
    plain, nulled = copy.deepcopy(state), copy.deepcopy(state)
    expected = engine.apply_step(plain, seat, engine.parse_step(step))
    assert engine.apply_step(nulled, seat, engine.parse_step(with_nulls(engine, step))) == expected, step
    assert nulled == plain, step


def play_with_nulls(engine, options: dict, seed: int, choose) -> set[str]:
    """Play a game to its end, trying steps with nulls on the way; the step types tried with a null."""
    rng = random.Random(seed)
    state = engine.new_game(options, random.Random(seed))
    tried: set[str] = set()
    for _ in range(MAX_STEPS):
        if engine.result(state) is not None:
            return tried
        seat, step = choose(state, engine.to_move(state), rng)
        legal = engine.legal_steps(state, seat)
        for candidate in [step, *rng.sample(legal, min(SAMPLE, len(legal)))]:
            if candidate["type"] == "resign" and candidate is not step:
                continue
            same_effect(engine, state, seat, candidate)
            if with_nulls(engine, candidate) != candidate:
                tried.add(candidate["type"])
        engine.apply_step(state, seat, engine.parse_step(with_nulls(engine, step)))
    raise AssertionError(f"the game did not end within {MAX_STEPS} steps")


@pytest.mark.parametrize("engine, choose, options, games", [
    (BATTLELINE, battleline_choice, {}, 4),
    (KHAN, khan_play_choice, {"max_rounds": 4}, 2),
], ids=["battleline", "khan"])
def test_an_explicit_null_is_the_same_as_an_absent_field(engine, choose, options, games):
    opts = engine.options_model.model_validate(options).model_dump(mode="json")
    tried = set().union(*(play_with_nulls(engine, opts, seed, choose) for seed in range(games)))
    with_optional = {kind for kind, fields in optional_fields(engine).items() if fields}
    assert with_optional and tried == with_optional


def test_every_battleline_play_field_may_be_null():
    """The play a generated client sends (issue 14: ``9R is played without target, to_flag``)."""
    step = {"type": "play", "card": "9R", "flag": 9, "target": None, "to_flag": None, "discard": None}
    assert BATTLELINE.parse_step(step) == {"type": "play", "card": "9R", "flag": 9}
    assert optional_fields(BATTLELINE)["play"] == {"flag", "target", "to_flag", "discard"}
    assert optional_fields(KHAN)["command"] == optional_fields(KHAN)["pay"] == {"sequence"}
