"""What the API answers, as pydantic models: only for openapi.yaml (``make openapi``), never
loaded by the running server, which writes plain dicts (so a cold start does not pay for
them). Requests are in ``models.py``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, WithJsonSchema

from .models import STEP_REF, TournamentFormat
from .models import WebhookEvent
from .models import BotPolicy
from ..kernel.shapes import Shape
from ..clocks.timecontrol import REMINDER_KINDS

Step = Annotated[dict[str, Any], WithJsonSchema({"allOf": [STEP_REF]})]
GameState = Annotated[dict[str, Any], WithJsonSchema({"allOf": [{"$ref": "#/components/schemas/GameState"}]})]


class DigestView(Shape):
    enabled: bool = Field(description="A daily digest replaces the player's your-move emails.")
    time: str = Field(description="When it is sent: local time (in `time_zone`) on the quarter hour, HH:MM.")


class EmailStatusView(Shape):
    state: Literal["stopped"] = Field(description="No email goes to the player's address any more.")
    reason: Literal["bounced", "complained", "unsubscribed"] = Field(
        description="`bounced`: the address rejected our mail permanently (no such mailbox, a domain that takes "
                    "no mail); `complained`: its reader marked our mail as spam; `unsubscribed`: the address was "
                    "unsubscribed with the link of an invitation to it.")
    since: str = Field(description="When the mail service reported it (ISO 8601, UTC).")
    detail: str = Field(description="What happened and how to resume: set `email_address` again (updatePreferences).")


class PreferencesView(Shape):
    """What the player chose (every field: the default of those never set)."""

    email: list[WebhookEvent] = Field(description="Event types sent by email (to the player's email address).")
    webhook: list[WebhookEvent] = Field(description="Event types sent to the player's webhooks.")
    messages: bool = Field(description="The other seats' messages are shown to the player (getGame, listEvents, "
                                       "emails, the board).")
    language: Literal["en", "zh-Hans", "ja", "vi"] = Field(description="The language the player reads.")
    time_zone: str = Field(description="The player's IANA time zone (default UTC): a weekend pause stops their "
                                       "clock on their Saturday and Sunday.")
    weekend_pause: bool = Field(description="The games the player creates with a time control pause on weekends "
                                            "unless the control says otherwise.")
    challenges: Literal["ask", "accept", "refuse"] = Field(
        description="A game someone else seats the player in: asked (`ask`), started at once (`accept`) or "
                    "refused (`refuse`).")
    digest: DigestView = Field(description="The daily digest: one email a day listing the games awaiting the "
                                           "player's move, instead of an email per move.")
    bot_policy: BotPolicy | None = Field(None, description="A bot account's policy, once it set one: what it "
                                                           "accepts (left out: anything; never for a person).")
    email_status: EmailStatusView | None = Field(
        None, description="Present only when no email goes to the player's address any more: a bounce or a spam "
                          "complaint stopped it (left out: mail goes).")


class PlayerView(Shape):
    id: str
    name: str
    email: str | None
    created_at: str
    bot: bool = Field(False, description="Present (true) for a bot account: a program playing through the API.")


class RotatedApiKey(Shape):
    api_key: str = Field(description="The new key, shown once (only its hash is stored). Your other keys work "
                                     "until it is first used, or until `previous_key_expires_at`, whichever comes "
                                     "first: if this answer is lost, rotate again with the old key.")
    previous_key_expires_at: str = Field(description="When your other keys stop working at the latest.")


class RecoveryAnswer(Shape):
    status: Literal["accepted", "recovered"] = Field(description="`accepted`: asked by email, the same answer "
                                                                 "whether or not the address is a player's; "
                                                                 "`recovered`: by recovery code, your new key follows.")
    detail: str = Field(description="What happens now, in your language.")
    player_id: str | None = Field(None, description="By recovery code: your player.")
    api_key: str | None = Field(None, description="By recovery code: your new API key, shown once; every other key "
                                                  "of yours stopped working.")
    recovery_code_set: bool | None = Field(None, description="By recovery code: whether you have a recovery code now "
                                                             "(`new_recovery_code` was sent); the one used is gone.")


class PlayerSummary(Shape):
    id: str
    name: str
    created_at: str
    bot: bool = Field(False, description="Present (true) for a bot account: a program playing through the API.")


class PlayerList(Shape):
    players: list[PlayerSummary]
    next_cursor: str | None = Field(description="Give it as `cursor` (with the same query) for the next page; "
                                                "null on the last page.")


class VacationView(Shape):
    days_per_year: int
    days_left: int = Field(description="Vacation days not yet taken this calendar year (UTC).")
    on_vacation: bool
    until: str | None = Field(description="When the current vacation ends.")


class RatingView(Shape):
    game: str
    pool: str = Field(description="The ratings this is one of: the game type (`battleline`; `khan`, Khan & "
                                  "General's default card set), or `khan:<card set id>`: each other card set is "
                                  "rated apart, with its own leaderboard (`getLeaderboard?card_set=`).")
    card_set: str | None = Field(description="The Khan & General card set rated apart (`pool`'s part after the "
                                             "colon); null for the game type's own pool.")
    rating: int
    rd: float = Field(description="Rating deviation as of now: it grows by one empty Glicko-2 rating period "
                                  "for every 30 days without a rated game (up to 350); provisional while it is 110 "
                                  "or more.")
    volatility: float
    provisional: bool = Field(description="As of now: an established rating ages into provisional when idle.")
    established_until: str | None = Field(None, description="When idleness will make this established rating "
                                                            "provisional (and take it off the leaderboard), unless "
                                                            "a rated game comes first; null while provisional.")
    games: int
    wins: int
    losses: int
    draws: int


RATINGS = ("Glicko-2 rating per pool played rated, by `pool`: `battleline`, `khan` (the default card set), and "
           "`khan:<card set id>` for each other Khan & General card set, rated apart.")


class PublicPlayer(PlayerSummary):
    """What anyone with a key may see of a player: never their email, keys or preferences."""

    ratings: dict[str, RatingView] = Field(description=RATINGS)


class Me(PlayerView):
    vacation: VacationView
    ratings: dict[str, RatingView] = Field(description=RATINGS)


BOT_ACCOUNT = ("Present (true) when the player is a bot account (made with `bot: true`): a program playing through "
               "the API.")


class LeaderboardRow(RatingView):
    rank: int
    player_id: str
    name: str
    bot_account: bool = Field(False, description=BOT_ACCOUNT)


class Leaderboard(Shape):
    game: str
    pool: str = Field(description="The game type, or `khan:<card set id>` for a card set rated apart.")
    card_set: str | None = Field(description="The card set asked for (null: the game type's own pool, Khan & "
                                             "General's default set).")
    players: list[LeaderboardRow] = Field(description="Established ratings (RD below 110), best first.")


class PlayerCreated(PlayerView):
    api_key: str | None = Field(description="Shown once, in the first response; only its hash is stored. A "
                                            "replay of the sign-up (the same Idempotency-Key and body, answered "
                                            "with `Idempotent-Replayed: true`) gives the same player with "
                                            "`api_key` null: a key is never stored, so it cannot be shown again. "
                                            "A client that lost the first response signs up again with a new "
                                            "Idempotency-Key.")


class SeatView(Shape):
    seat: int
    player_id: str | None = Field(description="null for a bot, and while the seat's invitation by email is "
                                              "unanswered")
    name: str
    invited: bool = Field(description="The seat waits for its player: a player asked who has not accepted yet "
                                      "(player_id set), an address invited by email, or an open seat. The game is "
                                      "`waiting` while any seat is.")
    bot: str | None = Field(description="The computer player in the seat (random, greedy, mcts), or null.")
    bot_account: bool = Field(False, description="Present (true) when the seat's player is a bot account (made "
                                                 "with `bot: true`): a program playing through the API.")
    open: bool = Field(description="A seat for anyone (an open challenge): joinGame takes it, first come, first "
                                   "served.")
    rating_min: int | None = Field(None, description="An open seat: the lowest rating (at this game) that may join.")
    rating_max: int | None = Field(None, description="An open seat: the highest rating that may join.")


class GameCreator(Shape):
    player_id: str
    name: str | None
    bot_account: bool = Field(False, description=BOT_ACCOUNT)


class OpenGame(Shape):
    game_id: str
    game: str
    options: dict[str, Any] = Field(description="The game's options as anyone may see them (time control included).")
    rated: bool
    created_at: str
    created_by: GameCreator
    seats: list[SeatView]
    open_seat: int = Field(description="The seat joinGame gives.")
    may_join: bool = Field(description="Your rating at this game is within the seat's range and you have no seat "
                                       "in it yet.")


class OpenGames(Shape):
    game: str
    games: list[OpenGame] = Field(description="Newest first; a listing may lag a second behind (an index).")


class GameResult(Shape):
    winner: int | None = Field(description="The winning seat; null for a draw.")
    reason: str = Field(description="Battle Line: adjacent_flags, flag_count, stall, or match (a match decided on "
                                    "points). Khan & General: annihilation, routed, max_rounds, draw_agreed. Both: "
                                    "resign, timeout, withdrawn; a game that never began: declined (a seat said no), "
                                    "aborted (called off before its first move, or a seat's time ran out before it ever moved: "
                                    "then `abandoned` is true); such a game is never rated. A tournament or ladder "
                                    "game whose seat's time ran out before it ever moved: forfeit (that seat loses).")
    seat: int | None = Field(None, description="declined and aborted: the seat that declined, that called the game off "
                                               "(null: its creator, unseated) or, with `abandoned`, that never moved.")
    flags: dict[str, int] | None = Field(None, description="Battle Line: flags held by each seat at the end (of the "
                                                           "last game of a match).")
    abandoned: bool | None = Field(None, description="Aborted because the seat `seat` ran out of time before it "
                                                     "ever moved (never in a tournament or a ladder).")
    scores: dict[str, int] | None = Field(None, description="Battle Line: a match's total points per seat.")
    games: list[dict[str, Any]] | None = Field(None, description="Battle Line: a match's games, each with its result.")
    destroyed: dict[str, int] | None = Field(None, description="Khan & General: enemy units each seat destroyed.")
    wounded: dict[str, int] | None = Field(None, description="Khan & General: enemy units each seat has wounded, "
                                                             "still on the field.")
    lapsed: bool | None = Field(None, description="declined: the seat did not answer a ladder challenge within "
                                                  "the ladder's response_days.")


class SeatClock(Shape):
    seat: int
    time_left_seconds: int = Field(description="For the seat to move, what is left of this turn; for the "
                                               "others, what their next turn will have.")
    moves: int = Field(description="Turns the seat has completed.")
    running: bool
    deadline: str | None = Field(description="When the seat to move loses on time (vacations included).")
    paused: bool = Field(description="The seat to move is on vacation (or, under a weekend pause, in its "
                                    "weekend): its clock does not run.")
    paused_by: Literal["vacation", "weekend"] | None = Field(description="Why the seat's clock stands still now: "
                                                                       "its player's vacation, or the weekend "
                                                                       "pause; null while it runs.")


class ReminderRule(Shape):
    """One reminder of a time policy; exactly one of its three conditions is set."""

    kind: Literal[REMINDER_KINDS] = Field(description="The `reminder` a game.reminder message names.")
    days_without_move: int | None = Field(description="Sent after this many days of a turn (its clock's time: "
                                                      "pauses do not count), if the turn is longer (ICCF).")
    percent_used: int | None = Field(description="Sent when this share of the turn's time is used.")
    hours_left: int | None = Field(description="Sent this many hours before the deadline, if the turn is longer.")


class TimePolicy(Shape):
    """A game's (or a tournament's) time policy: its time control, whether vacations stop the clock, the
    weekend pause, and the reminders its turns get."""

    time_control: dict[str, int] = Field(description='{"per_move_days": N}, {"moves": M, "days": D} or '
                                                     '{"initial_days": D, "increment_days": I, "max_days": M}')
    vacations_allowed: bool = Field(description="The players' vacations stop their clocks (false: they do not).")
    weekend_pause: bool = Field(description="A seat's clock stands still on Saturday and Sunday in its player's "
                                            "time zone.")
    reminders: list[ReminderRule] = Field(description="The reminders a turn may get, each sent once per deadline "
                                                      "(a deadline a vacation moves gets them again).")


class ClockView(Shape):
    control: dict[str, int | bool] = Field(description='The time control as the game was given it: '
                                                       '{"per_move_days": N}, {"moves": M, "days": D} or '
                                                       '{"initial_days": D, "increment_days": I, "max_days": M}, '
                                                       'with `weekend_pause` and `vacations_allowed` if set.')
    policy: TimePolicy
    seats: list[SeatClock]


class GameView(Shape):
    game_id: str
    game: Literal["battleline", "khan"]
    version: int
    status: Literal["waiting", "active", "finished"]
    seats: list[SeatView]
    you: int | None = Field(description="Your seat, or null when you watch.")
    to_move: int | None
    phase: str
    legal_steps: list[Step] = Field(description="Every step you may post now.")
    state: GameState
    result: GameResult | None
    options: dict[str, Any]
    clock: ClockView | None = Field(description="The time control and each seat's time; null without one.")
    rated: bool
    tournament_id: str | None
    public: bool = Field(description="Anyone may watch it on its board.")
    seed: int | None = Field(description="Shown when the seed was chosen by the creator, or once the game is over "
                                         "(never for a duplicate tournament's boards).")
    deal_commitment: str | None = Field(
        description="The deal's commitment, the same from version 0 on: the lowercase hex SHA-256 of the UTF-8 "
                    "string `{game_id}:{seed}:{deal_salt}`; once the game is over, the `seed` and `deal_salt` "
                    "shown must hash to it (docs/rules.md, \"Provably fair deals\"). null: a game created "
                    "before deals were committed to.")
    deal_salt: str | None = Field(
        description="The secret (128 random bits, hex) the commitment hides the seed with: shown once the game "
                    "is over (never for a duplicate tournament's boards); null before, and for a game created "
                    "before deals were committed to.")
    created_at: str
    updated_at: str


class Message(Shape):
    """A message a seat sent with a move (an event of type `message`)."""

    seq: int = Field(description="Its event's seq.")
    seat: int = Field(description="The sender's seat.")
    name: str = Field(description="The sender's name.")
    text: str
    at: str


class GameViewWithMessages(GameView):
    messages: list[Message] = Field(description="The messages among the game's latest 40 events (at most the last "
                                                "10, oldest first; every one: listEvents). Only for a seat, and "
                                                "empty when you turned messages off (updatePreferences).")


class EventView(Shape):
    """An event as you may see it; a `message` (`data.text`) is shown to the game's seats only."""

    seq: int
    version: int
    type: str
    seat: int | None
    data: dict[str, Any]
    at: str


