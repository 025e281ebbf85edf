"""The live tests' fixtures: the server's time set by hand, and a timed tournament."""

from __future__ import annotations

import types

import pytest

from tests.tournaments.matches.live.table import CONTROL, ServerClock
from tests.web.conftest import Site, make_site
from tournaments.api import live as live_api
from tournaments.matches.live import broadcast, state


@pytest.fixture
def server_clock(monkeypatch) -> ServerClock:
    clock = ServerClock()
    fake_time = types.SimpleNamespace(time=clock.time)
    for module in (state, live_api, broadcast):
        monkeypatch.setattr(module, "time", fake_time)
    monkeypatch.setattr("django.utils.timezone.now", clock.now)
    return clock


@pytest.fixture
def timed(db) -> Site:
    return make_site(time_control=CONTROL)
