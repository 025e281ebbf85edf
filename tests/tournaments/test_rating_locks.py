"""The rating worker and the people who change a list never deadlock (PostgreSQL row locks).

The worker holds its rating list's row while it rewrites the list's changes and holds; its rows
refer to matches, and PostgreSQL checks those references (a KEY SHARE lock on the match) when it
commits. An officer's confirmation takes the list first too, and a result being written locks its
match FOR NO KEY UPDATE, which such a check does not wait for. Each test pauses the worker inside
its transaction while the other call starts, the interleaving that once deadlocked in CI."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from tests.support.races import race
from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Match
from tournaments.ratings import ledger
from tournaments.ratings.models import RatingChange, RatingHold
from tournaments.ratings.services import ratings_hold_confirm

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]

#: How long the worker pauses inside its transaction, and how much later the other call starts.
PAUSE, LATER = 1.0, 0.3


def paused(monkeypatch, name: str) -> None:
    """The ledger's step ``name`` waits PAUSE seconds first (the list is locked by then)."""
    step = getattr(ledger, name)

    def slowly(*args, **kwargs):
        time.sleep(PAUSE)
        return step(*args, **kwargs)

    monkeypatch.setattr(ledger, name, slowly)


def later(call):
    def run():
        time.sleep(LATER)
        return call()

    return run


def test_an_officer_confirms_a_hold_while_the_worker_replays_the_list(
    new_club, monkeypatch, settings
):
    from django.contrib.auth.models import User  # noqa: PLC0415

    settings.RATING_REVIEW_THRESHOLD = 15  # a 3-point match between newcomers moves 17.3
    club = new_club()
    match_result_record(match=club.match, by=club.organizer, score=(3, 0))
    ledger.ratings_apply(club.match.pk)  # (done already where tasks run eagerly)
    hold = RatingHold.objects.get()
    officer = User.objects.create_user("rita-locks", is_staff=True)
    paused(monkeypatch, "_hold")

    outcomes = race(
        lambda: ledger.ratings_replay(None),
        later(lambda: ratings_hold_confirm(hold=hold, by=officer)),
    )

    assert outcomes == ["done", "done"]
    assert RatingHold.objects.get().status == RatingHold.Status.CONFIRMED


def test_an_organizer_corrects_a_result_while_the_worker_replays_the_list(new_club, monkeypatch):
    club = new_club()
    match_result_record(match=club.match, by=club.organizer, score=(3, 0))
    ledger.ratings_apply(club.match.pk)  # (done already where tasks run eagerly)
    assert RatingChange.objects.filter(match=club.match).count() == 2
    paused(monkeypatch, "_write")

    outcomes = race(
        lambda: ledger.ratings_replay(None),
        later(lambda: match_result_correct(match=club.match, by=club.organizer, score=(1, 3))),
    )

    assert outcomes == ["done", "done"]
    assert Match.objects.get(pk=club.match.pk).winner_id == club.away.pk
    ledger.ratings_replay(None)  # what the correction enqueued
    assert RatingChange.objects.get(match=club.match, player=club.away.player).score == 1.0