class ActionResult(Shape):
    version: int
    view: GameView
    events: list[EventView]


class GameSummary(Shape):
    game_id: str
    game: str
    seat: int
    status: Literal["waiting", "active", "finished"]
    to_move: int | None
    your_turn: bool
    version: int
    updated_at: str
    deadline: str | None = Field(None, description="When it is your move: when your time runs out.")


class GameList(Shape):
    games: list[GameSummary]
    next_cursor: str | None = Field(description="Give it as `cursor` (with the same query) for the next page; "
                                                "null on the last page.")


class EventList(Shape):
    events: list[EventView]
    next_cursor: str | None = Field(description="Give it as `cursor` (with the same query) for the next page; "
                                                "null on the last page.")


class ProblemCardSet(Shape):
    """The card set a Khan & General game was begun with, which the server does not have now."""

    id: str
    version: int


class Problem(Shape):
    """RFC 9457 problem details, with a stable machine ``code``."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    type: str
    title: str = Field(description="The problem type's name, in English, the same for every occurrence of the "
                                   "`code` and in every language (RFC 9457 3.1.3).")
    status: int
    detail: str = Field(description="What went wrong this time, for a person: in the language Accept-Language asks "
                                    "for (Content-Language names it). Show it; never parse it.")
    code: str = Field(description="The stable machine code: the same in every language.")
    current_version: int | None = Field(None, description="409 `version_conflict`, `game_finished`: the game's "
                                                          "version now (null when a tournament is busy: retry).")
    game_id: str | None = Field(None, description="409 `already_rematched`: the rematch made already (accept or "
                                                  "decline it, or rematch it once it is over).")
    step_index: int | None = Field(None, description="422 about a step (`illegal_action`, `invalid_step`, "
                                                     "`invalid_card`, ...): which of the request's steps, from 0.")
    flag: int | None = Field(None, description="422 `illegal_action` of a Battle Line claim: the flag that "
                                               "cannot be claimed.")
    counterexample: dict[str, Any] | None = Field(None, description="With `flag`: a completion of the opponent's "
                                                                    "side that would beat the claimer's (as "
                                                                    "analyzeBattleLine gives it).")
    limit: int | None = Field(None, description="The limit the request would pass: 429 `too_many_invitations` "
                                                "(email addresses a player may invite a day), 409 `too_many_games` "
                                                "(unfinished games a player may have), 422 `notes_too_long` "
                                                "(characters).")
    max_places_above: int | None = Field(None, description="422 `too_far_above`: how many places above you a "
                                                           "ladder lets you challenge.")
    max_open_challenges: int | None = Field(None, description="409 `too_many_challenges`: the open challenges a "
                                                              "ladder allows a player.")
    player_id: str | None = Field(None, description="409 `too_many_challenges`: the player who has that many "
                                                    "open challenges (you or the player you challenge).")
    card_set: ProblemCardSet | None = Field(None, description="503 `game_unavailable`: the card set the Khan & "
                                                              "General game was begun with, missing on the server "
                                                              "or changed there since; the game waits until the "
                                                              "server's operator restores it.")


class WebhookView(Shape):
    id: str
    url: str
    events: list[str] | None
    disabled: str | None = Field(description="Why the endpoint was disabled (410 Gone), or null.")
    created_at: str


class WebhookCreated(WebhookView):
    secret: str = Field(description="whsec_...: the signing secret, shown only in this answer (and in its replay "
                                    "to a retry with the same Idempotency-Key, within 24 hours: derived again, "
                                    "never stored).")


class WebhookList(Shape):
    webhooks: list[WebhookView]


class RotatedSecret(Shape):
    id: str
    secret: str = Field(description="The new signing secret, shown once.")
    previous_secret_expires_at: str = Field(description="Until then, deliveries are signed with both secrets.")


class AttemptView(Shape):
    at: str
    status: int | None = Field(description="The HTTP status the receiver answered, or null.")
    error: str | None


class DeliveryView(Shape):
    id: str = Field(description="The message id, sent as webhook-id on every attempt.")
    webhook_id: str
    type: str
    status: Literal["pending", "delivered", "failed"]
    attempts: list[AttemptView] = Field(description=(
        "Every attempt, oldest first. Empty while a pending delivery's first attempt waits for the retries "
        "(made by them soon, with the same webhook-id): its endpoint did not answer in time, or answered slowly, lately, or the "
        "outbox had no time left for it (docs/notifications.md, \"A slow receiver\")."))
    next_attempt_at: str | None
    created_at: str


class DeliveryList(Shape):
    deliveries: list[DeliveryView]
    next_cursor: str | None = Field(description="Give it as `cursor` (with the same query) for the next page; "
                                                "null on the last page.")


class TournamentPlayer(Shape):
    player_id: str
    name: str
    seed: int | None = Field(description="1 = best rating at the start; null before it.")
    withdrawn: bool
    bot_account: bool = Field(False, description=BOT_ACCOUNT)


class PairingSide(Shape):
    seed: int
    player_id: str
    name: str
    bot_account: bool = Field(False, description=BOT_ACCOUNT)


class PairingView(Shape):
    round: int
    board: int
    first: PairingSide = Field(description="Seat 1 of the pairing's game.")
    second: PairingSide | None = Field(description="null: a bye.")
    game_ids: list[str]
    points: list[float] | None = Field(description="Each side's tournament points, once the pairing is over.")
    forfeit: bool = Field(description="Not played: a side had withdrawn.")
    annulled: bool = Field(description="A round robin's pairing with a player who withdrew having played fewer "
                                       "than half of their games: it counts for no one (its `points` are "
                                       "as played; the standings leave them out).")


class TournamentSummary(Shape):
    id: str
    name: str
    game: str
    format: TournamentFormat
    status: Literal["open", "running", "finished"]
    round: int
    rounds: int | None
    players: int = Field(description="Entered and not withdrawn.")
    max_players: int | None
    organiser: str
    created_at: str


class TournamentList(Shape):
    tournaments: list[TournamentSummary]
    next_cursor: str | None = Field(description="Give it as `cursor` (with the same query) for the next page; "
                                                "null on the last page.")


class TournamentStop(Shape):
    round: int = Field(description="The round that could not be paired.")
    reason: Literal["no_legal_pairing"]


class TournamentView(Shape):
    id: str
    tournament_id: str = Field(description="The same as `id` (as `createGame` answers `game_id`).")
    name: str
    game: str
    format: TournamentFormat
    rounds: int | None = Field(description="Rounds the event has (a Swiss: as asked, or at most the rounds in "
                                           "which no pairing repeats, set at the start; see `rounds_asked`).")
    rounds_asked: int | None = Field(None, description="A Swiss asked for more rounds than its players can play "
                                                       "without a repeat pairing (n - 1 for an even n, n for an "
                                                       "odd n): what was asked; `rounds` is what it plays. "
                                                       "Absent otherwise.")
    options: dict[str, Any]
    match_games: int
    duplicate: bool
    rated: bool
    withdraw_on_timeout: bool = Field(description="A player who loses a game on time (or forfeits one by never "
                                                  "moving) is withdrawn: their later pairings are forfeits.")
    time_policy: TimePolicy | None = Field(description="The time policy of every game (each game's view shows "
                                                       "the same as `clock.policy`); null without a time "
                                                       "control.")
    max_players: int | None
    status: Literal["open", "running", "finished"]
    organiser: str
    created_at: str
    round: int = Field(description="The round being played (0 before the start).")
    stopped: TournamentStop | None = Field(None, description="Set when a Swiss ended before its last round because "
                                                           "no pairing met FIDE's absolute criteria (no repeat, "
                                                           "no second bye, C.3): the organiser decides what next.")
    players: list[TournamentPlayer]
    pairings: list[PairingView]


TieBreak = Literal["direct_encounter", "wins", "sonneborn_berger", "buchholz_cut_1", "buchholz", "flags_won",
                   "round_reached"]
class LadderSummary(Shape):
    id: str = Field(description="A standing ladder's id is its game type (`battleline`, `khan`).")
    name: str
    game: str
    standing: bool = Field(description="The server's standing ladder of its game (no organiser).")
    organiser: str | None
    options: dict[str, Any] = Field(description="Every challenge game's options, `time_control` included.")
    max_places_above: int = Field(description="N: a player challenges someone at most N places above them.")
    max_open_challenges: int = Field(description="K: open challenges (made and received) a player may have at once.")
    response_days: int = Field(description="Days the challenged player has to accept; declining or not answering "
                                           "counts as a loss.")
    idle_days: int = Field(description="A player with no ladder game started or finished for this many days "
                                       "leaves the ladder.")
    created_at: str | None = Field(description="null: a standing ladder nobody has joined yet.")


class LadderList(Shape):
    ladders: list[LadderSummary] = Field(description="The standing ladders (on the first page), then organisers' "
                                                     "newest first.")
    next_cursor: str | None = Field(description="Give it as `cursor` (with the same query) for the next page; "
                                                "null on the last page.")


class LadderPlayer(Shape):
    rank: int = Field(description="1 = the top.")
    player_id: str
    name: str
    rating: int = Field(description="The player's Glicko-2 rating at the ladder's game.")
    provisional: bool
    open_challenges: int
    joined_at: str
    last_active_at: str = Field(description="When they joined, or last started or finished a ladder game.")
    bot_account: bool = Field(False, description=BOT_ACCOUNT + " Stored on the rung when the player joins: rungs "
                                                               "made before bot marks (issue 23) have none.")


class LadderSide(Shape):
    player_id: str
    name: str
    rank: int | None
    bot_account: bool = Field(False, description=BOT_ACCOUNT + " (As the player's rung says.)")


class LadderChallengeView(Shape):
    game_id: str
    challenger: LadderSide
    challenged: LadderSide
    respond_by: str = Field(description="The challenged player accepts by then, or the challenge counts as "
                                        "declined (a loss).")
    created_at: str


class LadderView(LadderSummary):
    players: list[LadderPlayer] = Field(description="Top first.")
    challenges: list[LadderChallengeView] = Field(description="Open challenges, oldest first.")


class LadderChallengeCreated(LadderChallengeView):
    game: GameView = Field(description="The challenge's game as you (the challenger) see it: waiting for the "
                                       "challenged player's answer.")


class StandingRow(Shape):
    rank: int | None
    player_id: str
    name: str
    seed: int | None
    points: float = Field(description="Tournament points; an annulled player's games count for no one.")
    tie_break: float = Field(description="The first tie-break's value (`tie_breaks[tie_break_order[0]]`).")
    tie_breaks: dict[TieBreak, float] = Field(
        description="Every tie-break of `tie_break_order`, by name, larger is better. `direct_encounter`: points "
                    "taken from the players tied on points, once all of them have met (else 0); `wins`: pairings "
                    "won, with or without play (a Swiss bye too); `sonneborn_berger`: each opponent's points "
                    "weighed by the share of the pairing's points taken from them; `buchholz`: the opponents' "
                    "points, `buchholz_cut_1` without the lowest (a round without an opponent counts 0); "
                    "`flags_won` (Battle Line): flags held at the end of each game; `round_reached` "
                    "(elimination): the last round played, the rounds + 1 for the winner.")
    withdrawn: bool
    annulled: bool = Field(description="Round robin: withdrew having played fewer than half of their games, so "
                                       "all their games are annulled (FIDE).")
    bot_account: bool = Field(False, description=BOT_ACCOUNT)


class CrosstableEntry(Shape):
    round: int
    board: int
    opponent_seed: int | None = Field(description="null: a bye.")
    opponent_rank: int | None = Field(description="The opponent's rank in `standings` (null: a bye).")
    seat: Literal[1, 2] = Field(description="The player's seat in the pairing's first game (a match's games "
                                            "alternate the seats).")
    points: float | None = Field(description="The player's points for the pairing; null while it is played.")
    opponent_points: float | None
    outcome: Literal["win", "draw", "loss", "bye", "pending"]
    forfeit: bool = Field(description="Not played out: a side withdrew (the game lost by withdrawing too).")
    annulled: bool = Field(description="Counts for no one: a side's games are annulled.")
    game_ids: list[str] = Field(description="The pairing's games (a match's in order; none for a bye or a "
                                            "forfeit without play).")


class CrosstableRow(Shape):
    rank: int | None
    seed: int | None
    player_id: str
    name: str
    results: list[CrosstableEntry] = Field(
        description="Every pairing of the player, round by round. A round robin's column for an opponent is "
                    "the entries with that `opponent_rank` (two in a double round robin); a Swiss table reads "
                    "them by round.")
    bot_account: bool = Field(False, description=BOT_ACCOUNT)


class Standings(Shape):
    tournament_id: str
    name: str
    game: str
    format: TournamentFormat
    status: Literal["open", "running", "finished"]
    round: int
    rounds: int | None
    tie_break: TieBreak = Field(description="The first of `tie_break_order`.")
    tie_break_order: list[TieBreak] = Field(
        description="The tie-breaks after points, first to last, then the seed: round robins `direct_encounter`, "
                    "`wins`, `sonneborn_berger`; Swiss `buchholz_cut_1`, `buchholz`, `sonneborn_berger`, `wins`; "
                    "Battle Line adds `flags_won` to both; elimination `round_reached` (FIDE C.07: "
                    "docs/correspondence.md).")
    standings: list[StandingRow] = Field(description="Best first (in entry order before the start); players "
                                                     "tied on points and on every tie-break are ordered by seed.")
    crosstable: list[CrosstableRow] = Field(description="The players in rank order with their results "
                                                        "(empty before the start).")
    html_url: str = Field(description="The standings and crosstable as a page for a browser (public).")
    csv_url: str = Field(description="The standings and crosstable as a CSV file (public; `Accept: text/csv` "
                                     "on getStandings answers the same).")
    trf_url: str = Field(description="The tournament as FIDE's Tournament Report File (TRF-16), which any "
                                     "FIDE-endorsed pairing program can check round by round (public).")


CardSetNames = Annotated[dict[str, str] | None, Field(description="The name in other languages, by language code "
                                                                 "(en, zh-Hans, ja, vi), when the file gives them.")]


class CardSetFaction(Shape):
    id: str
    name: str
    names: CardSetNames = None


class CardSetSummary(Shape):
    id: str
    version: int
    name: str
    digest: str = Field(description="Fingerprint of the version's content; a game records it.")
    factions: list[CardSetFaction]


class CardSetList(Shape):
    card_sets: list[CardSetSummary]
    refused: dict[str, list[str]] = Field(description="Card-set files this server refused to load, each with "
                                                      "what is wrong, entry by entry.")


class CardSetUnit(Shape):
    id: str
    faction: str
    name: str
    base: int
    melee: bool
    ranged: dict[str, Any] | None = Field(description='{"forward": [nearest, farthest], "side": s} or null.')
    names: CardSetNames = None


class CardSetCommand(Shape):
    id: str
    faction: str
    name: str | None = None
    kind: Literal["move", "defend", "attack"]
    cost: int
    units: list[str] | Literal["all"]
    keywords: list[str] = Field(description='In the card\'s order, e.g. ["mobility 2", "power +2", "melee"].')
    names: CardSetNames = None


class CardSetDocument(CardSetSummary):
    """A card set as its file gives it (the format a designer writes)."""

    units: list[CardSetUnit]
    commands: list[CardSetCommand]
    recommended: dict[str, list[str]]


class CardSetCheck(Shape):
    valid: bool
    id: str | None = None
    version: int | None = None
    digest: str | None = None
    problems: list[str] = Field(description="What is wrong, one message per fault, each naming its entry "
                                            "(e.g. commands[charge].keywords[1]). A file that reuses a published "
                                            "id and version with other rules is invalid.")
    warnings: list[str] = Field(description="What a valid set allows but most likely was not meant, each naming "
                                            "its entry and field: a unit's power taken below 0, an attack card "
                                            "some of its units cannot use, a card no deck can use.")


class NotesView(Shape):
    """A seat's private notes on a game: only that seat's player reads them (never the other seats
    nor a spectator), during the game and after it."""

    game_id: str
    seat: int = Field(description="Your seat in the game.")
    text: str = Field(description="Your notes (empty if you never saved any).")
    updated_at: str | None = Field(description="When you last saved them (null if never).")


class BlockView(Shape):
    player_id: str = Field(description="The player you blocked.")
    name: str = Field(description="Their name when you blocked them.")
    blocked_at: str = Field(description="When you blocked them.")


class BlockList(Shape):
    """The players you blocked. None of them can challenge you, take a seat in a game you sit in, or
    be seated by you; their messages are not shown to you. Tournaments and ladders still pair you
    with them."""

    blocks: list[BlockView] = Field(description="Oldest block first.")


class RecordPlayer(Shape):
    seat: int
    player_id: str | None = Field(description="Null for a bot, or a seat never taken.")
    name: str
    bot: str | None = Field(description="The bot playing the seat (random, greedy, mcts), or null.")


class RecordEvent(Shape):
    seq: int
    type: str
    seat: int | None
    data: dict[str, Any] = Field(description="As the reader may see it: with their own private part while the "
                                             "game runs; with every private part once it is over.")


class RecordMove(Shape):
    """One accepted version of the game (versions 1, 2, ...: version 0 is the deal, ``start``)."""

    version: int
    seat: int | None = Field(description="The seat that acted (lost, for a timeout).")
    kind: str = Field(description="`steps`: the seat's steps (postAction, a bot's turn, a link, an email); "
                                  "`timeout`, `withdrawn`, `forfeit`: the seat lost without a step; `seat_taken`, "
                                  "`seat_accepted`, `seat_joined`, `game_declined`, `game_aborted`: the game's "
                                  "consent before it began. A resignation is a step (`resign`).")
    steps: list[dict[str, Any]] = Field(description="The steps taken, in order, as postAction takes them; while "
                                                    "the game runs, another seat's step lacks what only that "
                                                    "seat sees (Scout's returned cards, a deployed unit, a "
                                                    "payment).")
    events: list[RecordEvent]
    at: str = Field(description="When the version was accepted (RFC 3339, UTC, `Z`).")
    clock_used_seconds: float | None = Field(description="Time this move took on the mover's clock (pauses "
                                                         "left out); null without a clock, or when the "
                                                         "mover's clock was not running.")


class CardSetRef(Shape):
    id: str
    version: int
    digest: str


class GameRecordDoc(Shape):
    """A game's record in the open format ``game-record/1`` (docs/records.md)."""

    format: Literal["game-record/1"]
    game_id: str
    game: str
    rules_version: str = Field(description="The rules it was played by (`battleline/1`, `khan/1`).")
    card_set: CardSetRef | None = Field(description="Khan & General's card set; null for Battle Line.")
    status: str
    options: dict[str, Any] = Field(description="As created (while the game runs, as the reader's view shows "
                                                "them), without the time control.")
    time_control: dict[str, Any] | None
    rated: bool
    tournament_id: str | None
    players: list[RecordPlayer]
    you: int | None = Field(description="The reader's seat; null for a spectator.")
    created_at: str
    finished_at: str | None
    result: dict[str, Any] | None
    deal_commitment: str | None
    seed: int | None = Field(description="Once the game is over (from the start, for an explicit seed); on a "
                                         "duplicate tournament's board, once its round's last board has "
                                         "finished.")
    deal_salt: str | None = Field(description="Once the game is over (on a duplicate tournament's board, once "
                                              "its round is over).")
    complete: bool = Field(description="True once the game is over: the record then holds everything (the "
                                       "whole deal, every hand and draw, the seed and salt). On a duplicate "
                                       "tournament's board, only once every board of its round has finished.")
    start: dict[str, Any] = Field(description="Version 0: once the game is over, the engine's whole starting "
                                              "state (every hand, the decks in order); before, the reader's "
                                              "view of it.")
    moves: list[RecordMove]
    notation: str | None = Field(description="Battle Line: the `steps` moves in the compact notation "
                                             "(docs/notation.md), as the reader sees them (`return:?` for "
                                             "another seat's Scout return while the game runs), with the "
                                             "`Result` tag telling a timeout or forfeit; null for Khan & "
                                             "General.")


