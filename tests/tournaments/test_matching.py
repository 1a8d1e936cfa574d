"""The weighted matching (Edmonds' blossom) the Dutch system runs on, against brute force."""

from hypothesis import given, settings, strategies as st

from chalicelib.tournaments.matching import max_weight_matching
from tests.examples import examples


def brute_force_best(edges):
    best = 0

    def extend(start, used, total):
        nonlocal best
        best = max(best, total)
        for k in range(start, len(edges)):
            a, b, w = edges[k]
            if a not in used and b not in used:
                extend(k + 1, used | {a, b}, total + w)

    extend(0, frozenset(), 0)
    return best


@settings(max_examples=examples(150, 400), deadline=None)
@given(size=st.integers(1, 9), data=st.data())
def test_the_matching_weighs_as_much_as_the_best_one_brute_force_finds(size, data):
    pairs = [(a, b) for a in range(size) for b in range(a + 1, size)]
    chosen = data.draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    edges = [(a, b, data.draw(st.integers(-3, 30))) for a, b in chosen]
    mate = max_weight_matching(size, edges)
    assert all(mate[mate[v]] == v for v in range(size) if mate[v] != -1)
    weight = {(a, b): w for a, b, w in edges}
    assert {(v, mate[v]) for v in range(size) if mate[v] > v} <= set(weight)
    assert sum(weight[(v, mate[v])] for v in range(size) if mate[v] > v) == brute_force_best(edges)


@settings(max_examples=50, deadline=None)
@given(size=st.integers(2, 8), big=st.integers(10, 60), data=st.data())
def test_huge_weights_stay_exact(size, big, data):
    """The Dutch weights run to hundreds of digits: Python integers, no rounding."""
    edges = [(a, b, data.draw(st.integers(1, 5)) * 10 ** big + data.draw(st.integers(0, 9)))
             for a in range(size) for b in range(a + 1, size)]
    mate = max_weight_matching(size, edges)
    weight = {(a, b): w for a, b, w in edges}
    assert sum(weight[(v, mate[v])] for v in range(size) if mate[v] > v) == brute_force_best(edges)
