"""schemathesis against a running API: no 5xx, and every response matches openapi.yaml.

One run, two lengths: ``make test`` runs it short (tests/integration/test_schemathesis.py, a few
examples an operation in the fuzzing phase, and the coverage phase's valid cases only), ``make bench``
runs it long (benchmarks/fuzz.py: more fuzzing examples, and the coverage phase's invalid cases too);
the examples and stateful phases, the checks and the data are the same.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import requests
import yaml

ROOT = Path(__file__).resolve().parents[1]
# Every check schemathesis has (among them: 405 with Allow for a method a path does not take,
# ignored auth, use after delete, schema-invalid data refused), and ours.
CHECKS = "all,errors_are_problem_json,positive_data_refused_only_by_listed_rules"  # tests/integration/schemathesis_hooks.py
# A schema-valid request may still be refused, by a rule no schema can state. What openapi.yaml can
# say, it says: findPlayers' name is required, a link token has a pattern, recoverAccount's body is
# an address or a player id with a code (a oneOf), and createGame's, createTournament's and
# createLadder's options are the options of the game named beside them (a oneOf of whole bodies,
# discriminated on ``game``). The refusals left, by problem code, each with the rule behind it and
# why no schema can state it; tests/integration/schemathesis_hooks.py fails a schema-valid request
# refused with any other code (schemathesis' own positive_data_acceptance check, given the statuses
# of these codes, fails any other status).
POSITIVE_DATA_REFUSALS = {
    # Secrets and signatures: the schema says a value's shape, not whether the server made it.
    "invalid_cursor": "a cursor is opaque and signed by the server for one list and one query",
    "invalid_link": "a link token of the right shape whose signature is not the server's",
    "unauthorized": "an API key of the right shape that is no player's (keys are stored hashes)",
    "recovery_refused": "a player id and recovery code of the right shape that do not match (a stored hash)",
    "link_expired": "an expired link: its timestamp is inside the signed token",
    "link_used": "a link used once already (stored state)",
    # Ids that name nothing stored.
    **{code: "an id of the right shape that names nothing stored" for code in (
        "card_set_not_found", "delivery_not_found", "game_not_found", "ladder_not_found", "not_found",
        "tournament_not_found", "unknown_player", "webhook_not_found", "player_not_found", "unknown_card_set")},
    # Who the caller is and what is stored: the same body is fine from one player, not from another.
    "blocked": "one player blocked the other (stored state)",
    "board_in_play": "another board of the duplicate round is still being played (stored state)",
    "challenges_refused": "the player invited takes no games made for them (their stored setting)",
    "game_not_public": "the game is not public (its stored setting)",
    "not_organiser": "the caller is not the tournament's organiser (stored state)",
    "not_seated": "the caller has no seat in the game (stored state)",
    "not_your_turn": "it is another seat's decision now (the game's state)",
    "rating_out_of_range": "the caller's rating is outside the seat's range (stored ratings)",
    "cannot_block_self": "the player named is the caller (who calls is the API key's, not the body's)",
    "not_a_bot": "bot_policy on a human's account (whether the account is a bot is stored state, not the request's)",
    "bot_refuses": "the bot's stored policy turns down such a game",
    "idempotency_key_reused": "an Idempotency-Key used before with another body (stored for 24 hours)",
    "vacation_days_exhausted": "the vacation days left this year (stored state)",
    "player_not_on_ladder": "the player challenged is not on the ladder (stored state)",
    "not_above": "the player challenged is not above the caller on the ladder (stored standings)",
    "too_far_above": "the player challenged is too far above the caller on the ladder (stored standings)",
    # The state of a game, tournament or ladder, which moves on.
    **{code: "a game, tournament or ladder no longer (or not yet) in the state the request needs" for code in (
        "already_challenged", "already_entered", "already_on_ladder", "already_on_vacation", "already_seated",
        "game_finished", "game_not_finished", "game_not_started", "game_started", "invitation_answered",
        "ladder_busy", "not_entered", "not_on_ladder", "not_on_vacation", "nothing_to_answer", "seat_taken",
        "time_expired", "too_few_players", "too_many_challenges", "too_many_games", "tournament_finished",
        "tournament_full", "tournament_game", "tournament_started")},
    "version_conflict": "a stale expected_version (the game has moved on)",
    # The rules of the game, which depend on the position.
    "illegal_action": "the rules of the game: a step legal only in some positions",
    "invalid_step": "a step of the other game (Step is anyOf both games' steps: the game is the path's, stored)",
    "invalid_card": "a card of the other game, or not in this game's deck (the game is the path's, stored)",
    "invalid_position": "a Battle Line position no deal can reach (cards counted across the whole position)",
    "invalid_deck": "a deck's legality (cards counted against the card set's limits)",
    "invalid_seats": "a game's seat count for its options (players: 3 needs three seats), a player seated twice, "
                     "rating_min above rating_max (comparisons between values)",
    "invalid_options": "a tournament's or ladder's games have two seats (players: 3 refused there), and the "
                       "options' own rules between values",
    "invalid_tournament": "rules between a tournament's fields (rounds only for Swiss, match_games or "
                          "time_control given twice, vacations_allowed without a time_control)",
    "rated_conflict": "rated: true with a seed, a bot seat or three seats (a rule between fields and seats)",
    "unsupported_seat": "a seat this server cannot serve: an email seat with no mail configured, a bot it "
                        "does not run (its configuration)",
    "unsafe_webhook_url": "a webhook URL whose host is, or resolves to, a private or local address (DNS, "
                          "at request time)",
    "notes_too_long": "notes longer than a seat's notes may be, counted as stored (after normalisation)",
    # Counts, not shapes.
    "rate_limited": "the rate limits (per key, per client address)",
    "too_many_invitations": "the daily cap on invitations sent by email",
}


# ``invalid_request`` (422: the body does not match the server's model) for a schema-valid body: only
# for these rules, which the hooks recognise in the request itself (any other invalid_request fails).
POSITIVE_DATA_MODEL_RULES = {
    "integral_number": "a whole number written with a fraction (`360.0`): JSON Schema's `integer` takes it, the "
                       "server's strict JSON types take only `360`, and no schema keyword tells the two apart",
    "time_zone": "a time zone the server's tz database does not know: IANA names, which change with tzdata "
                 "releases (an enum in openapi.yaml would be wrong after the next one)",
}


def model_rules_broken(body) -> list[str]:
    """The POSITIVE_DATA_MODEL_RULES a request body breaks."""
    from chalicelib.clocks.timecontrol import valid_zone  # noqa: PLC0415 - the server's own check

    def floats(value) -> bool:
        if isinstance(value, float):
            return value.is_integer()
        if isinstance(value, dict):
            return any(floats(v) for v in value.values())
        return isinstance(value, list) and any(floats(v) for v in value)

    broken = ["integral_number"] if floats(body) else []
    zone = body.get("time_zone") if isinstance(body, dict) else None
    if isinstance(zone, str) and not valid_zone(zone):
        broken.append("time_zone")
    return broken


def refusal_statuses() -> list[str]:
    """The statuses of POSITIVE_DATA_REFUSALS' codes, for schemathesis' positive_data_acceptance."""
    from chalicelib.kernel.errors import ERRORS  # noqa: PLC0415 - the server's table of codes

    return sorted({str(ERRORS[code].status) for code in POSITIVE_DATA_REFUSALS})


POSITIVE_DATA_STATUSES = ["2xx", "3xx", "5xx"]  # 5xx: failed by the not_a_server_error check
TEST_EXAMPLES = 5  # an operation, in the fuzzing phase, in make test (its 10-minute budget: issue 35)
BENCH_EXAMPLES = 40  # in make bench
# The coverage phase's cases in make test: the valid ones (every enum value and boundary of every
# operation, which reach the API's logic). Its invalid ones, some 2,700 requests (playOnBoard's body
# alone 1,100), nearly all refused by one model validation with invalid_request or invalid_options,
# more than half the phase's time, run in make bench; in make test, invalid data is still sent by the
# fuzzing phase (both modes) and by tests/api/test_hostile_requests.py (every operation's body and
# path parameters, wrong JSON types, malformed and oversized bodies).
TEST_COVERAGE = "positive"
BENCH_COVERAGE = "all"
# Operations whose coverage phase runs in make bench only. playOnBoard's step is postAction's (the same
# Step schemas, whose every valid boundary postAction's coverage sends in make test too): its ~390 valid
# coverage cases, a quarter of the phase, repeat them through a link. make test still sends it its
# examples and the fuzzing phase's cases, valid and invalid.
TEST_COVERAGE_SKIPPED = ("playOnBoard",)
STATUS_LOG = "statuses.log"  # in the run's workdir: "operationId status code seconds", a line a response (the hooks write it)
# At most this share of the operations that need a key may get nothing but 401/403 in a run: more,
# and the run's key has stopped working (they are then tested only up to the auth check).
AUTH_ONLY_SHARE = 0.05


def run(url: str, workdir: Path, max_examples: int, timeout: float = 540,
        coverage: str = TEST_COVERAGE, coverage_skipped: tuple[str, ...] = TEST_COVERAGE_SKIPPED,
        ) -> subprocess.CompletedProcess:
    """schemathesis's whole run against ``url`` (its report in ``workdir``/schemathesis.txt, the
    statuses each operation got at its end); ``coverage``: the coverage phase's cases, ``positive``
    (valid) or ``all``; ``coverage_skipped``: operations (ids) left out of the coverage phase."""
    ann = requests.post(f"{url}/v1/players", json={"name": "Fuzz"}, timeout=10).json()
    bob = requests.post(f"{url}/v1/players", json={"name": "Buzz"}, timeout=10).json()
    game = requests.post(f"{url}/v1/games", headers={"Authorization": f"Bearer {ann['api_key']}"}, timeout=10,
                         json={"game": "battleline", "options": {"first_seat": 1},
                               "seats": [{"player_id": ann["id"]}, {"player_id": bob["id"]}]}).json()
    # Under way, the fuzz player to move: its moves reach the rules, not "the game has not started".
    accepted = requests.post(f"{url}/v1/games/{game['game_id']}/accept", timeout=10,
                             headers={"Authorization": f"Bearer {bob['api_key']}"})
    if accepted.status_code != 200 or accepted.json()["status"] != "active":
        raise RuntimeError(f"the fuzz game did not start: {accepted.text}")
    # A real game and real players, so that generated requests reach the game logic, not only 404s.
    config = workdir / "schemathesis.toml"
    config.write_text(
        f'[parameters]\n"path.game_id" = "{game["game_id"]}"\n'
        '[generation]\nallow-x00 = false\n'
        f'[checks.positive_data_acceptance]\nexpected-statuses = {json.dumps(POSITIVE_DATA_STATUSES + refusal_statuses())}\n'
        f'[phases.coverage.generation]\nmode = "{coverage}"\n'
        + "".join(f'[[operations]]\ninclude-operation-id = "{operation}"\nphases.coverage.enabled = false\n'
                  for operation in coverage_skipped)
    )
    schemathesis = Path(sys.executable).with_name("schemathesis")
    done = subprocess.run(
        [str(schemathesis), "--config-file", str(config), "run", str(ROOT / "openapi.yaml"), "--url", url,
         "--checks", CHECKS, "--max-examples", str(max_examples), "--phases", "examples,coverage,fuzzing,stateful",
         # One worker: with threads, CPython 3.11 can raise a spurious "AST constructor recursion depth
         # mismatch" inside schemathesis (CPython gh-106905), failing the run for no fault of the API.
         "--seed", "20261121", "--no-color", "--generation-database", "none", "--workers", "1"],
        capture_output=True, text=True, timeout=timeout, cwd=workdir,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT),
             "SCHEMATHESIS_HOOKS": "tests.integration.schemathesis_hooks",
             "FUZZ_STATUS_LOG": str(workdir / STATUS_LOG),
             # The hooks send the player's key with every request but the key-ending ones (those go
             # with a player signed up on the spot), and keep the game going (tests/integration/schemathesis_hooks.py).
             "FUZZ_URL": url, "FUZZ_API_KEY": ann["api_key"], "FUZZ_PLAYER_ID": ann["id"],
             "FUZZ_OPPONENT_KEY": bob["api_key"], "FUZZ_OPPONENT_ID": bob["id"], "FUZZ_GAME_ID": game["game_id"]},
    )
    (workdir / "schemathesis.txt").write_text(done.stdout + "\nStatuses by operation:\n"
                                              + status_table(statuses(workdir)) + "\n")  # the whole report
    return done


def problems(done: subprocess.CompletedProcess, workdir: Path) -> list[str]:
    """What is wrong with a run: a failed check, an operation of openapi.yaml not exercised, no
    chained (stateful) calls, signed-in operations tested only up to the auth check."""
    found = []
    if done.returncode != 0:
        found.append(done.stdout[-6000:] + done.stderr[-2000:])
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    operations = sum(len(ops) for ops in document["paths"].values())
    if f"Tested: {operations}" not in done.stdout:
        found.append(f"not every one of the {operations} operations was exercised")
    if not re.search(r"Stateful .*\n\s*Scenarios:\s+[1-9]", done.stdout):
        found.append("no stateful scenario ran: " + done.stdout[-3000:])
    counts = statuses(workdir)
    signed_in = [op["operationId"] for ops in document["paths"].values() for op in ops.values() if op.get("security")]
    refused = [op for op in signed_in if counts.get(op) and set(counts[op]) <= {401, 403}]
    if len(refused) > AUTH_ONLY_SHARE * len(signed_in):
        found.append(f"{len(refused)} of the {len(signed_in)} signed-in operations got only 401/403 (did the run's "
                     f"key stop working?): {', '.join(refused)}\n{status_table(counts)}")
    return found


def statuses(workdir: Path, by_code: bool = False) -> dict[str, Counter]:
    """How many answers of each status (or each "status code" with ``by_code``) every operation
    got in the run in ``workdir``."""
    counts: dict[str, Counter] = defaultdict(Counter)
    log = workdir / STATUS_LOG
    for line in log.read_text().splitlines() if log.exists() else ():
        operation, status, code, _seconds = line.split()
        counts[operation][f"{status} {code}" if by_code else int(status)] += 1
    return dict(counts)


def seconds(workdir: Path) -> Counter:
    """The seconds the server took to answer each operation in the run in ``workdir``."""
    spent: Counter = Counter()
    log = workdir / STATUS_LOG
    for line in log.read_text().splitlines() if log.exists() else ():
        operation, _status, _code, elapsed = line.split()
        spent[operation] += float(elapsed)
    return spent


def status_table(counts: dict[str, Counter]) -> str:
    """The run's statuses, an operation a line, and the totals."""
    total: Counter = sum(counts.values(), Counter())
    lines = [f"{op:28} {sum(c.values()):5}  " + " ".join(f"{s}:{n}" for s, n in sorted(c.items()))
             for op, c in sorted(counts.items())]
    return "\n".join([*lines, f"{'all':28} {sum(total.values()):5}  "
                       + " ".join(f"{s}:{n}" for s, n in sorted(total.items()))])