class GameRecordList(Shape):
    records: list[GameRecordDoc]
    next_cursor: str | None = Field(description="Give it as `cursor` for the next page; null on the last page.")


class BoardLink(Shape):
    url: str = Field(description="Opens the game's board in a browser, as your seat (keep it to yourself; it ends "
                                 "when your API keys are revoked, rotated or recovered: ask again), or as a "
                                 "spectator of a public game.")
    seat: int | None


class BoardStepChoice(Shape):
    label: str = Field(description="The step in a sentence, in the page's language.")
    step: Step
    claimable_after: list[int] | None = Field(None, description="Battle Line: the flags you could claim after this "
                                                                "play or pass (null: not worked out, e.g. a guile "
                                                                "tactic); the page plans the claim and draw with it.")


class BoardSeat(Shape):
    seat: int
    name: str
    you: bool
    label: str = Field(description='"You" for your own seat, else the name.')


class BoardClock(Shape):
    seat: int
    running: bool
    text: str = Field(description="The seat's time, in words.")


class BoardLogLine(Shape):
    seq: int = Field(description="The event told (listEvents' seq).")
    text: str
    said_by: str | None = Field(None, description="A message's sender (the line is a message, `text` its words).")


class BoardAnswerLink(Shape):
    url: str = Field(description="The signed answer page (its button accepts or declines).")
    label: str
    danger: bool


