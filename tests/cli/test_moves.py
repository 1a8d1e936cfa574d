"""Your moves as `battleline show` lists them (battleline_cli/moves.py): grouped as the game is
thought (Battle Line: a card and its flags; Khan & General: a kind of step and its units, squares
and facings), numbered only when the decision is short, and never leaving a legal step out."""

from __future__ import annotations

import re

import pytest

from battleline_cli.moves import NUMBERED_AT_MOST, playable, your_moves
from chalicelib.games.presenters import PRESENTERS
from tests.examples import examples

from .games import positions


def lines_of(view: dict) -> list[str]:
    return your_moves(view).lines(PRESENTERS[view["game"]].write_step)


# Random games' every decision: a third of them (one of the four Khan & General games) in make test, all in make
# bench (benchmarks/properties.py; tests/examples.py).
@pytest.mark.parametrize("game, seeds", [("battleline", range(examples(4, 12))), ("khan", range(examples(1, 4)))])
def test_every_legal_step_is_in_one_choice_and_the_list_stays_short(game, seeds):
    """Over every decision of random games: the choices stand for exactly the legal steps (resign
    apart: it is its own command), each once; a long decision is grouped, a short one numbered."""
    longest = 0
    for seed in seeds:
        for view, _events in positions(game, seed, steps=800):
            moves = your_moves(view)
            steps = playable(view)
            listed = [step for choice in moves.choices for step in choice.steps]
            assert len(listed) == len(steps) and all(any(s is t for t in listed) for s in steps), view["phase"]
            if moves.numbered:
                assert moves.numbered == steps and len(steps) <= NUMBERED_AT_MOST
            lines = lines_of(view)
            longest = max(longest, len(lines))
            assert not any(re.match(r"\s+\d+\. ", line) for line in lines) or len(steps) <= NUMBERED_AT_MOST
    assert longest <= 20, longest  # 64 plays, 84 deployments: never a line each


def first_turn(game: str) -> dict:
    return next(view for view, _ in positions(game, 3) if view["phase"] in ("play", "maintenance"))


def test_battle_line_first_turn_is_a_line_a_card_with_its_flags():
    view = first_turn("battleline")
    lines = lines_of(view)
    assert lines[0] == "Your move: play a card, then claim flags, then draw a card."
    hand = view["state"]["hand"]
    for card in hand:
        assert any(re.fullmatch(rf"\s+{card}\s+→ flags 1 2 3 4 5 6 7 8 9( \(.+\))?", line) for line in lines), card
    assert len(lines) == len(hand) + 2  # the heading, "play CARD FLAG:", a line a card


def view_with(game: str, steps: list[dict], phase: str, **state) -> dict:
    return {"game_id": "g_1", "game": game, "you": 1, "to_move": 1, "phase": phase, "state": state,
            "legal_steps": steps + [{"type": "resign"}], "seats": [], "status": "active"}


def test_battle_line_tactics_are_grouped_by_target_and_destination():
    steps = [{"type": "play", "card": "7R", "flag": n} for n in (1, 2, 5)]
    steps += [{"type": "play", "card": "FOG", "flag": n} for n in (2, 5)]
    steps += [{"type": "play", "card": "DESERTER", "target": {"flag": f, "card": c}}
              for f, c in ((3, "9B"), (4, "5P"), (4, "COMPANION"))]
    steps += [{"type": "play", "card": "TRAITOR", "target": {"flag": f, "card": c}, "to_flag": n}
              for f, c in ((3, "9B"), (4, "5P")) for n in (1, 2, 5)]
    steps += [{"type": "play", "card": "REDEPLOY", "target": {"flag": f, "card": "8G"}, "to_flag": n}
              for f in (1, 2) for n in (1, 2, 5) if n != f]
    steps += [{"type": "play", "card": "REDEPLOY", "target": {"flag": f, "card": "8G"}, "discard": True}
              for f in (1, 2)]
    text = "\n".join(lines_of(view_with("battleline", steps, "play", claim_timing="basic")))
    assert "7R  → flags 1 2 5\n" in text and "FOG → flags 2 5 (Fog: " in text
    assert "  play a tactics card on the table (as in the example):\n" in text
    assert "    DESERTER → flag 3: 9B · flag 4: 5P COMPANION\n        Deserter: " in text
    assert "    TRAITOR → flag 3: 9B · flag 4: 5P, to flags 1 2 5\n        Traitor: " in text
    assert "; e.g. play TRAITOR 3 9B 1\n" in text
    # REDEPLOY: a card may not stay on its own flag, so both targets go "to another of" the same flags
    assert "    REDEPLOY → flag 1: 8G · flag 2: 8G, to another of flags 1 2 5 or the discard pile\n" in text
    assert "; e.g. play REDEPLOY 1 8G 2" in text


