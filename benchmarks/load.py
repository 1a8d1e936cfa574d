"""The HTTP API under load: N games played at once through real HTTP, for a fixed time each.

For each concurrency level N (``--games 1,4,16``), N worker threads each play one game between
two players of their own: load the game as the player to move (``getGame``), pick one of its
``legal_steps`` with a seeded RNG (never ``resign`` nor ``offer_draw``), post it
(``postAction`` with ``expected_version``), and start a new game when one ends. Every choice
comes from ``--seed`` (each game is created with a seed drawn from it, so the deals are the
same too): two runs post the same steps.

Measured per level: accepted ``postAction`` calls per second of wall time (from the moment all
workers start until the last one has stopped; a request under way at the end is waited for and
counted), and the latency of ``postAction`` and ``getGame`` as the client sees it, request sent
to whole response read, as nearest-rank percentiles (the smallest sample with at least p % of
the samples at or below it; no interpolation). Any non-2xx answer or exception is an error,
409 ``version_conflict`` included (with one worker per game nobody else moves it); the
first few of each kind are printed with their bodies, and the exit status is 1 if there was any.

Each worker keeps one ``requests.Session``: the local server (Chalice's, HTTP/1.1 with a
Content-Length on every answer) keeps the connection alive, and serves each connection on a
thread of its own, so the API process has one thread per worker; it is one Python process,
so its request handling shares one GIL whatever N is. It sets TCP_NODELAY (devtools/local_api.py):
without it every kept-alive request waited 40 ms for a delayed ACK, so a server without that
line measures 40 ms slower per request. The load generator runs on the same machine as the
stack and competes with it for the CPU: its own CPU time is printed under the table.

Without ``--url`` the whole local stack is started as ``make serve`` starts it (DynamoDB Local
on disk, the API and the notification worker), on a free port with its data in a fresh
temporary directory (never var/), and stopped at the end, also on Ctrl-C or error.

Run: make bench (or python -m benchmarks.load [--games 1,4,16] [--seconds 20] [--game khan]
[--time-control '{"per_move_days": 3}'] [--seed 1] [--url http://127.0.0.1:8000])
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import platform
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import requests

from devtools.dynamodb_local import ROOT, free_port

TIMEOUT = 60.0  # seconds for any one request; a slower answer is an error (an exception)
NEVER = ("resign", "offer_draw")
ABANDON_AFTER = 3  # errors in a row on one game: leave it and start another
SAMPLES_KEPT = 3  # error bodies kept per kind


@dataclass(frozen=True)
class Player:
    id: str
    api_key: str


@dataclass(frozen=True)
class Config:
    game: str = "battleline"
    time_control: dict | None = None
    seed: int = 1
    idempotency_keys: bool = False


@dataclass
class Tally:
    """What the workers of one level measured; each worker has its own, merged at the end."""

    moves: int = 0
    games_finished: int = 0
    games_started: int = 0
    post_ms: list[float] = field(default_factory=list)
    get_ms: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)  # kind -> count
    samples: dict[str, list[str]] = field(default_factory=dict)  # kind -> first bodies

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        kept = self.samples.setdefault(kind, [])
        if len(kept) < SAMPLES_KEPT:
            kept.append(detail)

    def merge(self, other: "Tally") -> None:
        self.moves += other.moves
        self.games_finished += other.games_finished
        self.games_started += other.games_started
        self.post_ms += other.post_ms
        self.get_ms += other.get_ms
        self.errors.update(other.errors)
        for kind, kept in other.samples.items():
            mine = self.samples.setdefault(kind, [])
            mine += kept[: SAMPLES_KEPT - len(mine)]


@dataclass
class LevelResult:
    concurrency: int
    seconds: float
    tally: Tally
    client_cpu: float = 0.0  # CPU seconds this process (the load generator) used meanwhile
    others_cpu: float | None = None  # CPU seconds of processes not started by this one (Linux only)
    warmup: bool = False  # the untimed warm-up: not in the table, its errors still count

    @property
    def name(self) -> str:
        return f"{self.concurrency} games at once" + (" (warm-up)" if self.warmup else "")

    @property
    def errors(self) -> int:
        return sum(self.tally.errors.values())

    @property
    def moves_per_second(self) -> float:
        return self.tally.moves / self.seconds if self.seconds else 0.0


def percentile(samples: list[float], p: float) -> float:
    """Nearest rank: the smallest sample with at least p % of the samples at or below it."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


