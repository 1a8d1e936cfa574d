"""How the store's records are laid out as DynamoDB items (docs/storage.md): a game's settings,
versions and head, and the players' memberships, built from records and read back; and the typing
of plain values as DynamoDB's attribute values. Pure: the calls are ``dynamodb.py``'s."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Iterable

from boto3.dynamodb.types import Binary, TypeDeserializer, TypeSerializer

from .records import (Change, Committed, EventRecord, GameRecord, IdempotencyRecord, LadderBoard, LadderChallenge, LadderRecord, Membership,
                       Message, RungRecord, SeatRecord)
from ..kernel.ids import idempotency_mark
from . import codec, keys

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


def typed(values: dict[str, Any]) -> dict:
    """Plain values as an item's attribute values (None: no attribute). Strings, whole numbers,
    booleans and bytes (nearly every attribute) are typed here at once; anything else as boto3's
    TypeSerializer types it (the same values: tests/store/test_wire.py)."""
    return {k: _typed(v) for k, v in values.items() if v is not None}


def _typed(value: Any) -> dict:
    kind = type(value)
    if kind is str:
        return {"S": value}
    if kind is int and -_LARGEST_N < value < _LARGEST_N:
        return {"N": str(value)}
    if kind is bool:
        return {"BOOL": value}
    if kind is bytes:
        return {"B": value}
    return _serializer.serialize(value)


def plain(item: dict) -> dict:
    """An item's attribute values as plain values (whole numbers as int, binary as bytes); a map, a
    list or a set as boto3's TypeDeserializer reads it."""
    return {k: _plain(v) for k, v in item.items()}


def _plain(value: dict) -> Any:
    if "S" in value:
        return value["S"]
    if "N" in value:
        number = Decimal(value["N"])
        return int(number) if number == number.to_integral_value() else float(number)
    if "B" in value:
        binary = value["B"]
        return binary.value if isinstance(binary, Binary) else bytes(binary)
    if "BOOL" in value:
        return value["BOOL"]
    if "NULL" in value:
        return None
    found = _deserializer.deserialize(value)
    return found.value if isinstance(found, Binary) else found


_LARGEST_N = 10 ** 38  # DynamoDB's numbers have 38 digits: beyond, TypeSerializer refuses (and says why)


def decimal(value: float) -> Decimal:
    """A float as DynamoDB stores numbers."""
    return Decimal(str(round(value, 6)))


def dumps(value: Any) -> str:
    """JSON as an attribute keeps it: compact, sorted, UTF-8 (not escaped: half the bytes for CJK names)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def typed_key(key: keys.Key) -> dict:
    """A key from :mod:`keys` as DynamoDB's ``Key`` argument."""
    return typed(key)


# ---------------------------------------------------------------------- a game's items

VACATION_PREFIX = "vacation#"  # a game's settings hold each seated player's vacations as "vacation#<player_id>"
HEAD_FIELDS = ("game", "v", "r", "st", "tm", "at", "dl", "mover", "move_due", "due", "due_at", "lobby", "lobby_at")


def settings_item(game: GameRecord) -> dict:
    """What a game is and who plays it (read with the latest version by every move: kept small)."""
    return typed({
        **keys.settings(game.id), "kind": "game", "id": game.id, "game": game.game,
        "seats": dumps([s.stored() for s in game.seats]), "options": dumps(game.options),
        "seed": game.seed, "seed_public": game.seed_public, "created_by": game.created_by,
        "created_at": game.created_at, "rated": game.rated or None, "tournament_id": game.tournament_id,
        "ladder_id": game.ladder_id,
        "seed_withheld": game.seed_withheld or None, "public": game.public or None, "deal_salt": game.deal_salt,
        "rules_version": game.rules_version,
        "quiet": {s.player_id for s in game.seats if s.quiet and s.player_id} or None,
        **{VACATION_PREFIX + s.player_id: dumps(s.vacation) for s in game.seats if s.player_id and s.vacation},
    })


