"""A tournament exported as JSON and imported back is the same tournament: standings, bracket,
games and (after the rating replay the import enqueues) ratings. A tampered document is refused
with its reason, and then nothing is saved."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone, translation

from games.models import Game
from games.rules import action_from_json, replay_game
from games.rules.matfile import check_match, read_match, replay_record
from tests.support.demo import demo_seeded
from tests.support.shared_rows import rows_for_the_module
from tournaments.backup import FORMAT, VERSION, tournament_export, tournament_import
from tournaments.backup.document import SETTINGS
from tournaments.demo import DEMO_TOURNAMENT_SLUG
from tournaments.errors import Conflict, IllegalGameRecord, InvalidInput
from tournaments.models import Entry, Lots, Match, Player, Round, Tournament
from tournaments.ratings import tasks as rating_tasks
from tournaments.ratings.ledger import rating_list_of, ratings_replay
from tournaments.ratings.models import Rating, RatingChange
from tournaments.selectors import tournament_standings
from tournaments.services import tournament_delete
from tournaments.standings import lot_order

DEMO_SLUGS = [
    DEMO_TOURNAMENT_SLUG,  # a finished Long Nardy round robin, every game recorded
    "demo-short-nardy-swiss",
    "demo-double-elimination",
    "demo-consolation-cup",
]


@pytest.fixture(scope="module")
def demo_club(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The demo club with its ratings, made once for the module and rolled back after it (each
    test runs in a savepoint inside, as with ``TestCase.setUpTestData``)."""
    yield from rows_for_the_module(django_db_blocker, _demo_with_ratings)


def _demo_with_ratings() -> None:
    demo_seeded()
    ratings_replay(None)  # the seed's rating tasks wait for a commit that never comes


@pytest.fixture
def club(demo_club: None, db: None) -> None:
    """The demo club, for one test."""


def document_of(slug: str) -> dict[str, Any]:
    """The export, through JSON text as it travels."""
    return json.loads(json.dumps(tournament_export(Tournament.objects.get(slug=slug))))


def counts() -> dict[str, int]:
    models = (Tournament, Player, Entry, Round, Match, Game, User, RatingChange)
    return {model.__name__: model.objects.count() for model in models}


def snapshot(slug: str) -> dict[str, Any]:
    """Everything a tournament is, without its database ids."""
    tournament = Tournament.objects.get(slug=slug)

    def name(entry: Entry | None) -> str | None:
        return entry.player.display_name if entry else None

    matches = []
    for match in Match.objects.filter(tournament=tournament).select_related(
        "round", "home__player", "away__player", "winner__player", "reported_by", "confirmed_by"
    ):
        games = [
            (g.number, g.white, g.actions, g.winner, g.ending, g.value, g.stake, g.points)
            for g in match.games.order_by("number")
        ]
        matches.append(
            (
                match.round.number if match.round else 0, match.bracket, match.bracket_round or 0,
                match.slot, json.dumps(match.home_source, sort_keys=True),
                json.dumps(match.away_source, sort_keys=True), name(match.home) or "",
                name(match.away) or "", match.status, match.score_home, match.score_away,
                name(match.winner), match.reported_by, match.reported_at, match.confirmed_by,
                match.confirmed_at, match.dispute_note, match.decided_at, games,
            )
        )  # fmt: skip
    standings = sorted(
        (
            standing.row.rank, standing.entry.player.display_name, standing.row.match_points,
            standing.row.wins, standing.row.draws, standing.row.losses,
            standing.row.game_points_for, standing.row.game_points_against,
            tuple(standing.row.tiebreaks.items()),
        )
        for standing in tournament_standings(tournament=tournament)
    )  # fmt: skip
    return {
        "settings": {setting.name: setting.value_from_object(tournament) for setting in SETTINGS},
        "organizers": (
            tournament.organizer,
            sorted(tournament.co_organizers.values_list("username", flat=True)),
        ),
        "entries": sorted(
            (e.player.display_name, e.seed, e.withdrawn, e.late_entry, e.created_at)
            for e in tournament.entries.select_related("player")
        ),
        "rounds": list(tournament.rounds.values_list("number", "created_at")),
        "matches": sorted(matches, key=lambda match: match[:8]),
        "standings": standings,
    }


