"""Shared pieces of the notification tests."""

import email as email_lib
import re
import socket
from email import policy
from urllib.parse import unquote, urlsplit

from chalicelib.http.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Outlets
from chalicelib.presenting.links import Links
from chalicelib.config import build_services
from ..fakes import start_game

LINKS = Links("test-link-secret", "http://play.example", "mail.example")


class Outbox:
    """A mailer that keeps what it is given."""

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


def game_by_mail(store, game: str):
    """Ann (seat 1, first) and Bob with email addresses in a seeded game; mail goes to an Outbox.
    Returns (services, inbound mail handler, outbox, Ann's view of the game, Ann, Bob)."""
    outbox = Outbox()
    services = build_services(store, outlets=Outlets(mailer=outbox, links=LINKS))
    ann = services.players.create_player(CreatePlayerRequest(name="Ann", email="ann@example.org"), None).body
    bob = services.players.create_player(CreatePlayerRequest(name="Bob", email="bob@example.org"), None).body
    ann, bob = services.players.authenticate(ann["api_key"]), services.players.authenticate(bob["api_key"])
    view = start_game(services, ann, CreateGameRequest(game=game, options={"first_seat": 1}, seed=5,
                                                       seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                      [ann, bob])
    return services, services.inbound, outbox, view, ann, bob


class FakeDns:
    """socket.getaddrinfo with made-up answers: ``answers[name] = [addresses]``; each lookup of
    such a name is counted in ``lookups``; literal addresses and other names resolve for real."""

    def __init__(self, monkeypatch):
        self.answers: dict[str, list[str]] = {}
        self.lookups: dict[str, int] = {}
        self.real = socket.getaddrinfo
        monkeypatch.setattr(socket, "getaddrinfo", self.getaddrinfo)

    def getaddrinfo(self, host, port, *args, **kwargs):
        if host not in self.answers:
            return self.real(host, port, *args, **kwargs)
        self.lookups[host] = self.lookups.get(host, 0) + 1
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in self.answers[host]]


# ---------------------------------------------------------------- reading the emails and pages


def parsed(raw):
    """An email as sent: an EmailMessage (an Outbox), or SES's raw message, or text."""
    if hasattr(raw, "get_body"):
        return raw
    return email_lib.message_from_string(raw.raw_data if hasattr(raw, "raw_data") else raw, policy=policy.default)


def kind_of(mail) -> str:
    """What an email is about, from its outbox message id: invited, your_turn, reminder_..., finished."""
    found = re.fullmatch(r"msg_g_[0-9a-f]+_\d+_(.+)_\d+", mail["X-Battleline-Message"] or "")
    return found.group(1) if found else ""


def text_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def html_of(mail) -> str:
    return mail.get_body(("html",)).get_content()


def token_of(url: str) -> str:
    return unquote(urlsplit(url.replace("&amp;", "&")).path.rsplit("/", 1)[1])


GRID_CELL = re.compile(r'<a href="(http://[^"]+/v1/links/[^"]+)" title="([^"]+)"[^>]*>(\d)</a>')


def grid_cells(html: str) -> list[tuple[str, str, int]]:
    """The card x flag grid's links: (url, what it plays, the flag)."""
    return [(url, label, int(flag)) for url, label, flag in GRID_CELL.findall(html)]


def step_links(html: str) -> list[str]:
    return re.findall(r'href="(http://[^"]+/v1/links/[^"]+)"', html)


def confirmations_alone(services) -> list:
    """What the sweeper does once a held reply confirmation's window passed with no other email of
    its game (notify/confirmations.py): each is sent alone, now. Returns the deliveries it settled."""
    from chalicelib.notify import confirmations

    dispatcher = services.dispatcher
    return [dispatcher.attempt_confirmation(d) for d in services.store.due_deliveries("9999-12-31T00:00:00.000Z")
            if confirmations.is_confirmation(d.webhook_id)]
