"""Khan & General's step types, each said once (``games.steptypes``): its shape as clients
post it, its text command for play by email and the CLI, its words, and the event that
records it. Whether a step is legal now is the phases' business (``turns.PHASES``).
Squares are ``{"x": 0, "y": 1}`` (north is +y); facings are N, E, S, W; cards are card ids
of the game's card set.

Text commands (squares are x y; north is +y; facings N E S W):

    place heavy_cavalry          deploy light_cavalry -1 0 N
    flip 1 -1                    discard 0 0     (the defence command on the unit at 0 0)
    command charge 0 0 seq 1     command gallop 0 0     (cost 0: no sequence)
    pay lance                    pay lance seq 2        (into a new sequence, or sequence 2)
    move 0 0 to 1 2 E            turn 0 0 W             skip 0 0
    end action / end reaction / end engagements / end turn
    engage 0 1 with 0 0, 1 1     advance 0 0            stay
    offer draw / accept draw / decline draw / resign

One command a line; case does not matter; "(", ")" and "," read as spaces; everything from a
quoted reply (lines starting with ">", or "On ... wrote:") or a signature ("-- ") on is
ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Literal, get_args

from pydantic import Field

from ...kernel.shapes import STRICT, Shape
from ...kernel.i18n import N_
from ..base import Quoted, Words
from ..steptypes import CommandError, StepTable, StepType, Unreadable, words_of

HELP = __doc__.split("\n\n")[2]
# The asides of HELP, said in the reader's language where an email shows it (presenting.show.help_text).
HELP_ASIDES = (N_("the defence command on the unit at 0 0"), N_("cost 0: no sequence"),
               N_("into a new sequence, or sequence 2"))
CARD_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
Card = Annotated[str, Field(pattern=CARD_PATTERN, examples=["heavy_cavalry", "charge"],
                            description="A card id of the game's card set.")]
Facing = Literal["N", "E", "S", "W"]
Coordinate = Annotated[int, Field(ge=-1000, le=1000)]


class _Step(Shape):
    model_config = STRICT


class Square(_Step):
    x: Coordinate
    y: Coordinate


class PlaceStep(_Step):
    """Set-up: place your first unit face up (the first seat at (0, 0) facing N, the second at (0, 1) facing S)."""

    type: Literal["place"]
    unit: Card


class FlipStep(_Step):
    """Maintenance: turn one of your face-down units face up (facing kept)."""

    type: Literal["flip"]
    at: Square


class DiscardDefenceStep(_Step):
    """Maintenance or recovery: the defence command on your unit goes to your discard pile."""

    type: Literal["discard_defence"]
    at: Square


class DeployStep(_Step):
    """Action: a unit from your hand, face down, on an empty square around one of your face-up units
    and not next to an enemy unit."""

    type: Literal["deploy"]
    unit: Card
    at: Square
    facing: Facing


class CommandStep(_Step):
    """A command card face up onto your face-up unit that carries none, paid by ``sequence`` (the
    number, from 1, of a sequence holding exactly the card's cost in face-down cards; left out
    for cost 0). Move and attack commands in your action phase; defence commands then or in the
    reaction window."""

    type: Literal["command"]
    card: Card
    at: Square
    sequence: int | None = Field(None, ge=1, le=30)


class PayStep(_Step):
    """Action: a command card face down at the end of sequence ``sequence``, or as a new sequence
    when left out. One a turn."""

    type: Literal["pay"]
    card: Card
    sequence: int | None = Field(None, ge=1, le=30)


class MoveStep(_Step):
    """Use the unit's waiting ``mobility``: move it to ``to`` (the engine finds a path of empty
    squares) and face ``facing``."""

    type: Literal["move"]
    at: Square
    to: Square
    facing: Facing


class TurnStep(_Step):
    """Use the unit's waiting ``turn``: face ``facing``."""

    type: Literal["turn"]
    at: Square
    facing: Facing


class SkipStep(_Step):
    """Do not use the unit's waiting keyword."""

    type: Literal["skip"]
    at: Square