def ratings() -> dict[tuple[str, str, str], tuple[Any, ...]]:
    """Every current rating, and every player's ledger, by list and player name."""
    current = {
        (r.rating_list.system, r.rating_list.discipline, r.player.display_name): (
            r.rating, r.experience, r.matches, r.last_delta, r.last_match_at,
        )
        for r in Rating.objects.select_related("rating_list", "player")
    }  # fmt: skip
    ledger: dict[tuple[str, str, str], list[tuple[Any, ...]]] = {}
    for change in RatingChange.objects.select_related("rating_list", "player").order_by(
        "finished_at", "match_id"
    ):
        key = (change.rating_list.system, change.rating_list.discipline, change.player.display_name)
        ledger.setdefault(key, []).append(
            (change.finished_at, change.score, change.before, change.after, change.delta)
        )
    return {key: (value, ledger.get(key)) for key, value in current.items()}


def rename(document: dict[str, Any], old: str, new: str, **player: Any) -> None:
    """Make the document's player ``old`` a player ``new`` (with ``player``'s fields)."""
    for listed in document["players"]:
        if listed["name"] == old:
            listed.update(name=new, **player)
    for entry in document["entries"]:
        entry["player"] = new if entry["player"] == old else entry["player"]
    for match in document["matches"]:
        for side in ("home", "away", "winner"):
            match[side] = new if match[side] == old else match[side]


def first_recorded_match(document: dict[str, Any]) -> dict[str, Any]:
    return next(match for match in document["matches"] if match["games"] and match["mat"])


# --- Round trip ------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", DEMO_SLUGS)
def test_export_delete_import_gives_the_same_tournament_and_ratings(club, slug):
    before, ratings_before = snapshot(slug), ratings()
    document = document_of(slug)
    with mock.patch("tournaments.ratings.work.enqueue"):
        tournament_delete(Tournament.objects.get(slug=slug))
    assert not Match.objects.filter(tournament__slug=slug).exists()
    players = Player.objects.count()

    with mock.patch("tournaments.ratings.work.enqueue") as enqueue:
        result = tournament_import(document)

    assert result.tournament.slug == slug
    assert (result.players_created, result.players_differing, result.missing_users) == ([], [], [])
    assert Player.objects.count() == players
    assert snapshot(slug) == {**before, "standings": snapshot(slug)["standings"]}
    # The import asked for a replay of its rating list from its first decided match on.
    first = min(m["decided_at"] for m in document["matches"] if m["decided_at"])
    rating_list = rating_list_of(result.tournament)
    enqueue.assert_called_once_with(
        rating_tasks.ratings_replay, [result.ratings_replay_from.isoformat(), 0], rating_list.pk
    )
    assert result.ratings_replay_from.isoformat() == first
    task, *arguments = enqueue.call_args.args
    task(*arguments)  # the task, run here: no broker needed

    assert ratings() == ratings_before
    assert snapshot(slug) == before  # standings too, now that the ratings are back
    assert ratings_replay(None).drifted == {}  # a full replay finds nothing left to fix


def test_the_document_carries_every_setting_and_is_versioned(club):
    document = document_of(DEMO_TOURNAMENT_SLUG)

    assert (document["format"], document["version"]) == (FORMAT, VERSION)
    settings = document["tournament"]
    assert {setting.name for setting in SETTINGS} <= set(settings)
    assert settings["organizer"] == "demo-organizer" and settings["co_organizers"] == []
    assert settings["points_draw"] == "0.5" and settings["status"] == "finished"
    assert len(document["players"]) == len(document["entries"]) == 8
    assert {"name", "club", "country", "username"} == set(document["players"][0])
    match = first_recorded_match(document)
    assert match["round"] and match["status"] == "final" and match["reported_by"]
    assert match["games"][0]["actions"][0].keys() == {"dice", "play"}
    assert "Rating" not in json.dumps(document)


def test_the_mat_text_of_each_match_reads_back_to_its_games(club):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    recorded = [match for match in document["matches"] if match["games"]]
    assert len(recorded) == 28 and all(match["mat"] for match in recorded)

    variant = Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG).game_variant()
    for match in recorded:
        record = read_match(match["mat"])
        assert record.players == (match["home"], match["away"])
        assert record.length == document["tournament"]["match_length"]
        assert check_match(record).valid
        # The same games: every position on the way, and how each ended.
        assert [(game.first, replay.positions, replay.outcome) for game, replay in zip(
            record.games, replay_record(record), strict=True
        )] == [
            (game["white"], *_replayed(variant, game["actions"])) for game in match["games"]
        ]  # fmt: skip