class Failed(Exception):
    """A request that did not succeed (already counted as an error)."""


class Worker:
    """One thread, one Session, one game at a time between two players."""

    def __init__(self, url: str, players: tuple[Player, Player], config: Config, rng: random.Random) -> None:
        self.url = url.rstrip("/")
        self.players = players
        self.config = config
        self.rng = rng
        self.session = requests.Session()
        self.tally = Tally()

    def call(self, operation: str, method: str, path: str, player: Player, body: dict | None = None,
             headers: dict | None = None, timings: list[float] | None = None) -> dict:
        sent = {"Authorization": f"Bearer {player.api_key}", **(headers or {})}
        start = time.perf_counter()
        try:
            response = self.session.request(method, self.url + path, json=body, headers=sent, timeout=TIMEOUT)
        except requests.RequestException as error:
            self.tally.error(f"{operation} {type(error).__name__}", f"{method} {path}: {error}")
            raise Failed from error
        elapsed = (time.perf_counter() - start) * 1000
        if not 200 <= response.status_code < 300:
            try:
                code = response.json().get("code", "?")
            except ValueError:
                code = "not json"
            self.tally.error(f"{operation} {response.status_code} {code}",
                             f"{method} {path} -> {response.status_code}: {response.text[:2000]}")
            raise Failed
        if timings is not None:
            timings.append(elapsed)
        try:
            return response.json()
        except ValueError as error:
            self.tally.error(f"{operation} not json", f"{method} {path} -> {response.text[:2000]}")
            raise Failed from error

    def new_game(self) -> dict:
        creator, other = self.players
        options: dict = {"first_seat": 1}
        if self.config.time_control is not None:
            options["time_control"] = self.config.time_control
        view = self.call("createGame", "POST", "/v1/games", creator, {
            "game": self.config.game, "seed": self.rng.randrange(2**63), "options": options,
            "seats": [{"player_id": creator.id}, {"player_id": other.id}]})
        self.tally.games_started += 1
        return view

    def turn(self, game_id: str, seat: int) -> dict:
        """One move: the view of the seat to move, one of its legal steps, posted. Returns the
        view after it (as the mover sees it)."""
        player = self.players[seat - 1]
        view = self.call("getGame", "GET", f"/v1/games/{game_id}", player, timings=self.tally.get_ms)
        if view["status"] != "active" or view["to_move"] != seat:
            self.tally.error("getGame unexpected view",
                             f"{game_id}: status {view['status']}, to_move {view['to_move']}, expected seat {seat}")
            raise Failed
        steps = [s for s in view["legal_steps"] if s["type"] not in NEVER]
        if not steps:
            self.tally.error("getGame no legal step", f"{game_id} v{view['version']}: {view['legal_steps']}")
            raise Failed
        step = self.rng.choice(steps)
        headers = {"Idempotency-Key": f"{game_id}-{view['version']}"} if self.config.idempotency_keys else None
        result = self.call("postAction", "POST", f"/v1/games/{game_id}/actions", player,
                           {"expected_version": view["version"], "steps": [step]}, headers=headers,
                           timings=self.tally.post_ms)
        self.tally.moves += 1
        return result["view"]

    def run(self, first: dict | None, start: threading.Barrier, deadline: list[float]) -> None:
        """Plays from ``first`` (a new game's view) until the deadline, set once all have started."""
        start.wait()
        view, failures = first, 0
        while time.monotonic() < deadline[0]:
            try:
                if view is None or view["status"] != "active" or failures >= ABANDON_AFTER:
                    view, failures = None, 0
                    view = self.new_game()
                elif view["to_move"] is None:
                    self.tally.error("view without a seat to move", json.dumps(view)[:2000])
                    view = None
                else:
                    view, failures = self.turn(view["game_id"], view["to_move"]), 0
                    if view["status"] == "finished":
                        self.tally.games_finished += 1
            except Failed:
                failures += 1
                if view is None:
                    time.sleep(0.1)  # createGame failed: do not spin
            except Exception as error:  # any exception is an error, counted and shown
                self.tally.error(f"exception {type(error).__name__}", repr(error)[:2000])
                failures += 1
        self.session.close()


