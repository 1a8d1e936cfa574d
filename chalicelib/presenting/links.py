"""Signed links in emails: one per legal step (bound to the seat and the game version, and
expiring), the answers of a player asked to play (accept or decline, bound to the game, the seat
and the player), invitations, boards and the one-click unsubscribe link. Signed with
itsdangerous, each kind with its own salt (a token of one kind is never read as another).

Two keys, for rotation (docs/deploy.md, "Rotating the link secret"): new links and reply addresses
are signed with the current key; those signed with the previous one are still read, until they
expire or a second rotation drops that key. Webhook signing secrets are derived from a key of
their own that rotation never changes (:meth:`Links.key`)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time
from dataclasses import dataclass
from typing import Callable, Sequence
from urllib.parse import quote

from ..kernel.ids import hash_email
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

REREAD_SECONDS = 60  # a link no key reads makes the keys be read again (a rotation?), at most this often
STEP_LINK_MAX_AGE = 7 * 24 * 3600  # a week: correspondence moves are slow, stale versions are refused anyway


def standings_page_path(tournament_id: str) -> str:
    """A tournament's standings page (getStandingsPage): public, unsigned, the same for everyone."""
    return f"/v1/tournaments/{quote(tournament_id)}/standings/page"


def standings_csv_path(tournament_id: str) -> str:
    """A tournament's standings as a CSV file (getStandings?format=csv): public, unsigned."""
    return f"/v1/tournaments/{quote(tournament_id)}/standings?format=csv"


def tournament_trf_path(tournament_id: str) -> str:
    """A tournament as a TRF-16 file (getTournament?format=trf): public, unsigned."""
    return f"/v1/tournaments/{quote(tournament_id)}?format=trf"


ADDRESS = "email:"  # an unsubscribe token for an address (its hash follows), not a player id

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
    key_generation: int | None = None  # shown on a board link got with an API key: ends with the player's keys
BOARD_LINK_MAX_AGE = 90 * 24 * 3600  # a correspondence game lasts weeks


@dataclass(frozen=True)
class BoardLink:
    """The seat a board link plays as; a link got with an API key (``getBoardLink``) names its
    player and their ``key_generation`` then (it ends when their keys do), an email's names
    neither (it is the mailbox's)."""

    seat: int
    player_id: str | None = None
    key_generation: int | None = None
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


Keys = str | Sequence[str]  # one key, or the keys in force oldest first (the last signs)


