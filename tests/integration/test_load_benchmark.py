"""The HTTP load benchmark's loop, briefly, against the live server: it plays, and nothing fails.
Never a timing assertion: how fast is for `python -m benchmarks.load` to say."""

import pytest

from benchmarks.load import Config, percentile, run, sign_up

pytestmark = pytest.mark.integration


def test_the_load_loop_plays_both_games_without_errors(live_server):
    players = sign_up(live_server.url, 4)
    results = run(live_server.url, [1, 2], 2.0, Config(game="battleline", seed=7), players=players)
    results += run(live_server.url, [2], 1.0, Config(game="khan", seed=7, time_control={"per_move_days": 3}),
                   players=players)
    for result in results:
        assert result.tally.moves > 0, result
        assert result.errors == 0, dict(result.tally.samples)
        assert len(result.tally.post_ms) == result.tally.moves
        assert result.tally.get_ms and result.tally.games_started >= result.concurrency


def test_percentiles_are_nearest_rank():
    samples = [float(n) for n in range(1, 101)]
    assert [percentile(samples, p) for p in (50, 95, 99, 100)] == [50, 95, 99, 100]
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([5.0], 99) == 5.0
