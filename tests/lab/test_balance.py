"""Issue 40, the balance search (khan_lab/search.py, khan_lab/balance.py): the search file's checks,
sequential stopping, the same candidates from the same seed, the report in the four languages, and
candidates the server accepts and plays. Games here are tiny (random bots, a few rounds, one
process): the search's cost on real games is measured in docs/khan.md's worked example."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chalicelib.kernel import i18n
from khan_lab import balance, play, search as searching
from khan_lab.figures import wilson

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FILE = ROOT / "chalicelib/games/khan/cardsets/khan-default.v1.json"
EXAMPLE = ROOT / "examples/khan-balance-search.json"

TINY = {"bot": "random", "max_rounds": 10, "games": {"batch": 4, "most": 8}, "combine": 2, "candidates": 2,
        "confirm": {"bot": "greedy", "games": 4, "candidates": 1},
        "changes": [{"field": "units[heavy_cavalry].base", "min": 4, "max": 6, "step": 2},
                    {"field": "commands[lance].cost", "min": 1, "max": 2}],
        "decks": [{"faction": "general", "remove": ["about_face"], "add": ["hold_fast"]}],
        "targets": {"win_rate": {"low": 0.3, "high": 0.7}, "cards_played": 0.05}}


def run_search(seed: int = 0, spec: dict | None = None, minutes: float = 10) -> searching.Result:
    card_set = play.default_set()
    found = searching.check_search(spec or TINY, card_set)
    return searching.Search(card_set, found, seed=seed, minutes=minutes, workers=1).run()


@pytest.fixture(scope="module")
def result() -> searching.Result:
    return run_search()


def problems(data: dict) -> list[str]:
    with pytest.raises(searching.SearchFileError) as refused:
        searching.check_search(data, play.default_set(), "mine.json")
    return refused.value.problems


def test_the_worked_examples_search_file_is_valid():
    found = searching.read_search(EXAMPLE, play.default_set())
    assert found.targets.early_endings == 0.3 and found.bot == "greedy"


def test_a_search_file_with_faults_is_refused_naming_each_field():
    bad = copy.deepcopy(TINY)
    bad["changes"] = [{"field": "units[knights].base", "min": 1, "max": 2},
                      {"field": "commands[gallop].power", "min": 1, "max": 2},
                      {"field": "commands[lance].cost", "min": 0, "max": 5},
                      {"field": "hand_size", "min": 1, "max": 2},
                      {"field": "max_rounds", "min": 30, "max": 20}]
    bad["decks"] = [{"faction": "general", "remove": ["march"], "add": ["wheel"]},
                    {"faction": "khan", "remove": ["screen"], "add": ["wheel"]}]
    bad["bot"] = "alphazero"
    found = problems(bad)
    assert "changes[4]: min (30) is above max (20)" in found  # the model's own checks come first, alone
    bad["changes"].pop()
    found = problems(bad)
    assert found[0].startswith("bot: no Khan & General bot 'alphazero'")
    assert found[1].startswith("changes[0].field: 'knights' is not a unit type of khan-default")
    assert found[2] == "changes[1].field: commands[gallop] has no power keyword to change"
    assert found[3] == "changes[2].max: cost lies between 0 and 3, not 5"
    assert found[4].startswith("changes[3].field: 'hand_size' is not a field the search can change")
    assert "decks[0].add: wheel is a khan card, not general" in found
    assert "decks[1].remove: screen is not in the khan recommended deck" in found
    assert problems({**TINY, "games": {"batch": 6, "most": 8}})[0].startswith("games.batch: ")
    assert problems({**TINY, "targets": {}}) == ["targets: name at least one target: win_rate, early_endings or "
                                                 "cards_played"]
    assert problems({**TINY, "tagrets": {}})[0].startswith("tagrets: ")
    assert problems({**TINY, "card_set": "steppe"}) == ["card_set: the search is for 'steppe', the file is "
                                                        "'khan-default'"]


def test_a_refused_search_file_is_named_with_its_problems_by_the_command(tmp_path):
    path = tmp_path / "search.json"
    path.write_text(json.dumps({**TINY, "changes": [{"field": "units[archers].base", "min": 2, "max": 40}]}))
    said: list[str] = []
    assert balance.balance(DEFAULT_FILE, path, tmp_path / "out", minutes=1, workers=1, say=said.append) == 1
    assert said == ["search.json: refused", "  - changes[0].max: base lies between 0 and 20, not 40"]


def variant_of(records: list[dict]) -> searching.Variant:
    return searching.Variant(number=1, edits=(), data={}, max_rounds=40, card_set=play.default_set(), records=records)


def game(number: int, winner: int | None, reason: str = "max_rounds") -> dict:
    return {"game": number, "factions": {"1": "khan", "2": "general"} if number % 2 == 0 else
            {"1": "general", "2": "khan"}, "first": 1, "winner": winner, "reason": reason, "rounds": 40,
            "decisions": 600, "played": {"1": {}, "2": {}}, "paid": {"1": {}, "2": {}}}


def test_sequential_testing_stops_a_variant_once_its_intervals_decide_it():
    targets = searching.Targets(win_rate=searching.WinRate(low=0.35, high=0.65), early_endings=0.3)
    # khan wins all 20 games: its interval (0.84-1) lies above the target: no more games can meet it
    lopsided = variant_of([game(i, 1 if i % 2 == 0 else 2) for i in range(20)])
    checks = searching.check(lopsided, targets)
    assert checks["win_rate"]["state"] == "missed" and searching.verdict(checks) == "missed"
    assert checks["win_rate"]["rates"]["khan"]["low"] == wilson(20, 20)[0] > 0.65
    # even at 20 games, three in four ending early: the endings' interval (0.53-0.89) clears 30 %, but the win
    # rates' (0.30-0.70) still hold values outside 35-65 %
    even = variant_of([game(i, 1 if i % 4 < 2 else 2, "annihilation" if i % 4 else "max_rounds") for i in range(20)])
    checks = searching.check(even, targets)
    assert {k: c["state"] for k, c in checks.items()} == {"win_rate": "open", "early_endings": "met"}
    assert searching.verdict(checks) == "open"  # not called balanced on 20 games: wilson(10, 20) = 0.30-0.70
    # 100 such games: the intervals (0.40-0.60) lie inside 35-65 %: every target met, the variant stops
    even = variant_of([game(i, 1 if i % 4 < 2 else 2, "annihilation" if i % 4 else "max_rounds") for i in range(100)])
    assert searching.verdict(searching.check(even, targets)) == "met"


def test_a_search_stops_playing_a_variant_as_soon_as_a_target_is_out_of_reach():
    spec = {**TINY, "max_rounds": 2, "games": {"batch": 4, "most": 40}, "targets": {"early_endings": 0.9},
            "confirm": {"games": 0}}
    found = run_search(spec=spec)
    # in two rounds no game ends early: after the first 4 games the interval (0-0.49) lies below 90 %
    assert all(v.status == "missed" and v.games == 4 for v in found.variants)
    assert found.candidates == [] and not found.stopped_early


def test_the_same_seed_gives_the_same_candidates(result, tmp_path):
    again = run_search()
    assert [searching.diff(again, v) for v in again.candidates] == [searching.diff(result, v) for v in result.candidates]
    def games(found: searching.Result) -> list:  # every record but its run time
        return [[{k: g for k, g in r.items() if k != "seconds"} for r in v.records] for v in found.variants]
    assert games(again) == games(result)  # the very same games
    first, second = (searching.write_candidate(r, r.candidates[0], tmp_path / name)
                     for r, name in ((result, "a"), (again, "b")))
    assert first.read_bytes() == second.read_bytes()
    assert result.candidates and len(result.variants) > 1 + 3  # singles, then combinations


def test_each_candidate_is_the_sets_next_version_with_its_diff_in_the_files_words(result):
    best = result.candidates[0]
    data = searching.candidate_data(result, best)
    assert data["id"] == "khan-default" and data["version"] == 2
    words = searching.diff(result, best)
    assert words and all(w.split(":")[0] in ("units[heavy_cavalry].base", "commands[lance].cost",
                                             "recommended[general]") for w in words)
    assert "recommended[general]: about_face → hold_fast" in [line for v in result.variants
                                                             for line in searching.diff(result, v)]


def test_a_candidate_is_accepted_by_the_servers_check_and_plays_a_game(result, tmp_path, api, monkeypatch):
    from chalicelib.games.khan.cardset import REGISTRY

    # play.load registers the candidate process-wide; the worker's later tests must not see khan-default v2
    monkeypatch.setattr(REGISTRY, "_sets", dict(REGISTRY.sets))
    path = searching.write_candidate(result, result.candidates[0], tmp_path)
    checked = api.post("/v1/khan/card-sets/check", json.loads(path.read_text())).body
    assert checked["valid"] is True and checked["problems"] == [] and checked["warnings"] == []
    assert checked["version"] == 2
    card_set = play.load(path)  # registered as the server loads a designer's file, then one game through the engine
    record = play.play_game(play.plan_for(card_set, bot="random", max_rounds=3, path=str(path)), 0)
    assert record["reason"] in ("max_rounds", "annihilation", "routed") and record["decisions"] > 0


@pytest.mark.parametrize("language, title", [("en", "Balance search"), ("zh-Hans", "平衡搜索"),
                                             ("ja", "バランス探索"), ("vi", "Tìm cân bằng")])
def test_the_balance_report_speaks_each_of_the_four_languages(result, tmp_path, language, title):
    with i18n.speaking(language):
        paths = balance.write(result, tmp_path, "search.json")
        target = i18n._("Targets")
        win_rates = i18n._("Win rate per faction")
    page, text = paths["html"].read_text(), paths["markdown"].read_text()
    assert f"<html lang=\"{language}\">" in page and f"<h1>{title}" in page and "<svg" in page  # the chart, inline
    assert text.startswith(f"# {title}") and f"## {target}" in text
    if language != "en":
        assert target != "Targets"
        assert "` version " not in text  # the set's version in the reader's words ("`khan-default` version 1")
    # the warnings one sentence after another, as the language writes them ("。" and no space in Chinese, Japanese)
    with i18n.speaking(language):
        warned = i18n._("warnings")
    cell = next(line for line in text.splitlines() if line.startswith(f"| {warned} |"))
    stop = "。" if language in ("zh-Hans", "ja") else ". "
    for cards in result.unplayed.values():
        before = cell[:cell.index(cards[0])]
        assert before == f"| {warned} | " or before.endswith(stop), cell
    # each candidate's folder: its card-set file and the lab's report of its games (win rates, endings, cards)
    lab = (tmp_path / "candidate-1" / "report.md").read_text()
    assert (tmp_path / "candidate-1" / "khan-default.v2.json").exists() and f"## {win_rates}" in lab


LAB_TITLES = ["Playtest:", "Win rate per faction", "First-player advantage", "How games end", "Length of the games",
              "Cards:", "Beside the default set"]  # the lab report's section titles in English
LAB_WORDS = {"en": "Playtest", "zh-Hans": "试玩", "ja": "テストプレイ", "vi": "Chơi thử"}


def english_titles_left(text: str) -> list[str]:
    return [title for title in LAB_TITLES if re.search(rf"^#+ {re.escape(title)}", text, re.MULTILINE)
            or f">{title}" in text]


def assert_the_lab_report_speaks(folder: Path, language: str) -> None:
    page, text = (folder / "report.html").read_text(), (folder / "report.md").read_text()
    assert f"<html lang=\"{language}\">" in page and f"<h1>{LAB_WORDS[language]}" in page
    assert text.startswith(f"# {LAB_WORDS[language]}")
    with i18n.speaking(language):
        win_rates, games = i18n._("Win rate per faction"), i18n._("won when played (games)")
    assert f"## {win_rates}" in text and f"<h2>{win_rates}</h2>" in page and games in text
    if language == "en":
        assert english_titles_left(text) and english_titles_left(page)  # the check below finds them when there
    else:
        assert english_titles_left(text) == [] and english_titles_left(page) == []
        assert "won when played" not in text + page and "not in the recommended deck" not in text
        assert not re.search(r"\| (unit|move|attack|defend) \|", text)  # each card's kind, in the cards tables
        # the endings chart (its words drawn as text, svg.fonttype none) and the comparison
        assert "max_rounds won" not in text + page and "max_rounds drawn" not in text + page


@pytest.mark.parametrize("language", ["en", "zh-Hans", "ja", "vi"])
def test_the_labs_report_speaks_each_of_the_four_languages_for_make_playtest_and_a_balance_candidate(
        result, tmp_path, monkeypatch, language):
    import matplotlib

    from battleline_cli import main
    from khan_lab.__main__ import arguments
    monkeypatch.setitem(matplotlib.rcParams, "svg.fonttype", "none")  # the charts' words as text, to be read here
    monkeypatch.setenv("BATTLELINE_CONFIG", str(tmp_path / "config.json"))
    for name in ("BATTLELINE_LANGUAGE", "BATTLELINE_KEY"):
        monkeypatch.delenv(name, raising=False)
    # make playtest: python -m khan_lab FILE ... --language X (the CLI's own option, moved before "playtest")
    argv = arguments([str(DEFAULT_FILE), "--games", "2", "--bot", "random", "--max-rounds", "3", "--workers", "1",
                      "--compare", "--out", str(tmp_path / "playtest"), "--language", language])
    assert argv[:3] == ["--language", language, "playtest"]
    outcome = CliRunner().invoke(main.app, argv)
    assert outcome.exit_code == 0, outcome.output
    assert_the_lab_report_speaks(tmp_path / "playtest", language)
    # a balance candidate's own lab report, written by make balance in the designer's language
    with i18n.speaking(language):
        balance.write(result, tmp_path / "balance", "search.json")
    assert_the_lab_report_speaks(tmp_path / "balance" / "candidate-1", language)


def test_the_report_compares_the_bots_and_calls_nothing_balanced_on_too_few_games(result, tmp_path):
    text = balance.markdown(result, "search.json", "machine", "date")
    assert "## How much is the bots'" in text and "greedy against random: greedy wins" in text
    assert "not shown balanced: 4 games leave intervals" in text and "balanced for this bot" not in text


def test_custom_decks_play_cards_outside_the_recommended_decks_and_a_warning_names_the_others(tmp_path):
    card_set = play.default_set()
    deck = ["heavy_cavalry", "heavy_cavalry", "light_cavalry", "light_cavalry", "horse_archers",
            "wheel", "wheel", "screen", "screen", "charge", "charge", "raid", "raid", "gallop", "gallop"]
    decks = tmp_path / "decks.json"
    decks.write_text(json.dumps({"khan": deck}))
    assert balance.read_decks(decks, card_set) == {"khan": deck}
    plan = play.plan_for(card_set, bot="random", max_rounds=6, decks=(("khan", tuple(deck)),))
    seen = set()
    for number in range(4):
        record = play.play_game(plan, number)
        seat = next(s for s, f in record["factions"].items() if f == "khan")
        seen |= set(record["played"][seat]) | set(record["paid"][seat])
    assert seen & {"wheel", "screen"}  # cards of no recommended deck, played
    search_file = tmp_path / "search.json"
    search_file.write_text(json.dumps({**TINY, "changes": [TINY["changes"][1]], "decks": [],
                                       "confirm": {"games": 0}, "games": {"batch": 4, "most": 4}}))
    said: list[str] = []
    assert balance.balance(DEFAULT_FILE, search_file, tmp_path / "out", minutes=1, decks=decks, workers=1,
                           say=said.append) == 0
    warned = [line for line in said if "in no recommended deck" in line]
    assert warned == ["warning: massed_volley, push_of_pike, hold_fast: in no recommended deck of General (infantry), "
                      "so only a custom deck (--decks) or a deck change plays them"]  # khan's two are in its deck
    decks.write_text(json.dumps({"khan": deck[:-1]}))
    with pytest.raises(Exception, match="khan: a deck has exactly 10 command cards, not 9"):
        balance.read_decks(decks, card_set)


def test_battleline_balance_runs_offline_and_names_a_refused_search_file(tmp_path, monkeypatch):
    from battleline_cli import main
    monkeypatch.setenv("BATTLELINE_CONFIG", str(tmp_path / "config.json"))
    monkeypatch.delenv("BATTLELINE_LANGUAGE", raising=False)
    path = tmp_path / "search.json"
    path.write_text(json.dumps({**TINY, "targets": {}}))
    outcome = CliRunner().invoke(main.app, ["balance", str(DEFAULT_FILE), "--search", str(path), "--minutes", "1"])
    assert outcome.exit_code == 1, outcome.output
    assert "search.json: refused" in outcome.output and "targets: name at least one target" in outcome.output
