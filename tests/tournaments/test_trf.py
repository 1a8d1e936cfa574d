"""FIDE's Tournament Report File (TRF-16): what we write reads back, and re-pairing each round
from it gives the round the director paired; ``make pair``'s module prints as endorsed engines do."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from chalicelib.tournaments import director, trf
from devtools import pair as pair_tool

WIN, LOSS, DRAW = [1.0, 0.0], [0.0, 1.0], [0.5, 0.5]


def played_swiss(n, rounds, chance, leaves=None):
    """A Khan & General Swiss (win 1, draw 1/2, bye 1) played through with random results;
    ``leaves``: (seed, round) of a player who withdraws after that round."""
    t = director.new_tournament("t_1", "Spring cup", "khan", "swiss", {}, organiser="p1", created_at="2026-01-01",
                                seed=7, rounds=rounds, forfeit_points=1.0)
    for i in range(1, n + 1):
        director.join(t, f"p{i}", f"Player {i}")
    director.start(t, {})
    while t["status"] == "running":
        for p in director.current_pairings(t):
            if p["points"] is None:
                p["points"] = list(chance.choice([WIN, LOSS, DRAW]))
        if leaves and t["round"] == leaves[1] and leaves[0] <= n:
            director.withdraw(t, f"p{leaves[0]}")
        director.next_round(t)
    return t


def rounds_of(t):
    return {r: [(p["first"], p["second"]) for p in t["pairings"] if p["round"] == r] for r in range(1, t["round"] + 1)}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 16), rounds=st.integers(2, 7), chance=st.randoms(use_true_random=False),
       leaves=st.none() | st.tuples(st.integers(1, 16), st.integers(1, 5)))
def test_our_trf_read_back_re_pairs_every_round_to_the_same_pairing(n, rounds, chance, leaves):
    t = played_swiss(n, rounds, chance, leaves)
    text = trf.write(t, director.standing_rows(t))
    for number, pairs in rounds_of(t).items():
        assert trf.pair(text, number) == pairs, number


def test_trf_player_lines_follow_the_trf16_columns():
    t = played_swiss(5, 3, random.Random(4))
    rows = director.standing_rows(t)
    text = trf.write(t, rows)
    assert text.endswith("\r\n") and "XXR 3" in text and "XXC white1" in text
    lines = [line for line in text.split("\r\n") if line.startswith("001")]
    assert len(lines) == 5
    by_seed = {r["seed"]: r for r in rows}
    for line in lines:
        seed = int(line[4:8])
        assert line[14:47].strip() == f"Player {seed}"
        assert float(line[80:84]) == by_seed[seed]["points"] and int(line[85:89]) == by_seed[seed]["rank"]
        for r in range(3):
            cell = line[91 + 10 * r:99 + 10 * r]
            assert cell[5] in "wb-" and cell[7] in "10=U"
    byes = [line for line in lines if "0000 - U" in line]
    assert len(byes) == 3  # one pairing-allocated bye a round, to three different players
    event = trf.read(text)
    assert event.rounds == 3 and trf.played_rounds(event) == 3
    assert {p.number: p.points for p in event.players.values()} == {s: r["points"] for s, r in by_seed.items()}


def test_a_withdrawn_player_is_absent_from_the_next_round_of_the_trf():
    t = played_swiss(6, 4, random.Random(1), leaves=(2, 1))
    text = trf.write(t, director.standing_rows(t))
    line = next(line for line in text.split("\r\n") if line.startswith("001    2"))
    assert line.endswith("0000 - Z")
    assert all(2 not in pair for pair in trf.pair(text, 2))


def test_pair_prints_the_next_round_as_endorsed_engines_do(tmp_path, capsys):
    t = played_swiss(7, 3, random.Random(2))
    t["pairings"] = [p for p in t["pairings"] if p["round"] < 3]  # rounds 1 and 2 played
    t["round"], t["status"] = 2, "running"
    path = tmp_path / "event.trf"
    path.write_text(trf.write(t, director.standing_rows(t)), encoding="utf-8")
    assert pair_tool.main([str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "4" and len(lines) == 5
    assert lines[-1].endswith(" 0")  # the bye: "N 0"
    assert [tuple(map(int, line.split())) for line in lines[1:]] == [(a, b or 0) for a, b in trf.pair(path.read_text())]


def test_pair_refuses_a_file_that_is_not_trf(tmp_path, capsys):
    path = tmp_path / "not.trf"
    path.write_text("hello\n")
    assert pair_tool.main([str(path)]) == 3
    assert "TRF" in capsys.readouterr().err
    with pytest.raises(trf.TrfError):
        trf.read("001 abcd")
