"""What the API takes, as pydantic models: request bodies and queries are validated with them,
and openapi.yaml documents them. What it answers is in ``responses.py``."""

# No `from __future__ import annotations` here: pydantic would compile every field's annotation from its
# string when app.py is imported, a fifth of this module's import (issue 39 item 5, a cold start).
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from ..clocks import digest, timecontrol
from ..kernel.shapes import STRICT, Shape
from ..kernel.text import (LINES_PATTERN, NO_CONTROLS, PLAIN_TEXT_PATTERN, Email, MessageText, Name, lines_text,
                           no_controls, plain_text)

GAME_TYPES = ("battleline", "khan")

SeatNumber = Annotated[int, Field(ge=1, le=3)]
STEP_REF = {"$ref": "#/components/schemas/Step"}  # every game's steps, in openapi.yaml
# Every game's options (with ``time_control``), in openapi.yaml; the service validates them per game.
GameOptions = Annotated[dict[str, Any], WithJsonSchema({"anyOf": [{"$ref": "#/components/schemas/BattleLineOptions"},
                                                                  {"$ref": "#/components/schemas/KhanOptions"}]})]
PlayerId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class Request(Shape):
    model_config = STRICT


def _no_default(extra: dict):
    def edit(schema: dict) -> None:
        schema.pop("default", None)
        schema.update(extra)
    return edit


# ---------------------------------------------------------------- players

Language = Literal["en", "zh-Hans", "ja", "vi"]
LANGUAGE = ("The language of your emails, pages, board and refusal reasons: en (English), zh-Hans (简体中文), "
            "ja (日本語) or vi (Tiếng Việt).")


RecoveryCode = Annotated[str, Field(min_length=16, max_length=128, description=(
    "A secret phrase of 16 to 128 characters that you keep (a password manager, paper): with your player id it "
    "gets you a new API key by `recoverAccount`. Only a slow salted hash (scrypt) is stored; each code works once."))]


class BotPolicy(Request):
    """What a bot account accepts (issue 23): a game made for it outside this is refused (422
    `bot_refuses`, saying why). Left out, a field accepts anything. Tournaments and ladders pair it
    whatever it says (entering one is the bot's own choice)."""

    games: list[Literal["battleline", "khan"]] | None = Field(
        None, min_length=1, description="The game types it plays (null: every one).")
    rated: Literal["any", "rated", "unrated"] = Field("any", description="Rated games only, unrated only, or any.")
    time_controls: list[Literal["none", "per_move", "bank", "fischer"]] | None = Field(
        None, min_length=1, description="The time controls it plays: `none` (no clock), `per_move` "
                                        "(per_move_days), `bank` (moves + days) or `fischer` (null: every one).")
    max_turn_days: float | None = Field(None, gt=0, le=365, description="The longest turn it accepts, in days "
                                                                        "(a game with no clock or a bank that grows "
                                                                        "has no longest turn and is refused).")


class CreatePlayerRequest(Request):
    name: Name
    email: Email | None = None
    language: Language = Field("en", description=LANGUAGE)
    recovery_code: RecoveryCode | None = None
    bot: bool = Field(False, description="A bot account: a program that plays through the API. Shown as a bot "
                                         "everywhere (`bot: true`); may declare what it accepts (`bot_policy`).")
    bot_policy: BotPolicy | None = Field(None, description="What the bot accepts (only with `bot: true`; "
                                                           "updatePreferences changes it).")


class RecoverAccountRequest(Request):
    """Either ``email`` (a link is mailed, if the address is a player's) or ``player_id`` with
    ``recovery_code`` (a new key at once)."""

    email: Email | None = Field(None, description="Your address: a link to a page that gives you a new API key is "
                                                  "mailed to it, if it is a player's (the answer never says).")
    player_id: PlayerId | None = None
    recovery_code: str | None = Field(None, max_length=128, description="The code you set; it works once.")
    new_recovery_code: RecoveryCode | None = Field(None, description="With `recovery_code`: the code that replaces "
                                                                     "it (else you have none any more).")

    @model_validator(mode="after")
    def _one_way(self):
        by_email = self.email is not None
        by_code = self.player_id is not None or self.recovery_code is not None
        if by_email == by_code or (by_code and (self.player_id is None or self.recovery_code is None)):
            raise PydanticCustomError("recovery_request", "send either email, or player_id with recovery_code")
        if by_email and self.new_recovery_code is not None:
            raise PydanticCustomError("recovery_request", "new_recovery_code goes with player_id and recovery_code")
        return self


