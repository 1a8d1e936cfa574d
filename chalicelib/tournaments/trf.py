"""FIDE's Tournament Report File (TRF-16), written and read, so an organiser can check every Swiss
round with any FIDE-endorsed pairing program, and our own engine can pair the next round of a TRF
file (``make pair TRF=file.trf``: devtools/pair.py).

What is written (one line each, the column layout of TRF-16):

- ``012`` the tournament's name, ``062`` the number of players, ``092`` the format, ``XXR`` the
  number of rounds, ``XXC white1`` (seat 1 is white; the top seed starts with seat 1 as with white);
- a ``001`` line a player: starting rank (the seed) in columns 5-8, name 15-47, points 81-84,
  rank 86-89, then from column 92 ten columns a round: the opponent's starting rank (4 columns),
  the colour (``w`` seat 1, ``b`` seat 2, ``-`` none) and the result: ``1`` ``=`` ``0`` for a
  game, ``+`` / ``-`` for a forfeit won / lost, ``U`` for the pairing-allocated bye, ``Z`` for a
  round a withdrawn player is not paired in (``0000 - U``, ``0000 - Z``).

Results are wins, draws and losses (a Khan & General draw is a draw); Battle Line's match points
are the points column, but a game's result can only say who won: an outside program recomputes
scores from results, so for Battle Line it pairs by wins, not match points (docs/correspondence.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import director
from .pairings import Entrant, Pairing, swiss_round

PLAYED = {"1": 1.0, "=": 0.5, "0": 0.0, "W": 1.0, "D": 0.5, "L": 0.0}
UNPLAYED = {"+": 1.0, "-": 0.0, "U": 1.0, "F": 1.0, "H": 0.5, "Z": 0.0, " ": 0.0}
ABSENT = {"Z", "H", "F"}  # requested byes: the player is not paired in that round


def _points(value: float) -> str:
    return f"{value:4.1f}" if value < 100 else f"{value:4.0f}"


def _cell(opponent: int, colour: str, result: str) -> str:
    return f"{opponent:4d} {colour} {result}" if opponent else f"0000 {colour} {result}"


def write(t: dict, rows: list[dict]) -> str:
    """The tournament (scored as far as it is) as TRF-16 text, lines ending in CRLF."""
    players = t["players"]
    number = {p["player_id"]: (p["seed"] or i) for i, p in enumerate(players, start=1)}
    rank = {r["player_id"]: r["rank"] or 0 for r in rows}
    points = {r["player_id"]: r["points"] for r in rows}
    by_seed = {p["seed"]: p for p in players if p["seed"]}
    cells: dict[int, dict[int, str]] = {number[p["player_id"]]: {} for p in players}
    for p in t["pairings"]:
        first, second, score = p["first"], p["second"], p["points"]
        if second is None:
            cells[first][p["round"]] = _cell(0, "-", "U")
            continue
        for me, other, mine, theirs, colour in ((first, second, 0, 1, "w"), (second, first, 1, 0, "b")):
            if score is None:
                result = " "  # being played
            elif p["forfeit"]:
                result = "+" if score[mine] > score[theirs] else "-"
            else:
                result = "1" if score[mine] > score[theirs] else "0" if score[mine] < score[theirs] else "="
            cells[me][p["round"]] = _cell(other, colour if not p["forfeit"] else "-", result)
    last = t["round"] + (1 if t["status"] == "running" and director.round_complete(t) else 0)
    for seed, entry in by_seed.items():
        if entry["withdrawn"]:
            for r in range(1, min(last, t["rounds"] or last) + 1):
                cells[seed].setdefault(r, _cell(0, "-", "Z"))
    lines = [f"012 {t['name']}", f"062 {len(players)}", "092 Swiss (FIDE Dutch)" if t["format"] == "swiss"
             else f"092 {t['format']}"]
    if t["rounds"]:
        lines.append(f"XXR {t['rounds']}")
    lines.append("XXC white1")
    for p in sorted(players, key=lambda p: number[p["player_id"]]):
        n = number[p["player_id"]]
        head = f"001 {n:4d}  {'':3} {p['name'][:33]:<33} {'':4} {'':3} {'':11} {'':10} " \
               f"{_points(points.get(p['player_id'], 0.0))} {rank.get(p['player_id'], 0):4d}"
        rounds = cells.get(n, {})
        top = max(rounds, default=0)
        body = "".join("  " + rounds.get(r, _cell(0, "-", " ")) for r in range(1, top + 1))
        lines.append((head + body).rstrip())
    return "\r\n".join(lines) + "\r\n"


@dataclass
class Player:
    number: int
    name: str
    points: float
    rounds: dict[int, tuple[int, str, str]] = field(default_factory=dict)  # round: (opponent, colour, result)


@dataclass
class Event:
    players: dict[int, Player]
    rounds: int | None


class TrfError(ValueError):
    pass


def read(text: str) -> Event:
    """A TRF-16 file's players and their rounds (what pairing needs). Raises TrfError."""
    players: dict[int, Player] = {}
    total = None
    for line in text.splitlines():
        if line.startswith("XXR"):
            try:
                total = int(line[3:].split()[0])
            except (ValueError, IndexError):
                raise TrfError(f"XXR needs a number of rounds: {line!r}") from None
        if not line.startswith("001"):
            continue
        try:
            number = int(line[4:8])
            points = float(line[80:84] or 0)
        except ValueError:
            raise TrfError(f"not a TRF-16 player line: {line!r}") from None
        player = Player(number, line[14:47].strip(), points)
        column, r = 91, 1
        while len(line) > column:
            cell = line[column:column + 8].ljust(8)
            opponent = cell[0:4].strip()
            colour, result = cell[5], cell[7]
            if opponent or result.strip():
                if result not in PLAYED and result not in UNPLAYED:
                    raise TrfError(f"player {number}, round {r}: unknown result {result!r}")
                player.rounds[r] = (int(opponent or 0), colour, result)
            column, r = column + 10, r + 1
        players[number] = player
    if not players:
        raise TrfError("no player lines (001) in the file")
    return Event(players, total)


