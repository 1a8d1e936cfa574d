"""What an accepted action tells whom: the outbox messages. A game version's messages follow
from the version itself (:func:`for_committed`, which the outbox consumer asks when the table's
stream reports the version), so a move writes nothing but its version; other writes save their
messages with their item (a new game's invitations, a reminder, a tournament's round). Message
data holds only what every seat may see (no hand, no deck order, no private event data); a
receiver reads its own view with getGame."""

from __future__ import annotations

from dataclasses import replace

from ..store.records import Committed, EventRecord, GameRecord, Message, Player
from ..kernel.talk import MESSAGE

EVENT_TYPES = ("game.invited", "game.your_turn", "game.reminder", "game.action", "game.finished", "ladder.rank_changed")
GAME_FINISHED = "server.game_finished"  # for the server itself: rate the game, advance its tournament or ladder
BOT_TURN = "server.bot_turn"  # for the server itself: a bot's seat is to move
TOURNAMENT_GAMES = "server.tournament_games"  # for the server itself: make a tournament round's games
TOURNAMENT_WITHDRAWAL = "server.tournament_withdrawal"  # for the server itself: a withdrawn player's games lost
RECOVERY = "player.recovery"  # an account recovery link, by email (data: request_id; never the link itself)
DIGEST = "player.digest"  # a player's daily digest: by email only (never a webhook event)
PER_MOVE = ("game.your_turn", "game.action")  # the emails a daily digest replaces (a deadline's reminder still comes)
TOURNAMENT_FINISHED = "server.tournament_finished"  # for the server itself: tell a finished tournament's players
# A tournament's news to one player, by email only (never a webhook event): a round paired (its
# email replaces the game-start emails of that round's games), a bye, the event's end.
ROUND_PAIRED, BYE, EVENT_ENDED = "tournament.round_paired", "tournament.bye", "tournament.finished"
TOURNAMENT_NEWS = (ROUND_PAIRED, BYE, EVENT_ENDED)


def _message(kind: str, game: GameRecord, seat: int, player_id: str, data: dict) -> Message:
    msg_id = f"msg_{game.id}_{game.version}_{kind.removeprefix('game.')}_{seat}"
    return Message(msg_id, kind, player_id, {"game_id": game.id, "game": game.game, "version": game.version,
                                             "seat": seat, **data}, game.updated_at)


INVITATION = ""  # the receiver of an invitation by email: an address, not yet a player


def for_new_game(game: GameRecord, ladder: dict | None = None) -> list[Message]:
    """Each seated player is told (``consent``: they are asked to accept or decline), an address is
    invited by email; an open seat waits for someone to find it (listOpenGames). A ladder challenge's
    invitation names its ``ladder`` (id, name, and when the answer is due)."""
    messages = [_message("game.invited", game, s.seat, s.player_id or INVITATION,
                         {"created_by": game.created_by, "consent": s.invited,
                          **({"tournament_id": game.tournament_id} if game.tournament_id else {}),
                          **({"ladder": ladder} if ladder else {}),
                          **({"your_move": True} if game.status == "active" and game.to_move == s.seat else {}),
                          **({"invite_email": s.email} if s.email and s.player_id is None else {})})
                for s in game.seats if not s.bot and not s.open]
    return messages + _your_turn(game)


def for_seat_taken(game: GameRecord) -> list[Message]:
    """An invitation was accepted; once every seat is taken, the game starts."""
    return _your_turn(game)


def for_committed(committed: Committed) -> list[Message]:
    """What a committed version tells whom, from the version alone (its seats name the players and
    bots, and the seat to move before it): nothing for a new game's version 0 (its messages were
    saved with it) or for a version written again in place."""
    game = committed.game
    if not committed.new or game.version == 0:
        return []
    if any(e.type == "seat_taken" for e in committed.events):
        return for_seat_taken(game)
    return for_action(replace(game, to_move=committed.before_to_move), game, committed.events)


STARTING = ("seat_accepted", "seat_joined")  # the lobby's events that may begin a game


def for_action(before: GameRecord, after: GameRecord, events: list[EventRecord]) -> list[Message]:
    # A message's text is no public data (chalicelib/kernel/talk.py): a seat reads it with listEvents or getGame.
    public = [{"seq": e.seq, "type": e.type, "seat": e.seat, "data": e.data} for e in events if e.type != MESSAGE]
    players = [s for s in after.seats if s.player_id]  # not the bots, nor invitations still open
    started = after.status == "active" and any(e.type in STARTING for e in events)  # the last seat settled
    messages = [_message("game.action", after, s.seat, s.player_id, {"events": public, "to_move": after.to_move,
                                                                      **({"started": True} if started else {})})
                for s in players]
    if after.status == "finished":
        result = next((e.data["result"] for e in events if "result" in e.data), None)
        messages += [_message("game.finished", after, s.seat, s.player_id, {"result": result}) for s in players]
        if after.rated or after.tournament_id or after.ladder_id:
            messages.append(Message(f"msg_{after.id}_{after.version}_settle", GAME_FINISHED, "",
                                    {"game_id": after.id}, after.updated_at))
    elif after.to_move != before.to_move or _turns_passed(events):
        messages += _your_turn(after)
    return messages


