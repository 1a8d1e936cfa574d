"""The balance search (issue 40): variants of a designer's card set, each played by the lab's bots
until its Wilson intervals decide it against the designer's targets, and the best kept as candidates.

- The search file (``SearchFile``, JSON) names what may change (a unit's ``base``, a command's
  ``cost`` or ``power``, the games' ``max_rounds``, a recommended deck's cards) each within a range,
  and the targets. It is checked like a card set: every fault is named by its field
  (``changes[1].field: ...``) and the command refuses the file.
- The search plays the original set, then each single change, then combinations of the most
  promising ones. A variant is played in batches (``games.batch``) and stops as soon as its
  intervals show that it cannot meet a target ("missed") or that it meets them all ("met"), or at
  ``games.most`` ("open"). Every variant plays the same seeds (game *i*: ``seed:i``, as the lab), so
  variants are compared on the same deals and the same seed gives the same candidates.
- Then the best candidates are played by the stronger bot (``confirm``: mcts against mcts, and
  mcts against greedy to tell how much the bots' strength matters).

The games are the lab's (``play.run``, on its pool of workers), the figures the lab's
(``figures.summarize``, ``figures.wilson``).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from chalicelib.games.khan.cardset import REGISTRY, CardId, CardSet, CardSetError, field_path, deck_problems, parse

from . import figures, play

# What a field may range over: the card-set file's own bounds (cardset.UnitType, Command) and the rules'.
BOUNDS = {"base": (0, 20), "cost": (0, 3), "power": (-20, 20), "max_rounds": (1, 500)}
FIELD = re.compile(r"^(?:(units|commands)\[([a-z][a-z0-9_]{0,39})\]\.(base|cost|power)|max_rounds)$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Change(_Strict):
    """A numeric field and the values it may take: ``min`` to ``max`` by ``step``."""

    field: str = Field(description='"units[ID].base", "commands[ID].cost", "commands[ID].power" or "max_rounds"')
    min: int
    max: int
    step: int = Field(1, ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> "Change":
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        return self


class DeckChange(_Strict):
    """Cards that may leave a faction's recommended deck, and cards that may take their place (one for one,
    a unit for a unit, a command for a command, within the deck rules)."""

    faction: CardId
    remove: list[CardId] = Field(min_length=1)
    add: list[CardId] = Field(min_length=1)


class WinRate(_Strict):
    low: float = Field(ge=0, le=1)
    high: float = Field(ge=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> "WinRate":
        if self.low > self.high:
            raise ValueError(f"low ({self.low}) is above high ({self.high})")
        return self


class Targets(_Strict):
    win_rate: WinRate | None = Field(None, description="Each faction's win rate between low and high.")
    early_endings: float | None = Field(None, ge=0, le=1, description="At least this share of the games ends "
                                        "before the round limit (annihilation or rout).")
    cards_played: float | None = Field(None, ge=0, le=1, description="Each card of a faction's deck is played in "
                                       "at least this share of the faction's games.")

    @model_validator(mode="after")
    def _some(self) -> "Targets":
        if self.win_rate is None and self.early_endings is None and self.cards_played is None:
            raise ValueError("name at least one target: win_rate, early_endings or cards_played")
        return self


class Games(_Strict):
    batch: int = Field(20, ge=4, le=1000, multiple_of=4, description="Games played before each look at the "
                       "intervals (a multiple of 4: each faction sits in each seat and moves first equally).")
    most: int = Field(200, ge=4, le=100000, description="The most games a variant is played.")

    @model_validator(mode="after")
    def _ordered(self) -> "Games":
        if self.most < self.batch:
            raise ValueError(f"most ({self.most}) is below batch ({self.batch})")
        return self


class Confirm(_Strict):
    """The best candidates and the original, played again by the stronger bot."""

    bot: str = "mcts"
    games: int = Field(20, ge=0, le=10000, multiple_of=4)
    budget_ms: float = Field(20.0, gt=0, le=10000)
    candidates: int = Field(2, ge=0, le=20)
    share: float = Field(0.3, ge=0, le=0.9, description="The share of the time budget kept for these games.")


class SearchFile(_Strict):
    card_set: str | None = Field(None, description="The id of the card set searched (checked against the file).")
    bot: str = Field("greedy", description="The bot on both sides while searching.")
    max_rounds: int = Field(40, ge=1, le=500, description="The games' last round (the rules: 40).")
    games: Games = Games()
    combine: int = Field(3, ge=0, le=6, description="How many of the most promising single changes are combined.")
    candidates: int = Field(3, ge=1, le=20, description="How many candidate files are written.")
    confirm: Confirm = Confirm()
    changes: list[Change] = []
    decks: list[DeckChange] = []
    targets: Targets

    @model_validator(mode="after")
    def _something(self) -> "SearchFile":
        if not self.changes and not self.decks:
            raise ValueError("name at least one change (changes or decks)")
        return self


class SearchFileError(ValueError):
    def __init__(self, source: str, problems: list[str]) -> None:
        super().__init__(f"{source}: " + "; ".join(problems))
        self.source, self.problems = source, problems


def read_search(path: Path, card_set: CardSet) -> SearchFile:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise SearchFileError(path.name, [f"cannot read the file: {error}"]) from None
    except json.JSONDecodeError as error:
        raise SearchFileError(path.name, [f"not valid JSON: {error.msg.removesuffix(' at')} at line {error.lineno}, column {error.colno}"]) \
            from None
    return check_search(data, card_set, path.name)


def check_search(data: Any, card_set: CardSet, source: str = "search file") -> SearchFile:
    """The search file, checked against the card set it searches; SearchFileError with one message per
    fault, each naming its field (as the card-set checks do)."""
    try:
        search = SearchFile.model_validate(data)
    except ValidationError as error:
        raise SearchFileError(source, [f"{field_path(data, p['loc'])}: {p['msg'].removeprefix('Value error, ')}"
                                       for p in error.errors()]) from None
    problems = []
    if search.card_set is not None and search.card_set != card_set.id:
        problems.append(f"card_set: the search is for {search.card_set!r}, the file is {card_set.id!r}")
    for name, where in ((search.bot, "bot"), (search.confirm.bot, "confirm.bot")):
        if name not in play.bot_names():
            problems.append(f"{where}: no Khan & General bot {name!r} (the bots: {', '.join(play.bot_names())})")
    seen: set[str] = set()
    for index, change in enumerate(search.changes):
        where = f"changes[{index}]"
        problem = field_problem(change, card_set)
        if problem:
            problems.append(f"{where}.{problem}")
        elif change.field in seen:
            problems.append(f"{where}.field: {change.field} is named twice")
        seen.add(change.field)
    for index, deck in enumerate(search.decks):
        where = f"decks[{index}]"
        if deck.faction not in card_set.faction_ids:
            problems.append(f"{where}.faction: {deck.faction!r} is not one of the factions "
                            f"({', '.join(card_set.faction_ids)})")
            continue
        recommended = card_set.recommended[deck.faction]
        for key, cards in (("remove", deck.remove), ("add", deck.add)):
            for card in cards:
                entry = card_set.units.get(card) or card_set.commands.get(card)
                if entry is None:
                    problems.append(f"{where}.{key}: {card!r} is not a card of {card_set.id}")
                elif entry.faction != deck.faction:
                    problems.append(f"{where}.{key}: {card} is a {entry.faction} card, not {deck.faction}")
                elif key == "remove" and card not in recommended:
                    problems.append(f"{where}.remove: {card} is not in the {deck.faction} recommended deck")
        if not problems and not deck_swaps(deck, card_set):
            problems.append(f"{where}: no swap of a removed card for an added one gives a legal deck "
                            f"(a unit for a unit, a command for a command, within the deck rules)")
    if problems:
        raise SearchFileError(source, problems)
    return search


def field_problem(change: Change, card_set: CardSet) -> str | None:
    """What is wrong with a change's field or range (``field: ...``, ``max: ...``), or None."""
    found = FIELD.match(change.field)
    if not found:
        return (f"field: {change.field!r} is not a field the search can change; write units[ID].base, "
                f"commands[ID].cost, commands[ID].power or max_rounds")
    group, entry, name = found.groups()
    name = name or "max_rounds"
    if group == "units" and entry not in card_set.units:
        return f"field: {entry!r} is not a unit type of {card_set.id} (the units: {', '.join(card_set.units)})"
    if group == "commands":
        if entry not in card_set.commands:
            return f"field: {entry!r} is not a command of {card_set.id} (the commands: {', '.join(card_set.commands)})"
        if name == "power" and not card_set.commands[entry].has("power"):
            return f"field: commands[{entry}] has no power keyword to change"
    low, high = BOUNDS[name]
    for key, value in (("min", change.min), ("max", change.max)):
        if not low <= value <= high:
            return f"{key}: {name} lies between {low} and {high}, not {value}"
    return None


