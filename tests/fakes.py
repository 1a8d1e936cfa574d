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
