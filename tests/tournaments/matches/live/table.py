"""The table of the live tests that need the server's time: a match recorded through the live
API by its home player, at moments set by hand (``ServerClock``; the fixtures ``server_clock``
and ``timed`` are in this folder's ``conftest.py``)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.test import Client

from tests.web.conftest import Site
from tournaments.models import Match

CONTROL = {"kind": "delay", "base_seconds": 60, "per_move_seconds": 8}
EPOCH = 1_800_000_000.0


class ServerClock:
    """The server's time, seconds after ``EPOCH``, set by the test."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def time(self) -> float:
        return EPOCH + self.seconds

    def now(self) -> dt.datetime:
        return dt.datetime.fromtimestamp(self.time(), tz=dt.UTC)


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


class Table:
    """One match recorded through the live API by its home player."""

    def __init__(self, site: Site, clock: ServerClock, match: Match | None = None) -> None:
        self.site = site
        self.clock = clock
        self.match = match or site.match("Anna", "Boris")
        self.home = self.match.home.player.user
        self.client = client_of(self.home)
        self.url = f"/api/v1/matches/{self.match.pk}/live"
        self.state = self.read()

    def read(self, client: Client | None = None) -> dict:
        return (client or self.client).get(self.url).json()

    def at(self, seconds: float) -> Table:
        self.clock.seconds = seconds
        return self

    def enter(self, action: dict, status: int = 200, client: Client | None = None):
        response = (client or self.client).post(
            self.url, {"ply": self.state["ply"], "action": action}, "application/json"
        )
        assert response.status_code == status, response.content
        if status == 200:
            self.state = response.json()
        return response

    def play_any(self) -> None:
        """The side on roll rolls 6-5 and makes its first legal play (or passes)."""
        self.enter({"dice": "65"})
        plays = self.state["legal_plays"]
        self.enter({"dice": "65", "play": plays[0]["play"] if plays else ""})

    def judge(self, user: User, status: int = 200, **body):
        response = client_of(user).post(f"{self.url}/clock", body, "application/json")
        assert response.status_code == status, response.content
        if status == 200:
            self.state = response.json()
        return response
