"""A third party's client, generated from the committed openapi.yaml by the two generators Python
developers reach for (openapi-python-client and OpenAPI Generator's `python`), and a TypeScript
client (openapi-typescript's types, with its default settings, and openapi-fetch), plays whole games
against the live server using only the generated methods and models (issues 14 and 37).

openapi-python-client runs from a virtual environment of its own (.venv-gen, devtools/generators.txt:
it pins an older typer than ours), made here when `make test` has not made it. The node tools are
those of package.json (node_modules, `npm ci`).

Generation must be clean: a generator warning means a part of the API a client may not get. Two
lines OpenAPI Generator 7 prints whatever the document are the exceptions: "3.1 support is still in
beta" (every 3.1 document), and "Failed to get the schema name: null" (printed once for any document
with a response body, even a one-operation 3.0 document answering a string)."""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.dynamodb_local import JVM_OPTIONS, ROOT

pytestmark = pytest.mark.integration

BIN = Path(sys.executable).parent
GEN_VENV = ROOT / ".venv-gen"
NODE_BIN = ROOT / "node_modules" / ".bin"
TS_CLIENT = Path(__file__).with_name("typescript")
SPEC = ROOT / "openapi.yaml"
OAG_NOISE = ("3.1 support is still in beta", "Failed to get the schema name: null")
MAX_STEPS = 3000  # a safety net: both games end long before
AVOIDED = {"resign", "offer_draw", "accept_draw"}  # the games must end by playing