class Links:
    """``secret`` is the key (or the keys in force, oldest first: the last one signs, every one
    reads), or a function that gives them: then they are asked for when the first link is made or
    read (in AWS a Secrets Manager read, which functions that make no links never do), and again
    when a link none of them reads comes (at most every ``REREAD_SECONDS``: a warm function learns of
    a rotation from the first link signed with the new key). ``webhook_key`` (or a function that
    gives it) derives webhook signing secrets; by default the current key."""

    def __init__(self, secret: Keys | Callable[[], Keys], base_url: str,
                 mail_domain: str = "battleline.localhost", *,
                 webhook_key: str | Callable[[], str] | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url.rstrip("/")
        self.mail_domain = mail_domain
        self._source = secret
        self._webhook_source = webhook_key
        self._monotonic = monotonic
        self._keys: list[str] | None = None
        self._read_at = 0.0
        self._serializers: dict[str, URLSafeTimedSerializer] = {}

    def key(self) -> str:
        """The key webhook signing secrets are derived from: never changed by a rotation of the
        link keys (a webhook's secret must not change under its owner)."""
        source = self._webhook_source
        if source is None:
            return self.keys()[-1]
        return source() if callable(source) else source

    def keys(self) -> list[str]:
        """The keys in force, oldest first: the last one signs."""
        if self._keys is None:
            found = self._source() if callable(self._source) else self._source
            keys = [found] if isinstance(found, str) else [k for k in found if k]
            if not keys:
                raise ValueError("no link key")
            self._keys, self._read_at, self._serializers = keys, self._monotonic(), {}
        return self._keys

    def _reread(self) -> bool:
        """Read the keys again if they may have changed (a rotation since they were read): only
        when they come from a function, at most every ``REREAD_SECONDS``. True if they changed."""
        if not callable(self._source) or self._keys is None or self._monotonic() - self._read_at < REREAD_SECONDS:
            return False
        before, self._keys = self._keys, None
        return self.keys() != before

    def _serializer(self, salt: str) -> URLSafeTimedSerializer:
        found = self._serializers.get(salt)
        if found is None:
            found = self._serializers[salt] = URLSafeTimedSerializer(self.keys(), salt=salt)
        return found

    @property
    def _steps(self) -> URLSafeTimedSerializer:
        return self._serializer("battleline-step-link")

    @property
    def _unsubscribe(self) -> URLSafeTimedSerializer:
        return self._serializer("battleline-unsubscribe")

    @property
    def _invitations(self) -> URLSafeTimedSerializer:
        return self._serializer("battleline-invitation")

    @property
    def _answers(self) -> URLSafeTimedSerializer:
        return self._serializer("battleline-answer")

    @property
    def _boards(self) -> URLSafeTimedSerializer:
        return self._serializer("battleline-board")

    @property
    def _recoveries(self) -> URLSafeTimedSerializer:
        return self._serializer("battleline-recovery")

    def step_url(self, game_id: str, seat: int, version: int, step: dict) -> str:
        token = self._steps.dumps({"g": game_id, "s": seat, "v": version, "st": step})
        return f"{self.base_url}/v1/links/{quote(token)}"

    def _read(self, serializer: URLSafeTimedSerializer, token: str, max_age: int | None, expired: str):
        """The token's data, read with any key in force (and, if none reads it, with the keys read
        again: a link signed after a rotation this function has not heard of yet)."""
        try:
            return serializer.loads(token, max_age=max_age)
        except SignatureExpired:
            raise LinkError("link_expired", expired) from None
        except BadSignature:
            if self._reread():
                salt = serializer.salt.decode() if isinstance(serializer.salt, bytes) else serializer.salt
                return self._read(self._serializer(salt), token, max_age, expired)
            raise LinkError("invalid_link", "this link is not valid") from None

    def read_step(self, token: str, max_age: int = STEP_LINK_MAX_AGE) -> StepLink:
        data = self._read(self._steps, token, max_age, "this link has expired; open the game for its current moves")
        return StepLink(data["g"], data["s"], data["v"], data["st"])

    def board_url(self, game_id: str, seat: int | None, *, player_id: str | None = None,
                  key_generation: int | None = None) -> str:
        """The game's board in a browser: a seat's (it plays as that seat), or a spectator's (None).
        With ``key_generation`` (a link got with an API key), bound to ``player_id``'s keys of then."""
        url = f"{self.base_url}/v1/games/{game_id}/board"
        if seat is None:
            return url
        data = {'g': game_id, 's': seat}
        if key_generation is not None:
            data.update(p=player_id, k=key_generation)
        return f"{url}?seat={quote(self._boards.dumps(data))}"

    def read_board(self, token: str, game_id: str) -> int:
        """The seat a board link plays as (LinkError when it is not this game's, or has expired)."""
        return self.read_board_link(token, game_id).seat

    def read_board_link(self, token: str, game_id: str) -> BoardLink:
        """What a board link carries (LinkError when it is not this game's, or has expired)."""
        data = self._read(self._boards, token, BOARD_LINK_MAX_AGE, "this board link has expired; ask for a new one")
        if data.get("g") != game_id:
            raise LinkError("invalid_link", "this board link is for another game")
        return BoardLink(data["s"], data.get("p"), data.get("k"))

    def invitation_url(self, game_id: str, seat: int, email: str) -> str:
        token = self._invitations.dumps({"g": game_id, "s": seat, "e": email})
        return f"{self.base_url}/v1/invitations/{quote(token)}"

    def read_invitation(self, token: str) -> Invitation:
        data = self._read(self._invitations, token, INVITATION_MAX_AGE, "this invitation has expired")
        return Invitation(data["g"], data["s"], data["e"])

    def answer_url(self, game_id: str, seat: int, player_id: str, answer: str, *,
                   key_generation: int | None = None) -> str:
        """The page where the player asked to play seat ``seat`` accepts or declines (its POST acts).
        With ``key_generation`` (shown on a board link got with an API key), it acts only while the
        player's keys are still those of then, as that board link."""
        data = {"g": game_id, "s": seat, "p": player_id, "a": answer}
        if key_generation is not None:
            data["k"] = key_generation
        token = self._answers.dumps(data)
        return f"{self.base_url}/v1/answers/{quote(token)}"

    def read_answer(self, token: str) -> Answer:
        data = self._read(self._answers, token, ANSWER_MAX_AGE,
                          "this link has expired; answer from the game's board or by API")
        if data.get("a") not in ANSWERS:
            raise LinkError("invalid_link", "this link is not valid")
        return Answer(data["g"], data["s"], data["p"], data["a"], data.get("k"))

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

    def unsubscribe_address_url(self, email: str) -> str:
        """One-click unsubscribe for an address with no player (an invitation's): its token holds the
        address's hash (``email:<hash>``, never the address); following it stops mail to the address."""
        return f"{self.base_url}/v1/unsubscribe/{quote(self._unsubscribe.dumps(ADDRESS + hash_email(email)))}"

    def read_unsubscribe(self, token: str) -> str:
        return self._read(self._unsubscribe, token, None, "")

    # ---------------------------------------------------------------- reply addresses

    @staticmethod
    def _mac(key: str, text: str) -> str:
        digest = hmac.new(key.encode(), f"reply:{text}".encode(), hashlib.sha256).digest()
        return base64.b32encode(digest).decode().lower()[:16]

    def _macs_match(self, mac: str, text: str) -> bool:
        return any(hmac.compare_digest(mac, self._mac(key, text)) for key in self.keys())

    def reply_address(self, game_id: str, seat: int, version: int) -> str:
        """play+<game>.<seat>.<version>.<mac>@domain: a reply to it plays as that seat, at that version.
        Short enough for an address's local part (64 characters)."""
        text = f"{game_id}.{seat}.{version}"
        return f"play+{text}.{self._mac(self.keys()[-1], text)}@{self.mail_domain}"

    def read_reply_address(self, address: str) -> ReplyTo:
        local = address.split("@", 1)[0].lower()
        match = re.fullmatch(r"play\+(g_[0-9a-f]{1,32})\.([1-3])\.(\d{1,9})\.([a-z2-7]{16})", local)
        if match is None:
            raise LinkError("invalid_link", f"{address} is not a game's reply address")
        game_id, seat, version, mac = match.groups()
        text = f"{game_id}.{seat}.{version}"
        if not self._macs_match(mac, text) and not (self._reread() and self._macs_match(mac, text)):
            raise LinkError("invalid_link", f"{address} is not a reply address this server made")
        return ReplyTo(game_id, int(seat), int(version))


def bare_address(links: "Links") -> str:
    """The mailbox every reply address is a sub-address of (``play+…@``): a message to it alone is
    answered with how to play; invitations to an address with no player reply to it."""
    return f"play@{links.mail_domain}"
