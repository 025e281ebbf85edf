"""A recorded Long Nardy match is analysed by the project's engine on the ``analysis`` queue,
as a Short Nardy one is by gnubg: its figures reach the match page, the API and the PR table,
and the page says which engine and plies made them."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from django.urls import reverse

from games.engine.analysis import long_mark_of
from games.engine.search import engine_name
from games.rules import LongNardy, replay_game
from games.rules.game import MatchScore
from tests.web.conftest import make_site
from tournaments.analysis import services
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.analysis.selectors import match_analysis, verdicts_of
from tournaments.analysis.tasks import analysis_run
from tournaments.matches.results import match_result_correct, match_result_record

pytestmark = pytest.mark.django_db


def decided(site, seed: int = 7):
    match = site.match("Anna", "Boris")
    return match_result_record(match=match, by=site.organizer, games=site.recorded_games(seed))


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_a_long_nardy_result_is_analysed_on_commit_by_the_engine(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    site = make_site(variant="long", rated=False, match_length=1)
    with django_capture_on_commit_callbacks(execute=True):
        match = decided(site)
    analysis = MatchAnalysis.objects.get(match=match)
    assert (
        analysis.status == "done" and analysis.games == analysis.games_done == match.games.count()
    )
    assert analysis.engine == engine_name() and analysis.plies == 0
    totals = {row.side: row for row in PlayerFigures.objects.filter(analysis=analysis, game=0)}
    assert set(totals) == {1, 2} and all(row.unforced_moves > 0 for row in totals.values())
    mistakes = list(Mistake.objects.filter(analysis=analysis))
    for side, row in totals.items():
        mine = [m for m in mistakes if m.side == side]
        assert row.checker_error == pytest.approx(sum(m.loss for m in mine), abs=1e-6)
        assert row.blunders == sum(1 for m in mine if long_mark_of(m.loss) == "blunder")
        assert row.cube_error == 0 and row.close_cube_decisions == 0
    assert analysis_run(match.pk) == "already analysed"


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_the_page_the_api_and_the_pr_table_show_it(client, analysis_on, eager_tasks,
                                                   django_capture_on_commit_callbacks):  # fmt: skip
    site = make_site(variant="long", rated=False, match_length=1)
    with django_capture_on_commit_callbacks(execute=True):
        match = decided(site)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-state="done"' in page and 'data-role="analysis-totals"' in page
    assert "our Long Nardy engine, trained by playing against itself" in page
    assert "0-ply search" in page
    assert 'data-role="summary-luck"' in page and 'data-role="summary-luck-adjusted"' in page
    assert 'data-role="cube-note"' not in page and 'data-role="no-cube-errors"' in page
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["state"] == "done" and data["engine"] == engine_name() and data["plies"] == 0
    assert data["luck_measured"] is True and data["cube_analysed"] is True
    assert data["cube_note"] == ""
    rows = data["totals"] + data["per_game"]
    for row in rows:
        assert row["result"] in (-2, -1, 1, 2)  # one game: an oyn or a mars, won or lost
    home, away = sorted(data["totals"], key=lambda row: row["side"])
    assert home["result"] == -away["result"] and home["result"] != 0
    # With luck taken out, a side keeps its result less its own luck plus the opponent's.
    assert home["luck_adjusted"] == pytest.approx(home["result"] - home["luck"] + away["luck"])
    assert away["luck_adjusted"] == pytest.approx(-home["luck_adjusted"])
    assert all(m["kind"] == "move" for m in data["mistakes"])
    for row in data["totals"]:
        marked = row["rolls_marked"]
        assert set(marked) == {"very_lucky", "lucky", "unlucky", "very_unlucky"}
        games = [g["rolls_marked"] for g in data["per_game"] if g["side"] == row["side"]]
        assert marked == {mark: sum(g[mark] for g in games) for mark in marked}
    assert 'data-role="summary-rolls"' in page
    assert sorted(row["side"] for row in data["totals"]) == [1, 2]
    assert all(row["pr"] == pytest.approx(row["error_rate"] / 2) for row in data["totals"])
    blunders = sum(row["blunders"] for row in data["totals"])
    assert blunders == sum(1 for m in data["mistakes"] if m["mark"] == "blunder")
    table = client.get(f"/api/v1/tournaments/{site.tournament.slug}/pr-table/").json()
    assert {row["player"] for row in table} == {"Anna", "Boris"}
    pr_page = client.get(reverse("tournament-pr", args=[site.tournament.slug])).content.decode()
    assert 'data-role="pr-table"' in pr_page and "our Long Nardy engine" in pr_page
    player = client.get(reverse("player", args=[match.home.player.pk])).content.decode()
    assert 'id="pr-history-long-title"' in player and "pr-history-short" not in player


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_a_match_without_dave_says_it_has_no_doubling_decisions(
    client, analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    site = make_site(variant="long", rated=False, match_length=1, dave=False)
    with django_capture_on_commit_callbacks(execute=True):
        match = decided(site)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "No dave in this match: there are no doubling decisions to judge." in page
    assert 'data-role="no-cube-errors"' not in page and ">Cube error<" not in page
    assert 'data-role="summary-luck"' in page  # luck is measured all the same
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["cube_analysed"] is False and data["luck_measured"] is True
    assert data["cube_note"] == "No dave in this match: there are no doubling decisions to judge."
    pr_page = client.get(reverse("tournament-pr", args=[site.tournament.slug])).content.decode()
    assert "No dave in this tournament" in pr_page and ">Cube error<" not in pr_page


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_an_analysis_made_before_luck_was_measured_says_so(
    client, analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    site = make_site(variant="long", rated=False, match_length=1)
    with django_capture_on_commit_callbacks(execute=True):
        match = decided(site)
    PlayerFigures.objects.filter(analysis__match=match).update(
        luck=0.0, result=None, luck_adjusted=None, rolls_marked=None
    )
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Made before doubling (dave) decisions and luck were analysed" in page
    assert 'data-role="summary-luck"' not in page and ">Luck<" not in page
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["luck_measured"] is False and data["cube_analysed"] is False


@override_settings(LONG_ANALYSIS_PLIES=1)
def test_at_1_ply_a_correction_is_analysed_again(analysis_on, eager_tasks,
                                                django_capture_on_commit_callbacks):  # fmt: skip
    site = make_site(variant="long", rated=False, match_length=1)
    with django_capture_on_commit_callbacks(execute=True):
        match = decided(site, seed=7)
    first = MatchAnalysis.objects.get(match=match)
    assert first.status == "done" and first.plies == 1
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, by=site.organizer, games=site.recorded_games(seed=8))
    again = MatchAnalysis.objects.get(match=match)
    assert again.status == "done" and again.record != first.record


def test_with_analysis_off_nothing_is_queued_and_the_page_says_so(client):
    site = make_site(variant="long", rated=False, match_length=1)
    match = decided(site)  # the suite's default: ANALYSIS off
    assert not MatchAnalysis.objects.filter(match=match).exists()
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Analysis is not available on this server." in page
    assert client.get(f"/api/v1/matches/{match.pk}/analysis").json()["state"] == "unavailable"


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_a_dave_decision_that_lost_equity_is_shown_beside_the_plays_not_on_the_board(
    client, analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    site = make_site(variant="long", rated=False, match_length=1)
    with django_capture_on_commit_callbacks(execute=True):
        match = decided(site)
    analysis = MatchAnalysis.objects.get(match=match)
    # As the analysis stores one (``runner.Decision`` of kind "cube"): a take that should
    # have been a drop, after the second side's 12th move.
    Mistake.objects.create(analysis=analysis, game=1, ply=30, move=12, side=2, dice="00",
                           played="take", best="drop", loss=0.314, kind="cube")  # fmt: skip
    # A missed double that lost less than an error: left out of the page, as small plays are.
    Mistake.objects.create(analysis=analysis, game=1, ply=40, move=17, side=2, dice="00",
                           played="no double", best="double", loss=0.03, kind="cube")  # fmt: skip
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    cube = page.split('data-role="cube-decisions"', 1)[1].split("</ul>", 1)[0]
    assert "Game 1, after move 12: gave away 0.31" in cube and "move 17" not in cube
    assert "chose take; the engine’s best: drop" in cube and 'data-mark="blunder"' in cube
    assert 'data-board-step="30"' not in cube  # no board position of its own
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    taken, small = sorted((m for m in data["mistakes"] if m["kind"] == "cube"),
                          key=lambda m: -m["loss"])  # fmt: skip
    assert small["played"] == "no double" and small["mark"] == ""
    assert taken["played"] == "take" and taken["best"] == "drop" and taken["mark"] == "blunder"
    verdicts, _ = verdicts_of(match_analysis(match=match))
    moves = Mistake.objects.filter(analysis=analysis, kind="move")
    assert set(verdicts) == {(m.game, m.move) for m in moves}
    assert all(verdict.best != "drop" for verdict in verdicts.values())


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_the_same_games_in_another_match_are_copied_with_their_luck(
    analysis_on, eager_tasks, django_capture_on_commit_callbacks, monkeypatch
):
    runs = []
    real = services.engine_analyse
    monkeypatch.setattr(services, "engine_analyse", lambda *a, **k: runs.append(1) or real(*a, **k))
    site = make_site(variant="long", rated=False, match_length=1)
    with django_capture_on_commit_callbacks(execute=True):
        first = decided(site)
        second = match_result_record(
            match=site.match("Carl", "Dina"), by=site.organizer, games=site.recorded_games(7)
        )
    assert analysis_run(second.pk) == "already analysed"
    names = ("game", "side", "luck", "result", "luck_adjusted", "rolls_marked")

    def figures(match):
        rows = PlayerFigures.objects.filter(analysis__match=match).order_by("game", "side")
        return list(rows.values_list(*names))

    assert figures(second) == figures(first) and figures(first)[0][3] is not None
    assert len(runs) == 1  # the second was copied


@override_settings(LONG_ANALYSIS_PLIES=0)
def test_the_crawford_game_is_said_to_have_no_dave(
    client, analysis_on, eager_tasks, django_capture_on_commit_callbacks
):
    site = make_site(variant="long", rated=False, match_length=3)
    assert site.tournament.dave and site.tournament.crawford

    def crawford_of(games) -> int | None:
        score = MatchScore(3, crawford=True)
        for game in games:
            score.start_game()
            score.add(game.white, replay_game(LongNardy(), game.actions).outcome)
        return score.crawford_game

    seed = next(seed for seed in range(1, 50) if crawford_of(site.recorded_games(seed)))
    expected = crawford_of(site.recorded_games(seed))
    with django_capture_on_commit_callbacks(execute=True):
        match = decided(site, seed=seed)
    data = client.get(f"/api/v1/matches/{match.pk}/analysis").json()
    assert data["crawford_game"] == expected
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    rows = page.split('data-role="analysis-games"', 1)[1].split("</table>", 1)[0]
    marked = re.findall(r'<td class="num">(\d+) <span class="muted" data-role="crawford">', rows)
    assert marked == [str(expected)] * 2  # the game's row of each player
