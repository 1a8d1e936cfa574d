"""The tournament director: pure functions on a tournament's plain data (no I/O).

Formats: ``round_robin`` (Berger tables), ``double_round_robin`` (the tables twice, colours
swapped), ``swiss`` (N rounds, no repeat pairings, one bye a player at most while possible)
and ``single_elimination`` (a seeded bracket; top seeds get the byes).

Players are numbered by seed (1 = best rating at the start). A pairing's ``points`` are the
tournament points of each side, set when its games are over; the service creates the games.
Decisions (docs/rules.md):

* A bye scores nothing in a round robin (everyone gets one) and a won forfeit in Swiss.
* A pairing with a withdrawn player is a forfeit: the other side scores a won forfeit.
* A drawn elimination match sends the higher seed through.
* Swiss ends early when no pairing without a repeat exists.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from . import pairings as pairing_rules
from .standings import Result, standings
from ..i18n import _

FORMATS = ("round_robin", "double_round_robin", "swiss", "single_elimination")
Tournament = dict[str, Any]


class TournamentRefused(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def new_tournament(tid: str, name: str, game: str, format: str, options: dict, *, organiser: str, created_at: str,
                   seed: int, rounds: int | None = None, duplicate: bool = False, rated: bool = True,
                   max_players: int | None = None, forfeit_points: float = 1.0, match_games: int = 1,
                   games_per_pairing: int = 1) -> Tournament:
    """``match_games``: games a pairing plays; ``games_per_pairing``: how many game records that makes
    (1 when the game plays its matches itself, as Battle Line does)."""
    return {"id": tid, "name": name, "game": game, "format": format, "rounds": rounds, "options": options,
            "match_games": match_games, "games_per_pairing": games_per_pairing, "duplicate": duplicate, "rated": rated, "max_players": max_players, "forfeit_points": forfeit_points,
            "status": "open", "organiser": organiser, "created_at": created_at, "seed": seed,
            "round": 0, "players": [], "schedule": None, "pairings": []}


def join(t: Tournament, player_id: str, name: str) -> None:
    if t["status"] != "open":
        raise TournamentRefused("tournament_started", _("the tournament has started; entries are closed"))
    if any(p["player_id"] == player_id for p in t["players"]):
        raise TournamentRefused("already_entered", _("you are in this tournament already"))
    if t["max_players"] and len(t["players"]) >= t["max_players"]:
        raise TournamentRefused("tournament_full", _("the tournament is full ({max_players} players)").format(
                                                     max_players=t['max_players']))
    t["players"].append({"player_id": player_id, "name": name, "seed": None, "withdrawn": False})


def withdraw(t: Tournament, player_id: str) -> list[str]:
    """Take the player out. Before the start, the entry is removed; after it, the player's
    remaining pairings are forfeits. Returns the ids of the player's games still being played."""
    entry = next((p for p in t["players"] if p["player_id"] == player_id and not p["withdrawn"]), None)
    if entry is None:
        raise TournamentRefused("not_entered", _("you are not (or no longer) in this tournament"))
    if t["status"] == "finished":
        raise TournamentRefused("tournament_finished", _("the tournament is over"))
    if t["status"] == "open":
        t["players"].remove(entry)
        return []
    entry["withdrawn"] = True
    seed = entry["seed"]
    return [g for p in current_pairings(t) if p["points"] is None and seed in (p["first"], p["second"])
            for g in p["games"]]


