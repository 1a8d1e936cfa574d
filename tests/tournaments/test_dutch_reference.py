"""Rounds where our Dutch system once paired differently from a FIDE-endorsed engine
(bbpPairings 5, --dutch, 2025 rules), each named after the rule it exercises: the TRF-16 history
and the pairing the reference engine printed for the next round ("seat 1 seat 2", a bye "N 0")."""

import pytest

from chalicelib.tournaments import trf

CASES = {
    # A heterogeneous bracket's remainder (C.04.3 B.2/B.3): S1 and S2 are made from the residents
    # the moved-down player was not paired with. 12 (1 point) meets 9; the remainder 1 6 8 10 11
    # has S1 = 1 6, S2 = 8 10 11: 1-11 and 6-8 (the first transposition meeting both seat
    # preferences), not 1-6 and 8-11 (an exchange).
    "remainder_s1_s2_after_the_moved_down_players_are_paired": ("\r\n".join([
        '012 Cup',
        '062 13',
        '092 Swiss (FIDE Dutch)',
        'XXR 6',
        'XXC white1',
        '001    1      P1                                                                 0.0   13     7 w 0',
        '001    2      P2                                                                 1.0    8     8 b 1',
        '001    3      P3                                                                 1.0    3     9 w 1',
        '001    4      P4                                                                 1.0    7    10 b 1',
        '001    5      P5                                                                 1.0   12    11 w 1',
        '001    6      P6                                                                 0.0    9    12 b 0',
        '001    7      P7                                                                 1.0    5     1 b 1',
        '001    8      P8                                                                 0.0    6     2 w 0',
        '001    9      P9                                                                 0.0   11     3 b 0',
        '001   10      P10                                                                0.0   10     4 w 0',
        '001   11      P11                                                                0.0    4     5 b 0',
        '001   12      P12                                                                1.0    1     6 w 1',
        '001   13      P13                                                                1.0    2  0000 - U',
    ]), "7\n2 5\n7 3\n4 13\n9 12\n11 1\n6 8\n10 0\n"),
    # C.04.3 D (S1/S2 order): in the 1-point remainder 2 4 5 9 10 11 12 (S1 = 2 4 5), every
    # candidate meets every seat preference and repeats no float; a transposition (2-11 4-12 5-9,
    # 10 floats) comes before an exchange (2-10 4-11 9-12, 5 floats), though 2-10 comes earlier.
    "transpositions_before_exchanges_in_an_odd_remainder": ("\r\n".join([
        '012 Cup',
        '062 13',
        '092 Swiss (FIDE Dutch)',
        'XXR 5',
        'XXC white1',
        '001    1      P1                                                                 2.0    4     7 w 1     9 b 1',
        '001    2      P2                                                                 1.0    7     8 b 0    12 w 1',
        '001    3      P3                                                                 1.0   10     9 w 0     7 b 1',
        '001    4      P4                                                                 1.0   12    10 b 1     8 w 0',
        '001    5      P5                                                                 1.0    8    11 w 1    13 b 0',
        '001    6      P6                                                                 0.0   13    12 b 0    10 w 0',
        '001    7      P7                                                                 0.0   11     1 b 0     3 w 0',
        '001    8      P8                                                                 2.0    5     2 w 1     4 b 1',
        '001    9      P9                                                                 1.0    2     3 b 1     1 w 0',
        '001   10      P10                                                                1.0    6     4 w 0     6 b 1',
        '001   11      P11                                                                1.0    3     5 b 0  0000 - U',
        '001   12      P12                                                                1.0    9     6 w 1     2 b 0',
        '001   13      P13                                                                2.0    1  0000 - U     5 w 1',
    ]), '7\n1 13\n8 3\n11 2\n12 4\n5 9\n10 7\n6 0\n'),
    # C.04.3 D (exchanges): in the half-point remainder 3 5 6 7 9 11 12 (S1 = 3 5 6) no transposition
    # meets every seat preference; the exchange of 6 and 7 does, and then S1' = 3 5 7 meets
    # S2' = 6 9 11 12 from the top: 3-6 5-9 7-12 (11 floats), not 3-11 5-9 7-12.
    "exchanged_s1_s2_pair_in_order_after_the_exchange": ("\r\n".join([
        '012 Cup',
        '062 13',
        '092 Swiss (FIDE Dutch)',
        'XXR 6',
        'XXC white1',
        '001    1      P1                                                                 0.5   10     7 w =',
        '001    2      P2                                                                 1.0   11     8 b 1',
        '001    3      P3                                                                 0.5   13     9 w =',
        '001    4      P4                                                                 1.0    5    10 b 1',
        '001    5      P5                                                                 0.5    3    11 w =',
        '001    6      P6                                                                 0.5    1    12 b =',
        '001    7      P7                                                                 0.5    9     1 b =',
        '001    8      P8                                                                 0.0   12     2 w 0',
        '001    9      P9                                                                 0.5    8     3 b =',
        '001   10      P10                                                                0.0    2     4 w 0',
        '001   11      P11                                                                0.5    4     5 b =',
        '001   12      P12                                                                0.5    6     6 w =',
        '001   13      P13                                                                1.0    7  0000 - U',
    ]), '7\n2 13\n4 1\n6 3\n9 5\n7 12\n11 8\n10 0\n'),
    # The pairing-allocated bye goes to the lowest score that leaves the round pairable: 9 (half a
    # point) can have it only if 3 and 10 (who have met) each meet a 1.5-point player, so 1 and 4
    # float down rather than meet each other: 3-1 10-4, bye 9 (not 1-4 10-9, bye 3).
    "bye_to_the_lowest_score_it_can_go_to": ("\r\n".join([
        '012 Cup',
        '062 11',
        '092 Swiss (FIDE Dutch)',
        'XXR 4',
        'XXC white1',
        '001    1      P1                                                                 1.5    9     6 w 0    10 b 1     7 w =',
        '001    2      P2                                                                 2.0    3     7 b 1    11 w 0     9 b 1',
        '001    3      P3                                                                 1.0    6     8 w =     6 b 0    10 w =',
        '001    4      P4                                                                 1.5    5     9 b =     5 w 0  0000 - U',
        '001    5      P5                                                                 1.5    8    10 w =     4 b 1     8 w 0',
        '001    6      P6                                                                 3.0    1     1 b 1     3 w 1    11 b 1',
        '001    7      P7                                                                 1.5    7     2 w 0  0000 - U     1 b =',
        '001    8      P8                                                                 2.5    2     3 b =     9 w 1     5 b 1',
        '001    9      P9                                                                 0.5   11     4 w =     8 b 0     2 w 0',
        '001   10      P10                                                                1.0   10     5 b =     1 w 0     3 b =',
        '001   11      P11                                                                2.0    4  0000 - U     2 b 1     6 w 0',
    ]), '6\n6 8\n2 5\n7 11\n3 1\n10 4\n9 0\n'),
    # C.04.3 C (floats, scores): 3 and 10 float down from 2 points, one of them further to 5 (1
    # point). 3 floated down last round, 10 floated up: 3 is paired at 1.5 (3-14) and 10 meets 5,
    # so the repeated downfloater's score is as high as can be (not 10-14, 3-5).
    "repeated_downfloater_stays_at_the_higher_score": ("\r\n".join([
        '012 Cup',
        '062 16',
        '092 Swiss (FIDE Dutch)',
        'XXR 6',
        'XXC white1',
        '001    1      P1                                                                 2.5   10     9 w 1    13 b =     2 w =    11 b 0     4 w =',
        '001    2      P2                                                                 2.5    7    10 b 1    12 w 1     1 b =     7 w 0    11 w 0',
        '001    3      P3                                                                 2.0   12    11 w 0     8 b 1    15 w 1    13 b 0    12 w 0',
        '001    4      P4                                                                 2.5    9    12 b 0    10 w =    14 b 1    16 w =     1 b =',
        '001    5      P5                                                                 1.0   14    13 w 0     9 b 0     8 w 0    14 w =     6 b =',
        '001    6      P6                                                                 1.5   13    14 b =     7 w 0    10 b =     9 b 0     5 w =',
        '001    7      P7                                                                 3.0    2    15 w =     6 b 1    11 w =     2 b 1    13 w 0',
        '001    8      P8                                                                 1.5   16    16 b 0     3 w 0     5 b 1    10 w 0    14 b =',
        '001    9      P9                                                                 3.5    5     1 b 0     5 w 1    12 b =     6 w 1    16 b 1',
        '001   10      P10                                                                2.0   11     2 w 0     4 b =     6 w =     8 b 1    15 w 0',
        '001   11      P11                                                                4.0    1     3 b 1    16 w =     7 b =     1 w 1     2 b 1',
        '001   12      P12                                                                2.5    8     4 w 1     2 b 0     9 w =    15 b 0     3 b 1',
        '001   13      P13                                                                4.0    3     5 b 1     1 w =    16 b =     3 w 1     7 b 1',
        '001   14      P14                                                                1.5   15     6 w =    15 b 0     4 w 0     5 b =     8 w =',
        '001   15      P15                                                                3.5    4     7 b =    14 w 1     3 b 0    12 w 1    10 b 1',
        '001   16      P16                                                                2.5    6     8 w 1    11 b =    13 w =     4 b =     9 w 0',
    ]), '8\n11 13\n9 15\n1 7\n4 2\n12 16\n14 3\n5 10\n8 6\n'),
    # C.04.1 b (no two players play each other twice) counts games played: 4 and 5's round-2 game was
    # forfeited, so they may meet in round 3: 1-3 2-6 4-5.
    "a_forfeit_is_no_game_its_players_may_meet_again": ("\r\n".join([
        '012 Cup',
        '062 6',
        '092 Swiss (FIDE Dutch)',
        'XXR 4',
        'XXC white1',
        '001    1      P1                                                                 0.0    6     4 w 0     6 b 0',
        '001    2      P2                                                                 2.0    1     5 b 1     3 - +',
        '001    3      P3                                                                 1.0    3     6 w 1     2 - -',
        '001    4      P4                                                                 1.0    2     1 b 1     5 - -',
        '001    5      P5                                                                 1.0    5     2 w 0     4 - +',
        '001    6      P6                                                                 1.0    4     3 b 0     1 w 1',
    ]), '3\n2 6\n4 5\n1 3\n'),
    # C.04.3 C.9: of the 0-point players 2, 4 and 6, 4 and 6 lost by forfeit (no game played) and 2
    # lost a game: the bye goes to 2, who played more, and 6 meets 4.
    "bye_to_the_player_with_fewest_unplayed_games": ("\r\n".join([
        '012 Cup',
        '062 7',
        '092 Swiss (FIDE Dutch)',
        'XXR 5',
        'XXC white1',
        '001    1      P1                                                                 1.0    7     4 - +',
        '001    2      P2                                                                 0.0    6     5 b 0',
        '001    3      P3                                                                 1.0    2     6 - +',
        '001    4      P4                                                                 0.0    3     1 - -',
        '001    5      P5                                                                 1.0    5     2 w 1',
        '001    6      P6                                                                 0.0    4     3 - -',
        '001    7      P7                                                                 1.0    1  0000 - U',
    ]), '4\n1 5\n3 7\n6 4\n2 0\n'),
    # C.04.3 C.9 above the last bracket: 17 and 21 (2.5 points) float to 9 (2 points, who had a bye)
    # and one of them takes the bye; 17 lost a game by forfeit, 21 played all six: 17-9, bye 21.
    "bye_from_a_bracket_above_the_last_fewest_unplayed_games": ("\r\n".join([
        '012 Cup',
        '062 23',
        '092 Swiss (FIDE Dutch)',
        'XXR 8',
        'XXC white1',
        '001    1      P1                                                                 2.5   21    12 w =    16 b =    22 w =    20 b 0     9 w 1  0000 - Z  0000 - Z',
        '001    2      P2                                                                 3.0   18    13 b =    15 w 0    11 b =    21 w 1     5 b 1     7 w 0',
        '001    3      P3                                                                 4.0    4    14 w 1     9 b =    23 - +    19 w 0    18 b 1     4 w =',
        '001    4      P4                                                                 3.5    3    15 b =    21 w 1    13 b 0    23 w 1    20 w =     3 b =',
        '001    5      P5                                                                 3.0   19    16 w =    22 b =    18 b 0    14 w 1     2 w 0     9 - +',
        '001    6      P6                                                                 3.0    8    17 b 1    19 w =    15 b 1    13 w =    12 b 0    20 w 0',
        '001    7      P7                                                                 4.0    7    18 w 1    23 b =    12 w 0    16 b 1    22 w =     2 b 1',
        '001    8      P8                                                                 2.5   16    19 b 0    17 w =    21 b 0  0000 - U    16 w 0    14 b 1',
        '001    9      P9                                                                 2.0   20    20 - +     3 w =    19 b 0    15 w =     1 b 0     5 - -',
        '001   10      P10                                                                1.5   17    21 b =    13 w 0    17 - +    22 b 0    23 - -    17 w 0',
        '001   11      P11                                                                2.5   14    22 w =    12 b 0     2 w =    17 b =    21 w 0  0000 - U',
        '001   12      P12                                                                4.5    1     1 b =    11 w 1     7 b 1    18 w =     6 w 1    13 b =',
        '001   13      P13                                                                4.5    2     2 w =    10 b 1     4 w 1     6 b =    19 b 1    12 w =',
        '001   14      P14                                                                1.5   22     3 b 0    20 w 0  0000 - U     5 b 0    17 w =     8 w 0',
        '001   15      P15                                                                2.0   23     4 w =     2 b 1     6 w 0     9 b =  0000 - Z  0000 - Z  0000 - Z',
        '001   16      P16                                                                3.0   11     5 b =     1 w =    20 b =     7 w 0     8 b 1    23 w =',
        '001   17      P17                                                                2.5   12     6 w 0     8 b =    10 - -    11 w =    14 b =    10 b 1',
        '001   18      P18                                                                3.5   10     7 b 0  0000 - U     5 w 1    12 b =     3 w 0    21 b 1',
        '001   19      P19                                                                4.5    9     8 w 1     6 b =     9 w 1     3 b 1    13 w 0    22 b 1',
        '001   20      P20                                                                4.0    5     9 - -    14 b 1    16 w =     1 w 1     4 b =     6 b 1',
        '001   21      P21                                                                2.5   15    10 w =     4 b 0     8 w 1     2 b 0    11 b 1    18 w 0',
        '001   22      P22                                                                3.0   13    11 b =     5 w =     1 b =    10 w 1     7 b =    19 w 0',
        '001   23      P23                                                                3.0    6  0000 - U     7 w =     3 - -     4 b 0    10 - +    16 b =',
    ]), '11\n19 12\n7 13\n20 3\n18 4\n16 2\n23 5\n22 6\n8 11\n17 9\n10 14\n21 0\n'),
    # C.4 (completion) is the round's: pair everyone now, looking no further. Six players, round 3
    # of 5: the Dutch order's 1-2 3-4 5-6 leaves two triangles of players who have all met (no round 4
    # meets C.1), and it is what the reference prints; our old look-ahead paired 1-3 4-2 5-6 instead.
    "completion_c4_is_the_rounds_own_even_if_a_later_round_cannot_be_paired": ("\r\n".join([
        '012 H',
        '062 6',
        '092 Swiss',
        'XXR 5',
        'XXC white1',
        '001    1      P1                                                                 2.0    1     4 w 1     6 b 1',
        '001    2      P2                                                                 1.5    2     5 b =     3 w 1',
        '001    3      P3                                                                 0.0    3     6 w 0     2 b 0',
        '001    4      P4                                                                 0.5    4     1 b 0     5 w =',
        '001    5      P5                                                                 1.0    5     2 w =     4 b =',
        '001    6      P6                                                                 1.0    6     3 b 1     1 w 0',
    ]), '3\n1 2\n5 6\n3 4\n'),
    # C.2/C.9: the bye goes where the rules send it (3, of the lowest score it can go to), though
    # with 7 players and 7 rounds no later round can then be paired without a repeat; our old
    # look-ahead gave it to 2 instead (2-0 3-5 4-6 7-1).
    "bye_by_the_rules_even_if_the_event_cannot_then_be_completed": ("\r\n".join([
        '012 H',
        '062 7',
        '092 Swiss',
        'XXR 7',
        'XXC white1',
        '001    1      P1                                                                 3.0    1     4 w 0     6 b 1     5 w 1     3 w 1',
        '001    2      P2                                                                 3.0    2     5 b 1     7 w 1     3 b 0     6 w 1',
        '001    3      P3                                                                 3.0    3     6 w 1     4 b 1     2 w 1     1 b 0',
        '001    4      P4                                                                 3.0    4     1 b 1     3 w 0     7 b 1  0000 - U',
        '001    5      P5                                                                 1.0    5     2 w 0  0000 - U     1 b 0     7 w 0',
        '001    6      P6                                                                 1.0    6     3 b 0     1 w 0  0000 - U     2 b 0',
        '001    7      P7                                                                 2.0    7  0000 - U     2 b 0     4 w 0     5 b 1',
    ]), '4\n4 2\n7 1\n6 5\n3 0\n'),
    # C.3 is the round's own too: round 6 of 7 (8 players) is paired by the rules, though round 7
    # would have no pairing meeting C.3 were the last round's topscorers not exempt; our old
    # look-ahead checked round 7 without that exception and paired 3-5 4-2 6-1 7-8.
    "c3_is_not_checked_ahead_for_the_last_round_whose_topscorers_are_exempt": ("\r\n".join([
        '012 H',
        '062 8',
        '092 Swiss',
        'XXR 7',
        'XXC white1',
        '001    1      P1                                                                 4.0    1     5 w 1     8 b 1     2 w 1     4 b 1     3 w 0',
        '001    2      P2                                                                 2.5    2     6 b =     3 w 1     1 b 0     7 w 1     5 w 0',
        '001    3      P3                                                                 3.5    3     7 w =     2 b 0     8 w 1     6 b 1     1 b 1',
        '001    4      P4                                                                 3.0    4     8 b 0     5 w 1     6 b 1     1 w 0     7 b 1',
        '001    5      P5                                                                 1.5    5     1 b 0     4 b 0     7 w 0     8 w =     2 b 1',
        '001    6      P6                                                                 2.0    6     2 w =     7 b 1     4 w 0     3 w 0     8 b =',
        '001    7      P7                                                                 1.5    7     3 b =     6 w 0     5 b 1     2 b 0     4 w 0',
        '001    8      P8                                                                 2.0    8     4 w 1     1 w 0     3 b 0     5 b =     6 w =',
    ]), '4\n7 1\n3 4\n8 2\n5 6\n'),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_paired_as_the_reference_engine_pairs_it(name):
    """The same pairs with the same seats (the reference prints them in its own board order)."""
    text, expected = CASES[name]
    ours = trf.pairs_text(trf.pair(text)).split("\n")
    theirs = expected.split("\n")
    assert ours[0] == theirs[0] and sorted(ours[1:]) == sorted(theirs[1:])
