"""The slow property tests with all their examples: ``make test`` runs them with a share of the
draws (tests/examples.py); this runs them as many times over as they were written for.

Run: make bench (or python -m benchmarks.properties)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from devtools.dynamodb_local import ROOT

TESTS = [  # every test that draws its examples through tests.examples.examples
    "tests/engine/battleline/test_properties.py",
    "tests/engine/battleline/test_claims.py::test_fast_proof_never_disagrees_with_brute_force",
    "tests/engine/khan/test_properties.py::test_random_legal_play_keeps_every_invariant_and_ends_by_max_rounds",
    "tests/engine/test_replay.py",
    "tests/records/test_verify.py::test_random_games_of_both_games_verify",
    "tests/tournaments/test_dutch.py::test_no_absolute_criterion_is_broken_while_a_legal_pairing_exists",
    "tests/tournaments/test_matching.py::test_the_matching_weighs_as_much_as_the_best_one_brute_force_finds",
    "tests/tournaments/test_swiss_properties.py::test_swiss_over_random_results_never_repeats_and_keeps_seats_balanced",
    "tests/bots/test_bots.py::test_a_bot_only_ever_chooses_a_legal_step",
    "tests/bots/test_bots.py::test_a_bots_decision_does_not_change_with_what_its_seat_cannot_see",
    "tests/cli/test_moves.py::test_every_legal_step_is_in_one_choice_and_the_list_stays_short",
    "tests/engine/battleline/test_notation.py::test_a_written_game_reads_back_to_the_same_steps",
]


def main() -> int:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS], cwd=ROOT,
                          env={**os.environ, "EXHAUSTIVE_PROPERTIES": "1", "PYTHONPATH": str(ROOT)})
    print(f"property tests, all examples: {time.monotonic() - started:.0f} s")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
