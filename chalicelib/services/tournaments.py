"""Tournaments as a service: load → authorize → director (pure) → save, and the games.

Each pairing plays one game of the tournament's game with its options (a Battle Line match
when ``match_games`` > 1), created automatically with an id derived from the tournament,
round and board, so that a re-run creates nothing twice. A round's end is noticed when its
last game finishes: the finished game's outbox message calls :meth:`Tournaments.advance`,
which is idempotent and may run any number of times.

A finished game writes nothing to its tournament (no key shared by the moves of different
games: docs/storage.md): the round's pairings are scored from their games when someone looks
(:meth:`Tournaments.scored`), and the tournament is written once the round is over, with its
scores and the next round's pairings.
"""

from __future__ import annotations

import copy
import logging
from typing import Callable

from ..http import cursors
from ..kernel import ids
from ..clocks import timecontrol
from ..kernel.calls import Idempotency, Outcome
from ..kernel.clock import Clock, iso
from ..kernel.errors import ServiceError
from ..http.models import ListTournamentsQuery
from ..notify import messages
from ..presenting.links import standings_csv_path, standings_page_path, tournament_trf_path
from ..store.records import GameRecord, Player, SeatRecord, TournamentRecord
from ..store.protocol import Store
from .idempotency import Idempotent, Recorder
from .life import GameLife
from ..store.errors import DuplicateItem, StoreUnavailable, VersionConflict
from ..kernel import lazy
from ..kernel.i18n import _

# The pairing rules and the TRF writer: loaded by the first tournament call, not by every cold start (issue 39 item 5)
director = lazy.module("chalicelib.tournaments.director")
trf = lazy.module("chalicelib.tournaments.trf")

logger = logging.getLogger("battleline.tournaments")

ATTEMPTS = 8  # optimistic retries when two updates of one tournament race