def played_rounds(event: Event) -> int:
    """The rounds with a result: the last round any game, forfeit or pairing-allocated bye has one."""
    return max((r for p in event.players.values() for r, (opp, _, res) in p.rounds.items()
                if res in PLAYED or res in "+-U" and res != " "), default=0)


def entrants(event: Event, number: int, win: float = 1.0) -> list[Entrant]:
    """The players to pair in round ``number`` (those not absent in it: a Z, H or F there) as the
    director describes them before that round: score, seats, opponents, byes and floats."""
    score = {n: 0.0 for n in event.players}
    seats: dict[int, list[int]] = {n: [] for n in event.players}
    met: dict[int, set[int]] = {n: set() for n in event.players}
    had_bye: set[int] = set()
    floats: dict[int, list[int]] = {n: [] for n in event.players}
    for r in range(1, number):
        gained = {}
        now = {n: 0 for n in event.players}
        for n, player in event.players.items():
            opponent, colour, result = player.rounds.get(r, (0, "-", "Z"))
            gained[n] = win * (PLAYED.get(result, UNPLAYED.get(result, 0.0)))
            if opponent and result in PLAYED:  # a forfeit is no game: its players may meet again
                met[n].add(opponent)
            if result in PLAYED and colour in "wb":
                seats[n].append(1 if colour == "w" else 2)
                if score[n] != score[opponent]:
                    now[n] = -1 if score[n] > score[opponent] else 1
            elif result in "+UF":
                had_bye.add(n)
                now[n] = -1
        for n in event.players:
            score[n] += gained[n]
            floats[n].append(now[n])
    absent = {n for n, p in event.players.items() if p.rounds.get(number, (0, "", ""))[2] in ABSENT | {"-"}
              and not p.rounds[number][0]}
    return [Entrant(n, score[n], tuple(seats[n]), frozenset(met[n]), n in had_bye, floats=tuple(floats[n]))
            for n in sorted(event.players) if n not in absent]


def pair(text: str, number: int | None = None) -> list[Pairing]:
    """Round ``number`` of a TRF-16 file (the one after the rounds played when None), paired by
    our Dutch system from the rounds before it alone. Raises TrfError, or NoLegalPairing."""
    event = read(text)
    number = number or played_rounds(event) + 1
    if event.rounds is not None and number > event.rounds:
        raise TrfError(f"all {event.rounds} rounds are played")
    total = event.rounds or number
    return swiss_round(entrants(event, number), final=number == total, max_score=number - 1)


def pairs_text(pairs: list[Pairing]) -> str:
    """As endorsed engines print a round: the number of pairs, then "first second" a line (seat 1
    first, by starting rank), a bye as "N 0"."""
    return "\n".join([str(len(pairs))] + [f"{a} {b or 0}" for a, b in pairs]) + "\n"
