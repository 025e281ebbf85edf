"""Trust between clubs, through the API as a new user would try it (issue 27): an organizer of one
club who enters another club's player in a tournament of their own, starts it and records the
player's match there, gains no right over that player. The five calls of the review and the
merge now stop with 403 and change nothing; the player's own club still decides."""

import pytest
from django.contrib.auth.models import User

from tournaments.models import Entry, Match, Player, Tournament
from tournaments.players.models import IdentityAudit, PlayerClaim

pytestmark = pytest.mark.django_db


def as_user(client, user):
    client.force_login(user)
    return client


def created(response) -> dict:
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def riga(client):
    """Riga's organizer runs Riga Open (running) with P, a player of Riga with no account."""
    organizer = User.objects.create_user("riga_organizer")
    api = as_user(client, organizer)
    created(api.post("/api/v1/clubs/new", {"name": "Riga"}, content_type="application/json"))
    p = created(api.post("/api/v1/players/new", {"display_name": "P", "club": "riga"},
                         content_type="application/json"))  # fmt: skip
    q = created(api.post("/api/v1/players/new", {"display_name": "Q"},
                         content_type="application/json"))  # fmt: skip
    assert p["home_club"] == "riga" and q["home_club"] == "riga"  # Riga is her only club
    open_ = created(api.post("/api/v1/tournaments/new", {"name": "Riga Open", "slug": "riga-open",
                                                         "variant": "long", "club": "riga"},
                             content_type="application/json"))  # fmt: skip
    slug = open_["slug"]
    assert api.post(f"/api/v1/tournaments/{slug}/open-registration").status_code == 200
    for player in (p, q):
        created(api.post(f"/api/v1/tournaments/{slug}/entries/new", {"player_id": player["id"]},
                         content_type="application/json"))  # fmt: skip
    assert api.post(f"/api/v1/tournaments/{slug}/start").status_code == 200
    return organizer, p["id"]


def test_the_five_calls_and_the_merge_are_refused_and_change_nothing(client, riga):
    riga_organizer, p = riga
    accomplice = User.objects.create_user("accomplice")
    attacker = User.objects.create_user("attacker")

    # 1. The accomplice claims P (pending).
    claim = created(as_user(client, accomplice).post(f"/api/v1/players/{p}/claim"))
    assert claim["state"] == "pending"

    # 2. The attacker makes a club and a tournament in it.
    api = as_user(client, attacker)
    created(api.post("/api/v1/clubs/new", {"name": "Trap Club"}, content_type="application/json"))
    trap = created(api.post("/api/v1/tournaments/new", {"name": "Trap", "variant": "long",
                                                        "club": "trap-club", "match_length": 1},
                            content_type="application/json"))["slug"]  # fmt: skip
    junk = created(api.post("/api/v1/players/new", {"display_name": "Junk"},
                            content_type="application/json"))  # fmt: skip
    assert junk["home_club"] == "trap-club"

    # 3. The attacker enters Riga's P (allowed: entering is not a right over P), starts the
    #    tournament and records P's match in it.
    api.post(f"/api/v1/tournaments/{trap}/open-registration")
    entry = created(api.post(f"/api/v1/tournaments/{trap}/entries/new", {"player_id": p},
                             content_type="application/json"))  # fmt: skip
    created(api.post(f"/api/v1/tournaments/{trap}/entries/new", {"player_id": junk["id"]},
                     content_type="application/json"))  # fmt: skip
    assert api.post(f"/api/v1/tournaments/{trap}/start").status_code == 200
    match = Match.objects.get(tournament__slug=trap)
    recorded = api.post(f"/api/v1/matches/{match.pk}/result", {"score": [1, 0]},
                        content_type="application/json")  # fmt: skip
    assert recorded.status_code == 200 and recorded.json()["status"] == "final"
    state = snapshot(p)

    # 4. The claim is not the attacker's to see or decide.
    assert api.get("/api/v1/claims/").json()["count"] == 0
    approve = api.post(f"/api/v1/claims/{claim['id']}/approve")
    assert approve.status_code == 403 and approve.json()["error"]["code"] == "not_allowed"
    assert api.post(f"/api/v1/claims/{claim['id']}/decline").status_code == 403

    # The merge: the attacker's junk player may not swallow P, nor P the junk.
    merge = api.post(f"/api/v1/players/{junk['id']}/merge", {"duplicate": p},
                     content_type="application/json")  # fmt: skip
    assert merge.status_code == 403 and merge.json()["error"]["code"] == "not_allowed"
    assert api.post(f"/api/v1/players/{p}/merge", {"duplicate": junk["id"]},
                    content_type="application/json").status_code == 403  # fmt: skip
    assert api.get(f"/api/v1/identity/?player={p}").json()["count"] == 0
    assert snapshot(p) == state

    # 5. Deleting the entry of a started tournament withdraws it: the trace stays.
    assert api.delete(f"/api/v1/tournaments/{trap}/entries/{entry['id']}/").status_code == 204
    assert Entry.objects.get(pk=entry["id"]).withdrawn

    # P is unlinked, unmerged and in Riga Open, and the accomplice's claim still waits.
    player = Player.objects.get(pk=p)
    assert player.user is None and player.home_club.slug == "riga"
    assert Entry.objects.filter(player=player, tournament__slug="riga-open").exists()
    assert PlayerClaim.objects.get(pk=claim["id"]).state == "pending"
    assert not IdentityAudit.objects.exists()