class EngageStep(_Step):
    """One engagement: your attackers (units carrying attack commands, with the target in range and
    an activation left) against the enemy unit at ``target``."""

    type: Literal["engage"]
    target: Square
    attackers: list[Square] = Field(min_length=1, max_length=5)


class AdvanceStep(_Step):
    """After a unit is destroyed: move a melee attacker of that engagement into its square (facing kept)."""

    type: Literal["advance"]
    at: Square


class StayStep(_Step):
    """After a unit is destroyed: leave its square empty."""

    type: Literal["stay"]


class EndActionStep(_Step):
    """End your action phase: the reaction window, then the engagements."""

    type: Literal["end_action"]


class EndReactionStep(_Step):
    """Play no more defence commands in this reaction window."""

    type: Literal["end_reaction"]


class EndEngagementsStep(_Step):
    """No more engagements: the after-combat keywords, then recovery."""

    type: Literal["end_engagements"]


class EndTurnStep(_Step):
    """Recovery: move and attack commands to the discard pile, the pile back to the hand; the turn
    passes. Skips what is left of the engagements and after-combat keywords."""

    type: Literal["end_turn"]


class OfferDrawStep(_Step):
    """Offer a draw; it stands until answered, or until your opponent plays on."""

    type: Literal["offer_draw"]


class AcceptDrawStep(_Step):
    """Accept your opponent's draw offer: the game is drawn."""

    type: Literal["accept_draw"]


class DeclineDrawStep(_Step):
    """Decline your opponent's draw offer."""

    type: Literal["decline_draw"]


class ResignStep(_Step):
    """Lose the game now."""

    type: Literal["resign"]


# ---------------------------------------------------------------- the words of a command

FACINGS = ("N", "E", "S", "W")
# A facing in a step's sentence, the story of a game and the board: the direction in full ("facing north").
FACING_WORDS = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}


def facing_told(code: str) -> Words | str:
    """A facing in words, said in the reader's language ("north", "北", "北向き"...)."""
    return Words(FACING_WORDS[code]) if code in FACING_WORDS else code


def _number(word: str) -> int:
    if not re.fullmatch(r"-?\d{1,4}", word):
        raise CommandError(N_('{word} is not a coordinate (a whole number, e.g. 0, 2 or -1)'), word=Quoted(word))
    return int(word)


def _square(words: list[str]) -> dict:
    if len(words) < 2:
        raise CommandError(N_("a square is written as two numbers, x then y"))
    return {"x": _number(words[0]), "y": _number(words[1])}


def _facing(word: str) -> str:
    if word.upper() not in FACINGS:
        raise CommandError(N_('{word} is not a facing (N, E, S or W)'), word=Quoted(word))
    return word.upper()


