"""Checking a finished game's record (``game-record/1``, chalicelib/gamerecord/format.py) with the local
engine: the deal's commitment, then the whole game replayed from the revealed seed, step by step,
to its result. Pure (no I/O): ``battleline verify`` fetches the record (and a card set it lacks)
and calls :func:`verify`; the tests call it directly.

What it finds wrong is said for a person, naming the first version that differs (0: the deal) and
why: the seed and salt do not hash to the commitment, another deal, an illegal step, other events
(another draw), another result.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from .format import FORMAT, SERVICE_KINDS
from ..games import ENGINES, GameEngine, IllegalStep
from ..games.replay import FORFEITS
from ..kernel.i18n import _, say

ENDED_BEFORE_RULES = ("declined", "aborted")  # results a service event gives (services/moves.py ``ended``)


class Refused(Exception):
    """A record this machine cannot verify (not a finished game's whole record, rules it lacks)."""


class MissingCardSet(Refused):
    """The record's Khan & General card set is not in the local registry: fetch it (getKhanCardSet)
    and :func:`add_card_set` it, then verify again."""

    def __init__(self, ref: dict) -> None:
        super().__init__(_("this machine lacks card set {id} version {version}").format(
            id=ref["id"], version=ref["version"]))
        self.ref = ref


@dataclass
class Verdict:
    verified: bool
    version: int | None = None  # the first version that differs (0: the deal); None when verified
    problems: list[str] = field(default_factory=list)  # what differs, for a person
    notes: list[str] = field(default_factory=list)  # what was checked, or could not be
    moves: int = 0  # versions replayed


def engines_by_rules(engines: dict[str, GameEngine] | None = None) -> dict[str, GameEngine]:
    """The rules versions this machine plays, each with its engine."""
    found = engines or ENGINES
    return {found[name].rules_version: found[name] for name in found}


def commitment(game_id: str, seed: int, salt: str) -> str:
    """The deal's commitment: the lowercase hex SHA-256 of the UTF-8 ``{game_id}:{seed}:{salt}``."""
    return hashlib.sha256(f"{game_id}:{seed}:{salt}".encode("utf-8")).hexdigest()


def add_card_set(data: dict, ref: dict) -> None:
    """Add a card set fetched from the server (getKhanCardSet's answer) to the local registry, once
    its digest is the one the record names; Refused if it is not."""
    from ..games.khan import cardset

    source = {k: data[k] for k in ("id", "version", "name", "factions", "units", "commands", "recommended")
              if k in data}
    try:
        found = cardset.parse(source, f"{ref['id']} v{ref['version']} (fetched)")
    except cardset.CardSetError as error:
        raise Refused(_("the card set fetched is not valid: {problems}").format(
            problems="; ".join(error.problems))) from None
    if (found.id, found.version, found.digest) != (ref["id"], ref["version"], ref["digest"]):
        raise Refused(_("the card set fetched is {id} version {version} with digest {digest}, not the game's "
                        "{want}").format(id=found.id, version=found.version, digest=found.digest,
                                         want=ref["digest"]))
    cardset.REGISTRY.add(found)


def check_verifiable(record: Any, engines: dict[str, GameEngine] | None = None) -> GameEngine:
    """The engine that replays the record; Refused when there is none or the record is not whole."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise Refused(_("this is not a game record in the format {format}").format(format=FORMAT))
    if record.get("status") != "finished":
        raise Refused(_("game {game} is not over: only a finished game's record holds its seed and every "
                        "hand").format(game=record.get("game_id")))
    if not record.get("complete") or record.get("seed") is None:
        raise Refused(_("game {game}'s record does not hold the whole game (a duplicate tournament's board "
                        "keeps its deal secret)").format(game=record.get("game_id")))
    by_rules = engines_by_rules(engines)
    engine = by_rules.get(record.get("rules_version"))
    if engine is None:
        raise Refused(_("game {game} was played by the rules {rules}, which this program does not implement "
                        "(it knows {known}); update it").format(
                            game=record.get("game_id"), rules=record.get("rules_version"),
                            known=", ".join(sorted(by_rules))))
    ref = record.get("card_set")
    if ref:
        from ..games.khan import cardset

        try:
            cardset.REGISTRY.get(ref["id"], ref["version"], ref["digest"])
        except cardset.UnknownCardSet:
            raise MissingCardSet(ref) from None
        except cardset.CardSetChanged:
            raise Refused(_("this machine's card set {id} version {version} is not the one the game was "
                            "played with (digest {digest})").format(**ref)) from None
    return engine


def verify(record: dict, engines: dict[str, GameEngine] | None = None) -> Verdict:
    """Check the record's deal commitment, then replay it whole with the local engine: the deal from
    its seed, every move's steps (or forfeit) and the events they write, and the result. Refused
    (MissingCardSet among them) when it cannot be checked here at all."""
    engine = check_verifiable(record, engines)
    verdict = Verdict(True)
    game_id, seed, salt = record["game_id"], record["seed"], record.get("deal_salt")
    if record.get("deal_commitment") is None:
        verdict.notes.append(_("the game was made before deals were committed to: only its replay is checked"))
    elif salt is None or commitment(game_id, seed, salt) != record["deal_commitment"]:
        return _failed(verdict, 0, _("the deal's commitment does not match: SHA-256 of \"{game}:{seed}:{salt}\" is "
                                     "not {commitment}").format(game=game_id, seed=seed, salt=salt,
                                                                commitment=record["deal_commitment"]))
    else:
        verdict.notes.append(_("the seed and salt hash to the deal's commitment {commitment}").format(
            commitment=record["deal_commitment"]))
    try:
        state = engine.new_game(record["options"], random.Random(seed))
    except (KeyError, ValueError, TypeError) as error:
        return _failed(verdict, 0, _("the game's options cannot be dealt: {error}").format(error=error))
    differs = _first_difference(_plain(state), _plain(record.get("start")))
    if differs is not None:
        return _failed(verdict, 0, _("the deal differs from the seed's: at {where}, the seed deals {dealt}, the "
                                     "record has {recorded}").format(**differs))
    ended = None
    for move in record.get("moves", []):
        problem = _replay_move(engine, state, move)
        if problem is not None:
            return _failed(verdict, move.get("version"), problem)
        verdict.moves += 1
        if move.get("kind") in ("game_declined", "game_aborted"):
            ended = move
    expected = engine.result(state)
    recorded = record.get("result")
    if expected is None and ended is not None and (recorded or {}).get("reason") in ENDED_BEFORE_RULES:
        expected = recorded  # ended by consent before its rules could end it: nothing to replay
    if _plain(expected) != _plain(recorded):
        last = record["moves"][-1]["version"] if record.get("moves") else 0
        return _failed(verdict, last, _("the result differs: the replay ends {replayed}, the record says "
                                        "{recorded}").format(replayed=_short(expected), recorded=_short(recorded)))
    return verdict


def _replay_move(engine: GameEngine, state: dict, move: dict) -> str | None:
    """Take one recorded move again on ``state`` (in place); what differs, or None."""
    kind, seat = move.get("kind"), move.get("seat")
    if kind in SERVICE_KINDS:
        return None
    written: list[dict] = []
    if kind in FORFEITS:
        written = engine.forfeit(state, seat, kind)
    elif kind == "steps":
        for step in move.get("steps", []):
            try:
                written += engine.apply_step(state, seat, engine.parse_step(step))
            except IllegalStep as illegal:
                return _("seat {seat}'s step {step} is illegal here: {reason}").format(
                    seat=seat, step=_short(step), reason=say(illegal.reason))
            except ValidationError:
                return _("seat {seat}'s step {step} is not a step of this game").format(seat=seat, step=_short(step))
    else:
        return _("a move of unknown kind {kind!r}").format(kind=kind)
    replayed = [{"type": e["type"], "seat": e["seat"], "data": _merged(e)} for e in written]
    recorded = [{"type": e.get("type"), "seat": e.get("seat"), "data": e.get("data")} for e in move.get("events", [])]
    for index in range(max(len(replayed), len(recorded))):
        mine = replayed[index] if index < len(replayed) else None
        theirs = recorded[index] if index < len(recorded) else None
        if _plain(mine) == _plain(theirs):
            continue
        if mine and theirs and mine["type"] == theirs["type"] and "card" in mine["data"]:
            return _("event {index} ({type}) differs: the seed gives {dealt}, the record says {recorded}").format(
                index=index + 1, type=mine["type"], dealt=mine["data"].get("card"), recorded=theirs["data"].get("card"))
        return _("event {index} differs: the replay writes {replayed}, the record has {recorded}").format(
            index=index + 1, replayed=_short(mine), recorded=_short(theirs))
    return None


def _merged(event: dict) -> dict:
    data = dict(event["data"])
    for part in (event.get("private") or {}).values():
        data.update(part)
    return data


def _plain(value: Any) -> Any:
    """As JSON has it (tuples as lists, keys as strings): what a record holds."""
    return json.loads(json.dumps(value, sort_keys=True))


def _short(value: Any, limit: int = 200) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _first_difference(a: Any, b: Any, where: str = "start") -> dict | None:
    """Where two JSON values first differ, and both there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return {"where": f"{where}.{key}", "dealt": _short(a.get(key)), "recorded": _short(b.get(key))}
            found = _first_difference(a[key], b[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{where}[{index}]")
            if found:
                return found
        return None
    return None if a == b else {"where": where, "dealt": _short(a), "recorded": _short(b)}


def _failed(verdict: Verdict, version: int | None, problem: str) -> Verdict:
    verdict.verified, verdict.version = False, version
    verdict.problems.append(_("version {version}: {problem}").format(version=version, problem=problem))
    return verdict


__all__ = ["MissingCardSet", "Refused", "Verdict", "add_card_set", "check_verifiable", "commitment",
           "engines_by_rules", "verify"]
