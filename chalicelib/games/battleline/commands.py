"""Battle Line steps written as plain-text commands, for play by email.

    play 7R 3                 a troop or morale tactic at flag 3; FOG / MUD at a flag
    play SCOUT                then: scout troop, scout tactics (three times), return 7R 8R
    play DESERTER 3 9B        the opponent's 9B at flag 3
    play TRAITOR 3 9B 5       ... to your flag 5
    play REDEPLOY 3 9B 5      your 9B at flag 3 to flag 5; play REDEPLOY 3 9B discard
    claim 3 5 / claim none    draw troop / draw tactics
    pass / resign / mud 4 2G  (a Mud discard at flag 4)

One command a line; case does not matter; everything from a quoted reply (lines starting
with ">", or "On ... wrote:") or a signature ("-- ") on is ignored.
"""

from __future__ import annotations

import re

from .. import base
from ..base import CommandError
from .steps import discards

HELP = __doc__.split("\n\n")[1]


def _card(word: str) -> str:
    card = word.upper()
    if not re.fullmatch(r"(10|[1-9])[ROYGBP]|[A-Z]+", card):
        raise CommandError(f"{word!r} is not a card (write troops as 7R, 10P; tactics by name)")
    return card


def _flag(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 9:
        raise CommandError(f"{word!r} is not a flag (1 to 9)")
    return int(word)


def _deck(word: str) -> str:
    if word.lower() not in ("troop", "tactics", "troops", "tactic"):
        raise CommandError(f"{word!r} is not a deck (troop or tactics)")
    return "troop" if word.lower().startswith("troop") else "tactics"


def parse_line(line: str) -> dict:
    words = line.split()
    verb, args = words[0].lower(), words[1:]
    if verb == "play" and args:
        card = _card(args[0])
        if card == "SCOUT" and len(args) == 1:
            return {"type": "play", "card": card}
        if card in ("DESERTER",) and len(args) == 3:
            return {"type": "play", "card": card, "target": {"flag": _flag(args[1]), "card": _card(args[2])}}
        if card in ("TRAITOR", "REDEPLOY") and len(args) == 4:
            target = {"flag": _flag(args[1]), "card": _card(args[2])}
            if card == "REDEPLOY" and args[3].lower() == "discard":
                return {"type": "play", "card": card, "target": target, "discard": True}
            return {"type": "play", "card": card, "target": target, "to_flag": _flag(args[3])}
        if card == "REDEPLOY" and len(args) == 3:
            raise CommandError(f"cannot read {line!r}: say where REDEPLOY puts the card, "
                               f"e.g. 'play REDEPLOY {args[1]} {args[2]} 5' or '... discard'")
        if len(args) == 2:
            return {"type": "play", "card": card, "flag": _flag(args[1])}
        raise CommandError(f"cannot read {line!r}: e.g. 'play 7R 3'")
    if verb == "claim":
        if args in ([], ["none"], ["nothing"]):
            return {"type": "claim", "flags": []}
        return {"type": "claim", "flags": [_flag(a.strip(",")) for a in args if a.strip(",")]}
    if verb == "draw" and len(args) == 1:
        return {"type": "draw", "deck": _deck(args[0])}
    if verb == "scout" and len(args) == 1:
        return {"type": "scout_draw", "deck": _deck(args[0])}
    if verb == "return" and 1 <= len(args) <= 2:
        return {"type": "scout_return", "cards": [_card(a) for a in args]}
    if verb == "mud" and len(args) == 2:
        return {"type": "mud_discard", "flag": _flag(args[0]), "card": _card(args[1])}
    if verb in ("pass", "resign") and not args:
        return {"type": verb}
    raise CommandError(f"cannot read {line!r}")


def parse_commands(text: str) -> list[dict]:
    """The steps a message's text asks for, in order (raises CommandError naming the line)."""
    return base.parse_commands(text, parse_line)


def write_step(step: dict) -> str:
    """A step as the command that asks for it (for the moves listed in replies)."""
    kind = step["type"]
    if kind == "play":
        if "target" in step:
            tail = " discard" if discards(step) else (f" {step['to_flag']}" if step.get("to_flag") else "")
            return f"play {step['card']} {step['target']['flag']} {step['target']['card']}{tail}"
        return f"play {step['card']}" + (f" {step['flag']}" if "flag" in step else "")
    if kind == "claim":
        return "claim " + (" ".join(map(str, step["flags"])) or "none")
    if kind == "draw":
        return f"draw {step['deck']}"
    if kind == "scout_draw":
        return f"scout {step['deck']}"
    if kind == "scout_return":
        return "return " + " ".join(step["cards"])
    if kind == "mud_discard":
        return f"mud {step['flag']} {step['card']}"
    return kind
