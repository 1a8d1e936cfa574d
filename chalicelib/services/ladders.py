"""Ladders (docs/correspondence.md, "Ladders"): a standing ladder per game and ones an organiser
makes. A player joins at the bottom and challenges someone at most ``max_places_above`` places
above them (each with at most ``max_open_challenges`` open at once, made and received); the
challenge is a game made at once, waiting for the challenged player's answer (acceptGame /
declineGame) for ``response_days``. A challenger who wins takes the loser's place and everyone
between moves down one; declining, not answering in time, or calling the game off as the
challenged player counts as a loss; a draw, a loss, or the challenger calling it off moves
nothing. A player with no ladder game started or finished for ``idle_days`` leaves the ladder.

No hot key (docs/storage.md): a move writes nothing of a ladder. A challenge is written when it is
made and once more when its game's ``GAME_FINISHED`` message settles it (:meth:`Ladders.settle`),
and the only rung a result writes is the winner's (gapped positions: :mod:`chalicelib.ladders.positions`).
The sweeper (:meth:`Ladders.sweep`) finds unanswered challenges and idle players through the
sparse ``due`` index, never a scan.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import replace
from datetime import timedelta

from ..http import cursors
from ..kernel import ids
from ..ladders import positions
from ..clocks import timecontrol
from ..kernel.calls import Idempotency, Outcome
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..games import GameEngine
from ..kernel.i18n import _
from ..notify import messages
from ..store.records import (Caller, EventRecord, GameRecord, LadderBoard, LadderChallenge, LadderRecord, Player,
                       RungRecord, SeatRecord)
from ..store.protocol import Store
from .games import Games
from .life import GameLife
from .lobby import Lobby
from .idempotency import Idempotent, Recorder

logger = logging.getLogger("battleline.ladders")

ATTEMPTS = 8  # optimistic retries when two writes of one ladder's rungs race
# A standing ladder for each game, there without anyone making it: its settings are written by its
# first join (or challenge), and until then it is listed with these.
STANDING_NAMES = positions.STANDING_NAMES
STANDING_RULES = {"max_places_above": 5, "max_open_challenges": 3, "response_days": 3, "idle_days": 30,
                  "options": {"time_control": {"per_move_days": 3}}}
BUSY_LOOK = timedelta(days=1)  # an idle player with a challenge open is looked at again this much later


class Ladders:
    def __init__(self, store: Store, clock: Clock, *, life: GameLife, games: Games, lobby: Lobby,
                 idempotent: Idempotent) -> None:
        self.store = store
        self.clock = clock
        self.life = life  # the games' life: a challenge's game made, found
        self.engines = life.engines
        self.games = games  # a game's view
        self.lobby = lobby  # an unanswered challenge lapses as a decline
        self.idempotent = idempotent

    def now(self) -> str:
        return iso(self.clock.now())

    def _later(self, days: int) -> str:
        return iso(self.clock.now() + timedelta(days=days))

    # ------------------------------------------------------------------ requests

    def create(self, player: Player, request, idempotency: Idempotency | None = None) -> Outcome:
        """A ladder the caller organises (createLadder), once per Idempotency-Key: a retry is answered
        the first answer, and makes nothing."""
        return self.idempotent.run(player.id, idempotency, lambda record: self._create(player, request, record))

    def _create(self, player: Player, request, record: Recorder) -> dict:
        engine = self._engine(request.game)
        options = self.life.game_options(engine, dict(request.options))
        if engine.seat_count(options) != 2:
            raise ServiceError("invalid_options", _("ladder games have two seats"))
        made = LadderRecord(ids.new_id("l"), request.name, engine.name, options, request.max_places_above,
                            request.max_open_challenges, request.response_days, request.idle_days, player.id,
                            self.now())
        answer = self._view(LadderBoard(made, [], []))
        self.store.create_ladder(made, record(answer))
        return answer

    def list_ladders(self, query) -> dict:
        """The standing ladders (on the first page), then the organisers' newest first, a page at a time
        (an index spread over 16 partitions, merged: docs/storage.md)."""
        before = cursors.decode(query.cursor, "ladders", "", lambda a: isinstance(a, str) and len(a) <= 200)
        made, last = self.store.list_ladders(query.limit, before)
        standing = [self._standing(game) for game in self.engines if game in STANDING_NAMES] if before is None else []
        return {"ladders": [self._summary(ladder) for ladder in standing + made],
                "next_cursor": cursors.encode("ladders", "", last) if last else None}

    def get(self, ladder_id: str) -> dict:
        return self._view(self._board(ladder_id))

    def join(self, player: Player, ladder_id: str) -> dict:
        """Enter the ladder at the bottom."""
        board = self._board(ladder_id, materialize=True)
        profile = self.store.get_player(player.id)  # the caller's key names no more than id and name:
        bot = bool(profile and profile.bot)  # a bot account enters as one (shown so on its rung)
        for _attempt in range(ATTEMPTS):
            if board.rung_of(player.id) is not None:
                raise ServiceError("already_on_ladder", _("you are on this ladder already"))
            now = self.now()
            rung = RungRecord(player.id, player.name, positions.below(board.rungs[-1].position if board.rungs
                                                                        else None), 0, now, now, bot=bot)
            if self.store.join_ladder(ladder_id, rung, self._later(board.ladder.idle_days)) == "joined":
                return self.get(ladder_id)
            board = self._board(ladder_id)  # on it already (a retry), or someone else joined at that rung
        raise ServiceError("ladder_busy", _("the ladder changed meanwhile; try again"))

    def challenge(self, player: Player, ladder_id: str, request, idempotency: Idempotency | None) -> Outcome:
        """Challenge someone at most N places above: their game is made at once, waiting for their answer."""
        def run(record: Recorder) -> dict:
            for _attempt in range(ATTEMPTS):
                board = self._board(ladder_id)
                mine, theirs = self._check_challenge(board, player, request.player_id)
                opponent = self.store.get_player(theirs.player_id)
                game, created, challenge = self._challenge_game(board, player, mine, theirs, opponent)
                body = {**self._challenge_view(board, challenge), "game": self.games.view(game, game.seat_of(player.id))}
                idle_at = self._later(board.ladder.idle_days)
                invitation = {"id": board.ladder.id, "name": board.ladder.name, "respond_by": challenge.respond_by}
                done = self.store.open_ladder_challenge(
                    game, [created], messages.for_new_game(game, ladder=invitation), record(body), challenge,
                    [(mine, idle_at), (theirs, idle_at)], board.ladder.max_open_challenges)
                if done == "opened":
                    return body
                if done == "already_challenged":
                    raise ServiceError("already_challenged", _("you and {name} have a challenge open already").format(
                        name=theirs.name))
            raise ServiceError("ladder_busy", _("the ladder changed meanwhile; try again"))

        return self.idempotent.run(player.id, idempotency, run)

    def _check_challenge(self, board: LadderBoard, player: Caller, target: str) -> tuple[RungRecord, RungRecord]:
        ladder = board.ladder
        mine = board.rung_of(player.id)
        if mine is None:
            raise ServiceError("not_on_ladder", _("join the ladder before you challenge on it"))
        theirs = board.rung_of(target)
        if theirs is None:
            raise ServiceError("player_not_on_ladder", _("player {id} is not on this ladder").format(id=target))
        why = positions.reach(board.rank_of(player.id), board.rank_of(target), ladder.max_places_above)
        if why == "not_above":
            raise ServiceError("not_above", _("you challenge players above you ({name} is not)").format(
                name=theirs.name))
        if why == "too_far_above":
            raise ServiceError("too_far_above", _("{name} is more than {places} places above you").format(
                name=theirs.name, places=ladder.max_places_above), max_places_above=ladder.max_places_above)
        if any({c.challenger, c.challenged} == {player.id, target} for c in board.challenges):
            raise ServiceError("already_challenged", _("you and {name} have a challenge open already").format(
                name=theirs.name))
        if mine.open_challenges >= ladder.max_open_challenges:
            raise ServiceError("too_many_challenges", _("you have {count} open challenges, the most this ladder "
                                                        "allows").format(count=mine.open_challenges),
                               player_id=mine.player_id, max_open_challenges=ladder.max_open_challenges)
        if theirs.open_challenges >= ladder.max_open_challenges:
            raise ServiceError("too_many_challenges", _("{name} has {count} open challenges, the most this ladder "
                                                        "allows").format(name=theirs.name,
                                                                         count=theirs.open_challenges),
                               player_id=theirs.player_id, max_open_challenges=ladder.max_open_challenges)
        return mine, theirs

    def _challenge_game(self, board: LadderBoard, player: Caller, mine: RungRecord, theirs: RungRecord,
                        opponent: Player | None) -> tuple[GameRecord, EventRecord, LadderChallenge]:
        """The challenge's game: the challenged player (the higher) in seat 1, asked unless they accept
        every game made for them; the challenger in seat 2; who moves first is the options' (a random
        seat unless they name one); rated; the ladder's options and time control."""
        ladder = board.ladder
        engine = self.engines[ladder.game]
        accepts = opponent is not None and opponent.challenges == "accept"
        seats = [SeatRecord(1, theirs.player_id, opponent.name if opponent else theirs.name, accepted=accepts),
                 SeatRecord(2, player.id, player.name)]
        game, created = self.life.new_game_record(engine, ids.new_id("g"), copy.deepcopy(ladder.options), seats,
                                             self.life.new_seed(), player.id, rated=True)
        game = replace(game, ladder_id=ladder.id)
        challenge = LadderChallenge(game.id, player.id, theirs.player_id, self._later(ladder.response_days),
                                    self.now(), answer_due=not accepts)
        return game, created, challenge

    # ------------------------------------------------------------------ results

    def settle(self, game: GameRecord) -> None:
        """A finished ladder game's consequences, once (from its ``GAME_FINISHED`` message): its
        challenge closes and, when the challenger won, their rung moves just above the loser's."""
        for _attempt in range(ATTEMPTS):
            board = self.store.load_ladder(game.ladder_id) if game.ladder_id else None
            challenge = next((c for c in board.challenges if c.game_id == game.id), None) if board else None
            if challenge is None:
                return  # settled already
            challenger, challenged = board.rung_of(challenge.challenger), board.rung_of(challenge.challenged)
            if challenger is None or challenged is None:  # pragma: no cover - a player with a challenge stays
                logger.error("ladder %s: a player of game %s left with a challenge open", board.ladder.id, game.id)
                return
            move = None
            if self._challenger_won(game, challenge) and challenger.position > challenged.position:
                above = board.rungs[board.rank_of(challenged.player_id) - 2].position \
                    if board.rank_of(challenged.player_id) > 1 else None
                move = (challenger, positions.between(above, challenged.position))
            idle_at = self._later(board.ladder.idle_days)
            done = self.store.settle_ladder_challenge(
                board.ladder.id, challenge, [(challenger, idle_at), (challenged, idle_at)], move, self.now(),
                self._rank_messages(board, game, challenge) if move else [])
            if done in ("settled", "already"):
                if done == "settled" and move:
                    logger.info("ladder %s: %s took %s's place (game %s)", board.ladder.id, challenger.player_id,
                                challenged.player_id, game.id)
                return
        raise RuntimeError(f"could not settle ladder game {game.id}; the outbox will try again")

    def _challenger_won(self, game: GameRecord, challenge: LadderChallenge) -> bool:
        """The challenger won the game, or the challenged player declined it, let it lapse or called it
        off. A challenger who calls their challenge off loses nothing and wins nothing."""
        challenger_seat = game.seat_of(challenge.challenger)
        if game.ended is not None:
            reason, seat = game.ended.get("reason"), game.ended.get("seat")
            if reason in ("declined", "aborted"):
                return seat is not None and seat != challenger_seat
        result = game.result(self.engines[game.game].result(game.state)) or {}
        return result.get("winner") is not None and result.get("winner") == challenger_seat

    def _rank_messages(self, board: LadderBoard, game: GameRecord, challenge: LadderChallenge) -> list[messages.Message]:
        """The two players' new ranks (``ladder.rank_changed``): the winner takes the loser's rank, the
        loser goes one down (so does everyone between, who is not told)."""
        won_from = board.rank_of(challenge.challenger)
        taken = board.rank_of(challenge.challenged)
        return [messages.ladder_rank_changed(game, player_id, {"id": board.ladder.id, "name": board.ladder.name},
                                             before, after, self.now())
                for player_id, before, after in ((challenge.challenger, won_from, taken),
                                                 (challenge.challenged, taken, taken + 1))]

    # ------------------------------------------------------------------ the sweeper

    def sweep(self, limit: int = 100) -> dict:
        """Challenges not answered in time end declined (a loss for the challenged player, settled as
        any result); players idle for the ladder's ``idle_days`` leave it (one with a challenge open
        stays until it is over). Found through the ``due`` index, never a scan."""
        now = self.now()
        lapsed = left = 0
        for ladder_id in self.store.due_ladders(now, limit):
            board = self.store.load_ladder(ladder_id)
            if board is None:
                continue
            for challenge in board.challenges:
                if challenge.answer_due and challenge.respond_by <= now:
                    lapsed += self._lapse(ladder_id, challenge)
            for rung in board.rungs:
                idle_at = iso(timecontrol.parse_time(rung.active_at) + timedelta(days=board.ladder.idle_days))
                if idle_at > now:
                    continue
                if rung.open_challenges:
                    self.store.set_ladder_idle_at(ladder_id, rung, iso(self.clock.now() + BUSY_LOOK))
                elif self.store.leave_ladder(ladder_id, rung):
                    left += 1
                    logger.info("ladder %s: %s left, idle since %s", ladder_id, rung.player_id, rung.active_at)
        return {"lapsed": lapsed, "left": left}

    def _lapse(self, ladder_id: str, challenge: LadderChallenge) -> int:
        game = self.life.find(challenge.game_id)
        seat = game.seat_of(challenge.challenged) if game else None
        if game is not None and game.status == "waiting" and seat is not None:
            try:
                return 1 if self.lobby.lapse(game, seat) is not None else 0
            except ServiceError:
                return 0  # the game moved meanwhile (an answer at the last moment): the next sweep looks again
        self.store.ladder_challenge_answered(ladder_id, challenge)
        return 0

    # ------------------------------------------------------------------ reading

    def _engine(self, game: str) -> GameEngine:
        engine = self.engines.get(game)
        if engine is None:
            raise ServiceError("unknown_game_type", _("{game!r} games are not available on this server yet").format(
                game=game))
        return engine

    def _standing(self, game: str) -> LadderRecord:
        """A standing ladder's settings as they are before its first use."""
        return LadderRecord(game, STANDING_NAMES[game], game, copy.deepcopy(STANDING_RULES["options"]),
                            STANDING_RULES["max_places_above"], STANDING_RULES["max_open_challenges"],
                            STANDING_RULES["response_days"], STANDING_RULES["idle_days"], None, "")

    def _board(self, ladder_id: str, materialize: bool = False) -> LadderBoard:
        """The ladder; a standing ladder not used yet is written first if ``materialize`` (once, whoever
        comes first), else shown empty."""
        board = self.store.load_ladder(ladder_id) if ids.ID.fullmatch(ladder_id) else None  # else never the store's
        if board is not None:
            return board
        if ladder_id in STANDING_NAMES and ladder_id in self.engines:
            standing = replace(self._standing(ladder_id), created_at=self.now())
            if not materialize:
                return LadderBoard(standing, [], [])
            self.store.create_ladder(standing)  # False: someone else's first use came first
            found = self.store.load_ladder(ladder_id)
            if found is not None:
                return found
        raise ServiceError("ladder_not_found", _("there is no ladder {id!r}").format(id=ladder_id))

    @staticmethod
    def _name(ladder: LadderRecord) -> str:
        return positions.name(ladder.id, ladder.name)

    def _summary(self, ladder: LadderRecord) -> dict:
        return {"id": ladder.id, "name": self._name(ladder), "game": ladder.game, "standing": ladder.organiser is None,
                "organiser": ladder.organiser, "options": ladder.options,
                "max_places_above": ladder.max_places_above, "max_open_challenges": ladder.max_open_challenges,
                "response_days": ladder.response_days, "idle_days": ladder.idle_days,
                "created_at": ladder.created_at or None}

    def _view(self, board: LadderBoard) -> dict:
        """Rank, player, rating and open challenges (the ratings: one BatchGetItem of the players')."""
        pool = self.engines[board.ladder.game].rating_pool(board.ladder.options)  # a card set's own ratings
        ratings = self.store.get_ratings([r.player_id for r in board.rungs], pool) if board.rungs else {}
        rungs = [{"rank": rank, "player_id": r.player_id, "name": r.name,
                  "rating": round(ratings[r.player_id].rating), "provisional": ratings[r.player_id].provisional,
                  "open_challenges": r.open_challenges, "joined_at": r.joined_at, "last_active_at": r.active_at,
                  **({"bot_account": True} if r.bot else {})}
                 for rank, r in enumerate(board.rungs, start=1)]
        return {**self._summary(board.ladder), "players": rungs,
                "challenges": [self._challenge_view(board, c) for c in board.challenges]}

    @staticmethod
    def _challenge_view(board: LadderBoard, challenge: LadderChallenge) -> dict:
        def side(player_id: str) -> dict:
            rung = board.rung_of(player_id)
            return {"player_id": player_id, "name": rung.name if rung else "?", "rank": board.rank_of(player_id),
                    **({"bot_account": True} if rung and rung.bot else {})}

        return {"game_id": challenge.game_id, "challenger": side(challenge.challenger),
                "challenged": side(challenge.challenged), "respond_by": challenge.respond_by,
                "created_at": challenge.created_at}