def _card(word: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", word.lower()):
        raise CommandError(N_('{word} is not a card id (e.g. heavy_cavalry, charge)'), word=Quoted(word))
    return word.lower()


def _sequence(words: list[str]) -> dict:
    if not words:
        return {}
    if len(words) == 2 and words[0].lower() in ("seq", "sequence") and words[1].isdigit():
        return {"sequence": int(words[1])}
    raise CommandError(N_("cannot read {words}: write the sequence as 'seq 2'"), words=Quoted(' '.join(words)))


def _count(words: list[str], wanted: int) -> list[str]:
    if len(words) != wanted:
        raise Unreadable()
    return words


def _at_least(words: list[str], wanted: int) -> list[str]:
    if len(words) < wanted:
        raise Unreadable()
    return words


def _xy(square: dict) -> str:
    return f"{square['x']} {square['y']}"


def _told(square: dict) -> str:
    return f"({square['x']}, {square['y']})"


def _seq(step: dict) -> str:
    return f" seq {step['sequence']}" if step.get("sequence") else ""


def _on_square(model: type[_Step], command: str, describe: Callable[[dict], str], *, kind: str,
               event: str | None = None, recorded_at: str = "at") -> StepType:
    """A step that names one square, ``at`` (``flip 1 -1``); its event names it ``recorded_at``."""
    name = get_args(model.model_fields["type"].annotation)[0]
    return StepType(
        model, command, read=lambda words: {"type": name, "at": _square(_count(words, 2))},
        write=lambda step: f"{command} {_xy(step['at'])}", describe=describe, event=event,
        recorded=lambda data: {"type": name, "at": data[recorded_at]}, kind=kind)


# ---------------------------------------------------------------- set-up and maintenance

PLACE = StepType(
    PlaceStep, "place", read=lambda words: {"type": "place", "unit": _card(_count(words, 1)[0])},
    write=lambda step: f"place {step['unit']}", describe=lambda step: Words(N_("place {unit} as your first unit"), unit=step["unit"]),
    recorded=lambda data: {"type": "place", "unit": data["unit"]}, kind=N_("placements"))

FLIP = _on_square(FlipStep, "flip", lambda step: Words(N_("flip the unit at {at} face up"), at=_told(step["at"])),
                  kind=N_("flips"))

DISCARD_DEFENCE = _on_square(DiscardDefenceStep, "discard",
                             lambda step: Words(N_("discard the defence command at {at}"), at=_told(step["at"])),
                             event="defence_discarded", kind=N_("discards of a defence command"))


# ---------------------------------------------------------------- the action phase

def _read_deploy(words: list[str]) -> dict:
    unit, x, y, facing = _count(words, 4)
    return {"type": "deploy", "unit": _card(unit), "at": _square([x, y]), "facing": _facing(facing)}


DEPLOY = StepType(
    DeployStep, "deploy", read=_read_deploy,
    write=lambda step: f"deploy {step['unit']} {_xy(step['at'])} {step['facing']}",
    describe=lambda step: Words(N_("deploy {unit} face down at {at}, facing {facing}"), unit=step["unit"],
                                  at=_told(step["at"]), facing=facing_told(step["facing"])),
    recorded=lambda data: {"type": "deploy", "unit": data["unit"], "at": data["at"], "facing": data["facing"]},
    kind=N_("deployments"))


def _read_command(words: list[str]) -> dict:
    _at_least(words, 3)
    return {"type": "command", "card": _card(words[0]), "at": _square(words[1:3]), **_sequence(words[3:])}


def _describe_command(step: dict) -> Words:
    if step.get("sequence"):
        return Words(N_("command the unit at {at} with {card}, paid by sequence {sequence}"), at=_told(step["at"]),
                     card=step["card"], sequence=step["sequence"])
    return Words(N_("command the unit at {at} with {card}"), at=_told(step["at"]), card=step["card"])


COMMAND = StepType(
    CommandStep, "command", read=_read_command,
    write=lambda step: f"command {step['card']} {_xy(step['at'])}{_seq(step)}", describe=_describe_command,
    recorded=lambda data: {"type": "command", "card": data["card"], "at": data["at"],
                           "sequence": data.get("sequence")}, kind=N_("commands"))


def _describe_pay(step: dict) -> Words:
    if step.get("sequence"):
        return Words(N_("pay {card} face down into sequence {sequence}"), card=step["card"], sequence=step["sequence"])
    return Words(N_("pay {card} face down into a new sequence"), card=step["card"])


PAY = StepType(
    PayStep, "pay",
    read=lambda words: {"type": "pay", "card": _card(_at_least(words, 1)[0]), **_sequence(words[1:])},
    write=lambda step: f"pay {step['card']}{_seq(step)}", describe=_describe_pay,
    # a sequence of one card is a new one
    recorded=lambda data: {"type": "pay", "card": data["card"], "sequence": data["sequence"] if data["size"] > 1 else None},
    kind=N_("payments"))


# ---------------------------------------------------------------- keywords

def _read_move(words: list[str]) -> dict:
    if len(words) != 6 or words[2].lower() != "to":
        raise Unreadable()
    return {"type": "move", "at": _square(words[0:2]), "to": _square(words[3:5]), "facing": _facing(words[5])}


MOVE = StepType(
    MoveStep, "move", read=_read_move,
    write=lambda step: f"move {_xy(step['at'])} to {_xy(step['to'])} {step['facing']}",
    describe=lambda step: Words(N_("move the unit at {at} to {to} facing {facing}"), at=_told(step["at"]),
                                  to=_told(step["to"]), facing=facing_told(step["facing"])),
    recorded=lambda data: {"type": "move", "at": data["from"], "to": data["to"], "facing": data["facing"]},
    kind=N_("moves"))

TURN = StepType(
    TurnStep, "turn",
    read=lambda words: {"type": "turn", "at": _square(_count(words, 3)[0:2]), "facing": _facing(words[2])},
    write=lambda step: f"turn {_xy(step['at'])} {step['facing']}",
    describe=lambda step: Words(N_("turn the unit at {at} to face {facing}"), at=_told(step["at"]),
                                  facing=facing_told(step["facing"])),
    recorded=lambda data: {"type": "turn", "at": data["at"], "facing": data["facing"]}, kind=N_("turns"))

SKIP = _on_square(SkipStep, "skip", lambda step: Words(N_("skip the waiting keyword of the unit at {at}"), at=_told(step["at"])),
                  kind=N_("skips of a waiting keyword"))


# ---------------------------------------------------------------- engagements

def _read_engage(words: list[str]) -> dict:
    if len(words) < 5 or words[2].lower() != "with" or len(words[3:]) % 2:
        raise Unreadable()
    attackers = [_square(words[i:i + 2]) for i in range(3, len(words), 2)]
    return {"type": "engage", "target": _square(words[0:2]), "attackers": attackers}


ENGAGE = StepType(
    EngageStep, "engage", read=_read_engage,
    write=lambda step: f"engage {_xy(step['target'])} with " + ", ".join(_xy(a) for a in step["attackers"]),
    describe=lambda step: Words(N_("attack {target} with {attackers}"), target=_told(step["target"]),
                                  attackers=[_told(a) for a in step["attackers"]]),
    event="engagement", recorded=lambda data: {"type": "engage", "target": data["target"],
                                               "attackers": data["attackers"]},
    kind=N_("attacks"))

ADVANCE = _on_square(AdvanceStep, "advance",
                     lambda step: Words(N_("advance the unit at {at} into the empty square"), at=_told(step["at"])), recorded_at="from",
                     kind=N_("advances"))


def _told_as(template: str) -> Callable[[dict], Words]:
    """A step with nothing but its type, in words (marked for translation)."""
    return lambda step: Words(template)


# ---------------------------------------------------------------- the table
#
# A step with nothing but its type is read, written and told by its command ("end action");
# its event records it. A ``draw_declined`` written because the seat played on replays as a
# ``decline_draw`` just before its step: the same events, the same state.

STEPS = StepTable.of(
    PLACE, FLIP, DISCARD_DEFENCE, DEPLOY, COMMAND, PAY, MOVE, TURN, SKIP, ENGAGE, ADVANCE,
    StepType(StayStep, "stay", describe=_told_as(N_("stay (no unit advances)")), kind=N_("staying put")),
    StepType(EndActionStep, "end action", event="action_ended", describe=_told_as(N_("end the action phase")),
             kind=N_("ending the action phase")),
    StepType(EndReactionStep, "end reaction", event="reaction_ended", describe=_told_as(N_("end the reaction window")),
             kind=N_("ending the reaction window")),
    StepType(EndEngagementsStep, "end engagements", event="engagements_ended",
             describe=_told_as(N_("end the engagements")), kind=N_("ending the engagements")),
    StepType(EndTurnStep, "end turn", event="turn_ended", describe=_told_as(N_("end the turn")), kind=N_("ending the turn")),
    StepType(OfferDrawStep, "offer draw", event="draw_offered", describe=_told_as(N_("offer a draw")), kind=N_("draw offers")),
    StepType(AcceptDrawStep, "accept draw", event="draw_accepted", describe=_told_as(N_("accept the draw")),
             kind=N_("accepting the draw")),
    StepType(DeclineDrawStep, "decline draw", event="draw_declined", describe=_told_as(N_("decline the draw")),
             kind=N_("declining the draw")),
    StepType(ResignStep, "resign", describe=_told_as(N_("resign")), kind=N_("resigning")),
    split=lambda line: words_of(line, separators=("(", ")", ",")), game="khan")
KhanStep = STEPS.schema
