"""The playtest's games: bot against the same bot on one card set, seats alternating, on a pool of
worker processes that each register the designer's card set first.

Game ``i`` (from 0): the set's first faction sits in seat 1 when ``i`` is even, in seat 2 when it
is odd; seat 1 moves first in games 0, 1, 4, 5, 8, 9..., seat 2 in games 2, 3, 6, 7... So each
faction sits in each seat and moves first in a quarter of the games each (for a multiple of 4).
Its rng (the set-up's and the bots') is ``random.Random(f"{seed}:{i}")``: a game's record depends
on the seed and its number only, never on the worker that played it nor on when it finished.

A plan may give a faction a deck other than its recommended one (``decks``: the balance search's
``--decks``), and seat 2 another bot (``rival``: how strong mcts is against greedy, the bot of seat 1
holding each faction and moving first in half the games).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from chalicelib.bots import BOTS, Bot, bot, khan_mcts
from chalicelib.bots.runner import play
from chalicelib.games import ENGINES
from chalicelib.games.khan.cardset import DEFAULT_CARD_SET, REGISTRY, CardSet, CardSetError, read_file

ENGINE = ENGINES["khan"]
DEFAULT_BUDGET_MS = 50.0
MCTS = "mcts"


class BotUnavailable(LookupError):
    """A bot the lab cannot seat: no Khan & General bot of that name."""


@dataclass(frozen=True)
class Plan:
    """One playtest: which set, which bot, how many games, from which seed."""

    card_set: str  # id
    version: int
    digest: str
    bot: str = "greedy"
    games: int = 500
    seed: int = 0
    workers: int = 1
    budget_ms: float = DEFAULT_BUDGET_MS  # the mcts bot's time a decision
    max_rounds: int = 40
    path: str | None = None  # the designer's file, registered in each worker (None: a set the server ships)
    decks: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (faction, its 15 cards): decks other than the recommended
    rival: str | None = None  # the bot in seat 2 when it is not ``bot`` (seat 1): how strong one bot is against another


def load(path: Path) -> CardSet:
    """The designer's card set, checked as the server checks it (``Registry.check``: the file's faults,
    or a published id and version reused with other rules) and registered in this process;
    CardSetError with every problem when it does not pass."""
    review = REGISTRY.check(read_file(path), path.name)
    if review.card_set is None:
        raise CardSetError(path.name, review.problems)
    REGISTRY.add(review.card_set)
    return review.card_set


def default_set() -> CardSet:
    return REGISTRY.latest(DEFAULT_CARD_SET)


def plan_for(card_set: CardSet, **settings) -> Plan:
    return Plan(card_set=card_set.id, version=card_set.version, digest=card_set.digest, **settings)


def make_bot(name: str, budget_ms: float) -> Bot:
    """A fresh bot: ``mcts`` with its time budget a decision; any other registered Khan bot by name."""
    if name == MCTS:
        return khan_mcts.for_time_budget(budget_ms)
    if name not in BOTS["khan"]:
        raise BotUnavailable(f"no Khan & General bot {name!r} (the bots: {', '.join(bot_names())})")
    return bot("khan", name)


def bot_names() -> list[str]:
    return sorted({*BOTS["khan"], MCTS})


def seating(plan: Plan, game: int, factions: tuple[str, str]) -> tuple[dict[str, str], int]:
    """Game ``game``'s factions by seat and its first seat (see the module's docstring)."""
    first, second = factions if game % 2 == 0 else factions[::-1]
    return {"1": first, "2": second}, 1 if (game // 2) % 2 == 0 else 2


def play_game(plan: Plan, game: int) -> dict:
    """One game's record (figures.py describes it); ``seconds`` is its run time (no figure uses it)."""
    started = time.perf_counter()
    cards = REGISTRY.get(plan.card_set, plan.version, plan.digest)
    factions, first = seating(plan, game, cards.faction_ids)
    decks = dict(plan.decks)
    options = ENGINE.options_model.model_validate({
        "card_set": plan.card_set, "card_set_version": plan.version, "factions": factions, "first_seat": first,
        "max_rounds": plan.max_rounds, "decks": {seat: list(decks[faction]) for seat, faction in factions.items()
                                                 if faction in decks}}).model_dump(mode="json")
    rng = random.Random(f"{plan.seed}:{game}")
    state = ENGINE.new_game(options, rng)
    players = {1: make_bot(plan.bot, plan.budget_ms), 2: make_bot(plan.rival or plan.bot, plan.budget_ms)}
    played: dict[str, Counter] = {"1": Counter(), "2": Counter()}
    paid: dict[str, Counter] = {"1": Counter(), "2": Counter()}
    decisions = 0
    for decision in play(ENGINE, state, players, options, rng):
        seat, step = decision.seat, decision.step
        decisions += 1
        kind = step["type"]
        if kind in ("place", "deploy"):
            played[str(seat)][step["unit"]] += 1
        elif kind == "command":
            played[str(seat)][step["card"]] += 1
        elif kind == "pay":
            paid[str(seat)][step["card"]] += 1
    result = ENGINE.result(state)
    return {"game": game, "factions": factions, "first": first, "winner": result["winner"],
            "reason": result["reason"], "rounds": state["round"], "decisions": decisions,
            "destroyed": result["destroyed"], "wounded": result["wounded"],
            "played": {s: dict(sorted(c.items())) for s, c in played.items()},
            "paid": {s: dict(sorted(c.items())) for s, c in paid.items()},
            "seconds": time.perf_counter() - started}