def _replayed(variant: Any, actions: list[dict[str, Any]]) -> tuple[Any, Any]:
    replay = replay_game(variant, [action_from_json(action) for action in actions])
    return replay.positions, replay.outcome


def test_a_match_entered_without_moves_has_no_mat_and_round_trips(club):
    tournament = Tournament.objects.get(slug="demo-short-nardy-swiss")
    match = tournament.matches.filter(games__isnull=False).distinct().first()
    match.games.update(actions=[])
    document = document_of(tournament.slug)
    exported = next(m for m in document["matches"] if m["games"] and not m["games"][0]["actions"])
    assert exported["mat"] is None

    imported = tournament_import(document, as_slug="swiss-copy").tournament

    copy_match = imported.matches.get(round__number=1, home__player=match.home.player)
    assert list(copy_match.games.values_list("actions", "points")) == list(
        match.games.values_list("actions", "points")
    )


# --- Refusals ----------------------------------------------------------------------------------


def test_a_tampered_game_record_is_refused_with_its_reason_and_nothing_is_saved(club):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    document["players"].append({"name": "Nobody Yet", "club": "", "country": "", "username": None})
    match = first_recorded_match(document)
    match["games"][0]["actions"][0]["play"] = "13/7"  # at the start, nothing stands on 13
    before = counts()

    with pytest.raises(IllegalGameRecord) as refused:
        tournament_import(document, as_slug="tampered")

    error = refused.value
    assert error.details["game"] == 1 and error.details["move"] == 1
    assert error.details["reason"] and error.details["match"].startswith("Match round")
    assert match["home"] in error.message and "Game 1, move 1" in error.message
    assert counts() == before
    assert not Tournament.objects.filter(slug="tampered").exists()
    assert not Player.objects.filter(display_name="Nobody Yet").exists()


def test_a_game_record_that_is_not_an_action_is_refused(club):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    first_recorded_match(document)["games"][1]["actions"][2] = {"dice": "64", "play": "banana"}

    with pytest.raises(IllegalGameRecord) as refused:
        tournament_import(document, as_slug="tampered")

    assert refused.value.details["game"] == 2 and refused.value.details["move"] == 3
    assert refused.value.details["reason"] == "cannot read 'banana' in play 'banana'"
    with translation.override("ru"), pytest.raises(IllegalGameRecord) as in_russian:
        tournament_import(document, as_slug="tampered")
    reason = in_russian.value.details["reason"]
    assert "'banana'" in reason and "cannot" not in reason and reason in in_russian.value.message


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda match: match.update(score_home="9.0"), "the games give"),
        (lambda match: match["games"][0].update(points=7), "the replay gives"),
        (lambda match: match.update(winner=None), "the games give"),
        (lambda match: match.update(status="scheduled"), "a scheduled match has no result"),
        (lambda match: match.update(home="Someone Else"), "is not entered"),
        (lambda match: match.update(decided_at="yesterday"), "ISO 8601"),
    ],
)
def test_a_result_that_contradicts_its_games_is_refused(club, change, says):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    change(first_recorded_match(document))
    before = counts()

    with pytest.raises(InvalidInput) as refused:
        tournament_import(document, as_slug="tampered")

    assert says in refused.value.message
    assert counts() == before


def test_an_impossible_typed_score_is_refused(club):
    document = document_of("demo-double-elimination")
    match = first_recorded_match(document)
    match.update(games=[], mat=None, score_home="1.0", score_away="0.0")  # not a match to 3

    with pytest.raises(InvalidInput, match="This score cannot be"):
        tournament_import(document, as_slug="tampered")