def version_item(game: GameRecord, events: list[EventRecord], idempotency: IdempotencyRecord | None = None,
                 messages: Iterable[Message] = ()) -> dict:
    """A game version (``benchmarks/item_size.py`` measures it): the compressed state and events
    (``b``) and clock (``c``), and in short attributes what the outbox consumer and the head need
    without unpacking them: version, status, seat to move (now and before), event count, time,
    deadline, next look, who sits where, the request's Idempotency-Key, and the seq of the game's
    latest message (``lm``, once there is one: views read messages only when one is recent)."""
    finished = game.status == "finished"
    return typed({
        **keys.version(game.id, game.version), "v": game.version, "st": game.status, "tm": game.to_move,
        "pm": game.previous_to_move, "ec": game.event_count, "at": game.updated_at, "dl": game.deadline,
        "da": game.due_at, "who": seats_who(game.seats), "game": game.game,
        "b": codec.pack({"state": game.state, "events": [[e.type, e.seat, e.data, e.private] for e in events],
                         **({"ended": game.ended} if game.ended else {})}),
        "c": codec.pack(game.clock) if game.clock else None,
        "ik": idempotency_mark(idempotency.scope, idempotency.key) if idempotency else None,
        "fp": idempotency.fingerprint if idempotency else None,
        "rt": True if finished and game.rated else None, "tn": game.tournament_id if finished else None,
        "ld": game.ladder_id if finished else None,
        "outbox": outbox(messages), "lm": game.last_message,
    })


def head_item(game: GameRecord) -> dict:
    """The game's head: its latest version in brief, with its index entries (the player to move, the
    sweeper's next look)."""
    values = {**keys.head(game.id), "game": game.game, "v": game.version, "r": game.revision,
              "st": game.status, "tm": game.to_move, "at": game.updated_at, "dl": game.deadline}
    mover = next((s.player_id for s in game.seats if s.seat == game.to_move), None)
    if game.status == "active" and mover:
        values.update(keys.my_move(mover, game.deadline))
    if game.status == "active" and game.due_at:
        values.update(keys.clock_due(game.id, game.due_at))
    if game.status == "waiting" and any(s.open for s in game.seats):
        values.update(keys.open_game(game.game, game.id, game.created_at))
    return typed(values)


def outbox(messages: Iterable[Message]) -> bytes | None:
    """Messages as an item carries them for the outbox consumer, compressed (None: no attribute)."""
    listed = [{"msg_id": m.id, "type": m.type, "player_id": m.player_id, "data": m.data, "created_at": m.created_at}
              for m in messages]
    return codec.pack(listed) if listed else None


def seats_who(seats: list[SeatRecord]) -> str:
    """Who sits in each seat, in seat order, as a version records it: a player id (``-`` before it
    when they can be told nothing), ``@<bot>``, or nothing while an invitation waits."""
    return "|".join(("-" if s.quiet else "") + s.player_id if s.player_id else f"@{s.bot}" if s.bot else ""
                    for s in seats)


def seats_from_who(who: str) -> list[SeatRecord]:
    """The seats a version's ``who`` names (player ids, bots and the quiet mark only)."""
    seats = []
    for number, part in enumerate(who.split("|") if who else [], start=1):
        bot = part[1:] if part.startswith("@") else None
        player = part.removeprefix("-") if part and not bot else None
        seats.append(SeatRecord(number, player, "", bot=bot, quiet=part.startswith("-")))
    return seats


def events_from(item: dict) -> list[EventRecord]:
    """The events a version item added, numbered from its event count."""
    raw = codec.unpack(item["b"])["events"]
    first = item["ec"] - len(raw) + 1
    game_id = keys.game_id_of(item["PK"])
    return [EventRecord(game_id, first + i, item["v"], kind, seat, data, item["at"], private)
            for i, (kind, seat, data, private) in enumerate(raw)]


