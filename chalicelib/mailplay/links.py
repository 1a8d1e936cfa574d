"""Signed links in emails: one per legal step (bound to the seat and the game version, and
expiring), the answers of a player asked to play (accept or decline, bound to the game, the seat
and the player), invitations, boards and the one-click unsubscribe link. Signed with
itsdangerous, each kind with its own salt (a token of one kind is never read as another)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Callable
from urllib.parse import quote

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

STEP_LINK_MAX_AGE = 7 * 24 * 3600  # a week: correspondence moves are slow, stale versions are refused anyway


class LinkError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class StepLink:
    game_id: str
    seat: int
    version: int
    step: dict


@dataclass(frozen=True)
class Invitation:
    game_id: str
    seat: int
    email: str


INVITATION_MAX_AGE = 30 * 24 * 3600
ANSWER_MAX_AGE = 30 * 24 * 3600  # as an invitation's: a game nobody answered for a month is best made again
ANSWERS = ("accept", "decline")


@dataclass(frozen=True)
class Answer:
    """A player's answer to a game they were asked to play, as its link carries it."""

    game_id: str
    seat: int
    player_id: str
    answer: str  # accept | decline
BOARD_LINK_MAX_AGE = 90 * 24 * 3600  # a correspondence game lasts weeks
RECOVERY_LINK_MAX_AGE = 30 * 60  # account recovery: 30 minutes, and one use (services/recovery.py)


@dataclass(frozen=True)
class RecoveryLink:
    request_id: str
    player_id: str


@dataclass(frozen=True)
class ReplyTo:
    game_id: str
    seat: int
    version: int