def test_a_slug_in_use_is_refused_unless_another_is_given(club):
    document = document_of("demo-double-elimination")
    before = counts()

    with pytest.raises(Conflict, match="exists already"):
        tournament_import(document)
    assert counts() == before

    copy_ = tournament_import(document, as_slug="double-elimination-copy").tournament
    original = Tournament.objects.get(slug="demo-double-elimination")
    assert copy_.matches.count() == original.matches.count()
    assert snapshot(copy_.slug)["matches"] == snapshot(original.slug)["matches"]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(format="something-else"), "not a tournament export"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d["tournament"].update(colour="blue"), "Unknown tournament settings: colour"),
        (lambda d: d["tournament"].update(match_games=3), "points or as a number of games"),
        (lambda d: d["entries"].append(d["entries"][0]), "entered twice"),
        (lambda d: d["entries"][0].update(seed=2**40), "expected a whole number from 0 to"),
        (lambda d: d["rounds"][0].update(number=-1), "rounds[0].number: expected a whole"),
        # A new player is checked as a form checks it.
        (lambda d: rename(d, d["players"][0]["name"], "New", country="Latvia"), "two-letter"),
    ],
)
def test_a_malformed_document_is_refused(club, change, says):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    change(document)
    before = counts()

    with pytest.raises(InvalidInput) as refused:
        tournament_import(document, as_slug="malformed")

    assert says in refused.value.message
    assert counts() == before


# --- Users and players ---------------------------------------------------------------------------


def test_missing_users_are_left_empty_and_reported(club):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    document["tournament"]["organizer"] = "gone-organizer"
    document["tournament"]["co_organizers"] = ["demo-organizer", "gone-helper"]
    match = first_recorded_match(document)
    match["reported_by"] = "gone-reporter"

    result = tournament_import(document, as_slug="copy")

    assert result.missing_users == ["gone-helper", "gone-organizer", "gone-reporter"]
    tournament = result.tournament
    assert tournament.organizer is None
    assert list(tournament.co_organizers.values_list("username", flat=True)) == ["demo-organizer"]
    assert tournament.matches.filter(reported_by__isnull=True, games__isnull=False).exists()


def test_the_organizer_can_be_given(club):
    olga = User.objects.create_user("olga")

    tournament = tournament_import(
        document_of(DEMO_TOURNAMENT_SLUG), as_slug="copy", organizer=olga
    )

    assert tournament.tournament.organizer == olga


def test_players_are_matched_by_name_and_kept_as_the_database_has_them(club):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    known = document["players"][0]
    known.update(club="Another Club", country="FI")
    rename(document, document["players"][1]["name"], "Fresh Player", country="EE")

    result = tournament_import(document, as_slug="copy")

    assert result.players_differing == [known["name"]]
    assert result.players_created == ["Fresh Player"]
    player = Player.objects.get(display_name=known["name"])
    assert (player.club, player.country) != ("Another Club", "FI")
    assert Player.objects.get(display_name="Fresh Player").country == "EE"
    assert result.tournament.entries.filter(player__display_name="Fresh Player").exists()


# --- Commands ------------------------------------------------------------------------------------


def test_the_commands_export_and_import_a_tournament(club, tmp_path: Path):
    slug = "demo-short-nardy-swiss"
    before = snapshot(slug)
    out, mat = tmp_path / "swiss.json", tmp_path / "swiss.mat"

    call_command("tournament_export", slug, "-o", str(out), "--mat", str(mat), stderr=StringIO())
    tournament_delete(Tournament.objects.get(slug=slug))
    stdout = StringIO()
    call_command("tournament_import", str(out), stdout=stdout)

    assert f"Imported {slug}: 12 entries" in stdout.getvalue()
    assert "Ratings are replayed from" in stdout.getvalue()
    after = snapshot(slug)
    assert after["matches"] == before["matches"] and after["entries"] == before["entries"]
    document = json.loads(out.read_text())
    recorded = [match for match in document["matches"] if match["mat"]]
    # One match after another, each with its header lines, as the API's games.mat.
    matches = re.split(r"\n(?=; \[Player 1 )", mat.read_text())
    assert len(matches) == len(recorded) > 0
    assert [read_match(text).players for text in matches] == [
        (match["home"], match["away"]) for match in recorded
    ]


