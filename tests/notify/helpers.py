"""Shared pieces of the notification tests."""

from chalicelib.notify.links import Links

LINKS = Links("test-link-secret", "http://play.example", "mail.example")


class Outbox:
    """A mailer that keeps what it is given."""

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)
