"""Khan & General's cards as data: the card-set file schema, its checks, and the registry.

A card set is a JSON file (``cardsets/<id>.v<version>.json``; see ``khan-default.v1.json``)
with the two factions, their unit types (base power, melee, ranged area), their command
cards (kind, cost, unit types, ordered keywords) and each faction's recommended deck. A
designer adds a file, and games can use it: no code changes. A file that does not pass
the checks is refused, with one message per fault naming the entry (``commands[charge]
.keywords[1]: ...``); ``make check-card-set FILE=...`` shows them.

Versions are immutable: a game records the id, version and digest of its card set, and
a file changed under a game in progress is refused rather than silently changing it.

Names are presentation, not rules: ``name`` is the English one, and an optional ``names`` map
gives the set, a faction, a unit or a command its name in another language the server speaks
(``{"zh-Hans": "重骑兵", "ja": "重騎兵", "vi": "Kỵ binh nặng"}``; an ``en`` entry overrides
``name`` for English readers). ``names`` is left out of the digest: names can be added or
corrected in a published version without changing the games that use it.

Keywords are written as text, in the card's order: ``power +2``, ``melee``, ``ranged``,
``flank +1``, ``activate 2``, ``mobility 3``, ``turn``, ``trigger 2``, ``grapple``,
``counter``, ``coordinate +2``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from ...kernel.i18n import LANGUAGES

from ...kernel.i18n import N_, Nn_
from ..base import RulesUnavailable, Words

logger = logging.getLogger("battleline.khan.cardsets")

HERE = Path(__file__).resolve().parent / "cardsets"
EXTRA_DIR_VARIABLE = "KHAN_CARD_SETS_DIR"  # a folder of the designer's own card-set files

DECK_UNITS = 5
DECK_COMMANDS = 10
MAX_SAME_UNIT = 3
MAX_SAME_COMMAND = 2

# name -> how its number is written: None (no number), "count" (N >= 1), "plus" (+N), "signed" (+N or -N)
KEYWORDS: dict[str, str | None] = {
    "power": "signed", "melee": None, "ranged": None, "flank": "plus", "activate": "count",
    "mobility": "count", "turn": None, "trigger": "count", "grapple": None, "counter": None,
    "coordinate": "plus",
}
# A keyword in words, as a player reads it on a card ("power +2", "melee"; the rule books' terms).
KEYWORD_WORDS: dict[str, str] = {
    "power": N_("power {value}"), "melee": N_("melee"), "ranged": N_("ranged"), "flank": N_("flank {value}"),
    "activate": N_("activate {value}"), "mobility": N_("mobility {value}"), "turn": N_("turn"),
    "trigger": N_("trigger {value}"), "grapple": N_("grapple"), "counter": N_("counter"),
    "coordinate": N_("coordinate {value}"),
}
KIND_KEYWORDS = {  # which keywords make sense on which kind of command
    "move": {"mobility", "turn"},
    "attack": {"power", "melee", "ranged", "flank", "activate", "mobility", "turn", "grapple", "coordinate"},
    "defend": {"power", "turn", "mobility", "trigger", "grapple", "counter"},
}

CardId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$", description="lower_snake_case")]


class CardSetError(ValueError):
    """A card-set file that does not pass the checks: ``problems`` holds one message per fault."""

    def __init__(self, source: str, problems: list[str]) -> None:
        super().__init__(f"{source}: " + "; ".join(problems))
        self.source = source
        self.problems = problems


# ---------------------------------------------------------------- keywords

@dataclass(frozen=True)
class Keyword:
    name: str
    value: int | None = None

    def words(self) -> Words:
        """The keyword as a player reads it (``i18n.say``: in the language spoken)."""
        return keyword_words(self.name, self.value)

    def __str__(self) -> str:
        if self.value is None:
            return self.name
        sign = "+" if KEYWORDS[self.name] in ("plus", "signed") and self.value >= 0 else ""
        return f"{self.name} {sign}{self.value}"


def keyword_words(name: str, value: int | None = None) -> Words:
    """A keyword and its number in words: "power +2", "mobility 3", "melee" (Words: translated when said)."""
    template = KEYWORD_WORDS.get(name)
    if template is None:
        return Words(name if value is None else f"{name} {value}")
    if "{value}" not in template:
        return Words(template)
    sign = "+" if KEYWORDS[name] in ("plus", "signed") and value is not None and value >= 0 else ""
    return Words(template, value="" if value is None else f"{sign}{value}")


_KEYWORD_TEXT = re.compile(r"^\s*([a-z]+)\s*(?:([+-]?)(\d{1,2}))?\s*$")


def parse_keyword(text: Any) -> Keyword:
    if isinstance(text, Keyword):
        return text
    if not isinstance(text, str):
        raise ValueError("a keyword is written as text, e.g. \"power +2\" or \"melee\"")
    found = _KEYWORD_TEXT.match(text)
    if not found or found.group(1) not in KEYWORDS:
        raise ValueError(f"{text!r} is not a keyword; the keywords are {', '.join(KEYWORDS)}")
    name, sign, number = found.groups()
    form = KEYWORDS[name]
    if form is None:
        if number is not None:
            raise ValueError(f"{name!r} takes no number")
        return Keyword(name)
    if number is None:
        example = {"signed": "+2", "plus": "+1", "count": "2"}[form]
        raise ValueError(f"{name!r} needs a number, e.g. \"{name} {example}\"")
    value = int(number) * (-1 if sign == "-" else 1)
    if form == "count" and (sign or value < 1):
        raise ValueError(f"{name!r} takes a count of 1 or more without a sign, e.g. \"{name} 2\"")
    if form == "plus" and sign != "+":
        raise ValueError(f"{name!r} takes a bonus written with +, e.g. \"{name} +1\"")
    if form == "signed" and not sign:
        raise ValueError(f"{name!r} takes a signed number, e.g. \"{name} +2\" or \"{name} -1\"")
    return Keyword(name, value)


KeywordText = Annotated[Keyword, BeforeValidator(parse_keyword)]


# ---------------------------------------------------------------- the file's schema

def _check_names(names: dict[str, str] | None) -> dict[str, str] | None:
    """Each key a language of the server (``zh-Hans``, not ``zh`` or ``zh_Hans``)."""
    wrong = []
    for key in names or {}:
        if key not in LANGUAGES:
            stem = key.lower().replace("_", "-").split("-")[0]
            near = next((code for code in LANGUAGES if stem and code.lower().split("-")[0] == stem), None)
            wrong.append(f"{key!r}" + (f" (did you mean {near!r}?)" if near else ""))
    if wrong:
        raise ValueError(f"{', '.join(wrong)} {'is not a language' if len(wrong) == 1 else 'are not languages'} "
                         f"of this server; the languages are {', '.join(LANGUAGES)}")
    return names


Names = Annotated[
    Union[dict[str, Annotated[str, Field(min_length=1, max_length=80)]], None], AfterValidator(_check_names),
    Field(description="The name in other languages, by language code (en, zh-Hans, ja, vi); not part of "
                      "the digest.")]
NAMES_LEFT_OUT = {"names": True, **{group: {"__all__": {"names"}} for group in ("factions", "units", "commands")}}


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    def named(self, language: str) -> str | None:
        """The entry's name in ``language`` when its ``names`` give one."""
        names = getattr(self, "names", None) or {}
        return names.get(language)


