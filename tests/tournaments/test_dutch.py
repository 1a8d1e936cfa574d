"""The Dutch system (C.04.3): issue 38's three cases by name (each history also paired by a
FIDE-endorsed engine, bbpPairings 2025 rules, which gives the same pairing and seats), and
hypothesis properties: no absolute criterion broken while a legal pairing exists, and the
pairing does not depend on the order the players are given in."""

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from chalicelib.tournaments import trf
from chalicelib.tournaments.pairings import ABSOLUTE, Entrant, NoLegalPairing, seat_preference, swiss_round
from tests.examples import examples


def trf_file(*players):
    """Player lines from (number, points, "opp colour result" cells...)."""
    lines = ["012 Case", "XXR 5"]
    for number, points, *cells in players:
        head = f"001 {number:4d}  {'':3} {'P' + str(number):<33} {'':4} {'':3} {'':11} {'':10} {points:4.1f} {0:4d}"
        lines.append(head + "".join(f"  {c}" for c in cells))
    return "\r\n".join(lines) + "\r\n"


def test_issue_38_case_1_the_last_round_lets_topscorers_meet_with_one_absolute_seat():
    """8 players, round 5 of 5: 6 (4 points) and 8 must both have seat 1, but 6 is a topscorer:
    6-8, 2-3, 7-1, 4-5, not 7-8 (8 on seat 2 a third time running)."""
    text = trf_file(
        (1, 2.0, "   5 w 1", "   2 b 0", "   8 w 1", "   3 b 0"),
        (2, 2.0, "   6 b 0", "   1 w 1", "   7 b 0", "   8 w 1"),
        (3, 3.0, "   7 w 1", "   6 b 0", "   4 w 1", "   1 w 1"),
        (4, 1.0, "   8 b 0", "   7 w 1", "   3 b 0", "   6 w 0"),
        (5, 2.0, "   1 b 0", "   8 b 1", "   6 w 0", "   7 w 1"),
        (6, 4.0, "   2 w 1", "   3 w 1", "   5 b 1", "   4 b 1"),
        (7, 1.0, "   3 b 0", "   4 b 0", "   2 w 1", "   5 b 0"),
        (8, 1.0, "   4 w 1", "   5 w 0", "   1 b 0", "   2 b 0"))
    assert trf.pair(text) == [(6, 8), (2, 3), (7, 1), (4, 5)]


def test_issue_38_case_2_the_player_who_had_the_bye_floats_up_once_not_again():
    """9 players, round 2: 1, 3, 6, 8 won with seat 1, 9 had the bye: 6-1, 9-3, 2-8, 4-5, bye 7."""
    text = trf_file((1, 1.0, "   5 w 1"), (2, 0.0, "   6 b 0"), (3, 1.0, "   7 w 1"), (4, 0.0, "   8 b 0"),
                    (5, 0.0, "   1 b 0"), (6, 1.0, "   2 w 1"), (7, 0.0, "   3 b 0"), (8, 1.0, "   4 w 1"),
                    (9, 1.0, "0000 - U"))
    assert trf.pair(text) == [(6, 1), (9, 3), (2, 8), (4, 5), (7, None)]


def test_issue_38_case_3_the_lowest_of_the_score_group_floats_not_a_player_two_groups_down():
    """8 players, round 4: 4 does not drop two score groups to meet 6; 7 floats: 5-8, 1-2, 4-3, 7-6."""
    text = trf_file(
        (1, 2.0, "   5 b 0", "   6 b 1", "   8 b 1"), (2, 2.0, "   6 b 1", "   5 w 0", "   7 b 1"),
        (3, 1.0, "   8 w 0", "   7 w 0", "   6 b 1"), (4, 2.0, "   7 b 1", "   8 b 1", "   5 b 0"),
        (5, 3.0, "   1 w 1", "   2 b 1", "   4 w 1"), (6, 0.0, "   2 w 0", "   1 w 0", "   3 w 0"),
        (7, 1.0, "   4 w 0", "   3 b 1", "   2 w 0"), (8, 1.0, "   3 b 1", "   4 w 0", "   1 w 0"))
    assert trf.pair(text) == [(5, 8), (1, 2), (4, 3), (7, 6)]


