"""The open game-record format, ``game-record/1`` (docs/records.md): a game's whole history as one
JSON document, built from its stored versions (pure: no I/O, no clock).

A record holds only what its reader may see. While the game runs (and forever, on a duplicate
tournament's board, whose deal is its round's other boards' too) that is what the reader's seat
sees (a spectator: the public part): its own hand at the start, its own draws, never another
seat's hand, draw or returned card, nor the seed and the salt; the steps of another seat lose the
fields that seat alone sees (the cards Scout returns, a deployed unit, a payment). Once the game is
over, everything: the whole deal, every event with every private part, the seed and the salt, so
that anyone can replay it (``chalicelib.gamerecord.verify``, ``battleline verify``).
"""

from __future__ import annotations

from typing import Any

from ..kernel import ids
from ..clocks import timecontrol
from ..games.base import GameEngine
from ..games.replay import FORFEITS
from ..store.records import EventRecord, GameRecord
from ..kernel.talk import MESSAGE  # talk is no part of a game's record

FORMAT = "game-record/1"
STEPS = "steps"  # a move's kind: steps a seat took (postAction, a bot's turn, the board, email)


def rules_version(game: GameRecord, engine: GameEngine) -> str:
    """The rules the game was played by: recorded since issue 23; a game stored before played
    version 1 of its engine's rules (the only one there was)."""
    return game.rules_version or f"{engine.name}/1"


def build(versions: list[tuple[GameRecord, list[EventRecord]]], engine: GameEngine, seat: int | None,
          full: bool) -> dict:
    """The record of a game (``versions``: every version, oldest first, with the events each added)
    as ``seat`` may read it (None: a spectator); ``full``: whether everything of it is public now
    (``services.duplicates.DuplicateBoards.all_public``: finished, and on a duplicate round's board its
    round too), else the reader's part only."""
    start, latest = versions[0][0], versions[-1][0]
    finished = latest.status == "finished"
    options = {k: v for k, v in latest.options.items() if k != "time_control"}
    moves = [move for index in range(1, len(versions))
             if (move := _move(versions[index - 1][0], *versions[index], engine, seat, full)) is not None]
    result = latest.result(engine.result(latest.state))
    players = [{"seat": s.seat, "player_id": s.player_id, "name": s.name, "bot": s.bot} for s in latest.seats]
    return {
        "format": FORMAT,
        "game_id": latest.id,
        "game": latest.game,
        "rules_version": rules_version(latest, engine),
        "card_set": start.state.get("card_set"),  # Khan & General's {id, version, digest}; None otherwise
        "status": latest.status,
        "options": options if full else engine.public_options(options, seat),
        "time_control": latest.options.get("time_control"),
        "rated": latest.rated and latest.ended is None,
        "tournament_id": latest.tournament_id,
        "players": players,
        "you": seat,
        "created_at": latest.created_at,
        "finished_at": latest.updated_at if finished else None,
        "result": result,
        "deal_commitment": ids.deal_commitment(latest.id, latest.seed, latest.deal_salt) if latest.deal_salt else None,
        "seed": latest.seed if full or (latest.seed_public and not latest.seed_withheld) else None,
        "deal_salt": latest.deal_salt if full else None,
        "complete": full,
        # Version 0: the whole deal once the game is over, else what the reader saw of it (nobody
        # sees a hand before the game begins).
        "start": start.state if full else engine.view(start.state, None if start.status == "waiting" else seat),
        "moves": moves,
        "notation": notation(latest, engine, moves, players, result),
    }


def notation(game: GameRecord, engine: GameEngine, moves: list[dict], players: list[dict],
             result: dict | None) -> str | None:
    """The game's moves in its game's compact notation, if it has one (the engine's ``notation``;
    Battle Line's, docs/notation.md; None for another game): the moves of kind ``steps``, as the
    reader sees them (another seat's Scout return, while the game runs, is ``return:?``); a timeout,
    a withdrawal or a forfeit is no step: the ``Result`` tag tells how the game ended (``*`` while it
    runs)."""
    write = getattr(engine, "notation", None)
    if write is None:
        return None
    told = [{"seat": m["seat"], "steps": m["steps"]} for m in moves if m["kind"] == STEPS and m["seat"] is not None]
    return write(game.id, told, players, result if game.status == "finished" else None)


def _move(before: GameRecord, game: GameRecord, events: list[EventRecord], engine: GameEngine,
          seat: int | None, full: bool) -> dict | None:
    """One accepted version as a move: who, what kind, its steps, its events, when, and the time it
    took on the mover's clock. None for a version that added no event of the game (none does)."""
    kept = [e for e in events if e.type != MESSAGE]
    if not kept:
        return None
    mover = _mover(kept)
    kind, steps = STEPS, []
    for e in kept:
        if e.type in FORFEITS or e.type in SERVICE_KINDS:
            kind = e.type
            continue
        hidden = _seen(e, seat, full)[1]
        step = engine.step_of({"type": e.type, "seat": e.seat, "data": {**e.data, **_all_private(e)}})
        if step is not None:
            steps.append({k: v for k, v in step.items() if k not in hidden})
    return {
        "version": game.version,
        "seat": mover,
        "kind": kind,
        "steps": steps,
        "events": [{"seq": e.seq, "type": e.type, "seat": e.seat, "data": _seen(e, seat, full)[0]} for e in kept],
        "at": game.updated_at,
        "clock_used_seconds": _clock_used(before, game, mover),
    }


# The service's own events (every other one is the engine's, and replays; services/moves.py adds the
# message): a game made, a seat taken by an invitation's answer, accepted or joined, a game declined
# or aborted before its rules began. In a record, a move of its own kind, with no step.
SERVICE_KINDS = ("game_created", "seat_taken", "seat_accepted", "seat_joined", "game_declined", "game_aborted")


def _all_private(event: EventRecord) -> dict:
    merged: dict[str, Any] = {}
    for part in event.private.values():
        merged.update(part)
    return merged


def _seen(event: EventRecord, seat: int | None, full: bool) -> tuple[dict, set[str]]:
    """An event's data as the reader sees it, and the names of the fields hidden from them."""
    if full:
        return {**event.data, **_all_private(event)}, set()
    own = event.private.get(str(seat), {}) if seat is not None else {}
    hidden = {k for key, part in event.private.items() if part is not own for k in part} - set(own)
    return {**event.data, **own}, hidden


def _mover(events: list[EventRecord]) -> int | None:
    return next((e.seat for e in events if e.seat is not None and e.type != MESSAGE), None)


def clock_used_by_version(versions: list[tuple[GameRecord, list[EventRecord]]]) -> dict[int, float | None]:
    """Each version's ``clock_used_seconds`` as its record's move tells it (the board's replay lists
    them): the seconds its mover's clock ran, pauses left out; None where no clock ran."""
    return {game.version: _clock_used(versions[index - 1][0], game, _mover(events))
            for index, (game, events) in enumerate(versions) if index > 0}


def _clock_used(before: GameRecord, game: GameRecord, mover: int | None) -> float | None:
    """Seconds the mover's clock ran between the version before and this one (pauses left out);
    None without a clock, or when the mover's clock was not running (a seat accepting)."""
    clock = before.clock
    if not clock or not clock.get("running") or mover is None or clock["running"]["seat"] != mover:
        return None
    used = timecontrol.used(clock, timecontrol.parse_time(game.updated_at)) - \
        timecontrol.used(clock, timecontrol.parse_time(before.updated_at))
    return round(max(0.0, used), 3)