class Faction(_Entry):
    id: CardId
    name: str = Field(min_length=1, max_length=80)
    names: Names = None


class RangedArea(_Entry):
    """The squares a unit shoots at, in its own frame: ``forward`` distance from..to ahead of it,
    and at most ``side`` squares to either side."""

    forward: tuple[int, int] = Field(description="[nearest, farthest] squares ahead, 1 or more")
    side: int = Field(ge=0, le=5)

    def offsets(self) -> list[tuple[int, int]]:
        """(sideways, forward) offsets in the unit's frame."""
        near, far = self.forward
        return [(s, f) for f in range(near, far + 1) for s in range(-self.side, self.side + 1)]


class UnitType(_Entry):
    id: CardId
    faction: CardId
    name: str = Field(min_length=1, max_length=80)
    names: Names = None
    base: int = Field(ge=0, le=20, description="Base power.")
    melee: bool = Field(description="Can attack the square in front of it.")
    ranged: RangedArea | None = Field(None, description="Its ranged area, or null.")


class Command(_Entry):
    id: CardId
    faction: CardId
    name: str | None = Field(None, max_length=80)
    names: Names = None
    kind: Literal["move", "defend", "attack"]
    cost: int = Field(ge=0, le=3)
    units: Union[Literal["all"], list[CardId]] = Field(description="The unit types that may execute it, or \"all\".")
    keywords: list[KeywordText] = Field(max_length=12, description="In the card's order, e.g. [\"power +2\", \"melee\"].")

    @cached_property
    def _values(self) -> dict[str, int]:
        """Each keyword name on the card, with the sum of its numbers (asked by the engine at every step)."""
        values: dict[str, int] = {}
        for k in self.keywords:
            values[k.name] = values.get(k.name, 0) + (k.value or 0)
        return values

    def has(self, name: str) -> bool:
        return name in self._values

    def value(self, name: str) -> int:
        """The sum of the card's ``name`` keywords' numbers (0 without one)."""
        return self._values.get(name, 0)

    @cached_property
    def power(self) -> int:
        return self.value("power")

    def split(self) -> tuple[list[Keyword], list[Keyword]]:
        """The keywords before and after ``power`` (all are *before* on a card without power)."""
        names = [k.name for k in self.keywords]
        if "power" not in names:
            return list(self.keywords), []
        cut = names.index("power")
        return list(self.keywords[:cut]), list(self.keywords[cut + 1:])

    def executable_by(self, unit: UnitType) -> bool:
        return unit.faction == self.faction and (self.units == "all" or unit.id in self.units)


