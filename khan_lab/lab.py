"""A playtest from start to report, for a front end (``battleline playtest``, ``python -m khan_lab``)
that says what happens: it checks, estimates, shows progress and tells where the report is."""

from __future__ import annotations

import datetime
import platform
import time
from collections.abc import Callable
from dataclasses import replace

from chalicelib.games.khan.cardset import CardSet

from . import figures, play
from .report import Run


def machine() -> str:
    uname = platform.uname()
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "")
    except OSError:
        pass
    return ", ".join(part for part in (model or uname.processor, f"{uname.system} {uname.release}",
                                       f"Python {platform.python_version()}") if part)


def measure(plan: play.Plan, card_set: CardSet, estimate: play.Estimate,
            on_done: Callable[[dict], None] | None = None, compare: bool = False) -> Run:
    """Play the games (and, with ``compare``, the same games with the default set), then the figures."""
    started = time.perf_counter()
    records = play.run(plan, estimate.calibration, on_done)
    seconds = time.perf_counter() - started + estimate.spent
    compared = None
    if compare:
        default = play.default_set()
        other = replace(plan, card_set=default.id, version=default.version, digest=default.digest, path=None)
        begun = time.perf_counter()
        others = play.run(other, {}, on_done)
        compared = Run(plan=other, card_set=default, figures=figures.summarize(others, default), records=others,
                       seconds=time.perf_counter() - begun, estimate=estimate.seconds, cores=play.cores(),
                       machine=machine(), date=now())
    return Run(plan=plan, card_set=card_set, figures=figures.summarize(records, card_set), records=records,
               seconds=seconds, estimate=estimate.seconds, cores=play.cores(), machine=machine(), date=now(),
               compared=compared)


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
