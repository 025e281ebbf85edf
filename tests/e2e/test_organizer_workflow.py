"""An organizer runs a 4-player Long Nardy round robin end to end in a real browser: signs up,
creates the tournament, enters players one by one and from a CSV file, opens registration, starts,
records every match (as a score, game by game and as a pasted .mat file), reads the standings,
downloads them and the games, prints, and finishes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.rules.matfile import match_record, write_match
from games.rules.selfplay import random_match
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def legal_mat(match: Match) -> str:
    """A match file of legal self-play Long Nardy games that finish ``match``."""
    tournament = match.tournament
    variant = tournament.game_variant()
    games = random_match(variant, tournament.match_length or 1, random.Random(11))
    record = match_record(
        variant,
        (match.home.player.display_name, match.away.player.display_name),
        games,
        length=tournament.match_length,
        crawford=tournament.crawford,
    )
    return write_match(record)


def test_an_organizer_runs_a_long_nardy_round_robin_end_to_end(new_page, screenshot, tmp_path):
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())

    # Sign up.
    page.goto("/accounts/signup/")
    page.fill("#id_username", "olga")
    page.fill("#id_password1", "a-long-club-password")
    page.fill("#id_password2", "a-long-club-password")
    screenshot(page, "signup")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)

    # Create the tournament.
    page.goto("/tournaments/new/")
    page.fill("#id_name", "Riga Long Nardy Cup")
    page.locator("input[name=variant][value=long]").check()
    page.select_option("#id_format", "round-robin")
    page.locator("input[name=match_kind][value=points]").check()
    page.fill("#id_match_size", "3")
    screenshot(page, "tournament-create")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/t/riga-long-nardy-cup/")
    tournament = Tournament.objects.get(slug="riga-long-nardy-cup")
    assert tournament.variant == "long" and tournament.match_length == 3

    # Players: two one by one, two from a CSV file.
    page.goto("/t/riga-long-nardy-cup/players/")
    for name in ("Anna Berzina", "Boris Petrov"):
        add = page.locator("form[data-role=add-player]")
        add.locator("input[name=display_name]").fill(name)
        add.locator("input[name=club]").fill("Riga")
        add.locator("button[type=submit]").click()
        page.wait_for_load_state()
    csv_file = tmp_path / "players.csv"
    csv_file.write_text("name,club,country\nCarl Ozols,Jurmala,LV\nDina Aliyeva,Baku,AZ\n")
    page.set_input_files("form[data-role=import-players] input[type=file]", str(csv_file))
    page.locator("form[data-role=import-players] button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("table[data-role=entries] tbody tr").count() == 4
    screenshot(page, "tournament-players")

    # Open registration, then start: all three rounds are made.
    page.goto("/t/riga-long-nardy-cup/")
    page.locator("[data-step=open]").click()
    page.wait_for_load_state()
    page.locator("[data-step=start]").click()
    page.wait_for_load_state()
    assert page.locator("[data-role=status]").inner_text().strip() == "Running"
    screenshot(page, "tournament-overview")

    # Record every match: scores, one game by game, one as a pasted .mat file.
    matches = list(Match.objects.filter(tournament=tournament).order_by("round__number", "pk"))
    assert len(matches) == 6
    for number, match in enumerate(matches):
        page.goto(f"/m/{match.pk}/")
        page.locator("[data-action=report]").click()
        if number == 0:
            page.locator("input[name=mode][value=mat]").check()
            page.fill("textarea[name=mat_text]", legal_mat(match))
        elif number == 1:
            page.locator("input[name=mode][value=games]").check()
            for game, (winner, value) in enumerate([("2", "1"), ("1", "2"), ("1", "1")], 1):
                page.select_option(f"select[name=game-{game}-winner]", winner)
                page.select_option(f"select[name=game-{game}-value]", value)
        else:
            page.locator("input[name=mode][value=score]").check()
            page.fill("input[name=score_home]", "3" if number % 2 else "1")
            page.fill("input[name=score_away]", "1" if number % 2 else "3")
        page.locator("[data-action=submit-result]").click()
        page.wait_for_url(f"**/m/{match.pk}/")
        assert page.locator("[data-role=match-status]").inner_text().strip() == "Final"
    assert not Match.objects.filter(tournament=tournament).exclude(status=Match.Status.FINAL)
    page.goto(f"/m/{matches[0].pk}/")
    assert page.locator("[data-role=board]").count() == 1  # the .mat's games can be replayed

    # Standings, downloads, print.
    page.goto("/t/riga-long-nardy-cup/standings/")
    rows = page.locator("table[data-role=standings] tbody tr")
    assert rows.count() == 4
    screenshot(page, "standings")
    with page.expect_download() as csv_download:
        page.locator("main a[download]", has_text="CSV").click()
    standings_csv = Path(csv_download.value.path()).read_text(encoding="utf-8")
    assert standings_csv.splitlines()[0].startswith("rank,player,match_points")
    assert len(standings_csv.splitlines()) == 5
    page.goto("/t/riga-long-nardy-cup/")
    with page.expect_download() as mat_download:
        page.locator("main a[download]", has_text=".mat").click()
    games_mat = Path(mat_download.value.path()).read_text(encoding="utf-8")
    assert "3 point match" in games_mat and "Long Nardy" in games_mat
    page.goto("/t/riga-long-nardy-cup/print/")
    assert page.locator("table[data-role=round]").count() == 3
    screenshot(page, "print")

    # Finish.
    page.goto("/t/riga-long-nardy-cup/")
    page.locator("[data-step=finish]").click()
    page.wait_for_load_state()
    assert page.locator("[data-role=status]").inner_text().strip() == "Finished"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
