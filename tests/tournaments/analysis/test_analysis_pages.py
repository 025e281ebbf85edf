"""The analysis on the match page and in the API: gnubg's figures once analysed (the shared page
follows at once), "not available" without gnubg (Long Nardy's engine: test_long_analysis.py)."""

from __future__ import annotations

import json
import os
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse

from games.analysis.runner import gnubg_path
from games.rules import Play, action_to_json
from games.rules.matfile import read_match
from games.services import games_from_mat
from tests.support.corpus import corpus_or_skip
from tournaments.analysis.models import Mistake
from tournaments.analysis.reading import SHORT
from tournaments.analysis.tasks import analysis_run

from .test_analysis_task import corpus_match, recorded

pytestmark = pytest.mark.django_db
if gnubg_path() is None and os.environ.get("CI", "").lower() != "true":
    pytest.skip("gnubg is not installed: apt-get install gnubg", allow_module_level=True)


def test_the_page_and_the_api_show_the_analysis_once_it_is_done(client, analysis_on):
    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)  # on commit: not run in this test's transaction
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-state="running"' in page  # queued with the result: 0 games done yet
    assert "Waiting for the analysis to start" in page and 'http-equiv="refresh"' in page
    assert client.get(f"/api/v1/matches/{match.pk}/analysis").json()["state"] == "running"
    assert analysis_run(match.pk) == "analysed"
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-state="done"' in page and 'data-role="analysis-totals"' in page
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["state"] == "done" and data["plies"] == 0 and data["engine"] == "gnubg"
    assert sorted(row["side"] for row in data["totals"]) == [1, 2]
    assert len(data["per_game"]) == 2 * data["games"]
    assert all(row["pr"] == pytest.approx(row["error_rate"] / 2) for row in data["totals"])
    assert {m["mark"] for m in data["mistakes"]} <= {"blunder", "error", ""}
    blunders = sum(row["blunders"] for row in data["totals"])
    assert blunders == sum(1 for m in data["mistakes"] if m["mark"] == "blunder")


def embedded_frames(page: str) -> dict:
    return json.loads(re.search(r'id="board-frames"[^>]*>(.*?)</script>', page, re.S).group(1))


def test_the_board_viewer_marks_each_play_that_lost_equity(client, analysis_on):
    """Each stored mistake marks the turn frame of its game's k-th checker play (the play the
    frame shows is the one gnubg judged), with gnubg's best play and the board it leads to."""
    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert not any("analysis" in frame for frame in embedded_frames(page)["frames"])
    assert analysis_run(match.pk) == "analysed"
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    frames = embedded_frames(page)
    turns: dict[int, list[dict]] = {}
    for frame in frames["frames"]:
        if frame["kind"] == "turn":
            turns.setdefault(frame["game"], []).append(frame)
    mistakes = list(Mistake.objects.filter(analysis__match=match))
    assert sum(1 for f in frames["frames"] if "analysis" in f) == len(mistakes) > 0
    for mistake in mistakes:
        frame = turns[mistake.game][mistake.move - 1]
        unmarked = Play.parse(frame["play"].replace("*", ""))
        assert unmarked == Play.parse(mistake.played)
        verdict = frame["analysis"]
        assert verdict["loss"] == pytest.approx(mistake.loss, abs=1e-4)
        assert verdict["mark"] == SHORT.mark(mistake.loss)  # gnubg's thresholds
        assert verdict["board"] is not None and verdict["moved"]
        assert Play.parse(verdict["best"].replace("*", "")) == Play.parse(mistake.best)
    assert 'data-step="next-blunder"' in page


def test_without_gnubg_the_page_and_the_api_say_so(client, monkeypatch):
    monkeypatch.setenv("GNUBG", "")
    text, home, away, length = corpus_match()
    with override_settings(ANALYSIS="auto"):
        match, _ = recorded(text, home, away, length)
        page = client.get(reverse("match", args=[match.pk])).content.decode()
        data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert "Analysis is not available on this server." in page
    assert data == {"state": "unavailable", "engine": None, "plies": None, "games": None,
                    "totals": [], "per_game": [], "mistakes": [], "luck_measured": None,
                    "cube_analysed": None, "crawford_game": None, "cube_note": ""}  # fmt: skip