def test_battle_line_short_decisions_are_numbered_and_say_the_rest_of_the_turn():
    claims = [{"type": "claim", "flags": [3, 5]}, {"type": "claim", "flags": [3]}, {"type": "claim", "flags": [5]},
              {"type": "claim", "flags": []}]
    lines = lines_of(view_with("battleline", claims, "claim", claim_timing="basic"))
    assert lines == ["Your move: claim flags, then draw a card.", "  1. claim 3 5", "  2. claim 3", "  3. claim 5",
                     "  4. claim none"]
    draws = [{"type": "draw", "deck": "troop"}, {"type": "draw", "deck": "tactics"}]
    lines = lines_of(view_with("battleline", draws, "draw", claim_timing="end", decks={"troop": 30, "tactics": 1}))
    assert lines == ["Your move: draw a card, then claim flags.", "  1. draw troop", "  2. draw tactics"]


def test_khan_deployments_are_units_to_squares_and_facings():
    view = first_turn("khan")
    text = re.sub(r"\n {8}", " ", "\n".join(lines_of(view)))  # a long line's wrapped rest, back on it
    assert "  deploy UNIT X Y FACING (a unit from your hand, face down):" in text
    assert re.search(r"\n    [a-z_, ]+ → (\(-?\d, -?\d\) )+\(-?\d, -?\d\), any facing\n", text), text
    assert "  pay CARD [seq N] (a card face down into your command zone):" in text
    assert "end action · offer draw" in text
    assert not re.search(r"^\s+\d+\. ", text, re.M)


def test_khan_commands_and_engagements_are_summarised():
    steps = [{"type": "command", "card": "advance", "at": {"x": x, "y": y}, "sequence": n}
             for x, y in ((0, 0), (-2, -2)) for n in (1, 2)]
    steps += [{"type": "command", "card": "march", "at": {"x": 0, "y": 0}}]
    steps += [{"type": "engage", "target": {"x": 0, "y": 1}, "attackers": a}
              for a in ([{"x": 0, "y": 0}], [{"x": 1, "y": 0}], [{"x": 0, "y": 0}, {"x": 1, "y": 0}])]
    steps += [{"type": "engage", "target": {"x": 2, "y": 1}, "attackers": [{"x": 1, "y": 0}]}]
    steps += [{"type": "end_action"}, {"type": "offer_draw"}]
    text = "\n".join(lines_of(view_with("khan", steps, "action", limits={"1": 2}, played=0)))
    assert "advance → (0, 0) or (-2, -2), paid by sequence 1 or 2" in text
    assert "march → (0, 0)" in text
    assert "(0, 1) with any of (0, 0), (1, 0)" in text and "(2, 1) with (1, 0)" in text
    assert "0 of your 2 cards played this turn" in text


def test_tactics_held_but_not_playable_now_are_named_with_why():
    plays = [{"type": "play", "card": "7R", "flag": 1}]
    seats = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "greedy bot"}]
    ahead = {**view_with("battleline", plays, "play", claim_timing="basic", hand=["7R", "ALEXANDER", "FOG"],
                         tactics_played={"1": 1, "2": 0}, leaders_played={"1": 0, "2": 0}, tactics=True, players=2),
             "seats": seats}
    # as the emails and the board page say it (Presenter.not_playable): one writer of the rule's words
    assert ("Not playable now: Alexander, Fog (you have played 1 tactics card and your opponent 0: you may not be "
            "more than one ahead)") in " ".join(" ".join(lines_of(ahead)).split())
    leader = {**ahead, "state": {**ahead["state"], "hand": ["7R", "DARIUS"], "tactics_played": {"1": 1, "2": 1},
                                 "leaders_played": {"1": 1, "2": 0}}}
    assert ("Not playable now: Darius (you have played a Leader already: a second one stays in your hand to the "
            "end)") in " ".join(" ".join(lines_of(leader)).split())
