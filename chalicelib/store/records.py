"""What the service keeps: plain records, independent of how a store lays them out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..tournaments.glicko2 import PROVISIONAL_RD


DEFAULT_PREFERENCES = {
    "email": ["game.invited", "game.your_turn", "game.reminder", "game.finished", "ladder.rank_changed"],
    "webhook": ["game.invited", "game.your_turn", "game.reminder", "game.action", "game.finished",
                "ladder.rank_changed"],
    "messages": True,  # the other seats' messages are shown (chalicelib/kernel/talk.py)
    # A game someone else seats the player in: "ask" them (it waits until they accept), "accept" it at
    # once (consent given in advance, as a bot's owner may), or "refuse" it (only open seats and
    # tournaments then).
    "challenges": "ask",
    "language": "en",  # what the player reads: en, zh-Hans, ja, vi (chalicelib/kernel/i18n.py)
    "time_zone": "UTC",  # an IANA zone: a weekend pause stops the player's clocks on their weekend
    "weekend_pause": False,  # the games the player creates with a time control pause on weekends unless it says
    # One email a day at ``time`` (local, on the quarter hour) listing the games awaiting the player's
    # move, instead of an email per move (chalicelib/clocks/digest.py)
    "digest": {"enabled": False, "time": "08:00"},
}


def preferences_with_defaults(stored: dict) -> dict:
    """A player's preferences: what they chose, and the default of every field they never set
    (one added after they last chose)."""
    return {**{k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
               for k, v in DEFAULT_PREFERENCES.items()}, **stored}


@dataclass
class Caller:
    """Who sent a request, as their API key's own item names them: authenticating reads that one
    item (docs/storage.md). What else a route needs of the player it reads as a :class:`Player`."""

    id: str
    name: str
    key_hash: str | None = field(default=None, kw_only=True, repr=False, compare=False)  # the key it came with


@dataclass
class NotesRecord:
    """A seat's private notes on a game: the player who wrote them (a seat that changed hands
    shows its new player nothing of the old one's), their text and when they were last saved."""

    game_id: str
    seat: int
    player_id: str
    text: str
    updated_at: str


@dataclass(frozen=True)
class RecoveryRequest:
    """One recovery request by email: the players its links may recover (none when the address is
    unknown), and those already recovered by one (each link works once)."""

    id: str
    player_ids: tuple[str, ...]
    used: tuple[str, ...]
    created_at: str


@dataclass(frozen=True)
class InvitationCount:
    """The invitations by email a new game adds to its creator's count of the UTC ``day``: written
    with the game, on condition that the day's count stays at most ``most`` (services/limits.py);
    ``expires_at`` (epoch seconds) is the counter's TTL."""

    player_id: str
    day: str  # YYYY-MM-DD, UTC
    count: int
    most: int
    expires_at: int


@dataclass
class BlockRecord:
    """A player the blocker blocked (kept in the blocker's own partition): the blocked player's id,
    their name when blocked, and when."""

    player_id: str
    name: str
    blocked_at: str


@dataclass(frozen=True)
class EmailStop:
    """No mail goes to an address any more (services/mailevents.py): SES reported a permanent
    bounce (``bounced``) or a complaint (``complained``: its reader marked our mail as spam). Kept
    in the address's own partition (``keys.email_status``, by its hash: never the address), until a
    player sets the address again (updatePreferences ``email_address``)."""

    reason: str  # bounced | complained | unsubscribed (an invitation's List-Unsubscribe)
    since: str  # when SES saw it (the event's own time, ISO UTC)
    kind: str  # what SES said, in its words: "Permanent/NoEmail", "Permanent/General", "abuse"...


@dataclass
class ApiKeyRecord:
    """An API key's own item (the key itself is never stored, only its hash names the item): whose
    it is, whether it is a rotation's new key not used yet (``fresh``), and when it stops working
    (``until``, ISO; set on the keys a rotation replaces)."""

    player_id: str
    name: str
    fresh: bool = False
    until: str | None = None


