"""Hidden information never leaks into an email or a link's page: a whole game of each kind is
played by the links of its emails (and now and then by a reply), and every email and every page
a seat gets is scanned, at the moment it is made, for any card the seat's own view does not hold
(the other seat's hand, Khan's face-down units, the decks) and that the game's events as the
seat sees them never named, and for the seed and the deal salt of a game in play."""

from __future__ import annotations

import json
import os
import random
import re
from email.message import EmailMessage

import pytest
from markupsafe import escape

from chalicelib.kernel import i18n
from chalicelib.config import build_services
from chalicelib.games.battleline.cards import TACTICS, TROOPS, parse_troop
from chalicelib.games.battleline.story import card_name
from chalicelib.games.khan.cardset import REGISTRY
from chalicelib.games.presenters import PRESENTERS
from chalicelib.mailplay import pages
from chalicelib.games.battleline import render
from chalicelib.presenting import show
from chalicelib.http.models import ActionRequest, CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from tests.notify.helpers import LINKS, Outbox, html_of, text_of, token_of
from ..fakes import start_game

COLOUR_NAMES = {"R": "red", "O": "orange", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}


LITERAL: dict[re.Pattern, str] = {}  # each pattern's text: where the text is not, the pattern cannot match


def cards_named(game: str, language: str = "en") -> dict[str, list[re.Pattern]]:
    """Each card id of a game, with the ways a page could show it (its id, its name, a troop's
    value and colour as a card's title says them), in English and in the reader's language."""
    def word(text: str) -> re.Pattern:
        # The text standing alone: no letter, digit or _ either side. The look behind follows the text
        # (the same match) so that the pattern begins with a literal, which re finds at C speed
        # instead of trying every position of a page.
        pattern = re.compile(rf"{re.escape(text)}(?<![0-9A-Za-z_]{re.escape(text)})(?![0-9A-Za-z_])")
        LITERAL[pattern] = text
        return pattern

    if game == "battleline":
        found = {}
        for code in TROOPS:
            troop = parse_troop(code)
            found[code] = [word(code), word(f"{troop.value} {COLOUR_NAMES[troop.colour]}"),
                           word(i18n.in_language(language, lambda: render.card(code)["title"]))]
        for code in TACTICS:
            found[code] = [word(code), word(card_name(code)), word(i18n.in_language(language, lambda: card_name(code)))]
        return found
    cards = REGISTRY.get("khan-default", 1)
    found = {}
    for card_id, entry in {**cards.units, **cards.commands}.items():
        ways = [word(card_id)]
        if "_" in card_id:
            ways.append(word(card_id.replace("_", " ").capitalize()))
        if entry.name:
            ways.append(word(entry.name))
        found[card_id] = ways
    return found


STEP_WORDS = {"advance"}  # Khan ids that are also a step's command word ("advance 0 0"): told by id elsewhere


def ids_in(data, known: dict) -> set[str]:
    return {s for s in re.findall(r'"([A-Za-z0-9_]+)"', json.dumps(data)) if s in known}