def sign_up(url: str, count: int) -> list[Player]:
    players = []
    with requests.Session() as session:
        for i in range(count):
            reply = session.post(f"{url.rstrip('/')}/v1/players", json={"name": f"Load {i + 1}"}, timeout=TIMEOUT)
            if reply.status_code != 201:
                raise RuntimeError(f"createPlayer answered {reply.status_code}: {reply.text[:2000]}")
            body = reply.json()
            # Load players accept the games made for them (the preference), so that each game starts
            # when made and the loop measures moves, not answers.
            accepting = session.put(f"{url.rstrip('/')}/v1/players/me/preferences", json={"challenges": "accept"},
                                    headers={"Authorization": f"Bearer {body['api_key']}"}, timeout=TIMEOUT)
            if accepting.status_code != 200:
                raise RuntimeError(f"updatePreferences answered {accepting.status_code}: {accepting.text[:2000]}")
            players.append(Player(body["id"], body["api_key"]))
    return players


def run_level(url: str, players: list[Player], concurrency: int, seconds: float, config: Config,
              warmup: bool = False) -> LevelResult:
    """``concurrency`` games at once for ``seconds``; needs 2 x concurrency players."""
    if len(players) < 2 * concurrency:
        raise ValueError(f"{concurrency} games need {2 * concurrency} players, not {len(players)}")
    workers = [Worker(url, (players[2 * i], players[2 * i + 1]), config,
                      random.Random(f"{config.seed}/{'warm-up/' * warmup}{concurrency}/{i}")) for i in range(concurrency)]
    firsts = []
    for worker in workers:  # the first games are made before the clock starts
        try:
            firsts.append(worker.new_game())
        except Failed:
            firsts.append(None)
    start = threading.Barrier(concurrency + 1)
    deadline = [math.inf]
    threads = [threading.Thread(target=w.run, args=(first, start, deadline), name=f"load-{i}", daemon=True)
               for i, (w, first) in enumerate(zip(workers, firsts))]
    for thread in threads:
        thread.start()
    began, cpu, shared = time.monotonic(), time.process_time(), cpu_of_others()
    deadline[0] = began + seconds
    try:
        start.wait()
        for thread in threads:
            thread.join()
    finally:
        deadline[0] = -math.inf  # on Ctrl-C too: no worker starts another request
    wall, cpu = time.monotonic() - began, time.process_time() - cpu
    others = None if shared is None or (now := cpu_of_others()) is None else max(0.0, now - shared)  # jiffy noise
    tally = Tally()
    for worker in workers:
        tally.merge(worker.tally)
    return LevelResult(concurrency, wall, tally, cpu, others, warmup)


def run(url: str, levels: list[int], seconds: float, config: Config, players: list[Player] | None = None,
        progress=None, warmup: float = 0.0) -> list[LevelResult]:
    """Signs up the players the largest level needs (unless given), warms the server up with the
    largest level for ``warmup`` seconds (a fresh DynamoDB Local's JVM and the API's first
    requests are several times slower), then runs each level in turn."""
    players = players or sign_up(url, 2 * max(levels))
    results = []
    for concurrency, warming in ([(max(levels), True)] if warmup > 0 else []) + [(n, False) for n in levels]:
        result = run_level(url, players, concurrency, warmup if warming else seconds, config, warmup=warming)
        if progress:
            progress(result)
        results.append(result)
    return results