# ---------------------------------------------------------------- variants

@dataclass(frozen=True)
class Edit:
    """One change of one variant: a field to a value, or a deck's card swapped for another."""

    field: str  # "units[archers].base", "max_rounds", "recommended[khan]"
    value: int | tuple[str, str]  # the new value, or (card out, card in)

    def words(self, original: "Variant") -> str:
        """The change in the card-set file's own words: ``units[archers].base: 2 → 4``."""
        if isinstance(self.value, tuple):
            out, into = self.value
            return f"{self.field}: {out} → {into}"
        return f"{self.field}: {current(original.data, self.field, original.max_rounds)} → {self.value}"


def current(data: dict, path: str, max_rounds: int) -> int:
    if path == "max_rounds":
        return max_rounds
    group, entry, name = FIELD.match(path).groups()
    item = next(i for i in data[group] if i["id"] == entry)
    if name == "power":
        return next(int(k.split()[1]) for k in item["keywords"] if k.split()[0] == "power")
    return item[name]


def deck_swaps(deck: DeckChange, card_set: CardSet) -> list[tuple[str, str]]:
    """Each legal one-for-one swap, in the search file's order."""
    swaps = []
    recommended = list(card_set.recommended[deck.faction])
    for out, into in itertools.product(deck.remove, deck.add):
        if out == into or card_set.is_unit(out) != card_set.is_unit(into):
            continue
        changed = list(recommended)
        changed[changed.index(out)] = into
        if not deck_problems(changed, deck.faction, card_set.units, card_set.commands):
            swaps.append((out, into))
    return swaps


