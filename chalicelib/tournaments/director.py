"""The tournament director: pure functions on a tournament's plain data (no I/O).

Formats: ``round_robin`` (Berger tables), ``double_round_robin`` (the tables twice, colours
swapped), ``swiss`` (N rounds, no repeat pairings, one bye a player at most while possible)
and ``single_elimination`` (a seeded bracket; top seeds get the byes).

Players are numbered by seed (1 = best rating at the start). A pairing's ``points`` are the
tournament points of each side, set when its games are over; the service creates the games.
Decisions (docs/rules.md):

* A bye scores nothing in a round robin (everyone gets one) and a won forfeit in Swiss.
* A pairing with a withdrawn player is a forfeit: the other side scores a won forfeit; but a
  round-robin player who withdrew having played fewer than half of their games has every game
  annulled (FIDE): none of their pairings counts, for anyone (``annulled``).
* A drawn elimination match sends the higher seed through.
* Swiss ends early when no pairing without a repeat exists.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from . import pairings as pairing_rules
from . import standings as standings_rules
from .standings import Result
from ..kernel.i18n import _

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
                   games_per_pairing: int = 1, withdraw_on_timeout: bool = True) -> Tournament:
    """``match_games``: games a pairing plays; ``games_per_pairing``: how many game records that makes
    (1 when the game plays its matches itself, as Battle Line does)."""
    return {"id": tid, "name": name, "game": game, "format": format, "rounds": rounds, "options": options,
            "match_games": match_games, "games_per_pairing": games_per_pairing, "duplicate": duplicate, "rated": rated,
            "withdraw_on_timeout": withdraw_on_timeout, "max_players": max_players, "forfeit_points": forfeit_points,
            "status": "open", "organiser": organiser, "created_at": created_at, "seed": seed,
            "round": 0, "players": [], "schedule": None, "pairings": []}


def join(t: Tournament, player_id: str, name: str, bot_account: bool = False) -> None:
    if t["status"] != "open":
        raise TournamentRefused("tournament_started", _("the tournament has started; entries are closed"))
    if any(p["player_id"] == player_id for p in t["players"]):
        raise TournamentRefused("already_entered", _("you are in this tournament already"))
    if t["max_players"] and len(t["players"]) >= t["max_players"]:
        raise TournamentRefused("tournament_full", _("the tournament is full ({max_players} players)").format(
                                                     max_players=t['max_players']))
    t["players"].append({"player_id": player_id, "name": name, "seed": None, "withdrawn": False,
                         **({"bot_account": True} if bot_account else {})})


def bot_mark(entry: dict) -> dict:
    """``{"bot_account": True}`` for an entrant who is a bot account (entered as one), else nothing:
    to spread into whatever shows the entrant."""
    return {"bot_account": True} if entry.get("bot_account") else {}


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
        # at most the rounds in which no pairing repeats (n - 1 for an even n; n, with a bye each, for an odd n):
        # a Swiss asked for more is cut to that at its start, and says what was asked (``rounds_asked``)
        asked = t["rounds"] or math.ceil(math.log2(n))
        t["rounds"] = min(asked, n - 1 + (n % 2))
        if t["rounds"] < asked:
            t["rounds_asked"] = asked
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
        return pairing_rules.swiss_round(swiss_entrants(t), final=number == t["rounds"],
                                         max_score=t["forfeit_points"] * (number - 1))
    except pairing_rules.NoLegalPairing:
        # Every pairing would break an absolute criterion (a repeat, a second bye, two players who
        # must both have one seat): the event ends here and says so, rather than break one silently.
        t["stopped"] = {"round": number, "reason": "no_legal_pairing"}
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
    Dutch system needs: seats, opponents (of games played: a forfeit is no game, and its two
    players may meet again, as FIDE-endorsed engines pair them), byes (and wins without playing:
    C.2 bars either from another bye), and every round's float (C.04.3 1.4: down for the higher score of a pair of
    different scores, for a bye and for a win without playing; up for the lower score)."""
    score = totals(t)
    seats = seat_history(t)
    met: dict[int, set[int]] = {seed: set() for seed in score}
    had_bye: set[int] = set()
    floats: dict[int, list[int]] = {seed: [] for seed in score}
    running = {seed: 0.0 for seed in score}
    for number in range(1, t["round"] + 1):
        played = [p for p in t["pairings"] if p["round"] == number]
        now = {seed: 0 for seed in score}
        for p in played:
            first, second = p["first"], p["second"]
            if second is None:
                had_bye.add(first)
                now[first] = -1
                continue
            if not p["forfeit"]:  # a game not played does not bar a rematch (C.04.1 b: "play against")
                met[first].add(second)
                met[second].add(first)
            if p["forfeit"]:
                for seed, points, other in ((first, 0, 1), (second, 1, 0)):
                    if p["points"] is not None and p["points"][points] > p["points"][other]:
                        had_bye.add(seed)
                        now[seed] = -1
            elif running[first] != running[second]:
                high, low = (first, second) if running[first] > running[second] else (second, first)
                now[high], now[low] = -1, 1
        for p in played:
            if p["points"] is not None:
                running[p["first"]] += p["points"][0]
                if p["second"] is not None:
                    running[p["second"]] += p["points"][1]
        for seed in score:
            floats[seed].append(now[seed])
    active = sorted((p["seed"] for p in t["players"] if not p["withdrawn"]), key=lambda s: (-score[s], s))
    return [pairing_rules.Entrant(s, score[s], tuple(seats[s]), frozenset(met[s]), s in had_bye,
                                  floats=tuple(floats[s])) for s in active]


