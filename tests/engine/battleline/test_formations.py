"""Formations and how two complete sides compare (battleline.md, 'Formations')."""

import pytest

from chalicelib.games.battleline.cards import parse_troop, sort_hand
from chalicelib.games.battleline.formations import Formation, Strength, strength
from chalicelib.games.battleline.turns import claim_checks

from .helpers import build


@pytest.mark.parametrize(
    "card, value, colour",
    [("1R", 1, "R"), ("7G", 7, "G"), ("10P", 10, "P"), ("10O", 10, "O")],
)
def test_troop_notation_is_value_then_colour_letter(card, value, colour):
    troop = parse_troop(card)
    assert (troop.value, troop.colour) == (value, colour)
    assert str(troop) == card


@pytest.mark.parametrize("card", ["07R", "0R", "11R", "7X", "R7", "7r", "", "7", "ALEXANDER", " 7R"])
def test_not_a_troop(card):
    assert parse_troop(card) is None


@pytest.mark.parametrize(
    "cards, formation",
    [
        (["5R", "6R", "7R"], Formation.WEDGE),
        (["5R", "5B", "5G"], Formation.PHALANX),
        (["2B", "7B", "4B"], Formation.BATTALION_ORDER),
        (["4Y", "6R", "5G"], Formation.SKIRMISH_LINE),
        (["5Y", "5B", "3G"], Formation.HOST),
    ],
)
def test_the_five_formations_with_the_rule_book_examples(cards, formation):
    assert strength(cards).formation == formation


def test_wedge_beats_phalanx_beats_battalion_beats_skirmish_beats_host():
    ranked = [["1R", "2R", "3R"], ["10R", "10B", "10G"], ["10B", "9B", "7B"], ["10Y", "9R", "8G"], ["10Y", "10B", "9G"]]
    strengths = [strength(cards) for cards in ranked]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(s.formation for s in strengths)) == 5


def test_same_formation_compares_sums():
    # 002's example: red 4-6-3 (13) beats blue 7-1-3 (11), both Battalion Order.
    assert strength(["4R", "6R", "3R"]) > strength(["7B", "1B", "3B"])


def test_card_order_on_a_side_never_matters():
    assert strength(["7R", "5R", "6R"]) == strength(["5R", "6R", "7R"]) == Strength(Formation.WEDGE, 18)


def test_mud_formations_are_judged_on_four_cards():
    assert strength(["3G", "4G", "5G", "6G"]).formation == Formation.WEDGE
    assert strength(["3G", "4G", "5G", "7G"]).formation == Formation.BATTALION_ORDER
    assert strength(["8G", "8R", "8B", "8Y"]).formation == Formation.PHALANX
    assert strength(["3G", "4R", "5G", "6B"]).formation == Formation.SKIRMISH_LINE


def test_fog_only_the_sum_decides():
    assert strength(["1R", "2R", "3R"], fog=True) < strength(["10B", "2Y", "5G"], fog=True)


def test_equal_strength_side_completed_last_loses():
    # 002's example: yellow 7, blue 2, green 1 (10) against yellow 3, blue 3, green 4 (10).
    assert strength(["7Y", "2B", "1G"]) == strength(["3Y", "3B", "4G"])
    first = build(flags={1: (["7Y", "2B", "1G"], ["3Y", "3B", "4G"])})  # seat 1 completes first
    assert claim_checks(first, 1)[1].claimable and not claim_checks(first, 2)[1].claimable
    later = build(flags={1: (["7Y", "2B", "1G"], ["3Y", "3B", "4G"])})
    later["flags"][0]["completed"] = [2, 1]  # seat 2 completed first this time
    assert claim_checks(later, 2)[1].claimable and not claim_checks(later, 1)[1].claimable


def test_a_hand_is_shown_by_colour_then_value():
    assert sort_hand(["10P", "3R", "1R", "5G"]) == ["1R", "3R", "5G", "10P"]