def single_edits(search: SearchFile, card_set: CardSet) -> list[Edit]:
    """One change at a time: every value of every range but the current one, then every deck swap."""
    edits = []
    for change in search.changes:
        now = current(card_set.data, change.field, search.max_rounds)
        values = [v for v in range(change.min, change.max + 1, change.step) if v != now]
        edits += [Edit(change.field, v) for v in sorted(values, key=lambda v: (abs(v - now), v))]
    for deck in search.decks:
        edits += [Edit(f"recommended[{deck.faction}]", swap) for swap in deck_swaps(deck, card_set)]
    return edits


@dataclass
class Variant:
    """A card set as played: the original or a changed copy, and what its games showed."""

    number: int  # 0: the original
    edits: tuple[Edit, ...]
    data: dict  # the card-set file's data
    max_rounds: int
    card_set: CardSet | None = None
    records: list[dict] = field(default_factory=list)
    status: str = "open"  # "met": meets every target; "missed": cannot meet one; "open": undecided at the most games
    checks: dict = field(default_factory=dict)  # target -> its figures and state
    seconds: float = 0.0
    confirmed: dict = field(default_factory=dict)  # "mcts": figures of mcts v mcts; "strength": mcts v greedy

    @property
    def games(self) -> int:
        return len(self.records)


def apply(data: dict, edits: tuple[Edit, ...], max_rounds: int) -> tuple[dict, int]:
    data = copy.deepcopy(data)
    for edit in edits:
        if edit.field == "max_rounds":
            max_rounds = int(edit.value)
            continue
        group, entry, name = re.match(r"^(units|commands|recommended)\[([a-z0-9_]+)\](?:\.(\w+))?$", edit.field).groups()
        if group == "recommended":
            out, into = edit.value
            deck = data["recommended"][entry]
            deck[deck.index(out)] = into
            continue
        item = next(i for i in data[group] if i["id"] == entry)
        if name == "power":
            value = int(edit.value)
            item["keywords"] = [f"power {'+' if value >= 0 else ''}{value}" if k.split()[0] == "power" else k
                                for k in item["keywords"]]
        else:
            item[name] = edit.value
    return data, max_rounds


# ---------------------------------------------------------------- targets and sequential testing

def decks_of(variant: Variant, decks: dict[str, list[str]]) -> dict[str, list[str]]:
    return {f: list(decks.get(f) or variant.card_set.recommended[f]) for f in variant.card_set.faction_ids}


