"""Battle Line's compact text notation: a whole game in a few lines, one line per turn, with the
card notation of the protocol (``cards``: ``7R``, ``10P``, tactics by name). The grammar, and a
game told in it, is docs/notation.md. Pure: text in, step dicts out (and back).

    [Game "g_0123456789abcdef"]
    [S1 "Ann"]
    [S2 "Bob"]
    [Result "S1 (adjacent_flags)"]

    1. S1: 7R>3 claim:- draw:troop
    2. S2: SCOUT scout:tactics scout:troop scout:troop return:2G,FOG ; claim:- draw:troop
    3. S1: REDEPLOY:7R@3>discard claim:2,5 draw:tactics

A line is a **turn**: the accepted versions (``moves`` of a game record) one seat made in a row,
its versions apart by ``;``. So reading a game back gives every version its seat and its steps,
exactly the step dicts the engine records (``STEPS.step_of``: a play as ``tactics.canonical``
spells it). A version with no step (a game lost on time) is ``-``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...kernel.i18n import N_
from ..base import Quoted, Words
from .cards import is_card

DECKS = ("troop", "tactics")
DISCARD = "discard"
NO_STEP = "-"
HIDDEN = "?"  # the cards of another seat's Scout return, while the game runs

_FLAG = r"([1-9])"
_CARD = r"((?:10|[1-9])[A-Za-z]|[A-Za-z]{3,})"
_TOKENS = {
    "play": re.compile(rf"{_CARD}(?:>{_FLAG})?"),
    "guile": re.compile(rf"{_CARD}:{_CARD}@{_FLAG}(?:>(?:{_FLAG}|({DISCARD})))?", re.IGNORECASE),
    "claim": re.compile(r"claim:(-|[1-9](?:,[1-9])*)", re.IGNORECASE),
    "draw": re.compile(r"(draw|scout):(troop|tactics)", re.IGNORECASE),
    "return": re.compile(rf"return:(\?|{_CARD}(?:,{_CARD})?)", re.IGNORECASE),
    "mud": re.compile(rf"mud:{_CARD}@{_FLAG}", re.IGNORECASE),
}
# The fields of each step type as the engine records it (``steps.py``): no other is written.
_FIELDS = {"play": {"card", "flag", "target", "to_flag", "discard"}, "claim": {"flags"}, "draw": {"deck"},
           "scout_draw": {"deck"}, "scout_return": {"cards"}, "mud_discard": {"flag", "card"}, "pass": set(),
           "resign": set()}
_TURN = re.compile(r"(\d+)\.\s+S([1-9]):(?=\s|$)", re.IGNORECASE)
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*')


class NotationError(ValueError):
    """Text that is not Battle Line notation: where (1-based line and column) and why."""

    def __init__(self, line: int, column: int, reason: Words) -> None:
        self.words = Words(N_("line {line}, column {column}: {reason}"), line=line, column=column, reason=reason)
        super().__init__(str(self.words))  # English; ``i18n.say(error.words)`` in the reader's language
        self.line, self.column, self.reason = line, column, reason


@dataclass
class Notation:
    """A game read back: its header tags and its moves (one per version: seat and steps)."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[dict] = field(default_factory=list)


# ---------------------------------------------------------------- writing

def write(moves: list[dict], tags: dict[str, str] | None = None) -> str:
    """The game's moves (``{"version", "seat", "steps"}``, in version order) in notation, a turn a
    line, after the header ``tags`` if any. Raises ValueError for a step it cannot write exactly."""
    lines = [f'[{name} "{_escaped(name, value)}"]' for name, value in (tags or {}).items()]
    if lines:
        lines.append("")
    turns: list[tuple[int, list[list[dict]]]] = []
    for move in moves:
        if not isinstance(move["seat"], int) or not 1 <= move["seat"] <= 9:
            raise ValueError(f"a move is made by a seat (1 to 9): {move!r}")
        if turns and turns[-1][0] == move["seat"]:
            turns[-1][1].append(move["steps"])
        else:
            turns.append((move["seat"], [move["steps"]]))
    for number, (seat, versions) in enumerate(turns, start=1):
        told = " ; ".join(" ".join(map(write_step, steps)) or NO_STEP for steps in versions)
        lines.append(f"{number}. S{seat}: {told}")
    return "\n".join(lines) + "\n"


