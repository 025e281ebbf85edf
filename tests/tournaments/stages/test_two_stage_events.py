"""Two-stage events through the services: groups (or a Swiss), then a cross-seeded bracket built
once the organizer confirms; a stage-1 correction is refused while stage 2 stands, and allowed
again after its reset; the event finishes with its bracket."""

import pytest
from django.contrib.auth.models import User

from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.selectors import bracket_places
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
)
from tournaments.stages.selectors import qualifiers, stage_one_complete
from tournaments.stages.services import stage_two_build, stage_two_reset

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Boris", "Carl", "Dina", "Emil", "Fatma", "Gia", "Hugo"]


@pytest.fixture
def olga():
    return User.objects.create_user("olga")


def event(organizer, names=NAMES, **settings) -> Tournament:
    settings.setdefault("first_stage", "groups")
    settings.setdefault("format", "single-elimination")
    made = tournament_create(organizer=organizer, name="Spring Cup", variant="long",
                             match_length=1, **settings)  # fmt: skip
    made = tournament_open_registration(tournament=made, by=organizer)
    for seed, name in enumerate(names, start=1):
        entry_register(tournament=made, by=organizer, seed=seed,
                       player=Player.objects.create(display_name=name))  # fmt: skip
    return made


def play(tournament, organizer) -> None:
    """Decide every open match: the better seed (the earlier name) wins."""
    while match := (
        tournament.matches.filter(status=Match.Status.SCHEDULED, away__isnull=False)
        .exclude(home__isnull=True).select_related("home__player", "away__player").first()
    ):  # fmt: skip
        home_first = NAMES.index(match.home.player.display_name) < NAMES.index(
            match.away.player.display_name
        )
        match_result_record(match=match, by=organizer, score=(1, 0) if home_first else (0, 1))


def test_groups_then_a_cross_seeded_bracket_to_the_end(olga):
    cup = event(olga, groups=2, advance=2)
    tournament_start(tournament=cup, by=olga)
    groups = list(cup.stages.filter(stage=1).order_by("group"))
    assert [(g.group, g.format, g.status) for g in groups] == [
        ("A", "round-robin", "running"), ("B", "round-robin", "running"),
    ]  # fmt: skip
    members = [sorted(g.entries.values_list("player__display_name", flat=True)) for g in groups]
    assert members == [["Anna", "Dina", "Emil", "Hugo"], ["Boris", "Carl", "Fatma", "Gia"]]
    assert not stage_one_complete(cup)
    with pytest.raises(Conflict, match="Stage 1 is not finished"):
        stage_two_build(event=cup, by=olga)
    for group in groups:
        play(group, olga)
    assert stage_one_complete(cup)
    seeds = [(q.seed, q.player.display_name, q.group, q.place) for q in qualifiers(cup)]
    assert seeds == [(1, "Anna", "A", 1), (2, "Boris", "B", 1), (3, "Dina", "A", 2),
                     (4, "Carl", "B", 2)]  # fmt: skip
    bracket = stage_two_build(event=cup, by=olga)
    first_round = {
        frozenset((m.home.player.display_name, m.away.player.display_name))
        for m in bracket.matches.filter(bracket_round=1).select_related("home__player",
                                                                        "away__player")
    }  # fmt: skip
    assert first_round == {frozenset({"Anna", "Carl"}), frozenset({"Boris", "Dina"})}  # A1-B2
    with pytest.raises(Conflict, match="not 0|have no decided result"):
        tournament_finish(tournament=cup, by=olga)
    play(bracket, olga)
    tournament_finish(tournament=cup, by=olga)
    assert set(Tournament.objects.values_list("status", flat=True)) == {"finished"}
    assert [(place, e.player.display_name) for place, e in bracket_places(tournament=bracket)][
        :2
    ] == [(1, "Anna"), (2, "Boris")]


def test_a_stage_one_correction_waits_for_a_reset_of_stage_two(olga):
    cup = event(olga, groups=2, advance=1)
    tournament_start(tournament=cup, by=olga)
    for group in cup.stages.all():
        play(group, olga)
    stage_two_build(event=cup, by=olga)
    match = Match.objects.filter(tournament__stage=1).first()
    with pytest.raises(Conflict, match="reset stage 2"):
        match_result_correct(match=match, by=olga, score=(0, 1))
    with pytest.raises(NotAllowed):
        stage_two_reset(event=cup, by=User.objects.create_user("oscar"))
    stage_two_reset(event=cup, by=olga)
    assert not cup.stages.filter(stage=2).exists()
    match_result_correct(match=match, by=olga, score=(0, 1))
    stage_two_build(event=cup, by=olga)
    assert cup.stages.get(stage=2).entries.count() == 2