def test_replace_deletes_the_old_tournament_only_when_the_new_one_is_taken(club, tmp_path: Path):
    slug = "demo-double-elimination"
    out = tmp_path / "double.json"
    call_command("tournament_export", slug, "-o", str(out), stderr=StringIO())
    before, old = snapshot(slug), Tournament.objects.get(slug=slug)
    tampered = json.loads(out.read_text())
    first_recorded_match(tampered)["games"][0]["actions"][0]["play"] = "1/off"
    (tmp_path / "tampered.json").write_text(json.dumps(tampered))

    with pytest.raises(CommandError, match="Nothing was imported: Match W1-1"):
        call_command("tournament_import", str(tmp_path / "tampered.json"), "--replace")
    assert Tournament.objects.get(slug=slug) == old  # still the old one

    call_command("tournament_import", str(out), "--replace", stdout=StringIO())

    assert Tournament.objects.get(slug=slug) != old
    assert snapshot(slug) == before


def test_deleting_a_tournament_replays_the_ratings_from_its_first_decided_match(club):
    tournament = Tournament.objects.get(slug="demo-short-nardy-swiss")
    first = tournament.matches.exclude(decided_at=None).order_by("decided_at", "pk").first()
    rating_list = rating_list_of(tournament)
    others, pk = Match.objects.exclude(tournament=tournament).count(), tournament.pk

    with mock.patch("tournaments.ratings.work.enqueue") as enqueue:
        tournament_delete(tournament)

    enqueue.assert_called_once_with(
        rating_tasks.ratings_replay, [first.decided_at.isoformat(), first.pk], rating_list.pk
    )
    assert not Tournament.objects.filter(slug="demo-short-nardy-swiss").exists()
    assert Match.objects.count() == others and not Round.objects.filter(tournament_id=pk)


def test_the_export_command_writes_json_to_standard_output(club):
    stdout = StringIO()

    call_command("tournament_export", DEMO_TOURNAMENT_SLUG, stdout=stdout)

    assert json.loads(stdout.getvalue())["tournament"]["slug"] == DEMO_TOURNAMENT_SLUG


def test_the_import_command_takes_another_slug_and_explains_refusals(club, tmp_path: Path):
    out = tmp_path / "robin.json"
    call_command("tournament_export", DEMO_TOURNAMENT_SLUG, "-o", str(out), stderr=StringIO())

    with pytest.raises(CommandError, match="Nothing was imported: .* exists already"):
        call_command("tournament_import", str(out), stdout=StringIO())
    call_command("tournament_import", str(out), "--slug", "robin-copy", stdout=StringIO())
    assert Tournament.objects.filter(slug="robin-copy").exists()

    with pytest.raises(CommandError, match="No tournament has the slug"):
        call_command("tournament_export", "no-such-thing", stdout=StringIO())
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("tournament_import", str(tmp_path / "bad.json"), stdout=StringIO())


def test_the_lots_drawn_travel_with_the_tournament_and_keep_its_places(club):
    """The lots' order travels by player name: the imported entries have new ids, and their
    places are still the ones the lots decided."""
    Tournament.objects.filter(slug=DEMO_TOURNAMENT_SLUG).update(tiebreaks=[])  # points alone
    tournament = Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG)
    entries = list(tournament.entries.order_by("pk").values_list("pk", flat=True))
    Lots.objects.update_or_create(
        tournament=tournament,
        defaults={"seed": 7, "order": lot_order(7, entries), "drawn_by": tournament.organizer,
                  "drawn_at": timezone.now()},
    )  # fmt: skip
    places = [(s.entry.player.display_name, s.row.rank, s.row.lot)
              for s in tournament_standings(tournament=tournament)]  # fmt: skip
    assert any(lot is not None for _name, _rank, lot in places)  # the lots decide some places
    document = document_of(DEMO_TOURNAMENT_SLUG)
    assert document["lots"]["seed"] == 7 and len(document["lots"]["order"]) == len(entries)
    with mock.patch("tournaments.ratings.work.enqueue"):
        tournament_delete(tournament)
        imported = tournament_import(document).tournament

    lots = Lots.objects.get(tournament=imported)
    assert (lots.seed, lots.drawn_by.get_username()) == (7, "demo-organizer")
    again = [(s.entry.player.display_name, s.row.rank, s.row.lot)
             for s in tournament_standings(tournament=imported)]  # fmt: skip
    assert again == places


def test_a_document_without_lots_imports_without_them(club):
    document = document_of(DEMO_TOURNAMENT_SLUG)
    document.pop("lots")
    with mock.patch("tournaments.ratings.work.enqueue"):
        imported = tournament_import(document, as_slug="older").tournament
    assert not Lots.objects.filter(tournament=imported).exists()