class TakeVacationRequest(Request):
    days: int = Field(ge=1, le=366, description="Whole days from now; all your clocks stop meanwhile.")


class LeaderboardQuery(Shape):
    model_config = ConfigDict(extra="ignore", defer_build=True)
    limit: int = Field(50, ge=1, le=200)
    card_set: str | None = Field(None, max_length=40, description="Khan & General: the leaderboard of this card "
                                                                  "set (each set is rated apart); left out, the "
                                                                  "default set's.")


class OpenGamesQuery(Shape):
    model_config = ConfigDict(extra="ignore", defer_build=True)
    game: Literal["battleline", "khan"] = Field("battleline", description="The game type.")
    limit: int = Field(20, ge=1, le=100, description="At most this many, newest first.")


# ---------------------------------------------------------------- games

class PlayerSeat(Request):
    player_id: PlayerId


class EmailSeat(Request):
    email: Email


class BotSeat(Request):
    bot: str = Field(min_length=1, max_length=32)


class OpenSeat(Request):
    """A seat for anyone (an open challenge): listed by listOpenGames, taken by joinGame, first come
    first served; within the rating range when one is given (the joiner's rating at this game)."""

    open: Literal[True]
    rating_min: int | None = Field(None, ge=0, le=4000)
    rating_max: int | None = Field(None, ge=0, le=4000)


Seat = Union[PlayerSeat, EmailSeat, BotSeat, OpenSeat]


class CreateGameRequest(Request):
    game: Literal["battleline", "khan"]
    options: GameOptions = Field(default_factory=dict, description="The options of the game `game` names.")
    seats: list[Seat] = Field(min_length=1, max_length=3)
    seed: int | None = Field(None, ge=0, lt=2**63, description="Deal deterministically; the seed is then shown to all and the game is never rated.")
    rated: bool = Field(True, description="Update the players' Glicko-2 ratings when the game ends. Only "
                                          "two-player games without an explicit seed or a bot are rated: "
                                          "left out, such a game is simply unrated; `true` given with a "
                                          "`seed`, a bot seat or three seats is refused (422 `rated_conflict`).")
    public: bool = Field(False, description="Anyone may watch it (getBoard without a seat link; getGame by "
                                            "anyone): a spectator sees no hand and no hidden card.")


class NotesRequest(Request):
    text: Annotated[str, Field(description="Your notes on the game, as you want them kept (they replace what you "
                                           "saved before): up to 4,000 characters, several lines allowed (no other "
                                           "control character, no bidirectional override); empty clears them.",
                               json_schema_extra={"pattern": LINES_PATTERN}),
                    AfterValidator(lines_text)]


class ActionRequest(Request):
    expected_version: int = Field(ge=0, description="The version the steps were chosen at.")
    steps: list[dict[str, Any]] = Field(min_length=1, max_length=20, description="Applied in order, all or nothing.",
                                        json_schema_extra={"items": STEP_REF})
    message: MessageText | None = Field(None, description="A message to the other seats, with the move: up to 500 "
                                                          "characters on one line (no control character, not "
                                                          "blank). Shown to the game's seats only (an event of type "
                                                          "`message`; `messages` in getGame), never to a spectator, "
                                                          "and not to a player who turned messages off.")


class Query(Shape):
    model_config = ConfigDict(extra="ignore", defer_build=True)


# No maxLength: a cursor longer than any (http/cursors.MAX_CURSOR, 1,024 characters) is not this list's,
# and is refused as every other such cursor is, 400 invalid_cursor (not 422 invalid_request).
Cursor = Annotated[str, Field(min_length=1, description="The `next_cursor` of the page before, with the same "
                                                        "query; left out: the first page. One that is not this "
                                                        "list's for this query (edited, another query's, longer "
                                                        "than 1,024 characters) is 400 invalid_cursor.")]


def Limit(default: int, most: int):  # noqa: N802 - a field's type, named like one
    return Field(default, ge=1, le=most, description=f"At most this many items a page (default {default}, at "
                                                     f"most {most}).")


LONG_POLL = ("seconds: when there is nothing yet, wait up to this long and answer as soon as something comes, "
             "else the empty list. At most the server's maximum (20 s deployed and under make serve; a larger "
             "value waits that long); 0, the default, answers at once (docs/bots.md).")