class Scanner:
    def __init__(self, services, game_id: str, game: str, language: str = "en") -> None:
        self.services, self.game_id, self.game = services, game_id, game
        self.known = cards_named(game, language)
        self.language = language
        self.helps = {PRESENTERS[game].help}  # and the help as the seat's own view says it (check)
        self.scanned = 0

    def check(self, seat: int, content: str, what: str) -> None:
        """Nothing in ``content`` (an email or a page for ``seat``, made just now) names a card the
        seat's own view does not hold, or the seed or deal salt of the game in play."""
        record = self.services.moves.find(self.game_id)
        mine = self.services.games.view_for_seat(self.game_id, seat)
        told = [e.seen_by(seat) for e in self.services.store.list_events(self.game_id, 0)]  # a played card, say
        visible = ids_in(mine, self.known) | ids_in(told, self.known)
        hidden = ids_in(record.state, self.known) - visible - STEP_WORDS
        # the fixed command reference ("play 7R 3", "play REDEPLOY 3 5"), in the text part and, escaped,
        # in the HTML part ("the opponent&#39;s")
        # (a reader's own command words name the help's example cards by the game's card set: its view's)
        for fixed in self.helps | {i18n.in_language(self.language, lambda: show.help_text(mine))}:
            content = content.replace(fixed, " ").replace(str(escape(fixed)), " ")
        words = re.sub(r'https?://[^\s"<]+', " ", content)  # links' tokens are opaque
        words = words + "\n" + re.sub(r"<[^>]+>", "", words)  # and the words a page shows (7<span>R</span>)
        # What the seat may see is taken out first, longest first ("Horse archers" holds "archers").
        # (A pattern is tried only where its text occurs: the same result, without scanning every page
        # once per card and way of naming it.)
        for pattern in sorted((p for card in visible for p in self.known[card]), key=lambda p: -len(p.pattern)):
            if LITERAL[pattern] in words:
                words = pattern.sub(" ", words)
        for card in hidden:
            for pattern in self.known[card]:
                found = LITERAL[pattern] in words and pattern.search(words)
                assert not found, (f"{what} for seat {seat} shows {card}, hidden from it (seed {record.seed}): "
                                   f"...{words[max(0, found.start() - 400):found.end() + 100]}...")
        if record.status != "finished" and not record.seed_public:
            assert str(record.seed) not in words, f"{what} shows the seed of a game in play"
        if record.status != "finished":  # the deal's salt, anywhere (a link's token too)
            assert record.deal_salt and record.deal_salt not in content, f"{what} shows the deal salt of a game in play"
        self.scanned += 1


def a_game(store, game: str, language: str = "en"):
    """A game with a seed drawn and kept secret; HIDDEN_INFO_SEED=<seed> replays the game a failure
    named (its message gives the seed)."""
    outbox = Outbox()
    chosen = os.environ.get("HIDDEN_INFO_SEED")
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS),
                              **({"new_seed": lambda: int(chosen)} if chosen else {}))
    people = {}
    for seat, name in ((1, "Ann"), (2, "Bob")):
        made = services.players.create_player(CreatePlayerRequest(name=name, email=f"{name.lower()}@example.org",
                                                                   language=language), None)
        people[seat] = services.players.authenticate(made.body["api_key"])
    view = start_game(services, people[1], CreateGameRequest(game=game, options={"first_seat": 1}, seats=[
        PlayerSeat(player_id=people[1].id), PlayerSeat(player_id=people[2].id)]), list(people.values()))  # a seed drawn, kept
    return services, outbox, people, view["game_id"]


def links_for(view: dict, language: str) -> list[str]:
    """The links an email gives the seat now (the grid and the grouped steps, not resign)."""
    letter = i18n.in_language(language, lambda: show.letter(view, LINKS))
    cells = [cell["url"] for row in (letter["grid"] or {"rows": []})["rows"] for cell in row["cells"] if cell]
    return cells + [link["url"] for group in letter["groups"] for link in group["links"]]


