"""Two phones post the same ply at the same moment: the draft's row lock lets exactly one in, and
the other is told the record moved on (409), on PostgreSQL where rows are really locked; so is
taking back the entry that decided the match."""

from __future__ import annotations

import time

import pytest
from django.db import connection

import tournaments.matches.live.services as services
from tests.support.races import race
from tests.web.conftest import make_site
from tournaments.matches.live.models import Draft
from tournaments.matches.live.services import live_act, live_undo

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def slow_replay(monkeypatch):
    """Make replaying the recording slow, so that without the lock both entries would pass the
    ply check before either is saved."""
    replay = services.Recording.replay

    def slowly(*args, **kwargs):
        time.sleep(0.3)
        return replay(*args, **kwargs)

    monkeypatch.setattr(services.Recording, "replay", staticmethod(slowly))


@pytest.mark.parametrize("ply", [0, 1], ids=["the-first-entry", "a-later-entry"])
def test_two_phones_posting_the_same_ply_at_once_give_one_entry(slow_replay, ply):
    site = make_site(variant="short")
    match = site.match("Anna", "Boris")
    home = site.players[match.home.player.display_name]
    away = site.players[match.away.player.display_name]
    if ply == 1:  # the draft exists already: the race is for its lock, not for making it
        live_act(match_id=match.pk, by=home, ply=0, action={"first": 2})
    outcomes = race(
        lambda: live_act(match_id=match.pk, by=home, ply=ply, action={"dice": "31"}),
        lambda: live_act(match_id=match.pk, by=away, ply=ply, action={"dice": "42"}),
    )
    assert outcomes == ["conflict", "done"]
    draft = Draft.objects.get(match=match)
    rows = list(draft.entry_rows.order_by("ply"))
    assert draft.ply == ply + 1 and [row.ply for row in rows] == list(range(ply + 1))
    assert rows[-1].data["dice"] in ("31", "42")


def test_both_players_taking_back_the_deciding_entry_at_once_take_back_one(slow_replay):
    """The match was decided by a resignation; both phones tap Undo at the same moment: one
    takes the entry (and the result) back, the other is told the record moved on."""
    site = make_site(variant="short", match_length=1)
    match = site.match("Anna", "Boris")
    home = site.players[match.home.player.display_name]
    away = site.players[match.away.player.display_name]
    live_act(match_id=match.pk, by=home, ply=0, action={"dice": "31"})
    live_act(match_id=match.pk, by=home, ply=1, action={"dice": "31", "play": "8/5 6/5"})
    live_act(match_id=match.pk, by=home, ply=2, action={"resign": "black", "value": 1})
    outcomes = race(
        lambda: live_undo(match_id=match.pk, by=home, ply=3),
        lambda: live_undo(match_id=match.pk, by=away, ply=3),
    )
    assert outcomes == ["conflict", "done"]
    draft = Draft.objects.get(match=match)
    assert draft.ply == 2 and not draft.finished
    match.refresh_from_db()
    assert match.status == match.Status.SCHEDULED