class CardSetFile(_Entry):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]{0,39}$")
    version: int = Field(ge=1)
    name: str = Field(min_length=1, max_length=120)
    names: Names = None
    factions: list[Faction] = Field(min_length=2, max_length=2)
    units: list[UnitType] = Field(min_length=1)
    commands: list[Command] = Field(min_length=1)
    recommended: dict[str, list[CardId]] = Field(description="Each faction's recommended deck: 15 card ids.")


# ---------------------------------------------------------------- the validated set

@dataclass(frozen=True)
class CardSet:
    id: str
    version: int
    name: str
    digest: str
    factions: tuple[Faction, ...]
    units: dict[str, UnitType]
    commands: dict[str, Command]
    recommended: dict[str, tuple[str, ...]]
    source: str = ""
    data: dict = field(default_factory=dict, compare=False, repr=False)
    names: dict[str, str] = field(default_factory=dict, compare=False, repr=False)  # the set's name by language

    def named(self, language: str) -> str | None:
        """The set's name in ``language`` when its ``names`` give one."""
        return self.names.get(language)

    @property
    def faction_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.factions)

    def is_unit(self, card_id: str) -> bool:
        return card_id in self.units

    def deck_problems(self, deck: list[str], faction: str) -> list[Words]:
        """Why a deck is not a legal deck of ``faction`` (empty when it is)."""
        return deck_problems(deck, faction, self.units, self.commands)


