"""Khan & General drawn for people (render.py): the SVG board (the board page), the HTML board
(emails) and the text board (the CLI, plain-text emails). Hidden information stays hidden, the
legend names every label and mark used, the hand shows names, and the drawings stay readable on
a phone."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from chalicelib.games.base import seat_key
from chalicelib.games.khan import render, story
from chalicelib.games.khan.cardset import REGISTRY
from chalicelib.games.khan.table import SEATS, card_id, card_set, unit_at, units_of

from .helpers import ENGINE, apply_steps, mid_game, options
from .test_properties import choose, public_cards

NAMES = {1: "Ann", 2: "Bob"}
SVG = "{http://www.w3.org/2000/svg}"


def random_positions(games: int = 6, every: int = 37):
    """Positions of random games leaning towards combat (wounds, face-down units, destructions)."""
    for seed in range(games):
        rng = random.Random(seed)
        state = ENGINE.new_game(options(max_rounds=12, first_seat=None, advanced=seed % 3 == 0), rng)
        step = 0
        while ENGINE.result(state) is None:
            seat = ENGINE.to_move(state)
            state, _ = apply_steps(ENGINE, state, seat, [choose(rng, state, seat, ENGINE.legal_steps(state, seat))])
            step += 1
            if step % every == 0:
                yield state
        yield state


def drawings(state: dict, seat: int | None) -> dict[str, str]:
    view = ENGINE.view(state, seat)
    return {"svg": render.svg_board(view, seat, NAMES, hand=True), "html": render.html_board(view, seat, NAMES),
            "text": render.text_board(view, seat, NAMES),
            "hand": render.hand_html(view["hand"], view) if seat is not None else ""}


def hidden_names(state: dict, seat: int | None) -> set[str]:
    """Names of the cards another seat holds that no card of the same kind shows publicly: its
    hand, face-down units, sequences and discards, when no copy is in plain sight."""
    cards = card_set(state)
    found = set()
    for owner in SEATS:
        if owner == seat:
            continue
        shown = public_cards(state, owner)
        for number, card in enumerate(state["seats"][seat_key(owner)]["deck"]):
            if not shown[card]:
                found |= {story.name_of(cards, card, short=False), story.name_of(cards, card)}
    return found


def svg_units(svg: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "unit"]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def test_boards_of_random_positions_never_show_the_other_seats_hidden_cards():
    checked = 0
    for state in random_positions():
        for seat in (1, 2, None):
            shown = drawings(state, seat)
            secrets = hidden_names(state, seat)
            for kind, drawn in shown.items():
                for name in secrets:
                    assert not re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", drawn), \
                        f"{kind} board of seat {seat} names {name!r}, which it may not see"
            for group in svg_units(shown["svg"]):
                owner, x, y = int(group.get("data-seat")), int(group.get("data-x")), int(group.get("data-y"))
                unit = unit_at(state, (x, y))
                assert unit["seat"] == owner
                if owner != seat and not unit["up"]:
                    assert texts(group) == ["?"], texts(group)
                    assert "unknown unit" in group.find(f"{SVG}title").text
            checked += 1
    assert checked > 20


def test_a_face_down_enemy_unit_is_unknown_in_every_drawing():
    state = mid_game()
    for seat, hidden in ((1, (2, 2)), (2, (1, -1))):
        shown = drawings(state, seat)
        cell = {1: "2??<~", 2: "1??<~"}[seat]
        assert cell in shown["text"] and f"{story.square({'x': hidden[0], 'y': hidden[1]})} " in shown["text"]
        assert "unknown unit (face down)" in shown["text"] and "unknown unit (face down)" in shown["html"]
        enemy = {1: "Foot archers", 2: "Horse archers"}[seat]
        assert all(enemy not in drawn for drawn in shown.values())
    spectator = drawings(state, None)
    assert spectator["text"].count("unknown unit (face down)") == 2
    assert "Horse archers" not in spectator["svg"] and "Foot archers" not in spectator["svg"]


def test_the_other_seats_hand_sequences_and_discards_never_appear():
    state = mid_game()
    theirs = {story.name_of(card_set(state), card_id(state, 2, n), short=False) for n in state["hands"]["2"]}
    theirs -= {"Spearmen", "Sword and shield"}  # also face up on the field
    zone = {story.name_of(card_set(state), "march")}
    for drawn in drawings(state, 1).values():
        assert not any(name in drawn for name in theirs | zone)
    mine = drawings(state, 1)
    assert "Charge, Envelop" in mine["text"] and "Charge, Envelop" in mine["svg"]  # your own sequence
    assert "Command zone: sequence 1 (1 card)" in mine["text"]  # theirs: its size only


def test_with_the_advanced_rules_your_own_sequences_and_discards_are_sizes_only():
    state = mid_game(advanced=True)
    mine = drawings(state, 1)
    assert "Charge" not in mine["svg"].split("Your hand")[0]
    assert "Command zone: sequence 1 (2 cards), sequence 2 (1 card)" in mine["text"]


def legend_labels(board: render.Board) -> set[str]:
    return {label for what, label, _words in render.legend(board) if what in ("unit", "command")}


def test_the_legend_names_every_label_and_mark_used_on_the_board():
    for state in [mid_game(), *random_positions(games=4, every=53)]:
        for seat in (1, 2, None):
            view = ENGINE.view(state, seat)
            board = render.Board.of(view, seat, NAMES)
            named = legend_labels(board)
            svg = render.svg_board(view, seat, NAMES)
            for group in svg_units(svg):
                for label in texts(group):
                    assert label.isdigit() or label == "?" or label in named, (label, named)
            text = render.text_board(view, seat, NAMES)
            grid = text.split("North is up.")[0]
            for label in re.findall(r"\d([A-Z0-9?]{2})[\^>v<]", grid):
                assert label == "??" or f"  {label} = " in text
            for label in re.findall(r"command ([A-Z0-9]{2}) ", text):
                assert f"  {label} = " in text
            html = render.html_board(view, seat, NAMES)
            for label in re.findall(r"<b>([A-Z0-9]{2})</b>", html) + re.findall(r"color:#ffffff\">([A-Z0-9]{2})<", html):
                assert label in named
            marks = {label for what, label, _w in render.legend(board) if what == "mark"}
            assert ("wounded" in marks) == any(u["wounded"] for u in view["field"])
            assert ("unknown" in marks) == any(u["unit"] is None for u in view["field"])
            assert ("grappled" in marks) == any(u["grappled_by"] for u in view["field"])


def test_the_legend_explains_each_mark_in_each_drawing():
    state = mid_game()
    shown = drawings(state, 1)
    for words in ("wounded", "face down", "unknown", "grappled", "facing", "power"):
        assert all(words in shown[kind] for kind in ("svg", "html", "text")), words
    assert "LA = Lance: attack, cost 2: power +3, melee, flank +2" in shown["text"]
    assert "HC = Heavy cavalry: power 4, melee" in shown["text"]
    # the text names each side once, by the number its units carry, with its counts (no colour: text has none)
    assert shown["text"].count("1 = Ann (you), Khan (cavalry): ") == 1 and "red" not in shown["text"]
    assert shown["text"].count("2 = Bob, General (infantry): ") == 1 and "blue" not in shown["text"]


def test_labels_are_two_characters_and_unique_in_every_card_set():
    for cards in REGISTRY.all():
        found = render.labels(cards)
        assert set(found) == set(cards.units) | set(cards.commands)
        assert all(len(label) == 2 and label.isupper() or label[1].isdigit() for label in found.values())
        assert len(set(found.values())) == len(found)
    default = render.labels(REGISTRY.latest("khan-default"))
    assert [default[u] for u in ("heavy_cavalry", "horse_archers", "light_cavalry", "spearmen", "swordsmen")] == \
        ["HC", "HA", "LC", "SP", "SW"]


def test_the_hand_shows_names_with_what_each_card_does():
    state = mid_game()
    view = ENGINE.view(state, 1)
    shown = drawings(state, 1)
    cards = card_set(state)
    for card in view["hand"]:
        name = story.name_of(cards, card, short=False)
        assert name in shown["text"] and name in shown["svg"] and name in shown["hand"]
    assert "Raid [raid]: attack, cost 1, for Light cavalry, Horse archers: power +1, melee, flank +1, mobility 2" \
        in shown["text"]
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown["svg"]), "a card id in the SVG"
    assert "<b>Heavy cavalry</b>" in shown["hand"] and ">heavy_cavalry<" in shown["hand"]  # the id, to type
    assert render.hand_html(["charge", "charge"]).count("Charge") == 1 and "2 &times; Charge" in \
        render.hand_html(["charge", "charge"])


def test_the_boards_name_the_players_and_the_card_economy():
    state = mid_game()
    text = drawings(state, 2)["text"]
    assert text.startswith("Round 6 of 40. Ann's turn: 0 of 5 cards played")
    assert "2 = Bob (you), General (infantry): " in text and "1 = Ann, Khan (cavalry): 6 cards in hand, up to " \
        "5 cards a turn, 1 discarded, 5 units left" in text
    assert "Command zone: sequence 1 (2 cards), sequence 2 (1 card)" in text  # Ann's, as Bob sees it
    for kind in ("svg", "html"):
        drawn = drawings(state, 2)[kind]
        assert "Bob (you)" in drawn and "Ann" in drawn and "Round 6 of 40" in drawn and "1 discarded" in drawn
    without = render.text_board(ENGINE.view(state, 1), 1)
    assert "1 = Seat 1 (you)" in without  # no names given: the seats by number


def test_destroyed_units_are_counted_and_named():
    state = mid_game()
    state["destroyed"]["2"].append(state["hands"]["2"].pop(next(
        i for i, n in enumerate(state["hands"]["2"]) if card_id(state, 2, n) == "spearmen")))
    text = drawings(state, 1)["text"]
    assert "4 units left, 1 destroyed (Spearmen)" in text


def test_the_svg_is_well_formed_and_readable_on_a_phone():
    """390 CSS px wide, a 460-unit board is drawn at about 0.81: text of 15 units or more reads as
    12 px or more. Fields up to 7 squares across (with the empty columns beside the units)
    keep that width; wider ones leave out the empty columns first."""
    for state in [mid_game(), *random_positions(games=3, every=41)]:
        for seat in (1, 2, None):
            svg = render.svg_board(ENGINE.view(state, seat), seat, NAMES, hand=True)
            root = ET.fromstring(svg)
            sizes = [float(t.get("font-size")) for t in root.iter(f"{SVG}text")]
            assert min(sizes) >= 15
            xs = [u["x"] for u in state["field"]]
            if max(xs) - min(xs) + 1 <= 7:
                assert float(root.get("width")) == render.WIDTH
            assert 'style="max-width:100%;height:auto"' in svg


def test_the_svg_marks_squares_and_units_for_a_page_to_click():
    state = mid_game()
    svg = render.svg_board(ENGINE.view(state, 1), 1, NAMES, squares=[{"x": 5, "y": 0}])
    root = ET.fromstring(svg)
    squares = {(int(r.get("data-x")), int(r.get("data-y"))) for r in root.iter(f"{SVG}rect")
               if r.get("class") == "square"}
    assert (5, 0) in squares and (0, 0) in squares
    assert {(int(g.get("data-x")), int(g.get("data-y"))) for g in svg_units(svg)} == \
        {(u["x"], u["y"]) for u in state["field"]}


def test_the_email_board_is_a_table_with_inline_styles_only():
    html = drawings(mid_game(), 1)["html"]
    assert "<svg" not in html and "<style" not in html and "class=" not in html and "<table" in html


@pytest.mark.parametrize("seat", [1, 2, None])
def test_player_names_are_escaped(seat):
    state = mid_game()
    view = ENGINE.view(state, seat)
    names = {1: "<script>alert(1)</script>", 2: "Bob & Co"}
    for drawn in (render.svg_board(view, seat, names), render.html_board(view, seat, names)):
        assert "<script>" not in drawn and "Bob &amp; Co" in drawn
    ET.fromstring(render.svg_board(view, seat, names))


def test_a_new_game_and_an_empty_hand_are_drawn():
    state = ENGINE.new_game(options(), random.Random(3))
    for seat in (1, 2, None):
        shown = drawings(state, seat)
        assert "Set-up: each side places its first unit" in shown["text"]
        ET.fromstring(shown["svg"])
    assert render.hand_html([]) == "(empty)"
    counts = Counter(card_id(state, 1, n) for n in state["hands"]["1"])
    assert sum(counts.values()) == 15 and units_of(state, 1) == []
