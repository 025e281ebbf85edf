"""The services behind the organizer's pages: editing the rules until the start, and entering
players by name, one or a whole CSV file, all or none."""

import pytest
from django.contrib.auth.models import User

from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.models import Entry, Player, Tournament
from tournaments.services import (
    NewEntry,
    entries_from_csv,
    entries_import_csv,
    entries_register,
    entry_register,
    tournament_create,
    tournament_start,
    tournament_update,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


@pytest.fixture
def outsider():
    return User.objects.create_user("oscar", password="x")


@pytest.fixture
def draft(olga):
    return tournament_create(organizer=olga, name="Spring Open", variant="short", match_length=5)


def snapshot() -> tuple:
    return (
        list(Player.objects.values_list("display_name", "club", "country", "user_id")),
        list(Entry.objects.values_list("player__display_name", "seed")),
    )


# --- tournament_update -------------------------------------------------------------------------


def test_an_organizer_changes_the_rules_of_a_draft(draft, olga):
    tournament_update(
        tournament=draft, by=olga, name=" Spring Cup ", match_length=None, match_games=4, koks=True
    )

    draft.refresh_from_db()
    assert (draft.name, draft.match_length, draft.match_games, draft.koks) == (
        "Spring Cup", None, 4, True,
    )  # fmt: skip
    assert draft.slug == "spring-open"  # links stay valid


def test_a_name_in_cyrillic_gives_a_transliterated_slug_kept_unique(olga):
    made = [tournament_create(organizer=olga, name="Кубок ФНР", variant="long") for _n in (1, 2)]
    assert [tournament.slug for tournament in made] == ["kubok-fnr", "kubok-fnr-2"]
    dashed = tournament_create(
        organizer=olga, name="Кубок ФНР, длинные нарды — блиц", variant="long"
    )
    assert dashed.slug == "kubok-fnr-dlinnye-nardy-blits"
    assert tournament_create(organizer=olga, name="★", variant="long").slug == "tournament"


def test_an_outsider_cannot_change_the_rules(draft, outsider):
    with pytest.raises(NotAllowed):
        tournament_update(tournament=draft, by=outsider, name="Mine")

    draft.refresh_from_db()
    assert draft.name == "Spring Open"


def test_the_rules_are_locked_once_the_tournament_starts(draft, olga):
    for name in ("Anna", "Boris"):
        entry_register(tournament=draft, player=Player.objects.create(display_name=name), by=olga)
    tournament_start(tournament=draft, by=olga)

    with pytest.raises(Conflict, match="locked"):
        tournament_update(tournament=draft, by=olga, match_length=7)

    draft.refresh_from_db()
    assert draft.match_length == 5


def test_an_update_is_checked_like_a_creation_and_changes_nothing_when_refused(draft, olga):
    with pytest.raises(InvalidInput, match="Short Nardy"):
        tournament_update(tournament=draft, by=olga, variant="long", koks=True)

    draft.refresh_from_db()
    assert (draft.variant, draft.koks) == ("short", False)


def test_only_the_rules_can_be_updated(draft, olga):
    with pytest.raises(TypeError, match="status"):
        tournament_update(tournament=draft, by=olga, status=Tournament.Status.FINISHED)


# --- entries_register --------------------------------------------------------------------------


def test_a_new_name_makes_a_player_linked_to_the_named_account(draft, olga):
    anna = User.objects.create_user("anna", password="x")

    (entry,) = entries_register(
        tournament=draft,
        by=olga,
        entries=[
            NewEntry(name="Anna  Petrova", club="Riga", country="lv", seed=2, username="anna")
        ],
    )

    player = entry.player
    assert (player.display_name, player.club, player.country, player.user) == (
        "Anna Petrova", "Riga", "LV", anna,
    )  # fmt: skip
    assert entry.seed == 2


def test_a_known_name_enters_that_player_unchanged(draft, olga):
    boris = Player.objects.create(display_name="Boris", club="Baku", country="AZ")

    (entry,) = entries_register(
        tournament=draft, by=olga, entries=[NewEntry(name="Boris", club="Baku")]
    )

    assert entry.player == boris


def test_a_known_name_with_other_details_is_refused(draft, olga):
    Player.objects.create(display_name="Boris", club="Baku", country="AZ")
    before = snapshot()

    with pytest.raises(InvalidInput, match="Boris is already a player"):
        entries_register(tournament=draft, by=olga, entries=[NewEntry(name="Boris", club="Riga")])

    assert snapshot() == before


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([NewEntry(name="")], "The name is empty"),
        ([NewEntry(name="Anna"), NewEntry(name="Anna")], "listed twice"),
        ([NewEntry(name="Anna", username="nobody")], "No site account"),
        ([NewEntry(name="Anna", country="Latvia")], "country"),
        ([NewEntry(name="Anna", seed=1), NewEntry(name="Boris", seed=1)], "Seed 1 is given twice"),
    ],
)
def test_one_bad_entry_refuses_them_all(draft, olga, entries, message):
    before = snapshot()

    with pytest.raises(InvalidInput, match=message):
        entries_register(tournament=draft, by=olga, entries=[NewEntry(name="Carl"), *entries])

    assert snapshot() == before