def game_from(settings: dict, version: dict) -> GameRecord:
    """The game as a version left it, with its settings."""
    body = codec.unpack(version["b"])
    quiet = settings.get("quiet", set())
    away = {k.removeprefix(VACATION_PREFIX): v for k, v in settings.items() if k.startswith(VACATION_PREFIX)}
    return GameRecord(
        id=settings["id"], game=settings["game"], version=version["v"], status=version["st"],
        seats=[SeatRecord(s["seat"], s["player_id"], s["name"], s.get("email"), s.get("bot"),
                          s["player_id"] in quiet, json.loads(away[s["player_id"]]) if s["player_id"] in away else None,
                          s.get("accepted", True), s.get("open", False), s.get("rating_min"), s.get("rating_max"),
                          s.get("time_zone"), s.get("bot_account", False))
               for s in json.loads(settings["seats"])],
        options=json.loads(settings["options"]), state=body["state"],
        seed=int(settings["seed"]), seed_public=settings["seed_public"], created_by=settings["created_by"],
        created_at=settings["created_at"], updated_at=version["at"], event_count=version["ec"],
        to_move=version.get("tm"), clock=codec.unpack(version["c"]) if "c" in version else None,
        deadline=version.get("dl"), due_at=version.get("da"), rated=settings.get("rated", False),
        tournament_id=settings.get("tournament_id"), ladder_id=settings.get("ladder_id"), seed_withheld=settings.get("seed_withheld", False),
        public=settings.get("public", False), deal_salt=settings.get("deal_salt"),
        rules_version=settings.get("rules_version"),
        request=(version["ik"], version["fp"]) if "ik" in version else None, ended=body.get("ended"),
        last_message=version.get("lm"),
    )


def committed_game(item: dict) -> GameRecord:
    """The game as a version item alone tells it (for the outbox consumer: no settings read)."""
    return GameRecord(
        id=keys.game_id_of(item["PK"]), game=item.get("game", ""), version=item["v"], status=item["st"],
        seats=seats_from_who(item.get("who", "")), options={}, state={}, seed=0, seed_public=False,
        created_by="", created_at=item["at"], updated_at=item["at"], event_count=item["ec"],
        to_move=item.get("tm"), deadline=item.get("dl"), due_at=item.get("da"), rated=item.get("rt", False),
        tournament_id=item.get("tn"), ladder_id=item.get("ld"), revision=item.get("r", 0))


def message_from(item: dict) -> Message:
    """A message as an item's ``outbox`` attribute lists it."""
    return Message(item["msg_id"], item["type"], item["player_id"], item["data"], item["created_at"])


def change_of(event_name: str, image: dict) -> Change | None:
    """What the outbox consumer makes of one stream record (its event name and new image, as DynamoDB
    types it): a game version committed (``new`` unless rewritten in place) and the messages the
    item carries; None when it has nothing to do with it. The in-memory store's feed is made by it
    too, so both stores report the same changes."""
    if event_name not in ("INSERT", "MODIFY") or "SK" not in image:
        return None
    item = plain(image)
    change = Change(messages=[message_from(m) for m in codec.unpack(item["outbox"])] if "outbox" in item else [])
    if keys.version_of(item["SK"]) is not None:
        game = committed_game(item)
        change.committed = Committed(game, events_from(item), item.get("pm"), new=event_name == "INSERT")
    return change if change.committed or change.messages else None


# ---------------------------------------------------------------------- players' memberships

def membership_from(item: dict) -> Membership:
    return Membership(item["player_id"], item["game_id"], item["game"], item["seat"], item["status"], None,
                      item.get("version", 0), item.get("updated_at", ""))


def membership_item(m: Membership) -> dict:
    return typed({**keys.membership(m.player_id, m.game_id), "kind": "membership",
                  "player_id": m.player_id, "game_id": m.game_id, "game": m.game, "seat": m.seat,
                  "status": m.status, "version": m.version, "updated_at": m.updated_at,
                  "asked": True if m.asked else None})  # not counted against the limit on unfinished games


def memberships(game: GameRecord) -> Iterable[Membership]:
    """A membership for each seated player."""
    for seat in game.seats:
        if seat.player_id is None:
            continue
        yield Membership(seat.player_id, game.id, game.game, seat.seat, game.status, game.to_move,
                         game.version, game.updated_at, game.deadline, asked=not seat.accepted)


