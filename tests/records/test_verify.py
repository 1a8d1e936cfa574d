"""Issue 23: ``battleline verify``'s pure part, ``chalicelib.gamerecord.verify``: a finished game's record checks
out (its deal's commitment, and the whole game replayed from the revealed seed to its result) for
hundreds of random games of both games; a record whose deal, steps, draws or result were altered
fails, naming the first version that differs and why; a record it cannot check is refused."""

from __future__ import annotations

import copy
import random

import pytest

from chalicelib.gamerecord import verify
from chalicelib.games import ENGINES
from chalicelib.services import card_sets
from tests.examples import examples
from tests.engine.test_replay import battleline_choice, khan_play_choice

from .helpers import record_of_random_game

BATTLELINE, KHAN = ENGINES["battleline"], ENGINES["khan"]
# Fast in the suite (a few seconds); benchmarks/records.py plays more.
BATTLELINE_GAMES = KHAN_GAMES = examples(60, 200)
BATTLELINE_VARIANTS = [{}, {"claim_timing": "start"}, {"players": 3}, {}, {"tactics": False},
                       {"claim_timing": "end", "auto_claim": {"1": True, "2": False}}, {}, {"match_games": 2}, {},
                       {"claim_timing": "start"}]


def battleline_record(seed: int, options: dict | None = None, quit_rate: float = 0.0) -> dict:
    opts = BATTLELINE.options_model.model_validate(options or {}).model_dump(mode="json")
    return record_of_random_game(BATTLELINE, opts, seed, random.Random(seed), battleline_choice, quit_rate=quit_rate)


def khan_record(seed: int, max_rounds: int = 4, advanced: bool = False, quit_rate: float = 0.0) -> dict:
    opts = KHAN.options_model.model_validate({"max_rounds": max_rounds, "advanced": advanced}).model_dump(mode="json")
    return record_of_random_game(KHAN, opts, seed, random.Random(seed), khan_play_choice, quit_rate=quit_rate)


def test_random_games_of_both_games_verify():
    """A quarter of the games are played to their rules' end; the others end sooner, by a resignation,
    a timeout or a withdrawal at random (what random play costs is choosing among every legal step)."""
    for seed in range(BATTLELINE_GAMES):
        record = battleline_record(seed, BATTLELINE_VARIANTS[seed % len(BATTLELINE_VARIANTS)],
                                   quit_rate=0.0 if seed % 4 == 0 else 0.03)
        verdict = verify.verify(record)
        assert verdict.verified, (seed, verdict.problems)
        assert verdict.moves == len(record["moves"]) > 0
    for seed in range(KHAN_GAMES):
        record = khan_record(seed, max_rounds=1 + seed % 6, advanced=seed % 2 == 0,
                             quit_rate=0.0 if seed % 4 == 0 else 0.01)
        verdict = verify.verify(record)
        assert verdict.verified, (seed, verdict.problems)


def test_a_verified_record_says_its_commitment_matched():
    verdict = verify.verify(battleline_record(1))
    assert verdict.verified and verdict.version is None and not verdict.problems
    assert any("commitment" in note for note in verdict.notes)


def test_an_altered_seed_fails_at_the_commitment():
    record = battleline_record(2)
    record["seed"] += 1
    verdict = verify.verify(record)
    assert not verdict.verified and verdict.version == 0
    assert "commitment does not match" in verdict.problems[0]


def test_an_altered_deal_fails_even_with_a_matching_commitment():
    """A server that changes the seed and its commitment together deals other cards than the record's
    start: the deal differs (and the player's copy of the commitment from version 0 would differ too)."""
    record = battleline_record(3)
    record["seed"] += 1
    record["deal_commitment"] = verify.commitment(record["game_id"], record["seed"], record["deal_salt"])
    verdict = verify.verify(record)
    assert not verdict.verified and verdict.version == 0
    assert "deal differs" in verdict.problems[0] and "start." in verdict.problems[0]


