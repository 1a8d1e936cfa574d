"""Players by id and by name: a public profile (never an email or a key), names matched whole
after Unicode normalisation and case folding, in pages."""

from __future__ import annotations

from .test_contract import problem_of


def signup(api, name, email=None):
    reply = api.post("/v1/players", {"name": name, **({"email": email} if email else {})})
    assert reply.status == 201, reply.body
    return reply.body


def test_a_player_by_id_shows_name_and_ratings_never_email_or_key(api):
    ann = signup(api, "Ann", "ann@example.com")
    bob = signup(api, "Bob")
    reply = api.get(f"/v1/players/{ann['id']}", key=bob["api_key"])
    assert reply.status == 200
    assert reply.body == {"id": ann["id"], "name": "Ann", "created_at": ann["created_at"], "ratings": {}}
    assert "ann@example.com" not in str(reply.body) and ann["api_key"] not in str(reply.body)
    problem_of(api.get("/v1/players/p_nobody", key=bob["api_key"]), 404, "unknown_player")
    problem_of(api.get("/v1/players/..%2F..", key=bob["api_key"]), 404, "unknown_player")
    problem_of(api.get(f"/v1/players/{ann['id']}"), 401, "unauthorized")
    assert api.get("/v1/players/me", key=ann["api_key"]).body["email"] == "ann@example.com"  # me is still me


def test_names_are_not_unique_and_match_in_any_case_and_unicode_form(api):
    first, second = signup(api, "Ann Lee"), signup(api, "ann  lee")
    signup(api, "Anna"), signup(api, "Lee")
    wide = signup(api, "Ａｎｎ　Ｌｅｅ")  # full-width letters and space
    for query in ("Ann Lee", "ANN LEE", "ann%20lee", "%EF%BC%A1nn%20Lee"):
        found = api.get(f"/v1/players?name={query}", key=first["api_key"]).body
        assert sorted(p["id"] for p in found["players"]) == sorted([first["id"], second["id"], wide["id"]])
        assert found["next_cursor"] is None
        assert all(set(p) == {"id", "name", "created_at"} for p in found["players"])
    assert api.get("/v1/players?name=Ann", key=first["api_key"]).body["players"] == []  # whole names only
    german = signup(api, "Strauß")
    assert [p["id"] for p in api.get("/v1/players?name=STRAUSS", key=first["api_key"]).body["players"]] == [german["id"]]


def test_players_of_one_name_come_in_pages(api):
    made = {signup(api, "Sam")["id"] for _ in range(5)}
    key = signup(api, "Other")["api_key"]
    seen, cursor, pages = [], None, 0
    while True:
        reply = api.get("/v1/players?name=sam&limit=2" + (f"&cursor={cursor}" if cursor else ""), key=key)
        assert reply.status == 200, reply.body
        seen += [p["id"] for p in reply.body["players"]]
        pages += 1
        cursor = reply.body["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == sorted(made) and pages == 3
    other = api.get("/v1/players?name=other&limit=1", key=key).body
    first_page = api.get("/v1/players?name=sam&limit=2", key=key).body
    problem_of(api.get(f"/v1/players?name=other&cursor={first_page['next_cursor']}", key=key), 400,
               "invalid_cursor")
    assert other["next_cursor"] is None
    problem_of(api.get("/v1/players", key=key), 422, "invalid_request")