# ---------------------------------------------------------------------- tournaments

def tournament_summary(data: dict) -> dict:
    """What listTournaments shows of a tournament (the ``tournaments`` index carries it)."""
    return {"id": data["id"], "name": data["name"], "game": data["game"], "format": data["format"],
            "status": data["status"], "round": data["round"], "rounds": data["rounds"],
            "players": sum(1 for p in data["players"] if not p.get("withdrawn")),
            "max_players": data["max_players"], "organiser": data["organiser"], "created_at": data["created_at"]}


# ---------------------------------------------------------------------- ladders

def ladder_item(ladder: LadderRecord) -> dict:
    """A ladder's settings, with an organiser's ladder's entry in the ``tournaments`` index (its
    summary: the settings; the standing ladders are listed without it)."""
    data = dumps(ladder.as_json())
    listed = {"summary": data, **keys.ladder_list(ladder.id, ladder.created_at)} if ladder.organiser else {}
    return typed({**keys.ladder(ladder.id), "kind": "ladder", "id": ladder.id, "data": data, **listed})


def ladder_from(data: str) -> LadderRecord:
    return LadderRecord(**json.loads(data))


def member_item(ladder_id: str, rung: RungRecord, idle_at: str) -> dict:
    """A player on a ladder, in the ``due`` index at ``idle_at`` (when they would leave it idle)."""
    return typed({**keys.ladder_member(ladder_id, rung.player_id), "kind": "ladder_member",
                  "player_id": rung.player_id, "name": rung.name, "pos": rung.position,
                  "open": rung.open_challenges, "joined_at": rung.joined_at, "active_at": rung.active_at,
                  "bot": True if rung.bot else None,  # a bot account: only then
                  **keys.ladder_due(ladder_id, rung.player_id, idle_at)})


def rung_item(ladder_id: str, rung: RungRecord) -> dict:
    """The rung at the player's position: who stands there."""
    return typed({**keys.rung(ladder_id, rung.position), "kind": "rung", "player_id": rung.player_id})


def challenge_item(ladder_id: str, challenge: LadderChallenge) -> dict:
    """An open challenge, in the ``due`` index until its answer is due (unless it needs no answer)."""
    return typed({**keys.ladder_challenge(ladder_id, challenge.challenger, challenge.challenged),
                  "kind": "ladder_challenge", "game_id": challenge.game_id, "challenger": challenge.challenger,
                  "challenged": challenge.challenged, "respond_by": challenge.respond_by,
                  "created_at": challenge.created_at,
                  **(keys.ladder_due(ladder_id, challenge.game_id, challenge.respond_by) if challenge.answer_due
                     else {})})


def ladder_board_from(items: list[dict]) -> LadderBoard | None:
    """A ladder from every item of its partition: the rungs in position order, each with its
    player's record; None without settings."""
    settings = next((i for i in items if i["SK"] == keys.LADDER_SK), None)
    if settings is None:
        return None
    members = {i["player_id"]: i for i in items if i["SK"].startswith(keys.MEMBER_PREFIX)}
    rungs = []
    for item in sorted((i for i in items if i["SK"].startswith(keys.RUNG_PREFIX)), key=lambda i: i["SK"]):
        member = members.get(item["player_id"])
        position = item["SK"].removeprefix(keys.RUNG_PREFIX)
        if member is None or member["pos"] != position:
            continue  # cannot be: a rung and its player are written together
        rungs.append(RungRecord(member["player_id"], member["name"], position, member["open"],
                                member["joined_at"], member["active_at"], bool(member.get("bot"))))
    challenges = [LadderChallenge(i["game_id"], i["challenger"], i["challenged"], i["respond_by"], i["created_at"],
                                  answer_due="due" in i)
                  for i in items if i["SK"].startswith(keys.CHALLENGE_PREFIX)]
    challenges.sort(key=lambda c: c.created_at)
    return LadderBoard(ladder_from(settings["data"]), rungs, challenges)