def write_step(step: dict) -> str:
    """One step as a token (``7R>3``, ``TRAITOR:9B@3>5``, ``claim:2,5``, ``draw:troop`` ...)."""
    kind = step.get("type")
    if kind not in _FIELDS or not set(step) <= _FIELDS[kind] | {"type"}:
        raise ValueError(f"not a Battle Line step the notation writes: {step!r}")
    if kind == "play":
        return _write_play(step)
    if kind == "claim":
        return "claim:" + (",".join(map(str, step["flags"])) or "-")
    if kind in ("draw", "scout_draw"):
        return f"{'draw' if kind == 'draw' else 'scout'}:{step['deck']}"
    if kind == "scout_return":
        return "return:" + (",".join(step["cards"]) if "cards" in step else HIDDEN)
    if kind == "mud_discard":
        return f"mud:{step['card']}@{step['flag']}"
    return kind  # pass, resign


def _write_play(step: dict) -> str:
    if any(step.get(k, 0) is None for k in ("flag", "target", "to_flag", "discard")) or \
            step.get("discard", True) is not True:
        raise ValueError(f"not a play as the engine records it (tactics.canonical): {step!r}")
    card = step["card"]
    if "target" in step:
        if "flag" in step or ("to_flag" in step and "discard" in step):
            raise ValueError(f"a play both at a flag and on a target: {step!r}")
        where = f">{step['to_flag']}" if "to_flag" in step else f">{DISCARD}" if "discard" in step else ""
        return f"{card}:{step['target']['card']}@{step['target']['flag']}{where}"
    if "to_flag" in step or "discard" in step:
        raise ValueError(f"a play moving no target: {step!r}")
    return f"{card}>{step['flag']}" if "flag" in step else card


def _escaped(name: str, value: str) -> str:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or any(ord(c) < 32 or c == "\x7f" for c in value):
        raise ValueError(f"a tag is a name and a one-line value: {name!r}")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def tags_for(game_id: str, seats: list[dict], result: dict | None) -> dict[str, str]:
    """The usual header: the game, each seat's name (``S1``, ``S2`` ...), and the result: the
    winning seat and the reason (``S1 (adjacent_flags)``), ``- (reason)`` without a winner, ``*``
    while the game runs."""
    tags = {"Game": game_id, **{f"S{s['seat']}": s.get("name") or s.get("player_id") or "" for s in seats}}
    if result is None:
        tags["Result"] = "*"
    else:
        winner = f"S{result['winner']}" if result.get("winner") is not None else "-"
        tags["Result"] = f"{winner} ({result.get('reason')})"
    return tags


# ---------------------------------------------------------------- reading

def read(text: str) -> list[dict]:
    """The moves a notation tells: ``[{"seat", "steps"}]``, one per version, the steps exactly as
    the engine records them. Raises NotationError (line, column, reason) on anything else."""
    return parse(text).moves


def parse(text: str) -> Notation:
    """The header tags and the moves of a notation (see :func:`read`)."""
    found = Notation()
    expected = 1
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("["):  # (a tag's value may hold a "#")
            if found.moves:
                raise NotationError(number, 1, Words(N_("a tag comes before the first turn")))
            found.tags.update(_read_tags(line.rstrip(), number))
            continue
        body = line.split("#", 1)[0].rstrip()  # "#" to the end of a line: a comment
        if not body.strip():
            continue
        turn = _TURN.match(body.lstrip())
        start = len(body) - len(body.lstrip())
        if turn is None:
            raise NotationError(number, start + 1, Words(N_('a turn begins with its number and seat, e.g. "12. S1:"')))
        if int(turn.group(1)) != expected:
            raise NotationError(number, start + 1, Words(N_("turn {found} where turn {expected} should be"),
                                                                  found=turn.group(1), expected=expected))
        expected += 1
        found.moves += _read_turn(body, start + turn.end(), int(turn.group(2)), number)
    return found


