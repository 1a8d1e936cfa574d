"""The tournament director on hand-built tournaments: rounds, byes, forfeits, brackets, standings."""

import itertools

from chalicelib.tournaments import director


def tournament(fmt, n, rounds=None, forfeit_points=5.0):
    t = director.new_tournament("t_1", "Cup", "battleline", fmt, {}, organiser="p1", created_at="2026-01-01",
                                seed=42, rounds=rounds, forfeit_points=forfeit_points)
    for i in range(1, n + 1):
        director.join(t, f"p{i}", f"P{i}")
    return t


def play_round(t, points_for):
    for p in director.current_pairings(t):
        if p["points"] is None:
            p["points"] = points_for(p["first"], p["second"])
    return director.next_round(t) if director.round_complete(t) else []


def test_round_robin_odd_count_gives_each_player_one_scoreless_bye():
    t = tournament("round_robin", 5)
    director.start(t, {})
    while t["status"] == "running":
        play_round(t, lambda a, b: [5.0, 0.0] if a < b else [0.0, 5.0])
    byes = [p["first"] for p in t["pairings"] if p["second"] is None]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    assert all(p["points"] == [0.0, 0.0] for p in t["pairings"] if p["second"] is None)
    met = [frozenset((p["first"], p["second"])) for p in t["pairings"] if p["second"]]
    assert sorted(met, key=sorted) == sorted((frozenset(c) for c in itertools.combinations(range(1, 6), 2)),
                                             key=sorted)


def test_double_round_robin_meets_everyone_twice_with_seats_swapped():
    t = tournament("double_round_robin", 4)
    director.start(t, {})
    while t["status"] == "running":
        play_round(t, lambda a, b: [2.0, 3.0])
    sides = [(p["first"], p["second"]) for p in t["pairings"]]
    assert len(sides) == 12 and all((b, a) in sides for a, b in sides)


def test_players_are_seeded_by_rating_then_entry():
    t = tournament("round_robin", 3)
    director.start(t, {"p3": 1700.0, "p1": 1400.0})
    assert [(p["player_id"], p["seed"]) for p in t["players"]] == [("p3", 1), ("p2", 2), ("p1", 3)]


def test_swiss_bye_scores_a_won_forfeit_and_goes_to_a_different_player_each_round():
    t = tournament("swiss", 5, rounds=5)
    director.start(t, {})
    while t["status"] == "running":
        play_round(t, lambda a, b: [5.0, 1.0])
    byes = [p for p in t["pairings"] if p["second"] is None]
    assert len({p["first"] for p in byes}) == len(byes) == 5 and all(p["points"] == [5.0, 0.0] for p in byes)
    met = [frozenset((p["first"], p["second"])) for p in t["pairings"] if p["second"]]
    assert len(met) == len(set(met))


def test_swiss_ends_early_when_no_pairing_without_a_repeat_is_left():
    t = tournament("swiss", 4, rounds=10)
    director.start(t, {})
    assert t["rounds"] == 3
    while t["status"] == "running":
        play_round(t, lambda a, b: [5.0, 0.0])
    assert t["round"] == 3 and t["status"] == "finished"
    assert "stopped" not in t  # it ended as planned


def test_swiss_with_no_legal_pairing_left_stops_and_says_so_rather_than_repeat():
    """Issue 38: when every pairing would break an absolute criterion the organiser is told."""
    t = tournament("swiss", 4, rounds=3)
    director.start(t, {})
    while t["status"] == "running" and t["round"] < 3:
        play_round(t, lambda a, b: [5.0, 0.0])
    t["rounds"] = 4  # everyone has met everyone: a fourth round can only repeat
    play_round(t, lambda a, b: [5.0, 0.0])
    assert t["status"] == "finished" and t["round"] == 3
    assert t["stopped"] == {"round": 4, "reason": "no_legal_pairing"}


