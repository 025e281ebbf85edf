"""The organizer's inbox (issue 46): what waits for the organizer of a tournament, each item one
tap from its decision; its count in the menu and on the tournament's pages, for them alone and
never in the copy of a page shared with others."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create
from tournaments.inbox.selectors import Kind, inbox_count, inbox_items
from tournaments.matches import results
from tournaments.models import Match, Player
from tournaments.players import services as players
from tournaments.services import tournament_create, tournament_open_registration
from tournaments.signups import services as signups
from tournaments.signups.models import SignUp

from .conftest import make_site

REFRESH = {"PUBLIC_PAGE_REFRESH_SECONDS": 60}


def kinds(user, **given) -> list[tuple[str, int]]:
    return [(item.kind.value, item.pk) for item in inbox_items(user=user, **given)]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def reported(site, one="Anna", other="Boris") -> Match:
    return reported_match(site.match(one, other))


def reported_match(match: Match) -> Match:
    """The match reported 3-1 by its home player."""
    by = User.objects.get(players__pk=match.home.player_id)
    return results.match_result_record(match=match, by=by, score=(3, 1))


def open_event(organizer, name="Tuesday", **settings):
    event = tournament_create(
        organizer=organizer, name=name, variant="long", self_signup=True, **settings
    )
    return tournament_open_registration(tournament=event, by=organizer)


def test_each_kind_appears_and_leaves_once_decided(site):
    olga = site.organizer
    rounds = Match.objects.filter(tournament=site.tournament).select_related("home__player")
    first, second = (list(rounds.filter(round__number=n).order_by("pk")) for n in (1, 2))
    assert kinds(olga) == [("to-play", match.pk) for match in first]
    assert inbox_count(user=olga) == 0  # the matches to play wait for their players

    match = reported_match(first[0])
    assert kinds(olga) == [("reported", match.pk), ("to-play", first[1].pk)]
    assert inbox_count(user=olga) == 1
    results.match_result_confirm(match=match, by=olga)
    assert kinds(olga) == [("to-play", first[1].pk)] and inbox_count(user=olga) == 0

    other = reported_match(first[1])
    away = User.objects.get(players__pk=other.away.player_id)
    results.match_result_dispute(match=other, by=away, note="It was 1-3")
    # Round 1 has nothing left to play: round 2's matches are the ones to play now.
    to_play = [("to-play", match.pk) for match in second]
    assert kinds(olga) == [("disputed", other.pk), *to_play] and inbox_count(user=olga) == 1
    results.match_result_resolve(match=other, by=olga)
    assert kinds(olga) == to_play
    assert inbox_count(user=olga) == 0


def test_sign_ups_and_claims_appear_and_leave_once_decided(db):
    olga, anna, mila = (User.objects.create_user(n) for n in ("olga", "anna", "mila"))
    event = open_event(olga, signup_approval=True)
    signup = signups.signup_request(tournament=event, by=anna, display_name="Anna")
    assert kinds(olga) == [("signup", signup.pk)] and inbox_count(user=olga) == 1
    signups.signup_approve(signup=signup, by=olga)
    assert kinds(olga) == [] and inbox_count(user=olga) == 0

    riga = club_create(by=olga, name="Riga")
    player = Player.objects.create(display_name="Mila K.", home_club=riga)
    claim = players.claim_request(player=player, by=mila)
    assert kinds(olga) == [("claim", claim.pk)] and inbox_count(user=olga) == 1
    assert kinds(olga, tournament=event) == []  # a tournament's inbox has no claims
    players.claim_decline(claim=claim, by=olga)
    assert kinds(olga) == [] and inbox_count(user=olga) == 0


def test_only_the_tournaments_the_user_runs(site):
    match = reported(site)
    others = [site.outsider, site.players["Boris"], site.players["Anna"]]
    assert all(kinds(user) == [] and inbox_count(user=user) == 0 for user in others)
    # A co-organizer and the runners of the tournament's club share the organizer's inbox.
    co, runner, member = (User.objects.create_user(n) for n in ("co", "runner", "member"))
    site.tournament.co_organizers.add(co)
    club = club_create(by=runner, name="Riga")
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    site.tournament.club = club
    site.tournament.save()
    for user in (co, runner):
        assert (Kind.REPORTED.value, match.pk) in kinds(user) and inbox_count(user=user) == 1
    assert kinds(member) == [] and inbox_count(user=member) == 0
    # Another organizer's tournament is not in Olga's inbox.
    otto = User.objects.create_user("otto")
    event = open_event(otto, signup_approval=True)
    signups.signup_request(tournament=event, by=site.outsider, display_name="Oscar")
    assert [kind for kind, _ in kinds(otto)] == ["signup"]
    assert "signup" not in [kind for kind, _ in kinds(site.organizer)]
    assert kinds(site.organizer, tournament=event) == []


def test_a_fixed_number_of_queries_however_many_items(db):
    olga = User.objects.create_user("olga")
    riga = club_create(by=olga, name="Riga")

    def measured() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as items:
            found = inbox_items(user=olga)
            read = [  # what the page and the API read of each
                (
                    str(item.match or item.signup or item.claim),
                    item.tournament and item.tournament.name,
                    item.signup and item.signup.player.display_name,
                    item.claim and item.claim.user.get_username(),
                )
                for item in found
            ]
            assert len(read) == len(found)
        with CaptureQueriesContext(connection) as count:
            inbox_count(user=olga)
        return len(items), len(count)

    def more(n: int) -> None:
        event = open_event(olga, name=f"Event {Player.objects.count()}", signup_approval=True)
        for i in range(n):
            user = User.objects.create_user(f"u{User.objects.count()}-{i}")
            signups.signup_request(tournament=event, by=user, display_name=f"P {user.pk}")
            claimer = User.objects.create_user(f"c{User.objects.count()}-{i}")
            player = Player.objects.create(display_name=f"C {claimer.pk}", home_club=riga)
            players.claim_request(player=player, by=claimer)

    more(1)
    few = measured()
    more(4)
    assert measured() == few
    assert few[0] <= 4 and few[1] <= 4  # a query a kind of record, and the user's clubs


# --- The pages ----------------------------------------------------------------------------------


def test_the_inbox_page_confirms_a_reported_result_in_one_tap(site):
    match = reported(site)
    olga = signed_in(site.organizer)
    page = olga.get(reverse("my-inbox"))
    assert page.status_code == 200
    body = page.content.decode()
    assert f'data-item="{match.pk}"' in body and "Results to confirm" in body
    assert f'action="{reverse("match-answer", args=[match.pk])}"' in body

    done = olga.post(
        reverse("match-answer", args=[match.pk]),
        {"answer": "confirm", "next": reverse("my-inbox")},
    )
    assert done.status_code == 302 and done["Location"] == reverse("my-inbox")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    after = olga.get(reverse("my-inbox")).content.decode()
    assert f'data-item="{match.pk}"' not in after and "The result is confirmed." in after


def test_a_sign_up_is_approved_from_the_inbox_in_one_tap(db):
    olga, anna = (User.objects.create_user(n) for n in ("olga", "anna"))
    event = open_event(olga, signup_approval=True)
    signup = signups.signup_request(tournament=event, by=anna, display_name="Anna")
    client = signed_in(olga)
    body = client.get(reverse("my-inbox")).content.decode()
    assert f'data-kind="signup" data-item="{signup.pk}"' in body
    done = client.post(
        reverse("tournament-signup", args=[event.slug]),
        {"action": "approve", "signup": signup.pk, "next": reverse("my-inbox")},
    )
    assert done.status_code == 302 and done["Location"] == reverse("my-inbox")
    signup.refresh_from_db()
    assert signup.state == SignUp.State.ENTERED
    assert "data-item" not in client.get(reverse("my-inbox")).content.decode()


def test_a_next_elsewhere_is_not_followed(site):
    match = reported(site)
    done = signed_in(site.organizer).post(
        reverse("match-answer", args=[match.pk]),
        {"answer": "confirm", "next": "https://evil.example/"},
    )
    assert done["Location"] == reverse("match", args=[match.pk])


def test_a_tournaments_inbox_is_for_who_runs_it(site):
    match = reported(site)
    url = reverse("my-inbox") + f"?tournament={site.tournament.slug}"
    body = signed_in(site.organizer).get(url).content.decode()
    assert f'data-item="{match.pk}"' in body and "Club Cup" in body
    for user in (site.outsider, site.players["Anna"]):
        assert signed_in(user).get(url).status_code == 404
    assert signed_in(site.organizer).get(reverse("my-inbox") + "?tournament=no").status_code == 404


def test_the_inbox_page_is_for_the_signed_in(client, site):
    page = client.get(reverse("my-inbox"))
    assert page.status_code == 302 and reverse("login") in page["Location"]
    assert client.post(reverse("my-inbox")).status_code == 405
    empty = signed_in(site.outsider).get(reverse("my-inbox")).content.decode()
    assert "Nothing waits for your decision." in empty and "data-item" not in empty


def count_in_menu(body: str) -> str | None:
    marker = 'data-role="inbox-count"'
    if marker not in body:
        return None
    return body.split(marker, 1)[1].split(">", 1)[1].split("<", 1)[0]


@override_settings(**REFRESH)
def test_the_count_is_in_the_menu_and_on_the_tournament_pages_of_the_organizer(site):
    reported(site)
    olga, carl = signed_in(site.organizer), signed_in(site.players["Carl"])
    slug = site.tournament.slug
    for name in ("tournament", "tournament-rounds", "tournament-standings"):
        body = olga.get(reverse(name, args=[slug])).content.decode()
        assert count_in_menu(body) == "1", name
        assert 'data-role="tournament-inbox"' in body and "1 item waits" in body
        for other in (carl, Client()):
            theirs = other.get(reverse(name, args=[slug])).content.decode()
            assert count_in_menu(theirs) is None and 'data-role="tournament-inbox"' not in theirs
    assert count_in_menu(olga.get(reverse("home")).content.decode()) == "1"


@override_settings(**REFRESH)
def test_a_shared_copy_never_carries_an_organizers_count(site):
    """The match page is one shared copy for every reader (their own parts drawn apart): the
    organizer's count is drawn for them, and is in nobody else's copy, before or after."""
    match = reported(site)
    url = reverse("match", args=[match.pk])
    olga, carl, anonymous = signed_in(site.organizer), signed_in(site.players["Carl"]), Client()
    assert count_in_menu(olga.get(url).content.decode()) == "1"  # the first: draws the copy
    for reader in (anonymous, carl):
        assert count_in_menu(reader.get(url).content.decode()) is None
    for name in ("tournament", "tournament-rounds"):  # drawn first by the organizer too
        olga.get(reverse(name, args=[site.tournament.slug]))
        body = anonymous.get(reverse(name, args=[site.tournament.slug])).content.decode()
        assert count_in_menu(body) is None and 'data-role="tournament-inbox"' not in body


def test_the_menu_count_costs_a_fixed_number_of_queries(site):
    olga = signed_in(site.organizer)
    url = reverse("player-search")

    def queries() -> int:
        with CaptureQueriesContext(connection) as done:
            assert olga.get(url).status_code == 200
        return len(done)

    before = queries()
    reported(site)
    reported(site, "Carl", "Boris")
    assert queries() == before


def test_a_brackets_playable_matches_are_to_play(db):
    site = make_site(format="single-elimination", rated=False)
    olga = site.organizer
    bracket = Match.objects.filter(tournament=site.tournament)
    playable = bracket.filter(home__isnull=False, away__isnull=False, round__isnull=True)
    assert bracket.count() > playable.count() > 0  # the final waits for its players
    first = playable.order_by("bracket_round", "pk").values_list("pk", flat=True)
    assert kinds(olga) == [("to-play", pk) for pk in first]