class BoardDealLine(Shape):
    before: str = Field(description="The words before the value (\"Seed: \"), in the page's language.")
    value: str = Field(description="The value, drawn as code.")
    after: str = Field(description="The words after it (empty in most languages).")
    text: str = Field(description="The whole line.")


class BoardDeal(Shape):
    """The deal's commitment, and once the game is over its seed and salt, with how to check them."""

    lines: list[BoardDealLine] = Field(description="The commitment; once revealed, the seed and the salt too.")
    about: str = Field(description="What the lines mean, in the page's language.")
    command: str | None = Field(description="Once revealed: the command that checks the deal and every move "
                                            "(`battleline verify <game>`); null before.")


class BoardWaiting(Shape):
    text: str = Field(description="Whom the game waits for, in a sentence.")
    summary: list[str] = Field(description="The game's players and options, in sentences.")
    links: list[BoardAnswerLink] = Field(description="Accept and decline, for the seat asked; else empty.")


class BoardView(Shape):
    """What the board page shows, refreshed as the game moves on."""

    game_id: str
    game: str
    title: str
    version: int
    status: str
    you: int | None
    to_move: int | None
    phase: str
    headline: str = Field(description="Whose move it is (by name), or who won and how.")
    waiting: BoardWaiting | None = Field(None, description="A game that has not begun: whom it waits for, and the "
                                                           "asked seat's answer links; null once it began.")
    seats: list[BoardSeat]
    clock: list[BoardClock] = Field(description="Each seat's time (empty without a clock).")
    counts: list[str] = Field(description="What a player keeps count of (decks, hands, discards; Khan & General's "
                                          "round, limits, command zones, units), in sentences.")
    recap: list[str] | None = Field(description="What the others did since your last move; null when no event came "
                                                "after `after` (nothing new to tell).")
    messages: list[Message] | None = Field(description="The other seats' messages since your last move (none for "
                                                       "a spectator, nor when you turned messages off); null as "
                                                       "`recap`.")
    drawn: list[str] | None = Field(description="The cards you drew in your latest turn and still hold; null as "
                                                "`recap`.")
    log: list[BoardLogLine] = Field(description="The move log's lines for the events after `after`, oldest first.")
    log_seq: int = Field(description="The last event told: the next request's `after`.")
    svg: str = Field(description="The board as SVG, as the seat (or a spectator) sees it.")
    text: str = Field(description="The same board as text.")
    hand: list[str]
    table: dict[str, Any] = Field(description="The game's table as the page draws it (chalicelib/pages/board_battleline.py, "
                                              "board_khan.py): flags and card faces, or the field's units, command "
                                              "zones and legend.")
    steps: list[BoardStepChoice] = Field(description="Every step the seat may take now (none for spectators).")
    deal: BoardDeal | None = Field(description="The deal's commitment as the page shows it (docs/rules.md, \"Provably "
                                               "fair deals\"); null for a game made before deals were committed to.")