def test_swiss_standings_break_ties_by_buchholz_cut_1_then_buchholz():
    t = tournament("swiss", 4, rounds=2)
    director.start(t, {})
    # Round 1 (all on 0, the top half against the bottom half): 1-3 and 4-2 (seed 2 has seat 2);
    # the first side wins.
    assert [(p["first"], p["second"]) for p in director.current_pairings(t)] == [(1, 3), (4, 2)]
    play_round(t, lambda a, b: [5.0, 0.0])
    # Round 2: 4-1 (both had seat 1: the higher-ranked 1 gets the other seat) and 2-3; 1 and 2 win.
    assert [(p["first"], p["second"]) for p in director.current_pairings(t)] == [(4, 1), (2, 3)]
    play_round(t, lambda a, b: [0.0, 5.0] if b == 1 else [5.0, 0.0])
    rows = director.standing_rows(t)
    assert {r["seed"]: r["points"] for r in rows} == {1: 10.0, 2: 5.0, 3: 0.0, 4: 5.0}
    # Buchholz: 4 met 2 (5) and 1 (10) = 15; 2 met 4 (5) and 3 (0) = 5: 4 ranks above 2.
    # Cut-1 drops each one's weakest opponent: 4 keeps 10, 2 keeps 5. The first is `tie_break`.
    assert [(r["seed"], r["tie_breaks"]["buchholz_cut_1"], r["tie_breaks"]["buchholz"]) for r in rows] == [
        (1, 5.0, 5.0), (4, 10.0, 15.0), (2, 5.0, 5.0), (3, 10.0, 15.0)]
    assert [r["tie_break"] for r in rows] == [5.0, 10.0, 5.0, 10.0]
    assert list(rows[0]["tie_breaks"]) == ["buchholz_cut_1", "buchholz", "sonneborn_berger", "wins", "flags_won"]


def test_withdrawn_player_forfeits_the_remaining_pairings():
    t = tournament("round_robin", 4)
    director.start(t, {})
    play_round(t, lambda a, b: [5.0, 0.0])
    assert director.withdraw(t, "p4") == []  # in this pure test, round 2 has no games made
    play_round(t, lambda a, b: [5.0, 0.0])
    forfeits = [p for p in t["pairings"] if p["forfeit"]]
    assert forfeits and all(p["points"] == ([5.0, 0.0] if p["second"] == 4 else [0.0, 5.0]) for p in forfeits)


def test_elimination_bracket_gives_top_seeds_the_byes_and_a_drawn_match_to_the_higher_seed():
    t = tournament("single_elimination", 6)
    director.start(t, {})
    first = [(p["first"], p["second"]) for p in director.current_pairings(t)]
    assert first == [(1, None), (5, 4), (2, None), (3, 6)]  # 4 is even: the higher seed has seat 2
    play_round(t, lambda a, b: [3.0, 3.0])  # drawn: 4 and 3 go through
    # Seats alternate: 4 had seat 2, 3 seat 1 (the byes hold no seat).
    assert [(p["first"], p["second"]) for p in director.current_pairings(t)] == [(4, 1), (2, 3)]
    play_round(t, lambda a, b: [5.0, 0.0] if a in (3, 4) else [0.0, 5.0])  # 4 and 3 win
    assert [(p["first"], p["second"]) for p in director.current_pairings(t)] == [(3, 4)]
    play_round(t, lambda a, b: [2.0, 5.0])  # 4 wins
    assert t["status"] == "finished"
    assert [r["seed"] for r in director.standing_rows(t)][:2] == [4, 3]


def test_duplicate_boards_share_the_round_seed():
    t = tournament("round_robin", 4)
    t["duplicate"] = True
    assert director.board_seed(t, 1, 1) == director.board_seed(t, 1, 2) != director.board_seed(t, 2, 1)
    t["duplicate"] = False
    assert director.board_seed(t, 1, 1) != director.board_seed(t, 1, 2)


def score_round(t, points_for):
    """The round's results, the next round not yet paired (a withdrawal between two rounds)."""
    for p in director.current_pairings(t):
        if p["points"] is None:
            p["points"] = points_for(p["first"], p["second"])


def test_round_robin_withdrawal_before_half_annuls_their_games():
    # Five players: four games each. p5 plays one game (round 1 wins it), then withdraws: 1 < 2.
    t = tournament("round_robin", 5)
    director.start(t, {})
    score_round(t, lambda a, b: ([5.0, 0.0] if a == 5 else [0.0, 5.0]) if 5 in (a, b) else [2.0, 2.0])
    met = [p for p in t["pairings"] if 5 in (p["first"], p["second"]) and p["second"]]
    assert len(met) == 1 and not met[0]["forfeit"]
    victim = met[0]["first"] if met[0]["second"] == 5 else met[0]["second"]
    director.withdraw(t, "p5")
    director.next_round(t)
    while t["status"] == "running":
        play_round(t, lambda a, b: [2.0, 2.0])
    rows = {r["seed"]: r for r in director.standing_rows(t)}
    assert rows[5]["annulled"] and rows[5]["points"] == 0.0 and rows[5]["rank"] == 5
    # Nobody keeps anything from p5: not the game p5 won, not the forfeits after it; the others
    # drew every game among themselves (three each).
    others = [s for s in rows if s != 5]
    assert all(rows[s]["points"] == 6.0 for s in others), {s: rows[s]["points"] for s in others}
    assert rows[victim]["tie_breaks"]["wins"] == 0
    table = {row["seed"]: row for row in director.crosstable(t, director.standing_rows(t))}
    against_five = [e for s in others for e in table[s]["results"] if e["opponent_seed"] == 5]
    assert len(against_five) == 4 and all(e["annulled"] for e in against_five)
    assert not any(e["annulled"] for s in others for e in table[s]["results"] if e["opponent_seed"] != 5)


