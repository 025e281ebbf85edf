"""Official events (issue 48): the panel of judges, named by the organizers; who decides in an
official event (its judges, each decision recorded with their name), who closes it (the chief
judge); who may not play in it (its organizers and judges, and a disqualified player), by every
path of entry; and the chief judge's removal of a player, which is not a withdrawal."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.matches.live.models import ClockAction
from tournaments.matches.live.services import live_act, live_clock
from tournaments.matches.results import (
    match_result_confirm,
    match_result_correct,
    match_result_dispute,
    match_result_record,
    match_result_resolve,
)
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.officials import selectors as officials
from tournaments.officials.models import Judge, Sanction
from tournaments.officials.services import (
    entry_remove,
    judge_add,
    judge_remove,
    sanction_record,
)
from tournaments.policy import may
from tournaments.selectors import tournament_standings
from tournaments.services import (
    NewEntry,
    entries_import_csv,
    entries_register,
    entry_register,
    pair_register,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
    tournament_update,
)
from tournaments.signups.services import signup_request

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "increment", "base_seconds": 60, "per_move_seconds": 10}


class Event:
    """An official long-blitz event of Olga's: a panel of three (Chen the chief judge, Sveta the
    secretary, Ivan a judge), four players with accounts, started as a round robin."""

    def __init__(self, *, start: bool = True, official: bool = True, **rules) -> None:
        self.olga = User.objects.create_user("olga", password="x")
        self.chen = User.objects.create_user("chen", password="x")
        self.sveta = User.objects.create_user("sveta", password="x")
        self.ivan = User.objects.create_user("ivan", password="x")
        self.staff = User.objects.create_user("sam", password="x", is_staff=True)
        self.accounts = {
            name: User.objects.create_user(name.lower(), password="x")
            for name in ("Anna", "Boris", "Carl", "Dina")
        }
        self.players = {
            name: Player.objects.create(birth_year=1990, display_name=name, user=account)
            for name, account in self.accounts.items()
        }
        rules = {"match_length": 3, "time_control": CLOCK, "format": "round-robin", **rules}
        event = tournament_create(
            organizer=self.olga, name="Championship", slug="championship", variant="long",
            official=official, **rules,
        )  # fmt: skip
        self.event = tournament_open_registration(tournament=event, by=self.olga)
        if official:
            judge_add(tournament=self.event, username="chen", role="chief", by=self.olga)
            judge_add(tournament=self.event, username="sveta", role="secretary", by=self.olga)
            judge_add(tournament=self.event, username="ivan", role="judge", by=self.olga)
        for player in self.players.values():
            entry_register(tournament=self.event, player=player, by=self.olga)
        if start:
            self.event = tournament_start(tournament=self.event, by=self.olga)

    def match(self, home: str = "Anna", away: str = "Boris") -> Match:
        names = {home, away}
        for match in self.event.matches.select_related("home__player", "away__player"):
            if {match.home.player.display_name, match.away.player.display_name} == names:
                return match
        raise LookupError(names)

    def entry(self, name: str) -> Entry:
        return self.event.entries.get(player__display_name=name)


def text_of(response) -> str:
    """A page's text without its tags, its spaces joined."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- The panel ----------------------------------------------------------------------------------


def test_the_organizer_names_a_panel_of_three_with_one_chief():
    event = Event(start=False)
    panel = officials.judges(tournament=event.event)
    assert [(judge.user.username, judge.role) for judge in panel] == [
        ("chen", "chief"), ("sveta", "secretary"), ("ivan", "judge"),
    ]  # fmt: skip
    User.objects.create_user("zoya")
    with pytest.raises(Conflict, match="chen is the chief judge already"):
        judge_add(tournament=event.event, username="zoya", role="chief", by=event.olga)
    with pytest.raises(Conflict, match="ivan is on the panel already"):
        judge_add(tournament=event.event, username="ivan", role="judge", by=event.olga)
    with pytest.raises(InvalidInput, match="No site account"):
        judge_add(tournament=event.event, username="nobody", role="judge", by=event.olga)
    with pytest.raises(NotAllowed, match="organizers"):
        judge_add(tournament=event.event, username="zoya", role="judge", by=event.chen)
    assert Judge.objects.count() == 3


