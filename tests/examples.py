"""How many examples a slow property test tries: a share in ``make test``, all in ``make bench``
(benchmarks/properties.py runs these tests with EXHAUSTIVE_PROPERTIES=1). The property and its
strategy are the same in both; only the number of draws differs."""

from __future__ import annotations

import os


def examples(fast: int, full: int) -> int:
    return full if os.environ.get("EXHAUSTIVE_PROPERTIES") == "1" else fast