# ---------------------------------------------------------------- webhook payloads (openapi.yaml's `webhooks`)

class WebhookGameData(Shape):
    game_id: str
    game: Literal["battleline", "khan"]
    version: int = Field(description="The game's version when the message was made.")
    seat: int = Field(description="The receiver's seat.")


class LadderRef(Shape):
    id: str
    name: str


class LadderInvitation(LadderRef):
    respond_by: str = Field(description="Accept by then, or the challenge counts as declined (a loss).")


class GameInvitedData(WebhookGameData):
    created_by: str = Field(description="The player who created the game.")
    consent: bool = Field(description="True: the game waits for the receiver to accept (acceptGame) or decline "
                                      "(declineGame) their seat; false: their seat needs no answer (they created "
                                      "the game, or their `challenges` preference accepts in advance).")
    your_move: bool | None = Field(None, description="True when the game begins on the receiver's move (a "
                                                     "game.your_turn comes too); absent otherwise.")
    tournament_id: str | None = Field(None, description="A tournament game's tournament; absent otherwise.")
    ladder: LadderInvitation | None = Field(None, description="A ladder challenge's ladder (challengeOnLadder).")


class LadderRankChangedData(WebhookGameData):
    ladder: LadderRef
    rank_before: int
    rank: int = Field(description="Your rank now (1 = the top).")