def winner(pairing: dict) -> int:
    """Who goes through in elimination: more points; a tie sends the higher seed through."""
    first, second = pairing["first"], pairing["second"]
    if second is None:
        return first
    a, b = pairing["points"]
    if a != b:
        return first if a > b else second
    return min(first, second)


def annulled(t: Tournament) -> set[int]:
    """The seeds whose games are annulled (FIDE's rule for a round robin): a player who withdrew
    having played fewer than half of their games. Played means played out, not a forfeit (nor the
    game lost by withdrawing). With half or more played, their games stand and the rest are forfeits."""
    if t["format"] not in ("round_robin", "double_round_robin") or t["status"] == "open":
        return set()
    games = (len(t["players"]) - 1) * (2 if t["format"] == "double_round_robin" else 1)
    gone = set()
    for entry in t["players"]:
        if not entry["withdrawn"]:
            continue
        seed = entry["seed"]
        played = sum(1 for p in t["pairings"] if p["second"] is not None and seed in (p["first"], p["second"])
                     and p["points"] is not None and not p["forfeit"])
        if 2 * played < games:
            gone.add(seed)
    return gone


def results(t: Tournament) -> list[Result]:
    """The scored pairings that count: none of an annulled player's."""
    gone = annulled(t)
    return [Result(p["first"], p["second"], *p["points"], flags=tuple(p["flags"]) if p.get("flags") else None)
            for p in t["pairings"] if p["points"] is not None and not {p["first"], p["second"]} & gone]


def totals(t: Tournament) -> dict[int, float]:
    score = {p["seed"]: 0.0 for p in t["players"]}
    for p in t["pairings"]:
        if p["points"] is None:
            continue
        score[p["first"]] += p["points"][0]
        if p["second"] is not None:
            score[p["second"]] += p["points"][1]
    return score


def tie_break_order(t: Tournament) -> list[str]:
    return standings_rules.tie_break_order(t["format"], t["game"])


def standing_rows(t: Tournament) -> list[dict]:
    """Rank, points and every tie-break of the format's order (``tie_break_order``), by name;
    ``tie_break`` is the first one's value. In elimination, the round reached, then the seed."""
    order = tie_break_order(t)
    if t["status"] == "open":
        return [{"rank": None, "player_id": p["player_id"], "name": p["name"], "seed": None, "points": 0.0,
                 "tie_break": 0.0, "tie_breaks": {name: 0.0 for name in order}, "withdrawn": False,
                 "annulled": False, **bot_mark(p)} for p in t["players"]]
    by_seed = {p["seed"]: p for p in t["players"]}
    gone = annulled(t)
    if t["format"] == "single_elimination":
        reached = {seed: 0 for seed in by_seed}
        for p in t["pairings"]:
            reached[p["first"]] = max(reached[p["first"]], p["round"])
            if p["second"] is not None:
                reached[p["second"]] = max(reached[p["second"]], p["round"])
            if p["points"] is not None and p["round"] == t["rounds"]:
                reached[winner(p)] = t["rounds"] + 1  # the champion
        score = totals(t)
        rows = [(s, score[s], {"round_reached": float(reached[s])})
                for s in sorted(by_seed, key=lambda s: (-reached[s], s))]
    else:
        rows = [(s.player, s.points, s.tie_breaks)
                for s in standings_rules.standings(sorted(by_seed), results(t), order=order,
                                                   bye_points=bye_points(t))]
    return [{"rank": rank, "player_id": by_seed[s]["player_id"], "name": by_seed[s]["name"], "seed": s,
             "points": points, "tie_break": round(next(iter(tbs.values())), 3),
             "tie_breaks": {name: round(value, 3) for name, value in tbs.items()},
             "withdrawn": by_seed[s]["withdrawn"], "annulled": s in gone, **bot_mark(by_seed[s])}
            for rank, (s, points, tbs) in enumerate(rows, start=1)]


def crosstable(t: Tournament, rows: list[dict]) -> list[dict]:
    """Each player in rank order with every pairing of theirs, round by round: the opponent (by
    rank and seed; none for a bye), the seat they took in the pairing's first game, both sides'
    points (None while it is played), whether it was a forfeit or is annulled, and its games."""
    if t["status"] == "open":
        return []
    rank_of = {r["seed"]: r["rank"] for r in rows}
    gone = annulled(t)
    table = []
    for row in rows:
        seed = row["seed"]
        entries = []
        for p in sorted(t["pairings"], key=lambda p: (p["round"], p["board"])):
            if seed not in (p["first"], p["second"]):
                continue
            first = p["first"] == seed
            opponent = p["second"] if first else p["first"]
            mine, theirs = (p["points"] if first else p["points"][::-1]) if p["points"] is not None else (None, None)
            entries.append({
                "round": p["round"], "board": p["board"], "opponent_seed": opponent,
                "opponent_rank": rank_of.get(opponent) if opponent is not None else None,
                "seat": 1 if first else 2, "points": mine,
                "opponent_points": theirs if opponent is not None else None,
                "outcome": _outcome(mine, theirs, opponent), "forfeit": p["forfeit"],
                "annulled": opponent is not None and bool({seed, opponent} & gone),
                "game_ids": list(p["games"]),
            })
        table.append({"rank": row["rank"], "seed": seed, "player_id": row["player_id"], "name": row["name"],
                      "results": entries, **bot_mark(row)})
    return table


def _outcome(mine: float | None, theirs: float | None, opponent: int | None) -> str:
    if opponent is None:
        return "bye"
    if mine is None:
        return "pending"
    return "win" if mine > theirs else "loss" if mine < theirs else "draw"


def board_seed(t: Tournament, number: int, board: int) -> int:
    """Each board's deal: with ``duplicate``, every board of a round deals the same cards."""
    text = f"{t['seed']}:{number}" if t["duplicate"] else f"{t['seed']}:{number}:{board}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