def _run(command: list[str], cwd: Path, env: dict | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, env=env)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def _generator_venv() -> Path:
    """.venv-gen/bin, with devtools/generators.txt installed (the Makefile's $(GEN_INSTALLED))."""
    marker = GEN_VENV / ".installed"
    requirements = ROOT / "devtools" / "generators.txt"
    if not marker.exists() or marker.stat().st_mtime < requirements.stat().st_mtime:
        _run([sys.executable, "-m", "venv", str(GEN_VENV)], ROOT)
        _run([str(GEN_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", str(requirements)], ROOT)
        marker.touch()
    return GEN_VENV / "bin"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[str, str]:
    """Both clients, generated into one directory (packages ``opc_client`` and ``oag_client``,
    importable); the generators' output by generator."""
    where = tmp_path_factory.mktemp("clients")
    config = where / "opc.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the code as generated
    opc = _run([str(_generator_venv() / "openapi-python-client"), "generate", "--path", str(SPEC), "--meta", "none",
                "--output-path", str(where / "opc_client"), "--config", str(config)], where)
    # OpenAPI Generator's JVM as DynamoDB Local's runs (the client compiler only, one GC thread): one
    # generation is too short for C2 to pay back; the same files for half the CPU (22 s -> 11 s).
    oag = _run([str(BIN / "openapi-generator-cli"), "generate", "-i", str(SPEC), "-g", "python",
                "-o", str(where / "oag"), "--package-name", "oag_client"], where,
               env={**os.environ, "JAVA_TOOL_OPTIONS": " ".join(JVM_OPTIONS)})
    sys.path[:0] = [str(where), str(where / "oag")]
    yield {"openapi-python-client": opc, "openapi-generator": oag}
    sys.path.remove(str(where))
    sys.path.remove(str(where / "oag"))


def test_both_generators_take_openapi_yaml_without_a_warning(generated):
    opc = [line for line in generated["openapi-python-client"].splitlines()
           if line.strip() and not line.startswith("Generating ")]
    oag = [line for line in generated["openapi-generator"].splitlines()
           if ("WARN" in line or "ERROR" in line) and not any(noise in line for noise in OAG_NOISE)]
    assert opc == [], "\n".join(opc)
    assert oag == [], "\n".join(oag)


def _choose(steps: list, unwrap, rng: random.Random):
    """A legal step, at random, but a claim of the most flags first (so Battle Line ends), and
    never a resignation or a draw offer (so the game ends by being played). ``unwrap`` gives the
    generated model of one step's own type, whose ``type`` field (``type_`` in
    openapi-python-client) names it."""
    def kind(step) -> str:
        model = unwrap(step)
        return getattr(model, "type_", None) or model.type

    claims = [s for s in steps if kind(s) == "claim"]
    if claims:
        return max(claims, key=lambda s: len(unwrap(s).flags))
    playable = [s for s in steps if kind(s) not in AVOIDED]
    return rng.choice(playable or steps)


# ---------------------------------------------------------------- openapi-python-client

class OpcPlayer:
    def __init__(self, base_url: str) -> None:
        self.api = importlib.import_module("opc_client.api")
        self.models = importlib.import_module("opc_client.models")
        for name in ("create_player", "get_me"):
            importlib.import_module(f"opc_client.api.players.{name}")
        for name in ("create_game", "get_game", "post_action"):
            importlib.import_module(f"opc_client.api.games.{name}")
        importlib.import_module("opc_client.api.lobby.accept_game")
        client_module = importlib.import_module("opc_client.client")
        self.base_url = base_url
        anonymous = client_module.Client(base_url=base_url, raise_on_unexpected_status=True)
        self.clients = []
        for name in ("Ann", "Bob"):
            created = self.api.players.create_player.sync(client=anonymous,
                                                          body=self.models.CreatePlayerRequest(name=name))
            assert isinstance(created, self.models.PlayerCreated), created
            self.clients.append((created.id, client_module.AuthenticatedClient(
                base_url=base_url, token=created.api_key, raise_on_unexpected_status=True)))

    def new_game(self, game: str, options) -> str:
        """createGame's body is the game's own (CreateBattleLineGame or CreateKhanGame: a oneOf
        chosen by ``game``), so its ``options`` can only be that game's."""
        m = self.models
        seats = [m.PlayerSeat(player_id=pid) for pid, _ in self.clients]
        body = (m.CreateKhanGame(game=m.CreateKhanGameGame.KHAN, options=options, seats=seats) if game == "khan" else
                m.CreateBattleLineGame(game=m.CreateBattleLineGameGame.BATTLELINE, options=options, seats=seats))
        view = self.api.games.create_game.sync(client=self.clients[0][1], body=body)
        assert isinstance(view, m.GameView), view
        assert view.status == m.GameViewStatus.WAITING  # Bob is asked first
        accepted = self.api.lobby.accept_game.sync(view.game_id, client=self.clients[1][1])
        assert isinstance(accepted, m.GameView) and accepted.status == m.GameViewStatus.ACTIVE, accepted
        return view.game_id

    def play(self, game_id: str, seed: int) -> object:
        m, rng = self.models, random.Random(seed)
        view = self.api.games.get_game.sync(game_id, client=self.clients[0][1])
        for _ in range(MAX_STEPS):
            if view.status != m.GameViewStatus.ACTIVE:
                return view
            client = self.clients[view.to_move - 1][1]
            if view.you != view.to_move:  # the turn passed: the next seat's own view (an answer is the mover's)
                view = self.api.games.get_game.sync(game_id, client=client)
            step = _choose(view.legal_steps, lambda s: s, rng)
            result = self.api.games.post_action.sync(
                game_id, client=client, body=m.ActionRequest(expected_version=view.version, steps=[step]))
            assert isinstance(result, m.ActionResult), (step, result)
            view = result.view
        raise AssertionError("the game did not end")


def test_openapi_python_client_plays_battle_line_with_tactics_to_the_end(live_server, generated):
    player = OpcPlayer(live_server.url)
    m = player.models
    options = m.BattleLineOptions(tactics=True, first_seat=m.BattleLineOptionsFirstSeatType0(1))
    view = player.play(player.new_game("battleline", options), seed=1)
    assert view.status == m.GameViewStatus.FINISHED and view.result.reason in {"adjacent_flags", "flag_count", "stall"}


def test_openapi_python_client_plays_khan_and_general_to_the_end(live_server, generated):
    player = OpcPlayer(live_server.url)
    m = player.models
    options = m.KhanOptions(max_rounds=2, first_seat=m.KhanOptionsFirstSeatType0(1))
    view = player.play(player.new_game("khan", options), seed=2)
    assert view.status == m.GameViewStatus.FINISHED and view.result.reason in {"annihilation", "routed", "max_rounds"}


# ---------------------------------------------------------------- OpenAPI Generator (python)

def _oag_step(step):
    """A Step is anyOf the games' steps, each a oneOf of that game's step models."""
    return step.actual_instance.actual_instance


class OagPlayer:
    def __init__(self, base_url: str) -> None:
        self.pkg = pkg = importlib.import_module("oag_client")
        anonymous = pkg.PlayersApi(pkg.ApiClient(pkg.Configuration(host=base_url)))
        self.games = []
        for name in ("Ann", "Bob"):
            created = anonymous.create_player(pkg.CreatePlayerRequest(name=name))
            client = pkg.ApiClient(pkg.Configuration(host=base_url, access_token=created.api_key))
            self.games.append((created.id, pkg.GamesApi(client)))
            self.lobby = pkg.LobbyApi(client)  # Bob's, the last made

    def new_game(self, game: str, options) -> str:
        pkg = self.pkg
        seats = [pkg.Seat(pkg.PlayerSeat(player_id=pid)) for pid, _ in self.games]
        body = pkg.CreateKhanGame if game == "khan" else pkg.CreateBattleLineGame  # the oneOf's two bodies
        view = self.games[0][1].create_game(pkg.CreateGameRequest(body(game=game, options=options, seats=seats)))
        assert view.status == "waiting"  # Bob is asked first
        assert self.lobby.accept_game(view.game_id).status == "active"
        return view.game_id

    def play(self, game_id: str, seed: int):
        pkg, rng = self.pkg, random.Random(seed)
        view = self.games[0][1].get_game(game_id)
        for _ in range(MAX_STEPS):
            if view.status != "active":
                return view
            api = self.games[view.to_move - 1][1]
            if view.you != view.to_move:  # the turn passed: the next seat's own view (an answer is the mover's)
                view = api.get_game(game_id)
            step = _choose(view.legal_steps, _oag_step, rng)
            result = api.post_action(game_id, pkg.ActionRequest(expected_version=view.version, steps=[step]))
            view = result.view
        raise AssertionError("the game did not end")


def test_openapi_generator_client_plays_battle_line_with_tactics_to_the_end(live_server, generated):
    player = OagPlayer(live_server.url)
    pkg = player.pkg
    options = pkg.BattleLineOptions(tactics=True, first_seat=1)
    view = player.play(player.new_game("battleline", options), seed=3)
    assert view.status == "finished" and view.result.reason in {"adjacent_flags", "flag_count", "stall"}


def test_openapi_generator_client_plays_khan_and_general_to_the_end(live_server, generated):
    player = OagPlayer(live_server.url)
    pkg = player.pkg
    options = pkg.KhanOptions(max_rounds=2, first_seat=1)
    view = player.play(player.new_game("khan", options), seed=4)
    assert view.status == "finished" and view.result.reason in {"annihilation", "routed", "max_rounds"}


# ---------------------------------------------------------------- TypeScript: openapi-typescript + openapi-fetch

@pytest.fixture(scope="module")
def typescript_client(tmp_path_factory) -> Path:
    """tests/integration/typescript/play.ts, compiled by tsc (strict) against the types openapi-typescript
    makes of openapi.yaml with its default settings: the compiled play.js."""
    where = tmp_path_factory.mktemp("typescript")
    for name in ("play.ts", "tsconfig.json"):
        shutil.copy(TS_CLIENT / name, where / name)
    (where / "package.json").write_text('{"type": "module"}\n')
    (where / "node_modules").symlink_to(ROOT / "node_modules")
    _run([str(NODE_BIN / "openapi-typescript"), str(SPEC), "-o", str(where / "schema.d.ts")], where)
    _run([str(NODE_BIN / "tsc"), "-p", str(where)], where)  # a type error fails here, with tsc's message
    return where / "play.js"


def _play_typescript(client: Path, url: str, game: str, seed: int) -> dict:
    done = subprocess.run(["node", str(client), url, game, str(seed)], cwd=client.parent, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_item4_typescript_client_plays_battle_line_with_tactics_to_the_end(live_server, typescript_client):
    view = _play_typescript(typescript_client, live_server.url, "battleline", seed=5)
    assert view["status"] == "finished" and view["result"]["reason"] in {"adjacent_flags", "flag_count", "stall"}


def test_item4_typescript_client_plays_khan_and_general_to_the_end(live_server, typescript_client):
    view = _play_typescript(typescript_client, live_server.url, "khan", seed=6)
    assert view["status"] == "finished" and view["result"]["reason"] in {"annihilation", "routed", "max_rounds"}
