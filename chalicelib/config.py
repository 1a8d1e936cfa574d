"""Settings from the environment, and the services wired to their adapters and to each other:
the composition root. :func:`build_services` wires the areas of :mod:`chalicelib.wiring` in
order; who handles which outbox message is decided there, by the notifications area, and nowhere else.

The services and their adapters are imported and built on first use, not when app.py is
imported: each Lambda function loads only what its first event needs.
"""

from __future__ import annotations

import gc
import os
import secrets
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import boto3
from botocore.config import Config

from .kernel import ids

if TYPE_CHECKING:  # pragma: no cover
    from .kernel.clock import Clock
    from .games import GameEngine
    from .mailplay.inbound import InboundMail
    from .presenting.links import Links
    from .mailplay.service import MailPlay
    from .notify.dispatcher import Dispatcher, Outlets
    from .services.boards import Boards
    from .services.mailevents import MailEvents
    from .services.bots import Bots
    from .services.clocks import Clocks
    from .services.digests import Digests
    from .services.creation import GameCreation
    from .services.games import Games
    from .services.gamerecords import GameRecords
    from .services.life import GameLife
    from .services.finished import FinishedGames
    from .services.notes import Notes
    from .services.players import Players
    from .services.recovery import Recovery
    from .services.ratings import Ratings
    from .services.blocks import Blocks
    from .services.limits import GameLimit
    from .services.lobby import Lobby
    from .services.ladders import Ladders
    from .services.vacations import Vacations
    from .services.webhooks import Webhooks
    from .store.protocol import Store
    from .services.tournaments import Tournaments
    from .http.ratelimit import Rate, RateLimits

ROOT = Path(__file__).resolve().parent.parent


def table_name() -> str:
    return os.environ.get("TABLE_NAME", "battleline")


def dynamodb_config() -> Config:
    """An unreachable or failing DynamoDB must answer 503 in seconds, well inside API Gateway's
    29 s, not after botocore's defaults (60 s timeouts): short timeouts, and 3 attempts in all
    with the standard mode's backoff (throttling and 5xx included). A DynamoDB request takes
    milliseconds; a hung one gives up after 3 x (2 + 3) s at worst, throttling after at most 3 s
    of backoff. ``DYNAMODB_READ_TIMEOUT`` (seconds) is longer under ``make serve`` and the tests,
    where DynamoDB Local on a busy machine can take seconds to answer its first requests. Parameters
    are not validated by botocore on the way out (the store builds every call; DynamoDB refuses a
    bad one itself): that was CPU on every call (issue 39)."""
    read_timeout = float(os.environ.get("DYNAMODB_READ_TIMEOUT") or 3)
    return Config(connect_timeout=2, read_timeout=read_timeout, retries={"mode": "standard", "total_max_attempts": 3},
                  parameter_validation=False)


def dynamodb_client():
    """A DynamoDB client; ``DYNAMODB_ENDPOINT`` points it at DynamoDB Local."""
    endpoint = os.environ.get("DYNAMODB_ENDPOINT") or None
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name=region, config=dynamodb_config())


@lru_cache(maxsize=1)
def store() -> "Store":
    from .store.dynamo.wire import LeanDynamoDB
    from .store.dynamodb import DynamoStore

    checkpoint = os.environ.get("STREAM_CHECKPOINT")  # the local worker's place in the table's stream
    # Built once per process (lru_cache); its item calls sent lean (store/dynamo/wire.py).
    client = dynamodb_client()  # made by boto3's default session: its credentials are the client's
    return DynamoStore(LeanDynamoDB(client, boto3.DEFAULT_SESSION.get_credentials()), table_name(),
                       stream_checkpoint=Path(checkpoint) if checkpoint else None)


def allowed_origins() -> str:
    """ALLOWED_ORIGINS: the origins of browser clients on other sites (comma-separated, or "*")."""
    return os.environ.get("ALLOWED_ORIGINS", "")


