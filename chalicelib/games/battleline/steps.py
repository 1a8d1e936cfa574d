"""Battle Line's step types, each said once (``games.steptypes``): its shape as clients post
it (``api.md`` fixes these names), its text command for play by email and the CLI, its words,
and the event that records it. Whether a step is legal now is the turn flow's business
(``turns.py``, ``tactics.py``).

Text commands (one a line; case does not matter; everything from a quoted reply, lines
starting with ">" or "On ... wrote:", or a signature "-- " on is ignored):

    play 7R 3                 a troop or morale tactic at flag 3; FOG / MUD at a flag
    play SCOUT                then: scout troop, scout tactics (three times), return 7R 8R
    play DESERTER 3 9B        the opponent's 9B at flag 3
    play TRAITOR 3 9B 5       ... to your flag 5
    play REDEPLOY 3 9B 5      your 9B at flag 3 to flag 5; play REDEPLOY 3 9B discard
    claim 3 5 / claim none    draw troop / draw tactics
    pass / resign / mud 4 2G  (a Mud discard at flag 4)
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from ...kernel.i18n import N_, Nn_
from ..base import Quoted, Words
from ...kernel.shapes import STRICT, Shape
from ..steptypes import CommandError, StepTable, StepType, Unreadable
from .cards import Card

HELP = __doc__.split("\n\n")[2].rstrip()
FlagNumber = Annotated[int, Field(ge=1, le=9)]
Deck = Literal["troop", "tactics"]


class _Step(Shape):
    model_config = STRICT


class CardOnFlag(_Step):
    flag: FlagNumber
    card: Card


class PlayStep(_Step):
    """Play a card: a troop or morale tactic into a slot (``flag``), FOG/MUD at a flag, or a
    guile tactic (``target``/``to_flag`` for DESERTER, TRAITOR, REDEPLOY; nothing for SCOUT).
    REDEPLOY discards its target with ``"discard": true`` instead of ``to_flag`` (a null or
    absent ``to_flag`` discards too). A field sent as null is the same as one left out."""

    type: Literal["play"]
    card: Card
    flag: FlagNumber | None = None
    target: CardOnFlag | None = None
    to_flag: FlagNumber | None = None
    # A boolean in the schema (a generator reads an enum of [true] as the string "true"); only
    # true means anything, and false is refused below.
    discard: bool | None = Field(
        None, description="REDEPLOY only: true discards the target card instead of moving it (not with to_flag). "
                          "Only true: to move the card, give to_flag and leave discard out.")

    @model_validator(mode="after")
    def _moves_or_discards(self) -> "PlayStep":
        """A card moved (``to_flag``) is not discarded: a step naming both says two things; and
        ``discard: false`` asks for nothing."""
        if self.discard is False:
            raise PydanticCustomError("discard_false", "discard is only ever true: to move the card, give to_flag")
        if self.discard and self.to_flag is not None:
            raise PydanticCustomError("move_or_discard",
                                      "give to_flag (move the card) or discard: true (discard it), not both")
        return self


class ClaimStep(_Step):
    """Claim these flags; an empty list claims nothing."""

    type: Literal["claim"]
    flags: list[FlagNumber] = Field(max_length=9)


class DrawStep(_Step):
    type: Literal["draw"]
    deck: Deck


class PassStep(_Step):
    """Play nothing: allowed only when no troop can be played."""

    type: Literal["pass"]


class ResignStep(_Step):
    type: Literal["resign"]


class ScoutDrawStep(_Step):
    type: Literal["scout_draw"]
    deck: Deck


class ScoutReturnStep(_Step):
    """Put cards back on top of their decks; the last one named ends on top."""

    type: Literal["scout_return"]
    cards: list[Card] = Field(min_length=1, max_length=2)


class MudDiscardStep(_Step):
    type: Literal["mud_discard"]
    flag: FlagNumber
    card: Card


def discards(step: dict) -> bool:
    """Does this play discard a card REDEPLOY takes? ``"discard": true`` says so, and so does
    a REDEPLOY with no (or a null) ``to_flag``."""
    return step.get("card") == "REDEPLOY" and step.get("to_flag") is None


# ---------------------------------------------------------------- the words of a command

def _card(word: str) -> str:
    card = word.upper()
    if not re.fullmatch(r"(10|[1-9])[ROYGBP]|[A-Z]+", card):
        raise CommandError(N_('{word} is not a card (write troops as 7R, 10P; tactics by name)'), word=Quoted(word))
    return card


def _flag(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 9:
        raise CommandError(N_('{word} is not a flag (1 to 9)'), word=Quoted(word))
    return int(word)


def _deck(word: str) -> str:
    if word.lower() not in ("troop", "tactics", "troops", "tactic"):
        raise CommandError(N_("{word} is not a deck ({troop} or {tactics})"), word=Quoted(word),
                           troop=STEPS.say("troop"), tactics=STEPS.say("tactics"))
    return "troop" if word.lower().startswith("troop") else "tactics"


def _count(words: list[str], *counts: int, example: dict | None = None) -> list[str]:
    if len(words) not in counts:
        raise Unreadable(example=example)
    return words


# ---------------------------------------------------------------- play

EXAMPLE_PLAY = {"type": "play", "card": "7R", "flag": 3}


def _read_play(words: list[str]) -> dict:
    if not words:
        raise Unreadable(example=EXAMPLE_PLAY)
    if len(words) == 2 and words[0].isdigit() and not words[1].isdigit():
        words = words[::-1]  # the flag first: "3 7R" ("フラッグ3に7Rを出す")
    card, args = _card(words[0]), words[1:]
    if card == "SCOUT" and not args:
        return {"type": "play", "card": card}
    if card == "DESERTER" and len(args) == 2:
        return {"type": "play", "card": card, "target": {"flag": _flag(args[0]), "card": _card(args[1])}}
    if card in ("TRAITOR", "REDEPLOY") and len(args) == 3:
        target = {"flag": _flag(args[0]), "card": _card(args[1])}
        if card == "REDEPLOY" and args[2].lower() == "discard":
            return {"type": "play", "card": card, "target": target, "discard": True}
        return {"type": "play", "card": card, "target": target, "to_flag": _flag(args[2])}
    if card == "REDEPLOY" and len(args) == 2:
        raise Unreadable(N_("say where REDEPLOY puts the card, e.g. {move} or {discard}"),
                         move=Quoted(STEPS.say(f"play REDEPLOY {args[0]} {args[1]} 5")),
                         discard=Quoted(STEPS.say(f"play REDEPLOY {args[0]} {args[1]} discard")))
    if len(args) == 1:
        return {"type": "play", "card": card, "flag": _flag(args[0])}
    raise Unreadable(example=EXAMPLE_PLAY)


def _write_play(step: dict) -> str:
    if "target" in step:
        tail = " discard" if discards(step) else (f" {step['to_flag']}" if step.get("to_flag") else "")
        return f"play {step['card']} {step['target']['flag']} {step['target']['card']}{tail}"
    return f"play {step['card']}" + (f" {step['flag']}" if "flag" in step else "")


def _describe_play(step: dict) -> Words:
    if "target" in step:
        target = {"target": step["target"]["card"], "flag": step["target"]["flag"]}
        if discards(step):
            return Words(N_("play {card} to discard {target} at flag {flag}"), card=step["card"], **target)
        if step.get("to_flag"):
            return Words(N_("play {card} on {target} at flag {flag} to flag {to}"), card=step["card"],
                         to=step["to_flag"], **target)
        return Words(N_("play {card} on {target} at flag {flag}"), card=step["card"], **target)
    if "flag" in step:
        return Words(N_("play {card} at flag {flag}"), card=step["card"], flag=step["flag"])
    return Words(N_("play {card}"), card=step["card"])


PLAY = StepType(
    PlayStep, "play", read=_read_play, write=_write_play, describe=_describe_play,
    recorded=lambda data: {"type": "play", **{k: data[k] for k in ("card", "flag", "target", "to_flag", "discard")
                                              if k in data}}, kind=N_("plays"))


# ---------------------------------------------------------------- claim

def _read_claim(words: list[str]) -> dict:
    if [w.lower() for w in words] in ([], ["none"], ["nothing"], ["none", "none"]):
        return {"type": "claim", "flags": []}
    return {"type": "claim", "flags": [_flag(w.strip(",")) for w in words if w.strip(",")]}


CLAIM = StepType(
    ClaimStep, "claim", read=_read_claim,
    write=lambda step: "claim " + (" ".join(map(str, step["flags"])) or "none"),
    describe=lambda step: (Words(Nn_("claim flag {flags}", "claim flags {flags}"), n=len(step["flags"]),
                                 flags=[str(f) for f in step["flags"]]) if step["flags"] else Words(N_("claim nothing"))),
    # a claim made for the seat (auto-claim, or a stall) records no step
    recorded=lambda data: None if data.get("auto") else {"type": "claim", "flags": data["flags"]}, kind=N_("claims"))


# ---------------------------------------------------------------- drawing and scouting

def _draw_from(deck: str) -> Words:
    return Words({"troop": N_("draw from the troop deck"), "tactics": N_("draw from the tactics deck")}[deck])


EXAMPLE_DRAW = {"type": "draw", "deck": "troop"}
EXAMPLE_SCOUT = {"type": "scout_draw", "deck": "troop"}

DRAW = StepType(
    DrawStep, "draw", read=lambda words: {"type": "draw", "deck": _deck(_count(words, 1, example=EXAMPLE_DRAW)[0])},
    write=lambda step: f"draw {step['deck']}", describe=lambda step: _draw_from(step["deck"]),
    recorded=lambda data: {"type": "draw", "deck": data["deck"]}, kind=N_("draws"))

SCOUT_DRAW = StepType(
    ScoutDrawStep, "scout", read=lambda words: {"type": "scout_draw",
                                                "deck": _deck(_count(words, 1, example=EXAMPLE_SCOUT)[0])},
    write=lambda step: f"scout {step['deck']}", describe=lambda step: _draw_from(step["deck"]),
    recorded=lambda data: {"type": "scout_draw", "deck": data["deck"]}, kind=N_("Scout's draws"))

SCOUT_RETURN = StepType(
    ScoutReturnStep, "return", read=lambda words: {"type": "scout_return",
                                                   "cards": [_card(w) for w in _count(words, 1, 2)]},
    write=lambda step: "return " + " ".join(step["cards"]), describe=lambda step: Words(N_("return {cards}"), cards=list(step["cards"])),
    recorded=lambda data: {"type": "scout_return", "cards": data["cards"]}, kind=N_("Scout's returns"))

MUD_DISCARD = StepType(
    MudDiscardStep, "mud", read=lambda words: {"type": "mud_discard", "flag": _flag(_count(words, 2)[0]),
                                               "card": _card(words[1])},
    write=lambda step: f"mud {step['flag']} {step['card']}",
    describe=lambda step: Words(N_("discard {card} at flag {flag}"), card=step["card"], flag=step["flag"]),
    recorded=lambda data: {"type": "mud_discard", "flag": data["flag"], "card": data["card"]},
    kind=N_("discards at a Mud flag"))

PASS = StepType(PassStep, "pass", describe=lambda step: Words(N_("pass")), kind=N_("passing"))
RESIGN = StepType(ResignStep, "resign", describe=lambda step: Words(N_("resign")), kind=N_("resigning"))

STEPS = StepTable.of(PLAY, CLAIM, DRAW, PASS, RESIGN, SCOUT_DRAW, SCOUT_RETURN, MUD_DISCARD, game="battleline")
BattleLineStep = STEPS.schema

# Battle Line's commands told in the reader's language (the help of a reply that could not be read):
# each an example step, its command and its sentence.
HELP_STEPS = (
    {"type": "play", "card": "7R", "flag": 3}, {"type": "play", "card": "SCOUT"},
    {"type": "play", "card": "DESERTER", "target": {"flag": 3, "card": "9B"}},
    {"type": "play", "card": "TRAITOR", "target": {"flag": 3, "card": "9B"}, "to_flag": 5},
    {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"}, "to_flag": 5},
    {"type": "play", "card": "REDEPLOY", "target": {"flag": 3, "card": "9B"}, "discard": True},
    {"type": "claim", "flags": [3, 5]}, {"type": "claim", "flags": []},
    {"type": "draw", "deck": "troop"}, {"type": "draw", "deck": "tactics"},
    {"type": "scout_draw", "deck": "tactics"}, {"type": "scout_return", "cards": ["7R", "8R"]},
    {"type": "mud_discard", "flag": 4, "card": "2G"}, {"type": "pass"}, {"type": "resign"},
)
