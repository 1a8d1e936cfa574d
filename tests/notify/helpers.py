"""Shared pieces of the notification tests."""

from chalicelib.models import CreateGameRequest, CreatePlayerRequest, PlayerSeat
from chalicelib.notify.dispatcher import Dispatcher
from chalicelib.notify.inbound import InboundMail
from chalicelib.notify.links import Links
from chalicelib.service import GameService

LINKS = Links("test-link-secret", "http://play.example", "mail.example")


class Outbox:
    """A mailer that keeps what it is given."""

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


def game_by_mail(store, game: str):
    """Ann (seat 1, first) and Bob with email addresses in a seeded game; mail goes to an Outbox.
    Returns (service, inbound mail handler, outbox, Ann's view of the game, Ann, Bob)."""
    outbox = Outbox()
    service = GameService(store, dispatcher=Dispatcher(store, mailer=outbox, links=LINKS))
    ann = service.create_player(CreatePlayerRequest(name="Ann", email="ann@example.org"), None).body
    bob = service.create_player(CreatePlayerRequest(name="Bob", email="bob@example.org"), None).body
    ann, bob = service.authenticate(ann["api_key"]), service.authenticate(bob["api_key"])
    view = service.create_game(ann, CreateGameRequest(game=game, options={"first_seat": 1}, seed=5,
                                                      seats=[PlayerSeat(player_id=ann.id), PlayerSeat(player_id=bob.id)]),
                               None).body
    return service, InboundMail(service, outbox, LINKS), outbox, view, ann, bob
