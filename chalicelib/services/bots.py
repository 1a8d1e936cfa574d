"""A bot seat's turn, played from the outbox (never inside another player's request)."""

from __future__ import annotations

import logging
import random
from typing import Callable

from .. import bots, observability
from ..bots import runner
from ..errors import ServiceError
from ..games import ENGINES, GameEngine, apply_steps
from ..notify import messages
from ..records import EventRecord, GameRecord
from ..store.errors import VersionConflict
from ..store.protocol import Store

logger = logging.getLogger("battleline.service")


class Bots:
    def __init__(self, store: Store, *, find: Callable[[str], GameRecord | None],
                 check_time: Callable[[GameRecord], GameRecord],
                 advance: Callable[[GameRecord, GameEngine, dict, list[dict]], tuple[GameRecord, list[EventRecord]]],
                 engines: dict[str, GameEngine] | None = None) -> None:
        self.store = store
        self.engines = engines or ENGINES
        self.find = find
        self.check_time = check_time
        self.advance = advance

    def play_bot(self, message: messages.Message) -> GameRecord | None:
        """A bot's turn, from the outbox (a ``BOT_TURN`` message; never inside another player's
        request): its steps are chosen from its seat's view and played like anyone's, at the version
        the turn began. Nothing happens if the game moved on meanwhile (someone resigned, time ran out)."""
        game = self.find(message.data["game_id"])
        seat = next((s for s in game.seats if s.seat == message.data["seat"]), None) if game else None
        if game is None or seat is None or not seat.bot or game.status != "active" \
                or game.version != message.data["version"] or game.to_move != seat.seat:
            return None
        observability.tag(game_id=game.id, seat=seat.seat)
        engine = self.engines[game.game]
        try:
            game = self.check_time(game)
        except ServiceError:
            return None  # its time ran out: the timeout was applied instead
        rng = random.Random(f"{game.id}/{game.version}/{seat.seat}")  # the same decision if the message comes twice
        steps = runner.bot_steps(engine, game.state, seat.seat, game.options, bots.bot(game.game, seat.bot), rng)
        state, raw_events = apply_steps(engine, game.state, seat.seat, steps)
        saved, events = self.advance(game, engine, state, raw_events)
        try:
            self.store.save_game(saved, game.version, events, None)
        except VersionConflict:
            return None  # a resignation or a timeout came first
        observability.count("actions")
        logger.info("bot %s played at version %s: %s", seat.bot, saved.version, " ".join(s["type"] for s in steps))
        return saved
