"""Issue 43's first finding, tried as the review tried it, on a phone: the organizer of another
club enters Riga's pair in a pairs tournament of his own under a name of his, and is refused with
the reason; the pair's own page offers him no rename, and the rename page refuses him too. Riga's
organizer renames the pair on the same phone. Screenshots are saved."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments import services
from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.models import Pair, Player

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def pairs_cup(by: User, club, slug: str):
    cup = services.tournament_create(
        organizer=by, name=slug.replace("-", " ").title(), slug=slug, variant="short",
        pairs=True, club=club, match_length=3,
    )  # fmt: skip
    return services.tournament_open_registration(tournament=cup, by=by)


def test_another_clubs_organizer_is_refused_the_pair_rename_on_a_phone(
    new_page, log_in, screenshot
):
    rhea = User.objects.create_user("rhea", password="pw-rhea-123")
    olga = User.objects.create_user("olga", password="pw-olga-123")
    otto = User.objects.create_user("otto", password="pw-otto-123")
    riga = club_create(by=rhea, name="Riga")
    member_add(club=riga, by=rhea, username="olga", role=Membership.Role.ORGANIZER)
    tallinn = club_create(by=otto, name="Tallinn")
    anna = Player.objects.create(display_name="Anna", home_club=riga)
    boris = Player.objects.create(display_name="Boris", home_club=riga)
    services.pair_register(
        tournament=pairs_cup(olga, riga, "riga-pairs"), first=anna, second=boris, by=olga,
        name="Riga Duo",
    )  # fmt: skip
    pair = Pair.objects.get()
    pairs_cup(otto, tallinn, "tallinn-pairs")

    page = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(page, "otto", "pw-otto-123")
    page.goto("/t/tallinn-pairs/players/")
    form = page.locator('[data-role="add-pair"]')
    form.locator('input[name="first"]').fill("Anna")  # a name, typed: found among thousands
    form.locator('input[name="second"]').fill("Boris")
    form.locator('input[name="name"]').fill("Hacked")
    form.locator("button[type=submit]").click()
    alert = page.locator('[role="alert"]').first
    assert "are a pair already, called Riga Duo" in alert.text_content()
    assert "Only the pair's club or staff may rename a pair" in alert.text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "pair-rename-refused-phone")
    pair.player.refresh_from_db()
    assert pair.player.display_name == "Riga Duo"
    assert not Pair.objects.get().player.entries.filter(tournament__slug="tallinn-pairs").exists()

    page.goto(f"/p/{pair.player_id}/")
    assert page.locator('[data-action="rename"]').count() == 0
    refused = page.goto(f"/p/{pair.player_id}/rename/")
    assert refused.status == 403
    assert "home club may rename a pair, or a player who is in no match yet" in page.content()

    # Riga's organizer renames it, and Otto's event then takes it under that name.
    owner = new_page(width=PHONE["width"], height=PHONE["height"])
    log_in(owner, "olga", "pw-olga-123")
    owner.goto(f"/p/{pair.player_id}/")
    owner.locator('[data-action="rename"]').click()
    owner.locator('[data-role="rename-form"] input[name="name"]').fill("Baltic Duo")
    screenshot(owner, "pair-rename-by-its-club-phone")
    owner.locator('[data-role="rename-form"] button[type=submit]').click()
    owner.wait_for_url(f"**/p/{pair.player_id}/")
    assert owner.locator("h1").text_content().strip() == "Baltic Duo"
    pair.player.refresh_from_db()
    assert pair.player.display_name == "Baltic Duo"


def test_the_opponent_sees_the_accepted_play_before_confirming_and_the_officer_the_hints(
    new_page, log_in, screenshot
):
    """A play accepted as made that Anna entered herself waits for Boris, who reads it on the
    match page before confirming; the rating officer sees the matches that had practice hints
    (Match.hinted) before approving. On a phone and at 1920×1080."""
    from django.test import Client  # noqa: PLC0415

    from tests.web.conftest import make_site  # noqa: PLC0415
    from tournaments.models import Match  # noqa: PLC0415
    from tournaments.ratings.ledger import rating_list_of  # noqa: PLC0415

    site = make_site(variant="long", match_length=1, rated=False, casual=True)
    match = site.match("Anna", "Boris")
    home, away = match.home.player.user, match.away.player.user
    api = Client()
    api.force_login(home)
    for ply, action in enumerate(
        [{"first": 1}, {"dice": "61", "play": "24/18", "accepted": True},
         {"resign": "black", "value": 1}]
    ):  # fmt: skip
        answer = api.post(
            f"/api/v1/matches/{match.pk}/live", {"ply": ply, "action": action}, "application/json"
        )
        assert answer.status_code == 200, answer.content
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.confirm_side == 2
    other = site.match("Carl", "Dina")
    Match.objects.filter(pk=other.pk).update(hinted=True)  # as the recorder marks it
    officer = User.objects.create_user("rita", password="pw-rita-123")
    rating_list_of(site.tournament).officers.add(officer)
    for width, height, size in ((390, 844, "phone"), (1920, 1080, "1920")):
        page = new_page(width=width, height=height)
        log_in(page, away.username, f"pw-{away.username}-123")
        page.goto(f"/m/{match.pk}/")
        accepted = page.locator('[data-role="accepted-plays"]')
        assert "24/18" in accepted.text_content()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"accepted-play-to-confirm-{size}")
        officer_page = new_page(width=width, height=height)
        log_in(officer_page, "rita", "pw-rita-123")
        officer_page.goto(f"/t/{site.tournament.slug}/")
        panel = officer_page.locator('[data-role="hinted-matches"]')
        assert "Carl" in panel.text_content() and "Dina" in panel.text_content()
        panel.scroll_into_view_if_needed()
        screenshot(officer_page, f"hinted-matches-for-the-officer-{size}")
    page.locator('[data-action="confirm"]').click()
    page.wait_for_url(f"**/m/{match.pk}/")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
