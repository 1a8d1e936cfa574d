"""Shared fixtures: the store in memory (the unit tests), on moto or on DynamoDB Local (the real engine), the app
through chalice.test.Client, and a live server for tests that need real HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from dataclasses import dataclass

import pytest

# Never reach a real AWS account from the tests.
for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                    "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1"}.items():
    os.environ[name] = value
os.environ.pop("AWS_PROFILE", None)
# The suite makes thousands of requests with a few keys from one address, fast: its rate limits are
# far above the documented ones (chalicelib/config.py); tests/api/test_rate_limits.py lowers them.
os.environ.setdefault("RATE_LIMIT_PER_KEY", "1000000/1")
os.environ.setdefault("RATE_LIMIT_SIGNUPS", "1000000/1")
for name in ("RATE_LIMIT_RECOVERY", "RATE_LIMIT_RECOVERY_EMAIL", "RATE_LIMIT_RECOVERY_CODE"):
    os.environ.setdefault(name, "1000000/1")
# Long-polls wait at most 1 s in the tests (20 s deployed), so that fuzzers asking for long waits stay
# fast; the tests of waiting itself set their own maximum and a fake sleep.
os.environ.setdefault("LONG_POLL_MAX_SECONDS", "1")

import boto3  # noqa: E402
from botocore.credentials import Credentials  # noqa: E402
from chalice.test import Client  # noqa: E402
from moto import mock_aws  # noqa: E402
from moto.core.config import default_user_config  # noqa: E402

import app as app_module  # noqa: E402
from chalicelib.notify.dispatcher import Outlets  # noqa: E402
from chalicelib.presenting.links import Links  # noqa: E402
from chalicelib.config import build_services  # noqa: E402
from chalicelib.store.dynamo.wire import LeanDynamoDB  # noqa: E402
from chalicelib.store.dynamodb import DynamoStore  # noqa: E402
from chalicelib.store.memory.store import MemoryStore  # noqa: E402
from chalicelib.store.schema import create_table_if_missing  # noqa: E402
from tests.outbox import Projector  # noqa: E402
from devtools.dynamodb_local import ROOT, DynamoDBLocal, free_port, server_environment, wait_for_port  # noqa: E402


@pytest.fixture(autouse=True)
def answers_match_openapi(request, monkeypatch):
    """Every webhook delivery and every API answer a test makes is one openapi.yaml documents whole:
    its type's or its status's schema, no field the document does not name, a problem's code among the
    operation's (tests/openapi_contract.py). A test that made another fails at its teardown, naming
    it; a test that fakes a fault no client can be told of is marked ``undocumented_answer``."""
    from chalicelib.notify.dispatcher import Dispatcher
    from tests.openapi_contract import answer_problems, webhook_problems

    found: list[str] = []
    attempt, ask = Dispatcher.attempt, ApiClient.request

    def checked_attempt(self, delivery, endpoint, *, first=False):
        if endpoint is not None and not endpoint.disabled:
            found.extend(webhook_problems(delivery.body))
        return attempt(self, delivery, endpoint, first=first)

    def checked_request(self, method, path, body=None, key=None, headers=None, raw=None):
        reply = ask(self, method, path, body, key=key, headers=headers, raw=raw)
        found.extend(answer_problems(method, path, reply.status, reply.headers.get("content-type", ""), reply.body))
        return reply

    monkeypatch.setattr(Dispatcher, "attempt", checked_attempt)
    if request.node.get_closest_marker("undocumented_answer") is None:
        monkeypatch.setattr(ApiClient, "request", checked_request)
    yield
    assert not found, "answers that openapi.yaml does not document:\n" + "\n".join(dict.fromkeys(found))


@pytest.fixture(scope="session")
def dynamodb_local():
    """One in-memory DynamoDB Local for the session, on a free port; each test gets a table. Under
    pytest-xdist (``make test``: -n 2) each worker is a session of its own, so each has its own server
    on its own port (DynamoDBLocal.start takes another port if two workers picked the same)."""
    with DynamoDBLocal() as ddb:
        yield ddb


def fresh_table(client) -> str:
    name = f"test-{uuid.uuid4().hex[:12]}"
    create_table_if_missing(client, name)
    return name


# moto, keeping boto3's default session from one test to the next: by default mock_aws() starts each
# test on a new one, which reads botocore's endpoint and service files again for every client (the
# store's, its stream's), about 0.2 s a test over some 800 moto tests. Each test still gets an empty
# moto (its data are reset at every start) and its own table.
KEEP_BOTO3_SESSION = {"core": {**default_user_config["core"], "reset_boto3_session": False}}


# Which store each test runs on (docs/storage.md): the unit tests on the in-memory store (fast); the
# tests of the store's contract (marked ``contract``) on it, moto and DynamoDB Local alike; the tests that
# reach DynamoDB itself (marked ``dynamodb``) on moto and DynamoDB Local; races (``concurrent``) on
# DynamoDB Local only; whole games (``long_play``) on memory and on DynamoDB Local.
MEMORY = "memory"
MOTO = "moto"
DYNAMODB_LOCAL = pytest.param("dynamodb_local", marks=pytest.mark.integration)


def store_kinds(metafunc) -> list:
    """The stores a test that uses ``store`` runs on."""
    if "concurrent" in metafunc.fixturenames:
        return [DYNAMODB_LOCAL]
    if metafunc.definition.get_closest_marker("contract"):
        return [MEMORY, MOTO, DYNAMODB_LOCAL]
    if metafunc.definition.get_closest_marker("dynamodb"):
        return [MOTO, DYNAMODB_LOCAL]
    if "long_play" in metafunc.fixturenames:
        return [MEMORY, DYNAMODB_LOCAL]
    return [MEMORY]


def pytest_generate_tests(metafunc):
    chosen = any(m.args and "store" in [name.strip() for name in str(m.args[0]).split(",")]
                 for m in metafunc.definition.iter_markers("parametrize"))
    if "store" in metafunc.fixturenames and not chosen:
        metafunc.parametrize("store", store_kinds(metafunc), indirect=True)


# make test's workers take whole files (--dist loadfile) in the order collected (pyproject.toml's
# --no-loadscope-reorder: pytest-xdist would otherwise hand out the files with most tests first and
# leave the long single-test files, schemathesis's, for the end, one worker finishing alone).
# The longest files go first, longest to shortest, then the rest of tests/integration and tests/infra
# (live servers, subprocesses, synths), then everything else as collected: the two workers end
# within a short file of each other. Seconds from a --durations run (28 November, loaded 2-core
# machine, before issue 35's last cuts: schemathesis's coverage phase, the CLI in-process, OpenAPI
# Generator's JVM); a file that takes more than some 20 s belongs here (docs/architecture.md, "make
# test's 10 minutes").
LONGEST_FIRST = (
    "tests/integration/test_schemathesis.py",  # 82 s (156 s before its coverage phase sent valid cases only)
    # make synth's stack (tests/infra/conftest.py), early: test_launch, test_mail_events_stack and test_nag
    # read it, and a worker that reached one of them first would wait on its lock with a core idle
    "tests/infra/test_stack.py",  # 45 s with the synth
    "tests/integration/test_board_browser.py",  # 99 s
    "tests/integration/test_serve.py",  # 46 s
    "tests/mailplay/test_hidden_information.py",  # 67 s before its scanner's patterns began with their text
    "tests/integration/test_generated_clients.py",  # 53 s
    "tests/integration/test_longpoll_live.py",  # 40 s
    "tests/mailplay/test_email_count.py",  # 35 s (127 s with its six whole games all on DynamoDB Local too)
    "tests/integration/test_cli.py",  # 21 s (119 s before the command ran in-process)
    "tests/infra/test_launch.py",  # 29 s when it built its own stack
    "tests/api/test_contract.py",  # 26 s
    "tests/infra/test_mail_events_stack.py",  # 40 s when it built two stacks, one now
    "tests/infra/test_nag.py",  # 12 s without the synth
    "tests/integration/test_accessibility.py",  # 23 s
    "tests/api/test_game_records.py",  # 23 s
)


def pytest_collection_modifyitems(items):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return  # one process: the order does not matter
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}

    def key(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        if path in rank:
            return rank[path]
        return len(rank) + (0 if path.startswith(("tests/integration/", "tests/infra/")) else 1)

    items.sort(key=key)  # stable: a file's tests keep their order


@pytest.fixture
def store(request):
    if request.param == MEMORY:
        yield MemoryStore()
    elif request.param == MOTO:
        with mock_aws(config=KEEP_BOTO3_SESSION):
            client = boto3.client("dynamodb", region_name="us-east-1")
            yield DynamoStore(client, fresh_table(client))
    else:
        # The deployed store's own client: its item calls sent lean (store/dynamo/wire.py, config.store).
        client = request.getfixturevalue("dynamodb_local").client()
        yield DynamoStore(LeanDynamoDB(client, Credentials("local", "local")), fresh_table(client))


@pytest.fixture
def concurrent(request):
    """Races need the real engine: moto's conditional writes are not atomic across threads, and the
    in-memory store serialises every call."""
    if request.node.callspec.params.get("store") != "dynamodb_local":
        pytest.skip("races run on DynamoDB Local (the integration tier)")


@pytest.fixture
def long_play(request):
    """A whole game writes hundreds of items; moto copies the whole table in every transaction,
    so a game played to its end runs on the in-memory store and on DynamoDB Local, never on moto."""
    if request.node.callspec.params.get("store") == "moto":
        pytest.skip("long games run on memory and DynamoDB Local")


LINKS = Links("test-link-secret", "http://testserver")


def signed_link(path: str) -> str:
    """A signed link's path up to its payload (``/v1/answers/<payload>.``): the same link signed in
    another second differs only in its timestamp and signature, so tests that build a link and look
    for the one a page holds compare this part (they were flaky when a second boundary fell between)."""
    head, _, token = path.rpartition("/")
    return f"{head}/{token.split('.')[0]}."


@pytest.fixture
def services(store):
    return build_services(store, outlets=Outlets(links=LINKS))


@dataclass
class Reply:
    status: int
    headers: dict
    body: dict

    @property
    def json(self) -> dict:
        return self.body


class ApiClient:
    """The HTTP API through chalice.test.Client, with helpers for the common calls. Given the store,
    each request is followed by what the outbox consumer does at once in AWS: game heads and the
    players' game lists follow every new version (notifications stay for ``drain_outbox``)."""

    def __init__(self, client: Client, store=None) -> None:
        self.client = client
        self.project = Projector(store) if store is not None else (lambda: None)

    def request(self, method: str, path: str, body=None, key: str | None = None, headers: dict | None = None,
                raw: str | None = None) -> Reply:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if key:
            sent["Authorization"] = f"Bearer {key}"
        payload = raw if raw is not None else (json.dumps(body) if body is not None else None)
        response = getattr(self.client.http, method.lower())(path, headers=sent, **({"body": payload} if payload is not None else {}))
        self.project()
        kind = response.headers.get("Content-Type", response.headers.get("content-type", ""))
        parsed = response.body.decode() if kind.startswith(("text/html", "text/csv", "text/plain")) else (
            json.loads(response.body) if response.body else None)
        return Reply(response.status_code, {k.lower(): v for k, v in response.headers.items()}, parsed)

    def post(self, path, body=None, **kw) -> Reply:
        return self.request("POST", path, body, **kw)

    def get(self, path, **kw) -> Reply:
        return self.request("GET", path, **kw)

    def signup(self, name: str = "Ann") -> dict:
        reply = self.post("/v1/players", {"name": name})
        assert reply.status == 201, reply.body
        return reply.body

    def new_game(self, creator: dict, seated: list[dict], *, consent: bool = True, **extra) -> dict:
        """A game the creator makes, as the creator sees it. The others seated have said beforehand
        that they accept games made for them (their ``challenges`` preference), so it starts at once,
        version 0; with ``consent=False`` they are asked as by default and the game waits."""
        if consent:
            for player in seated:
                if player["id"] != creator["id"]:
                    self.accepting(player)
        body = {"game": "battleline", "seats": [{"player_id": p["id"]} for p in seated], **extra}
        reply = self.post("/v1/games", body, key=creator["api_key"])
        assert reply.status == 201, reply.body
        return reply.body

    def accepting(self, player: dict) -> None:
        """The player accepts every game made for them from now on (preference ``challenges``)."""
        reply = self.request("PUT", "/v1/players/me/preferences", {"challenges": "accept"}, key=player["api_key"])
        assert reply.status == 200, reply.body

    def act(self, player: dict, game_id: str, version: int, *steps: dict, headers=None) -> Reply:
        return self.post(f"/v1/games/{game_id}/actions", {"expected_version": version, "steps": list(steps)},
                         key=player["api_key"], headers=headers)

    def view(self, player: dict, game_id: str) -> dict:
        reply = self.get(f"/v1/games/{game_id}", key=player["api_key"])
        assert reply.status == 200, reply.body
        return reply.body


def api_on(store, clock, monkeypatch):
    """The HTTP API on ``store`` with services on ``clock`` (a generator: a fixture yields from it)."""
    services = build_services(store, clock=clock, outlets=Outlets(links=LINKS))
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        yield ApiClient(client, store)


@pytest.fixture
def api(services, monkeypatch):
    monkeypatch.setattr(app_module.api, "services", lambda: services)
    with Client(app_module.app) as client:
        yield ApiClient(client, services.store)


# ------------------------------------------------------------------ a live server


@dataclass
class LiveServer:
    url: str
    endpoint: str
    table: str


@pytest.fixture(scope="session")
def live_server(dynamodb_local):
    """`chalice local` on a free port, against DynamoDB Local, for real-HTTP tests."""
    table = fresh_table(dynamodb_local.client())
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "devtools.local_api", "--port", str(port)],
        cwd=ROOT, env={**server_environment(dynamodb_local.endpoint, table), "PUBLIC_URL": f"http://127.0.0.1:{port}"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process=process)
        yield LiveServer(f"http://127.0.0.1:{port}", dynamodb_local.endpoint, table)
    finally:
        process.terminate()
        process.wait(timeout=10)
