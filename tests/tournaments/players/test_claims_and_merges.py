"""Claims and merges: a user claims a player and an organizer of the player's home club decides;
a merge moves entries, results, sign-ups and the account over in one transaction, and the rating
lists are replayed so that the kept player's rating counts every match."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.errors import Conflict, NotAllowed
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.players import services as player_services
from tournaments.players.models import PlayerClaim
from tournaments.players.services import (
    claim_approve,
    claim_decline,
    claim_request,
    players_merge,
)
from tournaments.ratings.models import Rating, RatingAudit, RatingChange
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    users = {name: User.objects.create_user(name) for name in ("olga", "ivan", "mila", "anna")}
    riga = club_create(by=users["olga"], name="Riga")
    member_add(club=riga, by=users["olga"], username="ivan", role=Membership.Role.ORGANIZER)
    club_create(by=users["mila"], name="Tallinn")
    return users, riga


def played(organizer, club, home: Player, away: Player, *, home_wins=True) -> Match:
    """A rated one-match round robin of the club, decided."""
    tournament = tournament_create(organizer=organizer, name=f"{home} v {away}",
                                   variant="long", club=club, match_length=1)  # fmt: skip
    Tournament.objects.filter(pk=tournament.pk).update(rated=True, status="running")
    tournament.refresh_from_db()
    first = Entry.objects.create(tournament=tournament, player=home, seed=1)
    second = Entry.objects.create(tournament=tournament, player=away, seed=2)
    round_ = Round.objects.create(tournament=tournament, number=1)
    match = Match.objects.create(tournament=tournament, round=round_, home=first, away=second)
    return match_result_record(match=match, by=organizer, score=(1, 0) if home_wins else (0, 1))


def test_a_claim_is_approved_by_an_organizer_of_the_players_home_club(world):
    users, riga = world
    anna, boris = (
        Player.objects.create(display_name="Anna", home_club=riga),
        Player.objects.create(display_name="Boris", home_club=riga),
    )
    played(users["olga"], riga, anna, boris)
    claim = claim_request(player=anna, by=users["anna"])
    with pytest.raises(NotAllowed):
        claim_approve(claim=claim, by=users["mila"])  # another club's owner
    claim_approve(claim=claim, by=users["ivan"])
    anna.refresh_from_db()
    assert anna.user == users["anna"]
    assert PlayerClaim.objects.get().state == "approved"
    with pytest.raises(Conflict, match="linked to an account"):
        claim_request(player=anna, by=users["mila"])


def test_a_claim_can_be_declined_and_refusals_change_nothing(world):
    users, riga = world
    anna = Player.objects.create(display_name="Anna")
    with pytest.raises(NotAllowed):
        claim_request(player=anna, by=AnonymousUser())
    claim = claim_request(player=anna, by=users["anna"])
    with pytest.raises(Conflict, match="claimed this player already"):
        claim_request(player=anna, by=users["anna"])
    with pytest.raises(NotAllowed):  # Anna has no home club: only staff decide
        claim_decline(claim=claim, by=users["olga"])
    staff = User.objects.create_user("sam", is_staff=True)
    claim_decline(claim=claim, by=staff)
    anna.refresh_from_db()
    assert anna.user is None and PlayerClaim.objects.get().state == "declined"


def test_a_merge_moves_everything_and_replays_the_ratings(
    world, django_capture_on_commit_callbacks, eager_tasks
):
    users, riga = world
    anna, duplicate, boris, carl = (Player.objects.create(display_name=name, home_club=riga)
                                    for name in ("Anna", "Anna B.", "Boris", "Carl"))  # fmt: skip
    Player.objects.filter(pk=duplicate.pk).update(user=users["anna"], country="LV")
    with django_capture_on_commit_callbacks(execute=True):
        played(users["olga"], riga, anna, boris)
        played(users["olga"], riga, duplicate, carl)
        played(users["olga"], riga, carl, duplicate)
    assert Rating.objects.get(player=anna).matches == 1
    with django_capture_on_commit_callbacks(execute=True):
        kept = players_merge(keep=anna, drop=duplicate, by=users["ivan"])
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert (kept.user, kept.country) == (users["anna"], "LV")
    assert Entry.objects.filter(player=anna).count() == 3
    rating = Rating.objects.get(player=anna)
    assert rating.matches == 3 and RatingChange.objects.filter(player=anna).count() == 3
    audit = RatingAudit.objects.get(action="merge")
    assert audit.actor == users["ivan"] and audit.note == "Anna B. → Anna"
    # The replay gives what the three matches give to one player from the start.
    assert Rating.objects.get(player=carl).matches == 2


def test_a_merge_is_one_transaction(world, monkeypatch):
    users, riga = world
    anna, duplicate, boris = (Player.objects.create(display_name=n, home_club=riga)
                              for n in ("Anna", "Anna B.", "Boris"))  # fmt: skip
    played(users["olga"], riga, anna, boris)
    played(users["olga"], riga, duplicate, boris)
    before = sorted(Entry.objects.values_list("pk", "player_id"))

    class Broken:
        """Claims that cannot be moved: the merge fails after the entries have moved."""

        class objects:  # noqa: N801
            @staticmethod
            def filter(**where):
                raise RuntimeError("the disk is full")

    monkeypatch.setattr(player_services, "PlayerClaim", Broken)
    with pytest.raises(RuntimeError):
        players_merge(keep=anna, drop=duplicate, by=users["olga"])
    assert sorted(Entry.objects.values_list("pk", "player_id")) == before
    assert Player.objects.filter(pk=duplicate.pk).exists()


@pytest.mark.parametrize("case", ["same tournament", "two accounts", "not allowed", "itself"])
def test_merges_that_cannot_be_are_refused(world, case):
    users, riga = world
    anna, duplicate, boris = (Player.objects.create(display_name=n, home_club=riga)
                              for n in ("Anna", "Anna B.", "Boris"))  # fmt: skip
    played(users["olga"], riga, anna, boris)
    played(users["olga"], riga, duplicate, boris)
    by, error, keep, drop = users["olga"], Conflict, anna, duplicate
    if case == "same tournament":
        drop, match = boris, "Both played in"
    elif case == "two accounts":
        Player.objects.filter(pk=anna.pk).update(user=users["anna"])
        Player.objects.filter(pk=duplicate.pk).update(user=users["mila"])
        match = "two different accounts"
    elif case == "not allowed":
        by, error, match = users["mila"], NotAllowed, "Only staff"
    else:
        drop, match = anna, "two different"
        error = player_services.InvalidInput
    with pytest.raises(error, match=match):
        players_merge(keep=keep, drop=drop, by=by)
    assert Player.objects.count() == 3 and Entry.objects.filter(player=duplicate).count() == 1
