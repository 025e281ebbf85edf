"""Running a tournament: create, register, start (round robin, Swiss, brackets), pair, finish;
every transition by the wrong person or in the wrong state is refused and changes nothing."""

import itertools

import pytest
from django.contrib.auth.models import User

from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.services import (
    entry_register,
    entry_withdraw,
    swiss_round_pair,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


@pytest.fixture
def outsider():
    return User.objects.create_user("oscar", password="x")


NUMBERS = itertools.count(1)


def players(count: int) -> list[Player]:
    return [Player.objects.create(display_name=f"Player {next(NUMBERS):03}") for _ in range(count)]


def open_tournament(organizer, count: int, **settings) -> Tournament:
    settings.setdefault("variant", "short")
    tournament = tournament_create(organizer=organizer, name="Spring Open", **settings)
    tournament = tournament_open_registration(tournament=tournament, by=organizer)
    for player in players(count):
        entry_register(tournament=tournament, player=player, by=organizer)
    return tournament


def decide_all(tournament: Tournament, organizer) -> None:
    """The organizer records a win of the home side in every open match that has two sides."""
    while True:
        open_matches = tournament.matches.filter(
            status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
        )
        match = open_matches.first()
        if match is None:
            return
        match_result_record(match=match, by=organizer, score=(tournament.match_length, 1))


# --- Creating and registering --------------------------------------------------------------


def test_an_organizer_creates_a_draft_with_a_free_slug(olga):
    first = tournament_create(organizer=olga, name="Spring Open", variant="long")
    second = tournament_create(organizer=olga, name="Spring Open", variant="long")
    assert first.status == Tournament.Status.DRAFT and first.organizer == olga
    assert (first.slug, second.slug) == ("spring-open", "spring-open-2")


def test_creating_needs_a_signed_in_user():
    from django.contrib.auth.models import AnonymousUser  # noqa: PLC0415

    with pytest.raises(NotAllowed):
        tournament_create(organizer=AnonymousUser(), name="X", variant="long")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"variant": "long", "koks": True}, "Short Nardy rules"),
        ({"variant": "short", "federation_draw": True}, "Long Nardy rule"),
        ({"variant": "short", "match_length": 5, "match_games": 3}, "points or as a number"),
        ({"variant": "short", "match_length": None}, "points or as a number"),
        ({"variant": "short", "format": "swiss"}, "how many rounds"),
        ({"variant": "short", "tiebreaks": ["coin-toss"]}, "coin-toss"),
        ({"variant": "chess"}, "variant"),
        ({"variant": "short", "format": "knockout"}, "format"),
    ],
)
def test_settings_that_do_not_fit_are_refused(olga, settings, message):
    with pytest.raises(InvalidInput, match=message):
        tournament_create(organizer=olga, name="Cup", **settings)
    assert not Tournament.objects.exists()


def test_only_an_organizer_opens_registration_and_enters_players(olga, outsider):
    tournament = tournament_create(organizer=olga, name="Cup", variant="short")
    with pytest.raises(NotAllowed):
        tournament_open_registration(tournament=tournament, by=outsider)
    tournament = tournament_open_registration(tournament=tournament, by=olga)
    with pytest.raises(Conflict):
        tournament_open_registration(tournament=tournament, by=olga)
    (anna,) = players(1)
    with pytest.raises(NotAllowed):
        entry_register(tournament=tournament, player=anna, by=outsider)
    entry_register(tournament=tournament, player=anna, by=olga)
    with pytest.raises(Conflict, match="already entered"):
        entry_register(tournament=tournament, player=anna, by=olga)
    assert tournament.entries.count() == 1


def test_a_co_organizer_may_run_the_tournament(olga, outsider):
    tournament = tournament_create(organizer=olga, name="Cup", variant="short")
    tournament.co_organizers.add(outsider)
    tournament = tournament_open_registration(tournament=tournament, by=outsider)
    assert tournament.status == Tournament.Status.REGISTRATION


def test_withdrawing_before_the_start_removes_the_entry_and_after_it_stops_pairing(olga):
    tournament = open_tournament(olga, 5, format="swiss", swiss_rounds=3)
    first = tournament.entries.first()
    entry_withdraw(entry=first, by=olga)
    assert not Entry.objects.filter(pk=first.pk).exists()
    tournament_start(tournament=tournament, by=olga)
    leaving = tournament.entries.first()
    entry_withdraw(entry=leaving, by=olga)
    decide_all(tournament, olga)
    round_two = swiss_round_pair(tournament=tournament, by=olga)
    paired = {m.home_id for m in round_two.matches.all()} | {
        m.away_id for m in round_two.matches.all()
    }
    assert leaving.pk not in paired