class GameYourTurnData(WebhookGameData):
    created_by: str | None = Field(None, description="At version 0 (a game that begins on the receiver's move): "
                                                     "the player who created it; absent later.")
    tournament_id: str | None = Field(None, description="At version 0: a tournament game's tournament; absent "
                                                        "otherwise.")


class GameReminderData(WebhookGameData):
    reminder: Literal[REMINDER_KINDS] = Field(description="Which reminder of the time policy: reminder_14d, "
                                                         "reminder_28d, reminder_35d (that many days without a "
                                                         "move), reminder_80 (80 % of the time is used) or "
                                                         "reminder_24h (24 hours are left).")
    deadline: str = Field(description="When the seat loses on time.")
    time_left_seconds: int


class PublicEvent(Shape):
    """An event as every seat may see it (no private data)."""

    seq: int
    type: str
    seat: int | None
    data: dict[str, Any]


class GameActionData(WebhookGameData):
    events: list[PublicEvent] = Field(description="What the accepted action did; read your own view with getGame "
                                                  "(a message that went with it is not here: listEvents has it).")
    to_move: int | None
    started: bool | None = Field(None, description="True when this action began the game (the last seat accepted "
                                                   "or joined); absent otherwise.")


class GameFinishedData(WebhookGameData):
    result: GameResult | None


