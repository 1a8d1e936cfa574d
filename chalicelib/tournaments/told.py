"""A tournament in people's words, for every place that shows one (the standings page and file, the
command line): its format's name, each tie-break's short and long name, a score as written."""

from __future__ import annotations

from ..kernel.i18n import N_

# Each tie-break's short name (FIDE's, C.07) for a narrow column, and its name.
TIE_BREAKS = {
    "direct_encounter": ("DE", N_("Direct encounter")),
    "wins": ("WIN", N_("Pairings won")),
    "sonneborn_berger": ("SB", N_("Sonneborn-Berger")),
    "buchholz_cut_1": ("BH-C1", N_("Buchholz Cut-1")),
    "buchholz": ("BH", N_("Buchholz")),
    "flags_won": ("FL", N_("Flags won")),
    "round_reached": ("RD", N_("Round reached")),
}
FORMATS = {"round_robin": N_("Round robin"), "double_round_robin": N_("Double round robin"),
           "swiss": N_("Swiss"), "single_elimination": N_("Single elimination")}


def number(value: float | None) -> str:
    """5.0 as "5", 2.5 as "2.5"."""
    if value is None:
        return ""
    return f"{value:g}"


def short(value: float) -> str:
    """A tie-break on the page: three decimals at most (a Sonneborn-Berger of 10.625 as the JSON and the CSV
    give it, not 10.62: two players ranked apart by a tie-break do not show the same figure)."""
    return f"{round(value, 3):g}"