def deck_problems(deck: list[str], faction: str, units: dict[str, UnitType], commands: dict[str, Command]) -> list[Words]:
    """Why a deck is not a legal deck of ``faction`` (empty when it is), each problem in Words (the
    API says them in the request's language; a card-set file's checks, in English)."""
    problems = []
    unknown = sorted({c for c in deck if c not in units and c not in commands})
    if unknown:
        return [Words(Nn_("{cards} is not a card of this card set", "{cards} are not cards of this card set"),
                      n=len(unknown), cards=unknown)]
    foreign = sorted({c for c in deck if (units.get(c) or commands.get(c)).faction != faction})
    if foreign:
        problems.append(Words(Nn_("{cards} is not a {faction} card", "{cards} are not {faction} cards"),
                              n=len(foreign), cards=foreign, faction=faction))
    unit_cards = [c for c in deck if c in units]
    command_cards = [c for c in deck if c in commands]
    if len(unit_cards) != DECK_UNITS:
        problems.append(Words(N_("a deck has exactly {count} unit cards, not {found}"), count=DECK_UNITS,
                              found=len(unit_cards)))
    if len(command_cards) != DECK_COMMANDS:
        problems.append(Words(N_("a deck has exactly {count} command cards, not {found}"), count=DECK_COMMANDS,
                              found=len(command_cards)))
    for card, count in sorted(Counter(unit_cards).items()):
        if count > MAX_SAME_UNIT:
            problems.append(Words(N_("at most {most} units of one type: {count} × {card}"), most=MAX_SAME_UNIT,
                                  count=count, card=card))
    for card, count in sorted(Counter(command_cards).items()):
        if count > MAX_SAME_COMMAND:
            problems.append(Words(N_("at most {most} copies of a command: {count} × {card}"), most=MAX_SAME_COMMAND,
                                  count=count, card=card))
    return problems


def field_path(data: Any, loc: tuple) -> str:
    """A pydantic error location as a path a designer can find: ``commands[charge].keywords[1]``."""
    parts: list[str] = []
    node = data
    for step in loc:
        if isinstance(step, int):
            name = node[step].get("id") if isinstance(node, list) and step < len(node) and isinstance(
                node[step], dict) and isinstance(node[step].get("id"), str) else None
            parts[-1:] = [f"{parts[-1] if parts else ''}[{name or step}]"]
            node = node[step] if isinstance(node, list) and step < len(node) else None
        else:
            if "function" in str(step):  # a validator's name in the path, not a field
                continue
            parts.append(str(step))
            node = node.get(step) if isinstance(node, dict) else None
    return ".".join(parts) or "the file"


