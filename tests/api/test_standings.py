"""Standings people can use: every tie-break by name, the crosstable, the CSV file and the page."""

from __future__ import annotations

import csv
import io
from urllib.parse import urlsplit

from .test_tournaments import create, get, join, resign, start

ODD_NAME = 'Smith, "Ace" Jr.'


def round_robin_played(api, services, names=("Ann", "Bob", "Cat", "Dan"), **settings):
    """A round robin played through: in every pairing the player entered first wins (by resignation)."""
    players = [api.signup(n) for n in names]
    by_id = {p["id"]: p for p in players}
    entered = [p["id"] for p in players]
    t = create(api, players[0], **settings)
    join(api, t, *players)
    t = start(api, players[0], t)
    while t["status"] == "running":
        for p in [p for p in t["pairings"] if p["round"] == t["round"] and p["points"] is None and p["second"]]:
            a, b = p["first"]["player_id"], p["second"]["player_id"]
            loser = b if entered.index(a) < entered.index(b) else a
            for game_id in p["game_ids"]:
                resign(api, services, by_id[loser], game_id)
        t = get(api, t)
    return t, players


def test_standings_carry_a_crosstable_with_each_pairing_by_opponent_rank(api, services):
    t, _ = round_robin_played(api, services)
    body = api.get(f"/v1/tournaments/{t['id']}/standings").body
    assert [r["name"] for r in body["standings"]] == ["Ann", "Bob", "Cat", "Dan"]
    assert [r["name"] for r in body["crosstable"]] == ["Ann", "Bob", "Cat", "Dan"]
    ann = body["crosstable"][0]
    assert sorted(e["opponent_rank"] for e in ann["results"]) == [2, 3, 4]
    assert all(e["points"] == 5.0 and e["opponent_points"] == 0.0 and e["outcome"] == "win" for e in ann["results"])
    dan = body["crosstable"][3]
    assert all(e["outcome"] == "loss" and not e["forfeit"] and not e["annulled"] for e in dan["results"])
    # Each pairing's seat in its first game: the two sides of a pairing took different seats.
    assert {(e["round"], e["seat"]) for e in ann["results"]} | {(e["round"], e["seat"]) for e in dan["results"]
                                                                if e["opponent_rank"] == 1} == \
        {(e["round"], e["seat"]) for e in ann["results"]} | {(e["round"], 3 - e["seat"]) for e in ann["results"]
                                                             if e["opponent_rank"] == 4}
    assert body["html_url"].endswith(f"/v1/tournaments/{t['id']}/standings/page")


def test_double_round_robin_crosstable_has_two_results_per_opponent(api, services):
    t, _ = round_robin_played(api, services, names=("Ann", "Bob", "Cat"), format="double_round_robin")
    body = api.get(f"/v1/tournaments/{t['id']}/standings").body
    bob = body["crosstable"][1]
    against_ann = [e for e in bob["results"] if e["opponent_rank"] == 1]
    assert len(against_ann) == 2 and sorted(e["seat"] for e in against_ann) == [1, 2]
    rows = list(csv.reader(io.StringIO(api.get(f"/v1/tournaments/{t['id']}/standings?format=csv").body)))
    assert rows[0][-3:] == ["vs rank 1", "vs rank 2", "vs rank 3"] and rows[2][-3:] == ["0 0", "", "5 5"]  # Bob: lost to Ann twice


def test_standings_csv_is_rfc_4180_with_a_file_name(api, services):
    t, _ = round_robin_played(api, services, names=(ODD_NAME, "王芳", "Bob"))
    reply = api.get(f"/v1/tournaments/{t['id']}/standings?format=csv")
    assert reply.status == 200
    assert reply.headers["content-type"] == "text/csv; charset=utf-8; header=present"
    assert reply.headers["content-disposition"] == f'attachment; filename="standings-{t["id"]}.csv"'
    text = reply.body
    assert '"Smith, ""Ace"" Jr."' in text and "王芳" in text  # a quote doubled inside quotes; UTF-8
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    rows = list(csv.reader(io.StringIO(text)))
    order = ["direct_encounter", "wins", "sonneborn_berger", "flags_won"]
    assert rows[0] == ["rank", "seed (last tie-break)", "name", "points", *order, "withdrawn", "annulled",
                       "vs rank 1", "vs rank 2", "vs rank 3"]
    assert [r[2] for r in rows[1:]] == [ODD_NAME, "王芳", "Bob"]
    assert rows[1][3] == "10" and rows[1][4:8] == ["0", "2", "5", "0"]  # ten points, two wins, SB: 王芳's 5
    assert rows[1][-3:] == ["", "5", "5"] and rows[3][-3:] == ["0", "0", ""]