def long_poll_max_seconds() -> float:
    """LONG_POLL_MAX_SECONDS: the longest a long-poll waits (``wait`` on listEvents and on
    listGames?to_move=me); a longer ``wait`` is cut to it. 20 s deployed and under make serve (API
    Gateway gives up after 29 s); the test suite lowers it, so that fuzzers asking for long waits
    stay fast."""
    from .services.waiting import MAX_WAIT_SECONDS

    return float(os.environ.get("LONG_POLL_MAX_SECONDS") or MAX_WAIT_SECONDS)


def long_poll_gap_seconds() -> float:
    """LONG_POLL_GAP_SECONDS: the longest pause between two looks of a long-poll (1 s deployed and
    under make serve); the live test of two bots playing a whole game by long-polls lowers it, so
    that each turn is seen sooner."""
    from .services.waiting import LONGEST_GAP

    return float(os.environ.get("LONG_POLL_GAP_SECONDS") or LONGEST_GAP)


def public_url() -> str:
    """Where players' browsers reach this API (links in emails)."""
    return os.environ.get("PUBLIC_URL") or f"http://127.0.0.1:{os.environ.get('PORT', '8000')}"


WEBHOOKS_STAGE = "WEBHOOKS"  # the staging label of the secret's version webhook secrets are derived from


def link_keys() -> list[str]:
    """The keys email links and reply addresses are signed with, oldest first: the last (the
    current one) signs, every one reads. LINK_SECRET is the key (make serve keeps one with its
    data), LINK_SECRET_PREVIOUS the one before a rotation; in AWS they are the Secrets Manager
    secret's (LINK_SECRET_ARN) AWSCURRENT and AWSPREVIOUS versions (none before a first rotation).
    Without either, a key is drawn for this process only: links in emails it sends stop working
    when it restarts. docs/deploy.md, "Rotating the link secret"."""
    if os.environ.get("LINK_SECRET"):
        return [k for k in (os.environ.get("LINK_SECRET_PREVIOUS"), os.environ["LINK_SECRET"]) if k]
    if os.environ.get("LINK_SECRET_ARN"):
        arn = os.environ["LINK_SECRET_ARN"]
        previous = _stored_secret(arn, "AWSPREVIOUS")
        return [k for k in (previous, _stored_secret(arn, "AWSCURRENT")) if k]
    return [_process_secret()]


def webhook_key() -> str:
    """The key webhook signing secrets are derived from, which a rotation of the link keys never
    changes: LINK_SECRET_WEBHOOKS (by default LINK_SECRET); in AWS the secret's version labelled
    ``WEBHOOKS`` (the rotation's first step puts that label on the key in use before it), or before
    any label the current version, as before rotations existed."""
    if os.environ.get("LINK_SECRET"):
        return os.environ.get("LINK_SECRET_WEBHOOKS") or os.environ["LINK_SECRET"]
    if os.environ.get("LINK_SECRET_ARN"):
        arn = os.environ["LINK_SECRET_ARN"]
        return _stored_secret(arn, WEBHOOKS_STAGE) or _stored_secret(arn, "AWSCURRENT") or ""
    return _process_secret()


def _stored_secret(arn: str, stage: str) -> str | None:
    """The secret's version labelled ``stage``, or None if no version has that label. Not cached:
    :class:`~chalicelib.presenting.links.Links` keeps what it read, and reads again after a rotation."""
    client = _secrets_client()
    try:
        return client.get_secret_value(SecretId=arn, VersionStage=stage)["SecretString"]
    except client.exceptions.ResourceNotFoundException:
        return None


@lru_cache(maxsize=1)
def _secrets_client():
    """One Secrets Manager client for the process: a cold start reads up to four versions of the
    link secret (the link keys, the webhook key), and a boto3 client costs far more to make than a call."""
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    return boto3.client("secretsmanager", region_name=region)


@lru_cache(maxsize=1)
def _process_secret() -> str:
    return secrets.token_urlsafe(32)


