"""Khan & General steps written as plain-text commands, for play by email (squares are x y;
north is +y; facings N E S W):

    place heavy_cavalry          deploy light_cavalry -1 0 N
    flip 1 -1                    discard 0 0     (the defence command on the unit at 0 0)
    command charge 0 0 seq 1     command gallop 0 0     (cost 0: no sequence)
    pay lance                    pay lance seq 2        (into a new sequence, or sequence 2)
    move 0 0 to 1 2 E            turn 0 0 W             skip 0 0
    end action / end reaction / end engagements / end turn
    engage 0 1 with 0 0, 1 1     advance 0 0            stay
    offer draw / accept draw / decline draw / resign

One command a line; case does not matter; everything from a quoted reply (lines starting
with ">", or "On ... wrote:") or a signature ("-- ") on is ignored.
"""

from __future__ import annotations

import re

from .. import base
from ..base import CommandError

HELP = __doc__.split("\n\n")[1]
FACINGS = ("N", "E", "S", "W")
ENDINGS = ("action", "reaction", "engagements", "turn")


def _words(line: str) -> list[str]:
    return re.sub(r"[(),]", " ", line).split()


def _number(word: str) -> int:
    if not re.fullmatch(r"-?\d{1,4}", word):
        raise CommandError(f"{word!r} is not a coordinate (a whole number, e.g. 0, 2 or -1)")
    return int(word)


def _square(words: list[str]) -> dict:
    if len(words) < 2:
        raise CommandError("a square is written as two numbers, x then y")
    return {"x": _number(words[0]), "y": _number(words[1])}


def _facing(word: str) -> str:
    if word.upper() not in FACINGS:
        raise CommandError(f"{word!r} is not a facing (N, E, S or W)")
    return word.upper()


def _card(word: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", word.lower()):
        raise CommandError(f"{word!r} is not a card id (e.g. heavy_cavalry, charge)")
    return word.lower()


def _sequence(words: list[str]) -> dict:
    if not words:
        return {}
    if len(words) == 2 and words[0].lower() in ("seq", "sequence") and words[1].isdigit():
        return {"sequence": int(words[1])}
    raise CommandError(f"cannot read {' '.join(words)!r}: write the sequence as 'seq 2'")


def parse_line(line: str) -> dict:
    words = _words(line)
    verb, args = words[0].lower(), words[1:]
    lowered = [a.lower() for a in args]
    if verb == "place" and len(args) == 1:
        return {"type": "place", "unit": _card(args[0])}
    if verb == "flip" and len(args) == 2:
        return {"type": "flip", "at": _square(args)}
    if verb == "discard" and len(args) == 2:
        return {"type": "discard_defence", "at": _square(args)}
    if verb == "deploy" and len(args) == 4:
        return {"type": "deploy", "unit": _card(args[0]), "at": _square(args[1:3]), "facing": _facing(args[3])}
    if verb == "command" and len(args) >= 3:
        return {"type": "command", "card": _card(args[0]), "at": _square(args[1:3]), **_sequence(args[3:])}
    if verb == "pay" and len(args) >= 1:
        return {"type": "pay", "card": _card(args[0]), **_sequence(args[1:])}
    if verb == "move" and len(args) == 6 and lowered[2] == "to":
        return {"type": "move", "at": _square(args[0:2]), "to": _square(args[3:5]), "facing": _facing(args[5])}
    if verb == "turn" and len(args) == 3:
        return {"type": "turn", "at": _square(args[0:2]), "facing": _facing(args[2])}
    if verb == "skip" and len(args) == 2:
        return {"type": "skip", "at": _square(args)}
    if verb == "engage" and len(args) >= 5 and lowered[2] == "with" and len(args[3:]) % 2 == 0:
        attackers = [_square(args[i:i + 2]) for i in range(3, len(args), 2)]
        return {"type": "engage", "target": _square(args[0:2]), "attackers": attackers}
    if verb == "advance" and len(args) == 2:
        return {"type": "advance", "at": _square(args)}
    if verb == "end" and len(lowered) == 1 and lowered[0] in ENDINGS:
        return {"type": f"end_{lowered[0]}"}
    if verb in ("offer", "accept", "decline") and lowered == ["draw"]:
        return {"type": f"{verb}_draw"}
    if verb in ("stay", "resign") and not args:
        return {"type": verb}
    raise CommandError(f"cannot read {line!r}")


def parse_commands(text: str) -> list[dict]:
    """The steps a message's text asks for, in order (raises CommandError naming the line)."""
    return base.parse_commands(text, parse_line)


def _xy(square: dict) -> str:
    return f"{square['x']} {square['y']}"


def write_step(step: dict) -> str:
    """A step as the command that asks for it (for the moves listed in replies)."""
    kind = step["type"]
    seq = f" seq {step['sequence']}" if step.get("sequence") else ""
    if kind == "place":
        return f"place {step['unit']}"
    if kind in ("flip", "skip", "advance"):
        return f"{kind} {_xy(step['at'])}"
    if kind == "discard_defence":
        return f"discard {_xy(step['at'])}"
    if kind == "deploy":
        return f"deploy {step['unit']} {_xy(step['at'])} {step['facing']}"
    if kind == "command":
        return f"command {step['card']} {_xy(step['at'])}{seq}"
    if kind == "pay":
        return f"pay {step['card']}{seq}"
    if kind == "move":
        return f"move {_xy(step['at'])} to {_xy(step['to'])} {step['facing']}"
    if kind == "turn":
        return f"turn {_xy(step['at'])} {step['facing']}"
    if kind == "engage":
        return f"engage {_xy(step['target'])} with " + ", ".join(_xy(a) for a in step["attackers"])
    return kind.replace("_", " ")
