"""Results through the site: players report and answer, organizers record, resolve and correct.
Every refusal comes back as the page with its reason under a 4xx, and changes nothing."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.rules import MatchGame
from games.rules.matfile import match_record, write_match
from tournaments.matches import results
from tournaments.models import Match
from tournaments.ratings import ledger

pytestmark = pytest.mark.django_db


def mat_text(site, match, seed=7) -> str:
    """The match file of legal self-play games that finish ``match``."""
    record = match_record(
        site.tournament.game_variant(),
        (match.home.player.display_name, match.away.player.display_name),
        [MatchGame(game.white, game.actions) for game in site.recorded_games(seed)],
        length=site.tournament.match_length,
        crawford=site.tournament.crawford,
    )
    return write_match(record)


def snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    return (match.status, match.score_home, match.score_away, match.winner_id, match.games.count())


def test_a_player_reports_a_score_and_the_opponent_confirms_it(client, site):
    match = site.match("Anna", "Boris")
    client.force_login(site.players["Anna"])

    reported = client.post(
        reverse("match-report", args=[match.pk]),
        {"mode": "score", "score_home": "3", "score_away": "1"},
    )
    client.force_login(site.players["Boris"])
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    confirmed = client.post(reverse("match-answer", args=[match.pk]), {"answer": "confirm"})

    assert reported.status_code == 302 and confirmed.status_code == 302
    assert 'data-action="confirm"' in page
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert (match.score_home, match.score_away) == (3, 1)
    assert match.winner.player.display_name == "Anna"


def test_the_reporter_cannot_confirm_its_own_report(client, site):
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.players["Anna"], score=(3, 1))
    before = snapshot(match)
    client.force_login(site.players["Anna"])

    response = client.post(reverse("match-answer", args=[match.pk]), {"answer": "confirm"})

    assert response.status_code == 403
    assert "The opponent of the reporter answers the report" in response.content.decode()
    assert snapshot(match) == before


def test_an_outsider_cannot_report_and_a_visitor_must_log_in(client, site):
    match = site.match("Anna", "Boris")
    before = snapshot(match)
    anonymous = client.get(reverse("match-report", args=[match.pk]))
    client.force_login(site.outsider)

    refused = client.post(
        reverse("match-report", args=[match.pk]),
        {"mode": "score", "score_home": "3", "score_away": "0"},
    )

    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert refused.status_code == 403
    assert (
        "Only the players of this match, an organizer or a judge may report it."
        in refused.content.decode()
    )
    assert snapshot(match) == before


def test_an_impossible_score_is_refused_with_its_reason(client, site):
    match = site.match("Anna", "Boris")
    before = snapshot(match)
    client.force_login(site.organizer)

    response = client.post(
        reverse("match-report", args=[match.pk]),
        {"mode": "score", "score_home": "3", "score_away": "3"},
    )

    assert response.status_code == 400
    assert "This score cannot be" in response.content.decode()
    assert snapshot(match) == before


def test_a_legal_mat_upload_records_every_game(client, site):
    match = site.match("Anna", "Boris")
    client.force_login(site.organizer)
    upload = SimpleUploadedFile("match.mat", mat_text(site, match).encode(), "text/plain")

    response = client.post(
        reverse("match-report", args=[match.pk]), {"mode": "mat", "mat_file": upload}
    )

    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.games.count() == len(site.recorded_games())
    assert all(game.actions for game in match.games.all())


def test_an_illegal_mat_is_shown_back_with_game_move_and_reason_and_nothing_is_saved(client, site):
    match = site.match("Anna", "Boris")
    text = mat_text(site, match)
    # The first move of the first game: a checker from 24 to 1 with whatever dice were thrown.
    illegal = re.sub(r"(\n\s*1\) \d\d: )\S+( \S+)*?(?= {2,}|\n)", r"\g<1>24/1", text, count=1)
    assert illegal != text
    before = snapshot(match)
    client.force_login(site.organizer)

    response = client.post(
        reverse("match-report", args=[match.pk]), {"mode": "mat", "mat_text": illegal}
    )

    page = response.content.decode()
    assert response.status_code == 422
    assert 'data-role="error"' in page
    assert "<dt>Game</dt><dd>1</dd>" in page
    assert "<dt>Move</dt><dd>1</dd>" in page
    assert "24/1" in page
    assert snapshot(match) == before


def test_games_entered_one_by_one_give_the_score(client, site):
    match = site.match("Anna", "Boris")
    client.force_login(site.organizer)

    response = client.post(
        reverse("match-report", args=[match.pk]),
        {
            "mode": "games",
            "game-1-winner": "2", "game-1-value": "1", "game-1-stake": "1",
            "game-2-winner": "1", "game-2-value": "2", "game-2-stake": "1",
            "game-3-winner": "1", "game-3-value": "1", "game-3-stake": "1",
        },
    )  # fmt: skip

    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.score_home, match.score_away) == (3, 1)
    assert [(g.winner, g.points, g.actions) for g in match.games.all()] == [
        (2, 1, []), (1, 2, []), (1, 1, []),
    ]  # fmt: skip


def test_games_that_do_not_finish_the_match_are_refused(client, site):
    match = site.match("Anna", "Boris")
    before = snapshot(match)
    client.force_login(site.organizer)

    response = client.post(
        reverse("match-report", args=[match.pk]),
        {"mode": "games", "game-1-winner": "1", "game-1-value": "1", "game-1-stake": "1"},
    )

    assert response.status_code == 400
    assert "The games do not finish the match" in response.content.decode()
    assert snapshot(match) == before


def test_a_dispute_is_resolved_by_the_organizer_as_reported(client, site):
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.players["Anna"], score=(3, 2))
    client.force_login(site.players["Boris"])
    empty_note = client.post(
        reverse("match-answer", args=[match.pk]), {"answer": "dispute", "note": " "}
    )
    disputed = client.post(
        reverse("match-answer", args=[match.pk]), {"answer": "dispute", "note": "It was 2-3."}
    )
    client.force_login(site.organizer)
    page = client.get(reverse("match-resolve", args=[match.pk])).content.decode()
    resolved = client.post(reverse("match-resolve", args=[match.pk]), {"accept": "reported"})

    assert empty_note.status_code == 400 and disputed.status_code == 302
    assert "It was 2-3." in page
    assert resolved.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.score_home == 3


def test_a_correction_warns_of_the_bracket_matches_it_resets(client, new_site):
    site = new_site(format="single-elimination")
    first = site.tournament.matches.get(slot="M1-1")
    results.match_result_record(match=first, by=site.organizer, score=(3, 0))
    other = site.tournament.matches.filter(bracket_round=1).exclude(pk=first.pk).get()
    results.match_result_record(match=other, by=site.organizer, score=(3, 0))
    final = site.tournament.matches.get(bracket_round=2)
    results.match_result_record(match=final, by=site.organizer, score=(3, 1))
    client.force_login(site.organizer)

    warning = client.get(reverse("match-correct", args=[first.pk]))
    corrected = client.post(
        reverse("match-correct", args=[first.pk]),
        {"mode": "score", "score_home": "1", "score_away": "3"},
    )

    assert [m.pk for m in warning.context["resets"]] == [final.pk]
    assert 'data-role="correction-warning"' in warning.content.decode()
    assert corrected.status_code == 302
    final.refresh_from_db()
    assert final.status == Match.Status.SCHEDULED and final.score_home is None


def test_the_ratings_status_says_when_the_rating_work_is_done(
    client, site, django_capture_on_commit_callbacks
):
    url = reverse("tournament-ratings-status", args=[site.tournament.slug])
    match = site.match("Anna", "Boris")
    with django_capture_on_commit_callbacks(execute=False):  # nothing reaches a worker
        results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    waiting = client.get(url).json()
    ledger.ratings_apply(match.pk)  # the worker's turn
    done = client.get(url).json()

    assert waiting == {"pending": 1, "done": False}
    assert done == {"pending": 0, "done": True}


def test_a_file_over_the_upload_limit_is_refused(client, site, settings):
    settings.API_MAX_UPLOAD_BYTES = 100
    match = site.match("Anna", "Boris")
    client.force_login(site.organizer)
    upload = SimpleUploadedFile("match.mat", b"x" * 101, "text/plain")

    response = client.post(
        reverse("match-report", args=[match.pk]), {"mode": "mat", "mat_file": upload}
    )

    # The whole request is refused unread (nardy_site.body_limit), on a page of its own.
    assert response.status_code == 413
    assert "larger than 100 bytes" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_the_result_forms_are_shown_only_to_who_may_use_them_now(client, site):
    match = site.match("Anna", "Boris")
    report = reverse("match-report", args=[match.pk])
    client.force_login(site.players["Carl"])  # plays in the tournament, not in this match
    outsider = client.get(report)
    client.force_login(site.players["Anna"])
    player = client.get(report)
    resolve_by_player = client.get(reverse("match-resolve", args=[match.pk]))
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    again = client.get(report)
    client.force_login(site.organizer)
    correct = client.get(reverse("match-correct", args=[match.pk]))

    assert outsider.status_code == 403
    assert player.status_code == 200
    assert resolve_by_player.status_code == 403
    assert again.status_code == 403  # decided: nothing to report any more
    assert correct.status_code == 200


@pytest.mark.parametrize(("length", "said"), [(1, "match to 1 point"), (3, "match to 3 points")])
def test_the_match_and_its_report_say_the_length_with_its_plural(client, new_site, length, said):
    site = new_site(match_length=length)
    match = site.match("Anna", "Boris")
    client.force_login(site.players["Anna"])
    for page in (reverse("match", args=[match.pk]), reverse("match-report", args=[match.pk])):
        shown = client.get(page).content.decode()
        assert f"{said}<" in shown, page
