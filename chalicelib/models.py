"""The HTTP API's bodies as pydantic models: requests are validated with them and
openapi.yaml is generated from them (``chalicelib.openapi``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, RootModel, WithJsonSchema

GAME_TYPES = ("battleline", "khan")

SeatNumber = Annotated[int, Field(ge=1, le=3)]
Step = Annotated[dict[str, Any], WithJsonSchema({"allOf": [{"$ref": "#/components/schemas/Step"}]})]
GameState = Annotated[dict[str, Any], WithJsonSchema({"allOf": [{"$ref": "#/components/schemas/GameState"}]})]
PlayerId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Email = Annotated[str, Field(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- players

class CreatePlayerRequest(Request):
    name: str = Field(min_length=1, max_length=64)
    email: Email | None = None


class PlayerView(BaseModel):
    id: str
    name: str
    email: str | None
    created_at: str


class VacationView(BaseModel):
    days_per_year: int
    days_left: int = Field(description="Vacation days not yet taken this calendar year (UTC).")
    on_vacation: bool
    until: str | None = Field(description="When the current vacation ends.")


class RatingView(BaseModel):
    game: str
    rating: int
    rd: float = Field(description="Rating deviation; provisional while it is 110 or more.")
    volatility: float
    provisional: bool
    games: int
    wins: int
    losses: int
    draws: int


class Me(PlayerView):
    vacation: VacationView
    ratings: dict[str, RatingView] = Field(description="Glicko-2 rating per game type played rated.")


class TakeVacationRequest(Request):
    days: int = Field(ge=1, le=366, description="Whole days from now; all your clocks stop meanwhile.")


class LeaderboardRow(RatingView):
    rank: int
    player_id: str
    name: str


class Leaderboard(BaseModel):
    game: str
    players: list[LeaderboardRow] = Field(description="Established ratings (RD below 110), best first.")


class LeaderboardQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")
    limit: int = Field(50, ge=1, le=200)


class PlayerCreated(PlayerView):
    api_key: str = Field(description="Shown once; only its hash is stored.")


# ---------------------------------------------------------------- games

class PlayerSeat(Request):
    player_id: PlayerId


class EmailSeat(Request):
    email: Email


class BotSeat(Request):
    bot: str = Field(min_length=1, max_length=32)


Seat = Union[PlayerSeat, EmailSeat, BotSeat]


class CreateGameRequest(Request):
    game: Literal["battleline", "khan"]
    options: dict[str, Any] = Field(default_factory=dict, description="Game options; see each game's options schema.")
    seats: list[Seat] = Field(min_length=1, max_length=3)
    seed: int | None = Field(None, ge=0, lt=2**63, description="Deal deterministically; the seed is then shown to all and the game is never rated.")
    rated: bool = Field(True, description="Update the players' Glicko-2 ratings when the game ends. Only "
                                          "two-player games without an explicit seed are rated.")


class ActionRequest(Request):
    expected_version: int = Field(ge=0, description="The version the steps were chosen at.")
    steps: list[Step] = Field(min_length=1, max_length=20, description="Applied in order, all or nothing.")


class SeatView(BaseModel):
    seat: int
    player_id: str | None = Field(description="null while the seat's invitation by email is unanswered")
    name: str
    invited: bool = Field(description="The seat waits for an invited player to accept.")


class GameResult(BaseModel):
    winner: int | None = Field(description="The winning seat; null for a draw.")
    reason: str = Field(description="Battle Line: adjacent_flags, flag_count, stall, or match (a match decided on "
                                    "points). Khan & General: annihilation, max_rounds, draw_agreed. Both: resign, "
                                    "timeout, withdrawn.")
    flags: dict[str, int] | None = Field(None, description="Battle Line: flags held by each seat at the end (of the "
                                                           "last game of a match).")
    scores: dict[str, int] | None = Field(None, description="Battle Line: a match's total points per seat.")
    games: list[dict[str, Any]] | None = Field(None, description="Battle Line: a match's games, each with its result.")
    destroyed: dict[str, int] | None = Field(None, description="Khan & General: enemy units each seat destroyed.")
    wounded: dict[str, int] | None = Field(None, description="Khan & General: enemy units each seat has wounded, "
                                                             "still on the field.")


class SeatClock(BaseModel):
    seat: int
    time_left_seconds: int = Field(description="For the seat to move, what is left of this turn; for the "
                                               "others, what their next turn will have.")
    moves: int = Field(description="Turns the seat has completed.")
    running: bool
    deadline: str | None = Field(description="When the seat to move loses on time (vacations included).")
    paused: bool = Field(description="The seat to move is on vacation: its clock does not run.")


class ClockView(BaseModel):
    control: dict[str, int] = Field(description='{"per_move_days": N} or {"moves": M, "days": D}')
    seats: list[SeatClock]


class GameView(BaseModel):
    game_id: str
    game: str
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
    seed: int | None = Field(description="Shown when the seed was chosen by the creator, or once the game is over "
                                         "(never for a duplicate tournament's boards).")
    created_at: str
    updated_at: str


class EventView(BaseModel):
    seq: int
    version: int
    type: str
    seat: int | None
    data: dict[str, Any]
    at: str


class ActionResult(BaseModel):
    version: int
    view: GameView
    events: list[EventView]


class GameSummary(BaseModel):
    game_id: str
    game: str
    seat: int
    status: Literal["waiting", "active", "finished"]
    to_move: int | None
    your_turn: bool
    version: int
    updated_at: str
    deadline: str | None = Field(None, description="When it is your move: when your time runs out.")


class GameList(BaseModel):
    games: list[GameSummary]


class EventList(BaseModel):
    events: list[EventView]


class Query(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ListGamesQuery(Query):
    status: Literal["waiting", "active", "finished"] | None = None
    to_move: Literal["me"] | None = None


class ListEventsQuery(Query):
    after: int = Field(0, ge=0, description="Only events with a larger seq.")


class Problem(BaseModel):
    """RFC 9457 problem details, with a stable machine ``code``."""

    model_config = ConfigDict(extra="allow")

    type: str
    title: str
    status: int
    detail: str
    code: str


# ---------------------------------------------------------------- webhooks

WebhookEvent = Literal["game.invited", "game.your_turn", "game.reminder", "game.action", "game.finished"]


class CreateWebhookRequest(Request):
    url: str = Field(min_length=8, max_length=2048, description="An https:// URL that resolves to public addresses.")
    events: list[WebhookEvent] | None = Field(None, min_length=1, description="The event types to send; all when left out.")


class WebhookView(BaseModel):
    id: str
    url: str
    events: list[str] | None
    disabled: str | None = Field(description="Why the endpoint was disabled (410 Gone), or null.")
    created_at: str


class WebhookCreated(WebhookView):
    secret: str = Field(description="whsec_...: the signing secret, shown once.")


class WebhookList(BaseModel):
    webhooks: list[WebhookView]


class RotatedSecret(BaseModel):
    id: str
    secret: str = Field(description="The new signing secret, shown once.")
    previous_secret_expires_at: str = Field(description="Until then, deliveries are signed with both secrets.")


class AttemptView(BaseModel):
    at: str
    status: int | None = Field(description="The HTTP status the receiver answered, or null.")
    error: str | None


class DeliveryView(BaseModel):
    id: str = Field(description="The message id, sent as webhook-id on every attempt.")
    webhook_id: str
    type: str
    status: Literal["pending", "delivered", "failed"]
    attempts: list[AttemptView]
    next_attempt_at: str | None
    created_at: str


class DeliveryList(BaseModel):
    deliveries: list[DeliveryView]


class Preferences(Request):
    """Which events reach the player by email and by webhook."""

    email: list[WebhookEvent] = Field(description="Event types sent by email (to the player's email address).")
    webhook: list[WebhookEvent] = Field(description="Event types sent to the player's webhooks.")


# ---------------------------------------------------------------- tournaments

TournamentFormat = Literal["round_robin", "double_round_robin", "swiss", "single_elimination"]


class CreateTournamentRequest(Request):
    name: str = Field(min_length=1, max_length=100)
    game: Literal["battleline", "khan"]
    format: TournamentFormat
    rounds: int | None = Field(None, ge=1, le=50, description="Swiss only: how many rounds (default: log2 of "
                                                              "the players, rounded up).")
    options: dict[str, Any] = Field(default_factory=dict, description="Every game's options, time_control "
                                                                      "included.")
    match_games: int = Field(1, ge=1, le=15, description="Games each pairing plays: in Battle Line one match of "
                                                         "that many games (the winner starts the next); in Khan & "
                                                         "General that many games at once, the seats alternating.")
    duplicate: bool = Field(False, description="Every board of a round deals the same cards (the same seed).")
    rated: bool = Field(True, description="The tournament's games update ratings.")
    max_players: int | None = Field(None, ge=2, le=256)


class TournamentPlayer(BaseModel):
    player_id: str
    name: str
    seed: int | None = Field(description="1 = best rating at the start; null before it.")
    withdrawn: bool


class PairingSide(BaseModel):
    seed: int
    player_id: str
    name: str


class PairingView(BaseModel):
    round: int
    board: int
    first: PairingSide = Field(description="Seat 1 of the pairing's game.")
    second: PairingSide | None = Field(description="null: a bye.")
    game_ids: list[str]
    points: list[float] | None = Field(description="Each side's tournament points, once the pairing is over.")
    forfeit: bool = Field(description="Not played: a side had withdrawn.")


class TournamentView(BaseModel):
    id: str
    name: str
    game: str
    format: TournamentFormat
    rounds: int | None
    options: dict[str, Any]
    match_games: int
    duplicate: bool
    rated: bool
    max_players: int | None
    status: Literal["open", "running", "finished"]
    organiser: str
    created_at: str
    round: int = Field(description="The round being played (0 before the start).")
    players: list[TournamentPlayer]
    pairings: list[PairingView]


class StandingRow(BaseModel):
    rank: int | None
    player_id: str
    name: str
    seed: int | None
    points: float
    tie_break: float
    withdrawn: bool


class Standings(BaseModel):
    tournament_id: str
    status: Literal["open", "running", "finished"]
    round: int
    tie_break: Literal["sonneborn_berger", "buchholz", "round_reached"]
    standings: list[StandingRow]


# ---------------------------------------------------------------- Khan & General card sets

class CardSetFaction(BaseModel):
    id: str
    name: str


class CardSetSummary(BaseModel):
    id: str
    version: int
    name: str
    digest: str = Field(description="Fingerprint of the version's content; a game records it.")
    factions: list[CardSetFaction]


class CardSetList(BaseModel):
    card_sets: list[CardSetSummary]
    refused: dict[str, list[str]] = Field(description="Card-set files this server refused to load, each with "
                                                      "what is wrong, entry by entry.")


class CardSetUnit(BaseModel):
    id: str
    faction: str
    name: str
    base: int
    melee: bool
    ranged: dict[str, Any] | None = Field(description='{"forward": [nearest, farthest], "side": s} or null.')


class CardSetCommand(BaseModel):
    id: str
    faction: str
    name: str | None = None
    kind: Literal["move", "defend", "attack"]
    cost: int
    units: list[str] | Literal["all"]
    keywords: list[str] = Field(description='In the card\'s order, e.g. ["mobility 2", "power +2", "melee"].')


class CardSetDocument(CardSetSummary):
    """A card set as its file gives it (the format a designer writes)."""

    units: list[CardSetUnit]
    commands: list[CardSetCommand]
    recommended: dict[str, list[str]]


class CardSetQuery(Query):
    version: int | None = Field(None, ge=1, description="The version; the latest when left out.")


class CardSetFile(RootModel[dict[str, Any]]):
    """A card-set file's content (see getKhanCardSet for the format)."""


class CardSetCheck(BaseModel):
    valid: bool
    id: str | None = None
    version: int | None = None
    digest: str | None = None
    problems: list[str] = Field(description="What is wrong, one message per fault, each naming its entry "
                                            "(e.g. commands[charge].keywords[1]).")
