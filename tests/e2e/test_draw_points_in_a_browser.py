"""The form offers "points for a draw" only where a match can be drawn (issue 46): not for a match
to points, nor for a match of one game, unless the Federation draw rule can draw that game; a
match of two games or more can end level in either game."""

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def shown(page, name: str) -> bool:
    return page.locator(f"[name={name}]").first.is_visible()


def size(page, value: int) -> None:
    page.fill("input[name=match_size]", str(value))
    page.press("input[name=match_size]", "Tab")  # the form follows a change


def test_the_points_for_a_draw_are_asked_only_where_a_match_can_be_drawn(new_page, log_in):
    User.objects.create_user("olga", password="pw-olga-123")
    page = new_page("en", width=390, height=844)
    log_in(page, "olga", "pw-olga-123")
    page.goto("/tournaments/new/")
    page.check("input[name=variant][value=short]")
    page.check("input[name=match_kind][value=points]")
    size(page, 5)
    assert shown(page, "points_win") and not shown(page, "points_draw")
    page.check("input[name=match_kind][value=games]")
    size(page, 1)
    assert not shown(page, "points_draw")  # one game of Short Nardy always has a winner
    size(page, 2)
    assert shown(page, "points_draw")  # 1-1
    page.check("input[name=variant][value=long]")
    size(page, 1)
    assert not shown(page, "points_draw")
    page.check("input[name=federation_draw]")
    assert shown(page, "points_draw")  # the one game can be drawn
    page.check("input[name=variant][value=short]")  # the Federation rule is Long Nardy's
    assert not shown(page, "points_draw")
