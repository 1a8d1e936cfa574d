"""A ladder's gapped positions (chalicelib/ladders/positions.py): a result moves one rung, so a new position
must always fit between two others, and its text must sort as the ladder's order."""

import random

from chalicelib.ladders import positions as ladder


def test_positions_never_run_out_and_keep_their_order():
    rng = random.Random(7)
    rungs = [ladder.below(None)]
    for _joined in range(30):
        rungs.append(ladder.below(rungs[-1]))
    for _win in range(2000):  # a challenger takes a random loser's place, often the same gap again
        loser = rng.choice([0, 1, 1, 1, 15, len(rungs) - 1])
        winner = rng.randrange(loser + 1, len(rungs)) if loser + 1 < len(rungs) else None
        if winner is None:
            continue
        moved = ladder.between(rungs[loser - 1] if loser else None, rungs[loser])
        del rungs[winner]
        rungs.insert(loser, moved)
        assert rungs == sorted(rungs) and len(set(rungs)) == len(rungs)
    assert max(len(r) for r in rungs) < 1024  # DynamoDB's longest sort key (bytes)


def test_a_new_position_has_the_fewest_digits_near_the_middle():
    first, second = ladder.below(None), ladder.below(ladder.below(None))
    assert first == "00000001000000000000" and second == "00000001000001000000"
    assert ladder.between(first, second) == "00000001000000500000"
    assert ladder.between(None, first) == "00000000500000000000"
    assert ladder.between("00000000000000000010", "00000000000000000011") == "00000000000000000010.5"


def test_reach_is_at_most_n_places_above():
    assert ladder.reach(5, 2, 3) is None and ladder.reach(5, 1, 3) == "too_far_above"
    assert ladder.reach(5, 5, 3) == "not_above" and ladder.reach(5, 6, 3) == "not_above"
