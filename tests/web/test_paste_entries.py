"""Entry at the speed of a room (issue 46): a pasted list of names is matched to the site's
players in a preview that writes nothing, then entered on confirmation, all or none, through
the entry services. Only organizers; bad input is a 4xx with nothing written."""

import html
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.support.database import database_state
from tournaments import services
from tournaments.errors import InvalidInput, NotAllowed
from tournaments.models import Entry, Player
from tournaments.names import closeness, pasted_names, same_key

pytestmark = pytest.mark.django_db

SIX = "Anna Petrova\nRustam Guliev\n\nElena Kim\nBoris Aliyev\nDina Sarkisova\nOleg Ivanov\n"


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


@pytest.fixture
def draft(olga):
    return services.tournament_create(
        organizer=olga, name="Spring Open", variant="short", match_length=5
    )


@pytest.fixture
def known():
    """Players of the site already: one a pasted name is the same as, one it is near."""
    return {
        "anna": Player.objects.create(display_name="Anna Petrova"),
        "rustam": Player.objects.create(display_name="Rustam Guliyev"),
    }


def players_url(tournament) -> str:
    return reverse("tournament-players", args=[tournament.slug])


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def entry_names(tournament) -> list[str]:
    return sorted(tournament.entries.values_list("player__display_name", flat=True))


# --- The matching (pure) -----------------------------------------------------------------------


def test_a_name_is_the_same_whatever_its_case_and_spacing():
    lines = pasted_names("  anna   PETROVA ", [(7, "Anna Petrova")])

    assert [(line.line, line.name, line.same, line.near) for line in lines] == [
        (1, "anna PETROVA", 7, ())
    ]
    assert same_key("Anna  Petrova") == same_key(" anna petrova")


def test_a_near_name_and_a_transliterated_one_are_offered_not_taken():
    players = [(1, "Rustam Guliyev"), (2, "Viktor Petrov"), (3, "Rustam Aliyev")]

    guliev, viktor = pasted_names("Rustam Guliev\nВиктор Петров", players)

    assert (guliev.same, guliev.near) == (None, (1,))
    assert (viktor.same, viktor.near) == (None, (2,))
    assert closeness("Петров Виктор", "Viktor Petrov") == 1.0


def test_blank_lines_are_skipped_and_a_repeat_names_its_first_line():
    lines = pasted_names("Elena Kim\n\n   \nelena  kim\nBoris", [])

    assert [(line.line, line.name, line.repeats) for line in lines] == [
        (1, "Elena Kim", None),
        (4, "elena kim", 1),
        (5, "Boris", None),
    ]


def test_another_person_of_the_same_surname_is_not_near():
    (line,) = pasted_names("Anna Kim", [(1, "Elena Kim"), (2, "Anna Kimova")])

    assert 1 not in line.near


# --- The preview writes nothing --------------------------------------------------------------


def test_the_preview_matches_each_line_and_writes_nothing(client, olga, draft, known):
    services.entry_register(tournament=draft, player=Player.objects.create(
        display_name="Elena Kim"), by=olga)  # fmt: skip
    client.force_login(olga)
    before = database_state()

    response = client.post(players_url(draft), {"action": "paste-preview", "names": SIX})

    assert response.status_code == 200
    assert database_state() == before
    page = text_of(response)
    matched = re.search(r'<fieldset data-line="1".*?</fieldset>', page, re.S).group(0)
    assert "Anna Petrova</span>, a player of the site" in matched and "checked" in matched
    near = re.search(r'<fieldset data-line="2".*?</fieldset>', page, re.S).group(0)
    assert "Did you mean:" in near and "Rustam Guliyev" in near and "checked" not in near
    entered = re.search(r'<fieldset data-line="4".*?</fieldset>', page, re.S).group(0)
    assert "Elena Kim</span>: entered already, left out." in entered
    assert 'data-line="3"' not in page  # the blank line


def test_only_an_organizer_previews(client, draft, known):
    client.force_login(User.objects.create_user("oscar", password="x"))

    response = client.post(players_url(draft), {"action": "paste-preview", "names": SIX})

    assert response.status_code == 403
    with pytest.raises(NotAllowed):
        services.entries_paste_preview(
            tournament=draft, by=User.objects.get(username="oscar"), text=SIX
        )


@pytest.mark.parametrize("names", ["", "\n  \n", "x" * 20_001])
def test_a_list_without_names_or_too_long_is_refused(client, olga, draft, names):
    client.force_login(olga)
    before = database_state()

    response = client.post(players_url(draft), {"action": "paste-preview", "names": names})

    assert response.status_code == 400
    assert database_state() == before