@st.composite
def fields(draw):
    """A small field after a few random rounds: scores, seats, opponents, byes and floats."""
    n = draw(st.integers(2, 9))
    played = draw(st.integers(0, 4))
    entrants = []
    for seed in range(1, n + 1):
        seats = tuple(draw(st.lists(st.sampled_from([1, 2]), min_size=0, max_size=played)))
        others = [s for s in range(1, n + 1) if s != seed]
        met = frozenset(draw(st.lists(st.sampled_from(others), max_size=played))) if others else frozenset()
        entrants.append((seed, draw(st.integers(0, 2 * played)) / 2, seats, met, draw(st.booleans()),
                         tuple(draw(st.lists(st.sampled_from([-1, 0, 1]), max_size=2)))))
    # opponents are mutual
    met = {e[0]: set(e[3]) for e in entrants}
    for seed, others in list(met.items()):
        for o in others:
            met[o].add(seed)
    final = draw(st.booleans())
    return [Entrant(s, score, seats, frozenset(met[s]), bye, floats=fl)
            for s, score, seats, _, bye, fl in entrants], final, float(played)


def legal(a, b, by_seed, top):
    if b is None:
        return not by_seed[a].had_bye
    if b in by_seed[a].opponents:
        return False
    (sa, wa), (sb, wb) = seat_preference(by_seed[a].seats), seat_preference(by_seed[b].seats)
    return not (sa == sb == ABSOLUTE and wa == wb and not {a, b} & top)


def some_legal_pairing(players, by_seed, top):
    """Brute force: is there a pairing of ``players`` (a bye when odd) that breaks no absolute criterion?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    if len(players) % 2 and legal(first, None, by_seed, top) and some_legal_pairing(rest, by_seed, top):
        return True
    return any(legal(first, other, by_seed, top) and some_legal_pairing([p for p in rest if p != other], by_seed, top)
               for other in rest)


@settings(max_examples=examples(60, 150), deadline=None)
@given(fields())
def test_no_absolute_criterion_is_broken_while_a_legal_pairing_exists(case):
    entrants, final, played = case
    by_seed = {e.seed: e for e in entrants}
    top = {e.seed for e in entrants if final and e.score > played / 2}
    possible = some_legal_pairing(sorted(by_seed), by_seed, top)
    if not possible:
        with pytest.raises(NoLegalPairing):
            swiss_round(entrants, final=final, max_score=played)
        return
    pairs = swiss_round(entrants, final=final, max_score=played)
    assert sorted(p for pair in pairs for p in pair if p is not None) == sorted(by_seed)
    assert all(legal(a, b, by_seed, top) for a, b in pairs)


@settings(max_examples=60, deadline=None)
@given(fields(), st.randoms(use_true_random=False))
def test_the_pairing_does_not_depend_on_the_order_players_are_given_in(case, chance):
    entrants, final, played = case
    shuffled = list(entrants)
    chance.shuffle(shuffled)
    try:
        expected = swiss_round(entrants, final=final, max_score=played)
    except NoLegalPairing:
        with pytest.raises(NoLegalPairing):
            swiss_round(shuffled, final=final, max_score=played)
        return
    assert swiss_round(shuffled, final=final, max_score=played) == expected


def test_round_one_is_the_top_half_against_the_bottom_half_seats_alternating():
    """C.04.3's round one: S1 = 1..n/2 against S2, the top seed on seat 1 (``XXC white1``)."""
    assert swiss_round([Entrant(s) for s in range(1, 9)]) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert list(itertools.chain(*swiss_round([Entrant(s) for s in range(1, 8)])))[-2:] == [7, None]
