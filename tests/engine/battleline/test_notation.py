"""Battle Line's text notation (chalicelib/games/battleline/notation.py, docs/notation.md): what it
writes of a game reads back to the very same steps, version by version, for random games of every
variant played by the real engine; the grammar's own examples read as the doc says; bad text is
refused with its line and column."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib.games.battleline.notation import NotationError, parse, read, tags_for, write
from chalicelib.games.replay import FORFEITS, full_data
from chalicelib.kernel.i18n import say, speaking
from tests.examples import examples

from ..test_replay import BATTLELINE, battleline_choice, battleline_options, random_play

DOC = Path(__file__).parents[3] / "docs" / "notation.md"


def moves_of(events: list[dict], rng: random.Random) -> list[dict]:
    """A game record's ``moves`` from a game's events: the steps they record, a seat's steps in a
    row taken one to three at a time (as a client may post several steps in one action), a
    forfeit (a timeout) a version of no step."""
    steps: list[tuple[int, list[dict]]] = []
    for event in events:
        if event["type"] in FORFEITS:
            steps.append((event["seat"], []))
        elif (step := BATTLELINE.step_of({**event, "data": full_data(event)})) is not None:
            steps.append((event["seat"], [step]))
    moves: list[dict] = []
    for seat, taken in steps:
        last = moves[-1] if moves else None
        if last and last["seat"] == seat and taken and last["steps"] and len(last["steps"]) < rng.randint(1, 3):
            last["steps"].append(*taken)
        else:
            moves.append({"version": len(moves) + 1, "seat": seat, "steps": list(taken)})
    return moves


@settings(max_examples=examples(30, 100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), options=battleline_options, quit_rate=st.sampled_from([0.0, 0.0, 0.005]))
def test_a_written_game_reads_back_to_the_same_steps(seed, options, quit_rate):
    choices = random.Random(seed)  # (hypothesis's own randoms would take three times as long)
    opts = BATTLELINE.options_model.model_validate(options).model_dump(mode="json")
    final, events = random_play(BATTLELINE, opts, seed, choices, battleline_choice, quit_rate=quit_rate)
    moves = moves_of(events, choices)
    tags = tags_for("g_0123456789abcdef", [{"seat": 1, "name": 'Ann "the" \\ Bold'}, {"seat": 2, "name": "Bob #2"}],
                    final["result"])
    text = write(moves, tags)
    back = parse(text)
    assert back.moves == [{"seat": m["seat"], "steps": m["steps"]} for m in moves]
    assert back.tags == tags
    turns = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    seats = [line.split()[1] for line in turns]
    assert all(a != b for a, b in zip(seats, seats[1:]))  # a line is a turn: the seat changes each line
    assert len(turns) <= len(moves)


def test_every_step_type_has_its_token():
    moves = [
        {"version": 1, "seat": 1, "steps": [{"type": "play", "card": "10P", "flag": 9}, {"type": "claim", "flags": []},
                                           {"type": "draw", "deck": "tactics"}]},
        {"version": 2, "seat": 2, "steps": [{"type": "play", "card": "SCOUT"}, {"type": "scout_draw", "deck": "troop"}]},
        {"version": 3, "seat": 2, "steps": [{"type": "scout_draw", "deck": "tactics"},
                                           {"type": "scout_draw", "deck": "troop"},
                                           {"type": "scout_return", "cards": ["2G", "FOG"]}]},
        {"version": 4, "seat": 1, "steps": [{"type": "play", "card": "DESERTER", "target": {"flag": 3, "card": "9B"}},
                                           {"type": "claim", "flags": [2, 5]}]},
        {"version": 5, "seat": 2, "steps": [{"type": "play", "card": "TRAITOR", "target": {"flag": 3, "card": "9B"},
                                            "to_flag": 5}, {"type": "pass"}]},
        {"version": 6, "seat": 1, "steps": [{"type": "play", "card": "REDEPLOY", "target": {"flag": 4, "card": "MUD"},
                                            "discard": True},
                                           {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "7R"},
                                            "to_flag": 1}]},
        {"version": 7, "seat": 2, "steps": [{"type": "mud_discard", "flag": 4, "card": "2G"}]},
        {"version": 8, "seat": 1, "steps": [{"type": "play", "card": "MUD", "flag": 4},
                                           {"type": "play", "card": "ALEXANDER", "flag": 2}]},
        {"version": 9, "seat": 2, "steps": [{"type": "scout_return"}]},  # another seat's, while the game runs
        {"version": 10, "seat": 2, "steps": []},
        {"version": 11, "seat": 1, "steps": [{"type": "resign"}]},
    ]
    text = write(moves)
    assert text.splitlines() == [
        "1. S1: 10P>9 claim:- draw:tactics",
        "2. S2: SCOUT scout:troop ; scout:tactics scout:troop return:2G,FOG",
        "3. S1: DESERTER:9B@3 claim:2,5",
        "4. S2: TRAITOR:9B@3>5 pass",
        "5. S1: REDEPLOY:MUD@4>discard REDEPLOY:7R@3>1",
        "6. S2: mud:2G@4",
        "7. S1: MUD>4 ALEXANDER>2",
        "8. S2: return:? ; -",
        "9. S1: resign",
    ]
    assert read(text) == [{"seat": m["seat"], "steps": m["steps"]} for m in moves]


@pytest.mark.parametrize("step", [
    {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "7R"}, "to_flag": None},
    {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "7R"}, "discard": True, "to_flag": 5},
    {"type": "play", "card": "7R", "flag": 3, "to_flag": 5},
    {"type": "play", "card": "7R", "flag": None},
    {"type": "claim", "flags": [1], "auto": True},
    {"type": "offer_draw"},
])
def test_a_step_the_notation_cannot_tell_exactly_is_refused(step):
    with pytest.raises(ValueError):
        write([{"version": 1, "seat": 1, "steps": [step]}])


def doc_blocks() -> list[str]:
    return re.findall(r"```battleline\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_grammar_docs_examples_read_and_replay_as_a_legal_game():
    """The whole game told in docs/notation.md is a real game: its steps, taken by the engine from
    the seed in its header, are legal and end it as its Result tag says."""
    game, *examples = doc_blocks()
    told = parse(game)
    options = BATTLELINE.options_model.model_validate({"first_seat": int(told.tags["First"])}).model_dump(mode="json")
    state = BATTLELINE.new_game(options, random.Random(int(told.tags["Seed"])))
    for move in told.moves:
        for step in move["steps"]:
            BATTLELINE.apply_step(state, move["seat"], BATTLELINE.parse_step(step))
    result = state["result"]
    assert told.tags["Result"] == f"S{result['winner']} ({result['reason']})"
    assert write([{"version": n, **m} for n, m in enumerate(told.moves, 1)], told.tags) == game
    for example in examples:
        assert read(example)


@pytest.mark.parametrize("text, line, column", [
    ("1. S1: 7R>3\n2. S2: 8R>10\n", 2, 8),
    ("1. S1: 7R>3\n3. S2: 8R>4\n", 2, 1),
    ("1. S1: 7X>3\n", 1, 8),
    ("1. S1: DESERTER:9Q@3\n", 1, 17),
    ("1 S1: 7R>3\n", 1, 1),
    ("1. S1: 7R>3 ; ; draw:troop\n", 1, 15),
    ("1. S1: claim:\n", 1, 8),
    ("1. S1: draw:deck\n", 1, 8),
    ('[Game g_1]\n', 1, 1),
    ('1. S1: pass\n[Game "g_1"]\n', 2, 1),
])
def test_bad_notation_is_refused_with_its_line_and_column(text, line, column):
    with pytest.raises(NotationError) as refused:
        read(text)
    assert (refused.value.line, refused.value.column) == (line, column)
    assert str(refused.value).startswith(f"line {line}, column {column}: ")


def test_a_refusal_is_said_in_the_readers_language():
    with pytest.raises(NotationError) as refused:
        read("1. S1: 7R>3\n2. S2: 8R>10\n")
    assert str(refused.value) == ("line 2, column 8: '8R>10' is not a step "
                                  "(e.g. 7R>3, DESERTER:9B@3, claim:2,5, draw:troop, pass)")
    with speaking("ja"):
        assert say(refused.value.words) == ("2行目、8列目：「8R>10」はステップではありません"
                                            "（例：7R>3、DESERTER:9B@3、claim:2,5、draw:troop、pass）")


def test_comments_blank_lines_and_any_case_read_as_the_same_game():
    assert read("# Ann and Bob, Tuesday\n\n1. s1: 7r>3 CLAIM:- Draw:Troop  # a quiet start\n2. S2: deserter:7r@3\n") == [
        {"seat": 1, "steps": [{"type": "play", "card": "7R", "flag": 3}, {"type": "claim", "flags": []},
                              {"type": "draw", "deck": "troop"}]},
        {"seat": 2, "steps": [{"type": "play", "card": "DESERTER", "target": {"flag": 3, "card": "7R"}}]}]
