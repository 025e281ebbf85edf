"""The demo seed keeps the players already on the site: in a database of their own (the other
tests of the seed share one demo: ``test_seed_demo``)."""

import pytest

from tests.tournaments.test_seed_demo import seed_demo
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_it_keeps_existing_players_and_enters_them():
    Player.objects.create(display_name="Anna Berzina", club="Riga Nardy", country="LV")

    seed_demo()

    anna = Player.objects.get(display_name="Anna Berzina")
    assert anna.club == "Riga Nardy"
    assert anna.tournaments.count() == 5  # and the Friday Open's sign-up