class Tournaments:
    def __init__(self, store: Store, clock: Clock, *, life: GameLife, idempotent: Idempotent,
                 base_url: str = "") -> None:
        self.store = store
        self.idempotent = idempotent  # createTournament's Idempotency-Key
        self.base_url = base_url  # where browsers reach this API: the standings page's link
        self.clock = clock
        self.life = life  # the games' life: a round's games made, found, forfeited on a withdrawal
        self.engines = life.engines

    def now(self) -> str:
        return iso(self.clock.now())

    # ------------------------------------------------------------------ requests

    def create(self, player: Player, request, idempotency: Idempotency | None = None) -> Outcome:
        """createTournament, once per Idempotency-Key: a retry is answered the first answer (the
        tournament as it was made), and makes nothing."""
        return self.idempotent.run(player.id, idempotency, lambda record: self._create(player, request, record))

    def _create(self, player: Player, request, record: Recorder) -> dict:
        engine = self.engines.get(request.game)
        if engine is None:
            raise ServiceError("unknown_game_type", _("{game!r} games are not available on this server yet").format(
                                                      game=request.game))
        raw = with_time_policy(dict(request.options), request)
        native = "match_games" in engine.options_model.model_fields  # the game plays a match in one record
        if native and request.match_games > 1:
            if raw.get("match_games", request.match_games) != request.match_games:
                raise ServiceError("invalid_tournament", _("match_games is given twice, with two values"))
            raw["match_games"] = request.match_games
        options = self.life.game_options(engine, raw)
        if engine.seat_count(options) != 2:
            raise ServiceError("invalid_options", _("tournament games have two seats"))
        if request.rounds is not None and request.format != "swiss":
            raise ServiceError("invalid_tournament", _("rounds is set by the format; only a Swiss tournament "
                                                       "takes it"))
        match_games = options.get("match_games", 1) if native else request.match_games
        per_pairing = 1 if native else match_games
        data = director.new_tournament(
            ids.new_id("t"), request.name, engine.name, request.format, options, organiser=player.id,
            created_at=self.now(), seed=self.life.new_seed(), rounds=request.rounds,
            duplicate=request.duplicate, rated=request.rated, max_players=request.max_players,
            forfeit_points=engine.forfeit_points(options) * per_pairing, match_games=match_games,
            games_per_pairing=per_pairing, withdraw_on_timeout=request.withdraw_on_timeout)
        answer = self.view(data)
        self.store.put_tournament(TournamentRecord(data["id"], data, 0), None, idempotency=record(answer))
        return answer

    def get(self, tournament_id: str) -> dict:
        return self.view(self.scored(self._load(tournament_id).data))

    def scored(self, t: dict) -> dict:
        """The tournament with its current round's finished pairings scored (from their games: they
        are stored with the tournament once the whole round is over)."""
        found = copy.deepcopy(t)
        if found["status"] == "running":
            self._score_finished(found)
        return found

    def standings(self, tournament_id: str) -> dict:
        """Ranks with every tie-break by name, and the crosstable (docs/correspondence.md)."""
        data = self.scored(self._load(tournament_id).data)
        rows = director.standing_rows(data)
        order = director.tie_break_order(data)
        return {"tournament_id": data["id"], "name": data["name"], "game": data["game"], "format": data["format"],
                "status": data["status"], "round": data["round"], "rounds": data["rounds"],
                "tie_break": order[0], "tie_break_order": order, "standings": rows,
                "crosstable": director.crosstable(data, rows), "html_url": self.base_url + standings_page_path(data["id"]),
                "csv_url": self.base_url + standings_csv_path(data["id"]),
                "trf_url": self.base_url + tournament_trf_path(data["id"])}

    def trf(self, tournament_id: str) -> tuple[str, str]:
        """The tournament as a TRF-16 file (chalicelib/tournaments/trf.py): its text and the id."""
        data = self.scored(self._load(tournament_id).data)
        return trf.write(data, director.standing_rows(data)), data["id"]

    def join(self, player: Player, tournament_id: str) -> dict:
        profile = self.store.get_player(player.id)  # a bot account enters as one (shown so)
        bot = bool(profile and profile.bot)
        return self.view(self._update(tournament_id, lambda t: director.join(t, player.id, player.name, bot)))

    def start(self, player: Player, tournament_id: str) -> dict:
        def begin(t: dict) -> list[dict]:
            if t["organiser"] != player.id:
                raise ServiceError("not_organiser", _("only the tournament's organiser may start it"))
            pool = self.engines[t["game"]].rating_pool(t["options"])  # a Khan & General card set's own ratings
            ratings = {p["player_id"]: self.store.get_rating(p["player_id"], pool).rating for p in t["players"]}
            _name_games(t, director.start(t, ratings))

        return self.view(self._games_now(self._update(tournament_id, begin)))

    def withdraw(self, player: Player, tournament_id: str) -> dict:
        """Leave the tournament; its games in progress are lost, now and (should the store fail
        midway) by the outbox message saved with the withdrawal."""
        playing: list[str] = []

        def leave(t: dict) -> None:
            playing[:] = director.withdraw(t, player.id)  # a retried update starts afresh

        def outbox(t: dict) -> list[messages.Message]:
            return [messages.tournament_withdrawal(t["id"], player.id, playing, self.now())] if playing else []

        self._update(tournament_id, leave, outbox)
        self._lose_games(tournament_id, player.id, playing)
        return self.get(tournament_id)

    def _lose_games(self, tournament_id: str, player_id: str, game_ids: list[str]) -> None:
        """A withdrawn player's games in progress are lost. Safe to run again."""
        self.advance(tournament_id)  # makes any of the round's games still missing, so none escapes below
        for game_id in game_ids:
            for _attempt in range(ATTEMPTS):
                game = self.life.find(game_id)
                seat = game.seat_of(player_id) if game else None
                if game is None or game.status != "active" or seat is None:
                    break
                if self.life.forfeit(game, seat, "withdrawn") is not None:
                    break
        self.advance(tournament_id)

    def settle_game(self, game: GameRecord) -> None:
        """A finished game's consequences for its tournament (from its ``server.game_finished`` message,
        once per game, and safe to run again), in one write of the tournament: a seat that lost on time
        (or forfeited by never moving) is withdrawn if the tournament says so (``withdraw_on_timeout``);
        then the round goes on if it is over. The withdrawn player's other games in progress are lost
        after it (and by the outbox message saved with it, should this stop midway)."""
        loser = timed_out_player(game, self.engines[game.game].result(game.state))
        playing: list[str] = []

        def step(t: dict) -> None:
            playing[:] = []
            entry = next((p for p in t["players"] if p["player_id"] == loser), None)
            if t.get("withdraw_on_timeout", True) and t["status"] == "running" and entry and not entry["withdrawn"]:
                playing[:] = director.withdraw(t, loser)  # not withdrawn yet: a re-run changes nothing
            self._advance_step(t)

        def outbox(t: dict) -> list[messages.Message]:
            return [messages.tournament_withdrawal(t["id"], loser, playing, self.now())] if playing else []

        self._games_now(self._update(game.tournament_id, step, outbox))
        if playing:
            logger.info("tournament %s: %s lost on time and is withdrawn", game.tournament_id, loser)
            self._lose_games(game.tournament_id, loser, playing)

    def finish_withdrawal(self, message: messages.Message) -> None:
        """The outbox's side of a withdrawal: lose the games the request that withdrew could not."""
        self._lose_games(message.data["tournament_id"], message.data["player_id"], message.data["games"])

    # ------------------------------------------------------------------ progress

    def advance(self, tournament_id: str) -> None:
        """When the current round is over (every pairing scored from its games), store its scores,
        pair the next one and create its games (or finish); before that, write nothing. Safe to run
        again and beside itself."""
        self._games_now(self._update(tournament_id, self._advance_step))

    def _advance_step(self, t: dict) -> None:
        """If the current round is over, store its scores and pair the next one (or finish)."""
        scored = self.scored(t)
        if not director.round_complete(scored):
            return
        t.update(scored)
        while director.round_complete(t):
            _name_games(t, director.next_round(t))

    def _score_finished(self, t: dict) -> None:
        engine = self.engines[t["game"]]
        for pairing in director.current_pairings(t):
            if pairing["points"] is not None or not pairing["games"]:
                continue
            games = [self.life.find(game_id) for game_id in pairing["games"]]
            if any(g is None or g.status != "finished" for g in games):
                continue
            first_player = t["players"][pairing["first"] - 1]["player_id"]
            points, flags = [0.0, 0.0], [0, 0]
            flags_won = getattr(engine, "flags_won", None)  # a tie-break of the games that have flags
            for game in games:
                result = engine.result(game.state)
                by_seat = engine.match_points(result, t["options"])
                first_seat = str(game.seat_of(first_player))
                points[0] += by_seat[first_seat]
                points[1] += sum(p for seat, p in by_seat.items() if seat != first_seat)
                if flags_won is not None:
                    held = flags_won(result)
                    flags[0] += held.get(first_seat, 0)
                    flags[1] += sum(n for seat, n in held.items() if seat != first_seat)
                if result.get("reason") == "withdrawn":
                    pairing["forfeit"] = True  # lost by withdrawing, not played out (director.annulled)
            pairing["points"] = points
            if flags_won is not None:
                pairing["flags"] = flags

    def _games_now(self, t: dict) -> dict:
        """Make the round's games in this request, so its answer shows them; if the store fails
        midway, the round's outbox message makes the rest."""
        try:
            self._create_games(t)
        except StoreUnavailable:
            logger.warning("tournament %s: round %s games left to the outbox", t["id"], t["round"], exc_info=True)
        return t

    def _create_games(self, t: dict) -> dict:
        """Create the current round's games that do not exist yet. Runs after the tournament was
        saved, so a game is only ever made for a pairing that stands; a crash in between leaves
        the rest to the next run (every finished game and every withdrawal runs it again)."""
        engine = self.engines[t["game"]]
        for pairing in director.current_pairings(t):
            for game_id in pairing["games"]:
                if self.life.find(game_id) is not None:
                    continue
                first, second = (t["players"][pairing[side] - 1] for side in ("first", "second"))
                if pairing["games"].index(game_id) % 2:  # a pairing's games alternate the seats
                    first, second = second, first
                seats = [SeatRecord(1, first["player_id"], first["name"]),
                         SeatRecord(2, second["player_id"], second["name"])]
                game, created = self.life.new_game_record(
                    engine, game_id, t["options"], seats, director.board_seed(t, pairing["round"], pairing["board"]),
                    t["organiser"], rated=t["rated"], tournament_id=t["id"], seed_withheld=t["duplicate"])
                try:
                    self.store.create_game(game, [created], None, messages.for_new_game(game))
                except DuplicateItem:
                    pass  # a run beside this one made it first
        return t

    # ------------------------------------------------------------------ storage

    def _load(self, tournament_id: str) -> TournamentRecord:
        found = self.store.load_tournament(tournament_id) if ids.ID.fullmatch(tournament_id) else None
        if found is None:
            raise ServiceError("tournament_not_found", _("there is no tournament {tournament_id!r}").format(
                                                         tournament_id=tournament_id))
        return found

    def _update(self, tournament_id: str, change: Callable[[dict], object],
                outbox: Callable[[dict], list[messages.Message]] | None = None) -> dict:
        """Apply ``change`` to a fresh copy and save it on the version read; retry if it raced. A change
        that pairs a round saves, in the same transaction, the outbox message that makes its games,
        and ``outbox``'s messages for the changed copy."""
        for _attempt in range(ATTEMPTS):
            record = self._load(tournament_id)
            data = copy.deepcopy(record.data)
            try:
                change(data)
            except director.TournamentRefused as refused:
                raise ServiceError(refused.code, refused.reason) from None
            if data == record.data:
                return data
            paired = data["round"] != record.data["round"] and director.current_pairings(data)
            sent = [messages.tournament_games(data["id"], data["round"], self.now())] if paired else []
            sent += outbox(data) if outbox else []
            if data["status"] == "finished" and record.data["status"] != "finished":
                sent.append(messages.tournament_finished(data["id"], self.now()))
            try:
                self.store.put_tournament(TournamentRecord(record.id, data, record.version + 1), record.version,
                                          sent)
            except VersionConflict:
                continue
            return data
        raise ServiceError("version_conflict", _("the tournament is busy; try again"), current_version=None)

    def make_games(self, message: messages.Message) -> None:
        """The outbox's side of a paired round: make its games if the request that paired it could not."""
        found = self.store.load_tournament(message.data["tournament_id"])
        if found is not None and found.data["round"] == message.data["round"]:
            self._create_games(found.data)

    def news(self, message: messages.Message) -> list[messages.Message]:
        """What each player is told by email of a paired round (``server.tournament_games``: their
        games and opponents, or their bye) or of the event's end (``server.tournament_finished``:
        the final standings); from the tournament as it stands, with only what every player may see."""
        found = self.store.load_tournament(message.data["tournament_id"])
        if found is None:
            return []
        t, now = found.data, self.now()
        head = {"name": t["name"], "rounds": t["rounds"], "game": t["game"]}
        by_seed = {p["seed"]: p for p in t["players"]}
        if message.type == messages.TOURNAMENT_FINISHED:
            if t["status"] != "finished":
                return []
            standings = self.standings(t["id"])
            top = [{"rank": r["rank"], "name": r["name"], "points": r["points"]} for r in standings["standings"]]
            return [messages.tournament_news(messages.EVENT_ENDED, t["id"], t["round"], r["player_id"], {
                **head, "rank": r["rank"], "points": r["points"], "standings": top[:10], "players": len(top)}, now)
                for r in standings["standings"] if not director.bot_mark(by_seed.get(r["seed"]) or {})]
        if message.data.get("round") != t["round"]:
            return []
        told = []
        for pairing in director.current_pairings(t):
            first = by_seed[pairing["first"]]
            if pairing["second"] is None:
                told.append(messages.tournament_news(messages.BYE, t["id"], t["round"], first["player_id"], {
                    **head, "points": director.bye_points(t)}, now))
                continue
            second = by_seed[pairing["second"]]
            for me, other in ((first, second), (second, first)):
                games = [{"game_id": game_id, "seat": 1 if (index % 2 == 0) == (me is first) else 2}
                         for index, game_id in enumerate(pairing["games"])]  # (a pairing's games alternate seats)
                told.append(messages.tournament_news(messages.ROUND_PAIRED, t["id"], t["round"], me["player_id"], {
                    **head, "opponent": other["name"], "games": games}, now))
        return told

    def list_tournaments(self, query: ListTournamentsQuery) -> dict:
        """Tournaments newest first, of one status or all three, a page at a time (an index spread
        over 16 partitions a status, merged: docs/storage.md)."""
        scope = query.status or ""
        before = cursors.decode(query.cursor, "tournaments", scope, lambda a: isinstance(a, str) and len(a) <= 200)
        statuses = [query.status] if query.status else ["open", "running", "finished"]
        found, last = self.store.list_tournaments(statuses, query.limit, before)
        return {"tournaments": found, "next_cursor": cursors.encode("tournaments", scope, last) if last else None}

    # ------------------------------------------------------------------ views

    def view(self, t: dict) -> dict:
        by_seed = {p["seed"]: p for p in t["players"]}
        gone = director.annulled(t)  # (a round robin's: none elsewhere)

        def who(seed: int | None) -> dict | None:
            if seed is None:
                return None
            return {"seed": seed, "player_id": by_seed[seed]["player_id"], "name": by_seed[seed]["name"],
                    **director.bot_mark(by_seed[seed])}

        return {
            "id": t["id"], "tournament_id": t["id"], "name": t["name"], "game": t["game"], "format": t["format"], "rounds": t["rounds"],
            **({"rounds_asked": t["rounds_asked"]} if t.get("rounds_asked") else {}),
            "options": t["options"], "match_games": t.get("match_games", t["options"].get("match_games", 1)),
            "duplicate": t["duplicate"], "rated": t["rated"], "withdraw_on_timeout": t.get("withdraw_on_timeout", True),
            "time_policy": timecontrol.policy(t["options"]["time_control"]) if t["options"].get("time_control")
            else None,
            "max_players": t["max_players"], "status": t["status"], "organiser": t["organiser"],
            "created_at": t["created_at"], "round": t["round"], "stopped": t.get("stopped"),
            "players": [{"player_id": p["player_id"], "name": p["name"], "seed": p["seed"],
                         "withdrawn": p["withdrawn"], **director.bot_mark(p)} for p in t["players"]],
            "pairings": [{"round": p["round"], "board": p["board"], "first": who(p["first"]),
                          "second": who(p["second"]), "game_ids": p["games"], "points": p["points"],
                          "forfeit": p["forfeit"], "annulled": p["second"] is not None
                          and bool({p["first"], p["second"]} & gone)} for p in t["pairings"]],
        }


