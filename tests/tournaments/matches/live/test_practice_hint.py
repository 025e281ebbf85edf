"""The recorder's practice hint: after a play entered in a Long Nardy match of a casual
tournament (one that does not ask to be rated), the answer says what the engine would have played
and the equity lost; a tournament that is rated or asks to be, Short Nardy and a play as good as
the engine's get none, and spectators never see one. A match that had a hint is marked, and a
rating officer sees the mark before approving its tournament (issue 43, finding 6)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.engine.search import engine
from games.rules import LongNardy, Position, legal_plays
from tests.web.conftest import make_site
from tournaments.ratings import services as approvals
from tournaments.ratings.ledger import rating_list_of

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


def weak_play(client, url):
    """White's weakest 4-2 after both sides ran 6-5 (24/13): the state after it, and the hint
    it should get."""
    state = enter(client, url, 0, {"first": 1})
    state = enter(client, url, state["ply"], {"dice": "65", "play": "24/13"})
    state = enter(client, url, state["ply"], {"dice": "65", "play": "24/13"})
    white = Position.from_points(LongNardy(), {24: 14, 13: 1}, {24: 14, 13: 1})
    ranked = engine().rank(white, (4, 2), 0)
    worst, best = ranked[-1], ranked[0]
    state = enter(client, url, state["ply"], {"dice": "42", "play": str(worst.play)})
    return state, {"best": str(best.play), "loss": round(best.equity - worst.equity, 3)}


def test_a_weak_play_in_a_casual_match_gets_the_engines_play_and_the_loss():
    site = make_site(variant="long", rated=False, casual=True)
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


@pytest.mark.parametrize(
    ("variant", "rated", "casual"),
    [("long", True, False), ("long", True, True), ("long", False, False), ("short", False, True)],
)
def test_a_rated_tournament_one_asking_to_be_and_short_nardy_get_no_hint(variant, rated, casual):
    site = make_site(variant=variant, rated=rated, casual=casual)
    match = site.match("Anna", "Boris")
    client, url = recorder(site, match)
    state = enter(client, url, 0, {"first": 1})
    state = enter(client, url, state["ply"], {"dice": "42"})
    for legal in state["legal_plays"]:  # the weakest or not: no hint either way
        answer = enter(client, url, state["ply"], {"dice": "42", "play": legal["play"]})
        assert answer["hint"] is None
        break


def test_a_tournament_that_asks_to_be_rated_gives_no_hint_and_marks_nothing():
    """Finding 6: a tournament approved as rated after its matches were recorded gave hints while
    they were played. One that asks to be rated (not casual, the default) never gives them."""
    site = make_site(variant="long", rated=False)
    assert not site.tournament.casual
    match = site.match("Anna", "Boris")
    client, url = recorder(site, match)
    state, _expected = weak_play(client, url)
    assert state["hint"] is None
    match.refresh_from_db()
    assert not match.hinted


def test_a_match_recorded_with_hints_is_marked_for_the_rating_officer():
    site = make_site(variant="long", rated=False, casual=True)
    match = site.match("Anna", "Boris")
    other = site.match("Carl", "Dina")
    client, url = recorder(site, match)
    state, expected = weak_play(client, url)
    assert state["hint"] == expected
    match.refresh_from_db()
    other.refresh_from_db()
    assert match.hinted and not other.hinted
    officer = User.objects.create_user("rita")
    rating_list_of(site.tournament).officers.add(officer)
    page = Client()
    page.force_login(officer)
    panel = page.get(f"/t/{site.tournament.slug}/").content.decode()
    assert 'data-role="hinted-matches"' in panel and 'data-role="casual"' in panel
    assert f'href="/m/{match.pk}/"' in panel and f'href="/m/{other.pk}/"' not in panel
    # The organizer, who may not approve, is not shown the officer's panel.
    assert (
        'data-role="hinted-matches"'
        not in client.get(f"/t/{site.tournament.slug}/").content.decode()
    )
    # Once approved (the officer saw the mark), the rated tournament gives no more hints.
    approvals.ratings_approve(tournament=site.tournament, by=officer)
    state = enter(client, url, state["ply"], {"dice": "31"})
    for legal in state["legal_plays"]:
        answer = enter(client, url, state["ply"], {"dice": "31", "play": legal["play"]})
        assert answer["hint"] is None
        break
