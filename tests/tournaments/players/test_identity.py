"""The identity rule (tournaments/policy.py, players/ownership.py): a player's record belongs to
the player and to its home club, the club that made it. Entering a player, playing them or
recording their results gives no right; claims, unlinks and merges are for the home club's
runners and staff, each is in the identity trail with both players as they were, and staff undo
a merge."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from tests.tournaments.players.test_claims_and_merges import played
from tests.tournaments.test_approvals import ledger_rows
from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Player
from tournaments.players.audit import identity_trail
from tournaments.players.models import IdentityAudit, PlayerClaim
from tournaments.players.services import (
    claim_approve,
    claim_decline,
    claim_request,
    identity_undo,
    player_create,
    player_unlink,
    players_merge,
)
from tournaments.policy import may
from tournaments.ratings import ledger
from tournaments.ratings.models import Rating, RatingAudit, RatingChange
from tournaments.services import (
    NewEntry,
    entries_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)
from tournaments.signups.services import signup_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    users = {name: User.objects.create_user(name) for name in ("olga", "ivan", "mila", "anna")}
    users["sam"] = User.objects.create_user("sam", is_staff=True)
    riga = club_create(by=users["olga"], name="Riga")
    member_add(club=riga, by=users["olga"], username="ivan", role=Membership.Role.ORGANIZER)
    tallinn = club_create(by=users["mila"], name="Tallinn")
    return users, riga, tallinn


def ratings() -> list[tuple[int, int, float, int]]:
    return sorted(
        (r.rating_list_id, r.player_id, round(r.rating, 9), r.matches) for r in Rating.objects.all()
    )


def test_a_new_player_takes_the_club_given_else_the_makers_only_club(world):
    users, riga, tallinn = world
    assert player_create(by=users["olga"], display_name="A", club=riga).home_club == riga
    assert player_create(by=users["ivan"], display_name="B").home_club == riga  # ivan's only club
    with pytest.raises(NotAllowed, match="only for a club you organize"):
        player_create(by=users["mila"], display_name="C", club=riga)
    assert player_create(by=users["anna"], display_name="D").home_club is None  # runs no club
    club_create(by=users["olga"], name="Jurmala")  # now olga runs two: she must choose
    assert player_create(by=users["olga"], display_name="E").home_club is None
    # Staff run every club, but their own only clubs count.
    assert player_create(by=users["sam"], display_name="F").home_club is None
    with pytest.raises(NotAllowed):
        player_create(by=AnonymousUser(), display_name="G")
    assert sorted(Player.objects.values_list("display_name", flat=True)) == list("ABDEF")


def test_players_entered_by_name_or_by_sign_up_belong_to_the_tournaments_club(world):
    users, riga, tallinn = world
    riga_cup = tournament_create(organizer=users["olga"], name="Riga Cup", variant="long",
                                 club=riga, self_signup=True)  # fmt: skip
    tournament_open_registration(tournament=riga_cup, by=users["olga"])
    entries_register(tournament=riga_cup, by=users["olga"], entries=[NewEntry(name="Pavel")])
    signup_request(tournament=riga_cup, by=users["anna"], display_name="Anna")
    assert Player.objects.get(display_name="Pavel").home_club == riga
    assert Player.objects.get(display_name="Anna").home_club == riga
    # Entered in another club's tournament, a player stays Riga's.
    tallinn_cup = tournament_create(organizer=users["mila"], name="Tallinn Cup", variant="long",
                                    club=tallinn)  # fmt: skip
    entries_register(tournament=tallinn_cup, by=users["mila"],
                     entries=[NewEntry(name="Pavel"), NewEntry(name="Toomas")])  # fmt: skip
    assert Player.objects.get(display_name="Pavel").home_club == riga
    assert Player.objects.get(display_name="Toomas").home_club == tallinn


def test_a_new_player_may_not_take_an_account_that_has_a_player(world):
    users, riga, _ = world
    cup = tournament_create(organizer=users["olga"], name="Cup", variant="long", club=riga)
    Player.objects.create(display_name="Anna", user=users["anna"])
    with pytest.raises(InvalidInput, match="has a player already"):
        entries_register(tournament=cup, by=users["olga"],
                         entries=[NewEntry(name="Anna II", username="anna")])  # fmt: skip
    with pytest.raises(InvalidInput, match="has a player already"):
        entries_register(tournament=cup, by=users["olga"],
                         entries=[NewEntry(name="Ivan", username="ivan"),
                                  NewEntry(name="Ivan II", username="ivan")])  # fmt: skip
    assert Player.objects.count() == 1 and not Entry.objects.exists()


def test_entering_playing_and_recording_give_no_right_over_another_clubs_player(world):
    users, riga, tallinn = world
    pavel = player_create(by=users["olga"], display_name="Pavel", club=riga)
    trap = tournament_create(organizer=users["mila"], name="Trap", variant="long",
                             club=tallinn, match_length=1)  # fmt: skip
    tournament_open_registration(tournament=trap, by=users["mila"])
    entries_register(tournament=trap, by=users["mila"],
                     entries=[NewEntry(name="Pavel"), NewEntry(name="Mila's own")])  # fmt: skip
    tournament_start(tournament=trap, by=users["mila"])
    match_result_record(match=Match.objects.get(tournament=trap), by=users["mila"], score=(1, 0))
    own = Player.objects.get(display_name="Mila's own")
    assert not may(users["mila"], "player.decide", pavel)
    assert may(users["mila"], "player.decide", own)
    claim = claim_request(player=pavel, by=users["anna"])
    for refused in (
        lambda: claim_approve(claim=claim, by=users["mila"]),
        lambda: claim_decline(claim=claim, by=users["mila"]),
        lambda: players_merge(keep=own, drop=pavel, by=users["mila"]),
        lambda: players_merge(keep=pavel, drop=own, by=users["mila"]),
    ):
        with pytest.raises(NotAllowed):
            refused()
    assert not identity_trail(user=users["mila"], player=pavel).exists()
    pavel.refresh_from_db()
    assert pavel.user is None and PlayerClaim.objects.get().state == "pending"
    assert not IdentityAudit.objects.exists()
    claim_approve(claim=claim, by=users["ivan"])  # Riga's organizer decides
    pavel.refresh_from_db()
    assert pavel.user == users["anna"]


def test_a_merge_of_two_clubs_players_is_for_staff(world):
    users, riga, tallinn = world
    ours = player_create(by=users["olga"], display_name="Anna", club=riga)
    theirs = player_create(by=users["mila"], display_name="Anna K.", club=tallinn)
    homeless = player_create(by=users["anna"], display_name="Anna L.")
    for by, keep, drop in ((users["olga"], ours, theirs), (users["mila"], theirs, ours),
                           (users["olga"], ours, homeless)):  # fmt: skip
        with pytest.raises(NotAllowed, match="merged by staff"):
            players_merge(keep=keep, drop=drop, by=by)
    assert Player.objects.count() == 3
    kept = players_merge(keep=ours, drop=theirs, by=users["sam"])
    assert kept.home_club == riga and Player.objects.count() == 2


def test_every_identity_change_is_in_the_trail_with_the_players_before(world):
    users, riga, _ = world
    anna = player_create(by=users["olga"], display_name="Anna", club=riga)
    duplicate = player_create(by=users["olga"], display_name="Anna B.", club=riga)
    Player.objects.filter(pk=duplicate.pk).update(country="LV")
    claim_decline(claim=claim_request(player=anna, by=users["mila"]), by=users["ivan"])
    claim_approve(claim=claim_request(player=duplicate, by=users["anna"]), by=users["ivan"])
    player_unlink(player=duplicate, by=users["anna"])  # the account itself may
    players_merge(keep=anna, drop=Player.objects.get(pk=duplicate.pk), by=users["olga"])
    rows = list(IdentityAudit.objects.order_by("pk"))
    assert [(r.action, r.actor.username) for r in rows] == [
        ("claim-declined", "ivan"), ("claim-approved", "ivan"), ("unlinked", "anna"),
        ("merged", "olga"),
    ]  # fmt: skip
    assert rows[1].before["player"]["user"] is None and rows[2].before["player"]["username"] == (
        "anna"
    )
    merged = rows[3]
    assert merged.before["player"]["display_name"] == "Anna"
    assert merged.before["other"] | {"created_at": None} == {
        "id": duplicate.pk, "display_name": "Anna B.", "club": "", "country": "LV",
        "gender": "", "birth_year": None, "region": "", "sport_rank": "", "sport_rank_since": None,
        "home_club": riga.pk, "home_club_name": "Riga", "user": None, "username": None,
        "created_at": None,
    }  # fmt: skip
    assert merged.note == "Anna B. → Anna" and merged.other_player_id == duplicate.pk
    # Riga's runners and staff read it; another club's owner reads nothing.
    assert identity_trail(user=users["ivan"]).count() == 4
    assert identity_trail(user=users["sam"], player=anna).count() == 2  # declined + merged
    assert not identity_trail(user=users["mila"]).exists()


def test_only_the_account_or_those_who_decide_may_unlink(world):
    users, riga, _ = world
    anna = player_create(by=users["olga"], display_name="Anna", club=riga)
    Player.objects.filter(pk=anna.pk).update(user=users["anna"])
    with pytest.raises(NotAllowed):
        player_unlink(player=anna, by=users["mila"])
    assert Player.objects.get(pk=anna.pk).user == users["anna"]
    player_unlink(player=anna, by=users["ivan"])
    assert Player.objects.get(pk=anna.pk).user is None
    with pytest.raises(Conflict, match="not linked"):
        player_unlink(player=anna, by=users["ivan"])


def test_staff_undo_a_merge_and_the_lists_equal_a_serial_replay(
    world, django_capture_on_commit_callbacks, eager_tasks
):
    users, riga, _ = world
    anna, duplicate, boris, carl = (
        player_create(by=users["olga"], display_name=name, club=riga)
        for name in ("Anna", "Anna B.", "Boris", "Carl")
    )
    Player.objects.filter(pk=duplicate.pk).update(user=users["anna"], country="LV")
    with django_capture_on_commit_callbacks(execute=True):
        played(users["olga"], riga, anna, boris)
        moved = [played(users["olga"], riga, duplicate, carl),
                 played(users["olga"], riga, carl, duplicate, home_wins=False)]  # fmt: skip
        played(users["olga"], riga, boris, carl)
    before_merge = (ledger_rows(), ratings())
    history = sorted(RatingChange.objects.filter(player=duplicate).values_list("match", "after"))
    with django_capture_on_commit_callbacks(execute=True):
        players_merge(keep=anna, drop=duplicate, by=users["ivan"])
    assert Rating.objects.get(player=anna).matches == 3
    merge = IdentityAudit.objects.get(action="merged")
    with pytest.raises(NotAllowed, match="Only staff"):
        identity_undo(change=merge, by=users["olga"])

    with django_capture_on_commit_callbacks(execute=True):
        restored = identity_undo(change=merge, by=users["sam"])

    assert restored.pk == duplicate.pk and restored.display_name == "Anna B."
    assert (restored.user, restored.country, restored.home_club) == (users["anna"], "LV", riga)
    anna.refresh_from_db()
    assert (anna.user, anna.country) == (None, "")
    assert sorted(Entry.objects.filter(player=restored).values_list("pk", flat=True)) == sorted(
        entry for match in moved for entry in (match.home_id, match.away_id)
        if Entry.objects.get(pk=entry).player_id == duplicate.pk
    )  # fmt: skip
    assert Match.objects.filter(home__player=restored).count() == 1
    assert Match.objects.filter(away__player=restored).count() == 1
    # Its rating history is back, and the lists are what a serial replay gives.
    assert sorted(RatingChange.objects.filter(player=restored).values_list("match", "after")) == (
        history
    )
    assert (ledger_rows(), ratings()) == before_merge
    ledger.ratings_replay(None)
    assert (ledger_rows(), ratings()) == before_merge
    undo = IdentityAudit.objects.get(action="unmerged")
    assert merge.__class__.objects.get(pk=merge.pk).undone_by == undo
    assert RatingAudit.objects.filter(action="unmerge", actor=users["sam"]).count() == 1
    with pytest.raises(Conflict, match="undone already"):
        identity_undo(change=IdentityAudit.objects.get(pk=merge.pk), by=users["sam"])


def test_an_undo_is_refused_when_the_name_is_taken_again(world):
    users, riga, _ = world
    anna = player_create(by=users["olga"], display_name="Anna", club=riga)
    duplicate = player_create(by=users["olga"], display_name="Anna B.", club=riga)
    players_merge(keep=anna, drop=duplicate, by=users["olga"])
    player_create(by=users["olga"], display_name="Anna B.", club=riga)
    merge = IdentityAudit.objects.get(action="merged")
    with pytest.raises(Conflict, match="exists again"):
        identity_undo(change=merge, by=users["sam"])
    assert Player.objects.count() == 2 and IdentityAudit.objects.count() == 1


def test_the_admin_decides_claims_and_unlinks_through_the_services(client, world):
    users, riga, _ = world
    anna = player_create(by=users["olga"], display_name="Anna", club=riga)
    claim = claim_request(player=anna, by=users["anna"])
    client.force_login(User.objects.create_superuser("root"))
    approved = client.post("/admin/tournaments/playerclaim/",
                           {"action": "approve", "_selected_action": [claim.pk]})  # fmt: skip
    assert approved.status_code == 302
    assert Player.objects.get(pk=anna.pk).user == users["anna"]
    unlinked = client.post("/admin/tournaments/player/",
                           {"action": "unlink", "_selected_action": [anna.pk]})  # fmt: skip
    assert unlinked.status_code == 302 and Player.objects.get(pk=anna.pk).user is None
    assert list(IdentityAudit.objects.order_by("pk").values_list("action", "actor__username")) == [
        ("claim-approved", "root"), ("unlinked", "root"),
    ]  # fmt: skip
    row = IdentityAudit.objects.first()
    assert client.get("/admin/tournaments/identityaudit/").status_code == 200
    page = client.get(f"/admin/tournaments/identityaudit/{row.pk}/change/").content.decode()
    assert "Anna" in page and 'name="_save"' not in page  # read, never written
    page = client.get(f"/admin/tournaments/player/{anna.pk}/change/").content.decode()
    assert 'name="user"' not in page  # the link changes only through the services
