import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from tournaments.models import Entry, Match, Player, Tournament

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


@pytest.mark.parametrize(("length", "games"), [(None, None), (5, 3)])
def test_a_match_is_played_to_points_or_as_a_fixed_number_of_games_not_both(length, games):
    with pytest.raises(IntegrityError):
        Tournament.objects.create(
            name="Cup", slug="cup", variant="long", match_length=length, match_games=games
        )


def test_a_bracket_slot_names_one_match_of_a_tournament():
    tournament = Tournament.objects.create(name="Cup", slug="cup", variant="short")
    Match.objects.create(tournament=tournament, slot="W1-1")
    Match.objects.create(tournament=tournament)  # matches of rounds have no slot
    Match.objects.create(tournament=tournament)
    with pytest.raises(IntegrityError):
        Match.objects.create(tournament=tournament, slot="W1-1")
