"""Vacations: whole days off that stop all a player's clocks (the rules: :mod:`chalicelib.clocks.vacation`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..clocks import timecontrol, vacation
from ..kernel.clock import Clock
from ..kernel.errors import ServiceError
from ..store.records import Caller, Player
from ..store.protocol import Store
from .life import GameLife
from .players import profile


class Vacations:
    def __init__(self, store: Store, clock: Clock, *, life: GameLife, days: int = vacation.DAYS_PER_YEAR) -> None:
        self.store = store
        self.clock = clock
        self.life = life  # the games a vacation stops the clocks of: found, their deadlines moved
        self.days = days  # per calendar year

    def vacation_status(self, player: Player) -> dict:
        return vacation.status(player.vacation, self.clock.now(), self.days)

    def take_vacation(self, caller: Caller, days: int) -> dict:
        now = self.clock.now()
        player = profile(self.store, caller)
        try:
            taken = vacation.take(player.vacation, now, days, self.days)
        except vacation.VacationRefused as refused:
            raise ServiceError(refused.code, refused.reason) from None
        return self._set_vacation(player, taken, now)

    def end_vacation(self, caller: Caller) -> dict:
        now = self.clock.now()
        player = profile(self.store, caller)
        try:
            ended = vacation.end(player.vacation, now)
        except vacation.VacationRefused as refused:
            raise ServiceError(refused.code, refused.reason) from None
        return self._set_vacation(player, ended, now)

    def _set_vacation(self, player: Player, record: dict, now: datetime) -> dict:
        """Tell each unfinished game of the player (a clock passed to them later stops for it, with no
        read of their record in the move), move the deadlines of the games waiting for their move,
        then store the vacation. The player's record is written last: if the store fails midway, the
        vacation is not taken and a retry does it all again (a deadline moved for a vacation never
        stored is undone, since the sweeper re-reads vacations before any timeout, as it does when a
        move races this)."""
        for m in self.store.list_memberships(player.id):
            if m.status == "finished":
                continue
            self.store.set_seat_vacation(m.game_id, player.id, record)  # clocks passed to them from now on
            if m.status != "active" or m.to_move != m.seat:
                continue
            for _ in range(3):
                game = self.life.find(m.game_id)
                if game is None or game.clock is None or game.clock["running"] is None \
                        or game.clock["running"]["seat"] != m.seat:
                    break
                clock = timecontrol.with_vacations(game.clock, vacation.intervals(record), now)
                if clock == game.clock:
                    break  # its clock does not stop for vacations (or already knew this one)
                moved = self.life.timed(replace(game, clock=clock), None)
                if self.store.save_clock(moved):
                    break
        self.store.set_vacation(player.id, record)
        return vacation.status(record, now, self.days)
