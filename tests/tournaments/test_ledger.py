"""The rating ledger: results become ledger rows once, in order; corrections and out-of-order
arrivals replay; the cached current rating always equals the ledger's last row."""

import math
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from tournaments.models import Match, Player, Round, Tournament
from tournaments.ratings.ledger import ratings_apply, ratings_replay
from tournaments.ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def tournament(count: int = 4, **settings) -> tuple[Tournament, list]:
    olga = User.objects.create_user(f"olga-{Tournament.objects.count()}")
    settings.setdefault("variant", "short")
    settings.setdefault("match_length", 3)
    made = Tournament.objects.create(
        name="Rated",
        slug=f"rated-{Tournament.objects.count()}",
        status=Tournament.Status.RUNNING,
        organizer=olga,
        rated=True,  # approved by a rating officer (tournaments.ratings.services)
        **settings,
    )
    entries = [
        made.entries.create(player=Player.objects.get_or_create(display_name=f"P{n}")[0], seed=n)
        for n in range(1, count + 1)
    ]
    return made, entries


def decided(tournament, home, away, *, home_wins=True, minutes=0, drawn=False) -> Match:
    """A final match, decided ``minutes`` after a fixed moment (its place in rating history)."""
    round_, _ = Round.objects.get_or_create(tournament=tournament, number=1)
    winner = None if drawn else (home if home_wins else away)
    return Match.objects.create(
        tournament=tournament,
        round=round_,
        home=home,
        away=away,
        status=Match.Status.FINAL,
        score_home=3 if home_wins else 1,
        score_away=1 if home_wins else 3,
        winner=winner,
        decided_at=timezone.make_aware(timezone.datetime(2026, 5, 1)) + timedelta(minutes=minutes),
    )


def ledger_state():
    return sorted(
        RatingChange.objects.values_list("match_id", "player_id", "before", "after", "score")
    )


def test_a_first_fibs_match_between_newcomers(db):
    made, (a, b, *_) = tournament()
    match = decided(made, a, b)

    assert ratings_apply(match.pk) == "rated"

    # Both 1500, newcomers (K = 5), a 3-point match: 4·5·√3·½ = 17.3205…
    gain = 4 * 5 * math.sqrt(3) * 0.5
    winner = RatingChange.objects.get(player=a.player)
    loser = RatingChange.objects.get(player=b.player)
    assert winner.after == pytest.approx(1500 + gain) and loser.after == pytest.approx(1500 - gain)
    assert (winner.experience_after, loser.experience_after) == (3, 3)
    cached = Rating.objects.get(player=a.player)
    assert (cached.rating, cached.experience, cached.matches) == (winner.after, 3, 1)


def test_applying_twice_changes_nothing(db):
    made, (a, b, *_) = tournament()
    match = decided(made, a, b)
    ratings_apply(match.pk)
    before = ledger_state()

    assert ratings_apply(match.pk) == "unchanged"
    assert ledger_state() == before and RatingChange.objects.count() == 2


def test_a_match_arriving_out_of_order_replays_from_its_place(db):
    made, (a, b, c, d) = tournament()
    early = decided(made, a, b, minutes=1)
    late = decided(made, a, c, minutes=2, home_wins=False)
    ratings_apply(late.pk)
    assert ratings_apply(early.pk) == "replayed"
    out_of_order = ledger_state()

    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    ratings_apply(early.pk)
    ratings_apply(late.pk)
    assert ledger_state() == out_of_order


def test_correcting_an_early_result_replays_everything_after_it(db):
    made, (a, b, c, d) = tournament()
    matches = [
        decided(made, a, b, minutes=1),
        decided(made, c, d, minutes=2),
        decided(made, a, c, minutes=3),
        decided(made, b, d, minutes=4),
    ]
    for match in matches:
        ratings_apply(match.pk)
    first = matches[0]
    first.winner, first.score_home, first.score_away = b, 1, 3
    first.save()

    assert ratings_apply(first.pk) == "replayed"
    corrected = ledger_state()
    ratings_replay(None)
    assert ledger_state() == corrected  # the same as replaying everything from scratch
    after_a = Rating.objects.get(player=a.player).rating
    assert (
        after_a == RatingChange.objects.filter(player=a.player).order_by("finished_at").last().after
    )


