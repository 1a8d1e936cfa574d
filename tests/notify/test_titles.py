"""A game's title in its reader's language (issue 19): the subject of every email of a game names
it as the rule books do: in Chinese 战线 (000's title) and 汗王与大将军 (003's two roles); in
Japanese and Vietnamese the Latin titles, as 002 and 004 write Battle Line."""

from __future__ import annotations

import pytest

from chalicelib.games.presenters import PRESENTERS
from chalicelib.kernel.i18n import speaking
from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat

from ..fakes import start_game
from .test_email import mailed  # noqa: F401 - a fixture

SUBJECTS = {  # (game, reader's language): the subject, the game id put in
    ("battleline", "en"): "Battle Line with Ann (game {gid})",
    ("battleline", "zh-Hans"): "战线：对手Ann（对局{gid}）",
    ("battleline", "ja"): "Annとのバトルライン（ゲーム{gid}）",
    ("battleline", "vi"): "Battle Line với Ann (ván {gid})",
    ("khan", "en"): "Khan & General with Ann (game {gid})",
    ("khan", "zh-Hans"): "汗王与大将军：对手Ann（对局{gid}）",
    ("khan", "ja"): "AnnとのKhan & General（ゲーム{gid}）",
    ("khan", "vi"): "Khan & General với Ann (ván {gid})",
}


@pytest.mark.parametrize("game, language", list(SUBJECTS))
def test_the_email_subject_names_the_game_in_the_readers_language(mailed, game, language):  # noqa: F811
    services, outbox = mailed
    made = [services.players.create_player(CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org",
                                                               language=spoken), None).body
            for name, spoken in (("Ann", "en"), ("Bob", language))]
    ann, bob = (services.players.authenticate(p["api_key"]) for p in made)
    created = start_game(services, ann, CreateGameRequest(game=game, options={"first_seat": 1}, seats=[
        PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]), [ann, bob])
    services.dispatcher.drain_outbox()
    subjects = {m["Subject"] for m in outbox.sent if m["To"] == "bob@example.org"}
    assert subjects == {SUBJECTS[game, language].format(gid=created["game_id"])}


def test_the_presenters_title_is_read_in_the_language_spoken_and_its_english_kept():
    with speaking("zh-Hans"):
        assert (PRESENTERS["battleline"].title, PRESENTERS["khan"].title) == ("战线", "汗王与大将军")
    with speaking("vi"):
        assert PRESENTERS["khan"].title == "Khan & General"
    assert PRESENTERS["khan"].title == "Khan & General" == PRESENTERS["khan"].english_title
    with speaking("ja"):
        assert PRESENTERS["khan"].english_title == "Khan & General"  # the untranslated name, for logs and codes