def test_standings_csv_of_a_swiss_has_a_column_per_round(api, services):
    players = [api.signup(n) for n in ("Ann", "Bob", "Cat")]
    by_id = {p["id"]: p for p in players}
    t = create(api, players[0], format="swiss", rounds=2)
    join(api, t, *players)
    t = start(api, players[0], t)
    while t["status"] == "running":
        for p in [p for p in t["pairings"] if p["round"] == t["round"] and p["points"] is None]:
            resign(api, services, by_id[p["second"]["player_id"]], p["game_ids"][0])
        t = get(api, t)
    body = api.get(f"/v1/tournaments/{t['id']}/standings").body
    assert body["tie_break_order"] == ["buchholz_cut_1", "buchholz", "sonneborn_berger", "wins", "flags_won"]
    rows = list(csv.reader(io.StringIO(api.get(f"/v1/tournaments/{t['id']}/standings?format=csv").body)))
    assert rows[0][-6:] == ["R1 points", "R1 opponent rank", "R1 seat", "R2 points", "R2 opponent rank", "R2 seat"]
    rounds = [row[-6:][n:n + 3] for row in rows[1:] for n in (0, 3)]
    assert sum(opponent == "bye" for _points, opponent, _seat in rounds) == 2  # three players: a bye each round
    played = [cells for cells in rounds if cells[1] != "bye"]
    assert len(played) == 4 and all(points in ("5", "0") and opponent in ("1", "2", "3") and seat in ("1", "2")
                                    for points, opponent, seat in played)


def test_standings_page_shows_the_crosstable_from_the_link(api, services):
    t, _ = round_robin_played(api, services, names=(ODD_NAME, "王芳", "Bob"))
    url = api.get(f"/v1/tournaments/{t['id']}/standings").body["html_url"]
    page = api.get(urlsplit(url).path, headers={"Accept": "text/html"})
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    html = page.body
    assert "Smith, &#34;Ace&#34; Jr." in html and "王芳" in html  # escaped, in UTF-8
    assert "Crosstable" in html and ">DE<" in html and ">SB<" in html and ">FL<" in html
    assert f"/v1/tournaments/{t['id']}/standings?format=csv" in html
    chinese = api.get(f"/v1/tournaments/{t['id']}/standings/page", headers={"Accept": "text/html",
                                                                            "Accept-Language": "zh-Hans"})
    assert chinese.headers["content-language"] == "zh-Hans" and "Crosstable" not in chinese.body


def test_standings_page_of_an_unknown_tournament_is_a_404_page(api):
    page = api.get("/v1/tournaments/t_nothing/standings/page", headers={"Accept": "text/html"})
    assert page.status == 404 and page.headers["content-type"].startswith("text/html")
    assert api.get("/v1/tournaments/t_nothing/standings/page").body["code"] == "tournament_not_found"


def test_standings_of_an_open_tournament_list_the_entries_in_every_form(api):
    ann, bob = api.signup("Ann"), api.signup("Bob")
    t = create(api, ann, format="swiss")
    join(api, t, ann, bob)
    body = api.get(f"/v1/tournaments/{t['id']}/standings").body
    assert body["crosstable"] == [] and [r["name"] for r in body["standings"]] == ["Ann", "Bob"]
    rows = list(csv.reader(io.StringIO(api.get(f"/v1/tournaments/{t['id']}/standings?format=csv").body)))
    assert [r[2] for r in rows[1:]] == ["Ann", "Bob"] and rows[1][:2] == ["", ""]
    page = api.get(f"/v1/tournaments/{t['id']}/standings/page", headers={"Accept": "text/html"})
    assert page.status == 200 and "Open for entries" in page.body and "Crosstable" not in page.body


