"""Claims and merges on the site: a user claims a player on its page, an organizer of its home club
decides on the claims page, and merges a duplicate after a preview. Refusals are 4xx that change
nothing."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.clubs.services import club_create
from tournaments.models import Entry, Player, Tournament
from tournaments.players.models import PlayerClaim
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    olga = User.objects.create_user("olga")
    anna_user = User.objects.create_user("anna")
    riga = club_create(by=olga, name="Riga")
    players = {name: Player.objects.create(display_name=name, home_club=riga)
               for name in ("Anna", "Anna B.")}  # fmt: skip
    for name, player in players.items():
        tournament = tournament_create(organizer=olga, name=f"Night {name}", variant="long",
                                       club=riga)  # fmt: skip
        Entry.objects.create(tournament=tournament, player=player)
    return olga, anna_user, players


def test_a_user_claims_a_player_and_the_clubs_organizer_approves(client, world):
    olga, anna_user, players = world
    client.force_login(anna_user)
    page = client.get(reverse("player", args=[players["Anna"].pk])).content.decode()
    assert 'data-action="claim"' in page
    assert client.post(reverse("player-claim", args=[players["Anna"].pk])).status_code == 302
    page = client.get(reverse("player", args=[players["Anna"].pk])).content.decode()
    assert 'data-role="claimed"' in page and 'data-action="claim"' not in page
    assert client.get(reverse("player-claims")).content.decode().count('data-role="claims"') == 0
    claim = PlayerClaim.objects.get()
    refused = client.post(reverse("player-claims"), {"claim": claim.pk, "decision": "approve"})
    assert refused.status_code == 403
    client.force_login(olga)
    listed = client.get(reverse("player-claims")).content.decode()
    assert 'data-role="claims"' in listed and "Anna" in listed
    client.post(reverse("player-claims"), {"claim": claim.pk, "decision": "approve"})
    assert Player.objects.get(display_name="Anna").user == anna_user


def test_a_claim_of_a_linked_player_is_a_409(client, world):
    olga, anna_user, players = world
    Player.objects.filter(pk=players["Anna"].pk).update(user=olga)
    client.force_login(anna_user)
    response = client.post(reverse("player-claim", args=[players["Anna"].pk]))
    assert response.status_code == 409 and not PlayerClaim.objects.exists()


def test_the_merge_page_previews_and_merges(client, world):
    olga, _, players = world
    client.force_login(olga)
    url = reverse("player-merge", args=[players["Anna"].pk])
    preview = client.get(url, {"drop": players["Anna B."].pk}).content.decode()
    assert 'data-role="merge-preview"' in preview and "Night Anna B." in preview
    response = client.post(url, {"drop": players["Anna B."].pk})
    assert response.status_code == 302
    assert not Player.objects.filter(display_name="Anna B.").exists()
    assert Tournament.objects.filter(entries__player=players["Anna"]).count() == 2


def test_only_those_who_may_decide_see_the_merge_page(client, world):
    _, anna_user, players = world
    client.force_login(anna_user)
    url = reverse("player-merge", args=[players["Anna"].pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"drop": players["Anna B."].pk}).status_code == 403
    assert Player.objects.count() == 2