class ListGamesQuery(Query):
    status: Literal["waiting", "active", "finished"] | None = None
    to_move: Literal["me"] | None = None
    limit: int = Limit(50, 200)
    cursor: Cursor | None = None
    wait: int = Field(0, ge=0, description="With to_move=me, a long-poll for a game awaiting your move, in "
                                           + LONG_POLL)


class ListRecordsQuery(Query):
    limit: int = Limit(20, 100)
    cursor: Cursor | None = None


class ListEventsQuery(Query):
    after: int = Field(0, ge=0, description="Only events with a larger seq. A `cursor` goes on from its page "
                                            "and is for the `after` it came with: send that `after` with it "
                                            "(another is 400 invalid_cursor).")
    limit: int = Limit(200, 1000)
    cursor: Cursor | None = None
    wait: int = Field(0, ge=0, description="A long-poll for events after `after`, in " + LONG_POLL)


class PageQuery(Query):
    """A page of a list that has no other filter (a webhook's deliveries)."""

    limit: int = Limit(50, 200)
    cursor: Cursor | None = None


class FindPlayersQuery(Query):
    name: Annotated[str, Field(min_length=1, max_length=64, description="The name, matched whole after Unicode "
                                                                       "normalisation (NFKC) and case folding: "
                                                                       "`ANN`, `ann` and `Ａｎｎ` find Ann.")]
    limit: int = Limit(20, 100)
    cursor: Cursor | None = None


class TournamentQuery(Query):
    format: Literal["json", "trf"] = Field("json", description="trf: FIDE's Tournament Report File (TRF-16: a "
                                                                "player line a player with each round's "
                                                                "opponent, seat as colour w/b and result; "
                                                                "text/plain), for any FIDE-endorsed pairing "
                                                                "checker.")


class StandingsQuery(Query):
    format: Literal["json", "csv"] = Field("json", description="csv: the standings and crosstable as a CSV file "
                                                                "(RFC 4180, UTF-8, a header row; text/csv).")


class ListTournamentsQuery(Query):
    status: Literal["open", "running", "finished"] | None = Field(
        None, description="open: taking entries; running: being played; finished. Left out: all three.")
    limit: int = Limit(20, 100)
    cursor: Cursor | None = None


# ---------------------------------------------------------------- webhooks

WebhookEvent = Literal["game.invited", "game.your_turn", "game.reminder", "game.action", "game.finished",
                       "ladder.rank_changed"]


class CreateWebhookRequest(Request):
    url: Annotated[str, Field(min_length=8, max_length=2048, description="An https:// URL on port 443 or 80 that "
                                                                         "resolves to public addresses "
                                                                         "(docs/notifications.md).",
                              # Documentation: the service checks the URL itself (unsafe_webhook_url).
                              json_schema_extra={"pattern": f"^[Hh][Tt][Tt][Pp][Ss]?://{NO_CONTROLS}$"}),
                   AfterValidator(no_controls)]
    events: list[WebhookEvent] | None = Field(None, min_length=1, description="The event types to send; all when left out.")


def _time_zone(name: str) -> str:
    if not timecontrol.valid_zone(name):
        raise PydanticCustomError("time_zone", "not an IANA time zone (e.g. Europe/Paris, America/New_York, UTC)")
    return name


TimeZone = Annotated[str, Field(min_length=1, max_length=64),
                     AfterValidator(_time_zone)]


def _digest_time(text: str) -> str:
    if not digest.valid_time(text):
        raise PydanticCustomError("digest_time", "a local time on the quarter hour, HH:MM (e.g. 07:30 or 18:45)")
    return text


class DigestChoice(Request):
    """The daily digest: one email a day at `time` in your `time_zone`, listing the games awaiting your move, instead of an email per move. A field left out keeps its value."""  # noqa: E501

    enabled: bool = Field(None, description="On: your-move emails (`game.your_turn`, `game.action`) are gathered "  # type: ignore[assignment]
                                            "into the digest; invitations, reminders of deadlines, results and "
                                            "ladder news still come by email at once; webhooks are unchanged. "
                                            "Default false.", json_schema_extra=_no_default({}))
    time: Annotated[str, Field(min_length=5, max_length=5), AfterValidator(_digest_time)] = Field(  # type: ignore[assignment]
        None, description="When it is sent, local time on the quarter hour (`07:30`; default `08:00`). A time "
                          "the clocks skip on a change to summer time sends it when they jump; a time they repeat, "
                          "at its first occurrence.",
        json_schema_extra=_no_default({"pattern": digest.TIME_PATTERN}))

    def chosen(self) -> dict:
        return {name: getattr(self, name) for name in self.model_fields_set}


