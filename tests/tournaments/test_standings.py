"""Standings and tie-breaks against hand-computed examples."""

import pytest

from chalicelib.tournaments.standings import Result, buchholz, buchholz_cut_1, sonneborn_berger, standings

# A four-player round robin with Khan scoring (1 / ½ / 0):
#   1 beats 2, 1 draws 3, 4 beats 1; 2 beats 3, 2 beats 4; 3 draws 4.
# Totals: 1: 1.5, 2: 2, 3: 1, 4: 1.5
KHAN = [Result(1, 2, 1, 0), Result(1, 3, 0.5, 0.5), Result(4, 1, 1, 0),
        Result(2, 3, 1, 0), Result(2, 4, 1, 0), Result(3, 4, 0.5, 0.5)]


def test_sonneborn_berger_by_hand():
    sb = sonneborn_berger([1, 2, 3, 4], KHAN)
    # 1: beat 2 (2) + half of 3 (0.5) = 2.5;  4: beat 1 (1.5) + half of 3 (0.5) = 2.0
    assert sb[1] == pytest.approx(2.5) and sb[4] == pytest.approx(2.0)
    # 2: beat 3 (1) + beat 4 (1.5) = 2.5;  3: half of 1 (0.75) + half of 4 (0.75) = 1.5
    assert sb[2] == pytest.approx(2.5) and sb[3] == pytest.approx(1.5)


def test_standings_break_ties_with_sonneborn_berger():
    table = standings([1, 2, 3, 4], KHAN, order=["sonneborn_berger"])
    assert [(s.player, s.points) for s in table] == [(2, 2.0), (1, 1.5), (4, 1.5), (3, 1.0)]


def test_buchholz_by_hand_with_a_bye():
    # Swiss, 3 players, 2 rounds, a bye worth 1: R1 1-2 (1 wins), 3 bye; R2 3-1 (3 wins), 2 bye.
    results = [Result(1, 2, 1, 0), Result(3, None, 0), Result(3, 1, 1, 0), Result(2, None, 0)]
    bh = buchholz([1, 2, 3], results, bye_points=1)
    # totals: 1: 1, 2: 1 (bye), 3: 2 (bye + win). Buchholz: 1: 2's 1 + 3's 2 = 3; 2: 1; 3: 1.
    assert bh == {1: 3.0, 2: 1.0, 3: 1.0}


def test_battle_line_match_points_weight_sonneborn_berger_by_share():
    # Match points: 1 beats 2 by 5 to 3 flags; 2 beats 3 by 5 to 1.  Totals: 1: 5, 2: 8, 3: 1.
    results = [Result(1, 2, 5, 3), Result(2, 3, 5, 1)]
    sb = sonneborn_berger([1, 2, 3], results)
    assert sb[1] == pytest.approx(5 / 8 * 8) and sb[2] == pytest.approx(3 / 8 * 5 + 5 / 6 * 1)


def test_a_tie_of_everyone_who_met_falls_through_direct_encounter_to_the_next_tie_break():
    # A cycle: 2 beat 1, 1 beat 3, 3 beat 2. All score 5 and took 5 from the others: no decision.
    results = [Result(1, 2, 0, 5), Result(1, 3, 5, 0), Result(2, 3, 0, 5)]
    table = standings([1, 2, 3], results, order=["direct_encounter", "wins", "sonneborn_berger"])
    assert {s.player: s.tie_breaks["direct_encounter"] for s in table} == {1: 5.0, 2: 5.0, 3: 5.0}
    assert [s.player for s in table] == [1, 2, 3]  # wins and Sonneborn-Berger equal too: the seed


def test_direct_encounter_decides_a_two_way_tie():
    results = [Result(1, 2, 0, 5), Result(1, 3, 5, 0), Result(2, 4, 0, 5), Result(3, 4, 0, 0)]
    # 1: 5, 2: 5, 3: 0, 4: 5 — 1, 2 and 4 tied, but 1 and 4 never met: no direct encounter for them.
    table = standings([1, 2, 3, 4], results, order=["direct_encounter", "wins"])
    assert {s.player: s.tie_breaks["direct_encounter"] for s in table} == {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}
    two = [Result(1, 2, 0, 5), Result(1, 3, 5, 0), Result(2, 3, 0, 0)]  # 1: 5, 2: 5, 3: 0
    table = standings([1, 2, 3], two, order=["direct_encounter", "sonneborn_berger"])
    assert [s.player for s in table] == [2, 1, 3] and table[0].tie_break == 5.0


def test_battle_line_flags_won_break_the_last_tie():
    # Two drawn matches between the same points: only the flags taken differ.
    results = [Result(1, 2, 3, 3, flags=(2, 4)), Result(3, 4, 0, 0, flags=(0, 0)),
               Result(1, 3, 5, 0, flags=(3, 0)), Result(2, 4, 5, 0, flags=(3, 1))]
    table = standings([1, 2, 3, 4], results, order=["direct_encounter", "wins", "sonneborn_berger", "flags_won"])
    assert [s.player for s in table][:2] == [2, 1]
    assert table[0].tie_breaks["flags_won"] == 7 and table[1].tie_breaks["flags_won"] == 5


def test_buchholz_cut_1_drops_the_weakest_opponent_and_a_round_without_one():
    # Swiss: 1 beat 2 and 3, then had a bye (worth 1); 2 and 3 drew each other.
    results = [Result(1, 2, 1, 0), Result(1, 3, 1, 0), Result(2, 3, 0.5, 0.5), Result(1, None, 0)]
    bh = buchholz([1, 2, 3], results, bye_points=1)
    cut = buchholz_cut_1([1, 2, 3], results, bye_points=1)
    assert bh[1] == 1.0 and cut[1] == 1.0  # 0.5 + 0.5, the bye's 0 cut
    assert bh[2] == 3.5 and cut[2] == 3.0  # 1 (3) + 3 (0.5), 3's 0.5 cut
