"""Pairings against hand-written tables."""

import itertools

import pytest

from chalicelib.tournaments.pairings import (
    berger_round_robin,
    double_round_robin,
    elimination_first_round,
    elimination_seeds,
    swiss_round,
)


def test_berger_tables_for_four_players():
    assert berger_round_robin(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_berger_tables_for_six_players():
    assert berger_round_robin(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("n", [3, 5, 7, 8, 9, 10])
def test_round_robin_everyone_meets_everyone_once_and_odd_counts_get_one_bye_a_round(n):
    rounds = berger_round_robin(n)
    games = [frozenset(p) for rnd in rounds for p in rnd if p[1] is not None]
    assert sorted(map(sorted, games)) == sorted(map(sorted, map(frozenset, itertools.combinations(range(1, n + 1), 2))))
    for rnd in rounds:
        seated = [x for p in rnd for x in p if x is not None]
        assert sorted(seated) == list(range(1, n + 1))
        assert sum(p[1] is None for p in rnd) == n % 2
    if n % 2:
        byes = [p[0] for rnd in rounds for p in rnd if p[1] is None]
        assert sorted(byes) == list(range(1, n + 1))  # each player sits out once


def test_double_round_robin_swaps_seats_in_the_second_cycle():
    rounds = double_round_robin(4)
    assert len(rounds) == 6 and rounds[3] == [(4, 1), (3, 2)]


def test_elimination_bracket_keeps_the_top_seeds_apart():
    assert elimination_seeds(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert elimination_first_round(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_elimination_byes_go_to_the_top_seeds():
    assert elimination_first_round(6) == [(1, None), (4, 5), (2, None), (3, 6)]


def test_swiss_pairs_top_down_without_repeats():
    assert swiss_round([1, 2, 3, 4], set(), []) == [(1, 2), (3, 4)]
    played = {frozenset((1, 2)), frozenset((3, 4))}
    assert swiss_round([1, 2, 3, 4], played, []) == [(1, 3), (2, 4)]


def test_swiss_gives_the_bye_to_the_lowest_ranked_player_without_one():
    assert swiss_round([1, 2, 3, 4, 5], set(), [5]) == [(1, 2), (3, 5), (4, None)]


def test_swiss_backtracks_rather_than_repeat():
    played = {frozenset((1, 2)), frozenset((3, 4)), frozenset((1, 3))}
    pairs = swiss_round([1, 2, 3, 4], played, [])
    assert pairs == [(1, 4), (2, 3)]
    with pytest.raises(ValueError):
        swiss_round([1, 2], {frozenset((1, 2))}, [])