class Preferences(Request):
    """Your choices. A field left out keeps its value (an older client cannot reset a newer one)."""

    # Either field may be left out, but none is ever null (so the schema shows no default).
    email: list[WebhookEvent] = Field(None, description="Event types sent by email (to the player's email "  # type: ignore[assignment]
                                                        "address).", json_schema_extra=_no_default({}))
    webhook: list[WebhookEvent] = Field(None, description="Event types sent to the player's webhooks.",  # type: ignore[assignment]
                                        json_schema_extra=_no_default({}))
    messages: bool = Field(None, description="Show me the other seats' messages (in getGame, listEvents, "  # type: ignore[assignment]
                                             "emails and the board; default true). Off, you may still send "
                                             "one.", json_schema_extra=_no_default({}))
    challenges: Literal["ask", "accept", "refuse"] = Field(  # type: ignore[assignment]
        None, description="A game someone else seats you in: `ask` (the default: it waits until you accept "
                          "or decline), `accept` (it starts at once: consent given in advance, e.g. for a "
                          "bot's account) or `refuse` (refused: only open seats and tournaments).",
        json_schema_extra=_no_default({}))
    language: Language = Field(None, description=LANGUAGE,  # type: ignore[assignment]
                               json_schema_extra=_no_default({}))
    time_zone: TimeZone = Field(None, description="Your time zone, an IANA name such as `Europe/Paris` or "  # type: ignore[assignment]
                                                  "`UTC` (the default): under a time control with "
                                                  "`weekend_pause`, your clock stands still on your Saturday "
                                                  "and Sunday. A game keeps the zone you had when you took "
                                                  "your seat.", json_schema_extra=_no_default({}))
    weekend_pause: bool = Field(None, description="The games you create with a time control pause on weekends "  # type: ignore[assignment]
                                                  "(its `weekend_pause`) unless the control says otherwise "
                                                  "(default false).", json_schema_extra=_no_default({}))
    digest: DigestChoice = Field(None, description="A daily digest instead of an email per move "  # type: ignore[assignment]
                                                   "(docs/correspondence.md, Daily digest).",
                                 json_schema_extra=_no_default({}))
    bot_policy: BotPolicy = Field(None, description="A bot account only: what it accepts (games, rated or not, "  # type: ignore[assignment]
                                                    "time controls); replaces the policy before.",
                                  json_schema_extra=_no_default({}))
    email_address: Email = Field(None, description="Your email address, set (or changed) now. Setting it again, "  # type: ignore[assignment]
                                                   "the same or a new one, resumes mail that a bounce or a spam "
                                                   "complaint stopped (`email_status`).",
                                 json_schema_extra=_no_default({}))

    def chosen(self) -> dict:
        """The fields the request sets."""
        return {name: getattr(self, name) for name in self.model_fields_set}


# ---------------------------------------------------------------- tournaments

TournamentFormat = Literal["round_robin", "double_round_robin", "swiss", "single_elimination"]


class CreateTournamentRequest(Request):
    name: Annotated[str, Field(min_length=1, max_length=100, json_schema_extra={"pattern": PLAIN_TEXT_PATTERN}),
                    AfterValidator(plain_text)]
    game: Literal["battleline", "khan"]
    format: TournamentFormat
    rounds: int | None = Field(None, ge=1, le=50, description="Swiss only: how many rounds (default: log2 of "
                                                              "the players, rounded up); at the start, at most "
                                                              "the rounds in which no pairing repeats (n - 1 "
                                                              "for an even n, n for an odd n; getTournament's "
                                                              "`rounds_asked` then says what was asked).")
    options: GameOptions = Field(default_factory=dict, description="The options of every game of the tournament "
                                                                   "(of the game `game` names).")
    match_games: int = Field(1, ge=1, le=15, description="Games each pairing plays: in Battle Line one match of "
                                                         "that many games (the winner starts the next); in Khan & "
                                                         "General that many games at once, the seats alternating.")
    duplicate: bool = Field(False, description="Every board of a round deals the same cards (the same seed).")
    rated: bool = Field(True, description="The tournament's games update ratings.")
    withdraw_on_timeout: bool = Field(True, description="Withdraw a player who loses a game on time (or forfeits "
                                                        "one by never moving): their games in progress are lost "
                                                        "and their later pairings are forfeits.")
    max_players: int | None = Field(None, ge=2, le=256)
    time_control: dict[str, Any] | None = Field(None, description="The time control of every game (as a game's "
                                                               "`options.time_control`, which may be given "
                                                               "there instead).")
    vacations_allowed: bool | None = Field(None, description="The players' vacations stop their clocks in the "
                                                             "tournament's games (default true; needs a time "
                                                             "control).")
    weekend_pause: bool | None = Field(None, description="Every clock stands still on Saturday and Sunday in its "
                                                         "player's time zone (default false; needs a time "
                                                         "control).")