# --- Confirming enters the list, all or none ----------------------------------------------------


def test_confirming_enters_six_players_one_of_them_existing(client, olga, draft, known):
    client.force_login(olga)
    rustam = known["rustam"]

    response = client.post(
        players_url(draft),
        {"action": "paste", "names": SIX, "answer-2": str(rustam.pk)},
        follow=True,
    )

    assert response.status_code == 200
    assert "6 players entered." in text_of(response)
    assert entry_names(draft) == [
        "Anna Petrova", "Boris Aliyev", "Dina Sarkisova", "Elena Kim", "Oleg Ivanov",
        "Rustam Guliyev",
    ]  # fmt: skip
    assert Player.objects.filter(display_name="Anna Petrova").count() == 1
    assert not Player.objects.filter(display_name="Rustam Guliev").exists()
    box = re.search(r'<textarea[^>]*name="names"[^>]*>(.*?)</textarea>', text_of(response), re.S)
    assert box.group(1).strip() == ""  # the box is empty again
    # Each entrant links to their page, where a slip is renamed or deleted.
    assert f'href="{reverse("player", args=[rustam.pk])}"' in text_of(response)


def test_a_near_name_may_be_a_new_player_or_left_out(olga, draft, known):
    entries, skipped = services.entries_paste(
        tournament=draft, by=olga, text="Rustam Guliev\nAnna Petrova", answers={1: "new", 2: "skip"}
    )

    assert [entry.player.display_name for entry in entries] == ["Rustam Guliev"]
    assert skipped == []
    assert entry_names(draft) == ["Rustam Guliev"]


def test_a_near_name_not_answered_is_refused_and_nothing_is_written(client, olga, draft, known):
    client.force_login(olga)
    before = database_state()

    response = client.post(players_url(draft), {"action": "paste", "names": SIX})

    assert response.status_code == 400
    assert "Line 2: did you mean a player of the site" in text_of(response)
    assert database_state() == before
    assert 'data-role="paste-preview"' in text_of(response)  # the preview, to answer


@pytest.mark.parametrize("answer", ["999999", "new", "nonsense"])
def test_an_answer_not_offered_is_refused(olga, draft, known, answer):
    """Line 1 is Anna Petrova, a player of the site: a new player of her name, or another
    player, is not one of its answers."""
    before = database_state()

    with pytest.raises(InvalidInput):
        services.entries_paste(tournament=draft, by=olga, text="Anna Petrova", answers={1: answer})

    assert database_state() == before


def test_repeats_and_entrants_are_left_out_and_said_so(client, olga, draft, known):
    services.entry_register(tournament=draft, player=known["anna"], by=olga)
    client.force_login(olga)

    response = client.post(
        players_url(draft),
        {"action": "paste", "names": "anna petrova\nElena Kim\nELENA KIM"},
        follow=True,
    )

    page = text_of(response)
    assert "1 player entered." in page
    assert "Line 1: anna petrova is entered already: left out." in page
    assert "Line 3: ELENA KIM is listed on line 2 already: left out." in page
    assert entry_names(draft) == ["Anna Petrova", "Elena Kim"]


def test_a_refusal_of_one_line_writes_none(olga, draft, known):
    """All or none: a name too long for a player is refused, and the lines before it are not
    entered."""
    before = database_state()

    with pytest.raises(InvalidInput, match="Line 2"):
        services.entries_paste(
            tournament=draft, by=olga, text="Elena Kim\n" + "x" * 101, answers={}
        )

    assert database_state() == before
    assert not Entry.objects.exists()


def test_only_an_organizer_confirms(client, draft, known):
    client.force_login(User.objects.create_user("oscar", password="x"))
    before = database_state()

    response = client.post(players_url(draft), {"action": "paste", "names": "Elena Kim"})

    assert response.status_code == 403
    assert database_state() == before


def test_a_name_in_the_other_alphabet_is_offered_and_entered_as_that_player(olga, draft):
    viktor = Player.objects.create(display_name="Viktor Petrov")

    (line,) = services.entries_paste_preview(tournament=draft, by=olga, text="Виктор Петров")
    assert line.player is None and [near.player for near in line.near] == [viktor]
    assert line.answer == ""  # the organizer chooses

    entries, _ = services.entries_paste(
        tournament=draft, by=olga, text="Виктор Петров", answers={1: str(viktor.pk)}
    )

    assert [entry.player for entry in entries] == [viktor]
    assert Player.objects.count() == 1
