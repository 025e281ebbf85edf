"""Rank norms (issue 48): the pure matching, the example table shipped (marked as an example),
the table replaced from a CSV by `manage.py load_rank_norms`, and the pages of the norms met."""

import doctest
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from tournaments.declarations import summary_of
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.norms import matching
from tournaments.norms.matching import Norm, best_norm, norms_met
from tournaments.norms.models import EventStatus, RankNorm
from tournaments.norms.selectors import norms_met as tournament_norms_met
from tournaments.protocol.selectors import tournament_protocol
from tournaments.services import tournament_create
from tournaments.web.forms import TournamentForm

CHAMPIONSHIP = "championship-of-russia"


def test_the_docstring_examples_hold():
    assert doctest.testmod(matching).failed == 0


def test_the_highest_rank_met_counts():
    table = [
        Norm(CHAMPIONSHIP, "long-blitz", "male", "kms", 16, 1),
        Norm(CHAMPIONSHIP, "long-blitz", "male", "1", 40, 8),
        Norm(CHAMPIONSHIP, "long-blitz", "male", "2", 16, 10),
        Norm(CHAMPIONSHIP, "long", "female", "1", 40, 8),
    ]
    met = norms_met(
        table, status=CHAMPIONSHIP, discipline="long-blitz", category="men",
        participants=116, places={"first": 1, "eighth": 8, "tenth": 10, "eleventh": 11},
    )  # fmt: skip
    assert {key: norm.rank for key, norm in met.items()} == {
        "first": "kms", "eighth": "1", "tenth": "2",
    }  # fmt: skip


def test_the_two_observed_facts_meet_the_example_table(db):
    """SPORT-RULES.md: 1st of 116 at the Championship of Russia (long-blitz men) met the KMS;
    8th of 46 (long nardy women) met the 1st adult rank."""
    table = [
        Norm(row.status.code, row.discipline, row.gender, row.rank, row.participants_from,
             row.places_up_to, row.example)
        for row in RankNorm.objects.select_related("status")
    ]  # fmt: skip
    common = {"status": CHAMPIONSHIP}
    first = best_norm(table, discipline="long-blitz", gender="male", participants=116, place=1,
                      **common)  # fmt: skip
    eighth = best_norm(table, discipline="long", gender="female", participants=46, place=8,
                       **common)  # fmt: skip
    assert (first.rank, eighth.rank) == ("kms", "1")
    assert first.example and eighth.example


def test_a_norm_for_one_gender_is_not_met_at_an_open_event():
    table = [Norm("s", "short", "male", "3", 1, 3), Norm("s", "short", "", "3y", 1, 3)]
    assert best_norm(table, status="s", discipline="short", gender="", participants=5,
                     place=1).rank == "3y"  # fmt: skip


def test_the_example_table_is_shipped_and_marked(db):
    assert RankNorm.objects.exists()
    assert not RankNorm.objects.filter(example=False).exists()
    codes = set(EventStatus.objects.values_list("code", flat=True))
    assert {CHAMPIONSHIP, "all-russian", "regional-championship"} <= codes
    disciplines = set(RankNorm.objects.values_list("discipline", flat=True))
    assert disciplines == {"long", "long-blitz", "short", "short-blitz", "short-pairs"}
    page = Client().get("/norms/").content.decode()
    assert "example table: the official one could not be found" in page
    assert "Championship of Russia" in page and "Candidate Master of Sport (KMS)" in page