def _register(path: str | None) -> None:
    """A worker's initializer: the engine finds a game's card set in the process's registry."""
    if path is not None:
        load(Path(path))


def _play(args: tuple[Plan, int]) -> dict:
    return play_game(*args)


def run(plan: Plan, done: dict[int, dict] | None = None, on_done: Callable[[dict], None] | None = None) -> list[dict]:
    """Every game's record, in game order. ``done`` holds games already played (the calibration
    game); ``on_done`` is told of each game as it finishes (a progress bar)."""
    records = dict(done or {})
    for record in records.values():
        if on_done:
            on_done(record)
    todo = [game for game in range(plan.games) if game not in records]
    if plan.workers <= 1 or len(todo) <= 1:
        for game in todo:
            records[game] = play_game(plan, game)
            if on_done:
                on_done(records[game])
    else:
        with ProcessPoolExecutor(min(plan.workers, len(todo)), initializer=_register,
                                 initargs=(plan.path,)) as pool:
            futures = [pool.submit(_play, (plan, game)) for game in todo]
            for future in as_completed(futures):
                record = future.result()
                records[record["game"]] = record
                if on_done:
                    on_done(record)
    return [records[game] for game in range(plan.games)]


@dataclass(frozen=True)
class Estimate:
    seconds: float  # the expected run time, all games
    decisions: float  # a game, in the calibration games
    per_decision: float  # seconds a decision for one worker, as measured on the pool or as budgeted (mcts)
    calibration: dict[int, dict]  # the games played to measure, kept (game number -> record)
    spent: float = 0.0  # seconds spent measuring


def estimate(plan: Plan) -> Estimate:
    """The expected run time. Greedy or random: the first games, one a worker, are played on the
    pool as the run will play them (so a machine busy with other work shows in the estimate); they
    count as the run's first games. Their time × games ÷ workers. mcts: a greedy game counts the
    decisions, and each costs the time budget (``budget_ms`` × decisions × games ÷ workers)."""
    workers = max(1, min(plan.workers, plan.games))
    if plan.bot == MCTS:
        decisions = play_game(replace(plan, bot="greedy"), 0)["decisions"]
        return Estimate(seconds=decisions * plan.budget_ms / 1000 * plan.games / workers, decisions=decisions,
                        per_decision=plan.budget_ms / 1000, calibration={})  # the greedy game's time is not the run's
    started = time.perf_counter()
    first = run(replace(plan, games=workers))
    seconds = time.perf_counter() - started
    decisions = sum(r["decisions"] for r in first) / len(first)
    return Estimate(seconds=seconds * plan.games / workers, decisions=decisions,
                    per_decision=seconds / max(decisions, 1), calibration={r["game"]: r for r in first}, spent=seconds)


def cores() -> int:
    return os.cpu_count() or 1