def check(variant: Variant, targets: Targets, decks: dict[str, list[str]] | None = None) -> dict[str, dict]:
    """Each target's figures on the variant's games and its state: met (the intervals lie inside the
    target), missed (an interval lies wholly outside it: more games cannot meet it) or open.
    ``distance``: how far the point estimates are from the target (0 inside it), to rank variants."""
    records, cards = variant.records, variant.card_set
    games = len(records)
    found: dict[str, dict] = {}
    if targets.win_rate is not None:
        low, high = targets.win_rate.low, targets.win_rate.high
        rates = {f: figures.rate(sum(1 for r in records if figures.winner_faction(r) == f), games)
                 for f in cards.faction_ids}
        state = "met" if all(low <= r["low"] and r["high"] <= high for r in rates.values()) else \
            "missed" if any(r["high"] < low or r["low"] > high for r in rates.values()) else "open"
        distance = sum(max(0.0, low - r["rate"], r["rate"] - high) for r in rates.values() if games)
        found["win_rate"] = {"state": state, "rates": rates, "distance": distance}
    if targets.early_endings is not None:
        share = targets.early_endings
        early = figures.rate(sum(1 for r in records if r["reason"] != "max_rounds"), games)
        state = "met" if early["low"] >= share else "missed" if early["high"] < share else "open"
        found["early_endings"] = {"state": state, "rate": early,
                                  "distance": max(0.0, share - early["rate"]) if games else share}
    if targets.cards_played is not None:
        share = targets.cards_played
        rows = {}
        for faction, deck in decks_of(variant, decks or {}).items():
            for card in dict.fromkeys(deck):
                seat = [figures.seat_of(r, faction) for r in records]
                rows[card] = figures.rate(sum(1 for r, s in zip(records, seat) if r["played"].get(s, {}).get(card)),
                                          games)
        state = "met" if all(r["low"] >= share for r in rows.values()) else \
            "missed" if any(r["high"] < share for r in rows.values()) else "open"
        distance = sum(max(0.0, share - r["rate"]) for r in rows.values()) / max(len(rows), 1) if games else share
        found["cards_played"] = {"state": state, "cards": rows, "distance": distance}
    return found


def verdict(checks: dict[str, dict]) -> str:
    """Sequential testing: stop as soon as a target cannot be met, or all are."""
    states = [c["state"] for c in checks.values()]
    if "missed" in states:
        return "missed"
    return "met" if all(s == "met" for s in states) else "open"


def score(variant: Variant) -> tuple:
    """Lower is better: more targets met, then nearer the targets, then fewer changes, then searched earlier."""
    met = sum(1 for c in variant.checks.values() if c["state"] == "met")
    return (-met, round(sum(c["distance"] for c in variant.checks.values()), 9), len(variant.edits), variant.number)


# ---------------------------------------------------------------- the search

@dataclass
class Progress:
    """What the search tells as it goes (the front end prints it)."""

    variant: Variant
    done: int  # variants finished
    planned: int  # variants planned so far
    elapsed: float
    remaining: float  # expected seconds left
    stage: str  # "single", "combined", "confirm"


@dataclass
class Result:
    base: CardSet  # the designer's file
    version: int  # the candidates' version: the next after every known version of the set
    original: Variant
    variants: list[Variant]  # every variant played, in the order searched
    candidates: list[Variant]  # the best, ranked
    search: SearchFile
    seed: int
    seconds: float
    minutes: float
    stopped_early: bool  # the time budget ended the search before its plan
    planned: int
    decks: dict[str, list[str]]
    unplayed: dict[str, list[str]]  # faction -> its cards in no recommended deck
    workers: int


def unplayed_cards(card_set: CardSet) -> dict[str, list[str]]:
    """Each faction's cards that are in no recommended deck (the lab never plays them unless a deck holds them)."""
    found = {}
    for faction in card_set.faction_ids:
        deck = set(card_set.recommended[faction])
        cards = [c for c in [*card_set.units.values(), *card_set.commands.values()] if c.faction == faction]
        missing = [c.id for c in cards if c.id not in deck]
        if missing:
            found[faction] = missing
    return found


_VARIANTS = itertools.count(1)
SLOWDOWN = 6  # an mcts game's time ÷ (decisions × budget): 35 s for 618 decisions at 10 ms, measured on a busy machine


