"""Errors the service reports, each with a stable machine ``code`` (the API's contract).

The service raises :class:`ServiceError`; the HTTP adapter turns it into RFC 9457
problem+json using the catalogue below. The catalogue is also what openapi.yaml lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from . import i18n
from .i18n import N_


@dataclass(frozen=True)
class ErrorKind:
    status: int
    title: str


ERRORS: dict[str, ErrorKind] = {
    "invalid_json": ErrorKind(400, "The request body is not valid JSON"),
    "unsupported_media_type": ErrorKind(415, "The body must be application/json"),
    "not_acceptable": ErrorKind(406, "No answer in a media type the request accepts"),
    "invalid_request": ErrorKind(422, "The request does not match the schema"),
    "invalid_card": ErrorKind(422, "Not a card of this game"),
    "invalid_step": ErrorKind(422, "The step does not match the schema of this game"),
    "invalid_options": ErrorKind(422, "The game options are not valid"),
    "invalid_deck": ErrorKind(422, "A seat's deck is not a legal deck"),
    "unknown_card_set": ErrorKind(422, "No such card set"),
    "card_set_not_found": ErrorKind(404, "No such card set"),
    "invalid_seats": ErrorKind(422, "The seats are not valid for this game"),
    "rated_conflict": ErrorKind(422, "A rated game was asked for that cannot be rated"),
    "unsupported_seat": ErrorKind(422, "This kind of seat is not supported yet"),
    "unknown_game_type": ErrorKind(422, "No such game type"),
    "invalid_position": ErrorKind(422, "The position is not a possible Battle Line position"),
    "illegal_action": ErrorKind(422, "The rules do not allow this step now"),
    "unauthorized": ErrorKind(401, "A valid API key is required"),
    "not_seated": ErrorKind(403, "You have no seat in this game"),
    "not_your_turn": ErrorKind(403, "It is not your decision now"),
    "player_not_found": ErrorKind(422, "No such player"),
    "game_not_found": ErrorKind(404, "No such game"),
    "notes_too_long": ErrorKind(422, "The notes are longer than a seat's notes may be"),
    "webhook_not_found": ErrorKind(404, "No such webhook"),
    "delivery_not_found": ErrorKind(404, "No such delivery"),
    "unsafe_webhook_url": ErrorKind(422, "The webhook URL is not allowed"),
    "version_conflict": ErrorKind(409, "The game has moved on since that version"),
    "game_finished": ErrorKind(409, "The game is over"),
    "game_not_started": ErrorKind(409, "The game waits for invited players"),
    "challenges_refused": ErrorKind(403, "The player takes no games made for them"),
    "blocked": ErrorKind(403, "One of you blocked the other"),
    "cannot_block_self": ErrorKind(422, "You cannot block yourself"),
    "too_many_games": ErrorKind(409, "Too many unfinished games"),
    "too_many_invitations": ErrorKind(429, "Too many invitations by email today"),
    "bot_refuses": ErrorKind(422, "The bot does not play such games"),
    "not_a_bot": ErrorKind(422, "Only a bot account has a bot policy"),
    "game_started": ErrorKind(409, "A move was made: the game can no longer be aborted"),
    "game_not_finished": ErrorKind(409, "The game is not over"),
    "game_never_began": ErrorKind(409, "The game was declined or called off before it began: it has no rematch"),
    "already_rematched": ErrorKind(409, "The game has had its one rematch"),
    "nothing_to_answer": ErrorKind(409, "Your seat in this game is settled already"),
    "seat_taken": ErrorKind(409, "The game has no open seat any more"),
    "already_seated": ErrorKind(409, "You have a seat in this game already"),
    "rating_out_of_range": ErrorKind(403, "Your rating is outside the seat's range"),
    "tournament_game": ErrorKind(409, "A tournament's games are paired by the tournament"),
    "idempotency_key_reused": ErrorKind(422, "This Idempotency-Key was used with another request"),
    "idempotency_key_invalid": ErrorKind(400, "The Idempotency-Key header is not valid"),
    "time_expired": ErrorKind(409, "The seat to move ran out of time; the game is over"),
    "already_on_vacation": ErrorKind(409, "You are on vacation already"),
    "not_on_vacation": ErrorKind(409, "You are not on vacation"),
    "vacation_days_exhausted": ErrorKind(422, "Not enough vacation days left this year"),
    "tournament_not_found": ErrorKind(404, "No such tournament"),
    "invalid_tournament": ErrorKind(422, "The tournament settings are not valid"),
    "tournament_started": ErrorKind(409, "The tournament has started"),
    "tournament_finished": ErrorKind(409, "The tournament is over"),
    "tournament_full": ErrorKind(409, "The tournament has no places left"),
    "not_entered": ErrorKind(409, "You are not in this tournament"),
    "already_entered": ErrorKind(409, "You are in this tournament already"),
    "too_few_players": ErrorKind(409, "Not enough players to start"),
    "not_organiser": ErrorKind(403, "Only the tournament's organiser may do this"),
    "ladder_not_found": ErrorKind(404, "No such ladder"),
    "already_on_ladder": ErrorKind(409, "You are on this ladder already"),
    "not_on_ladder": ErrorKind(409, "You are not on this ladder"),
    "player_not_on_ladder": ErrorKind(422, "The player challenged is not on this ladder"),
    "not_above": ErrorKind(422, "You challenge players above you on the ladder"),
    "too_far_above": ErrorKind(422, "The player is more places above you than the ladder allows"),
    "too_many_challenges": ErrorKind(409, "You or the player challenged have as many open challenges as the "
                                          "ladder allows"),
    "already_challenged": ErrorKind(409, "The two of you have a challenge open already"),
    "ladder_busy": ErrorKind(409, "The ladder changed meanwhile; try again"),
    "game_not_public": ErrorKind(403, "Only a public game can be watched without a seat's link"),
    "invalid_link": ErrorKind(403, "The link is not valid"),
    "link_expired": ErrorKind(410, "The link has expired"),
    "invitation_answered": ErrorKind(409, "The invitation was already answered"),
    "board_in_play": ErrorKind(403, "Another board of this duplicate round is still being played"),
    "invalid_cursor": ErrorKind(400, "The cursor is not one this list gave for this query"),
    "unknown_player": ErrorKind(404, "No such player"),
    "recovery_refused": ErrorKind(403, "This player id and recovery code do not match"),
    "link_used": ErrorKind(410, "The link was used already"),
    # Errors of the HTTP edge itself (no operation was reached); API Gateway's own responses
    # are mapped to the same codes by the CDK app (infra/), so local and deployed agree.
    "bad_request": ErrorKind(400, "The request could not be read"),
    "not_found": ErrorKind(404, "No such resource"),
    "method_not_allowed": ErrorKind(405, "This method is not allowed here"),
    "payload_too_large": ErrorKind(413, "The request body is too large"),
    "uri_too_long": ErrorKind(414, "The request URI is too long"),
    "headers_too_large": ErrorKind(431, "The request headers are too large"),
    "rate_limited": ErrorKind(429, "Too many requests"),
    "request_blocked": ErrorKind(403, "The request was refused by the firewall"),  # deployed: WAF (infra/)
    "internal_error": ErrorKind(500, "Internal error"),
    "service_unavailable": ErrorKind(503, "The service is unavailable for a moment; retry after Retry-After seconds"),
    "gateway_timeout": ErrorKind(504, "The server took too long to answer"),
    # A game begun with rules this server does not have now (a Khan & General card set whose file is gone
    # or was changed in place): retrying cannot help (no Retry-After); it waits for the server's operator.
    "game_unavailable": ErrorKind(503, "The game's rules are not on the server now; it waits for the operator"),
}


# The code of an error answered by a layer below any operation (Chalice, the local HTTP server),
# which knows only its status.
EDGE_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large",
              414: "uri_too_long", 415: "unsupported_media_type", 429: "rate_limited", 431: "headers_too_large"}


class ServiceError(Exception):
    """A request the service refuses. ``extra`` fields go into the problem body."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        if code not in ERRORS:
            raise ValueError(f"unknown error code {code}")
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    @property
    def status(self) -> int:
        return ERRORS[self.code].status