def form_for(page, rng: random.Random) -> dict[str, list[str]]:
    """What a player ticks on a link's page: every flag offered (or, now and then, none), a deck."""
    form: dict[str, list[str]] = {"turn": ["1"]}
    for part in (page.data.get("form") or {}).get("parts", []):
        if part["type"] == "claim" and rng.random() < 0.8:
            form["claim"] = [str(flag) for flag in part["flags"]]
        elif part["type"] == "draw":
            form["deck"] = [rng.choice([deck["deck"] for deck in part["decks"]])]
    return form


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("game", ["battleline", "khan"])
def test_no_email_or_link_page_of_a_whole_game_shows_what_the_seat_may_not_see(store, game, language, request,
                                                                               long_play):
    """In each language: the players read their emails and pages in it, and reply in its words."""
    # The unit tier (in memory) plays whole games in English and Chinese; DynamoDB Local a part of each
    # (the other languages' emails are made by the same code: a part of a game each, to keep it short)
    local = request.node.callspec.params.get("store") == "dynamodb_local"
    whole = not local and language in ("en", "zh-Hans")
    part = 10 if language == "en" or local else 6
    services, outbox, people, game_id = a_game(store, game, language)
    inbound = services.inbound
    scanner, rng, seen = Scanner(services, game_id, game, language), random.Random(17), 0
    by_address = {f"{p.name.lower()}@example.org": seat for seat, p in people.items()}
    for action in range(1500 if whole else part):
        services.dispatcher.drain_outbox()
        for mail in outbox.sent[seen:]:
            scanner.check(by_address[mail["To"]], text_of(mail) + html_of(mail), f"email {mail['X-Battleline-Message']}")
        seen = len(outbox.sent)
        status = services.games.view_for_seat(game_id, 1)
        if status["status"] == "finished":
            break
        seat = status["to_move"]
        view = services.games.story(game_id, seat)
        urls = links_for(view, language)
        if action % 5 == 4:  # now and then a turn by reply
            step = rng.choice([s for s in view["legal_steps"] if s["type"] != "resign"])
            reply = EmailMessage()
            reply["From"], reply["To"] = f"{people[seat].name.lower()}@example.org", LINKS.reply_address(
                game_id, seat, view["version"])
            reply["Message-ID"], reply["Subject"] = f"<r{action}@example.org>", "Re: move"
            reply.set_content(i18n.in_language(language, lambda: PRESENTERS[game].say_step(step)))
            answered = inbound.handle(bytes(reply))
            assert answered.outcome == "applied", answered.reason
            continue
        if not urls:  # only bulky steps (deployments): the board page's, played here by the API
            step = rng.choice([s for s in view["legal_steps"] if s["type"] != "resign"])
            services.games.post_action(people[seat], game_id, ActionRequest(expected_version=view["version"],
                                                                            steps=[step]), None)
            continue
        token = token_of(rng.choice(urls))
        with i18n.speaking(language):
            page = pages.step_link_page(services.mailplay, token, "/v1/links/x")
            scanner.check(seat, page.html(), "a link's page")
            played = pages.play_step_link(services.mailplay, token, form_for(page, rng))
            scanner.check(seat, played.html(), "the page after a link's POST")
        assert played.status == 200, (played.title, played.message)
    services.dispatcher.drain_outbox()
    for mail in outbox.sent[seen:]:
        scanner.check(by_address[mail["To"]], text_of(mail) + html_of(mail), "email")
    if whole and game == "battleline":
        assert services.games.view_for_seat(game_id, 1)["status"] == "finished"
    assert scanner.scanned >= (40 if whole else part - 2)


@pytest.mark.parametrize("store", ["memory"], indirect=True)
def test_the_scanner_finds_a_hidden_card_named_alone_and_only_alone(store):
    """The scanner itself: a card of the other seat's hand, by id or by name, in a text or a page, is
    found; the same letters inside a longer word or number are not a card; the seat's own are allowed."""
    services, _outbox, _people, game_id = a_game(store, "battleline")
    scanner = Scanner(services, game_id, "battleline")
    state = services.moves.find(game_id).state
    mine, theirs = state["hands"]["1"], state["hands"]["2"]
    hidden = next(card for card in theirs if card in TROOPS)
    troop = parse_troop(hidden)
    scanner.check(1, f"<p>Your hand: {' '.join(mine)}</p>", "own hand")
    scanner.check(1, f"x{hidden} {hidden}9 _{hidden} {hidden}_", "inside longer words")
    for leak in (hidden, f"<b>{hidden}</b>", f"({hidden}).", f"{troop.value} {COLOUR_NAMES[troop.colour]}"):
        with pytest.raises(AssertionError, match=f"shows {hidden}"):
            scanner.check(1, f"Bob holds {leak}", "a planted leak")
