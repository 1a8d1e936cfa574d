"""Test doubles shared by several test modules."""

from datetime import datetime, timedelta


class FakeClock:
    """The clock adapter under the test's control: time moves only when told to."""

    def __init__(self, start: datetime) -> None:
        self.moment = start

    def now(self) -> datetime:
        return self.moment

    def advance(self, delta: timedelta) -> None:
        self.moment += delta


class Outage:
    """A DynamoDB client that fails on cue, under the store's boundary: while ``error`` is set,
    the operations named (every one when none is) raise it, once ``after`` of them went through."""

    def __init__(self, client) -> None:
        self.client = client
        self.error: Exception | None = None
        self.only: tuple[str, ...] = ()
        self.after = 0

    def fail(self, error: Exception, *only: str, after: int = 0) -> None:
        self.error, self.only, self.after = error, only, after

    def end(self) -> None:
        self.error = None

    def __getattr__(self, name: str):
        found = getattr(self.client, name)
        if name.startswith("_") or not callable(found):
            return found

        def call(*args, **kwargs):
            if self.error is not None and (not self.only or name in self.only):
                if self.after == 0:
                    raise self.error
                self.after -= 1
            return found(*args, **kwargs)

        return call


def outage(store) -> Outage:
    """Put an Outage between the store and its DynamoDB client."""
    from chalicelib.store.dynamodb import Boundary

    fake = Outage(store.client.wrapped)
    store.client = Boundary(fake)
    return fake



def start_game(services, creator, request, callers=()) -> dict:
    """A game ``creator`` makes by ``request`` (createGame, through the services), the other players
    among ``callers`` having said beforehand that they accept games made for them (preference
    ``challenges``), so it starts at once, version 0; the creator's view of it."""
    from chalicelib.http.models import Preferences

    for caller in callers:
        if caller.id != creator.id:
            services.players.set_preferences(caller, Preferences(challenges="accept"))
    return services.creation.create_game(creator, request, None).body