def test_an_altered_draw_fails_naming_its_version_and_both_cards():
    record = battleline_record(4)
    move = next(m for m in record["moves"] if any(e["type"] == "draw" for e in m["events"]))
    event = next(e for e in move["events"] if e["type"] == "draw")
    drawn = event["data"]["card"]
    event["data"]["card"] = "1R" if drawn != "1R" else "2R"
    verdict = verify.verify(record)
    assert not verdict.verified and verdict.version == move["version"]
    assert f"the seed gives {drawn}" in verdict.problems[0] and f"version {move['version']}:" in verdict.problems[0]


def test_an_altered_step_fails_as_illegal():
    record = battleline_record(5)
    move = next(m for m in record["moves"] if m["steps"] and m["steps"][0]["type"] == "play")
    move["steps"][0] = {**move["steps"][0], "flag": move["steps"][0]["flag"], "card": "ZZ"}
    verdict = verify.verify(record)
    assert not verdict.verified and verdict.version == move["version"]
    assert "is not a step of this game" in verdict.problems[0] or "illegal" in verdict.problems[0]
    record = battleline_record(5)
    move = next(m for m in record["moves"] if m["steps"] and m["steps"][0]["type"] == "play")
    held = record["start"]["hands"][str(3 - move["seat"])]  # a card of the other seat's hand
    move["steps"][0] = {**move["steps"][0], "card": held[0]}
    verdict = verify.verify(record)
    assert not verdict.verified and verdict.version <= move["version"]
    assert "illegal" in verdict.problems[0] or "differs" in verdict.problems[0]


def test_a_removed_move_fails():
    record = battleline_record(6)
    del record["moves"][len(record["moves"]) // 2]
    assert not verify.verify(record).verified


def test_an_altered_result_fails():
    record = battleline_record(7)
    record["result"] = {**record["result"], "winner": 3 - (record["result"]["winner"] or 1)}
    verdict = verify.verify(record)
    assert not verdict.verified and "result differs" in verdict.problems[0]


def test_an_altered_hidden_khan_payment_fails():
    """With the advanced rules no seat saw the payment; the record, once the game is over, holds it,
    and another card there is another game."""
    for seed in range(20):
        record = khan_record(seed, max_rounds=3, advanced=True)
        pays = [e for m in record["moves"] for e in m["events"] if e["type"] == "pay"]
        if pays:
            break
    moved = copy.deepcopy(record)
    move = next(m for m in moved["moves"] if any(e["type"] == "pay" for e in m["events"]))
    step = next(s for s in move["steps"] if s["type"] == "pay")
    step["card"] = "lance" if step["card"] != "lance" else "charge"
    assert not verify.verify(moved).verified


def test_a_record_of_rules_this_program_lacks_is_refused():
    record = battleline_record(8)
    record["rules_version"] = "battleline/99"
    with pytest.raises(verify.Refused, match="battleline/99"):
        verify.verify(record)


def test_an_unfinished_game_is_refused():
    record = battleline_record(9)
    record["status"] = "active"
    with pytest.raises(verify.Refused, match="not over"):
        verify.verify(record)
    record["status"], record["complete"] = "finished", False
    with pytest.raises(verify.Refused, match="whole game"):
        verify.verify(record)


def test_a_khan_record_of_a_card_set_this_machine_lacks_asks_for_it_and_checks_its_digest(monkeypatch):
    from chalicelib.games.khan import cardset

    record = khan_record(10)
    ref = record["card_set"]
    assert set(ref) == {"id", "version", "digest"}
    fetched = card_sets.khan_card_set(ref["id"], ref["version"])  # what getKhanCardSet answers
    monkeypatch.setattr(cardset, "REGISTRY", cardset.Registry([]))  # a machine without it
    with pytest.raises(verify.MissingCardSet) as missing:
        verify.verify(record)
    assert missing.value.ref == ref
    with pytest.raises(verify.Refused, match="digest"):
        verify.add_card_set(fetched, {**ref, "digest": "0" * 16})
    verify.add_card_set(fetched, ref)
    assert verify.verify(record).verified