class _Webhook(Shape):
    timestamp: str = Field(description="When the message was made (ISO 8601, UTC).")


class GameInvitedWebhook(_Webhook):
    """You have a seat in a new game (asked to accept it, or already in it). An address invited by email is
    no player yet: it gets the invitation by email, and no webhook."""

    type: Literal["game.invited"]
    data: GameInvitedData


class GameYourTurnWebhook(_Webhook):
    """It is your decision in a game."""

    type: Literal["game.your_turn"]
    data: GameYourTurnData


class GameReminderWebhook(_Webhook):
    """Your time in a game is running out."""

    type: Literal["game.reminder"]
    data: GameReminderData


class GameActionWebhook(_Webhook):
    """A seat's action was accepted in one of your games."""

    type: Literal["game.action"]
    data: GameActionData


class GameFinishedWebhook(_Webhook):
    """One of your games is over."""

    type: Literal["game.finished"]
    data: GameFinishedData


class LadderRankChangedWebhook(_Webhook):
    """A ladder game's result moved you on its ladder (the game is the one whose result did it)."""

    type: Literal["ladder.rank_changed"]
    data: LadderRankChangedData


WEBHOOKS = {"game.invited": GameInvitedWebhook, "game.your_turn": GameYourTurnWebhook,
            "game.reminder": GameReminderWebhook, "game.action": GameActionWebhook,
            "game.finished": GameFinishedWebhook, "ladder.rank_changed": LadderRankChangedWebhook}