def timed_out_player(game: GameRecord, result: dict | None) -> str | None:
    """The player who lost the game on time (``timeout``) or by never moving (``forfeit``), or None."""
    if not result or result.get("reason") not in ("timeout", "forfeit") or result.get("winner") is None:
        return None
    return next((s.player_id for s in game.seats if s.seat != result["winner"]), None)
def with_time_policy(options: dict, request) -> dict:
    """The games' options with the tournament's time policy: its ``time_control`` (given beside the
    options or in them), ``vacations_allowed`` and ``weekend_pause`` go into the games' time control."""
    control = options.get("time_control")
    if request.time_control is not None:
        if control is not None and control != request.time_control:
            raise ServiceError("invalid_tournament", _("time_control is given twice, with two values"))
        control = request.time_control
    chosen = {name: getattr(request, name) for name in ("vacations_allowed", "weekend_pause")
              if getattr(request, name) is not None}
    if chosen and not isinstance(control, dict):
        raise ServiceError("invalid_tournament", _("vacations_allowed and weekend_pause need a time_control"))
    if control is not None:
        options["time_control"] = {**control, **chosen} if isinstance(control, dict) else control
    return options


def _name_games(t: dict, pairings: list[dict]) -> None:
    """Each new pairing's game ids, derived from the tournament, round, board (and game)."""
    count = t.get("games_per_pairing", 1)
    for pairing in pairings:
        board = f"{t['id']}-r{pairing['round']}-b{pairing['board']}"
        pairing["games"] = [board] if count == 1 else [f"{board}-g{n}" for n in range(1, count + 1)]


