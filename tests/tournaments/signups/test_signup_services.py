"""Sign-up and check-in: players sign up themselves, the waiting list moves up by itself, the
organizers approve or decline, the check-in window opens before the start, and the start
withdraws who did not check in (after saying so). Every refusal changes nothing."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.models import Entry, Player, Tournament
from tournaments.services import (
    entry_register,
    entry_withdraw,
    start_notices,
    tournament_create,
    tournament_open_registration,
    tournament_start,
    tournament_update,
)
from tournaments.signups.models import SignUp
from tournaments.signups.services import (
    entry_check_in,
    signup_approve,
    signup_decline,
    signup_request,
    signup_withdraw,
)

pytestmark = pytest.mark.django_db
State = SignUp.State


@pytest.fixture
def olga():
    return User.objects.create_user("olga")


@pytest.fixture
def people():
    return {name: User.objects.create_user(name) for name in ("anna", "boris", "carl", "dina")}


def open_event(organizer, **settings) -> Tournament:
    tournament = tournament_create(
        organizer=organizer, name="Tuesday", variant="long", self_signup=True, **settings
    )
    return tournament_open_registration(tournament=tournament, by=organizer)


def states(tournament) -> dict[str, str]:
    return {s.player.display_name: s.state for s in tournament.signups.select_related("player")}


def entered(tournament) -> list[str]:
    return sorted(tournament.entries.values_list("player__display_name", flat=True))


def test_a_user_signs_up_and_a_player_is_made_for_them(olga, people):
    tournament = open_event(olga)
    signup = signup_request(tournament=tournament, by=people["anna"], display_name=" Anna  B ")
    assert signup.state == State.ENTERED and signup.entry.tournament == tournament
    assert Player.objects.get(user=people["anna"]).display_name == "Anna B"
    again = Player.objects.get(user=people["anna"])
    with pytest.raises(Conflict, match="entered already"):
        signup_request(tournament=tournament, by=people["anna"])
    assert Player.objects.filter(user=people["anna"]).get() == again


@pytest.mark.parametrize(
    "name, refusal", [("", "no player yet"), ("Olga K", "on the site already"), ("x" * 101, "long")]
)
def test_a_new_players_name_must_be_given_and_free(olga, people, name, refusal):
    Player.objects.create(display_name="Olga K")
    tournament = open_event(olga)
    with pytest.raises(InvalidInput, match=refusal):
        signup_request(tournament=tournament, by=people["anna"], display_name=name)
    assert not SignUp.objects.exists() and Player.objects.count() == 1


def test_only_an_open_tournament_takes_sign_ups(olga, people):
    closed = tournament_create(organizer=olga, name="Closed", variant="long")
    closed = tournament_open_registration(tournament=closed, by=olga)
    draft = tournament_create(organizer=olga, name="Draft", variant="long", self_signup=True)
    for tournament in (closed, draft):
        with pytest.raises(Conflict, match="not open"):
            signup_request(tournament=tournament, by=people["anna"], display_name="Anna")
    with pytest.raises(NotAllowed):
        signup_request(tournament=open_event(olga), by=AnonymousUser(), display_name="Anna")
    assert not SignUp.objects.exists()


def test_the_waiting_list_moves_up_when_a_place_frees(olga, people):
    tournament = open_event(olga, capacity=2)
    for name in ("anna", "boris", "carl", "dina"):
        signup_request(tournament=tournament, by=people[name], display_name=name.title())
    assert entered(tournament) == ["Anna", "Boris"]
    assert states(tournament) == {"Anna": "entered", "Boris": "entered", "Carl": "waiting",
                                  "Dina": "waiting"}  # fmt: skip
    boris = SignUp.objects.get(player__display_name="Boris")
    signup_withdraw(signup=boris, by=people["boris"])
    assert entered(tournament) == ["Anna", "Carl"]
    # The organizer withdraws an entry: the next one moves up too.
    entry_withdraw(entry=Entry.objects.get(player__display_name="Anna"), by=olga)
    assert entered(tournament) == ["Carl", "Dina"]
    assert states(tournament)["Anna"] == "withdrawn"
    # More places: nobody is left waiting, and a new sign-up enters at once.
    tournament_update(tournament=tournament, by=olga, capacity=3)
    signup_request(tournament=tournament, by=people["boris"])  # Boris signs up again
    assert entered(tournament) == ["Boris", "Carl", "Dina"]


def test_a_waiting_player_entered_by_the_organizer_leaves_the_list(olga, people):
    tournament = open_event(olga, capacity=2)
    for name in ("anna", "boris", "carl"):
        signup_request(tournament=tournament, by=people[name], display_name=name.title())
    entry_register(tournament=tournament, by=olga, player=Player.objects.get(display_name="Carl"))
    assert states(tournament) == {"Anna": "entered", "Boris": "entered", "Carl": "entered"}
    assert SignUp.objects.get(player__display_name="Carl").entry.tournament == tournament


def test_approval_enters_or_puts_on_the_waiting_list_and_only_organizers_decide(olga, people):
    tournament = open_event(olga, capacity=2, signup_approval=True)
    made = {
        name: signup_request(tournament=tournament, by=people[name], display_name=name.title())
        for name in ("anna", "boris", "carl", "dina")
    }
    assert set(states(tournament).values()) == {"pending"} and entered(tournament) == []
    with pytest.raises(NotAllowed):
        signup_approve(signup=made["anna"], by=people["boris"])
    assert signup_approve(signup=made["anna"], by=olga).state == State.ENTERED
    assert signup_approve(signup=made["boris"], by=olga).state == State.ENTERED
    assert signup_approve(signup=made["carl"], by=olga).state == State.WAITING
    assert signup_decline(signup=made["dina"], by=olga).state == State.DECLINED
    with pytest.raises(Conflict, match="not waiting for approval"):
        signup_approve(signup=made["dina"], by=olga)
    assert states(tournament) == {"Anna": "entered", "Boris": "entered", "Carl": "waiting",
                                  "Dina": "declined"}  # fmt: skip


def test_nobody_withdraws_another_players_sign_up(olga, people):
    tournament = open_event(olga)
    anna = signup_request(tournament=tournament, by=people["anna"], display_name="Anna")
    with pytest.raises(NotAllowed):
        signup_withdraw(signup=anna, by=people["boris"])
    assert entered(tournament) == ["Anna"]
    signup_withdraw(signup=anna, by=olga)
    with pytest.raises(Conflict, match="no longer active"):
        signup_withdraw(signup=anna, by=people["anna"])


def test_the_check_in_window_and_who_may_check_in(olga, people):
    soon = timezone.now() + timedelta(minutes=45)
    tournament = open_event(olga, starts_at=soon, checkin_minutes=30)
    anna = signup_request(tournament=tournament, by=people["anna"], display_name="Anna").entry
    with pytest.raises(Conflict, match="opens at"):
        entry_check_in(entry=anna, by=people["anna"])
    with pytest.raises(NotAllowed):
        entry_check_in(entry=anna, by=people["boris"])
    assert entry_check_in(entry=anna, by=olga).checked_in_at is not None  # organizers: any time
    entry_check_in(entry=anna, by=olga, present=False)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    assert entry_check_in(entry=anna, by=people["anna"]).checked_in_at is not None
    with pytest.raises(NotAllowed, match="undo"):
        entry_check_in(entry=anna, by=people["anna"], present=False)


def test_a_check_in_needs_a_start_time(olga):
    with pytest.raises(InvalidInput, match="start time"):
        tournament_create(organizer=olga, name="X", variant="long", checkin_minutes=30)


def test_the_start_withdraws_who_did_not_check_in_after_saying_so(olga, people):
    tournament = open_event(olga, starts_at=timezone.now(), checkin_minutes=30, capacity=3)
    for name in ("anna", "boris", "carl", "dina"):
        signup_request(tournament=tournament, by=people[name], display_name=name.title())
    for entry in tournament.entries.filter(player__display_name__in=["Anna", "Carl"]):
        entry_check_in(entry=entry, by=entry.player.user)
    assert start_notices(tournament) == ["Not checked in, so withdrawn at the start: Boris."]
    tournament_start(tournament=tournament, by=olga)
    assert entered(tournament) == ["Anna", "Carl"]
    assert states(tournament) == {"Anna": "entered", "Boris": "withdrawn", "Carl": "entered",
                                  "Dina": "declined"}  # fmt: skip
    assert tournament.matches.count() == 1
    with pytest.raises(Conflict, match="started"):
        signup_withdraw(signup=SignUp.objects.get(player__display_name="Anna"), by=people["anna"])


def test_an_entered_sign_up_reads_as_a_status_not_as_the_list_heading(olga, people, client):
    tournament = open_event(olga)
    signup = signup_request(tournament=tournament, by=people["anna"], display_name="Anna")
    assert signup.state == State.ENTERED
    client.force_login(people["anna"])
    page = client.get(f"/t/{tournament.slug}/signup/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<span class="badge entered" data-role="my-state">Участвует</span>' in page
    assert "Участники" in page  # the list of who is entered keeps its heading