class Retryable(ServiceError):
    """A refusal that lifts after ``retry_after`` seconds: the HTTP adapter says so in ``Retry-After``."""

    def __init__(self, code: str, detail: str, retry_after: int, **extra: Any) -> None:
        super().__init__(code, detail, **extra)
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


# The schema's problems a player meets, in words gettext translates (pydantic says them in English:
# English keeps pydantic's words; another problem reads in pydantic's English in every language).
PROBLEMS = {
    "missing": N_("a value is required"),
    "extra_forbidden": N_("this field is not allowed here"),
    "string_pattern_mismatch": N_("this is not written as expected"),
    "literal_error": N_("the value should be {expected}"),
    "union_tag_invalid": N_("{tag} is not one of {expected_tags}"),
    "string_too_long": N_("at most {max_length} characters"),
    "string_too_short": N_("at least {min_length} characters"),
    "int_type": N_("the value should be a whole number"),
    "int_parsing": N_("the value should be a whole number"),
    "bool_type": N_("the value should be true or false"),
    "list_type": N_("the value should be a list"),
    "greater_than_equal": N_("the value should be at least {ge}"),
    "less_than_equal": N_("the value should be at most {le}"),
}


def _problem(problem: dict) -> str:
    context = problem.get("ctx") or {}
    if problem["type"] == "value_error" and context.get("error") is not None:
        error = context["error"]  # a validator's own words, without pydantic's "Value error, "
        return i18n.say(error.args[0]) if error.args and hasattr(error.args[0], "template") else str(error)
    if hasattr(context.get("reason"), "template"):  # a custom error's reason in Words (games.base.Words)
        return i18n.say(context["reason"])
    template = PROBLEMS.get(problem["type"])
    if template is None or i18n.language() == i18n.DEFAULT:
        return problem["msg"]
    words = {k: str(v) for k, v in (problem.get("ctx") or {}).items()}
    for key in ("expected", "expected_tags"):  # pydantic's "'troop' or 'tactics'": a choice in the language
        if key in words and (choices := re.findall(r"'[^']*'", words[key])):
            words[key] = i18n.either(choices)
    if "tag" in words:
        words["tag"] = repr(words["tag"])
    try:
        return i18n._(template).format(**words)
    except (KeyError, IndexError):
        return problem["msg"]


def describe_validation(error: ValidationError) -> str:
    """The first few validation problems, each with where it is: ``steps.0.card: ...``, in the
    language spoken."""
    parts = []
    for problem in error.errors()[:3]:
        where = ".".join(str(p) for p in problem["loc"]) or "body"
        parts.append(i18n._("{where}: {problem}").format(where=where, problem=_problem(problem)))
    return i18n.clauses(parts)


def is_card_error(error: ValidationError) -> bool:
    """Did validation fail on a card's notation (``7Z``, ``07R``, ``Light Cavalry``)?"""
    return any(
        problem["type"] == "string_pattern_mismatch" and {"card", "cards", "unit"} & set(map(str, problem["loc"]))
        for problem in error.errors()
    )