def test_late_entries_join_a_running_swiss_but_not_a_round_robin(olga):
    swiss = open_tournament(olga, 4, format="swiss", swiss_rounds=3)
    tournament_start(tournament=swiss, by=olga)
    late = Player.objects.create(display_name="Late")
    entry = entry_register(tournament=swiss, player=late, by=olga)
    assert entry.late_entry
    robin = open_tournament(olga, 4)
    tournament_start(tournament=robin, by=olga)
    with pytest.raises(Conflict, match="Late entries join Swiss"):
        entry_register(tournament=robin, player=late, by=olga)


# --- Starting ----------------------------------------------------------------------------------


def test_a_round_robin_start_makes_every_round_and_seeds_the_entries(olga):
    tournament = open_tournament(olga, 5)
    tournament = tournament_start(tournament=tournament, by=olga)
    assert tournament.status == Tournament.Status.RUNNING
    assert sorted(tournament.entries.values_list("seed", flat=True)) == [1, 2, 3, 4, 5]
    assert tournament.rounds.count() == 5
    pairs = [
        frozenset((m.home_id, m.away_id)) for m in tournament.matches.filter(away__isnull=False)
    ]
    assert len(pairs) == len(set(pairs)) == 10  # every pair meets once
    byes = tournament.matches.filter(away__isnull=True)
    assert byes.count() == 5 and all(m.status == Match.Status.FINAL for m in byes)


def test_a_double_round_robin_meets_twice_with_sides_swapped(olga):
    tournament = open_tournament(olga, 4, format="double-round-robin")
    tournament_start(tournament=tournament, by=olga)
    assert tournament.rounds.count() == 6
    sides = [(m.home_id, m.away_id) for m in tournament.matches.all()]
    assert len(sides) == 12 and all((away, home) in sides for home, away in sides)


def test_starting_needs_two_players_and_the_organizer(olga, outsider):
    tournament = open_tournament(olga, 1)
    with pytest.raises(Conflict, match="at least two players"):
        tournament_start(tournament=tournament, by=olga)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    entry_register(tournament=tournament, player=players(2)[1], by=olga)
    with pytest.raises(NotAllowed):
        tournament_start(tournament=tournament, by=outsider)
    assert not tournament.matches.exists()


def test_a_swiss_is_paired_round_by_round_without_rematches(olga):
    tournament = open_tournament(olga, 8, format="swiss", swiss_rounds=3)
    tournament_start(tournament=tournament, by=olga)
    assert tournament.rounds.count() == 1
    with pytest.raises(Conflict, match="must be decided"):
        swiss_round_pair(tournament=tournament, by=olga)
    for _ in range(2):
        decide_all(tournament, olga)
        swiss_round_pair(tournament=tournament, by=olga)
    pairs = [frozenset((m.home_id, m.away_id)) for m in tournament.matches.all()]
    assert len(pairs) == 12 and len(set(pairs)) == 12
    decide_all(tournament, olga)
    with pytest.raises(Conflict, match="All 3 rounds"):
        swiss_round_pair(tournament=tournament, by=olga)


@pytest.mark.parametrize(
    ("settings", "count", "matches"),
    [
        ({"format": "single-elimination"}, 8, 7),
        ({"format": "single-elimination", "third_place": True}, 8, 8),
        ({"format": "double-elimination", "grand_final": "reset"}, 8, 15),
        ({"format": "double-elimination", "grand_final": "single"}, 16, 30),
    ],
)
def test_a_bracket_start_makes_the_whole_bracket(olga, settings, count, matches):
    tournament = open_tournament(olga, count, **settings)
    tournament_start(tournament=tournament, by=olga)
    assert tournament.matches.count() == matches
    first_round = tournament.matches.filter(home__isnull=False, away__isnull=False)
    assert first_round.count() == count // 2