@lru_cache(maxsize=1)
def links() -> "Links":
    from .presenting.links import Links

    return Links(link_keys, public_url(), os.environ.get("MAIL_DOMAIN", "battleline.localhost"), webhook_key=webhook_key)


@lru_cache(maxsize=1)
def mailer():
    from .notify.mail import mailer_from_environment

    return mailer_from_environment(ROOT)


def invitations_per_day() -> int:
    """INVITATIONS_PER_DAY: the invitations by email a player may send in a UTC day (the CDK context
    setting ``invitations_per_day``; services/limits.py, docs/deploy.md)."""
    from .services.limits import INVITATIONS_PER_DAY

    return int(os.environ.get("INVITATIONS_PER_DAY") or INVITATIONS_PER_DAY)


RATE_LIMIT_PER_KEY = "600/60"  # requests per API key: a burst of 600, then 10 a second
RATE_LIMIT_SIGNUPS = "20/3600"  # createPlayer per client address: a burst of 20, then one every 3 minutes
RATE_LIMIT_RECOVERY = "10/3600"  # recoverAccount per client address: a burst of 10, then one every 6 minutes
RATE_LIMIT_RECOVERY_EMAIL = "3/3600"  # recovery emails per address asked for (over it: the same answer, no email)
RATE_LIMIT_RECOVERY_CODE = "5/3600"  # recovery code tries per player id


def rate_limits() -> dict[str, "Rate"]:
    """The rates (``<requests>/<seconds>``) from RATE_LIMIT_PER_KEY and RATE_LIMIT_SIGNUPS (docs/clients.md)."""
    from .http.ratelimit import Rate

    return {"key": Rate.parse(os.environ.get("RATE_LIMIT_PER_KEY") or RATE_LIMIT_PER_KEY),
            "signup": Rate.parse(os.environ.get("RATE_LIMIT_SIGNUPS") or RATE_LIMIT_SIGNUPS),
            # account recovery (services/recovery.py): per client address, per address asked for, per player
            "recover": Rate.parse(os.environ.get("RATE_LIMIT_RECOVERY") or RATE_LIMIT_RECOVERY),
            "recover_address": Rate.parse(os.environ.get("RATE_LIMIT_RECOVERY_EMAIL") or RATE_LIMIT_RECOVERY_EMAIL),
            "recover_code": Rate.parse(os.environ.get("RATE_LIMIT_RECOVERY_CODE") or RATE_LIMIT_RECOVERY_CODE)}


@dataclass(frozen=True)
class Services:
    """Every service, built by :func:`build_services` area by area (:mod:`chalicelib.wiring`);
    routes reach them as ``call.services.<name>``. ``store`` and ``dispatcher`` are the adapters
    they share."""

    store: "Store"
    dispatcher: "Dispatcher"
    players: "Players"
    moves: "GameLife"  # a game's life (load, clock, apply, save): the name the tests know it by
    creation: "GameCreation"  # making a game (createGame)
    games: "Games"  # reading games and events (long-polls too), moves, a seat's view
    clocks: "Clocks"
    vacations: "Vacations"
    lobby: "Lobby"
    boards: "Boards"
    notes: "Notes"
    blocks: "Blocks"
    game_limit: "GameLimit"
    records: "GameRecords"
    bots: "Bots"
    ratings: "Ratings"
    finished: "FinishedGames"
    webhooks: "Webhooks"
    tournaments: "Tournaments"
    ladders: "Ladders"
    digests: "Digests"
    mailplay: "MailPlay"
    limits: "RateLimits"
    recovery: "Recovery"
    inbound: "InboundMail | None"  # replies read as commands (None: no links, so no email at all)


