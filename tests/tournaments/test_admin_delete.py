"""Deleting a played tournament in the admin works (its matches go with it) and replays the
ratings without it; an entry that has played cannot be deleted on its own."""

import pytest
from django.contrib.auth.models import User
from django.db.models import RestrictedError

from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Tournament
from tournaments.ratings import ledger
from tournaments.ratings.models import RatingChange

pytestmark = pytest.mark.django_db


def test_the_admin_deletes_a_played_tournament_and_its_ratings_go(client, club):
    match_result_record(match=club.match, by=club.organizer, score=(3, 1))
    ledger.ratings_apply(club.match.pk)
    assert RatingChange.objects.filter(match=club.match).count() == 2
    client.force_login(User.objects.create_superuser("root", password="x"))

    url = f"/admin/tournaments/tournament/{club.tournament.pk}/delete/"
    confirm = client.get(url)
    deleted = client.post(url, {"post": "yes"})

    assert confirm.status_code == 200 and "Cannot delete" not in confirm.content.decode()
    assert deleted.status_code == 302
    assert not Tournament.objects.filter(pk=club.tournament.pk).exists()
    assert not Match.objects.filter(pk=club.match.pk).exists()
    assert not RatingChange.objects.exists()


def test_an_entry_that_has_played_cannot_be_deleted_alone(club):
    with pytest.raises(RestrictedError):
        Entry.objects.filter(pk=club.home.pk).delete()