def test_byes_and_unrated_states_make_no_rows(db):
    made, (a, b, *_) = tournament()
    round_ = Round.objects.create(tournament=made, number=2)
    bye = Match.objects.create(
        tournament=made, round=round_, home=a, status=Match.Status.FINAL, winner=a
    )
    reported = Match.objects.create(
        tournament=made, round=round_, home=a, away=b, status=Match.Status.REPORTED
    )
    assert ratings_apply(bye.pk) == "not rated"
    assert ratings_apply(reported.pk) == "not rated"
    assert ratings_apply(10**9) == "not rated"
    assert not RatingChange.objects.exists()


def test_elo_tournaments_keep_their_own_list_and_draws_count_half(db):
    made, (a, b, *_) = tournament(
        variant="long", rating_system="elo", match_length=None, match_games=2
    )
    match = decided(made, a, b, drawn=True)
    ratings_apply(match.pk)
    rows = RatingChange.objects.filter(match=match)
    assert {row.score for row in rows} == {0.5}
    assert {row.delta for row in rows} == {0.0}  # equal ratings, a draw: no change
    assert rows.first().rating_list.system == "elo"


def test_a_fibs_draw_is_not_rated(db):
    made, (a, b, *_) = tournament(variant="long", match_length=None, match_games=2)
    match = decided(made, a, b, drawn=True)
    ratings_apply(match.pk)
    assert not RatingChange.objects.exists()


def test_recompute_reports_the_drift_it_fixed(db):
    made, (a, b, *_) = tournament()
    ratings_apply(decided(made, a, b).pk)
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "No drift" in out.getvalue()

    Rating.objects.filter(player=a.player).update(rating=1234.5)
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "P1: 1234.50 → 1517.32" in out.getvalue()
    assert Rating.objects.get(player=a.player).rating == pytest.approx(1517.3205, abs=1e-4)


def test_results_recorded_through_the_services_are_rated_on_commit(
    db, django_capture_on_commit_callbacks, eager_tasks
):
    from tournaments.matches.results import match_result_correct, match_result_record  # noqa: PLC0415

    made, (a, b, *_) = tournament()
    round_ = Round.objects.create(tournament=made, number=1)
    match = Match.objects.create(tournament=made, round=round_, home=a, away=b)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_result_record(match=match, by=made.organizer, score=(3, 0))
    assert match.decided_at is not None
    assert Rating.objects.get(player=a.player).rating > 1500

    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=made.organizer, score=(0, 3))
    assert Rating.objects.get(player=a.player).rating < 1500
    assert RatingChange.objects.count() == 2


def test_the_rating_list_and_a_players_history(db):
    from tournaments.ratings.selectors import player_rating_history, rating_list  # noqa: PLC0415

    made, (a, b, c, d) = tournament()
    for minutes, (home, away) in enumerate([(a, b), (c, d), (a, c)]):
        ratings_apply(decided(made, home, away, minutes=minutes).pk)

    rows = rating_list(system="fibs", discipline="short")

    assert [row.player for row in rows][0] == a.player
    assert [row.rank for row in rows] == [1, 2, 3, 3]  # the two losers to newcomers tie
    assert rows[0].matches == 2 and rows[0].experience == 6
    history = list(player_rating_history(player=a.player, system="fibs", discipline="short"))
    assert [change.before for change in history][0] == 1500
    assert history[1].before == history[0].after
    assert rows[0].rating == history[-1].after and rows[0].last_change == history[-1].delta


def test_deleting_a_rated_match_in_the_admin_replays_the_ratings(
    db, client, django_capture_on_commit_callbacks, eager_tasks
):
    made, (a, b, c, d) = tournament()
    first = decided(made, a, b, minutes=1)
    later = decided(made, a, c, minutes=2)
    ratings_apply(first.pk)
    ratings_apply(later.pk)
    admin = User.objects.create_superuser("root", password="x")
    client.force_login(admin)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/admin/tournaments/match/{first.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not RatingChange.objects.filter(match_id=first.pk).exists()
    a_row = RatingChange.objects.get(match=later, player=a.player)
    assert a_row.before == 1500  # the deleted win no longer counts before the later match
    assert Rating.objects.get(player=a.player).rating == a_row.after