@dataclass
class Player(Caller):
    """A player's profile."""

    email: str | None
    created_at: str
    preferences: dict[str, Any] = field(default_factory=lambda: preferences_with_defaults({}))
    vacation: dict | None = None  # see chalicelib.clocks.vacation
    recovery_code: str | None = field(default=None, repr=False)  # its slow hash (services/recovery.py), never the code
    digest_at: str | None = None  # when their daily digest is next sent (ISO, UTC), while it is on
    bot: bool = False  # a bot account (made with ``bot: true``): shown as a bot everywhere
    # One more each time keys end (a revocation, a rotation, a rotation's new key first used, a
    # recovery): a board link got with a key carries the number of its day and plays no more once it moved on.
    key_generation: int = 0

    @property
    def bot_policy(self) -> dict | None:
        """What a bot account accepts (its ``bot_policy`` preference; None: anything)."""
        return self.preferences.get("bot_policy") if self.bot else None

    def wants(self, channel: str, event_type: str) -> bool:
        return event_type in self.preferences.get(channel, [])

    @property
    def language(self) -> str:
        """The language the player reads (the ``language`` preference)."""
        return self.preferences.get("language", DEFAULT_PREFERENCES["language"])

    @property
    def challenges(self) -> str:
        """How a game someone else seats the player in begins: "ask", "accept" or "refuse"."""
        return self.preferences.get("challenges", DEFAULT_PREFERENCES["challenges"])

    @property
    def reads_messages(self) -> bool:
        """Whether the other seats' messages are shown to them (the ``messages`` preference)."""
        return self.preferences.get("messages", True) is not False

    @property
    def digest(self) -> bool:
        """Whether a daily digest replaces their email per move (the ``digest`` preference)."""
        return bool((self.preferences.get("digest") or {}).get("enabled"))


@dataclass
class SeatRecord:
    seat: int
    player_id: str | None  # None while an invitation by email waits for an answer, and for a bot
    name: str
    email: str | None = None  # the invited address (never shown to other players)
    bot: str | None = None  # a computer player (chalicelib.bots)
    # Its player can be told nothing (no email, no webhook) as far as the game knows: the outbox
    # consumer then looks nothing up for them. Registering a webhook clears it in every game.
    quiet: bool = False
    # The player's vacations as the game last heard of them (chalicelib.clocks.vacation): a clock passed to
    # this seat stops for them. Taking a vacation tells every unfinished game; a timeout re-reads
    # the player's own record first.
    vacation: dict | None = None
    # Consent (issue 18): a player seated by someone else plays once they accept; an open seat is
    # for anyone who joins (within the rating range, if given).
    accepted: bool = True
    open: bool = False
    rating_min: int | None = None
    rating_max: int | None = None
    # The player's time zone (the ``time_zone`` preference) when they took the seat: under a weekend
    # pause their clock stands still on Saturday and Sunday there (chalicelib.clocks.timecontrol).
    time_zone: str | None = None
    bot_account: bool = False  # the seat's player is a bot account (Player.bot)

    @property
    def invited(self) -> bool:
        """The seat waits for its player: an invitation by email, an open seat, or a player who has
        not accepted yet."""
        return (self.player_id is None and self.bot is None) or not self.accepted

    def as_json(self) -> dict:
        shown = {"seat": self.seat, "player_id": self.player_id, "name": self.name, "invited": self.invited,
                 "bot": self.bot, "open": self.open}
        if self.bot_account:  # only then (the seats of people read as before)
            shown["bot_account"] = True
        if self.open:
            shown.update(rating_min=self.rating_min, rating_max=self.rating_max)
        return shown

    def stored(self) -> dict:
        kept = {**self.as_json(), "email": self.email, "accepted": self.accepted}
        if self.time_zone:
            kept["time_zone"] = self.time_zone
        return kept


