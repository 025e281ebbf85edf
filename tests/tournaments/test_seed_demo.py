from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import Entry, Player, Tournament

pytestmark = pytest.mark.django_db


def seed_demo() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def counts() -> tuple[int, int, int]:
    return Player.objects.count(), Tournament.objects.count(), Entry.objects.count()


def test_it_creates_a_club_with_players_and_one_long_nardy_tournament():
    output = seed_demo()

    assert counts() == (8, 1, 8)
    tournament = Tournament.objects.get()
    assert tournament.variant == Tournament.Variant.LONG
    assert set(tournament.players.values_list("club", flat=True)) == {"Demo Nardy Club"}
    assert sorted(tournament.entries.values_list("seed", flat=True)) == list(range(1, 9))
    assert "8 players and 8 entries created" in output


def test_running_it_again_creates_nothing():
    seed_demo()
    first = counts()

    output = seed_demo()

    assert counts() == first
    assert "already there" in output
    assert "0 players and 0 entries created" in output


def test_it_keeps_existing_players_and_enters_them():
    Player.objects.create(display_name="Anna Berzina", club="Riga Nardy", country="LV")

    seed_demo()

    anna = Player.objects.get(display_name="Anna Berzina")
    assert anna.club == "Riga Nardy"
    assert anna.tournaments.count() == 1
    assert counts() == (8, 1, 8)