def test_round_robin_withdrawal_after_half_keeps_their_games_and_forfeits_the_rest():
    # Four players: three games each. p4 plays two (loses both), then withdraws: 2 >= 1.5.
    t = tournament("round_robin", 4)
    director.start(t, {})
    play_round(t, lambda a, b: [0.0, 5.0] if a == 4 else [5.0, 0.0])
    score_round(t, lambda a, b: [0.0, 5.0] if a == 4 else [5.0, 0.0])
    director.withdraw(t, "p4")
    director.next_round(t)
    while t["status"] == "running":
        play_round(t, lambda a, b: [2.0, 2.0])
    rows = {r["seed"]: r for r in director.standing_rows(t)}
    assert not rows[4]["annulled"] and rows[4]["withdrawn"]
    last = next(p for p in t["pairings"] if p["round"] == 3 and 4 in (p["first"], p["second"]))
    assert last["forfeit"]
    opponent = last["first"] if last["second"] == 4 else last["second"]
    table = {row["seed"]: row for row in director.crosstable(t, director.standing_rows(t))}
    forfeit = next(e for e in table[opponent]["results"] if e["round"] == 3)
    assert (forfeit["points"], forfeit["forfeit"], forfeit["annulled"], forfeit["outcome"]) == (5.0, True, False, "win")
    # Rounds 1 and 2: two wins of 5 each; round 3: the forfeit (5) and a draw (2 + 2).
    assert sum(r["points"] for r in rows.values()) == 29.0


def test_swiss_completion_criterion_is_the_rounds_own_and_a_dead_end_stops_the_event_saying_so():
    """C.04.3 C.4 as endorsed engines apply it (the round is paired whole; no look further).
    Six players, four rounds, seat 1 always winning: round 3 is the Dutch order's 5-3, 1-2, 6-4
    (bbpPairings prints the same), which leaves two triangles of players who have all met: no
    round 4 meets C.1, so the event stops there and tells the organiser, breaking nothing."""
    t = tournament("swiss", 6, rounds=4)
    director.start(t, {})
    while t["status"] == "running":
        play_round(t, lambda a, b: [5.0, 0.0])
    assert [(p["first"], p["second"]) for p in t["pairings"] if p["round"] == 3] == [(5, 3), (1, 2), (6, 4)]
    assert t["round"] == 3 and t["stopped"] == {"round": 4, "reason": "no_legal_pairing"}
    met = [frozenset((p["first"], p["second"])) for p in t["pairings"]]
    assert len(met) == len(set(met)) == 9


def test_elimination_seats_alternate_like_fide_colours():
    t = tournament("single_elimination", 8)
    director.start(t, {})
    sides = []
    while t["status"] == "running":
        sides += [(p["first"], p["second"]) for p in director.current_pairings(t)]
        play_round(t, lambda a, b: [5.0, 0.0] if a < b else [0.0, 5.0])  # the higher seed wins
    assert sides == [(1, 8), (5, 4), (7, 2), (3, 6), (4, 1), (2, 3), (1, 2)]
    seats = {seed: [1 if a == seed else 2 for a, b in sides if seed in (a, b)] for seed in (1, 2)}
    assert seats == {1: [1, 2, 1], 2: [2, 1, 2]}


def test_byes_and_forfeits_hold_no_seat():
    t = tournament("round_robin", 5)
    director.start(t, {})
    play_round(t, lambda a, b: [5.0, 0.0])
    director.withdraw(t, "p3")
    play_round(t, lambda a, b: [5.0, 0.0])
    history = director.seat_history(t)
    for seed in range(1, 6):
        played = [p for p in t["pairings"] if seed in (p["first"], p["second"])
                  and p["second"] is not None and not p["forfeit"]]
        assert history[seed] == [1 if p["first"] == seed else 2 for p in played]
    assert any(p["forfeit"] for p in t["pairings"]) and any(p["second"] is None for p in t["pairings"])
