"""The recorder's practice hint: after a play entered in a Long Nardy match of a tournament that
is not rated, the answer says what the engine would have played and the equity lost; a rated
tournament, Short Nardy and a play as good as the engine's get none, and spectators never see
one."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engine.search import engine
from games.rules import LongNardy, Position, legal_plays
from tests.web.conftest import make_site

pytestmark = pytest.mark.django_db


def recorder(site, match):
    client = Client()
    client.force_login(site.organizer)
    url = f"/api/v1/matches/{match.pk}/live"
    return client, url


def enter(client, url, ply, action):
    answer = client.post(url, {"ply": ply, "action": action}, "application/json")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_a_weak_play_in_a_casual_match_gets_the_engines_play_and_the_loss():
    site = make_site(variant="long", rated=False)
    match = site.match("Anna", "Boris")
    client, url = recorder(site, match)
    state = enter(client, url, 0, {"first": 1})
    assert len(legal_plays(Position.initial(LongNardy()), (6, 5))) == 1
    state = enter(client, url, state["ply"], {"dice": "65", "play": "24/13"})
    assert state["hint"] is None  # the only play of 6-5: nothing to say
    state = enter(client, url, state["ply"], {"dice": "65", "play": "24/13"})  # Black the same
    # White answers 4-2 with the play the engine likes least, from where White stands now.
    white = Position.from_points(LongNardy(), {24: 14, 13: 1}, {24: 14, 13: 1})
    ranked = engine().rank(white, (4, 2), 0)
    worst, best = ranked[-1], ranked[0]
    loss = best.equity - worst.equity
    assert loss > 0.005
    state = enter(client, url, state["ply"], {"dice": "42", "play": str(worst.play)})
    assert state["hint"] == {"best": str(best.play), "loss": round(loss, 3)}
    spectator = Client().get(url).json()
    assert "hint" not in spectator
    page = client.get(f"/m/{match.pk}/record/").content.decode()
    assert 'data-role="hint"' in page and "the engine would have played" in page


@pytest.mark.parametrize(("variant", "rated"), [("long", True), ("short", False)])
def test_a_rated_tournament_and_short_nardy_get_no_hint(variant, rated):
    site = make_site(variant=variant, rated=rated)
    match = site.match("Anna", "Boris")
    client, url = recorder(site, match)
    state = enter(client, url, 0, {"first": 1})
    state = enter(client, url, state["ply"], {"dice": "42"})
    for legal in state["legal_plays"]:  # the weakest or not: no hint either way
        answer = enter(client, url, state["ply"], {"dice": "42", "play": legal["play"]})
        assert answer["hint"] is None
        break