class Links:
    """``secret`` is the key, or a function that gives it: then it is asked for when the first link
    is made or read (in AWS a Secrets Manager read, which functions that make no links never do)."""

    def __init__(self, secret: str | Callable[[], str], base_url: str,
                 mail_domain: str = "battleline.localhost") -> None:
        self.base_url = base_url.rstrip("/")
        self.mail_domain = mail_domain
        self._source = secret

    def key(self) -> str:
        """The server key (asked for once); webhook signing secrets are derived from it too."""
        return self._key

    @cached_property
    def _key(self) -> str:
        return self._source() if callable(self._source) else self._source

    @cached_property
    def _secret(self) -> bytes:
        return self._key.encode()

    @cached_property
    def _steps(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self._key, salt="battleline-step-link")

    @cached_property
    def _unsubscribe(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self._key, salt="battleline-unsubscribe")

    @cached_property
    def _invitations(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self._key, salt="battleline-invitation")

    @cached_property
    def _answers(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self._key, salt="battleline-answer")

    @cached_property
    def _boards(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self._key, salt="battleline-board")

    @cached_property
    def _recoveries(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self._key, salt="battleline-recovery")

    def step_url(self, game_id: str, seat: int, version: int, step: dict) -> str:
        token = self._steps.dumps({"g": game_id, "s": seat, "v": version, "st": step})
        return f"{self.base_url}/v1/links/{quote(token)}"

    @staticmethod
    def _read(serializer: URLSafeTimedSerializer, token: str, max_age: int | None, expired: str):
        try:
            return serializer.loads(token, max_age=max_age)
        except SignatureExpired:
            raise LinkError("link_expired", expired) from None
        except BadSignature:
            raise LinkError("invalid_link", "this link is not valid") from None

    def read_step(self, token: str, max_age: int = STEP_LINK_MAX_AGE) -> StepLink:
        data = self._read(self._steps, token, max_age, "this link has expired; open the game for its current moves")
        return StepLink(data["g"], data["s"], data["v"], data["st"])

    def board_url(self, game_id: str, seat: int | None) -> str:
        """The game's board in a browser: a seat's (it plays as that seat), or a spectator's (None)."""
        url = f"{self.base_url}/v1/games/{game_id}/board"
        return f"{url}?seat={quote(self._boards.dumps({'g': game_id, 's': seat}))}" if seat is not None else url

    def read_board(self, token: str, game_id: str) -> int:
        """The seat a board link plays as (LinkError when it is not this game's, or has expired)."""
        data = self._read(self._boards, token, BOARD_LINK_MAX_AGE, "this board link has expired; ask for a new one")
        if data.get("g") != game_id:
            raise LinkError("invalid_link", "this board link is for another game")
        return data["s"]

    def invitation_url(self, game_id: str, seat: int, email: str) -> str:
        token = self._invitations.dumps({"g": game_id, "s": seat, "e": email})
        return f"{self.base_url}/v1/invitations/{quote(token)}"

    def read_invitation(self, token: str) -> Invitation:
        data = self._read(self._invitations, token, INVITATION_MAX_AGE, "this invitation has expired")
        return Invitation(data["g"], data["s"], data["e"])

    def answer_url(self, game_id: str, seat: int, player_id: str, answer: str) -> str:
        """The page where the player asked to play seat ``seat`` accepts or declines (its POST acts)."""
        token = self._answers.dumps({"g": game_id, "s": seat, "p": player_id, "a": answer})
        return f"{self.base_url}/v1/answers/{quote(token)}"

    def read_answer(self, token: str) -> Answer:
        data = self._read(self._answers, token, ANSWER_MAX_AGE,
                          "this link has expired; answer from the game's board or by API")
        if data.get("a") not in ANSWERS:
            raise LinkError("invalid_link", "this link is not valid")
        return Answer(data["g"], data["s"], data["p"], data["a"])

    def recovery_url(self, request_id: str, player_id: str) -> str:
        """The page whose button gives the player a new API key (the request's item says whether
        the link was used; nothing secret is stored: the signature is the link's secret)."""
        return f"{self.base_url}/v1/recover/{quote(self._recoveries.dumps({'r': request_id, 'p': player_id}))}"

    def read_recovery(self, token: str) -> RecoveryLink:
        data = self._read(self._recoveries, token, RECOVERY_LINK_MAX_AGE,
                          "this link has expired; ask for a new one")
        if not isinstance(data, dict) or not isinstance(data.get("r"), str) or not isinstance(data.get("p"), str):
            raise LinkError("invalid_link", "this link is not valid")
        return RecoveryLink(data["r"], data["p"])

    def unsubscribe_url(self, player_id: str) -> str:
        return f"{self.base_url}/v1/unsubscribe/{quote(self._unsubscribe.dumps(player_id))}"

    def read_unsubscribe(self, token: str) -> str:
        return self._read(self._unsubscribe, token, None, "")

    # ---------------------------------------------------------------- reply addresses

    def _mac(self, text: str) -> str:
        digest = hmac.new(self._secret, f"reply:{text}".encode(), hashlib.sha256).digest()
        return base64.b32encode(digest).decode().lower()[:16]

    def reply_address(self, game_id: str, seat: int, version: int) -> str:
        """play+<game>.<seat>.<version>.<mac>@domain: a reply to it plays as that seat, at that version.
        Short enough for an address's local part (64 characters)."""
        text = f"{game_id}.{seat}.{version}"
        return f"play+{text}.{self._mac(text)}@{self.mail_domain}"

    def read_reply_address(self, address: str) -> ReplyTo:
        local = address.split("@", 1)[0].lower()
        match = re.fullmatch(r"play\+(g_[0-9a-f]{1,32})\.([1-3])\.(\d{1,9})\.([a-z2-7]{16})", local)
        if match is None:
            raise LinkError("invalid_link", f"{address} is not a game's reply address")
        game_id, seat, version, mac = match.groups()
        if not hmac.compare_digest(mac, self._mac(f"{game_id}.{seat}.{version}")):
            raise LinkError("invalid_link", f"{address} is not a reply address this server made")
        return ReplyTo(game_id, int(seat), int(version))
