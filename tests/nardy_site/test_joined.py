"""A join compiled once (``nardy_site.joined``) gives what ``select_related`` gives: the same
instances with the same values (JSON, booleans and datetimes through the fields' converters, on
SQLite as on PostgreSQL), joined to each other so that reading along costs no query, and None
where an outer join finds no row. Its users: an entry at the table (the draft with its match)
and the API's token check."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Model, Q
from django.http import Http404

from nardy_site.accounts.authentication import _TOKEN_WITH_USER
from nardy_site.accounts.models import ApiToken, digest
from nardy_site.joined import Compiled
from tournaments.matches import results
from tournaments.matches.live.drafts import locked_draft
from tournaments.matches.live.models import Draft
from tournaments.models import Match
from tournaments.web.common import match_of

pytestmark = pytest.mark.django_db


def values(instance: Model) -> dict[str, Any]:
    return {
        field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields
    }


def test_the_draft_comes_with_its_match_tournament_and_players_in_one_query(
    world, django_assert_num_queries
):
    draft = Draft.objects.create(
        match=world.match,
        done=[{"number": 1, "white": 2, "points": [0, 2]}],
        current={"number": 2, "entries": 3, "dice": "64"},
        ply=7,
        revision=9,
        started_by=world.users["player"],
    )
    expected = Draft.objects.select_related(
        "match__tournament", "match__home__player", "match__away__player"
    ).get(pk=draft.pk)

    with transaction.atomic(), django_assert_num_queries(1):
        found = locked_draft(world.match.pk)
        assert found is not None
        read_along = [
            found.match,
            found.match.tournament,
            found.match.home,
            found.match.home.player,
            found.match.away,
            found.match.away.player,
        ]

    assert values(found) == values(expected)
    assert isinstance(found.done, list) and found.current["dice"] == "64"
    assert found.updated_at.tzinfo is not None  # a datetime, also from SQLite's text
    assert [values(instance) for instance in read_along] == [
        values(instance)
        for instance in (
            expected.match,
            expected.match.tournament,
            expected.match.home,
            expected.match.home.player,
            expected.match.away,
            expected.match.away.player,
        )
    ]
    assert found.match.tournament.match_rules() == expected.match.tournament.match_rules()
    assert found.match.tournament.dave is expected.match.tournament.dave  # a bool, not 0 or 1


def test_a_missing_side_is_none_as_select_related_has_it(world):
    match = Match.objects.create(
        tournament=world.tournament, round=world.match.round, home=world.entries["another_player"]
    )
    Draft.objects.create(match=match)
    with transaction.atomic():
        found = locked_draft(match.pk)
    assert found is not None
    assert found.match.away is None and found.match.away_id is None
    assert found.match.home.player.display_name == "carl"


def test_a_match_without_a_draft_gives_none(world):
    with transaction.atomic():
        assert locked_draft(world.match.pk) is None


def test_a_token_comes_with_its_user(world):
    token, key = ApiToken.issue(user=world.users["player"], name="phone")
    found = _TOKEN_WITH_USER.one([digest(key)])
    assert isinstance(found, ApiToken)
    expected = ApiToken.objects.select_related("user").get(pk=token.pk)
    assert values(found) == values(expected)
    assert values(found.user) == values(expected.user)
    assert found.user.is_active is True
    assert _TOKEN_WITH_USER.one([digest("not a key")]) is None


def test_a_compiled_query_gives_each_arguments_rows(world):
    """Compiled once, run for any argument, wherever it stands in the query (twice here)."""
    matches = Compiled(
        lambda user: (
            Match.objects.filter(Q(home__player__user=user) | Q(away__player__user=user))
            .order_by("pk")
            .values_list("pk", "home_id")
        ),
        placeholder=-424_242,
    )
    for persona in ("player", "opponent", "another_player", "organizer"):
        user = world.users[persona]
        expected = Match.objects.filter(
            Q(home__player__user=user) | Q(away__player__user=user)
        ).order_by("pk")
        assert matches.rows(user.pk) == list(expected.values_list("pk", "home_id")), persona
    assert matches.first(world.users["organizer"].pk) is None
    assert matches._compiled("default")[2] == (0, 1)  # compiled once, with both places


def test_converted_rows_are_the_querysets_own_values(world):
    """With ``converted``, the rows hold what ``values_list`` gives (datetimes and decimals, not
    SQLite's text); without, the database's own values."""
    results.match_result_record(match=world.match, by=world.users["organizer"], score=(3, 1))
    columns = ("pk", "decided_at", "score_home", "tournament__name", "home__player__display_name")
    shown = Compiled(
        lambda pk: Match.objects.filter(pk=pk).values_list(*columns), placeholder=-424_242,
        converted=True,
    )  # fmt: skip
    expected = Match.objects.filter(pk=world.match.pk).values_list(*columns).get()

    assert shown.rows(world.match.pk) == [expected]
    assert isinstance(shown.first(world.match.pk)[1], datetime)
    assert isinstance(shown.first(world.match.pk)[2], Decimal)


def test_a_placeholder_missing_from_the_query_is_refused_at_once(world):
    nowhere = Compiled(lambda pk: Match.objects.filter(pk=pk + 1).values_list("pk"), placeholder=-7)
    with pytest.raises(ValueError, match="no parameter"):
        nowhere.rows(world.match.pk)


def test_a_match_page_reads_its_match_as_select_related_does(world, rf):
    Match.objects.filter(pk=world.match.pk).update(winner=world.entries["player"])
    expected = Match.objects.select_related(
        "tournament", "round", "home__player", "away__player", "winner__player"
    ).get(pk=world.match.pk)
    found = match_of(rf.get("/"), world.match.pk)
    for path in ("", "tournament", "round", "home", "home.player", "away", "winner.player"):
        mine, theirs = found, expected
        for name in filter(None, path.split(".")):
            mine, theirs = getattr(mine, name), getattr(theirs, name)
        assert values(mine) == values(theirs), path
    with pytest.raises(Http404):
        match_of(rf.get("/"), world.match.pk + 1000)
