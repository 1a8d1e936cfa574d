"""Fixtures of the API tests."""

import pytest


@pytest.fixture
def two(api):
    """Ann and Bob in a game with seed 7, Ann (seat 1) to move."""
    ann, bob = api.signup("Ann"), api.signup("Bob")
    game = api.new_game(ann, [ann, bob], seed=7, options={"first_seat": 1})
    return ann, bob, game