# ------------------------------------------------------------------ the local stack


def _answers(url: str) -> bool:
    try:
        requests.get(f"{url}/v1/khan/card-sets", timeout=2)
        return True
    except requests.RequestException:
        return False


@contextlib.contextmanager
def local_stack(timeout: float = 180.0) -> Iterator[str]:
    """``python -m devtools.serve`` (what ``make serve`` runs) on a free port, with its data in a
    fresh temporary directory; yields the API's URL and stops the whole stack on the way out."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="load-bench-") as data:
        log_path = Path(data) / "serve.log"
        with open(log_path, "w") as log:
            # Its own session: a Ctrl-C reaches only us, and we stop it once, with SIGTERM (which
            # serve turns into its own orderly stop: worker, API, then DynamoDB Local).
            process = subprocess.Popen([sys.executable, "-m", "devtools.serve"], cwd=ROOT,
                                       env={**os.environ, "PORT": str(port), "DATA_DIR": data},
                                       stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            try:
                deadline = time.monotonic() + timeout
                while not _answers(url):
                    if process.poll() is not None:
                        raise RuntimeError(f"devtools.serve exited with {process.returncode}:\n"
                                           + log_path.read_text()[-4000:])
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"the API did not answer on {url} within {timeout:.0f} s")
                    time.sleep(0.2)
                yield url
            finally:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
                    try:
                        process.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        os.killpg(process.pid, signal.SIGKILL)
                        process.wait()


# ------------------------------------------------------------------ the report


def cpu_of_others() -> float | None:
    """CPU seconds the whole machine has spent busy, less those of this process and its
    descendants (the stack it started): what other processes took from the benchmark. The VM
    is shared, and a test run beside it halves the figures. None where there is no /proc."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        busy = sum(fields) - fields[3] - fields[4]  # less idle and iowait
        parents: dict[int, tuple[int, int]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    stat = (entry / "stat").read_text()
                    rest = stat[stat.rindex(")") + 2:].split()
                    parents[int(entry.name)] = (int(rest[1]), int(rest[11]) + int(rest[12]))  # ppid, utime + stime
    except (OSError, ValueError, IndexError):
        return None
    ours, grown = {os.getpid()}, True
    while grown:
        found = {pid for pid, (ppid, _) in parents.items() if ppid in ours} - ours
        ours |= found
        grown = bool(found)
    return max(0, busy - sum(parents[pid][1] for pid in ours if pid in parents)) / ticks


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = ""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 2**20:.0f} GiB"
    return (f"{os.cpu_count()} vCPU {cpu}{memory}, {platform.system()}, "
            f"{platform.python_implementation()} {platform.python_version()}")