def test_the_players_own_claim_is_approved_by_its_club(client, riga):
    riga_organizer, p = riga
    owner = User.objects.create_user("p_himself")
    claim = created(as_user(client, owner).post(f"/api/v1/players/{p}/claim"))
    api = as_user(client, riga_organizer)
    assert [c["id"] for c in api.get("/api/v1/claims/").json()["results"]] == [claim["id"]]
    approved = api.post(f"/api/v1/claims/{claim['id']}/approve")
    assert approved.status_code == 200 and approved.json()["state"] == "approved"
    assert Player.objects.get(pk=p).user == owner
    trail = api.get(f"/api/v1/identity/?player={p}").json()["results"]
    assert [(row["action"], row["actor"]) for row in trail] == [
        ("claim-approved", "riga_organizer")
    ]
    assert trail[0]["before"]["player"]["user"] is None


def test_a_player_is_made_only_for_a_club_the_caller_organizes(client, riga):
    stranger = User.objects.create_user("stranger")
    refused = as_user(client, stranger).post(
        "/api/v1/players/new", {"display_name": "R", "club": "riga"},
        content_type="application/json",
    )  # fmt: skip
    assert refused.status_code == 403 and not Player.objects.filter(display_name="R").exists()
    unknown = client.post("/api/v1/players/new", {"display_name": "R", "club": "nowhere"},
                          content_type="application/json")  # fmt: skip
    assert unknown.status_code == 400 and not Player.objects.filter(display_name="R").exists()
    free = created(client.post("/api/v1/players/new", {"display_name": "R"},
                               content_type="application/json"))  # fmt: skip
    assert free["home_club"] is None  # no club of the stranger's: staff decide
    assert client.get(f"/api/v1/players/{free['id']}/").json()["home_club"] is None


def snapshot(p: int) -> dict:
    """Everything the identity actions could change."""
    return {
        "players": sorted(
            Player.objects.values_list("pk", "display_name", "user_id", "home_club_id")
        ),  # fmt: skip
        "claims": sorted(PlayerClaim.objects.values_list("pk", "player_id", "user_id", "state")),
        "entries": sorted(Entry.objects.values_list("pk", "player_id", "tournament_id")),
        "tournaments": sorted(Tournament.objects.values_list("slug", "status")),
        "audit": IdentityAudit.objects.count(),
    }