def test_elimination_standings_rank_by_the_round_reached(api, services):
    players = [api.signup(n) for n in ("Ann", "Bob", "Cat")]
    by_id = {p["id"]: p for p in players}
    t = create(api, players[0], format="single_elimination")
    join(api, t, *players)
    t = start(api, players[0], t)
    while t["status"] == "running":
        for p in [p for p in t["pairings"] if p["round"] == t["round"] and p["points"] is None]:
            loser = max((p["first"], p["second"]), key=lambda side: side["seed"])  # the higher seed wins
            resign(api, services, by_id[loser["player_id"]], p["game_ids"][0])
        t = get(api, t)
    body = api.get(f"/v1/tournaments/{t['id']}/standings").body
    assert body["tie_break_order"] == ["round_reached"]
    assert [(r["seed"], r["tie_breaks"]) for r in body["standings"]] == [
        (1, {"round_reached": 3.0}), (2, {"round_reached": 2.0}), (3, {"round_reached": 1.0})]
    rows = list(csv.reader(io.StringIO(api.get(f"/v1/tournaments/{t['id']}/standings?format=csv").body)))
    # 2 had seat 2 in round 1, so seat 1 now
    assert rows[0][-6:-3] == ["R1 points", "R1 opponent rank", "R1 seat"] and rows[1][-6:] == ["", "bye", "", "5", "2", "2"]