def test_a_player_already_entered_is_refused(draft, olga):
    entries_register(tournament=draft, by=olga, entries=[NewEntry(name="Anna", seed=1)])

    with pytest.raises(InvalidInput, match="Anna is already entered"):
        entries_register(tournament=draft, by=olga, entries=[NewEntry(name="Anna")])
    with pytest.raises(InvalidInput, match="Seed 1 is already Anna's"):
        entries_register(tournament=draft, by=olga, entries=[NewEntry(name="Boris", seed=1)])


def test_an_outsider_cannot_enter_players(draft, outsider):
    with pytest.raises(NotAllowed):
        entries_register(tournament=draft, by=outsider, entries=[NewEntry(name="Anna")])

    assert not Player.objects.exists()


# --- CSV ---------------------------------------------------------------------------------------


def test_a_csv_file_with_a_bom_semicolons_and_any_column_order_is_read():
    data = "\ufeffClub;name;seed;country\r\nRiga;Anna;1;lv\r\n\r\n;Boris;;\r\n".encode()

    entries = entries_from_csv(data)

    assert entries == [
        NewEntry(name="Anna", club="Riga", country="lv", seed=1, line=2),
        NewEntry(name="Boris", line=4),
    ]


def test_commas_work_too_and_quoted_cells_may_hold_the_other_delimiter():
    entries = entries_from_csv(b'name,club\n"Petrova; Anna",Riga\n')

    assert entries == [NewEntry(name="Petrova; Anna", club="Riga", line=2)]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"name,rating\nAnna,1500\n", "Line 1: unknown column “rating”"),
        (b"club\nRiga\n", "Line 1: the file needs a “name” column"),
        (b"name,name\nAnna,Anna\n", "Line 1: the column “name” is named twice"),
        (b"Anna,Riga\n", "Line 1: unknown column “anna”"),
        (b"name,seed\nAnna,1\nBoris,first\n", "Line 3: the seed “first”"),
        (b"name\nAnna,Riga\n", "Line 2: there are more cells than columns"),
        (b"name,club\n", "no players"),
        (b"", "Line 1: the first row names the columns"),
        ("name\nÅsa\n".encode("latin-1"), "not UTF-8"),
    ],
)
def test_a_csv_file_that_cannot_be_read_names_the_line(data, message):
    with pytest.raises(InvalidInput, match=message):
        entries_from_csv(data)


def test_a_csv_import_enters_everyone_or_nobody_naming_the_bad_line(draft, olga):
    User.objects.create_user("anna", password="x")
    good = b"name;club;country;seed;username\nAnna;Riga;LV;1;anna\nBoris;Baku;AZ;2;\n"

    entries = entries_import_csv(tournament=draft, by=olga, data=good)

    assert [entry.player.display_name for entry in entries] == ["Anna", "Boris"]
    before = snapshot()
    bad = b"name,country\nCarl,EE\nDina,EE\nAnna,LV\n"
    with pytest.raises(InvalidInput, match="Line 4: Anna is already entered"):
        entries_import_csv(tournament=draft, by=olga, data=bad)
    assert snapshot() == before


def test_a_duplicate_name_in_the_file_names_both_lines(draft, olga):
    with pytest.raises(
        InvalidInput, match="Line 3: Anna is listed twice. It was first given on line 2."
    ):
        entries_import_csv(tournament=draft, by=olga, data=b"name\nAnna\nAnna\n")


def test_an_outsider_is_refused_before_the_file_is_read(draft, outsider):
    with pytest.raises(NotAllowed):
        entries_import_csv(tournament=draft, by=outsider, data=b"nonsense")