def test_a_panel_is_for_official_events_only():
    event = Event(start=False, official=False)
    with pytest.raises(Conflict, match="Only an official event has a panel"):
        judge_add(tournament=event.event, username="chen", role="judge", by=event.olga)
    assert not Judge.objects.exists()


def test_a_player_entered_cannot_be_made_a_judge():
    event = Event(start=False)
    with pytest.raises(Conflict, match="anna plays in this event \\(as Anna\\)"):
        judge_add(tournament=event.event, username="anna", role="judge", by=event.olga)
    assert not Judge.objects.filter(user=event.accounts["Anna"]).exists()


def test_a_player_of_a_pair_entered_cannot_be_made_a_judge():
    olga = User.objects.create_user("olga")
    anna, boris = User.objects.create_user("anna"), User.objects.create_user("boris")
    first = Player.objects.create(birth_year=1990, display_name="Anna", user=anna)
    second = Player.objects.create(birth_year=1990, display_name="Boris", user=boris)
    cup = tournament_create(
        organizer=olga, name="Pairs", variant="short", match_length=3, pairs=True, official=True
    )
    pair_register(tournament=cup, first=first, second=second, by=olga)
    with pytest.raises(Conflict, match="boris plays in this event"):
        judge_add(tournament=cup, username="boris", role="judge", by=olga)


def test_a_judge_is_taken_off_the_panel():
    event = Event(start=False)
    ivan = Judge.objects.get(user=event.ivan)
    with pytest.raises(NotAllowed):
        judge_remove(judge=ivan, by=event.chen)
    judge_remove(judge=ivan, by=event.olga)
    assert list(Judge.objects.values_list("user__username", flat=True).order_by("pk")) == [
        "chen", "sveta",
    ]  # fmt: skip


