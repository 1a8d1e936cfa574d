"""Clocks: the turn clock of a game with a time control, time checks before a move, timeouts
and reminders (the sweeper).

:class:`TurnClock` passes the clock from seat to seat and knows deadlines and vacations; it
needs no other service. :class:`Clocks` applies what runs out: it forfeits a seat out of time
(through the ``forfeit`` it is given) and sends reminders.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Callable

from .. import timecontrol, vacation
from ..clock import Clock, iso
from ..errors import ServiceError
from ..notify import messages
from ..records import GameRecord
from ..store.protocol import Store
from ..i18n import _

Finder = Callable[[str], GameRecord | None]
Forfeit = Callable[[GameRecord, int, str], GameRecord | None]
Abandon = Callable[[GameRecord, int], GameRecord | None]


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


class Clocks:
    def __init__(self, store: Store, clock: Clock, *, find: Finder, forfeit: Forfeit, abandon: Abandon,
                 vacations: Callable[[GameRecord, int], list[timecontrol.Interval]],
                 timed: Callable[[GameRecord, datetime | None], GameRecord]) -> None:
        self.store = store
        self.clock = clock
        self.find = find
        self.forfeit = forfeit
        self.abandon = abandon
        self.vacations = vacations
        self.timed = timed

    def check_time(self, game: GameRecord) -> GameRecord:
        """Before a move: if the seat to move is out of time, it has lost and nothing else is played."""
        if not timecontrol.expired(game.clock, self.clock.now()):
            return game
        after, timed_out = self.time_out(game)
        if not timed_out and after.version == game.version:
            return after  # a vacation it had taken gave it more time
        raise ServiceError("time_expired", _("seat {seat} ran out of time; the game is over").format(
                                             seat=game.clock['running']['seat']), current_version=after.version)

    def time_out(self, game: GameRecord) -> tuple[GameRecord, bool]:
        """The running seat's deadline has passed by its clock: re-read its player's vacations (taken
        since the turn began) and either apply the timeout or move the deadline. Returns the game as
        it is now and whether this call timed the seat out; a concurrent move or timeout wins if it
        came first (the game is then reloaded)."""
        now = self.clock.now()
        seat = game.clock["running"]["seat"]
        clock = timecontrol.with_vacations(game.clock, self.vacations(game, seat), now)
        if timecontrol.expired(clock, now):
            done = self.run_out(game, seat)
            return (done, True) if done is not None else (self.find(game.id) or game, False)
        moved = self.timed(replace(game, clock=clock), None)
        return (moved if self.store.save_clock(moved) else self.find(game.id) or game), False

    def run_out(self, game: GameRecord, seat: int) -> GameRecord | None:
        """The seat is out of time. One that never moved abandoned the game: it is aborted, unrated and
        counts for nothing, except in a tournament or a ladder, where the seat forfeits (the other side
        wins, and the event scores it). Any other seat loses on time. None: the game moved on first."""
        if never_moved(game.clock, seat):
            if game.tournament_id or game.ladder_id:
                return self.forfeit(game, seat, "forfeit")
            return self.abandon(game, seat)
        return self.forfeit(game, seat, "timeout")

    def sweep_clocks(self, limit: int = 100) -> dict:
        """The scheduled sweeper: reminders that are due, and timeouts, found through the sparse
        ``due`` index (never a scan). Running it twice, or beside a move, does nothing twice."""
        now = self.clock.now()
        done = {"reminders": 0, "timeouts": 0}
        for game_id in self.store.due_games(iso(now), limit):
            game = self.find(game_id)
            if game is None or game.status != "active" or game.clock is None or game.clock["running"] is None:
                if game is not None:
                    self.store.set_game_due(game.id, game.version, None)
                continue
            if timecontrol.expired(game.clock, now):
                done["timeouts"] += self.time_out(game)[1]
                continue
            done["reminders"] += self._remind(game, now)
        return done

    def _remind(self, game: GameRecord, now: datetime) -> int:
        """Send the reminder due now, once for the turn's present deadline (a deadline a vacation moved
        gets its reminders again); the game's next look is at its next alarm."""
        seat = game.clock["running"]["seat"]
        player_id = next((s.player_id for s in game.seats if s.seat == seat), None)
        next_at = iso(timecontrol.next_alarm(game.clock, now).at)
        alarm = timecontrol.due_reminder(game.clock, now)
        if alarm is None:
            self.store.set_game_due(game.id, game.version, next_at)
            return 0
        left = int(timecontrol.time_left(game.clock, seat, now))
        message = messages.reminder(game, seat, player_id, alarm.kind, game.deadline, left, iso(now))
        outcome = self.store.send_reminder(game, timecontrol.reminder_mark(game.clock, alarm.kind),
                                           [message] if player_id else [], next_at)
        if outcome != "sent":
            self.store.set_game_due(game.id, game.version, next_at)
        return int(outcome == "sent")
