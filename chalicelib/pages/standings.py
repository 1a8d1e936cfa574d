"""A tournament's standings and crosstable as people read them: a CSV file for a spreadsheet
(``getStandings?format=csv``) and a page for a browser (``getStandingsPage``), both drawn from
getStandings' answer (:meth:`chalicelib.services.tournaments.Tournaments.standings`).

One cell text for both (docs/correspondence.md): a pairing's points ("5", "2.5"); ``F`` after a
forfeit's ("5F", "0F"); an annulled one in parentheses ("(5)"); empty while it is played. A round
robin has a column for each opponent, by rank (a double round robin's two results in one cell,
"5 2"); a Swiss or elimination table a column for each round, the points then the opponent's rank
and the player's seat ("5 v3 s1"), or "bye"; the file splits a round into three columns that say it
("R1 points", "R1 opponent rank", "R1 seat"). Players tied on everything are in seed order: both say
so. The page links each finished game's replay."""

from __future__ import annotations

import csv
import io

from ..games.presenters import PRESENTERS, seat_name
from ..kernel.i18n import _
from ..tournaments.told import FORMATS, TIE_BREAKS, number, short
from ..presenting.links import standings_csv_path
from .page import Download, Page

ROUND_ROBINS = ("round_robin", "double_round_robin")
def result_text(entry: dict, bye: str = "bye") -> str:
    """One pairing's result as the cell shows it, from the player's side."""
    if entry["outcome"] == "bye":
        return bye
    text = number(entry["points"])
    if text and entry["forfeit"]:
        text += "F"
    if text and entry["annulled"]:
        text = f"({text})"
    return text


def columns(standings: dict) -> list[str]:
    """The crosstable's column titles: each opponent's rank (round robin), or each round ("R1")."""
    if standings["format"] in ROUND_ROBINS:
        return [str(row["rank"]) for row in standings["crosstable"]]
    played = max((e["round"] for row in standings["crosstable"] for e in row["results"]), default=0)
    return [f"R{n}" for n in range(1, played + 1)]


def cells(standings: dict, row: dict, bye: str = "bye") -> list[dict]:
    """A crosstable row's cells under ``columns``: each ``{"text", "entries"}``; the player's own
    column in a round robin is ``{"self": True}``. ``bye``: the word for a bye (the page's is
    translated; the file's is always "bye")."""
    if standings["format"] in ROUND_ROBINS:
        found = []
        for other in standings["crosstable"]:
            if other["seed"] == row["seed"]:
                found.append({"self": True, "text": "", "entries": []})
                continue
            met = [e for e in row["results"] if e["opponent_seed"] == other["seed"]]
            found.append({"self": False, "text": " ".join(result_text(e) for e in met), "entries": met})
        return found
    by_round = {e["round"]: e for e in row["results"]}
    found = []
    for title in columns(standings):
        entry = by_round.get(int(title[1:]))
        if entry is None:
            text = ""
        elif entry["outcome"] == "bye":
            text = " ".join(part for part in (number(entry["points"]) if entry["points"] else "", bye) if part)
        else:
            text = " ".join(part for part in (result_text(entry), f"v{entry['opponent_rank']}",
                                              f"s{entry['seat']}") if part)
        found.append({"self": False, "text": text, "entries": [entry] if entry else []})
    return found


SEED_COLUMN = "seed (last tie-break)"  # the CSV's seed column: players tied on everything else are in seed order


def csv_columns(standings: dict) -> list[str]:
    """The CSV's crosstable titles, saying what their cells hold (the page has a legend, a file has
    none): a round robin's column per opponent ("vs rank 2"); a Swiss or elimination table's three
    per round ("R1 points", "R1 opponent rank": "bye" for a bye, "R1 seat")."""
    if standings["format"] in ROUND_ROBINS:
        return [f"vs rank {title}" for title in columns(standings)]
    return [f"{title} {part}" for title in columns(standings) for part in ("points", "opponent rank", "seat")]