def test_while_gnubg_works_the_page_says_how_far_and_follows(client, analysis_on):
    from tournaments.analysis.models import MatchAnalysis  # noqa: PLC0415

    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)
    MatchAnalysis.objects.update_or_create(
        match=match, defaults={"status": "running", "games": 9, "games_done": 2}
    )
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Analysing: 2 of 9 games done." in page and 'http-equiv="refresh"' in page
    MatchAnalysis.objects.filter(match=match).update(games_done=3)
    assert "3 of 9 games done" in client.get(reverse("match", args=[match.pk])).content.decode()


def test_the_pr_table_ranks_the_entrants_by_their_analysed_matches(client, analysis_on):
    from tournaments.analysis.models import PlayerFigures  # noqa: PLC0415

    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)
    tournament = match.tournament
    assert client.get(f"/api/v1/tournaments/{tournament.slug}/pr-table/").json() == []
    assert (
        "No analysed matches yet."
        in client.get(reverse("tournament-pr", args=[tournament.slug])).content.decode()
    )
    analysis_run(match.pk)
    rows = client.get(f"/api/v1/tournaments/{tournament.slug}/pr-table/").json()
    assert [row["rank"] for row in rows] == [1, 2] and rows[0]["pr"] <= rows[1]["pr"]
    by_side = {f.side: f for f in PlayerFigures.objects.filter(game=0)}
    home_row = next(row for row in rows if row["player"] == home)
    assert home_row["pr"] == pytest.approx(by_side[1].pr)
    assert home_row["matches"] == 1
    page = client.get(reverse("tournament-pr", args=[tournament.slug])).content.decode()
    assert 'data-role="pr-table"' in page and home in page


def test_the_player_page_charts_the_pr_over_time(client, analysis_on):
    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)
    player = match.home.player
    assert (
        'data-role="pr-history"'
        not in client.get(reverse("player", args=[player.pk])).content.decode()
    )
    analysis_run(match.pk)
    page = client.get(reverse("player", args=[player.pk])).content.decode()
    assert 'data-role="pr-history"' in page and "PR over time" in page


def test_a_failed_analysis_says_why(client, analysis_on):
    from tournaments.analysis.models import MatchAnalysis  # noqa: PLC0415

    text, home, away, length = corpus_match()
    match, _ = recorded(text, home, away, length)
    MatchAnalysis.objects.update_or_create(
        match=match,
        defaults={"status": "failed", "games": 3,
                  "error": "gnubg read 1 of the record's 3 games"},
    )  # fmt: skip
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-role="analysis-failed"' in page and "gnubg read 1 of the record" in page
    assert client.get(f"/api/v1/matches/{match.pk}/analysis").json()["state"] == "failed"


def test_a_record_stored_as_written_before_is_unreplayable_not_a_crash(client, analysis_on):
    """Before plays were stored as the engine made them, match1238642's game 1 was stored as
    written (a hit on the way left unmarked, the steps joined), which replays to an illegal play:
    the match page says so instead of failing, the analysis is marked failed with why, and
    ``records_check`` lists it until it is stored again."""
    path = corpus_or_skip() / "lasse" / "raw" / "match1238642.txt"
    text = path.read_text(encoding="utf-8")
    record = read_match(text)
    match, _ = recorded(text, *record.players, record.length)
    first = match.games.get(number=1)
    first.actions = [action_to_json(action) for action in record.games[0].actions]
    first.save(update_fields=["actions"])
    page = client.get(reverse("match", args=[match.pk]))
    assert page.status_code == 200
    content = page.content.decode()
    assert 'data-role="unreplayable"' in content and "no checker on the bar" in content
    assert 'id="board-frames"' not in content
    assert analysis_run(match.pk) == "unreplayable"
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["state"] == "failed"
    out = StringIO()
    with pytest.raises(CommandError, match="1 stored records do not replay"):
        call_command("records_check", stdout=out)
    assert f"match {match.pk} (cup): turn 15" in out.getvalue()
    first.actions = [action_to_json(a) for a in validated_first_game(text, record)]
    first.save(update_fields=["actions"])
    call_command("records_check", stdout=out)
    assert "Every stored record replays." in out.getvalue()


def validated_first_game(text: str, record) -> tuple:
    """Game 1 as the result service stores it now."""
    return games_from_mat(
        text, variant=record.variant, length=record.length, crawford=record.crawford
    )[0].actions
