"""The deal's commitment where a player reads about the game (issue 23, item 1): the board page
and the emails that start and end a game. The commitment from the start; the seed, the salt and
how to check them (`battleline verify GAME_ID`) only once the view reveals them; nothing worked
out beyond what the view holds (a duplicate tournament's board keeps its seed and salt)."""

import hashlib

from chalicelib.config import build_services
from chalicelib.presenting.show import deal
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, Preferences, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from chalicelib.pages.board import board_page, board_view
from tests.notify.helpers import LINKS, Outbox, html_of, kind_of, text_of


def started(store):
    """Ann and Bob (who accepts games made for him) in a game Ann made: its emails go to an Outbox."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann, bob = (services.players.authenticate(services.players.create_player(
        CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org"), None).body["api_key"])
        for name in ("Ann", "Bob"))
    services.players.set_preferences(bob, Preferences(challenges="accept"))
    game = services.creation.create_game(ann, CreateGameRequest(
        game="battleline", options={"first_seat": 1},
        seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), None).body
    services.dispatcher.drain_outbox()
    return services, outbox, bob, game


def test_the_emails_that_start_and_end_a_game_show_its_commitment_and_at_the_end_its_seed_and_salt(store):
    services, outbox, bob, game = started(store)
    gid, commitment = game["game_id"], game["deal_commitment"]
    salt = services.store.load_game(gid).deal_salt
    # Bob's invitation, and Ann's first your-move email (her invitation too: one email, not two)
    starting = [m for m in outbox.sent if kind_of(m) == "invited" or m["Message-ID"].startswith("<game.")]
    assert len(starting) == 2
    for mail in starting:  # the commitment, never the salt, while the game is played
        assert f"Deal commitment: {commitment}" in text_of(mail)
        assert f"<code style=\"font-size:13px\">{commitment}</code>" in html_of(mail)
        assert salt not in text_of(mail) + html_of(mail) and "battleline verify" not in text_of(mail)
    assert all(commitment not in text_of(m) for m in outbox.sent if m not in starting)  # once is enough
    outbox.sent.clear()
    services.games.post_action(bob, gid, ActionRequest(expected_version=0, steps=[{"type": "resign"}]), None)
    services.dispatcher.drain_outbox()
    finished = [m for m in outbox.sent if kind_of(m) == "finished"]
    assert len(finished) == 2
    view = services.games.view_for_seat(gid, 1)
    for mail in finished:
        text = text_of(mail)
        for line in (f"Deal commitment: {commitment}", f"Seed: {view['seed']}", f"Salt: {salt}",
                     f"    battleline verify {gid}"):
            assert line in text
        assert f"battleline verify {gid}</code>" in html_of(mail)
    # What it shows checks out by hand, as docs/rules.md says.
    assert hashlib.sha256(f"{gid}:{view['seed']}:{salt}".encode()).hexdigest() == commitment


def test_the_board_page_shows_the_commitment_and_reveals_only_what_the_view_reveals(store):
    services, outbox, bob, game = started(store)
    gid = game["game_id"]
    salt = services.store.load_game(gid).deal_salt
    view = services.games.view_for_seat(gid, 1)
    playing = board_view(view)["deal"]
    assert [line["text"] for line in playing["lines"]] == [f"Deal commitment: {game['deal_commitment']}"]
    assert playing["command"] is None and "shown when the game is over" in playing["about"]
    assert salt not in board_page(view, "token").html()
    services.games.post_action(bob, gid, ActionRequest(expected_version=0, steps=[{"type": "resign"}]), None)
    over = board_view(services.games.view_for_seat(gid, 1))["deal"]
    assert [line["text"] for line in over["lines"]][1:] == [f"Seed: {services.store.load_game(gid).seed}",
                                                             f"Salt: {salt}"]
    assert over["command"] == f"battleline verify {gid}"


def test_a_board_whose_view_withholds_its_seed_and_salt_shows_only_its_commitment():
    # A duplicate tournament's finished board before its round reveals: the view has no seed, no salt.
    view = {"game_id": "g_1", "status": "finished", "deal_commitment": "ab" * 32, "seed": None, "deal_salt": None}
    shown = deal(view)
    assert [line["value"] for line in shown["lines"]] == ["ab" * 32] and shown["command"] is None
    # A game stored before deals were committed to: nothing to show.
    assert deal({**view, "deal_commitment": None}) is None
