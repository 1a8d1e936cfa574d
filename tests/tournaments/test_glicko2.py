"""Glicko-2 against the worked example in Glickman's paper."""

import pytest

from chalicelib.tournaments import glicko2
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


def test_idle_periods_in_closed_form_equal_the_empty_periods_taken_one_by_one():
    step = glicko2.Rating(1700, 107.3, 0.06)
    for periods in range(1, 40):
        step = glicko2.update(step, [])
        assert glicko2.idle(glicko2.Rating(1700, 107.3, 0.06), periods).rd == pytest.approx(step.rd, rel=1e-12)
    assert glicko2.idle(glicko2.Rating(1700, 107.3, 0.06), 24).rd == pytest.approx(118.83, abs=0.005)
    assert glicko2.idle(glicko2.Rating(1700, 300, 0.06), 10 ** 6).rd == glicko2.MAX_RD


def test_periods_until_provisional_is_the_first_period_that_reaches_rd_110():
    rating = glicko2.Rating(1700, 107.3, 0.06)
    assert glicko2.periods_until_provisional(rating) == 6
    assert not glicko2.idle(rating, 5).provisional and glicko2.idle(rating, 6).provisional
    assert glicko2.periods_until_provisional(glicko2.Rating(1700, 110, 0.06)) == 0
    assert glicko2.periods_until_provisional(glicko2.Rating(1700, 50, 0.0)) is None
