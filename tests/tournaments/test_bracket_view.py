"""A real double-elimination tournament, started and partly played through the services, drawn
by ``bracket_drawings`` in one query and rendered by ``tournaments/_bracket.html``."""

import re

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.brackets.view import bracket_drawings
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)

pytestmark = pytest.mark.django_db

NAMES = ["Anna Berzina", "Arman Petrosyan", "Elvin Mammadov", "Giorgi Beridze", "Irina Sokolova",
         "Janis Ozols"]  # fmt: skip


def started(format: str, **settings) -> tuple[Tournament, User]:
    olga = User.objects.create_user("olga", password="x")
    tournament = tournament_create(
        organizer=olga, name="Bracket Cup", variant="short", format=format, **settings
    )
    tournament = tournament_open_registration(tournament=tournament, by=olga)
    for seed, name in enumerate(NAMES, start=1):
        player = Player.objects.create(display_name=name)
        entry_register(tournament=tournament, player=player, by=olga, seed=seed)
    return tournament_start(tournament=tournament, by=olga), olga


def play(tournament: Tournament, organizer: User, slot: str, score: tuple[int, int]) -> Match:
    match = tournament.matches.get(slot=slot)
    return match_result_record(match=match, by=organizer, score=score)


def match_url(match: Match) -> str:
    return f"/matches/{match.pk}/"


def render(tournament: Tournament) -> str:
    drawings = bracket_drawings(tournament=tournament, match_url=match_url)
    return render_to_string("tournaments/_bracket.html", {"drawings": drawings})


def test_every_match_is_drawn_once_with_its_players_and_link(django_assert_num_queries):
    tournament, olga = started("double-elimination", grand_final="reset", match_length=5)
    play(tournament, olga, "W1-1", (5, 2))  # seed 4 beats seed 5
    play(tournament, olga, "W1-2", (1, 5))  # seed 6 beats seed 3

    with django_assert_num_queries(1):
        drawings = bracket_drawings(tournament=tournament, match_url=match_url)
    html = render_to_string("tournaments/_bracket.html", {"drawings": drawings})

    assert [drawing.section for drawing in drawings] == ["winners", "losers", "final"]
    for match in tournament.matches.all():
        assert html.count(f'data-slot="{match.slot}"') == 1, match.slot
        assert html.count(f'href="/matches/{match.pk}/"') == 1
    for name in NAMES:
        assert f">{name}<" in html
    assert html.count("<svg") == 3 and html.count('role="group"') == 3
    for title in ("Winners bracket", "Losers bracket", "Grand final"):
        assert f"<h2>{title}</h2>" in html
    assert html.count('class="bracket-line"') == sum(len(d.connectors) for d in drawings)


def test_names_are_marked_not_to_translate_and_winners_are_bold():
    tournament, olga = started("double-elimination", grand_final="reset", match_length=5)
    play(tournament, olga, "W1-1", (5, 2))
    html = render(tournament)
    winner = tournament.matches.get(slot="W1-1").winner.player.display_name
    assert re.search(rf'class="bracket-name bracket-winner"[^>]*translate="no">{winner}<', html)
    for name in NAMES:
        assert re.search(rf'translate="no">{name}<', html), name
    # The scores are printed, and sides not known yet say where they come from.
    assert re.search(r'class="bracket-score bracket-winner"[^>]*>5<', html)
    assert "Loser of W1-2" in html and "Winner of W2-1" in html


def test_a_reset_not_needed_says_so():
    tournament, olga = started("double-elimination", grand_final="reset", match_length=5)
    while match := tournament.matches.filter(
        status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
    ).first():
        match_result_record(match=match, by=olga, score=(5, 1))  # home always wins
    reset = next(
        box
        for drawing in bracket_drawings(tournament=tournament, match_url=match_url)
        for box in drawing.boxes
        if box.slot.slot == "GF-reset"
    )
    assert reset.slot.home_label == "Not needed" and reset.slot.home_placeholder


def test_a_consolation_tournament_draws_its_brackets():
    tournament, _ = started(
        "consolation", consolation_kind="progressive", last_chance=True, match_length=3
    )
    html = render(tournament)
    assert "Main bracket" in html and "Consolation bracket" in html
    for match in tournament.matches.all():
        assert html.count(f'data-slot="{match.slot}"') == 1


def test_in_russian_the_geometry_keeps_its_dots_and_scores_get_commas():
    tournament, olga = started("single-elimination", match_length=5)
    match = tournament.matches.get(slot="M1-1")
    match_result_record(match=match, by=olga, score=(5, 2))
    Match.objects.filter(pk=match.pk).update(score_away="2.5")
    with translation.override("ru"):
        html = render(tournament)
    assert 'viewBox="0 0 ' in html and not re.search(r'viewBox="[^"]*\d,\d', html)
    assert not re.search(r'(?:x|y|width|height)="\d+,\d', html)
    assert not re.search(r'transform="translate\([^)]*\d,\d', html)
    assert ">2,5<" in html  # the score, localized


def test_round_robin_tournaments_have_no_bracket(club):
    assert bracket_drawings(tournament=club.tournament, match_url=match_url) == []


def test_the_fixed_slots_are_named_in_the_readers_language():
    tournament, _ = started("double-elimination", grand_final="reset")
    with translation.override("ru"):
        html = render(tournament)
        reset = tournament.matches.get(slot="GF-reset")
        assert reset.slot_name == "Суперфинал-2"
    captions = re.findall(r'<text class="bracket-caption"[^>]*>([^<]*)', html)
    captions = [caption.strip(" ·") for caption in captions]
    assert "Суперфинал" in captions and "Суперфинал-2" in captions, captions
    assert "GF" not in captions and "GF-reset" not in captions
    assert 'data-slot="GF-reset"' in html  # the code stays the address of the box
    assert tournament.matches.get(slot="W1-1").slot_name == "W1-1"  # a code is not a name
    with translation.override("en"):
        assert reset.slot_name == "GF-reset"
