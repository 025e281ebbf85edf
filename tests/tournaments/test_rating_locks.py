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
from tournaments.models import Match, Round
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


def test_a_result_is_recorded_while_the_worker_replays_its_list(new_club, monkeypatch):
    # The result's transaction adds the list's backlog row: its reference to the list is
    # checked with a KEY SHARE lock, which the worker's lock on the list must not block, or
    # every result of a list waits out a replay (a whole list's: half a minute).
    club = new_club()
    match_result_record(match=club.match, by=club.organizer, score=(3, 0))
    ledger.ratings_apply(club.match.pk)  # (done already where tasks run eagerly)
    second = Match.objects.create(
        tournament=club.tournament,
        round=Round.objects.create(tournament=club.tournament, number=2),
        home=club.home,
        away=club.away,
    )
    write = ledger._write
    recorded = []  # at each write of the ledger: whether the result was in by then

    def waiting_for_the_result(*args, **kwargs):
        deadline = time.monotonic() + 10  # (the result, blocked, would wait out all of it)
        while time.monotonic() < deadline and not decided(second):
            time.sleep(0.05)
        recorded.append(decided(second))
        return write(*args, **kwargs)

    monkeypatch.setattr(ledger, "_write", waiting_for_the_result)

    outcomes = race(
        lambda: ledger.ratings_replay(None),
        later(lambda: match_result_record(match=second, by=club.organizer, score=(0, 3))),
    )

    assert outcomes == ["done", "done"]
    assert recorded[0] is True  # in while the replay still held the list
    ledger.ratings_apply(second.pk)  # (done already where tasks run eagerly)
    assert RatingChange.objects.filter(match=second).count() == 2


def decided(match: Match) -> bool:
    return Match.objects.filter(pk=match.pk, status__in=Match.DECIDED).exists()