def _read_tags(body: str, number: int) -> dict[str, str]:
    tags: dict[str, str] = {}
    position = len(body) - len(body.lstrip())
    while position < len(body):
        tag = _TAG.match(body, position)
        if tag is None:
            raise NotationError(number, position + 1, Words(N_('a tag is a name and a quoted value, e.g. [Game "g_1"]')))
        tags[tag.group(1)] = re.sub(r"\\(.)", r"\1", tag.group(2))
        position = tag.end()
    return tags


def _read_turn(body: str, position: int, seat: int, number: int) -> list[dict]:
    versions: list[list[tuple[int, str]]] = [[]]
    ends = []  # the column where each version ends (its ";", or the end of the line)
    for token in re.finditer(r";|[^\s;]+", body[position:]):
        if token.group() == ";":
            versions.append([])
            ends.append(position + token.start() + 1)
        else:
            versions[-1].append((position + token.start() + 1, token.group()))
    ends.append(len(body) + 1)
    moves = []
    for tokens, end in zip(versions, ends):
        if not tokens:
            raise NotationError(number, end, Words(N_('a version without steps is written "-"')))
        if [word for _column, word in tokens] == [NO_STEP]:
            moves.append({"seat": seat, "steps": []})
            continue
        moves.append({"seat": seat, "steps": [read_step(word, number, column) for column, word in tokens]})
    return moves


def read_step(token: str, line: int = 1, column: int = 1) -> dict:
    """The step one token tells (see :func:`write_step`)."""
    lower = token.lower()
    if lower in ("pass", "resign"):
        return {"type": lower}
    if (match := _TOKENS["claim"].fullmatch(token)) is not None:
        flags = [] if match.group(1) == "-" else [int(f) for f in match.group(1).split(",")]
        return {"type": "claim", "flags": flags}
    if (match := _TOKENS["draw"].fullmatch(token)) is not None:
        kind = "draw" if match.group(1).lower() == "draw" else "scout_draw"
        return {"type": kind, "deck": match.group(2).lower()}
    if (match := _TOKENS["return"].fullmatch(token)) is not None:
        if match.group(1) == HIDDEN:
            return {"type": "scout_return"}
        cards = [c for c in (match.group(2), match.group(3)) if c is not None]
        return {"type": "scout_return", "cards": [_card(c, token, line, column) for c in cards]}
    if (match := _TOKENS["mud"].fullmatch(token)) is not None:
        return {"type": "mud_discard", "flag": int(match.group(2)), "card": _card(match.group(1), token, line, column)}
    if (match := _TOKENS["guile"].fullmatch(token)) is not None:
        card, target, flag, to_flag, discard = match.groups()
        step = {"type": "play", "card": _card(card, token, line, column),
                "target": {"flag": int(flag), "card": _card(target, token, line, column)}}
        if to_flag is not None:
            step["to_flag"] = int(to_flag)
        elif discard is not None:
            step["discard"] = True
        return step
    if (match := _TOKENS["play"].fullmatch(token)) is not None:
        step = {"type": "play", "card": _card(match.group(1), token, line, column)}
        if match.group(2) is not None:
            step["flag"] = int(match.group(2))
        return step
    raise NotationError(line, column, Words(N_("{token} is not a step (e.g. 7R>3, DESERTER:9B@3, claim:2,5, "
                                               "draw:troop, pass)"), token=Quoted(token)))


def _card(word: str, token: str, line: int, column: int) -> str:
    card = word.upper()
    if not is_card(card):
        raise NotationError(line, column + token.upper().find(card), Words(
            N_("{word} is not a card (write troops as 7R, 10P; tactics by name)"), word=Quoted(word)))
    return card


__all__ = ["NotationError", "Notation", "parse", "read", "read_step", "tags_for", "write", "write_step"]
