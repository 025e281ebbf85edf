"""A slip corrected (issue 46): the club that made a player (the owners and organizers of its
home club) deletes or renames a mistaken new player while they are in no match, decided or
not; an entry without matches goes with a deleted player. Both are written to the identity
trail; a player in a match is refused with its reason and a 4xx, nothing changed."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.support.database import database_state
from tournaments import services
from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.errors import Conflict, NotAllowed
from tournaments.models import Entry, Player
from tournaments.players.models import IdentityAudit
from tournaments.players.services import player_delete, player_rename

pytestmark = pytest.mark.django_db

JUNK = "Rustam GuliyevElena Kim"


@pytest.fixture
def world():
    """Riga (owned by Olga, organized by Ivan) and Tallinn (Mila); Riga's evening, a draft,
    with the junk player entered by Ivan's slip; staff Sam."""
    users = {name: User.objects.create_user(name) for name in ("olga", "ivan", "mila")}
    users["sam"] = User.objects.create_user("sam", is_staff=True)
    riga = club_create(by=users["olga"], name="Riga")
    member_add(club=riga, by=users["olga"], username="ivan", role=Membership.Role.ORGANIZER)
    club_create(by=users["mila"], name="Tallinn")
    evening = services.tournament_create(
        organizer=users["ivan"], name="Riga evening", variant="short", match_length=3, club=riga
    )
    (entry,) = services.entries_register(
        tournament=evening, by=users["ivan"], entries=[services.NewEntry(name=JUNK)]
    )
    assert entry.player.home_club == riga
    return users, evening, entry.player


def with_a_match(world) -> None:
    """The evening starts with the junk player and two others: a match is drawn for them."""
    users, evening, _junk = world
    services.entries_register(
        tournament=evening,
        by=users["ivan"],
        entries=[services.NewEntry(name="Boris"), services.NewEntry(name="Dina")],
    )
    services.tournament_start(tournament=evening, by=users["ivan"])


@pytest.mark.parametrize("who", ["olga", "ivan", "sam"])
def test_the_home_club_deletes_a_mistaken_player_with_its_entry_in_the_trail(world, who):
    users, evening, junk = world

    player_delete(player=junk, by=users[who])

    assert not Player.objects.filter(display_name=JUNK).exists()
    assert not Entry.objects.filter(tournament=evening).exists()
    row = IdentityAudit.objects.get(action="deleted")
    assert row.actor == users[who] and row.player is None and row.note == f"✕ {JUNK}"
    assert row.before["player"]["display_name"] == JUNK
    assert row.before["removed"]["entries"][0][1] == evening.slug
    assert row.home_club is not None and row.home_club.name == "Riga"  # Riga's runners read it


def test_another_club_may_not_delete_or_rename_the_player(world):
    users, _evening, junk = world
    before = database_state()

    with pytest.raises(NotAllowed):
        player_delete(player=junk, by=users["mila"])
    with pytest.raises(NotAllowed):
        player_rename(player=junk, by=users["mila"], name="Rustam Guliyev")

    assert database_state() == before


def test_a_player_in_a_match_is_not_deleted_even_by_staff(world):
    users, _evening, junk = world
    with_a_match(world)
    before = database_state()

    for who in ("ivan", "sam"):
        with pytest.raises(Conflict, match="is in a match already"):
            player_delete(player=junk, by=users[who])

    assert database_state() == before


def test_the_home_club_renames_a_new_player_in_the_trail(world):
    users, _evening, junk = world

    player_rename(player=junk, by=users["ivan"], name="Rustam Guliyev")

    junk.refresh_from_db()
    assert junk.display_name == "Rustam Guliyev"
    row = IdentityAudit.objects.get(action="renamed")
    assert row.actor == users["ivan"] and row.note == f"{JUNK} → Rustam Guliyev"


def test_once_in_a_match_only_staff_rename_the_player(world):
    users, _evening, junk = world
    with_a_match(world)
    before = database_state()

    with pytest.raises(NotAllowed, match="a player who has a match"):
        player_rename(player=junk, by=users["ivan"], name="Rustam Guliyev")
    assert database_state() == before

    player_rename(player=junk, by=users["sam"], name="Rustam Guliyev")
    assert Player.objects.filter(display_name="Rustam Guliyev").exists()


def test_the_pages_offer_delete_and_rename_to_the_home_club_and_refuse_with_a_match(world):
    users, evening, junk = world
    client = Client()
    client.force_login(users["ivan"])
    page = client.get(reverse("player", args=[junk.pk])).content.decode()
    delete_url = reverse("player-delete", args=[junk.pk])
    assert f'href="{delete_url}"' in page
    assert f'href="{reverse("player-rename", args=[junk.pk])}"' in page
    confirm = client.get(delete_url).content.decode()
    assert "Riga evening" in confirm  # its entry goes with it

    outsider = Client()
    outsider.force_login(users["mila"])
    assert outsider.post(delete_url).status_code == 403

    with_a_match(world)
    before = database_state()
    refused = client.post(delete_url)
    assert refused.status_code == 409
    assert "is in a match already" in refused.content.decode()
    assert database_state() == before
    page = client.get(reverse("player", args=[junk.pk])).content.decode()
    assert f'href="{delete_url}"' not in page
    assert client.post(reverse("player-rename", args=[junk.pk]), {"name": "X Y"}).status_code == 403

    assert evening.entries.count() == 3


def test_the_api_deletes_a_mistaken_player(world):
    users, evening, junk = world
    client = Client()
    client.force_login(users["mila"])
    url = f"/api/v1/players/{junk.pk}/delete"
    assert client.post(url).status_code == 403

    client.force_login(users["olga"])
    answer = client.post(url)

    assert answer.status_code == 204
    assert not Player.objects.filter(pk=junk.pk).exists()
    assert IdentityAudit.objects.filter(action="deleted").count() == 1


def test_the_trail_page_shows_the_deletion_to_the_home_club(world):
    users, _evening, junk = world
    player_delete(player=junk, by=users["ivan"])
    client = Client()
    client.force_login(users["olga"])

    page = client.get(reverse("identity-trail")).content.decode()

    assert 'data-action="deleted"' in page and "player deleted" in page
    assert JUNK in page and 'data-role="entries-removed">1 entry' in page
    assert "The other player before" not in page