def start(t: Tournament, ratings: dict[str, float]) -> list[dict]:
    """Seed the players (best rating first, then order of entry) and pair round one."""
    if t["status"] != "open":
        raise TournamentRefused("tournament_started", _("the tournament has started already"))
    n = len(t["players"])
    if n < 2:
        raise TournamentRefused("too_few_players", _("a tournament needs at least 2 players"))
    order = sorted(range(n), key=lambda i: (-ratings.get(t["players"][i]["player_id"], 1500.0), i))
    for seed, index in enumerate(order, start=1):
        t["players"][index]["seed"] = seed
    t["players"].sort(key=lambda p: p["seed"])
    fmt = t["format"]
    if fmt == "round_robin":
        t["schedule"] = [[list(p) for p in rnd] for rnd in pairing_rules.berger_round_robin(n)]
    elif fmt == "double_round_robin":
        t["schedule"] = [[list(p) for p in rnd] for rnd in pairing_rules.double_round_robin(n)]
    if fmt in ("round_robin", "double_round_robin"):
        t["rounds"] = len(t["schedule"])
    elif fmt == "single_elimination":
        t["rounds"] = max(1, math.ceil(math.log2(n)))
    else:
        t["rounds"] = min(t["rounds"] or math.ceil(math.log2(n)), n - 1 + (n % 2))
    t["status"] = "running"
    return next_round(t)


def current_pairings(t: Tournament) -> list[dict]:
    return [p for p in t["pairings"] if p["round"] == t["round"]]


def round_complete(t: Tournament) -> bool:
    return t["status"] == "running" and all(p["points"] is not None for p in current_pairings(t))


def next_round(t: Tournament) -> list[dict]:
    """Pair the next round (or finish the tournament). Returns the pairings whose games must be
    created; byes and forfeits are scored at once."""
    if t["round"] >= t["rounds"]:
        t["status"] = "finished"
        return []
    number = t["round"] + 1
    pairs = _pairs_for(t, number)
    if pairs is None:
        t["status"] = "finished"  # Swiss: no pairing without a repeat is left
        return []
    t["round"] = number
    created = []
    for board, (first, second) in enumerate(pairs, start=1):
        pairing = {"round": number, "board": board, "first": first, "second": second, "games": [], "points": None,
                   "forfeit": False}
        if second is None:
            pairing["points"] = [bye_points(t), 0.0]
        elif _withdrawn(t, first) or _withdrawn(t, second):
            pairing["forfeit"] = True
            pairing["points"] = [0.0 if _withdrawn(t, first) else t["forfeit_points"],
                                 0.0 if _withdrawn(t, second) else t["forfeit_points"]]
        else:
            created.append(pairing)
        t["pairings"].append(pairing)
    return created


def bye_points(t: Tournament) -> float:
    return t["forfeit_points"] if t["format"] == "swiss" else 0.0


def _withdrawn(t: Tournament, seed: int) -> bool:
    return t["players"][seed - 1]["withdrawn"]


def _pairs_for(t: Tournament, number: int) -> list[tuple[int, int | None]] | None:
    fmt = t["format"]
    if fmt in ("round_robin", "double_round_robin"):
        return [(a, b) for a, b in t["schedule"][number - 1]]  # Berger tables alternate the seats already
    if fmt == "single_elimination":
        if number == 1:
            pairs = pairing_rules.elimination_first_round(len(t["players"]))
        else:
            winners = [winner(p) for p in t["pairings"] if p["round"] == number - 1]
            if len(winners) < 2:
                return None
            pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
        return pairing_rules.allocate_seats(pairs, seat_history(t), {p["seed"]: p["seed"] for p in t["players"]})
    try:
        return pairing_rules.swiss_round(swiss_entrants(t), rounds_left=t["rounds"] - number + 1)
    except ValueError:
        return None


def seat_history(t: Tournament) -> dict[int, list[int]]:
    """Each player's seats so far, oldest first: a pairing's ``first`` had seat 1 (of its first
    game). Byes and forfeits hold no seat."""
    seats: dict[int, list[int]] = {p["seed"]: [] for p in t["players"]}
    for p in sorted(t["pairings"], key=lambda p: p["round"]):
        if p["second"] is not None and not p["forfeit"]:
            seats[p["first"]].append(1)
            seats[p["second"]].append(2)
    return seats


