"""The competitions area (``store.protocol.CompetitionStore``) in memory: tournaments (each write on
its version, with its messages) and ladders (rungs, players and open challenges, each change all or
nothing on the conditions DynamoDB's transactions check)."""

from __future__ import annotations

from dataclasses import replace

from ..records import (
    EventRecord,
    GameRecord,
    IdempotencyRecord,
    LadderBoard,
    LadderChallenge,
    LadderRecord,
    Message,
    RungRecord,
    TournamentRecord,
)
from .. import keys
from ..errors import DuplicateItem, IdempotencyRace, VersionConflict
from ..items import outbox, tournament_summary, typed
from .table import MemoryTable, as_json, kept


class MemoryCompetitions(MemoryTable):
    """Tournaments and ladders."""

    def put_tournament(self, tournament: TournamentRecord, expected_version: int | None,
                       messages: list[Message] = (), idempotency: IdempotencyRecord | None = None) -> None:
        stored = self._tournaments.get(tournament.id)
        if (stored is not None) if expected_version is None else (stored is None or stored.version != expected_version):
            raise VersionConflict(None)
        if idempotency is not None:
            if not self._idempotency_free(idempotency):
                raise IdempotencyRace()
            self._put_idempotency(idempotency)
        self._tournaments[tournament.id] = TournamentRecord(tournament.id, as_json(tournament.data), tournament.version)
        self._emit("INSERT" if stored is None else "MODIFY",
                   typed({**keys.tournament(tournament.id), "outbox": outbox(messages)}))

    def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        return kept(self._tournaments.get(tournament_id))

    def list_tournaments(self, statuses: list[str], limit: int, before: str | None) -> tuple[list[dict], str | None]:
        rows = [(f"{t.data['created_at']}#{t.id}", tournament_summary(t.data)) for t in self._tournaments.values()
                if t.data["status"] in statuses]
        return self._newest_first(rows, limit, before)

    @staticmethod
    def _newest_first(rows: list[tuple[str, object]], limit: int, before: str | None) -> tuple[list, str | None]:
        rows = sorted((r for r in rows if before is None or r[0] < before), key=lambda r: r[0], reverse=True)
        page = rows[:limit]
        return [kept(value) for _, value in page], page[-1][0] if len(rows) > limit and page else None

    # ------------------------------------------------------------------ ladders

    def create_ladder(self, ladder: LadderRecord, idempotency: IdempotencyRecord | None = None) -> bool:
        found = self._ladders.get(ladder.id)
        if found is not None and found["ladder"] is not None:
            return False
        if idempotency is not None:
            if not self._idempotency_free(idempotency):
                raise IdempotencyRace()
            self._put_idempotency(idempotency)
        found = self._ladders.setdefault(ladder.id, {"ladder": None, "members": {}, "rungs": {}, "challenges": {}})
        found["ladder"] = LadderRecord(**as_json(ladder.as_json()))
        return True

    def load_ladder(self, ladder_id: str) -> LadderBoard | None:
        found = self._ladders.get(ladder_id)
        if found is None or found["ladder"] is None:
            return None
        members = found["members"]
        rungs = [self._rung(members[p]) for position, p in sorted(found["rungs"].items())
                 if p in members and members[p]["pos"] == position]
        challenges = sorted((replace(c, answer_due=c.answer_due) for c in found["challenges"].values()),
                            key=lambda c: c.created_at)
        return LadderBoard(kept(found["ladder"]), rungs, kept(challenges))

    @staticmethod
    def _rung(member: dict) -> RungRecord:
        return RungRecord(member["player_id"], member["name"], member["pos"], member["open"], member["joined_at"],
                          member["active_at"], member["bot"])

    def list_ladders(self, limit: int, before: str | None) -> tuple[list[LadderRecord], str | None]:
        rows = [(f"{f['ladder'].created_at}#{ladder_id}", f["ladder"]) for ladder_id, f in self._ladders.items()
                if f["ladder"] is not None and f["ladder"].organiser]
        return self._newest_first(rows, limit, before)

    def join_ladder(self, ladder_id: str, rung: RungRecord, idle_at: str) -> str:
        found = self._ladders.setdefault(ladder_id, {"ladder": None, "members": {}, "rungs": {}, "challenges": {}})
        if rung.player_id in found["members"]:
            return "already"
        if rung.position in found["rungs"]:
            return "taken"
        found["members"][rung.player_id] = {
            "player_id": rung.player_id, "name": rung.name, "pos": rung.position, "open": rung.open_challenges,
            "joined_at": rung.joined_at, "active_at": rung.active_at, "bot": bool(rung.bot), "due_at": idle_at}
        found["rungs"][rung.position] = rung.player_id
        return "joined"

    @staticmethod
    def _pair(challenge: LadderChallenge) -> str:
        return "|".join(sorted((challenge.challenger, challenge.challenged)))

    def open_ladder_challenge(self, game: GameRecord, events: list[EventRecord], messages: list[Message],
                              idempotency: IdempotencyRecord | None, challenge: LadderChallenge,
                              players: list[tuple[RungRecord, str]], max_open: int) -> str:
        if idempotency is not None and not self._idempotency_free(idempotency):
            raise IdempotencyRace()
        found = self._ladders.get(game.ladder_id) or {"members": {}, "challenges": {}}
        if self._pair(challenge) in found["challenges"]:
            return "already_challenged"
        if game.id in self._settings:
            raise DuplicateItem(game.id)
        members = found["members"]
        for rung, _ in players:
            member = members.get(rung.player_id)
            if member is None or member["pos"] != rung.position or member["open"] >= max_open:
                return "changed"
        self._new_game(game, events, messages)
        found["challenges"][self._pair(challenge)] = replace(kept(challenge), answer_due=challenge.answer_due)
        for rung, idle_at in players:
            members[rung.player_id].update(open=members[rung.player_id]["open"] + 1, active_at=challenge.created_at,
                                           due_at=idle_at)
        if idempotency is not None:
            self._put_idempotency(idempotency)
        return "opened"

    def settle_ladder_challenge(self, ladder_id: str, challenge: LadderChallenge,
                                players: list[tuple[RungRecord, str]], move: tuple[RungRecord, str] | None,
                                now: str, messages: list[Message]) -> str:
        if (challenge.game_id, "LADDER_RESULT") in self._marks:
            return "already"
        found = self._ladders.get(ladder_id) or {"members": {}, "rungs": {}, "challenges": {}}
        members, rungs = found["members"], found["rungs"]
        open_one = found["challenges"].get(self._pair(challenge))
        if open_one is None or open_one.game_id != challenge.game_id \
                or any(members.get(r.player_id, {}).get("pos") != r.position for r, _ in players) \
                or (move is not None and (rungs.get(move[0].position) != move[0].player_id or move[1] in rungs)):
            return "changed"
        self._marks.add((challenge.game_id, "LADDER_RESULT"))
        del found["challenges"][self._pair(challenge)]
        for rung, idle_at in players:
            members[rung.player_id].update(open=members[rung.player_id]["open"] - 1, active_at=now, due_at=idle_at)
            if move is not None and rung.player_id == move[0].player_id:
                members[rung.player_id]["pos"] = move[1]
        if move is not None:
            del rungs[move[0].position]
            rungs[move[1]] = move[0].player_id
        self._emit("INSERT", typed({**keys.ladder_result(challenge.game_id), "outbox": outbox(messages)}))
        return "settled"

    def leave_ladder(self, ladder_id: str, rung: RungRecord) -> bool:
        found = self._ladders.get(ladder_id)
        member = found and found["members"].get(rung.player_id)
        if not member or member["pos"] != rung.position or member["open"] != 0 or member["active_at"] != rung.active_at \
                or found["rungs"].get(rung.position) != rung.player_id:
            return False
        del found["members"][rung.player_id]
        del found["rungs"][rung.position]
        return True

    def ladder_challenge_answered(self, ladder_id: str, challenge: LadderChallenge) -> bool:
        found = (self._ladders.get(ladder_id) or {"challenges": {}})["challenges"].get(self._pair(challenge))
        if found is None or found.game_id != challenge.game_id:
            return False
        found.answer_due = False
        return True

    def set_ladder_idle_at(self, ladder_id: str, rung: RungRecord, idle_at: str) -> bool:
        member = (self._ladders.get(ladder_id) or {"members": {}})["members"].get(rung.player_id)
        if member is None or member["pos"] != rung.position:
            return False
        member["due_at"] = idle_at
        return True

    def due_ladders(self, now: str, limit: int = 100) -> list[str]:
        due = []
        for ladder_id, found in self._ladders.items():
            for player_id, member in found["members"].items():
                due.append((keys.ladder_due(ladder_id, player_id, "")["due"], member["due_at"], ladder_id))
            for c in found["challenges"].values():
                if c.answer_due:
                    due.append((keys.ladder_due(ladder_id, c.game_id, "")["due"], c.respond_by, ladder_id))
        due = sorted(d for d in due if d[1] <= now)[:limit]
        return list(dict.fromkeys(d[2] for d in due))
