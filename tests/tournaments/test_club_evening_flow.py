"""A club evening through the services, from the first sign-up to the season table: sign-up →
waiting list → check-in → start → stage 1 → stage 2 → finish → season table, and a correction
that moves the table."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Match
from tournaments.seasons.selectors import season_standings
from tournaments.seasons.services import season_create
from tournaments.services import (
    start_notices,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
)
from tournaments.signups.models import SignUp
from tournaments.signups.services import entry_check_in, signup_request, signup_withdraw
from tournaments.stages.services import stage_two_build, stage_two_reset

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Boris", "Carl", "Dina", "Emil", "Fatma", "Gia", "Hugo", "Ilze", "Jana"]


def test_a_club_evening_from_sign_up_to_the_season_table():
    olga = User.objects.create_user("olga")
    users = {name: User.objects.create_user(name.lower()) for name in NAMES}
    riga = club_create(by=olga, name="Riga")
    member_add(club=riga, by=olga, username="anna", role=Membership.Role.MEMBER)
    season = season_create(club=riga, by=olga, name="Autumn", place_points=[10, 8, 6, 5, 4, 3])
    evening = tournament_create(
        organizer=olga, name="Tuesday", variant="long", match_length=1, season=season,
        format="single-elimination", first_stage="groups", groups=2, advance=2,
        self_signup=True, capacity=9, starts_at=timezone.now() + timedelta(minutes=10),
        checkin_minutes=30,
    )  # fmt: skip
    evening = tournament_open_registration(tournament=evening, by=olga)

    # Sign-up: nine places, ten players: Jana waits, and moves up when Ilze withdraws.
    for name in NAMES:
        signup_request(tournament=evening, by=users[name], display_name=name)
    assert SignUp.objects.get(player__display_name="Jana").state == "waiting"
    signup_withdraw(signup=SignUp.objects.get(player__display_name="Ilze"), by=users["Ilze"])
    assert SignUp.objects.get(player__display_name="Jana").state == "entered"

    # Check-in: everyone but Hugo comes; the start says so, then withdraws him.
    for entry in evening.entries.select_related("player__user"):
        if entry.player.display_name != "Hugo":
            entry_check_in(entry=entry, by=entry.player.user)
    assert start_notices(evening) == ["Not checked in, so withdrawn at the start: Hugo."]
    tournament_start(tournament=evening, by=olga)
    assert evening.entries.count() == 8

    # Stage 1: two groups of four; the better name (earlier in NAMES) wins every match.
    def play(tournament):
        while (
            match := tournament.matches.filter(
                status=Match.Status.SCHEDULED, away__isnull=False, home__isnull=False
            )
            .select_related("home__player", "away__player")
            .first()
        ):
            home = NAMES.index(match.home.player.display_name)
            away = NAMES.index(match.away.player.display_name)
            match_result_record(match=match, by=olga, score=(1, 0) if home < away else (0, 1))

    for group in evening.stages.all():
        play(group)
    bracket = stage_two_build(event=evening, by=olga)
    play(bracket)
    tournament_finish(tournament=evening, by=olga)

    table = {line.player.display_name: line.row for line in season_standings(season=season).lines}
    assert len(table) == 8 and "Hugo" not in table and "Ilze" not in table
    assert (table["Anna"].rank, table["Anna"].points) == (1, 10)
    assert (table["Boris"].rank, table["Boris"].points) == (2, 8)
    assert table["Jana"].events[0].place == 7  # last of her group: the 4ths share 7th place
    assert season_standings(season=season).provisional == []


def test_a_stage_one_correction_after_a_reset_moves_the_season_table():
    olga = User.objects.create_user("olga")
    riga = club_create(by=olga, name="Riga")
    season = season_create(club=riga, by=olga, name="Autumn", place_points=[10, 8, 6, 5])
    evening = tournament_create(
        organizer=olga, name="Tuesday", variant="long", match_length=1, season=season,
        format="single-elimination", first_stage="groups", groups=2, advance=1,
    )  # fmt: skip
    from tournaments.models import Player  # noqa: PLC0415
    from tournaments.services import entry_register  # noqa: PLC0415

    evening = tournament_open_registration(tournament=evening, by=olga)
    for name in ("Anna", "Boris", "Carl", "Dina"):
        entry_register(tournament=evening, by=olga, player=Player.objects.create(display_name=name))
    tournament_start(tournament=evening, by=olga)
    for match in Match.objects.filter(tournament__parent=evening):
        match_result_record(match=match, by=olga, score=(1, 0))
    stage_two_build(event=evening, by=olga)
    before = {line.player.display_name: line.row.events[0].place
              for line in season_standings(season=season).lines}  # fmt: skip
    group_match = Match.objects.filter(tournament__parent=evening, tournament__stage=1).first()
    loser = group_match.away.player.display_name
    stage_two_reset(event=evening, by=olga)
    match_result_correct(match=group_match, by=olga, score=(0, 1))
    after = {line.player.display_name: line.row.events[0].place
             for line in season_standings(season=season).lines}  # fmt: skip
    assert before[loser] == 3 and after[loser] == 1  # now first of the group