# ---------------------------------------------------------------- ladders

class CreateLadderRequest(Request):
    name: Annotated[str, Field(min_length=1, max_length=100, json_schema_extra={"pattern": PLAIN_TEXT_PATTERN}),
                    AfterValidator(plain_text)]
    game: Literal["battleline", "khan"]
    options: GameOptions = Field(default_factory=dict, description="The options of every challenge's game (of the "
                                                                   "game `game` names), `time_control` included.")
    max_places_above: int = Field(3, ge=1, le=100, description="N: a player may challenge someone at most N places "
                                                               "above them.")
    max_open_challenges: int = Field(3, ge=1, le=20, description="K: the open challenges (made and received) a "
                                                                 "player may have at once.")
    response_days: int = Field(3, ge=1, le=30, description="Days the challenged player has to accept; declining "
                                                           "or not answering in time counts as a loss.")
    idle_days: int = Field(30, ge=1, le=365, description="A player with no ladder game started or finished for "
                                                         "this many days leaves the ladder.")


class ListLaddersQuery(Query):
    limit: int = Limit(20, 100)
    cursor: Cursor | None = None


class ChallengeRequest(Request):
    player_id: PlayerId = Field(description="The player you challenge: on the ladder, above you, at most "
                                            "`max_places_above` places.")


# ---------------------------------------------------------------- Khan & General card sets

class CardSetQuery(Query):
    version: int | None = Field(None, ge=1, description="The version; the latest when left out.")


class CardSetFile(Shape):
    """A card-set file's content, in the format getKhanCardSet shows."""

    model_config = ConfigDict(extra="allow", defer_build=True)


class BoardQuery(Query):
    seat: str | None = Field(None, max_length=1024, description="A seat's board link token (getBoardLink); "
                                                              "without it, a public game's spectator board.")
    lang: Language | None = Field(None, description="A spectator's board in this language rather than the one "
                                                    "Accept-Language asks for (a seat's board speaks its player's "
                                                    "`language` preference).")


class BoardViewQuery(BoardQuery):
    after: int = Field(0, ge=0, description="The last event the page has told: the answer's `log` holds only "
                                            "the later ones (and no event is read when there are none).")


class BoardReplayQuery(BoardQuery):
    v: int | None = Field(None, ge=0, description="The version to show (0: the game as dealt); left out, or "
                                                  "past the latest version: the latest.")


class BoardStep(Request):
    """One step (`step`), or several applied in order, all or nothing (`steps`: a whole turn)."""

    model_config = ConfigDict(**STRICT, json_schema_extra={"oneOf": [{"required": ["step"]},
                                                                     {"required": ["steps"]}]})
    expected_version: int = Field(ge=0)
    # Either field may be left out, but neither is ever null (so the schema shows no default).
    step: dict[str, Any] = Field(None, json_schema_extra=_no_default({"allOf": [STEP_REF]}))  # type: ignore[assignment]
    steps: list[dict[str, Any]] = Field(None, min_length=1, max_length=20,  # type: ignore[assignment]
                                        json_schema_extra=_no_default({"items": STEP_REF}))
    message: MessageText | None = Field(None, description="A message to the other seats, with the step(s) "
                                                          "(as postAction's).")

    @model_validator(mode="after")
    def _step_or_steps(self) -> "BoardStep":
        if ("step" in self.model_fields_set) == ("steps" in self.model_fields_set):
            raise PydanticCustomError("step_or_steps", "give step (one step) or steps (several), not both")
        return self