@dataclass
class GameRecord:
    id: str
    game: str
    version: int
    status: str  # waiting | active | finished
    seats: list[SeatRecord]
    options: dict[str, Any]
    state: dict[str, Any]
    seed: int
    seed_public: bool  # an explicit seed is shown to all; a drawn one only once the game ends
    created_by: str
    created_at: str
    updated_at: str
    event_count: int = 0
    to_move: int | None = None
    clock: dict | None = None  # see chalicelib.clocks.timecontrol; None: no time control
    deadline: str | None = None  # when the seat to move runs out of time
    due_at: str | None = None  # when the clock sweeper must next look at this game
    rated: bool = False
    tournament_id: str | None = None
    ladder_id: str | None = None  # a ladder challenge's game (chalicelib.services.ladders)
    seed_withheld: bool = False  # a duplicate tournament's seed deals other boards too: shown once its round is over
    public: bool = False  # anyone may watch it (a spectator's view: no hand, no hidden card)
    # Secret until the game ends, like a drawn seed: the view commits to it (ids.deal_commitment).
    # None: a game stored before deals were committed to.
    deal_salt: str | None = field(default=None, repr=False)  # never in a log line
    # The engine's rules version when the game was made (``engine.rules_version``); None: a game
    # stored before games recorded it, which played version 1 (docs/records.md).
    rules_version: str | None = None
    # Of this version only: the seat that was to move before it (the outbox consumer tells the
    # new one), the request that made it ((SHA-256 of its Idempotency-Key, fingerprint): a retry
    # is answered from it), and how often it was written again in place (a vacation moved its clock).
    previous_to_move: int | None = None
    request: tuple[str, str] | None = None
    revision: int = 0
    # How the game ended when it ended before its rules could end it (declined, aborted): its
    # result, never rated. None while the game is on, or when its rules ended it.
    ended: dict | None = None

    def result(self, engine_result: dict | None) -> dict | None:
        """The game's result: its rules', or how it ended before them."""
        return engine_result or self.ended
    # The seq of the game's latest message event (chalicelib/kernel/talk.py), carried from version to
    # version: a view reads the latest events for its messages only when one is recent.
    last_message: int | None = None

    def seat_of(self, player_id: str | None) -> int | None:
        return next((s.seat for s in self.seats if s.player_id == player_id), None)

    @property
    def duplicate_board(self) -> bool:
        """A board of a duplicate tournament's round (only those withhold their seed): the other
        boards of its round deal the same cards."""
        return self.seed_withheld and self.tournament_id is not None


@dataclass
class EventRecord:
    game_id: str
    seq: int
    version: int
    type: str
    seat: int | None
    data: dict[str, Any]
    at: str
    # seat -> what only it sees; under games.base.UNSEEN what no seat sees (kept for replays)
    private: dict[str, dict[str, Any]] = field(default_factory=dict)

    def seen_by(self, seat: int | None) -> dict:
        """The event as one seat (or a spectator, None) may see it."""
        data = dict(self.data)
        if seat is not None:
            data.update(self.private.get(str(seat), {}))
        return {"seq": self.seq, "version": self.version, "type": self.type, "seat": self.seat,
                "data": data, "at": self.at}


@dataclass
class Membership:
    """A player's seat in a game, kept beside the player for listing their games."""

    player_id: str
    game_id: str
    game: str
    seat: int
    status: str
    to_move: int | None
    version: int
    updated_at: str
    deadline: str | None = None
    asked: bool = False  # the player was seated by someone else and has not accepted yet