def csv_cells(standings: dict, row: dict) -> list[str]:
    """A crosstable row's cells under ``csv_columns``."""
    if standings["format"] in ROUND_ROBINS:
        return [cell["text"] for cell in cells(standings, row)]
    by_round = {e["round"]: e for e in row["results"]}
    found: list[str] = []
    for title in columns(standings):
        entry = by_round.get(int(title[1:]))
        if entry is None:
            found += ["", "", ""]
        elif entry["outcome"] == "bye":
            found += [number(entry["points"]) if entry["points"] else "", "bye", ""]
        else:
            found += [result_text(entry), str(entry["opponent_rank"] or ""), str(entry["seat"])]
    return found


def csv_file(standings: dict) -> Download:
    """RFC 4180: CRLF line ends, fields with a comma, quote or line end in double quotes (a quote
    doubled), UTF-8. A header row, then a row per player in rank order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    order = standings["tie_break_order"]
    writer.writerow(["rank", SEED_COLUMN, "name", "points", *order, "withdrawn", "annulled",
                     *csv_columns(standings)])
    by_seed = {row["seed"]: row for row in standings["crosstable"]}
    for row in standings["standings"]:
        crossed = by_seed.get(row["seed"])
        writer.writerow([row["rank"] if row["rank"] is not None else "", row["seed"] if row["seed"] else "",
                         row["name"], number(row["points"]), *(number(row["tie_breaks"][name]) for name in order),
                         "yes" if row["withdrawn"] else "", "yes" if row.get("annulled") else "",
                         *(csv_cells(standings, crossed) if crossed else [])])
    return Download(out.getvalue(), "text/csv", f"standings-{standings['tournament_id']}.csv",
                    parameters="header=present")


def _describe(entry: dict, names: dict[int, str]) -> str:
    """A cell's tooltip: the round, the opponent and what happened."""
    if entry["outcome"] == "bye":
        return _("Round {round}: a bye").format(round=entry["round"])
    opponent = names.get(entry["opponent_seed"], "?")
    if entry["outcome"] == "pending":
        return _("Round {round}: against {name}, being played").format(round=entry["round"], name=opponent)
    text = _("Round {round}: against {name}, seat {seat}, {points} to {other}").format(
        round=entry["round"], name=opponent, seat=entry["seat"], points=number(entry["points"]),
        other=number(entry["opponent_points"]))
    if entry["annulled"]:
        text += " " + _("(annulled)")
    elif entry["forfeit"]:
        text += " " + _("(forfeit)")
    return text


def game_links(entries: list[dict]) -> list[str]:
    """The replay pages of a cell's finished games (anyone may replay a finished tournament game;
    one still played is its seats' own)."""
    return [f"/v1/games/{game_id}/board/replay" for e in entries if e["outcome"] not in ("pending", "bye")
            for game_id in e.get("game_ids", [])]


def standings_page(standings: dict) -> Page:
    """The standings and the crosstable, for a phone or a desktop."""
    names = {row["seed"]: seat_name(row) for row in standings["crosstable"]}
    rows = []
    by_seed = {row["seed"]: row for row in standings["crosstable"]}
    for row in standings["standings"]:
        crossed = by_seed.get(row["seed"])
        rows.append({**row, "name": seat_name(row), "cells": [{**cell, "title": " · ".join(_describe(e, names) for e in cell["entries"]),
                                       "links": game_links(cell["entries"])}
                                      for cell in (cells(standings, crossed, _("bye")) if crossed else [])]})
    status = {"open": _("Open for entries"), "running": _("Round {round} of {rounds}").format(
        round=standings["round"], rounds=standings["rounds"]), "finished": _("Finished")}[standings["status"]]
    order = [{"name": name, "short": TIE_BREAKS[name][0], "title": _(TIE_BREAKS[name][1])}
             for name in standings["tie_break_order"]]
    kind = FORMATS[standings["format"]]
    return Page(200, standings["name"], _("{format}: {status}").format(format=_(kind), status=status),
                template="standings.html",
        data={"rows": rows, "order": order, "columns": columns(standings),
              "round_robin": standings["format"] in ROUND_ROBINS, "number": number, "short": short,
              "scoring": _(scoring) if (scoring := PRESENTERS[standings["game"]].scoring) else "",
              "csv_url": standings_csv_path(standings["tournament_id"])})
