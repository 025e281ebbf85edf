"""Shared personas: an organizer, two players with accounts (Anna home, Boris away), an outsider,
and a running tournament with one scheduled match between the two players."""

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User

from tournaments.models import Entry, Match, Player, Round, Tournament


@dataclass
class Club:
    organizer: User
    anna: User
    boris: User
    outsider: User
    tournament: Tournament
    home: Entry
    away: Entry
    match: Match


def make_club(variant: str = "short", **rules) -> Club:
    organizer = User.objects.create_user("olga", password="x")
    anna = User.objects.create_user("anna", password="x")
    boris = User.objects.create_user("boris", password="x")
    outsider = User.objects.create_user("oscar", password="x")
    rules.setdefault("match_length", 3)
    tournament = Tournament.objects.create(
        name="Club Cup",
        slug="club-cup",
        variant=variant,
        format=Tournament.Format.ROUND_ROBIN,
        status=Tournament.Status.RUNNING,
        organizer=organizer,
        rated=True,  # approved by a rating officer (tournaments.ratings.services)
        **rules,
    )
    home = Entry.objects.create(
        tournament=tournament, player=Player.objects.create(display_name="Anna", user=anna), seed=1
    )
    away = Entry.objects.create(
        tournament=tournament,
        player=Player.objects.create(display_name="Boris", user=boris),
        seed=2,
    )
    round_ = Round.objects.create(tournament=tournament, number=1)
    match = Match.objects.create(tournament=tournament, round=round_, home=home, away=away)
    return Club(organizer, anna, boris, outsider, tournament, home, away, match)


@pytest.fixture
def club(db) -> Club:
    return make_club()


@pytest.fixture
def new_club():
    """``make_club`` itself, for tests that need their own transactions (threads)."""
    return make_club