def table(results: list[LevelResult]) -> str:
    lines = ["| level (games at once) | games finished | seconds | moves | moves/s | postAction p50 ms "
             "| p95 ms | p99 ms | getGame p50 ms | errors |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in (r for r in results if not r.warmup):
        t = r.tally
        lines.append(f"| {r.concurrency} | {t.games_finished} | {r.seconds:.1f} | {t.moves} | "
                     f"{r.moves_per_second:.1f} | {percentile(t.post_ms, 50):.1f} | {percentile(t.post_ms, 95):.1f} | "
                     f"{percentile(t.post_ms, 99):.1f} | {percentile(t.get_ms, 50):.1f} | {r.errors} |")
    return "\n".join(lines)


def report(results: list[LevelResult], args: argparse.Namespace, where: str, load: float) -> str:
    game = {"battleline": "Battle Line", "khan": "Khan & General"}[args.game]
    clock = f", time control {json.dumps(args.time_control)}" if args.time_control else ", no clock"
    keys = ", an Idempotency-Key on each" if args.idempotency_keys else ""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    command = shlex.join(["python", "-m", "benchmarks.load", *sys.argv[1:]])
    timed = [r for r in results if not r.warmup]

    def per_level(seconds_of) -> str:
        return ", ".join(f"{seconds_of(r) / r.seconds:.0%} of a core at {r.concurrency}" for r in timed)

    notes = [f"The load generator itself, on the same machine, used {per_level(lambda r: r.client_cpu)}",
             f"the 1-minute load average was {load:.2f} when the run began"]
    if all(r.others_cpu is not None for r in timed):
        others = "processes other than the benchmark (the server included)" if args.url else \
            "processes this run did not start"
        notes.append(f"{others} used {per_level(lambda r: r.others_cpu)}")
    return (f"## {today} — {machine()}\n\n"
            f"HTTP load, {game}{clock}, one step per postAction{keys}, seed {args.seed}, {where}; "
            f"{args.warmup:g} s of warm-up first; latencies are nearest-rank percentiles as the client sees "
            f"them (`{command}`)\n\n{table(results)}\n\n" + "; ".join(notes) + ".")


def parse_levels(text: str) -> list[int]:
    levels = [int(part) for part in text.split(",") if part.strip()]
    if not levels or min(levels) < 1:
        raise argparse.ArgumentTypeError("a comma-separated list of positive integers, e.g. 1,4,16")
    return levels


def parse_time_control(text: str) -> dict:
    try:
        control = json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from error
    if not isinstance(control, dict):
        raise argparse.ArgumentTypeError('a JSON object, e.g. {"per_move_days": 3} or {"moves": 10, "days": 30}')
    return control


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=parse_levels, default=[1, 4, 16],
                        help="the concurrency levels: games played at once (default 1,4,16)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each level runs (default 20)")
    parser.add_argument("--game", choices=["battleline", "khan"], default="battleline")
    parser.add_argument("--time-control", type=parse_time_control, default=None,
                        help='a clock for every game, e.g. \'{"per_move_days": 3}\' or \'{"moves": 10, "days": 30}\'')
    parser.add_argument("--idempotency-keys", action="store_true",
                        help="send an Idempotency-Key with every postAction (as a careful client does)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of untimed play at the largest level first (default 5; 0: none)")
    parser.add_argument("--seed", type=int, default=1, help="seeds every choice and every deal (default 1)")
    parser.add_argument("--url", help="use the server already running there instead of starting one")
    args = parser.parse_args(argv)
    config = Config(game=args.game, time_control=args.time_control, seed=args.seed,
                    idempotency_keys=args.idempotency_keys)

    def progress(result: LevelResult) -> None:
        print(f"{result.name}: {result.tally.moves} moves in {result.seconds:.1f} s, "
              f"{result.errors} errors (load generator: {result.client_cpu / result.seconds:.0%} of a core"
              + (f", other processes: {result.others_cpu / result.seconds:.0%}" if result.others_cpu is not None else "")
              + ")",
              file=sys.stderr, flush=True)

    # Ctrl-C and `kill` both stop the stack it started, even when started from a shell that
    # ignores SIGINT (as a background job of a script is).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    load = os.getloadavg()[0]
    try:
        with contextlib.ExitStack() as stack:
            if args.url:
                url, where = args.url.rstrip("/"), f"against {args.url}"
            else:
                print("starting the local stack (DynamoDB Local, the API, the worker)...", file=sys.stderr, flush=True)
                url, where = stack.enter_context(local_stack()), "local stack as `make serve` runs it"
            results = run(url, args.games, args.seconds, config, progress=progress, warmup=args.warmup)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(report(results, args, where, load))
    total = Counter()
    for result in results:
        total.update(result.tally.errors)
    if total:
        print("\nerrors:", file=sys.stderr)
        for result in results:
            for kind, count in sorted(result.tally.errors.items()):
                print(f"- {result.name}: {count} x {kind}", file=sys.stderr)
                for sample in result.tally.samples.get(kind, []):
                    print(f"    {sample}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
