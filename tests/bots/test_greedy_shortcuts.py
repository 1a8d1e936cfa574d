"""The greedy Battle Line bot's shortcuts (issue 39: its reading of a flag is most of an mcts
playout's time) give exactly what the plain reading gives, so the greedy bot, the benchmark's
opponent and the mcts playouts' policy, chooses as it did."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.bots.battleline_greedy import Greedy, Table, clear_caches, potential, strength_key
from chalicelib.bots.runner import seat_view
from chalicelib.games.battleline.cards import TROOPS
from chalicelib.games.battleline.claims import CARD_BIT, Side, best_completion
from chalicelib.games.battleline.engine import ENGINE
from tests.examples import examples


def searched(cards: tuple[str, ...], pool: int, size: int, fog: bool) -> int:
    """The potential by a fresh search, nothing remembered."""
    if len(cards) > size:
        return -1
    completion = best_completion(Side.of(cards), pool, size, fog=fog)
    return strength_key(completion.strength if completion else None)


@st.composite
def shrinking_pools(draw):
    """A side, then pools as a game's playouts ask about them: each drawn from a starting pool,
    most of them smaller than pools already asked about, some not."""
    size = draw(st.sampled_from([3, 4]))
    troops = draw(st.permutations(TROOPS))
    wilds = draw(st.sampled_from([(), ("ALEXANDER",), ("SHIELD",), ("COMPANION",)]))
    cards = tuple(sorted(troops[:draw(st.integers(0, size - 1 - len(wilds)))] + list(wilds)))
    rest = [c for c in troops if c not in cards]
    start = [c for c in rest if draw(st.booleans()) or draw(st.booleans())]
    pools = []
    for _ in range(draw(st.integers(1, 12))):
        keep = draw(st.floats(0.3, 1.0))
        pools.append(sum(CARD_BIT[c] for c in start if draw(st.floats(0, 1)) < keep))
    return cards, size, draw(st.booleans()), pools


@settings(max_examples=examples(150, 2000), deadline=None)
@given(shrinking_pools())
def test_issue39_a_potential_read_from_a_remembered_completion_equals_a_fresh_search(problem):
    """A completion found in a larger pool that uses only cards a smaller pool still has is the
    best in the smaller pool too: whatever was remembered, the answer is the search's."""
    cards, size, fog, pools = problem
    clear_caches()
    for pool in pools:
        assert potential(cards, pool, size, fog) == searched(cards, pool, size, fog)


def test_issue39_a_tables_remembered_flag_parts_give_what_a_fresh_table_gives():
    """``Table.standing`` reads a flag's parts once and every play at the flag shares them: for
    every play of positions from greedy games, from both seats, a table that has already been asked
    about every other play gives the same standing as a fresh table asked about this play alone."""
    rng = random.Random(39)
    options = ENGINE.options_model.model_validate({}).model_dump(mode="json")
    checked = 0
    for _ in range(4):
        state = ENGINE.new_game(options, rng)
        while ENGINE.result(state) is None:
            seat = ENGINE.to_move(state)
            view = seat_view(ENGINE, state, seat, options)
            table = Table.of_view(view)
            for step in view["legal_steps"]:
                if step["type"] == "play" and "target" not in step and step.get("flag") in table.by_number:
                    flag = table.by_number[step["flag"]]
                    fresh = Table.of_view(view)
                    assert table.standing(flag, step["card"]) - table.standing_now(flag) == \
                        fresh.standing(flag, step["card"]) - Table.of_view(view).standing(flag)
                    checked += 1
            ENGINE.apply_step(state, seat, Greedy().choose(view, rng))
    assert checked > 500