def swiss_entrants(t: Tournament) -> list[pairing_rules.Entrant]:
    """The active players before the next Swiss round, best first (score, then seed), with what the
    Dutch system needs: seats, opponents, byes, and who floated down last round (met a lower
    score, or had the bye)."""
    score = totals(t)
    seats = seat_history(t)
    met: dict[int, set[int]] = {seed: set() for seed in score}
    had_bye: set[int] = set()
    for p in t["pairings"]:
        if p["second"] is None:
            had_bye.add(p["first"])
        else:
            met[p["first"]].add(p["second"])
            met[p["second"]].add(p["first"])
    last = [p for p in t["pairings"] if p["round"] == t["round"]]
    before = dict(score)
    for p in last:
        if p["points"] is not None:
            before[p["first"]] -= p["points"][0]
            if p["second"] is not None:
                before[p["second"]] -= p["points"][1]
    down = {p["first"] for p in last if p["second"] is None}
    down |= {a for p in last if p["second"] is not None for a, b in ((p["first"], p["second"]), (p["second"], p["first"]))
             if before[a] > before[b]}
    active = sorted((p["seed"] for p in t["players"] if not p["withdrawn"]), key=lambda s: (-score[s], s))
    return [pairing_rules.Entrant(s, score[s], tuple(seats[s]), frozenset(met[s]), s in had_bye, s in down)
            for s in active]


def winner(pairing: dict) -> int:
    """Who goes through in elimination: more points; a tie sends the higher seed through."""
    first, second = pairing["first"], pairing["second"]
    if second is None:
        return first
    a, b = pairing["points"]
    if a != b:
        return first if a > b else second
    return min(first, second)


def results(t: Tournament) -> list[Result]:
    return [Result(p["first"], p["second"], *p["points"]) for p in t["pairings"] if p["points"] is not None]


def totals(t: Tournament) -> dict[int, float]:
    score = {p["seed"]: 0.0 for p in t["players"]}
    for p in t["pairings"]:
        if p["points"] is None:
            continue
        score[p["first"]] += p["points"][0]
        if p["second"] is not None:
            score[p["second"]] += p["points"][1]
    return score


def standing_rows(t: Tournament) -> list[dict]:
    """Rank, points and tie-break: Sonneborn-Berger for round robins, Buchholz for Swiss; in
    elimination, the round reached, then the seed."""
    if t["status"] == "open":
        return [{"rank": None, "player_id": p["player_id"], "name": p["name"], "seed": None, "points": 0.0,
                 "tie_break": 0.0, "withdrawn": False} for p in t["players"]]
    by_seed = {p["seed"]: p for p in t["players"]}
    if t["format"] == "single_elimination":
        reached = {seed: 0 for seed in by_seed}
        for p in t["pairings"]:
            reached[p["first"]] = max(reached[p["first"]], p["round"])
            if p["second"] is not None:
                reached[p["second"]] = max(reached[p["second"]], p["round"])
            if p["points"] is not None and p["round"] == t["rounds"]:
                reached[winner(p)] = t["rounds"] + 1  # the champion
        score = totals(t)
        order = sorted(by_seed, key=lambda s: (-reached[s], s))
        rows = [(s, score[s], float(reached[s])) for s in order]
    else:
        tie_break = "buchholz" if t["format"] == "swiss" else "sonneborn_berger"
        rows = [(s.player, s.points, s.tie_break)
                for s in standings(sorted(by_seed), results(t), tie_break=tie_break, bye_points=bye_points(t))]
    return [{"rank": rank, "player_id": by_seed[s]["player_id"], "name": by_seed[s]["name"], "seed": s,
             "points": points, "tie_break": round(tb, 3), "withdrawn": by_seed[s]["withdrawn"]}
            for rank, (s, points, tb) in enumerate(rows, start=1)]


def board_seed(t: Tournament, number: int, board: int) -> int:
    """Each board's deal: with ``duplicate``, every board of a round deals the same cards."""
    text = f"{t['seed']}:{number}" if t["duplicate"] else f"{t['seed']}:{number}:{board}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
