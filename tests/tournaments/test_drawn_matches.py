"""The points for a draw are said only where a match can be drawn (issue 46): a match to N points
never is, nor a match of one game unless that game can be drawn (Long Nardy's Federation rule);
a match of two games or more can end level in either game. The rule is
``MatchRules.match_can_be_drawn``; the form's condition, the rules summary, the standings'
header and the API's help say the same."""

import itertools

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.api.serializers import TournamentSerializer
from tournaments.declarations import settings_of
from tournaments.models import Tournament
from tournaments.scoring import MatchRules, PlayedGame, match_score
from tournaments.services import tournament_create
from tournaments.web.forms import TournamentForm
from tournaments.web.public import rules_summary

pytestmark = pytest.mark.django_db

POINTS_DRAW = next(item for item in settings_of(Tournament) if item.name == "points_draw")


@pytest.mark.parametrize(
    ("rules", "drawn"),
    [
        (MatchRules(variant="short", length=5), False),
        (MatchRules(variant="long", length=5, federation_draw=True), False),
        (MatchRules(variant="short", games=1), False),
        (MatchRules(variant="long", games=1), False),
        (MatchRules(variant="long", games=1, federation_draw=True), True),
        (MatchRules(variant="short", games=1, federation_draw=True), False),  # Long Nardy's rule
        (MatchRules(variant="short", games=2), True),
        (MatchRules(variant="short", games=3, dave=False), True),
    ],
)
def test_a_match_can_be_drawn_only_when_its_scores_can_end_level(rules, drawn):
    assert rules.match_can_be_drawn is drawn


def test_the_scores_of_two_games_or_more_can_end_level_without_a_drawn_game():
    won = PlayedGame.won
    two = match_score(MatchRules(variant="short", games=2), [won(1), won(2)])
    three = match_score(MatchRules(variant="short", games=3), [won(1), won(1), won(2, value=2)])
    assert two.drawn and three.drawn


@pytest.mark.parametrize(
    ("variant", "kind", "size", "federation_draw"),
    list(itertools.product(("long", "short"), ("points", "games"), (1, 2, 3, 64), (False, True))),
)
def test_the_form_offers_the_points_for_a_draw_exactly_where_a_match_can_be_drawn(
    variant, kind, size, federation_draw
):
    tournament = Tournament(
        variant=variant,
        format="round-robin",
        match_length=size if kind == "points" else None,
        match_games=size if kind == "games" else None,
        federation_draw=federation_draw and variant == "long",
    )
    assert POINTS_DRAW.applies_to(tournament) is tournament.match_can_be_drawn
    form_values = {  # as the page's script reads the form: an unticked box is empty
        "format": "round-robin",
        "match_kind": kind,
        "match_size": str(size),
        "federation_draw": "on" if federation_draw and variant == "long" else "",
    }
    assert TournamentForm().applies("points_draw", form_values) is tournament.match_can_be_drawn


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def match_points_line(tournament: Tournament, language: str = "en") -> str:
    with translation.override(language):
        return dict(rules_summary(tournament))[
            "Очки за матч" if language == "ru" else "Match points"
        ]


def test_the_summary_leaves_out_the_draw_where_no_match_can_be_drawn(olga):
    blitz = tournament_create(
        organizer=olga, name="Blitz", variant="short", format="round-robin", match_length=5
    )
    single = tournament_create(
        organizer=olga,
        name="Single",
        variant="short",
        format="round-robin",
        match_length=None,
        match_games=1,
    )
    pair = tournament_create(
        organizer=olga,
        name="Pair",
        variant="short",
        format="round-robin",
        match_length=None,
        match_games=2,
    )
    assert match_points_line(blitz) == "win 1, loss 0, bye 1"
    assert match_points_line(single) == "win 1, loss 0, bye 1"
    assert match_points_line(single, "ru") == "победа 1, поражение 0, пропуск тура 1"
    assert match_points_line(pair) == "win 1, draw 0.5, loss 0, bye 1"
    assert "ничья" in match_points_line(pair, "ru")


def test_the_standings_have_a_draws_column_only_where_a_match_can_be_drawn(olga):
    blitz = tournament_create(
        organizer=olga, name="Blitz", variant="short", format="round-robin", match_length=5
    )
    pair = tournament_create(
        organizer=olga, name="Pair", variant="short", format="round-robin", match_length=None,
        match_games=2,
    )  # fmt: skip

    def heading(tournament: Tournament) -> str:
        context = {"tournament": tournament, "standings": [], "tiebreaks": []}
        return render_to_string("tournaments/_standings_table.html", context)

    assert 'title="Draws"' not in heading(blitz) and 'title="Wins"' in heading(blitz)
    assert 'title="Draws"' in heading(pair)


def test_the_api_says_when_a_match_can_be_drawn():
    help_text = str(TournamentSerializer().fields["points_draw"].help_text)
    assert "of two games or more, or of one game under the Federation draw rule" in help_text
