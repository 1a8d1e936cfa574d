"""The figures of a playtest, computed from the games' records alone (``play.play_game``), so that
they are the same whatever the number of workers or the order in which games finished.

A game's record: ``{"game": i, "factions": {"1": f, "2": g}, "first": seat, "winner": seat or None,
"reason": the engine's ending, "rounds": n, "decisions": n, "destroyed": {seat: enemy units it destroyed},
"wounded": {seat: enemy units it left wounded}, "played": {seat: {card: n}}, "paid": {seat: {card: n}}}``.

What "played" means: a unit card is played when it enters the field (placed at set-up or
deployed); a command card when it is laid face up on a unit as a command (its effect used). A
command paid face down into a sequence is counted apart ("paid"): it was spent, not played.

Win rates count a draw as not a win (a draw is shown apart). Intervals are Wilson's at 95 %.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import Any

from chalicelib.games.khan.cardset import CardSet
from chalicelib.kernel.i18n import N_, _

# The engine's endings (turns.finish, turns.forfeit), max_rounds split by whether someone won.
ENDINGS = [("annihilation", N_("annihilation: all five enemy units destroyed")),  # translated where shown
           ("routed", N_("routed: no unit left on the field")),
           ("max_rounds won", N_("max_rounds, won: more enemy units destroyed (then wounded)")),
           ("max_rounds drawn", N_("max_rounds, drawn: level on destroyed and wounded")),
           ("draw_agreed", N_("draw_agreed: a draw offered and accepted")),
           ("resign", "resign")]
# The two halves of max_rounds by their names in charts and comparisons (the engine's codes stay as it writes them).
HALVES = {"max_rounds won": N_("max_rounds, won"), "max_rounds drawn": N_("max_rounds, drawn")}


def ending_name(key: str) -> str:
    """An ending as a chart names it, in the language spoken: the engine's code, or a half of max_rounds."""
    return _(HALVES[key]) if key in HALVES else key


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95 % with z = 1.96); (0, 1) for no games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games if games else None, "low": low, "high": high}


def ending(record: dict) -> str:
    reason = record["reason"]
    if reason == "max_rounds":
        return "max_rounds won" if record["winner"] is not None else "max_rounds drawn"
    return reason


def spread(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"mean": None, "median": None, "min": None, "max": None, "values": []}
    return {"mean": statistics.fmean(values), "median": statistics.median(values), "min": min(values),
            "max": max(values), "values": list(values)}


def winner_faction(record: dict) -> str | None:
    return None if record["winner"] is None else record["factions"][str(record["winner"])]


def seat_of(record: dict, faction: str) -> str:
    return next(seat for seat, f in record["factions"].items() if f == faction)


def card_rows(records: list[dict], card_set: CardSet, faction: str) -> list[dict[str, Any]]:
    """Each card of ``faction``: how often it was played and paid, and the faction's win rate in the
    games where it played the card at least once against those where it did not."""
    deck = Counter(card_set.recommended[faction])
    cards = [c for c in card_set.units.values() if c.faction == faction] + \
        [c for c in card_set.commands.values() if c.faction == faction]
    rows = []
    for card in cards:
        played = paid = 0
        with_it = [0, 0]  # wins, games
        without = [0, 0]
        for record in records:
            seat = seat_of(record, faction)
            times = record["played"].get(seat, {}).get(card.id, 0)
            played += times
            paid += record["paid"].get(seat, {}).get(card.id, 0)
            tally = with_it if times else without
            tally[0] += winner_faction(record) == faction
            tally[1] += 1
        rows.append({"card": card.id, "name": card.name or card.id, "kind": "unit" if card_set.is_unit(card.id)
                     else card.kind, "in_deck": deck[card.id], "played": played, "paid": paid,
                     "played_a_game": played / len(records) if records else None,
                     "paid_a_game": paid / len(records) if records else None,
                     "when_played": rate(*with_it), "when_not": rate(*without)})
    return rows


def summarize(records: list[dict], card_set: CardSet) -> dict[str, Any]:
    """Every figure of the report, from the games' records (in any order)."""
    records = sorted(records, key=lambda r: r["game"])
    games = len(records)
    draws = sum(1 for r in records if r["winner"] is None)
    factions = []
    for faction in card_set.factions:
        wins = sum(1 for r in records if winner_faction(r) == faction.id)
        kills = [r["destroyed"][seat_of(r, faction.id)] for r in records]
        wounds = [r["wounded"][seat_of(r, faction.id)] for r in records]
        factions.append({"id": faction.id, "name": faction.name, "draws": draws, "losses": games - wins - draws,
                         "destroyed": statistics.fmean(kills) if kills else None,
                         "wounded": statistics.fmean(wounds) if wounds else None, **rate(wins, games)})
    counted = Counter(ending(r) for r in records)
    known = [key for key, _ in ENDINGS]
    endings = [{"ending": key, "label": label, "games": counted[key], "share": counted[key] / games if games else 0}
               for key, label in ENDINGS]
    endings += [{"ending": key, "label": key, "games": n, "share": n / games} for key, n in sorted(counted.items())
                if key not in known]
    first_wins = sum(1 for r in records if r["winner"] == r["first"])
    first = {"draws": draws, **rate(first_wins, games)}
    by_faction_first = {}
    for faction in card_set.faction_ids:
        moved_first = [r for r in records if r["factions"][str(r["first"])] == faction]
        by_faction_first[faction] = rate(sum(1 for r in moved_first if winner_faction(r) == faction), len(moved_first))
    return {"games": games, "draws": draws, "factions": factions, "endings": endings,
            "rounds": spread([r["rounds"] for r in records]), "decisions": spread([r["decisions"] for r in records]),
            "first": first, "first_by_faction": by_faction_first,
            "cards": {faction: card_rows(records, card_set, faction) for faction in card_set.faction_ids}}