def build_services(store: "Store", clock: "Clock | None" = None, outlets: "Outlets | None" = None,
                   new_seed: Callable[[], int] = ids.new_seed, vacation_days: int | None = None,
                   engines: "dict[str, GameEngine] | None" = None, sleep: Callable[[float], None] | None = None,
                   long_poll_max: float | None = None, rates: "dict[str, Rate] | None" = None,
                   invitation_cap: int | None = None) -> Services:
    """Every service on one store and clock, wired area by area (:mod:`chalicelib.wiring`: each
    area builds its own services from those of the areas before it), the dispatcher built whole
    by the notifications area on ``outlets`` (what it delivers through: its sender, mailer and
    links; a test's own). Email links are the outlets' (none: this server sends no email);
    ``vacation_days`` a player's per year (``vacation.DAYS_PER_YEAR`` unless given);
    long-polls pause with ``sleep`` (``time.sleep`` unless given: a test's moves its fake clock on)
    and wait at most ``long_poll_max`` seconds (:func:`long_poll_max_seconds` unless given);
    ``rates`` the rate limits (:func:`rate_limits` unless given); ``invitation_cap`` the invitations
    by email a player may send a day (:func:`invitations_per_day` unless given)."""
    import time

    from .clocks import vacation
    from . import wiring
    from .kernel.clock import SystemClock
    from .games import ENGINES
    from .notify.dispatcher import Outlets
    from .services.waiting import Waiter

    clock = clock or SystemClock()
    outlets = outlets or Outlets()
    links = outlets.links
    waiter = Waiter(clock, sleep or time.sleep, long_poll_max_seconds() if long_poll_max is None else long_poll_max,
                    long_poll_gap_seconds())
    core = wiring.game_life(store, clock, engines=engines or ENGINES, new_seed=new_seed, waiter=waiter)
    people = wiring.players_area(store, clock, core, links=links, rates=rate_limits() if rates is None else rates,
                                 vacation_days=vacation.DAYS_PER_YEAR if vacation_days is None else vacation_days,
                                 invitation_cap=invitations_per_day() if invitation_cap is None else invitation_cap)
    played = wiring.games_area(store, clock, core, people, links=links)
    lobby = wiring.lobby_area(store, core, people, played)
    competitions = wiring.competitions_area(store, clock, core, people, played, lobby,
                                            base_url=links.base_url if links is not None else public_url())
    told = wiring.notifications_area(store, clock, core, played, competitions, outlets=outlets)
    mail = wiring.mail_area(store, clock, core, people, played, lobby, outlets=outlets)
    return Services(store=store, dispatcher=told.dispatcher, players=people.players, moves=core.life,
                    creation=played.creation, games=played.games, clocks=core.clocks, vacations=people.vacations, lobby=lobby,
                    boards=played.boards, notes=played.notes, blocks=people.blocks, game_limit=people.game_limit,
                    records=played.records, bots=played.bots, ratings=people.ratings, finished=competitions.finished,
                    webhooks=told.webhooks, tournaments=competitions.tournaments, ladders=competitions.ladders,
                    digests=told.digests, mailplay=mail.mailplay,
                    limits=people.limits, recovery=people.recovery, inbound=mail.inbound)


@lru_cache(maxsize=1)
def services() -> Services:
    """The process's services, built by its first request or event. Building them imports every service
    and makes only what the process keeps: the cyclic garbage collector is paused meanwhile, and what they
    made is frozen afterwards (gc.freeze), as app.py does for its import (issue 39 item 5)."""
    from .notify.dispatcher import Outlets

    collecting = gc.isenabled()
    gc.disable()
    try:
        return build_services(store(), outlets=Outlets(mailer=mailer(), links=links()),
                              vacation_days=int(os.environ.get("VACATION_DAYS", "14")))
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def inbound() -> "InboundMail":
    return services().inbound


def mail_events() -> "MailEvents":
    """SES's bounce and complaint events (the mail_events function)."""
    from .kernel.clock import SystemClock
    from .services.mailevents import MailEvents

    return MailEvents(store(), SystemClock())


def dispatcher() -> "Dispatcher":
    return services().dispatcher
