"""The playtest lab (khan_lab): its figures on hand-made games, the seats it deals, the same figures
whatever the number of workers, refused card sets, and the report's files. Games here are short
(random bots, a few rounds): the lab's speed is measured in docs/khan.md, not here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chalicelib.games.khan.cardset import CardSetError
from khan_lab import figures, lab, play, report
from khan_lab.figures import wilson

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FILE = ROOT / "chalicelib/games/khan/cardsets/khan-default.v1.json"


def record(game: int, factions=("khan", "general"), first=1, winner=None, reason="max_rounds", rounds=40,
           decisions=600, played=None, paid=None, destroyed=(0, 0)) -> dict:
    return {"game": game, "factions": {"1": factions[0], "2": factions[1]}, "first": first, "winner": winner,
            "reason": reason, "rounds": rounds, "decisions": decisions,
            "destroyed": {"1": destroyed[0], "2": destroyed[1]}, "wounded": {"1": 0, "2": 1},
            "played": played or {"1": {}, "2": {}}, "paid": paid or {"1": {}, "2": {}}, "seconds": 0.1}


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)  # no games: nothing is known


def test_figures_on_hand_made_games():
    card_set = play.default_set()
    games = [
        # khan in seat 1 moves first and wins by annihilation, having deployed heavy cavalry and charged twice
        record(0, ("khan", "general"), first=1, winner=1, reason="annihilation", rounds=12, decisions=200, destroyed=(5, 1),
               played={"1": {"heavy_cavalry": 2, "charge": 2}, "2": {"spearmen": 1}}, paid={"1": {"lance": 1}, "2": {}}),
        # general in seat 1 moves first, wins at max_rounds
        record(1, ("general", "khan"), first=1, winner=1, reason="max_rounds", rounds=40, decisions=600,
               played={"1": {"spearmen": 2}, "2": {"heavy_cavalry": 1}}),
        # a draw at max_rounds, seat 2 (general) moved first
        record(2, ("khan", "general"), first=2, winner=None, reason="max_rounds", rounds=40, decisions=640),
        # khan in seat 2 wins by routing; seat 2 moved first
        record(3, ("general", "khan"), first=2, winner=2, reason="routed", rounds=20, decisions=300,
               played={"1": {}, "2": {"charge": 1}}),
    ]
    found = figures.summarize(list(reversed(games)), card_set)  # in any order
    khan, general = found["factions"]
    assert (khan["id"], khan["wins"], khan["games"], khan["draws"], khan["losses"]) == ("khan", 2, 4, 1, 1)
    assert (general["wins"], general["losses"]) == (1, 2)
    assert (khan["destroyed"], general["destroyed"]) == (5 / 4, 1 / 4)  # enemy units destroyed a game
    assert (khan["wounded"], general["wounded"]) == (0.5, 0.5)
    assert (khan["low"], khan["high"]) == wilson(2, 4)
    shares = {e["ending"]: (e["games"], e["share"]) for e in found["endings"]}
    assert shares == {"annihilation": (1, 0.25), "routed": (1, 0.25), "max_rounds won": (1, 0.25),
                      "max_rounds drawn": (1, 0.25), "draw_agreed": (0, 0), "resign": (0, 0)}
    assert found["first"]["wins"] == 3 and found["first"]["games"] == 4  # games 0, 1 and 3
    assert found["first_by_faction"]["khan"]["games"] == 2 and found["first_by_faction"]["khan"]["wins"] == 2
    assert found["rounds"]["mean"] == 28 and found["rounds"]["median"] == 30
    assert found["decisions"]["min"] == 200 and found["decisions"]["max"] == 640
    cards = {row["card"]: row for row in found["cards"]["khan"]}
    heavy = cards["heavy_cavalry"]
    assert heavy["played"] == 3 and heavy["played_a_game"] == 0.75 and heavy["kind"] == "unit" and heavy["in_deck"] == 2
    assert (heavy["when_played"]["wins"], heavy["when_played"]["games"]) == (1, 2)  # won game 0, lost game 1
    assert (heavy["when_not"]["wins"], heavy["when_not"]["games"]) == (1, 2)  # drew game 2, won game 3
    charge = cards["charge"]
    assert charge["played"] == 3 and (charge["when_played"]["wins"], charge["when_played"]["games"]) == (2, 2)
    assert charge["when_not"]["rate"] == 0 and charge["when_not"]["games"] == 2
    assert cards["lance"]["played"] == 0 and cards["lance"]["paid"] == 1  # paid is spent, not played
    spearmen = {row["card"]: row for row in found["cards"]["general"]}["spearmen"]
    assert spearmen["played"] == 3 and spearmen["when_played"]["wins"] == 1


def test_seats_alternate_so_each_faction_sits_and_moves_first_evenly():
    plan = play.plan_for(play.default_set(), games=4)
    dealt = [play.seating(plan, game, ("khan", "general")) for game in range(4)]
    assert dealt == [({"1": "khan", "2": "general"}, 1), ({"1": "general", "2": "khan"}, 1),
                     ({"1": "khan", "2": "general"}, 2), ({"1": "general", "2": "khan"}, 2)]
    first_movers = [factions[str(first)] for factions, first in dealt]
    assert sorted(first_movers) == ["general", "general", "khan", "khan"]


def short_plan(**settings) -> play.Plan:
    return play.plan_for(play.default_set(), **{"bot": "random", "games": 6, "seed": 7, "max_rounds": 6, **settings})


def test_the_same_seed_gives_the_same_figures_whatever_the_number_of_workers():
    alone = play.run(short_plan(workers=1))
    pooled = play.run(short_plan(workers=2))
    without_time = [{k: v for k, v in r.items() if k != "seconds"} for r in alone]
    assert without_time == [{k: v for k, v in r.items() if k != "seconds"} for r in pooled]
    assert figures.summarize(alone, play.default_set()) == figures.summarize(pooled, play.default_set())
    other_seed = play.run(short_plan(seed=8, workers=1))
    assert [r["decisions"] for r in other_seed] != [r["decisions"] for r in alone]  # the seed matters


def test_a_card_set_that_fails_the_checks_is_refused_with_its_problems(tmp_path):
    data = json.loads(DEFAULT_FILE.read_text())
    data["id"] = "mine"
    data["commands"][2]["units"] = ["heavy_cavalry", "war_elephant"]
    broken = tmp_path / "mine.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(CardSetError) as refused:
        play.load(broken)
    assert any("commands[charge].units" in p and "war_elephant" in p for p in refused.value.problems)


def test_a_card_set_reusing_the_default_id_and_version_with_other_content_is_refused(tmp_path):
    data = json.loads(DEFAULT_FILE.read_text())
    data["units"][0]["base"] = 9
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(data))
    with pytest.raises(CardSetError) as refused:
        play.load(copy)
    assert "khan-default version 1 is already defined" in refused.value.problems[0]


def test_an_unknown_bot_is_refused_naming_the_bots():
    with pytest.raises(play.BotUnavailable, match="'smart'"):
        play.make_bot("smart", 50)


def test_the_report_files_hold_the_figures_and_the_page_stands_alone(tmp_path):
    card_set = play.default_set()
    plan = short_plan(games=4)
    estimate = play.estimate(plan)
    run = lab.measure(plan, card_set, estimate, compare=True)
    paths = report.write(run, tmp_path / "out")
    text = paths["markdown"].read_text()
    page = paths["html"].read_text()
    khan = run.figures["factions"][0]
    for document in (text, page):
        assert report.interval(khan) in document
        assert f"digest {'<code>' if document is page else '`'}{card_set.digest}" in document
        assert "Beside the default set" in document and "random against random" in document
        assert "valid, no warnings" in document  # the card-set checks' warnings, when there are some
        for ending in ("annihilation", "routed", "max_rounds", "draw_agreed", "resign"):
            assert ending in document
        assert "charge" in document and "won when played (games)" in document
    assert page.count("<svg") == 5  # win rates, endings, lengths, each faction's cards
    assert not re.search(r"(src|href)=\"(https?:|//|file:)", page)  # no file or network to fetch
    saved = json.loads(paths["games"].read_text())
    assert [g["game"] for g in saved["games"]] == [0, 1, 2, 3] and len(saved["compared"]["games"]) == 4


def test_the_lab_stays_out_of_the_lambda_package():
    for path in (ROOT / "chalicelib").rglob("*.py"):
        source = path.read_text()
        assert not re.search(r"^\s*(import|from)\s+(matplotlib|khan_lab)", source, re.M), path


def test_mcts_is_made_for_the_time_budget_and_its_run_time_expected_from_it():
    """The lab's mcts counts its budget in engine steps and has no clock: its games are deterministic."""
    from chalicelib.bots.khan_mcts import STEPS_PER_MS

    made = play.make_bot("mcts", 20)
    assert made.budget_steps == round(20 * STEPS_PER_MS) and made.seconds is None
    plan = short_plan(bot="mcts", budget_ms=20, games=4, workers=2)
    expected = play.estimate(plan)
    assert expected.calibration == {}  # a greedy game counted the decisions; game 0 is still mcts's to play
    assert expected.per_decision == 0.020
    assert expected.seconds == pytest.approx(expected.decisions * 0.020 * 4 / 2)