@dataclass
class RatingRecord:
    """A player's Glicko-2 rating in one pool: a game type ("battleline", "khan": the default card
    set's), or a variant rated apart, "<game type>:<variant>" (a Khan & General card set's own:
    ``GameEngine.rating_pool``)."""

    player_id: str
    game: str  # the pool
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    updated_at: str | None = None
    version: int = 0

    @property
    def provisional(self) -> bool:
        """Too uncertain yet for the leaderboard (Glicko-2's RD at or above ``PROVISIONAL_RD``)."""
        return self.rd >= PROVISIONAL_RD

    def as_json(self) -> dict:
        game, _colon, card_set = self.game.partition(":")
        return {"game": game, "pool": self.game, "card_set": card_set or None,
                "rating": round(self.rating), "rd": round(self.rd, 1),
                "volatility": round(self.volatility, 6), "provisional": self.provisional,
                "games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws}


@dataclass
class TournamentRecord:
    """A tournament: its settings, entrants and rounds as plain data (see chalicelib.tournaments.director)."""

    id: str
    data: dict[str, Any]
    version: int = 0


@dataclass
class LadderRecord:
    """A ladder's settings (chalicelib.services.ladders): a standing ladder's ``organiser`` is None."""

    id: str
    name: str
    game: str
    options: dict[str, Any]  # the challenge games' options, ``time_control`` included
    max_places_above: int  # N: a player challenges someone at most N places above them
    max_open_challenges: int  # K: open challenges (made and received) a player may have at once
    response_days: int  # days the challenged player has to accept; then the challenge counts as declined
    idle_days: int  # days without a ladder game started or finished before a player leaves the ladder
    organiser: str | None
    created_at: str

    def as_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class RungRecord:
    """A player on a ladder: where their rung is (``position``, a gapped sort key: rank is the order
    of positions), how many challenges they have open, and when they last played."""

    player_id: str
    name: str
    position: str
    open_challenges: int
    joined_at: str
    active_at: str
    bot: bool = False  # a bot account (Player.bot) as it joined; rungs made before this say False


@dataclass
class LadderChallenge:
    """An open challenge: its game, waiting for the challenged player's answer until ``respond_by``,
    or being played."""

    game_id: str
    challenger: str
    challenged: str
    respond_by: str
    created_at: str
    answer_due: bool = True  # still in the sweeper's ``due`` index (not answered when last looked)


@dataclass
class LadderBoard:
    """A ladder as one read of its partition gives it: settings, rungs top first, open challenges."""

    ladder: LadderRecord
    rungs: list[RungRecord]
    challenges: list[LadderChallenge]

    def rank_of(self, player_id: str) -> int | None:
        return next((n for n, r in enumerate(self.rungs, start=1) if r.player_id == player_id), None)

    def rung_of(self, player_id: str) -> RungRecord | None:
        return next((r for r in self.rungs if r.player_id == player_id), None)


@dataclass
class IdempotencyRecord:
    """What an Idempotency-Key was used for: the request's fingerprint, and either the response
    itself (``body``) or, for a move, the game version it made (``game_id``, ``version``), from which
    the response is built again (a move stays one small write: docs/storage.md)."""

    scope: str
    key: str
    fingerprint: str
    body: dict[str, Any] | None
    created_at: str
    game_id: str | None = None
    version: int | None = None


@dataclass
class WebhookSecret:
    salt: str  # the secret itself is derived from it and the server key (notify.webhooks.SigningKeys)
    created_at: str
    expires_at: str | None = None  # set on the old secret when it is rotated out


@dataclass
class WebhookEndpoint:
    id: str
    player_id: str
    url: str
    events: list[str] | None  # None: every event type
    secrets: list[WebhookSecret]
    disabled: str | None  # why it was disabled, e.g. the receiver answered 410 Gone
    created_at: str

    def wants(self, event_type: str) -> bool:
        """Whether the endpoint subscribes to ``event_type``, disabled or not: a disabled endpoint's
        messages are still recorded as deliveries (failed, never sent), so that none is lost: each can
        be listed and redelivered, and a redelivery enables the endpoint again."""
        return self.events is None or event_type in self.events

    def salts_in_force(self, now: str) -> list[str]:
        return [s.salt for s in self.secrets if s.expires_at is None or s.expires_at > now]

    def as_json(self) -> dict:
        return {"id": self.id, "url": self.url, "events": self.events, "disabled": self.disabled,
                "created_at": self.created_at}


@dataclass(frozen=True)
class Message:
    """An outbox message (``notify/messages.py`` says which action tells whom what)."""

    id: str  # stable: the webhook-id of every delivery of this message, retries included
    type: str
    player_id: str
    data: dict[str, Any]
    created_at: str


@dataclass
class Attempt:
    at: str
    status: int | None
    error: str | None = None


@dataclass
class Delivery:
    """One message to one webhook endpoint, with every attempt made to deliver it."""

    webhook_id: str
    msg_id: str
    player_id: str
    type: str
    body: str  # fixed when the delivery is created, so every retry sends the same bytes
    status: str  # pending | delivered | failed
    attempts: list[Attempt]
    next_attempt_at: str | None
    created_at: str
    version: int = 0

    def as_json(self) -> dict:
        return {"id": self.msg_id, "webhook_id": self.webhook_id, "type": self.type, "status": self.status,
                "attempts": [a.__dict__ for a in self.attempts], "next_attempt_at": self.next_attempt_at,
                "created_at": self.created_at}


@dataclass
class Committed:
    """A game version as the table's stream reports it to the outbox consumer: the game as that
    version left it (its seats know only who sits there: player ids and bots), the events it
    added, and the seat that was to move before it. ``new`` is False when the same version was
    written again (a vacation moved its clock): nothing is told twice."""

    game: GameRecord
    events: list[EventRecord]
    before_to_move: int | None
    new: bool = True


@dataclass
class Change:
    """One write the table's stream reports, as the outbox consumer acts on it: a game version
    committed, and the messages saved with the item (a new game's invitations, a reminder, a
    tournament's next round)."""

    committed: Committed | None = None
    messages: list[Message] = field(default_factory=list)
