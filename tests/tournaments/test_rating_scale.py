"""The rating list at a federation's scale: no query carries a parameter per match, a replay
from a match starts at the list's checkpoint before it, and the beat's check of what is behind
reads the backlog, not the ledger. The ledger always equals a full serial replay."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.support.history import rated_history
from tournaments.matches.results import match_result_correct
from tournaments.models import Match
from tournaments.ratings import ledger
from tournaments.ratings.history import Tally
from tournaments.ratings.models import (
    Rating,
    RatingBacklog,
    RatingChange,
    RatingCheckpoint,
    RatingList,
)

pytestmark = pytest.mark.django_db


def ledger_rows() -> list[tuple]:
    return list(
        RatingChange.objects.order_by("finished_at", "match_id", "player_id").values_list(
            "match_id", "player_id", "score", "before", "after", "experience_after"
        )
    )


def cache_rows() -> set[tuple]:
    return set(
        Rating.objects.values_list(
            "player_id", "rating", "experience", "matches", "last_delta", "last_match_at"
        )
    )


def tallies_read_whole(rating_list: RatingList, key) -> dict[int, Tally]:
    """Every player's place before ``key`` the slow way: every earlier ledger row."""
    from tournaments.ratings.history import Standing  # noqa: PLC0415

    tallies: dict[int, Tally] = {}
    rows = RatingChange.objects.filter(rating_list=rating_list).order_by("finished_at", "match_id")
    for row in rows:
        if (row.finished_at, row.match_id) >= key:
            break
        matches = tallies[row.player_id].matches + 1 if row.player_id in tallies else 1
        tallies[row.player_id] = Tally(
            Standing(row.after, row.experience_after), matches, row.delta, row.finished_at
        )
    return tallies


@pytest.fixture
def small_steps(monkeypatch):
    """Checkpoints every 7 matches, rated 5 at a time: many of each in a small history."""
    monkeypatch.setattr(ledger, "CHECKPOINT_EVERY", 7)
    monkeypatch.setattr(ledger, "BATCH", 5)


def reversed_score(match: Match) -> tuple[int, int]:
    length = match.tournament.match_length
    return (0, length) if match.winner_id == match.home_id else (length, 0)


def flip(match_id: int) -> Match:
    """Give the match to its loser, as a correction does, without enqueueing anything."""
    match = Match.objects.get(pk=match_id)
    won_home = match.winner_id == match.home_id
    Match.objects.filter(pk=match_id).update(
        winner_id=match.away_id if won_home else match.home_id,
        score_home=match.score_away,
        score_away=match.score_home,
    )
    return match


def test_a_replay_from_a_checkpoint_equals_the_whole_replay(small_steps):
    history = rated_history(matches=60, players=9)
    ledger.ratings_replay(None)
    assert RatingCheckpoint.objects.count() >= 5  # one every two chunks of five
    rating_list = RatingList.objects.get()
    for index in (0, 13, 31, 44, 59):
        match = flip(history.match_ids[index])
        key = (match.decided_at, match.pk)
        tallies, since = ledger._tallies_before(rating_list, key)
        assert tallies == tallies_read_whole(rating_list, key)
        assert since < ledger.CHECKPOINT_EVERY + ledger.BATCH  # from the checkpoint, not row 1

        report = ledger.ratings_replay(key, rating_list)
        assert report.matches == 60 - index
        from_key = ledger_rows(), cache_rows()
        ledger.ratings_replay(None)  # the serial replay of everything
        assert (ledger_rows(), cache_rows()) == from_key
    assert ledger.ratings_verify() == {}


def test_matches_rated_one_by_one_take_checkpoints_that_later_replays_start_from(small_steps):
    history = rated_history(matches=30, players=6)
    for match_id in history.match_ids:
        assert ledger.ratings_apply(match_id) == "rated"
    assert RatingCheckpoint.objects.count() == 30 // 7
    assert RatingList.objects.get().since_checkpoint == 30 % 7
    one_by_one = ledger_rows(), cache_rows()
    ledger.ratings_replay(None)
    assert (ledger_rows(), cache_rows()) == one_by_one

    match = flip(history.match_ids[20])
    assert ledger.ratings_apply(match.pk) == "replayed"  # another result: from its place on
    after_correction = ledger_rows(), cache_rows()
    ledger.ratings_replay(None)
    assert (ledger_rows(), cache_rows()) == after_correction


def test_a_match_that_arrives_late_is_replayed_in_its_place_past_the_checkpoints(small_steps):
    history = rated_history(matches=20, players=6)
    late = history.match_ids[-1]
    Match.objects.filter(pk=late).update(decided_at=None, status=Match.Status.SCHEDULED)
    ledger.ratings_replay(None)
    Match.objects.filter(pk=late).update(
        decided_at=Match.objects.get(pk=history.match_ids[3]).decided_at, status="final"
    )
    assert ledger.ratings_apply(late) == "replayed"
    in_place = ledger_rows()
    ledger.ratings_replay(None)
    assert ledger_rows() == in_place


def test_the_beats_check_reads_the_backlog_in_one_query(django_assert_num_queries):
    """A result whose rating task never ran (here: on commit, which a test never reaches) leaves
    its backlog row; the check reads only that, and the catch-up does the work and clears it."""
    history = rated_history(matches=12, players=5, status="running")
    ledger.ratings_replay(None)
    with django_assert_num_queries(1):
        assert ledger.ratings_behind() == {}
    first = Match.objects.select_related("tournament").get(pk=history.match_ids[2])
    match_result_correct(match=first, by=history.organizer, score=reversed_score(first))
    assert RatingBacklog.objects.count() == 1
    with django_assert_num_queries(1):
        assert ledger.ratings_behind() == {("fibs", "short"): (first.decided_at, first.pk)}
    assert ledger.ratings_verify() != {}
    assert ledger.ratings_catch_up() == 10
    assert not RatingBacklog.objects.exists()
    assert ledger.ratings_verify() == {} and ledger.ratings_behind() == {}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's 65,535 parameters")
def test_a_correction_of_the_first_of_70000_matches_is_rated(
    django_capture_on_commit_callbacks, eager_tasks, settings
):
    """More matches in one list than PostgreSQL takes bind parameters in one query, with the
    default settings (server-side binding on): the correction's replay goes through."""
    assert settings.DATABASES["default"]["OPTIONS"].get("server_side_binding") is True
    history = rated_history(matches=70_000, players=400, status="running")
    ledger.ratings_replay(None)
    first = Match.objects.select_related("tournament").get(pk=history.match_ids[0])
    loser = first.away if first.winner_id == first.home_id else first.home
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=first, by=history.organizer, score=reversed_score(first))
    assert RatingChange.objects.get(match=first, score=1.0).player_id == loser.player_id
    assert RatingChange.objects.count() == 2 * 70_000
    assert not RatingBacklog.objects.exists()
    corrected = cache_rows()
    ledger.ratings_replay(None)
    assert cache_rows() == corrected