class Search:
    def __init__(self, card_set: CardSet, search: SearchFile, seed: int = 0, minutes: float = 30.0,
                 workers: int | None = None, decks: dict[str, list[str]] | None = None,
                 on_progress: Callable[[Progress], None] | None = None) -> None:
        self.base, self.search, self.seed, self.minutes = card_set, search, seed, minutes
        self.workers = workers or play.cores()
        self.decks = dict(decks or {})
        self.on_progress = on_progress
        self.latest = max(v for (i, v) in REGISTRY.sets if i == card_set.id) if any(
            i == card_set.id for (i, _) in REGISTRY.sets) else card_set.version
        self.folder = Path(tempfile.mkdtemp(prefix="khan-balance-"))
        self.variants: list[Variant] = []
        self.started = 0.0
        self.game_seconds: list[float] = []  # wall seconds a game, measured
        self.confirm_batch: dict[str, float] = {}  # wall seconds of the last batch of confirmation games, by kind

    # the games
    def plan(self, variant: Variant, games: int, bot: str, rival: str | None = None,
             budget_ms: float = play.DEFAULT_BUDGET_MS) -> play.Plan:
        return play.plan_for(variant.card_set, bot=bot, rival=rival, games=games, seed=self.seed,
                             workers=self.workers, budget_ms=budget_ms, max_rounds=variant.max_rounds,
                             path=str(self.folder / f"v{variant.number}.json"),
                             decks=tuple((f, tuple(d)) for f, d in sorted(self.decks.items())))

    def make(self, number: int, edits: tuple[Edit, ...]) -> Variant:
        data, max_rounds = apply(self.base.data, edits, self.search.max_rounds)
        # Under an id of its own and a version no other variant of this process had: the registry's sets of the
        # designer's id (the default set, say) stay as they are, and two searches never clash.
        data["id"], data["version"] = f"{self.base.id[:32]}-search", next(_VARIANTS)
        path = self.folder / f"v{number}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        variant = Variant(number=number, edits=edits, data=data, max_rounds=max_rounds)
        try:
            variant.card_set = play.load(path)
        except CardSetError as error:  # a change the card-set checks refuse (e.g. a card no unit can use)
            variant.status, variant.checks = "invalid", {"problems": {"state": "missed", "distance": 99.0,
                                                                      "problems": error.problems}}
        return variant

    def left(self) -> float:
        return self.started + self.minutes * 60 - time.perf_counter()

    def batch_seconds(self) -> float:
        per_game = (sum(self.game_seconds) / len(self.game_seconds)) if self.game_seconds else 0.5
        return per_game * self.search.games.batch

    def play_variant(self, variant: Variant, done: int, planned: int, stage: str, reserve: float) -> bool:
        """Play the variant batch by batch until its intervals decide it; False when time ran out first."""
        if variant.status == "invalid":
            return True
        games = self.search.games
        while variant.games < games.most:
            if self.left() - reserve < self.batch_seconds():
                return False
            count = min(games.most, variant.games + games.batch)
            begun, before = time.perf_counter(), variant.games
            plan = self.plan(variant, count, self.search.bot)
            variant.records = play.run(plan, {r["game"]: r for r in variant.records})
            spent = time.perf_counter() - begun
            variant.seconds += spent
            self.game_seconds.append(spent / max(1, count - before))
            variant.checks = check(variant, self.search.targets, self.decks)
            variant.status = verdict(variant.checks)
            if self.on_progress:
                self.on_progress(Progress(variant, done, planned, time.perf_counter() - self.started,
                                          self.remaining(planned - done, variant), stage))
            if variant.status != "open":
                break
        return True

    def remaining(self, variants_left: int, variant: Variant) -> float:
        """Expected seconds left: the variants still planned at the mean games a variant so far, and the
        confirmation; never beyond the time budget."""
        finished = [v for v in self.variants if v.games] or [variant]
        mean_games = sum(v.games for v in finished) / len(finished)
        per_game = sum(self.game_seconds) / len(self.game_seconds) if self.game_seconds else 0.5
        expected = max(0.0, variants_left * mean_games - variant.games) * per_game + self.confirm_seconds()
        return min(expected, max(0.0, self.left()))

    def confirm_seconds(self) -> float:
        """The time kept for the confirmation: its share of the budget, when there is one to play."""
        confirm = self.search.confirm
        if not confirm.games or not confirm.candidates:
            return 0.0
        return confirm.share * self.minutes * 60

    def first_batch(self) -> float:
        """The likely time of a first batch of 4 confirmation games: the decisions of a search game, each at the
        bot's budget times ``SLOWDOWN`` (the engine's work beyond the bot's steps, and a machine shared)."""
        decisions = [r["decisions"] for v in self.variants for r in v.records] or [600]
        seconds = sum(decisions) / len(decisions) * self.search.confirm.budget_ms / 1000 * SLOWDOWN
        return seconds * 4 / self.workers

    def combinations(self, singles: list[Variant]) -> list[tuple[Edit, ...]]:
        """The most promising single changes (the best on each target first, then the best overall; one
        value a field), combined two by two, three by three... up to all of them."""
        original = self.variants[0]
        played = [v for v in singles if v.checks and v.status != "invalid"]
        better = [v for v in played if score(v) < score(original)]
        picked: list[Variant] = []
        for target in original.checks:  # the change that comes nearest to each target, even if it strays on another
            ranked = sorted((v for v in played if target in v.checks and
                             v.checks[target]["distance"] < original.checks[target]["distance"]),
                            key=lambda v: (v.checks[target]["distance"], score(v)))
            if ranked and all(ranked[0].edits[0].field != p.edits[0].field for p in picked):
                picked.append(ranked[0])
        for variant in sorted(better, key=score):
            if len(picked) >= self.search.combine:
                break
            if all(variant.edits[0].field != p.edits[0].field for p in picked):
                picked.append(variant)
        picked = picked[:self.search.combine]
        return [tuple(e for v in group for e in v.edits) for size in range(2, len(picked) + 1)
                for group in itertools.combinations(picked, size)]

    def confirm(self, variants: list[Variant], on_stage: Callable[[Variant], None] | None = None) -> None:
        """The stronger bot on both sides, then against the search's bot (it sits in seat 1, which moves
        first in half the games and holds each faction in half), four games at a time while time is left."""
        confirm = self.search.confirm
        runs = [("bot", None)] + ([("strength", self.search.bot)] if confirm.bot != self.search.bot else [])
        for variant in variants:
            if on_stage:
                on_stage(variant)
            for key, rival in runs:
                records: list[dict] = []
                while len(records) < confirm.games and self.left() > self.confirm_batch.get(key, self.first_batch()):
                    begun = time.perf_counter()
                    plan = self.plan(variant, min(confirm.games, len(records) + 4), confirm.bot, rival=rival,
                                     budget_ms=confirm.budget_ms)
                    records = play.run(plan, {r["game"]: r for r in records})
                    self.confirm_batch[key] = time.perf_counter() - begun  # the next batch's likely time
                variant.confirmed[key] = records

    def run(self, on_confirm: Callable[[Variant], None] | None = None) -> Result:
        self.started = time.perf_counter()
        reserve = self.confirm_seconds()
        original = self.make(0, ())
        self.variants.append(original)
        singles_edits = single_edits(self.search, self.base)
        planned = 1 + len(singles_edits)
        stopped = not self.play_variant(original, 0, planned, "single", 0.0)
        singles = []
        for edits in ([e] for e in singles_edits):
            if stopped:
                break
            variant = self.make(len(self.variants), tuple(edits))
            self.variants.append(variant)
            singles.append(variant)
            reserve = self.confirm_seconds()
            stopped = not self.play_variant(variant, len(self.variants) - 1, planned, "single", reserve)
        if not stopped:
            combined = self.combinations(singles)
            planned += len(combined)
            for edits in combined:
                variant = self.make(len(self.variants), edits)
                self.variants.append(variant)
                stopped = not self.play_variant(variant, len(self.variants) - 1, planned, "combined",
                                                self.confirm_seconds())
                if stopped:
                    break
        played = [v for v in self.variants[1:] if v.games and v.status != "invalid"]
        ranked = sorted((v for v in played if score(v) < score(original)), key=score)
        candidates = ranked[:self.search.candidates]
        self.confirm([original] + candidates[:self.search.confirm.candidates], on_confirm)
        return Result(base=self.base, version=self.latest + 1, original=original, variants=self.variants, candidates=candidates, search=self.search,
                      seed=self.seed, seconds=time.perf_counter() - self.started, minutes=self.minutes,
                      stopped_early=stopped, planned=planned, decks=self.decks,
                      unplayed=unplayed_cards(self.base), workers=self.workers)


# ---------------------------------------------------------------- the candidates' files

def candidate_data(result: Result, variant: Variant) -> dict:
    """The candidate as a card-set file: the designer's data with the changes, and the next version (each
    candidate is a proposal for that version: publish one of them)."""
    data, _ = apply(result.base.data, variant.edits, result.search.max_rounds)
    data["version"] = result.version
    return data


def candidate_set(result: Result, variant: Variant) -> CardSet:
    data = candidate_data(result, variant)
    return parse(data, f"{data['id']}.v{data['version']}.json")


def diff(result: Result, variant: Variant) -> list[str]:
    """The candidate's changes in the card-set file's own words (``commands[lance].cost: 2 → 1``)."""
    return [edit.words(result.original) for edit in variant.edits]


def write_candidate(result: Result, variant: Variant, folder: Path) -> Path:
    data = candidate_data(result, variant)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{data['id']}.v{data['version']}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