def test_a_bracket_is_played_to_the_end_and_the_tournament_finished(olga):
    tournament = open_tournament(olga, 6, format="single-elimination")
    tournament_start(tournament=tournament, by=olga)
    with pytest.raises(Conflict, match="no decided result"):
        tournament_finish(tournament=tournament, by=olga)
    decide_all(tournament, olga)
    final = tournament.matches.order_by("-bracket_round").first()
    assert final.winner is not None
    tournament = tournament_finish(tournament=tournament, by=olga)
    assert tournament.status == Tournament.Status.FINISHED
    with pytest.raises(Conflict):
        match_result_record(match=final, by=olga, score=(5, 0))


def test_the_top_seeds_get_the_byes(olga):
    tournament = open_tournament(olga, 6, format="single-elimination")
    tournament_start(tournament=tournament, by=olga)
    seeds_playing_first = set(
        itertools.chain.from_iterable(
            (m.home.seed, m.away.seed)
            for m in tournament.matches.filter(home__isnull=False, away__isnull=False)
        )
    )
    assert seeds_playing_first == {3, 4, 5, 6}


def test_the_bracket_reset_is_played_only_when_the_losers_bracket_champion_wins(olga):
    tournament = open_tournament(olga, 4, format="double-elimination", grand_final="reset")
    tournament_start(tournament=tournament, by=olga)
    decide_all(tournament, olga)  # home always wins: the winners-bracket champion takes the final
    reset = tournament.matches.get(slot="GF-reset")
    assert reset.home is None and reset.away is None
    tournament = tournament_finish(tournament=tournament, by=olga)
    assert tournament.status == Tournament.Status.FINISHED

    grand_final = tournament.matches.get(slot="GF")
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    from tournaments.matches.results import match_result_correct  # noqa: PLC0415

    match_result_correct(match=grand_final, by=olga, score=(1, 5))  # the away side wins it
    reset.refresh_from_db()
    assert (reset.home, reset.away) == (grand_final.home, grand_final.away)  # loser, winner


@pytest.mark.parametrize(
    "settings",
    [
        {"format": "double-elimination", "grand_final": "reset"},
        {"format": "double-elimination", "grand_final": "none"},
        {"format": "consolation", "consolation_kind": "first-round"},
        {"format": "consolation", "consolation_kind": "progressive", "last_chance": True},
        {"format": "single-elimination", "third_place": True},
    ],
)
@pytest.mark.parametrize("count", [5, 6, 11, 16])
def test_every_bracket_can_be_played_to_its_end(olga, settings, count):
    tournament = open_tournament(olga, count, **settings)
    tournament_start(tournament=tournament, by=olga)
    decide_all(tournament, olga)
    waiting = tournament.matches.exclude(status__in=["confirmed", "final"]).filter(
        home__isnull=False, away__isnull=False
    )
    assert not waiting.exists()
    tournament = tournament_finish(tournament=tournament, by=olga)
    assert tournament.status == Tournament.Status.FINISHED


def test_a_swiss_of_three_thousand_entrants_starts_and_pairs_its_second_round(olga):
    # 2,000 entrants used to crash the start with RecursionError (issue 18); no timing here.
    tournament = tournament_create(
        organizer=olga, name="Open Qualifier", variant="short", format="swiss", swiss_rounds=2
    )
    tournament = tournament_open_registration(tournament=tournament, by=olga)
    field = Player.objects.bulk_create(
        Player(display_name=f"Qualifier {number:04}") for number in range(3000)
    )
    Entry.objects.bulk_create(Entry(tournament=tournament, player=player) for player in field)

    tournament_start(tournament=tournament, by=olga)

    first = tournament.matches.filter(round__number=1)
    assert first.count() == 1500
    sides = [side for pair in first.values_list("home_id", "away_id") for side in pair]
    assert len(set(sides)) == 3000
    for match in first:  # the home side wins every first-round match
        match.status, match.winner_id = Match.Status.FINAL, match.home_id
        match.score_home, match.score_away = tournament.match_length, 0
    Match.objects.bulk_update(first, ["status", "winner", "score_home", "score_away"])
    second = swiss_round_pair(tournament=tournament, by=olga)
    pairs = list(second.matches.values_list("home_id", "away_id"))
    assert len(pairs) == 1500
    played = {frozenset(pair) for pair in first.values_list("home_id", "away_id")}
    assert not played & {frozenset(pair) for pair in pairs}
    winners = set(first.values_list("winner_id", flat=True))
    assert all((home in winners) == (away in winners) for home, away in pairs)
