"""A bot seat's turn, played from the outbox (never inside another player's request)."""

from __future__ import annotations

import logging
import random

from .. import bots
from ..kernel import observability
from ..bots import runner
from ..games.base import RulesUnavailable
from ..kernel.errors import ServiceError
from ..notify import messages
from ..store.records import GameRecord
from ..store.errors import VersionConflict
from .life import GameLife

logger = logging.getLogger("battleline.service")


class Bots:
    def __init__(self, *, life: GameLife) -> None:
        self.life = life  # the game's life: the bot's move is played through it like anyone's

    def play_bot(self, message: messages.Message) -> GameRecord | None:
        """A bot's turn, from the outbox (a ``BOT_TURN`` message; never inside another player's
        request): its steps are chosen from its seat's view and played like anyone's, at the version
        the turn began. Nothing happens if the game moved on meanwhile (someone resigned, time ran out)."""
        game = self.life.find(message.data["game_id"])
        seat = next((s for s in game.seats if s.seat == message.data["seat"]), None) if game else None
        if game is None or seat is None or not seat.bot or game.status != "active" \
                or game.version != message.data["version"] or game.to_move != seat.seat:
            return None
        observability.tag(game_id=game.id, seat=seat.seat)
        try:
            return self._play(game, seat.seat, seat.bot)
        except RulesUnavailable as error:
            # The game's rules are gone from this server (a card set's file): trying again in a moment cannot
            # help, and a raise would hold up the outbox's other changes. Said once, for the operator.
            logger.error("bot %s cannot play game %s (seat %s, version %s) until its rules are restored: %s; "
                         "its turn is not retried: once they are back, redrive message %s %s", seat.bot, game.id,
                         seat.seat, game.version, error, message.id, message.data)
            return None

    def _play(self, game: GameRecord, seat: int, bot: str) -> GameRecord | None:
        engine = self.life.engines[game.game]
        try:
            game = self.life.check_time(game)
        except ServiceError:
            return None  # its time ran out: the timeout was applied instead
        rng = random.Random(f"{game.id}/{game.version}/{seat}")  # the same decision if the message comes twice
        steps = runner.bot_steps(engine, game.state, seat, game.options, bots.bot(game.game, bot), rng)
        try:
            saved, _events = self.life.play(game, engine, seat, steps)
        except (VersionConflict, ServiceError):
            return None  # a resignation or a timeout came first
        observability.count("actions")
        logger.info("bot %s played at version %s: %s", bot, saved.version, " ".join(s["type"] for s in steps))
        return saved
