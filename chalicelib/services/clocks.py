"""Clocks: the sweeper of timeouts and reminders.

The turn clock itself (passed from seat to seat, deadlines, vacations) is :mod:`.turnclock`'s;
time checks before a move and what a timeout does are the game's life's (:mod:`.life`).
:class:`Clocks` finds the games whose clock is due, through the ``due`` index, and sends reminders.
"""

from __future__ import annotations

from datetime import datetime

from ..clocks import timecontrol
from ..kernel.clock import Clock, iso
from ..notify import messages
from ..store.records import GameRecord
from ..store.protocol import Store
from .life import GameLife
from .turnclock import never_moved  # noqa: F401  (tests import it from here, where it lived)


class Clocks:
    """The scheduled sweeper over every game's clock: what runs out is applied by the game's life
    (:class:`~.life.GameLife`: the timeout, the abandonment), reminders are sent here."""

    def __init__(self, store: Store, clock: Clock, *, life: GameLife) -> None:
        self.store = store
        self.clock = clock
        self.life = life

    def time_out(self, game: GameRecord) -> tuple[GameRecord, bool]:
        """The running seat's deadline has passed: :meth:`GameLife.time_out`."""
        return self.life.time_out(game)

    def sweep_clocks(self, limit: int = 100) -> dict:
        """The scheduled sweeper: reminders that are due, and timeouts, found through the sparse
        ``due`` index (never a scan). Running it twice, or beside a move, does nothing twice."""
        now = self.clock.now()
        done = {"reminders": 0, "timeouts": 0}
        for game_id in self.store.due_games(iso(now), limit):
            game = self.life.find(game_id)
            if game is None or game.status != "active" or game.clock is None or game.clock["running"] is None:
                if game is not None:
                    self.store.set_game_due(game.id, game.version, None)
                continue
            if timecontrol.expired(game.clock, now):
                done["timeouts"] += self.life.time_out(game)[1]
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
