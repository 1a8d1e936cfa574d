"""Glicko-2 against the worked example in Glickman's paper."""

import pytest

from chalicelib.tournaments.glicko2 import Rating, update


def test_glicko2_matches_the_worked_example_in_glickmans_paper():
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation():
    after = update(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.rd > 200 and after.volatility == 0.06


def test_provisional_while_rd_is_at_least_110():
    assert Rating(1500, 110).provisional and not Rating(1500, 109.9).provisional
