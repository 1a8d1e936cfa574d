"""Pairings against hand-written tables."""

import itertools

import pytest

from chalicelib.tournaments.pairings import (
    berger_round_robin,
    double_round_robin,
    elimination_first_round,
    elimination_seeds,
    ABSOLUTE,
    MILD,
    NO_PREFERENCE,
    STRONG,
    Entrant,
    allocate_seats,
    seat_preference,
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


def seat_runs(rounds, n):
    """Each player's seats, oldest first, from (seat 1, seat 2) pairings (a bye holds none)."""
    seats = {p: [] for p in range(1, n + 1)}
    for rnd in rounds:
        for a, b in rnd:
            if b is not None:
                seats[a].append(1)
                seats[b].append(2)
    return seats


def assert_seats_balance(seats):
    """FIDE's colour bounds for seats, after every game: the counts differ by at most 2 (so by 1
    after an odd number of games), and no one has one seat three times running."""
    for player, history in seats.items():
        for k in range(1, len(history) + 1):
            done = history[:k]
            assert abs(done.count(1) - done.count(2)) <= 2, (player, history)
            assert k < 3 or len(set(done[-3:])) == 2, (player, history)


@pytest.mark.parametrize("n", range(3, 11))
def test_round_robin_seats_alternate_like_fide_colours(n):
    assert_seats_balance(seat_runs(berger_round_robin(n), n))
    assert_seats_balance(seat_runs(double_round_robin(n), n))
    # Over the two cycles each player has each seat equally often.
    assert all(h.count(1) == h.count(2) for h in seat_runs(double_round_robin(n), n).values())


def test_double_round_robin_reverses_the_last_two_rounds_of_the_first_cycle():
    tables = berger_round_robin(4)
    assert double_round_robin(4)[:3] == [tables[0], tables[2], tables[1]]


def test_seat_preference_follows_fide_colour_preference():
    assert seat_preference(()) == (NO_PREFERENCE, 0)
    assert seat_preference((1,)) == (STRONG, 2)  # one seat once more than the other
    assert seat_preference((1, 2)) == (MILD, 1)
    assert seat_preference((1, 2, 1)) == (STRONG, 2)
    assert seat_preference((2, 1, 2)) == (STRONG, 1)
    assert seat_preference((2, 1, 1)) == (ABSOLUTE, 2)  # the same seat twice running
    assert seat_preference((1, 1, 2, 2)) == (ABSOLUTE, 1)
    assert seat_preference((1, 2, 1, 1, 2, 1)) == (ABSOLUTE, 2)  # seat 1 twice more than seat 2


def test_seat_allocation_grants_the_stronger_preference_then_alternates_then_the_higher_rank():
    rank = {1: 1, 2: 2, 3: 3, 4: 4}
    # Both preferences granted.
    assert allocate_seats([(1, 2)], {1: (1,), 2: (2,)}, rank) == [(2, 1)]
    # The stronger preference: 2 had seat 2 twice (absolute) beats 1's mild wish for seat 1.
    assert allocate_seats([(1, 2)], {1: (1, 2), 2: (1, 2, 2)}, rank) == [(2, 1)]
    # Equal preferences (both mildly want seat 1): alternate from the latest game in which they had
    # different seats (the third: 1 had seat 1, 2 seat 2), although 1 ranks higher.
    assert allocate_seats([(1, 2)], {1: (2, 1, 1, 2), 2: (1, 2, 1, 2)}, rank) == [(2, 1)]
    # Identical histories: the higher-ranked player has its way.
    assert allocate_seats([(2, 1)], {1: (1,), 2: (1,)}, rank) == [(2, 1)]
    # No games yet: the higher-ranked player takes seat 1 with an odd rank, seat 2 with an even one.
    assert allocate_seats([(1, 3), (2, 4), (4, None)], {}, rank) == [(1, 3), (4, 2), (4, None)]


def test_swiss_round_one_pairs_top_half_against_bottom_half():
    pairs = swiss_round([Entrant(s) for s in range(1, 7)])
    assert pairs == [(1, 4), (5, 2), (3, 6)]  # seats alternate down the boards


def test_swiss_tries_another_bye_before_ending():
    """Players 1-5, 1 has met 2, 3 and 4, no bye given: 5's bye leaves 1 no opponent, so 4 has it."""
    met = {1: {2, 3, 4}, 2: {1}, 3: {1}, 4: {1}, 5: set()}
    pairs = swiss_round([Entrant(s, opponents=frozenset(met[s])) for s in range(1, 6)])
    assert [frozenset(p) for p in pairs] == [frozenset((1, 5)), frozenset((2, 3)), frozenset((4, None))]
    assert pairs[-1] == (4, None)


def test_swiss_gives_the_bye_to_the_lowest_ranked_player_without_one():
    pairs = swiss_round([Entrant(s, had_bye=s == 5) for s in range(1, 6)])
    assert pairs[-1] == (4, None)
    assert sorted(map(sorted, pairs[:-1])) == [[1, 3], [2, 5]]


def test_swiss_transposes_rather_than_repeat():
    met = {1: {3}, 3: {1}}
    pairs = swiss_round([Entrant(s, opponents=frozenset(met.get(s, ()))) for s in range(1, 5)])
    assert sorted(map(sorted, pairs)) == [[1, 4], [2, 3]]
    with pytest.raises(ValueError):
        swiss_round([Entrant(1, opponents=frozenset({2})), Entrant(2, opponents=frozenset({1}))])


def test_swiss_transposes_to_grant_seat_preferences():
    # 1 and 3 both want seat 1, so do 2 and 4 seat 2: 1-3 and 2-4 would deny two players.
    last = {1: (2,), 2: (1,), 3: (2,), 4: (1,)}
    assert swiss_round([Entrant(s, seats=last[s]) for s in range(1, 5)]) == [(1, 4), (3, 2)]


def test_swiss_floats_the_odd_player_down_to_meet_the_top_of_the_next_group():
    # After round one (1-4, 5-2, 3-6, the top half won): 1, 2, 3 on 1 point; 4, 5, 6 on 0.
    met = {1: {4}, 4: {1}, 2: {5}, 5: {2}, 3: {6}, 6: {3}}
    seats = {1: (1,), 4: (2,), 5: (1,), 2: (2,), 3: (1,), 6: (2,)}
    field = [Entrant(s, 1.0 if s <= 3 else 0.0, seats[s], frozenset(met[s])) for s in range(1, 7)]
    assert swiss_round(field) == [(2, 1), (4, 3), (6, 5)]


def test_swiss_does_not_float_the_same_player_down_twice_running():
    field = [Entrant(1, 2.0), Entrant(2, 2.0), Entrant(3, 2.0, floated_down=True)] + [Entrant(s, 0.0) for s in (4, 5, 6)]
    pairs = [frozenset(p) for p in swiss_round(field)]
    assert frozenset((1, 3)) in pairs and frozenset((2, 4)) in pairs