def test_get_tournament_as_trf_is_linked_from_the_standings_and_re_pairs_each_round(api, services):
    """Issue 38: getTournament?format=trf is FIDE's TRF-16, and our engine re-pairs each round from it."""
    from chalicelib.tournaments import trf

    from .test_tournaments import seat_2_resigns_every_game

    players = [api.signup(n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve")]
    t = create(api, players[0], game="khan", format="swiss", rounds=3, options={})
    join(api, t, *players)
    t = seat_2_resigns_every_game(api, services, start(api, players[0], t), players)
    standings = api.get(f"/v1/tournaments/{t['id']}/standings").body
    assert urlsplit(standings["trf_url"]).path == f"/v1/tournaments/{t['id']}"
    assert urlsplit(standings["trf_url"]).query == "format=trf"
    reply = api.get(f"/v1/tournaments/{t['id']}?format=trf")
    assert reply.status == 200
    assert reply.headers["content-type"] == "text/plain; charset=utf-8"
    assert reply.headers["content-disposition"] == f'attachment; filename="tournament-{t["id"]}.trf"'
    lines = [line for line in reply.body.split("\r\n") if line.startswith("001")]
    assert [line[14:47].strip() for line in lines] == [p["name"] for p in sorted(t["players"], key=lambda p: p["seed"])]
    assert sum("0000 - U" in line for line in lines) == 3  # a bye a round
    for number in range(1, 4):
        played = [(p["first"]["seed"], p["second"]["seed"] if p["second"] else None)
                  for p in t["pairings"] if p["round"] == number]
        assert trf.pair(reply.body, number) == played
    assert api.get(f"/v1/tournaments/{t['id']}?format=pdf").body["code"] == "invalid_request"


# ------------------------------------------------------------------ issue 36, item 8: organisers


def swiss_after_two_rounds(api, services, rounds=3):
    """A four-player Swiss of ``rounds`` with its first two rounds played (seat 2 resigns each game)."""
    players = [api.signup(n) for n in ("Ann", "Bob", "Cat", "Dan")]
    by_id = {p["id"]: p for p in players}
    t = create(api, players[0], format="swiss", rounds=rounds)
    join(api, t, *players)
    t = start(api, players[0], t)
    while t["status"] == "running" and t["round"] <= 2:
        for p in [p for p in t["pairings"] if p["round"] == t["round"] and p["points"] is None]:
            resign(api, services, by_id[p["second"]["player_id"]], p["game_ids"][0])
        t = get(api, t)
    return t, players


def test_issue36_item8_create_tournament_answers_tournament_id_as_well_as_id(api):
    ann = api.signup("Ann")
    t = create(api, ann)
    assert t["tournament_id"] == t["id"] and t["id"].startswith("t_")
    assert get(api, t)["tournament_id"] == t["id"]


def test_issue36_item8_the_csv_names_what_its_columns_hold_and_is_linked_beside_the_page(api, services):
    t, _players = swiss_after_two_rounds(api, services)
    body = api.get(f"/v1/tournaments/{t['id']}/standings").body
    assert urlsplit(body["csv_url"]).path == f"/v1/tournaments/{t['id']}/standings"
    assert urlsplit(body["csv_url"]).query == "format=csv"
    assert urlsplit(body["html_url"]).path.endswith("/standings/page") and body["trf_url"].endswith("?format=trf")
    rows = list(csv.reader(io.StringIO(api.get(urlsplit(body["csv_url"]).path + "?format=csv").body)))
    assert rows[0][:2] == ["rank", "seed (last tie-break)"]  # ties on everything are broken by seed: it says so
    assert rows[0][-9:] == [f"R{n} {part}" for n in (1, 2, 3) for part in ("points", "opponent rank", "seat")]
    by_name = {row[2]: dict(zip(rows[0], row)) for row in rows[1:]}
    for row in body["crosstable"]:
        for entry in row["results"]:
            cells, n = by_name[row["name"]], entry["round"]
            points = "" if entry["points"] is None else f"{entry['points']:g}"  # round 3: being played
            assert cells[f"R{n} points"] == points and cells[f"R{n} seat"] == str(entry["seat"])
            assert cells[f"R{n} opponent rank"] == str(entry["opponent_rank"])


def test_issue36_item8_accept_text_csv_is_honoured_and_an_accept_it_cannot_serve_is_406(api, services):
    t, _players = swiss_after_two_rounds(api, services)
    path = f"/v1/tournaments/{t['id']}/standings"
    as_file = api.get(path, headers={"Accept": "text/csv"})
    assert as_file.status == 200 and as_file.headers["content-type"].startswith("text/csv")
    assert as_file.body == api.get(path + "?format=csv").body
    # A browser's Accept (HTML first, anything at a lower q) and no Accept at all get JSON, as before.
    browser = api.get(path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert browser.headers["content-type"] == "application/json" and browser.body["tournament_id"] == t["id"]
    assert api.get(path, headers={"Accept": "text/csv;q=0.5, application/json"}).body["tournament_id"] == t["id"]
    assert api.get(path, headers={"Accept": "text/*"}).headers["content-type"].startswith("text/csv")
    refused = api.get(path, headers={"Accept": "application/xml"})
    assert refused.status == 406 and refused.headers["content-type"] == "application/problem+json"
    assert refused.body["code"] == "not_acceptable" and "text/csv" in refused.body["detail"]
    assert api.get(path, headers={"Accept": "text/csv;q=0, application/json;q=0"}).status == 406
    assert api.get(path + "?format=json", headers={"Accept": "text/csv"}).body["tournament_id"] == t["id"]  # the query says
    # getTournament: its TRF file by Accept too (text/plain), JSON otherwise; text/csv it cannot serve.
    tournament = f"/v1/tournaments/{t['id']}"
    trf = api.get(tournament, headers={"Accept": "text/plain"})
    assert trf.status == 200 and trf.body == api.get(tournament + "?format=trf").body
    assert api.get(tournament, headers={"Accept": "text/csv"}).body["code"] == "not_acceptable"


def test_issue36_item8_the_crosstable_links_each_finished_game_and_says_ties_go_by_seed(api, services):
    t, _players = swiss_after_two_rounds(api, services)
    body = api.get(f"/v1/tournaments/{t['id']}/standings").body
    played = {g for row in body["crosstable"] for e in row["results"] if e["outcome"] != "pending"
              for g in e["game_ids"]}
    assert len(played) == 4  # two rounds of two games
    html = api.get(f"/v1/tournaments/{t['id']}/standings/page", headers={"Accept": "text/html"}).body
    for game_id in played:
        assert f'href="/v1/games/{game_id}/board/replay"' in html
    assert "ordered by seed" in html
    # how a game scores, for a reader who sees "5" and "3" in the crosstable (the game's own rule)
    assert "Points: the winner of a game scores 5, the loser the flags it held" in html
    # The link opens for anyone (no seat's link): a finished tournament game hides nothing.
    game_id = sorted(played)[0]
    replay = api.get(f"/v1/games/{game_id}/board/replay", headers={"Accept": "text/html"})
    assert replay.status == 200 and replay.headers["content-type"].startswith("text/html")
    # ... and leads back where it came from: the standings (the board of a game that is not public answers
    # no one without a seat's link)
    assert f'<a href="/v1/tournaments/{t["id"]}/standings/page">Back to the standings</a>' in replay.body
    assert "Back to the board" not in replay.body
    assert api.get(f"/v1/games/{game_id}/board", headers={"Accept": "text/html"}).status == 403
    # A game still in play is its seats' own: no link, and no spectator's board.
    playing = [g for row in body["crosstable"] for e in row["results"] if e["outcome"] == "pending"
               for g in e["game_ids"]]
    assert playing and not any(f"/v1/games/{g}/board/replay" in html for g in playing)
    assert api.get(f"/v1/games/{playing[0]}/board/replay").body["code"] == "game_not_public"


def test_the_pages_tie_break_figures_are_the_jsons_to_three_decimals():
    """A Sonneborn-Berger of 10.625 reads 10.625 on the page, as in the JSON and the CSV (not 10.62)."""
    from chalicelib.tournaments.told import short

    assert [short(v) for v in (10.625, 24.0, 15.5, 7.3333333)] == ["10.625", "24", "15.5", "7.333"]