def _ids_used_twice(data: Any) -> list[str]:
    """Each id given to two cards (units and commands share one space of ids), read from the file as it is:
    said with the schema's faults too, so that one reading of a file tells every fault."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for group in ("units", "commands"):
        entries = data.get(group) if isinstance(data, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            card = entry.get("id") if isinstance(entry, dict) else None
            if not isinstance(card, str):
                continue
            if card in seen:
                problems.append(f"{group}[{card}]: the id {card!r} is used twice (also in {seen[card]})")
            seen.setdefault(card, group)
    return problems


def _cross_checks(cs: CardSetFile) -> list[str]:
    problems: list[str] = []
    factions = [f.id for f in cs.factions]
    if len(set(factions)) != 2:
        problems.append("factions: the two factions need different ids")
    problems += _ids_used_twice(cs.model_dump(include={"units", "commands"}))
    for group, entries in (("units", cs.units), ("commands", cs.commands)):
        for entry in entries:
            if entry.faction not in factions:
                problems.append(f"{group}[{entry.id}].faction: {entry.faction!r} is not one of the factions "
                                f"({', '.join(factions)})")
    units = {u.id: u for u in cs.units}
    for unit in cs.units:
        if unit.ranged is not None:
            near, far = unit.ranged.forward
            if not 1 <= near <= far <= 10:
                problems.append(f"units[{unit.id}].ranged.forward: write [nearest, farthest] with "
                                f"1 <= nearest <= farthest <= 10, not {[near, far]}")
    for command in cs.commands:
        where = f"commands[{command.id}]"
        if command.units != "all":
            if not command.units:
                problems.append(f"{where}.units: name at least one unit type, or \"all\"")
            for unit_id in command.units:
                unit = units.get(unit_id)
                if unit is None:
                    problems.append(f"{where}.units: {unit_id!r} is not a unit type of this card set")
                elif unit.faction != command.faction:
                    problems.append(f"{where}.units: {unit_id} is a {unit.faction} unit, the card is {command.faction}")
                elif command.has("melee") and not command.has("ranged") and not unit.melee:
                    problems.append(f"{where}.units: {unit_id} cannot fight in melee, and the card is a melee attack")
                elif command.has("ranged") and not command.has("melee") and unit.ranged is None:
                    problems.append(f"{where}.units: {unit_id} has no ranged area, and the card is a ranged attack")
        names = [k.name for k in command.keywords]
        for index, keyword in enumerate(command.keywords):
            if keyword.name not in KIND_KEYWORDS[command.kind]:
                problems.append(f"{where}.keywords[{index}]: {keyword.name!r} does not belong on a {command.kind} "
                                f"command (it may carry {', '.join(sorted(KIND_KEYWORDS[command.kind]))})")
        for name, count in Counter(names).items():
            if count > 1:
                problems.append(f"{where}.keywords: {name!r} appears {count} times; write it once")
        if command.kind == "attack" and not ({"melee", "ranged"} & set(names)):
            problems.append(f"{where}.keywords: an attack command needs melee or ranged")
    for faction in factions:  # the deck's limits, before the recommended decks that break them
        kinds = sum(1 for u in cs.units if u.faction == faction)
        orders = sum(1 for c in cs.commands if c.faction == faction)
        if kinds * MAX_SAME_UNIT < DECK_UNITS or orders * MAX_SAME_COMMAND < DECK_COMMANDS:
            problems.append(f"factions[{faction}]: no deck can hold this faction's cards: a deck holds "
                            f"{DECK_UNITS} units (at most {MAX_SAME_UNIT} of a type) and {DECK_COMMANDS} commands "
                            f"(at most {MAX_SAME_COMMAND} of a card), and the faction has {kinds} unit "
                            f"type{'' if kinds == 1 else 's'} and {orders} command{'' if orders == 1 else 's'}")
    for faction, deck in cs.recommended.items():
        if faction not in factions:
            problems.append(f"recommended[{faction}]: {faction!r} is not one of the factions")
            continue
        for problem in deck_problems(deck, faction, units, {c.id: c for c in cs.commands}):
            problems.append(f"recommended[{faction}]: {problem}")
    for faction in factions:
        if faction not in cs.recommended:
            problems.append(f"recommended: give the {faction} faction a recommended deck")
    return problems


def _attack_modes(command: Command, unit: UnitType) -> list[str]:
    """The ways this unit can strike with this attack card: melee, ranged, both or neither."""
    return [mode for mode, able in (("melee", unit.melee), ("ranged", unit.ranged is not None)) if command.has(mode) and able]


def warnings(card_set: CardSet) -> list[str]:
    """What a valid card set allows but a designer most likely did not mean, one message per
    finding, naming the entry and the field: a unit whose power a card takes below 0, an attack
    card that some unit allowed to carry it out cannot use (``"units": "all"`` on a melee card
    lets archers take it), a keyword a unit can never use, a card no unit of its faction can use."""
    found: list[str] = []
    for command in card_set.commands.values():
        where = f"commands[{command.id}]"
        able = [u for u in card_set.units.values() if command.executable_by(u)]
        power = next((i for i, k in enumerate(command.keywords) if k.name == "power"), None)
        if power is not None and command.power < 0:
            below = [f"{u.id} (base {u.base}) to {u.base + command.power}" for u in able if u.base + command.power < 0]
            if below:
                found.append(f"{where}.keywords[{power}]: {command.keywords[power]} takes the power of "
                             f"{', '.join(below)}; a unit's power below 0 helps its enemy")
        if command.kind != "attack" or not able:
            continue
        modes = {u.id: _attack_modes(command, u) for u in able}
        unable = [u.id for u in able if not modes[u.id]]
        wanted = "melee" if command.has("melee") and not command.has("ranged") else \
            "ranged" if not command.has("melee") else "melee or ranged"
        if len(unable) == len(able):
            found.append(f"{where}.units: no unit that may carry it out can make a {wanted} attack, so no deck can "
                         f"use this card")
        elif unable:
            can = [u.id for u in able if modes[u.id]]
            found.append(f"{where}.units: {', '.join(unable)} may take this {wanted} attack but cannot make it (the "
                         f"card would be wasted on {'it' if len(unable) == 1 else 'them'}); name the units that can: "
                         f"{json.dumps(can)}")
        flank = next((i for i, k in enumerate(command.keywords) if k.name == "flank"), None)
        shooters = [u for u in able if modes[u.id] == ["ranged"]]
        if flank is not None and shooters:
            found.append(f"{where}.keywords[{flank}]: {command.keywords[flank]} counts in melee only, and "
                         f"{', '.join(u.id for u in shooters)} can only shoot with this card")
    return found


def _given(data: Any, problem: dict) -> str:
    """", not 7": the value the file gives where the schema refuses it (a number, a short word), so the
    designer sees what to change; nothing for a missing field or a whole object."""
    value = problem.get("input")
    if problem["type"] == "missing" or isinstance(value, (dict, list)) or value is None:
        return ""
    shown = json.dumps(value, ensure_ascii=False)
    if len(shown) > 40 or str(value) in problem["msg"]:  # (a validator of ours names it already)
        return ""
    return f", not {shown}"


def parse(data: Any, source: str = "card set") -> CardSet:
    """Validate a card set's data; raise CardSetError with every fault found."""
    try:
        model = CardSetFile.model_validate(data)
    except ValidationError as error:
        problems = []
        for problem in error.errors():
            message = problem["msg"].removeprefix("Value error, ")
            problems.append(f"{field_path(data, problem['loc'])}: {message}{_given(data, problem)}")
        raise CardSetError(source, problems + _ids_used_twice(data)) from None
    problems = _cross_checks(model)
    if problems:
        raise CardSetError(source, problems)
    # Names are presentation: a file keeps its digest (and its games their set) when they change.
    canonical = json.dumps(model.model_dump(mode="json", exclude=NAMES_LEFT_OUT), sort_keys=True, separators=(",", ":"), default=str)
    return CardSet(
        id=model.id, version=model.version, name=model.name,
        digest=hashlib.sha256(canonical.encode()).hexdigest()[:16],
        factions=tuple(model.factions), units={u.id: u for u in model.units},
        commands={c.id: c for c in model.commands},
        recommended={f: tuple(deck) for f, deck in model.recommended.items()}, source=source,
        data=json.loads(json.dumps(data)), names=dict(model.names or {}),
    )


