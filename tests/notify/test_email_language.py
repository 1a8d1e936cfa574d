"""Each email is written in its reader's language (issue 19): the ``language`` a player chose at
sign-up or in their preferences picks the catalog their emails (and the sentences of the view
they are built from) are written with."""

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from chalicelib.kernel import i18n
from chalicelib.http.models import CreatePlayerRequest

from .test_email import kind_of, mailed, new_game, text_of, turn  # noqa: F401 - mailed is a fixture

__all__ = ["mailed"]


def a_catalog(folder, language: str, words: dict[str, str]) -> None:
    catalog = Catalog(locale=language.replace("-", "_"))
    for english, translated in words.items():
        catalog.add(english, translated)
    target = folder / language.replace("-", "_") / "LC_MESSAGES"
    target.mkdir(parents=True)
    with open(target / "messages.mo", "wb") as out:
        write_mo(out, catalog)


def test_each_player_reads_their_emails_in_their_own_language(mailed, tmp_path, monkeypatch):
    services, outbox = mailed
    a_catalog(tmp_path, "zh-Hans", {"Your move.": "轮到你了。", "{who} played {card} at flag {flag}":
                                    "{who}在第{flag}面旗打出{card}"})
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        made = [services.players.create_player(CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org",
                                                                   language=language), None).body
                for name, language in (("Ann", "en"), ("Bob", "zh-Hans"))]
        ann, bob = (services.players.authenticate(p["api_key"]) for p in made)
        game = new_game(services, ann, bob)
        play = turn(services, ann, game["game_id"], 1)
        services.dispatcher.drain_outbox()
        bobs = next(m for m in outbox.sent if m["To"] == "bob@example.org" and kind_of(m) == "your_turn")
        assert f"Ann在第{play['flag']}面旗打出{play['card']}" in text_of(bobs) and "轮到你了。" in text_of(bobs)
        anns = [m for m in outbox.sent if m["To"] == "ann@example.org"]
        assert not any("轮到你了" in text_of(m) for m in anns)  # (her move at the start: played before it went)
        assert i18n.language() == "en"  # nothing spoken outside the email
    finally:
        i18n.translations.cache_clear()
