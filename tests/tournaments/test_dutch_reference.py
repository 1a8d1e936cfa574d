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
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_paired_as_the_reference_engine_pairs_it(name):
    """The same pairs with the same seats (the reference prints them in its own board order)."""
    text, expected = CASES[name]
    ours = trf.pairs_text(trf.pair(text)).split("\n")
    theirs = expected.split("\n")
    assert ours[0] == theirs[0] and sorted(ours[1:]) == sorted(theirs[1:])
