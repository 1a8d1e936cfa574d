"""docs/rules.md, "Provably fair deals": the Python a player runs by hand deals what the engine
deals, and prints the commitment the server computes."""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path

from chalicelib.kernel import ids
from chalicelib.games import ENGINES

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def hand_check() -> str:
    text = RULES.read_text()
    found = re.search(r"<!-- hand-check -->\n```python\n(.*?)```", text, re.S)
    assert found, "docs/rules.md lost its hand check"
    return found.group(1)


def test_the_hand_check_in_the_rules_deals_what_the_engine_deals():
    code = hand_check()
    for seed in (8152365097420391, 1, 2**63 - 1):
        scope: dict = {}
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            exec(code.replace("8152365097420391", str(seed)), scope)
        engine = ENGINES["battleline"]
        state = engine.new_game(engine.options_model.model_validate({}).model_dump(mode="json"), random.Random(seed))
        assert scope["first"] == state["to_move"]
        assert scope["hands"] == {int(seat): hand for seat, hand in state["hands"].items()}
        assert scope["troops"] == state["decks"]["troop"] and scope["tactics"] == state["decks"]["tactics"]
        assert printed.getvalue().splitlines()[0] == ids.deal_commitment(scope["game_id"], seed, scope["deal_salt"])
    khan = ENGINES["khan"]
    for seed in range(20):
        state = khan.new_game(khan.options_model.model_validate({}).model_dump(mode="json"), random.Random(seed))
        assert state["first"] == random.Random(seed).choice([1, 2])