def read_file(path: Path) -> Any:
    """A card-set file's JSON (CardSetError when it cannot be read or is not JSON)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise CardSetError(path.name, [f"cannot read the file: {error}"]) from None
    except json.JSONDecodeError as error:
        raise CardSetError(path.name, [f"not valid JSON: {error.msg.removesuffix(' at')} at line {error.lineno}, "
                                       f"column {error.colno}"]) from None


def load_file(path: Path) -> CardSet:
    return parse(read_file(path), path.name)


# ---------------------------------------------------------------- the registry

@dataclass(frozen=True)
class Review:
    """A card-set file checked against a registry: the set when valid, its faults, its warnings."""
    card_set: CardSet | None
    problems: list[str]
    warnings: list[str]


class UnknownCardSet(RulesUnavailable, LookupError):
    """No card set of this id (and version) on this server: a new game asking for it is refused
    (``unknown_card_set``); a game begun with it waits until the operator restores its file
    (RulesUnavailable: ``game_unavailable``)."""


class CardSetChanged(RulesUnavailable, RuntimeError):
    """A game's card set is no longer the one it began with (its file was edited in place)."""


class Registry:
    """Every card set this server knows, by id and version, and the files it refused (and why).
    The folders are read on first use: a server that plays no Khan & General starts without it."""

    def __init__(self, folders: list[Path] | None = None) -> None:
        self._folders = list(folders or [])
        self._sets: dict[tuple[str, int], CardSet] = {}
        self._refused: dict[str, list[str]] = {}
        self._loaded = False

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for folder in self._folders:
                self.load_dir(folder)

    @property
    def sets(self) -> dict[tuple[str, int], CardSet]:
        self._load()
        return self._sets

    @property
    def refused(self) -> dict[str, list[str]]:
        self._load()
        return self._refused

    def clash(self, card_set: CardSet) -> str | None:
        """Why the set cannot join: another file already defines its id and version with other rules
        (names aside, which may change). None when it can (new, or the very same set)."""
        known = self.sets.get((card_set.id, card_set.version))
        if known is None or known.digest == card_set.digest:
            return None
        free = max(v for (i, v) in self.sets if i == card_set.id) + 1
        return (f"version: {card_set.id} version {card_set.version} is already defined by {known.source} with other "
                f"rules (digest {known.digest}; this file's is {card_set.digest}); a published version never "
                f"changes, so give this file version {free}")

    def add(self, card_set: CardSet) -> None:
        clash = self.clash(card_set)
        if clash is not None:
            self.refused[card_set.source] = [clash]
            return
        self.sets[(card_set.id, card_set.version)] = card_set

    def check(self, data: Any, source: str) -> "Review":
        """A designer's card set checked as this server would load it, nothing kept: its faults
        (a file that fails the checks, or reuses a published id and version with other rules) and,
        when it is valid, the warnings."""
        try:
            card_set = parse(data, source)
        except CardSetError as error:
            return Review(None, error.problems, [])
        clash = self.clash(card_set)
        if clash is not None:
            return Review(None, [clash], [])
        return Review(card_set, [], warnings(card_set))

    def load_dir(self, folder: Path) -> None:
        for path in sorted(folder.glob("*.json")):
            try:
                self.add(load_file(path))
            except CardSetError as error:
                self.refused[error.source] = error.problems
                logger.error("card set file refused: %s", error)

    def latest(self, card_set_id: str) -> CardSet:
        versions = [v for (i, v) in self.sets if i == card_set_id]
        if not versions:
            raise UnknownCardSet(self._unknown(card_set_id))
        return self.sets[(card_set_id, max(versions))]

    def get(self, card_set_id: str, version: int | None = None, digest: str | None = None) -> CardSet:
        if version is None:
            return self.latest(card_set_id)
        if not self._loaded:
            self._load()
        found = self._sets.get((card_set_id, version))  # the engine asks at every step: not through ``sets``
        named = {"card_set": {"id": card_set_id, "version": version}}
        if found is None:
            raise UnknownCardSet(self._unknown(card_set_id, version), details=named, reason=Words(N_(
                "this game is played with the card set {card_set} version {version}, which this server does not "
                "have now; the game waits until the server's operator restores it"),
                card_set=card_set_id, version=version))
        if digest is not None and found.digest != digest:
            raise CardSetChanged(Words(N_("card set {id} version {version} changed after a game began with it "
                                          "({then} then, {now} now); restore it, and publish changes as a new "
                                          "version"), id=card_set_id, version=version, then=digest, now=found.digest),
                                 details=named, reason=Words(N_(
                                     "this game is played with the card set {card_set} version {version}, which "
                                     "was changed on this server after the game began; the game waits until the "
                                     "server's operator restores the version it began with"),
                                     card_set=card_set_id, version=version))
        return found

    def _unknown(self, card_set_id: str, version: int | None = None) -> Words:
        """There is no such set, with the ones there are (and the files refused, their faults as the
        checks write them): Words, said in the language of whoever reads it."""
        known = [f"{i} v{v}" for i, v in sorted(self.sets)] or Words(N_("none"))
        if version is None:
            missing = Words(N_("there is no card set {id} (known: {known})"), id=card_set_id, known=known)
        else:
            missing = Words(N_("there is no card set {id} version {version} (known: {known})"), id=card_set_id,
                            version=version, known=known)
        refused = [f"{source} ({'; '.join(problems)})" for source, problems in sorted(self.refused.items())]
        return Words(N_("{reason}; refused files: {files}"), reason=missing, files=refused) if refused else missing

    def all(self) -> list[CardSet]:
        return [self.sets[key] for key in sorted(self.sets)]


def default_registry() -> Registry:
    """The card sets shipped with the server, and those in the folder KHAN_CARD_SETS_DIR names."""
    extra = os.environ.get(EXTRA_DIR_VARIABLE)
    return Registry([HERE, *([Path(extra)] if extra else [])])


REGISTRY = default_registry()
DEFAULT_CARD_SET = "khan-default"