def test_the_panel_through_the_api():
    event = Event(start=False)
    User.objects.create_user("zoya")
    olga = client_of(event.olga)
    made = olga.post(
        "/api/v1/tournaments/championship/judges/new",
        {"user": "zoya", "role": "judge"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    assert (made.json()["user"], made.json()["role"]) == ("zoya", "judge")
    panel = Client().get("/api/v1/tournaments/championship/judges/").json()
    assert [(judge["user"], judge["role"]) for judge in panel] == [
        ("chen", "chief"), ("sveta", "secretary"), ("ivan", "judge"), ("zoya", "judge"),
    ]  # fmt: skip
    refused = olga.post(
        "/api/v1/tournaments/championship/judges/new",
        {"user": "anna", "role": "chief"},
        content_type="application/json",
    )
    assert refused.status_code == 409
    assert "chen is the chief judge already" in refused.json()["error"]["message"]
    removed = olga.post(f"/api/v1/tournaments/championship/judges/{made.json()['id']}/remove")
    assert removed.status_code == 204
    outsider = client_of(event.accounts["Anna"]).post(
        "/api/v1/tournaments/championship/judges/new",
        {"user": "zoya", "role": "judge"},
        content_type="application/json",
    )
    assert outsider.status_code == 403
    assert Judge.objects.count() == 3


# --- Who may not play ---------------------------------------------------------------------------


def test_a_judge_is_refused_as_a_player_with_the_reason():
    event = Event(start=False)
    chen = Player.objects.create(birth_year=1990, display_name="Chen", user=event.chen)
    with pytest.raises(Conflict, match="Chen is a judge of this event: officials may not play"):
        entry_register(tournament=event.event, player=chen, by=event.olga)
    assert not event.event.entries.filter(player=chen).exists()


def test_an_organizer_is_refused_as_a_player_in_an_official_event_only():
    event = Event(start=False)
    olga = Player.objects.create(birth_year=1990, display_name="Olga", user=event.olga)
    with pytest.raises(Conflict, match="Olga is an organizer of this event"):
        entry_register(tournament=event.event, player=olga, by=event.olga)
    casual = tournament_create(organizer=event.olga, name="Friday", variant="long", match_length=1)
    assert entry_register(tournament=casual, player=olga, by=event.olga).pk


def test_a_clubs_organizer_and_a_co_organizer_may_not_play_either():
    owner = User.objects.create_user("rhea")
    olga = User.objects.create_user("olga")
    coorg = User.objects.create_user("cora")
    riga = club_create(by=owner, name="Riga")
    member_add(club=riga, by=owner, username="olga", role=Membership.Role.ORGANIZER)
    cup = tournament_create(
        organizer=olga, name="Cup", variant="long", match_length=1, club=riga, official=True
    )
    cup.co_organizers.add(coorg)
    for user, name in ((owner, "Rhea"), (coorg, "Cora")):
        player = Player.objects.create(birth_year=1990, display_name=name, user=user)
        with pytest.raises(Conflict, match=f"{name} is an organizer of this event"):
            entry_register(tournament=cup, player=player, by=olga)


def test_every_path_of_entry_refuses_a_judge():
    event = Event(start=False)
    Player.objects.create(birth_year=1990, display_name="Chen", user=event.chen)
    with pytest.raises(Conflict, match="Chen is a judge"):  # by name
        entries_register(tournament=event.event, by=event.olga, entries=[NewEntry(name="Chen")])
    with pytest.raises(Conflict, match="Zed is a judge"):  # a new player of a judge's account
        entries_register(
            tournament=event.event, by=event.olga,
            entries=[NewEntry(name="Zed", username="ivan")],
        )  # fmt: skip
    with pytest.raises(Conflict, match="Chen is a judge"):  # a CSV file
        entries_import_csv(tournament=event.event, by=event.olga, data=b"name\nChen\n")
    assert not Player.objects.filter(display_name="Zed").exists()


def test_a_judge_cannot_sign_up():
    event = Event(start=False, self_signup=True)
    with pytest.raises(Conflict, match="Sveta is a judge"):
        signup_request(tournament=event.event, by=event.sveta, display_name="Sveta")
    assert not event.event.signups.exists()


def test_a_judge_cannot_enter_as_one_of_a_pair():
    olga, ivan = User.objects.create_user("olga"), User.objects.create_user("ivan")
    cup = tournament_create(
        organizer=olga, name="Pairs", variant="short", match_length=3, pairs=True, official=True
    )
    judge_add(tournament=cup, username="ivan", role="judge", by=olga)
    first = Player.objects.create(birth_year=1990, display_name="Anna")
    second = Player.objects.create(birth_year=1990, display_name="Ivan", user=ivan)
    with pytest.raises(Conflict, match="Ivan is a judge"):
        pair_register(tournament=cup, first=first, second=second, by=olga)
    assert not cup.entries.exists()


def test_a_late_entry_of_a_judge_is_refused():
    event = Event(format="swiss", swiss_rounds=3)
    chen = Player.objects.create(birth_year=1990, display_name="Chen", user=event.chen)
    with pytest.raises(Conflict, match="Chen is a judge"):
        entry_register(tournament=event.event, player=chen, by=event.olga)


def test_a_tournament_is_not_made_official_with_an_official_entered():
    event = Event(start=False, official=False)
    olga = Player.objects.create(birth_year=1990, display_name="Olga", user=event.olga)
    entry_register(tournament=event.event, player=olga, by=event.olga)
    with pytest.raises(Conflict, match="Olga is an organizer of this event"):
        tournament_update(tournament=event.event, by=event.olga, official=True)
    event.event.refresh_from_db()
    assert not event.event.official


# --- Sanctions ----------------------------------------------------------------------------------


def test_a_disqualified_player_is_refused_with_the_reason_and_the_end_date():
    event = Event(start=False)
    eve = Player.objects.create(birth_year=1990, display_name="Eve")
    today = timezone.localdate()
    sanction_record(
        player=eve, reason="misconduct at the table", starts_on=today - datetime.timedelta(days=3),
        ends_on=datetime.date(today.year + 1, 6, 30), by=event.staff,
    )  # fmt: skip
    with pytest.raises(Conflict) as refused:
        entry_register(tournament=event.event, player=eve, by=event.olga)
    message = str(refused.value)
    assert "Eve is disqualified until" in message and "misconduct at the table" in message
    assert str(today.year + 1) in message
    casual = tournament_create(organizer=event.olga, name="Friday", variant="long", match_length=1)
    assert entry_register(tournament=casual, player=eve, by=event.olga).pk  # not official


def test_a_disqualification_that_ended_refuses_nobody():
    event = Event(start=False)
    eve = Player.objects.create(birth_year=1990, display_name="Eve")
    Sanction.objects.create(
        player=eve, reason="old", starts_on=datetime.date(2020, 1, 1),
        ends_on=datetime.date(2020, 12, 31),
    )  # fmt: skip
    assert entry_register(tournament=event.event, player=eve, by=event.olga).pk


def test_only_staff_record_a_disqualification():
    event = Event(start=False)
    eve = Player.objects.create(birth_year=1990, display_name="Eve")
    with pytest.raises(NotAllowed, match="Only staff"):
        sanction_record(
            player=eve, reason="x", starts_on=timezone.localdate(), ends_on=None, by=event.olga
        )
    body = {"player_id": eve.pk, "reason": "misconduct", "starts_on": "2026-01-01",
            "ends_on": None}  # fmt: skip
    refused = client_of(event.olga).post("/api/v1/sanctions/new", body, "application/json")
    assert refused.status_code == 403
    staff = client_of(event.staff)
    made = staff.post("/api/v1/sanctions/new", body, "application/json")
    assert made.status_code == 201, made.content
    assert made.json()["recorded_by"] == "sam"
    assert [row["player"] for row in staff.get("/api/v1/sanctions/").json()] == ["Eve"]
    assert client_of(event.olga).get("/api/v1/sanctions/").status_code == 403
    with pytest.raises(Conflict, match="Eve is disqualified without an end date"):
        entry_register(tournament=event.event, player=eve, by=event.olga)


# --- Who decides --------------------------------------------------------------------------------


def test_a_judges_forfeit_is_recorded_with_their_name():
    event = Event()
    match = match_result_record(match=event.match(), by=event.ivan, forfeit="away")
    assert (match.status, match.decided_by) == (Match.Status.FINAL, event.ivan)
    answer = Client().get(f"/api/v1/matches/{match.pk}/").json()
    assert answer["decided_by"] == "ivan"
    page = Client().get(f"/m/{match.pk}/").content.decode()
    assert "Decided by" in page and "ivan" in page


def test_an_organizer_not_on_the_panel_is_refused_a_forfeit_in_an_official_event():
    event = Event()
    with pytest.raises(NotAllowed, match="its judges in an official event"):
        match_result_record(match=event.match(), by=event.olga, forfeit="away")
    match = event.match()
    assert (match.status, match.forfeit, match.decided_by) == (Match.Status.SCHEDULED, "", None)
    answer = client_of(event.olga).post(
        f"/api/v1/matches/{match.pk}/result", {"forfeit": "away"}, "application/json"
    )
    assert answer.status_code == 403
    staff = match_result_record(match=match, by=event.staff, forfeit="home")
    assert staff.decided_by == event.staff  # staff still may


def test_an_organizers_result_waits_for_a_word_in_an_official_event():
    event = Event()
    match = match_result_record(match=event.match(), by=event.olga, score=(3, 1))
    assert match.status == Match.Status.REPORTED  # not final: a judge or the players confirm
    with pytest.raises(NotAllowed):
        match_result_resolve(match=match, by=event.olga)
    match = match_result_resolve(match=match, by=event.sveta)
    assert (match.status, match.decided_by) == (Match.Status.FINAL, event.sveta)


def test_in_other_events_the_organizers_decide_as_before():
    event = Event(official=False)
    match = match_result_record(match=event.match(), by=event.olga, forfeit="away")
    assert (match.status, match.decided_by) == (Match.Status.FINAL, event.olga)


def test_a_dispute_is_resolved_and_a_result_corrected_by_a_judge():
    event = Event()
    anna, boris = event.accounts["Anna"], event.accounts["Boris"]
    match = match_result_record(match=event.match(), by=anna, score=(3, 1))
    match = match_result_dispute(match=match, by=boris, note="It was 1-3")
    with pytest.raises(NotAllowed):
        match_result_resolve(match=match, by=event.olga)
    match = match_result_resolve(match=match, by=event.ivan, score=(1, 3))
    assert (match.score_home, match.score_away, match.decided_by) == (1, 3, event.ivan)
    with pytest.raises(NotAllowed):
        match_result_correct(match=match, by=event.olga, score=(3, 0))
    match = match_result_correct(match=match, by=event.chen, score=(3, 0)).match
    assert match.decided_by == event.chen


def test_a_result_that_waits_for_an_official_is_confirmed_by_a_judge():
    event = Event()
    match = match_result_record(
        match=event.match(), by=event.accounts["Anna"], score=(3, 1), confirm_side=0
    )
    assert not may(event.olga, "match.answer", match)
    assert may(event.ivan, "match.answer", match)
    match = match_result_confirm(match=match, by=event.ivan)
    assert (match.status, match.decided_by) == (Match.Status.CONFIRMED, event.ivan)


def test_a_judges_clock_action_is_recorded_with_their_name():
    event = Event()
    match = event.match()
    live_act(match_id=match.pk, by=event.accounts["Anna"], ply=0, action={"first": 1})
    with pytest.raises(NotAllowed, match="Only the judge"):
        live_clock(match_id=match.pk, by=event.olga, action="pause")
    live_clock(match_id=match.pk, by=event.ivan, action="pause")
    action = ClockAction.objects.get()
    assert (action.kind, action.made_by) == ("pause", event.ivan)


# --- Closing ------------------------------------------------------------------------------------


def _all_decided(event: Event) -> None:
    for match in event.event.matches.all():
        match_result_record(match=match, by=event.ivan, forfeit="away")


def test_the_chief_judge_closes_the_event_and_a_plain_judge_may_not():
    event = Event()
    _all_decided(event)
    for who in (event.ivan, event.sveta, event.olga):
        with pytest.raises(NotAllowed, match="Only the chief judge closes"):
            tournament_finish(tournament=event.event, by=who)
    event.event.refresh_from_db()
    assert event.event.status == Tournament.Status.RUNNING
    finished = tournament_finish(tournament=event.event, by=event.chen)
    assert finished.status == Tournament.Status.FINISHED


def test_the_chief_judge_closes_through_the_api():
    event = Event()
    _all_decided(event)
    assert client_of(event.ivan).post("/api/v1/tournaments/championship/finish").status_code == 403
    answer = client_of(event.chen).post("/api/v1/tournaments/championship/finish")
    assert answer.status_code == 200 and answer.json()["status"] == "finished"


# --- Removal ------------------------------------------------------------------------------------


def test_the_chief_judge_removes_a_player_with_the_reason():
    event = Event()
    carl = event.entry("Carl")
    for who in (event.ivan, event.olga):
        with pytest.raises(NotAllowed, match="Only the chief judge may remove"):
            entry_remove(entry=carl, by=who, reason="misconduct")
    with pytest.raises(InvalidInput, match="Give the reason"):
        entry_remove(entry=carl, by=event.chen, reason="  ")
    entry = entry_remove(entry=carl, by=event.chen, reason="misconduct at the table")
    assert (entry.withdrawn, entry.removed_by, entry.removal_reason) == (
        True, event.chen, "misconduct at the table",
    )  # fmt: skip
    assert entry.removed_at is not None
    remaining = Match.objects.filter(home=carl) | Match.objects.filter(away=carl)
    assert {match.status for match in remaining} == {Match.Status.FINAL}
    assert {match.decided_by for match in remaining} == {event.chen}
    assert officials.removal_text(entry, event.event) == (
        "removed by the chief judge: misconduct at the table"
    )
    with pytest.raises(Conflict, match="removed already"):
        entry_remove(entry=carl, by=event.chen, reason="again")
    rows = tournament_standings(tournament=event.event)
    assert [row.entry.removed_at is not None for row in rows if row.entry.pk == carl.pk] == [True]


def test_removal_through_the_api_and_as_the_lists_show_it():
    event = Event()
    carl = event.entry("Carl")
    url = f"/api/v1/tournaments/championship/entries/{carl.pk}/remove"
    assert client_of(event.olga).post(url, {"reason": "x"}, "application/json").status_code == 403
    answer = client_of(event.chen).post(url, {"reason": "misconduct"}, "application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["removal"] == "removed by the chief judge: misconduct"
    entries = Client().get("/api/v1/tournaments/championship/entries/").json()["results"]
    assert [row["removal"] for row in entries if row["id"] == carl.pk] == [
        "removed by the chief judge: misconduct"
    ]
    standings = Client().get("/api/v1/tournaments/championship/standings/").json()
    assert [row["removal"] for row in standings if row["entry_id"] == carl.pk] == [
        "removed by the chief judge: misconduct"
    ]
    for address in ("/t/championship/", "/t/championship/standings/"):
        assert "removed by the chief judge: misconduct" in text_of(Client().get(address))


def test_organizers_remove_a_player_from_an_event_that_is_not_official():
    event = Event(official=False)
    entry = entry_remove(entry=event.entry("Carl"), by=event.olga, reason="left the hall")
    assert officials.removal_text(entry, event.event) == "removed by the organizers: left the hall"


# --- The pages ----------------------------------------------------------------------------------


def test_the_panel_page_is_the_organizers_and_the_judges():
    event = Event(start=False)
    assert client_of(event.accounts["Anna"]).get("/t/championship/judges/").status_code == 403
    page = text_of(client_of(event.olga).get("/t/championship/judges/"))
    assert "Chief judge chen chen" in page and "Name a judge" in page
    judge_view = text_of(client_of(event.ivan).get("/t/championship/judges/"))
    assert "Chief judge chen" in judge_view and "Name a judge" not in judge_view


def test_the_organizer_names_and_takes_off_a_judge_on_the_panel_page():
    event = Event(start=False)
    User.objects.create_user("zoya", first_name="Zoya", last_name="Belova")
    olga = client_of(event.olga)
    made = olga.post("/t/championship/judges/", {"action": "add", "user": "zoya", "role": "judge"})
    assert made.status_code == 302
    # The message names the judge as the panel does (not by the username).
    said = text_of(olga.get("/t/championship/judges/"))
    assert "Zoya Belova is on the panel: judge." in said
    zoya = Judge.objects.get(user__username="zoya")
    refused = olga.post(
        "/t/championship/judges/", {"action": "add", "user": "anna", "role": "judge"}
    )
    assert refused.status_code == 409 and "anna plays in this event" in text_of(refused)
    gone = olga.post("/t/championship/judges/", {"action": "remove", "judge": zoya.pk})
    assert gone.status_code == 302 and not Judge.objects.filter(pk=zoya.pk).exists()
    assert "Zoya Belova is off the panel." in text_of(olga.get("/t/championship/judges/"))


def test_the_tournament_page_shows_the_panel_and_the_chief_judge_closes_from_it():
    event = Event()
    page = text_of(Client().get("/t/championship/"))
    assert "Judges Chief judge chen Chief secretary sveta Judge ivan" in page
    _all_decided(event)
    organizer = text_of(client_of(event.olga).get("/t/championship/"))
    assert "An official event is closed by its chief judge." in organizer
    chief = client_of(event.chen)
    assert "Close the event" in text_of(chief.get("/t/championship/"))
    assert client_of(event.ivan).post("/t/championship/step/finish/").status_code == 403
    assert chief.post("/t/championship/step/finish/").status_code == 302
    event.event.refresh_from_db()
    assert event.event.status == Tournament.Status.FINISHED


def test_the_chief_judge_removes_a_player_on_the_panel_page():
    event = Event()
    carl = event.entry("Carl")
    chief = client_of(event.chen)
    assert "Remove" in text_of(chief.get("/t/championship/judges/"))
    refused = client_of(event.ivan).post(
        "/t/championship/judges/", {"action": "remove-entry", "entry": carl.pk, "reason": "x"}
    )
    assert refused.status_code == 403
    done = chief.post(
        "/t/championship/judges/",
        {"action": "remove-entry", "entry": carl.pk, "reason": "misconduct"},
    )
    assert done.status_code == 302
    carl.refresh_from_db()
    assert (carl.withdrawn, carl.removal_reason) == (True, "misconduct")


def test_organizers_remove_a_player_on_the_players_page_of_an_event_that_is_not_official():
    event = Event(official=False)
    olga = client_of(event.olga)
    assert "Reason for the removal" in olga.get("/t/championship/players/").content.decode()
    carl = event.entry("Carl")
    done = olga.post(
        "/t/championship/players/", {"action": "remove", "entry": carl.pk, "reason": "left"}
    )
    assert done.status_code == 302
    assert "removed by the organizers: left" in text_of(olga.get("/t/championship/players/"))


def test_the_match_page_names_the_judge_who_decided():
    event = Event()
    match = match_result_record(match=event.match(), by=event.ivan, forfeit="away")
    assert "Decided by: ivan (judge)" in text_of(Client().get(f"/m/{match.pk}/"))
    # Inside a sentence the role is in lower case; as the panel's label it keeps its capital.
    russian = text_of(Client().get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Решение: ivan (судья)" in russian
    assert "Судья ivan" in text_of(Client().get("/t/championship/", HTTP_ACCEPT_LANGUAGE="ru"))
    other = match_result_record(match=event.match("Carl", "Dina"), by=event.accounts["Carl"],
                                score=(3, 1))  # fmt: skip
    match_result_confirm(match=other, by=event.accounts["Dina"])
    assert "Decided by" not in text_of(Client().get(f"/m/{other.pk}/"))


def test_a_judge_is_offered_the_forfeit_and_the_resolution_an_organizer_is_not():
    event = Event()
    match = event.match()
    olga_form = client_of(event.olga).get(f"/m/{match.pk}/report/").content.decode()
    ivan_form = client_of(event.ivan).get(f"/m/{match.pk}/report/").content.decode()
    assert 'value="forfeit"' not in olga_form and 'value="forfeit"' in ivan_form
    match_result_record(match=match, by=event.accounts["Anna"], score=(3, 1))
    assert client_of(event.olga).get(f"/m/{match.pk}/resolve/").status_code == 403
    assert client_of(event.ivan).get(f"/m/{match.pk}/resolve/").status_code == 200


def test_staff_record_a_disqualification_in_the_admin_and_it_refuses_the_player():
    event = Event(start=False)
    eve = Player.objects.create(birth_year=1990, display_name="Eve")
    root = User.objects.create_superuser("root", password="x")
    client = client_of(root)
    assert client.get("/admin/tournaments/sanction/add/").status_code == 200
    answer = client.post(
        "/admin/tournaments/sanction/add/",
        {"player": eve.pk, "reason": "misconduct", "starts_on": "2020-01-01",
         "ends_on": "2099-12-31"},
    )  # fmt: skip
    assert answer.status_code == 302, answer.content.decode()[:2000]
    sanction = Sanction.objects.get()
    assert (sanction.player, sanction.recorded_by) == (eve, root)
    with pytest.raises(Conflict, match="Eve is disqualified until"):
        entry_register(tournament=event.event, player=eve, by=event.olga)


def test_the_recorder_gives_a_judge_the_clocks_and_not_the_organizer():
    event = Event()
    match = event.match()
    live_act(match_id=match.pk, by=event.accounts["Anna"], ply=0, action={"first": 1})
    judge_page = client_of(event.ivan).get(f"/m/{match.pk}/record/").content.decode()
    assert 'data-action="clock-pause"' in judge_page
    organizer_page = client_of(event.olga).get(f"/m/{match.pk}/record/").content.decode()
    assert 'data-action="clock-pause"' not in organizer_page


def test_a_player_signed_up_cannot_be_made_a_judge():
    event = Event(start=False, self_signup=True, signup_approval=True)
    zoya = User.objects.create_user("zoya")
    signup_request(tournament=event.event, by=zoya, display_name="Zoya", birth_year=1990)
    with pytest.raises(Conflict, match="zoya is signed up to play in this event"):
        judge_add(tournament=event.event, username="zoya", role="judge", by=event.olga)


def test_an_official_event_does_not_start_with_a_player_disqualified_since_the_entry():
    event = Event(start=False)
    sanction_record(
        player=event.players["Dina"], reason="misconduct", starts_on=timezone.localdate(),
        ends_on=None, by=event.staff,
    )  # fmt: skip
    with pytest.raises(Conflict, match="Dina is disqualified without an end date"):
        tournament_start(tournament=event.event, by=event.olga)
    event.event.refresh_from_db()
    assert event.event.status == Tournament.Status.REGISTRATION
    assert not event.event.matches.exists()


def test_the_match_page_lists_the_judges_clock_actions_once_decided():
    event = Event()
    match = event.match()
    live_act(match_id=match.pk, by=event.accounts["Anna"], ply=0, action={"first": 1})
    live_clock(match_id=match.pk, by=event.ivan, action="pause")
    live_clock(match_id=match.pk, by=event.ivan, action="resume")
    live_clock(match_id=match.pk, by=event.ivan, action="adjust", side="home", seconds=-3600)
    live_act(match_id=match.pk, by=event.ivan, ply=1, action={"flag": "home"})
    match.refresh_from_db()
    assert (match.status, match.lost_on_time, match.decided_by) == (
        Match.Status.FINAL, "home", event.ivan,
    )  # fmt: skip
    page = text_of(Client().get(f"/m/{match.pk}/"))
    assert "3 clock actions" in page
    assert "ivan (judge) paused the clocks" in page
    assert "ivan (judge) took 3600 s from Anna" in page
    assert "Decided by: ivan (judge)" in page


def test_a_dispute_of_an_official_event_waits_in_the_judges_inbox_not_the_organizers():
    from tournaments.inbox.selectors import inbox_count, inbox_items

    event = Event()
    match = match_result_record(match=event.match(), by=event.accounts["Anna"], score=(3, 1))
    match_result_dispute(match=match, by=event.accounts["Boris"], note="It was 1-3")
    judged = [item for item in inbox_items(user=event.ivan) if item.kind == "disputed"]
    assert [item.match.pk for item in judged] == [match.pk]
    assert inbox_count(user=event.ivan) == 1
    assert inbox_count(user=event.olga) == 0
    assert not [item for item in inbox_items(user=event.olga) if item.kind == "disputed"]
    assert inbox_count(user=event.ivan, tournament=event.event) == 1


def test_a_judge_opens_the_inbox_of_their_event():
    event = Event()
    match = match_result_record(match=event.match(), by=event.accounts["Anna"], score=(3, 1))
    match_result_dispute(match=match, by=event.accounts["Boris"], note="It was 1-3")
    page = client_of(event.ivan).get("/me/inbox/?tournament=championship")
    assert page.status_code == 200 and "Disputes to resolve" in page.content.decode()
    assert (
        client_of(event.accounts["Carl"]).get("/me/inbox/?tournament=championship").status_code
        == 404
    )


def test_a_late_take_back_is_a_judges_not_the_organizers(settings):
    from tournaments.matches.live.services import live_undo

    settings.LIVE_UNDO_WINDOW_SECONDS = 0
    event = Event()
    match = event.match()
    anna = event.accounts["Anna"]
    live_act(match_id=match.pk, by=anna, ply=0, action={"first": 1})
    live_clock(match_id=match.pk, by=event.ivan, action="adjust", side="home", seconds=-3600)
    live_act(match_id=match.pk, by=anna, ply=1, action={"flag": "home"})
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED  # a player's own recording: reported
    for who in (anna, event.olga):
        with pytest.raises(NotAllowed, match="its judges in an official event"):
            live_undo(match_id=match.pk, by=who, ply=2)
    live_undo(match_id=match.pk, by=event.ivan, ply=2)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
