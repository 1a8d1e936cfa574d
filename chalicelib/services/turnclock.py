"""The turn clock of a game with a time control: passed from seat to seat, its deadlines and
next sweep, the vacations that stop it, and how a view shows it. It calls no service: the
game-life object (:mod:`.life`) calls it, one way."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..clocks import timecontrol, vacation
from ..kernel.clock import Clock, iso
from ..store.records import GameRecord
from ..store.protocol import Store


def never_moved(clock: dict, seat: int) -> bool:
    """Whether the seat has never ended a turn in this game (its clock counts no move). In Khan &
    General an answer in the reaction window ends a turn too: a seat that answered has moved."""
    return clock["moves"].get(str(seat), 0) == 0


class TurnClock:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def vacations(self, game: GameRecord, seat: int) -> list[timecontrol.Interval]:
        """The vacations of the seat's player (they stop its clock), read from the player's own record
        (before a timeout: the game's copy may be a moment behind)."""
        player_id = next((s.player_id for s in game.seats if s.seat == seat), None)
        player = self.store.get_player(player_id) if player_id else None
        return vacation.intervals(player.vacation) if player else []

    def pass_clock(self, game: GameRecord, now: datetime) -> GameRecord:
        """After a change: the clock runs for the seat now to move (none once the game is over)."""
        if game.clock is None:
            return game
        to_move = game.to_move if game.status == "active" else None
        running = game.clock["running"]
        if running is not None and running["seat"] == to_move:
            return game  # the same turn goes on: same deadline, same reminders
        seat = next((s for s in game.seats if s.seat == to_move), None)
        vacations = vacation.intervals(seat.vacation) if seat is not None else []  # as the game knows them
        zone = seat.time_zone if seat is not None else None
        return self.timed(replace(game, clock=timecontrol.pass_turn(game.clock, now, to_move, vacations, zone)), None)

    @staticmethod
    def timed(game: GameRecord, after: datetime | None) -> GameRecord:
        """The game's deadline and next sweep, from its clock."""
        end = timecontrol.deadline(game.clock)
        alarm = timecontrol.next_alarm(game.clock, after)
        return replace(game, deadline=iso(end) if end else None, due_at=iso(alarm.at) if alarm else None)

    def view(self, game: GameRecord, at: str | None = None) -> dict | None:
        """The game's clock as its view shows it: the control, and each seat's time now (or at ``at``)."""
        if game.clock is None:
            return None
        now = timecontrol.parse_time(at) if at else self.clock.now()
        return {"control": game.clock["control"], "policy": timecontrol.policy(game.clock["control"]),
                "seats": timecontrol.seat_clocks(game.clock, [s.seat for s in game.seats], now)}