def test_the_example_statuses_speak_the_pages_language(db):
    page = Client().get("/norms/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Чемпионат России" in page and "Всероссийские соревнования" in page
    assert "Championship of Russia" not in page
    assert EventStatus.objects.get(code=CHAMPIONSHIP).name == "Championship of Russia"  # data
    organizer = User.objects.create_user("olga")
    event = tournament_create(
        organizer=organizer, name="Cup", variant="long", official=True,
        event_status=EventStatus.objects.get(code=CHAMPIONSHIP),
    )  # fmt: skip
    with translation.override("ru"):
        assert dict(summary_of(event))["Статус соревнования"] == "Чемпионат России"
        facts = {fact.label: fact.value for fact in tournament_protocol(tournament=event).facts}
        assert facts["Статус соревнования"] == "Чемпионат России"
        form = TournamentForm(instance=event)
        assert "Всероссийские соревнования" in [
            label for _value, label in form.fields["event_status"].choices
        ]
        # A table loaded later in Russian shows its names as given.
        given = EventStatus.objects.create(code="kubok", name="Кубок федерации", order=5)
        assert str(given) == "Кубок федерации"


def test_load_rank_norms_replaces_the_table(db, tmp_path: Path):
    path = tmp_path / "norms.csv"
    path.write_text(
        "status,status_name,discipline,gender,rank,participants_from,places_up_to,example\n"
        "cup-of-russia,Cup of Russia,long,male,ms,32,1,false\n"
        f"{CHAMPIONSHIP},,short,female,kms,16,2,no\n",
        encoding="utf-8",
    )
    call_command("load_rank_norms", str(path))
    rows = list(RankNorm.objects.values_list("status__code", "discipline", "rank", "example"))
    assert sorted(rows) == [
        (CHAMPIONSHIP, "short", "kms", False), ("cup-of-russia", "long", "ms", False),
    ]  # fmt: skip
    assert EventStatus.objects.get(code="cup-of-russia").name == "Cup of Russia"
    page = Client().get("/norms/").content.decode()
    assert "example table" not in page


def test_a_bad_row_changes_nothing(db, tmp_path: Path):
    before = RankNorm.objects.count()
    path = tmp_path / "norms.csv"
    path.write_text(
        "status,discipline,gender,rank,participants_from,places_up_to,example\n"
        f"{CHAMPIONSHIP},long,male,kms,16,1,true\n"
        f"{CHAMPIONSHIP},long,male,grandmaster,16,1,true\n",
        encoding="utf-8",
    )
    with pytest.raises(CommandError, match="Line 3: rank"):
        call_command("load_rank_norms", str(path))
    unknown = tmp_path / "unknown.csv"
    unknown.write_text(
        "status,discipline,gender,rank,participants_from,places_up_to,example\n"
        "nowhere,long,male,kms,16,1,true\n",
        encoding="utf-8",
    )
    with pytest.raises(CommandError, match="no event status has the code nowhere"):
        call_command("load_rank_norms", str(unknown))
    missing = tmp_path / "missing.csv"
    missing.write_text("status,discipline\n", encoding="utf-8")
    with pytest.raises(CommandError, match="no column gender"):
        call_command("load_rank_norms", str(missing))
    assert RankNorm.objects.count() == before


def finished_official(participants: int, *, status: str = CHAMPIONSHIP) -> Tournament:
    organizer = User.objects.create_user("olga", password="x")
    tournament = Tournament.objects.create(
        name="Championship", slug="champ", variant="long", match_length=3,
        format=Tournament.Format.ROUND_ROBIN, status=Tournament.Status.FINISHED,
        organizer=organizer, official=True, category="women",
        event_status=EventStatus.objects.get(code=status),
        tiebreaks=["wins"],
    )  # fmt: skip
    entries = [
        Entry.objects.create(
            tournament=tournament,
            player=Player.objects.create(display_name=f"W{n:03}", gender="female"),
            seed=n,
        )
        for n in range(1, participants + 1)
    ]
    # One round: each of the first half beats one of the second half; the first entrant also
    # beats the last, so her points are alone at the top.
    round_ = Round.objects.create(tournament=tournament, number=1)
    half = participants // 2
    for home, away in zip(entries[:half], entries[half:], strict=False):
        Match.objects.create(
            tournament=tournament, round=round_, home=home, away=away,
            status=Match.Status.FINAL, winner=home, score_home=Decimal(3), score_away=Decimal(0),
        )  # fmt: skip
    round_2 = Round.objects.create(tournament=tournament, number=2)
    Match.objects.create(
        tournament=tournament, round=round_2, home=entries[0], away=entries[-1],
        status=Match.Status.FINAL, winner=entries[0], score_home=Decimal(3), score_away=Decimal(0),
    )  # fmt: skip
    return tournament


def test_a_finished_official_events_norms_are_listed(db):
    tournament = finished_official(46)
    met = tournament_norms_met(tournament)
    # The example table at the Championship: first alone (KMS: 1st of 16+); the other 22
    # winners share the 2nd place (KMS: up to 3rd of 32+); the 23 losers, on no points, share the
    # 24th (3rd adult rank: up to 24th of 40+).
    by_place = {}
    for m in met:
        by_place.setdefault((m.place, m.norm.rank), []).append(m.entry.player.display_name)
    assert {key: len(names) for key, names in by_place.items()} == {
        (1, "kms"): 1, (2, "kms"): 22, (24, "3"): 23,
    }  # fmt: skip
    assert by_place[(1, "kms")] == ["W001"]
    page = Client().get(f"/t/{tournament.slug}/norms/").content.decode()
    assert "W001" in page and "Candidate Master of Sport (KMS)" in page
    assert "example table" in page
    overall = Client().get("/norms/").content.decode()
    assert "Championship" in overall and "W001" in overall


def test_no_norms_before_the_finish_or_off_the_calendar(db):
    tournament = finished_official(20)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    assert tournament_norms_met(tournament) == []
    tournament.status = Tournament.Status.FINISHED
    tournament.official = False
    tournament.save(update_fields=["status", "official"])
    assert tournament_norms_met(tournament) == []
