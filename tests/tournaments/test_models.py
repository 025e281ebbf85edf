import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from tournaments.models import Entry, Player, Tournament

pytestmark = pytest.mark.django_db


def test_a_new_tournament_starts_as_a_draft():
    tournament = Tournament.objects.create(name="Cup", slug="cup", variant="short")

    assert tournament.status == Tournament.Status.DRAFT


def test_a_player_can_enter_a_tournament_only_once():
    tournament = Tournament.objects.create(name="Cup", slug="cup", variant="long")
    player = Player.objects.create(display_name="Anna")
    Entry.objects.create(tournament=tournament, player=player)

    with pytest.raises(IntegrityError):
        Entry.objects.create(tournament=tournament, player=player)


@pytest.mark.parametrize("country", ["lv", "LVA", "L1"])
def test_a_country_must_be_two_capital_letters(country):
    player = Player(display_name="Anna", country=country)

    with pytest.raises(ValidationError) as error:
        player.full_clean()

    assert "country" in error.value.message_dict