def by_email(player: Player, message: Message) -> bool:
    """Whether a message reaches the player by email: the event types they chose; and, to one who
    follows their games by email (``game.your_turn``), the news that a game began with someone
    else's answer when it is not their move (the mover is told by ``game.your_turn``). With the
    daily digest on, the per-move emails (``PER_MOVE``) are not sent: the digest lists those games."""
    if message.type == DIGEST:
        return player.digest
    if message.type in TOURNAMENT_NEWS:  # (they replace its games' start: sent to whom those would go)
        return player.wants("email", "game.invited")
    if message.type in ("game.invited", "game.your_turn") and message.data.get("tournament_id") \
            and message.data.get("version") == 0:
        return False  # a tournament game's start: the round's email told it (issue 36)
    if player.digest and message.type in PER_MOVE:
        return False  # gathered into their daily digest
    if message.type == "game.invited" and message.data.get("your_move") and player.wants("email", "game.your_turn"):
        return False  # a game that starts on the seat's move: its your-move email says so (one email, not two)
    if player.wants("email", message.type):
        return True
    data = message.data
    if message.type != "game.action" or not data.get("started") or not player.wants("email", "game.your_turn"):
        return False
    answered = {e["seat"] for e in data.get("events", []) if e["type"] in STARTING}
    return data["seat"] != data.get("to_move") and data["seat"] not in answered


def _turns_passed(events: list[EventRecord]) -> bool:
    """In a match the same seat may move again after a new deal."""
    return any(e.type == "match_game_finished" for e in events)


def _your_turn(game: GameRecord) -> list[Message]:
    """The seat to move is told; a bot's turn is a message to the server, which plays it."""
    found = []
    for s in game.seats:
        if game.status != "active" or s.seat != game.to_move:
            continue
        if s.bot:
            found.append(Message(f"msg_{game.id}_{game.version}_bot_{s.seat}", BOT_TURN, "",
                                 {"game_id": game.id, "seat": s.seat, "version": game.version}, game.updated_at))
        else:
            # (a game starting on this move: who made it, for the email that is its invitation too)
            found.append(_message("game.your_turn", game, s.seat, s.player_id,
                                  {"created_by": game.created_by,
                                   **({"tournament_id": game.tournament_id} if game.tournament_id else {})}
                                  if game.version == 0 else {}))
    return found


def reminder(game: GameRecord, seat: int, player_id: str, kind: str, deadline: str, time_left: int,
             now: str) -> Message:
    """The seat to move is reminded (``kind``: one of the policy's, chalicelib.clocks.timecontrol.REMINDERS:
    reminder_80 when 80 % of its time is used, reminder_24h when 24 hours are left, reminder_14d
    after 14 days without a move...). The message names the deadline: a deadline a vacation moved
    gets its own reminders at the same version."""
    message = _message("game.reminder", game, seat, player_id,
                       {"reminder": kind, "deadline": deadline, "time_left_seconds": time_left})
    until = "".join(c for c in deadline if c.isdigit())
    return Message(f"msg_{game.id}_{game.version}_{kind}_{seat}_{until}", message.type, player_id, message.data, now)


def tournament_games(tournament_id: str, round_number: int, now: str) -> Message:
    """A tournament paired a round: its games must be made (once; the message makes it never lost)."""
    return Message(f"msg_{tournament_id}_r{round_number}_games", TOURNAMENT_GAMES, "",
                   {"tournament_id": tournament_id, "round": round_number}, now)


def tournament_withdrawal(tournament_id: str, player_id: str, game_ids: list[str], now: str) -> Message:
    """A player withdrew from a running tournament: their games still being played are lost (once;
    the message makes it never lost, should the request that withdrew them fail midway)."""
    return Message(f"msg_{tournament_id}_withdrawal_{player_id}", TOURNAMENT_WITHDRAWAL, "",
                   {"tournament_id": tournament_id, "player_id": player_id, "games": game_ids}, now)


def ladder_rank_changed(game: GameRecord, player_id: str, ladder: dict, before: int, after: int,
                        now: str) -> Message:
    """A ladder game's result moved the player (``ladder``: its id and name) from rank ``before`` to
    ``after`` (sent once, with the result)."""
    seat = game.seat_of(player_id)
    return Message(f"msg_{game.id}_ladder_{seat}", "ladder.rank_changed", player_id,
                   {"game_id": game.id, "game": game.game, "version": game.version, "seat": seat, "ladder": ladder,
                    "rank_before": before, "rank": after}, now)


def digest(player_id: str, local_date: str, games: list[dict], now: str) -> Message:
    """The player's daily digest of ``local_date`` (their own date): the games awaiting their move,
    each with what every seat may see (game, seat, opponents' names, deadline). One a player and date:
    its id names both, so a rerun is the same message."""
    return Message(f"msg_digest_{player_id}_{local_date}", DIGEST, player_id, {"date": local_date, "games": games},
                   now)


def tournament_news(kind: str, tournament_id: str, round_number: int, player_id: str, data: dict,
                    now: str) -> Message:
    """One player's news of a tournament (``TOURNAMENT_NEWS``): one a kind, round and player."""
    return Message(f"msg_{tournament_id}_r{round_number}_{kind.removeprefix('tournament.')}_{player_id}", kind,
                   player_id, {"tournament_id": tournament_id, "round": round_number, **data}, now)


def tournament_finished(tournament_id: str, now: str) -> Message:
    """A tournament ended: its players are told their final standing (once)."""
    return Message(f"msg_{tournament_id}_finished", TOURNAMENT_FINISHED, "", {"tournament_id": tournament_id}, now)
