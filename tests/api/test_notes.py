"""Private notes (issue 23): each seat keeps its own notes on a game (getNotes / putNotes), which
no one else reads, which outlast the game, and whose saving is not a move."""

from urllib.parse import urlsplit

import pytest

from chalicelib.store.records import NotesRecord
from chalicelib.services.notes import MAX_LENGTH

from .test_contract import problem_of


def notes_of(game_id):
    return f"/v1/games/{game_id}/notes"


def put(api, player, game_id, text):
    return api.request("PUT", notes_of(game_id), {"text": text}, key=player["api_key"])


def read(api, player, game_id):
    return api.get(notes_of(game_id), key=player["api_key"])


@pytest.fixture
def table(api):
    ann, bob, eve = api.signup("Ann"), api.signup("Bob"), api.signup("Eve")
    game = api.new_game(ann, [ann, bob], options={"first_seat": 1}, public=True)
    return ann, bob, eve, game["game_id"]


def test_notes_start_empty(api, table):
    ann, _bob, _eve, gid = table
    reply = read(api, ann, gid)
    assert reply.status == 200, reply.body
    assert reply.body == {"game_id": gid, "seat": 1, "text": "", "updated_at": None}


def test_notes_are_saved_and_read_back_by_their_seat(api, table):
    ann, bob, _eve, gid = table
    text = "Bob holds the blue 10?\nkeep flag 5 for a wedge \u4f60\u597d"
    saved = put(api, bob, gid, text)
    assert saved.status == 200, saved.body
    assert saved.body["seat"] == 2 and saved.body["text"] == text and saved.body["updated_at"]
    assert read(api, bob, gid).body == saved.body
    assert put(api, bob, gid, "second thoughts").status == 200
    assert read(api, bob, gid).body["text"] == "second thoughts"  # a save replaces the notes before


def test_notes_are_seen_by_their_seat_only(api, table):
    ann, bob, eve, gid = table
    assert put(api, ann, gid, "ann's plan").status == 200
    assert put(api, bob, gid, "bob's plan").status == 200
    assert read(api, ann, gid).body["text"] == "ann's plan"
    assert read(api, bob, gid).body["text"] == "bob's plan"
    problem_of(read(api, eve, gid), 403, "not_seated")  # a spectator of a public game
    problem_of(put(api, eve, gid, "mine now"), 403, "not_seated")
    assert read(api, ann, gid).body["text"] == "ann's plan"
    for viewer in (ann, bob, eve):  # no view, event or board of the game shows them
        shown = str(api.view(viewer, gid)) + str(api.get(f"/v1/games/{gid}/events", key=viewer["api_key"]).body)
        assert "plan" not in shown


def test_notes_of_an_unknown_game_are_refused(api, table):
    ann, *_ = table
    problem_of(read(api, ann, "g-nosuchgame"), 404, "game_not_found")
    problem_of(put(api, ann, "g-nosuchgame", "x"), 404, "game_not_found")


def test_notes_need_an_api_key(api, table):
    _ann, _bob, _eve, gid = table
    assert api.get(notes_of(gid)).status == 401


def test_notes_longer_than_the_limit_are_refused(api, table):
    ann, _bob, _eve, gid = table
    assert put(api, ann, gid, "x" * MAX_LENGTH).status == 200
    refused = problem_of(put(api, ann, gid, "y" * (MAX_LENGTH + 1)), 422, "notes_too_long")
    assert refused["limit"] == MAX_LENGTH
    assert read(api, ann, gid).body["text"] == "x" * MAX_LENGTH  # what was saved before stays


def test_a_note_write_does_not_change_the_game_version(api, table, services):
    ann, _bob, _eve, gid = table
    before = api.view(ann, gid)
    events_before = services.store.list_events(gid)
    assert put(api, ann, gid, "not a move").status == 200
    after = api.view(ann, gid)
    assert after["version"] == before["version"] == services.store.latest_version(gid)
    assert services.store.list_events(gid) == events_before
    assert api.act(ann, gid, before["version"], next(
        s for s in before["legal_steps"] if s["type"] == "play")).status == 200  # the move chosen before still fits


def test_notes_are_kept_after_the_game(api, table):
    ann, bob, _eve, gid = table
    assert put(api, bob, gid, "remember: too greedy on flag 3").status == 200
    assert api.act(ann, gid, 0, {"type": "resign"}).status == 200
    assert api.view(bob, gid)["status"] == "finished"
    assert read(api, bob, gid).body["text"] == "remember: too greedy on flag 3"
    assert put(api, bob, gid, "post-mortem").status == 200  # and may still be written
    assert read(api, bob, gid).body["text"] == "post-mortem"


# ------------------------------------------------------------------ on the board page

def board_path(api, player, game_id):
    url = api.get(f"/v1/games/{game_id}/board-link", key=player["api_key"]).body["url"]
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def test_a_seats_board_reads_and_saves_that_seats_notes(api, table):
    ann, bob, _eve, gid = table
    assert put(api, ann, gid, "from the API").status == 200
    page = board_path(api, ann, gid)
    assert 'id="notes"' in api.get(page).body
    notes_path = page.replace("/board?", "/board/notes?")
    assert api.get(notes_path).body["text"] == "from the API"
    saved = api.request("PUT", notes_path, {"text": "from the board"})
    assert saved.status == 200 and saved.body["seat"] == 1
    assert read(api, ann, gid).body["text"] == "from the board"
    assert read(api, bob, gid).body["text"] == ""  # the other seat's notes are apart
    problem_of(api.request("PUT", notes_path, {"text": "z" * (MAX_LENGTH + 1)}), 422, "notes_too_long")


def test_a_spectators_board_has_no_notes(api, table):
    _ann, _bob, eve, gid = table
    page = board_path(api, eve, gid)  # a public game: eve watches
    assert 'id="notes"' not in api.get(page).body
    problem_of(api.get(f"/v1/games/{gid}/board/notes"), 403, "not_seated")
    problem_of(api.request("PUT", f"/v1/games/{gid}/board/notes", {"text": "mine"}), 403, "not_seated")
    problem_of(api.get(f"/v1/games/{gid}/board/notes?seat=abc.def.ghi"), 403, "invalid_link")


def test_a_seats_notes_stay_with_the_player_who_wrote_them(api, table, services):
    ann, _bob, _eve, gid = table
    services.store.put_notes(NotesRecord(gid, 1, "p-someoneelse", "a former player's notes", "2026-01-01T00:00:00.000Z"))
    assert read(api, ann, gid).body == {"game_id": gid, "seat": 1, "text": "", "updated_at": None}


@pytest.mark.parametrize("text", ["a\u0000b", "left\u202eright", "x\u2028y", "bell\u0007"])
def test_notes_hold_no_control_character_nor_bidirectional_override(api, table, text):
    """Notes are shown on the board page: like names and messages, they hold no control character (tabs and
    line breaks apart) and no bidirectional override, which could make them read as other text."""
    ann, _bob, _eve, gid = table
    problem_of(put(api, ann, gid, text), 422, "invalid_request")
    assert read(api, ann, gid).body["text"] == ""
    assert put(api, ann, gid, "line one\n\tline two\r\nthree").status == 200