def test_a_swiss_then_the_top_four(olga):
    cup = event(olga, first_stage="swiss", swiss_rounds=3, advance=4,
                format="double-elimination")  # fmt: skip
    tournament_start(tournament=cup, by=olga)
    (swiss,) = cup.stages.all()
    from tournaments.services import swiss_round_pair  # noqa: PLC0415

    for number in range(3):
        if number:
            assert not stage_one_complete(cup)
            swiss_round_pair(tournament=swiss, by=olga)
        play(swiss, olga)
    bracket = stage_two_build(event=cup, by=olga)
    assert bracket.format == "double-elimination" and bracket.entries.count() == 4
    assert [q.player.display_name for q in qualifiers(cup)][:1] == ["Anna"]


@pytest.mark.parametrize(
    "settings, refusal",
    [
        ({"format": "round-robin", "groups": 2, "advance": 2}, "elimination format"),
        ({"groups": 2}, "how many players go on"),
        ({"advance": 2}, "how many groups"),
        ({"first_stage": "swiss", "advance": 4}, "how many rounds"),
    ],
)
def test_settings_that_do_not_fit_are_refused(olga, settings, refusal):
    with pytest.raises(InvalidInput, match=refusal):
        event(olga, **settings)
    assert not Tournament.objects.exists()


def test_groups_too_small_for_the_players_who_go_on_are_refused_at_the_start(olga):
    cup = event(olga, names=NAMES[:4], groups=2, advance=2)
    with pytest.raises(Conflict, match="more players than"):
        tournament_start(tournament=cup, by=olga)
    cup.refresh_from_db()
    assert cup.status == "registration" and not cup.stages.exists()


def test_a_two_stage_event_in_a_season_places_everyone(olga):
    from tournaments.clubs.services import club_create  # noqa: PLC0415
    from tournaments.seasons.selectors import season_standings  # noqa: PLC0415
    from tournaments.seasons.services import season_create  # noqa: PLC0415

    riga = club_create(by=olga, name="Riga")
    season = season_create(
        club=riga, by=olga, name="Spring", place_points=[10, 8, 6, 5, 4, 3, 2, 1]
    )
    cup = event(olga, groups=2, advance=2, season=season)
    tournament_start(tournament=cup, by=olga)
    for group in cup.stages.all():
        play(group, olga)
    # Before the bracket: the groups' places, shared across the groups.
    provisional = {line.player.display_name: line.row.events[0].place
                   for line in season_standings(season=season).lines}  # fmt: skip
    assert provisional == {"Anna": 1, "Boris": 1, "Dina": 3, "Carl": 3, "Emil": 5, "Fatma": 5,
                           "Hugo": 7, "Gia": 7}  # fmt: skip
    play(stage_two_build(event=cup, by=olga), olga)
    tournament_finish(tournament=cup, by=olga)
    table = season_standings(season=season)
    places = {line.player.display_name: line.row.events[0].place for line in table.lines}
    assert places == {"Anna": 1, "Boris": 2, "Carl": 3, "Dina": 3, "Emil": 5, "Fatma": 5,
                      "Hugo": 7, "Gia": 7}  # fmt: skip
    wins = {line.player.display_name: line.row.events[0].wins for line in table.lines}
    assert wins["Anna"] == 3 + 2  # three in group A, two in the bracket


def test_rating_the_event_rates_its_stages(olga, django_capture_on_commit_callbacks, eager_tasks):
    from tournaments.ratings.models import RatingChange  # noqa: PLC0415
    from tournaments.ratings.services import ratings_approve, ratings_withdraw  # noqa: PLC0415

    cup = event(olga, groups=2, advance=1)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_start(tournament=cup, by=olga)
        for group in cup.stages.all():
            play(group, olga)
    assert not RatingChange.objects.exists()
    officer = User.objects.create_user("rita", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        ratings_approve(tournament=cup, by=officer)
    assert set(cup.stages.values_list("rated", flat=True)) == {True}
    assert RatingChange.objects.count() == 2 * 12  # every group match, both players
    with django_capture_on_commit_callbacks(execute=True):
        ratings_withdraw(tournament=cup, by=officer)
    assert not RatingChange.objects.exists()


def test_one_who_stayed_tied_with_a_qualifier_places_behind_the_bracket(olga):
    from tournaments.clubs.services import club_create  # noqa: PLC0415
    from tournaments.seasons.selectors import season_standings  # noqa: PLC0415
    from tournaments.seasons.services import season_create  # noqa: PLC0415

    season = season_create(club=club_create(by=olga, name="Riga"), by=olga, name="Spring")
    # No tie-break (the groups' default order would split the cycle by its byes' rounds).
    cup = event(olga, names=NAMES[:6], groups=2, advance=1, season=season, tiebreaks=[])
    tournament_start(tournament=cup, by=olga)
    for group in cup.stages.all():  # every home side wins: each group of three is a cycle
        for match in group.matches.filter(away__isnull=False):
            match_result_record(match=match, by=olga, score=(1, 0))
    play(stage_two_build(event=cup, by=olga), olga)
    tournament_finish(tournament=cup, by=olga)
    places = sorted(line.row.events[0].place for line in season_standings(season=season).lines)
    assert places == [1, 2, 3, 3, 3, 3]  # all four who stayed were level in their groups
