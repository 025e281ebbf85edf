"""The findings of issue 43's review, each reproduced as the review tried it and each closed:

1. an organizer of another club renamed Riga's pair by entering it under a name of their own;
2. a category refusal told any organizer (or a player naming a partner) a player's age or gender;
3. the CSV import answered whether a guessed gender, birth year or account was the stored one;
4. a player marked their own illegal Long Nardy play "accepted" and it stood unconfirmed;
5. Long Nardy analyses were not counted, and a resign and undo loop queued one after another;
(6. the practice hint: tests/tournaments/matches/live/test_practice_hint.py.)
"""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from games.rules import action_from_json
from games.rules.game import MatchGame
from games.rules.matfile import match_record, write_match
from tests.support.database import database_state as snapshot
from tests.web.conftest import make_site
from tournaments import services
from tournaments.analysis import services as analysis_services
from tournaments.analysis.models import MatchAnalysis
from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.models import Entry, Match, Pair, Player, Tournament
from tournaments.players.models import IdentityAudit

pytestmark = pytest.mark.django_db


def client_of(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api(user: User | None, path: str, body: dict, method: str = "post"):
    return getattr(client_of(user), method)(f"/api/v1/{path}", body, "application/json")


def message(response) -> str:
    return response.json()["error"]["message"]


@pytest.fixture
def clubs():
    """Riga (owned by Rhea, organized by Olga) and Tallinn (owned by Otto): a role in one club is
    none in the other. Riga's players Anna, Boris and Viktor (a man born in 1971) are Riga's
    records; Otto has entered Anna and Boris in an event of his own, as the review did."""
    users = {name: User.objects.create_user(name) for name in ("rhea", "olga", "otto", "sam")}
    User.objects.filter(username="sam").update(is_staff=True)
    users["sam"].refresh_from_db()
    riga = club_create(by=users["rhea"], name="Riga")
    member_add(club=riga, by=users["rhea"], username="olga", role=Membership.Role.ORGANIZER)
    tallinn = club_create(by=users["otto"], name="Tallinn")
    players = {
        name: Player.objects.create(display_name=name, home_club=riga, **profile)
        for name, profile in {
            "Anna": {"gender": "female", "birth_year": 1990},
            "Boris": {"gender": "male", "birth_year": 1980},
            "Viktor": {"gender": "male", "birth_year": 1971},
        }.items()
    }
    evening = services.tournament_create(
        organizer=users["otto"], name="Tallinn evening", slug="tallinn-evening", variant="long",
        club=tallinn, match_length=1,
    )  # fmt: skip
    evening = services.tournament_open_registration(tournament=evening, by=users["otto"])
    for name in ("Anna", "Boris"):
        services.entry_register(tournament=evening, player=players[name], by=users["otto"])
    return users, riga, tallinn, players


def pairs_cup(by: User, club: Club, slug: str, **rules) -> Tournament:
    cup = services.tournament_create(
        organizer=by, name=slug.title(), slug=slug, variant="short", pairs=True, club=club,
        match_length=3, **rules,
    )  # fmt: skip
    return services.tournament_open_registration(tournament=cup, by=by)


# --- 1. A pair's name is its owner's -------------------------------------------------------------


@pytest.fixture
def riga_duo(clubs):
    """Riga's pair of Anna and Boris, "Riga Duo", made by Olga entering it in Riga's event."""
    users, riga, tallinn, players = clubs
    cup = pairs_cup(users["olga"], riga, "riga-pairs")
    answer = api(
        users["olga"],
        "tournaments/riga-pairs/entries/new",
        {"player_id": players["Anna"].pk, "partner_id": players["Boris"].pk, "name": "Riga Duo"},
    )
    assert answer.status_code == 201, answer.content
    pair = Pair.objects.get()
    assert pair.player.display_name == "Riga Duo" and pair.player.home_club == riga
    return pair, cup


def test_another_clubs_organizer_cannot_rename_a_pair_by_entering_it(clubs, riga_duo):
    users, _riga, tallinn, players = clubs
    pair, _cup = riga_duo
    pairs_cup(users["otto"], tallinn, "tallinn-pairs")
    before = snapshot()
    body = {"player_id": players["Anna"].pk, "partner_id": players["Boris"].pk, "name": "Hacked"}
    answer = api(users["otto"], "tournaments/tallinn-pairs/entries/new", body)
    assert answer.status_code == 409
    assert message(answer) == (
        "Anna and Boris are a pair already, called Riga Duo: enter them under that name. Only "
        "the pair's club or staff may rename a pair."
    )
    assert snapshot() == before
    pair.player.refresh_from_db()
    assert pair.player.display_name == "Riga Duo"
    # The players page's "Add a pair" says the same, and changes nothing either.
    page = client_of(users["otto"]).post(
        reverse("tournament-players", args=["tallinn-pairs"]),
        {
            "action": "add-pair",
            "first": players["Anna"].pk,
            "second": players["Boris"].pk,
            "name": "Hacked",
        },
    )
    assert page.status_code == 409 and "called Riga Duo" in page.content.decode()
    assert snapshot() == before
    # Entered under its own name (or none given), the pair plays in Otto's event as it is.
    del body["name"]
    answer = api(users["otto"], "tournaments/tallinn-pairs/entries/new", body)
    assert answer.status_code == 201 and answer.json()["player"]["display_name"] == "Riga Duo"
    assert Pair.objects.count() == 1


def test_the_owner_renames_a_pair_in_the_trail_and_can_undo_it(clubs, riga_duo):
    users, *_ = clubs
    pair, _cup = riga_duo
    path = f"players/{pair.player_id}/rename"
    for refused in (None, users["otto"]):
        before = snapshot()
        answer = api(refused, path, {"name": "Hacked"})
        assert answer.status_code in (401, 403)
        assert snapshot() == before
    assert message(api(users["otto"], path, {"name": "Hacked"})) == (
        "Only the owners and organizers of the player's home club may rename a pair, or a "
        "player who is in no match yet; a player who has a match, or of another club, is "
        "renamed by staff. An organizer enters a pair under its name."
    )
    answer = api(users["olga"], path, {"name": "Baltic Duo"})
    assert answer.status_code == 200 and answer.json()["display_name"] == "Baltic Duo"
    row = IdentityAudit.objects.get(action="renamed")
    assert row.actor == users["olga"] and row.note == "Riga Duo → Baltic Duo"
    assert row.before["player"]["display_name"] == "Riga Duo"
    # Otto may not undo it; Olga may, and the trail says so.
    assert api(users["otto"], f"identity/{row.pk}/undo", {}).status_code == 403
    undone = api(users["olga"], f"identity/{row.pk}/undo", {})
    assert undone.status_code == 200 and undone.json()["display_name"] == "Riga Duo"
    row.refresh_from_db()
    assert row.undone_by is not None and row.undone_by.action == "rename-undone"
    assert api(users["olga"], f"identity/{row.pk}/undo", {}).status_code == 409
    # Staff rename too; a name taken is refused with nothing changed.
    Player.objects.create(display_name="Taken")
    assert api(users["sam"], path, {"name": "Taken"}).status_code == 409
    assert api(users["sam"], path, {"name": "Sam's Duo"}).status_code == 200


def test_the_rename_page_is_the_owners(clubs, riga_duo):
    users, *_ = clubs
    pair, _cup = riga_duo
    url = reverse("player-rename", args=[pair.player_id])
    assert client_of(users["otto"]).get(url).status_code == 403
    assert client_of(users["otto"]).post(url, {"name": "Hacked"}).status_code == 403
    page = client_of(users["olga"]).get(reverse("player", args=[pair.player_id])).content.decode()
    assert f'href="{url}"' in page
    done = client_of(users["olga"]).post(url, {"name": "Baltic Duo"})
    assert done.status_code == 302
    pair.player.refresh_from_db()
    assert pair.player.display_name == "Baltic Duo"


def sign_up(user: User, slug: str, **fields: str):
    return client_of(user).post(
        reverse("tournament-signup", args=[slug]), {"action": "signup", **fields}
    )


def test_a_pairs_sign_up_takes_an_existing_pair_under_its_name(clubs, riga_duo):
    users, _riga, tallinn, players = clubs
    cup = pairs_cup(users["otto"], tallinn, "open-pairs", self_signup=True)
    anna = User.objects.create_user("anna")
    boris = User.objects.create_user("boris")
    Player.objects.filter(pk=players["Anna"].pk).update(user=anna)
    Player.objects.filter(pk=players["Boris"].pk).update(user=boris)
    before = snapshot()
    answer = sign_up(anna, cup.slug, partner="Boris", pair_name="X")
    assert answer.status_code == 409 and "called Riga Duo" in answer.content.decode()
    assert snapshot() == before


# --- 2. A refusal names no age, birth year or gender --------------------------------------------

UNIFORM = re.compile(
    r"^Viktor does not meet this tournament's category, or their profile does not say: the "
    r"player \(or their club\) can see why on their profile\.$"
)


def category_cup(by: User, club: Club | None, slug: str, **category) -> Tournament:
    cup = services.tournament_create(
        organizer=by, name=slug, slug=slug, variant="long", club=club, match_length=1,
        self_signup=True, **category,
    )  # fmt: skip
    return services.tournament_open_registration(tournament=cup, by=by)


@pytest.mark.parametrize(
    ("category", "profile"),
    [
        ({"min_age": 60}, {"birth_year": 1971}),  # 55 in 2026: too young
        ({"min_age": 60}, {"birth_year": None}),  # not given
        ({"category": "women"}, {"gender": "male"}),
        ({"category": "women"}, {"gender": ""}),
    ],
)
def test_another_clubs_organizer_learns_nothing_of_a_profile(clubs, category, profile):
    users, riga, tallinn, players = clubs
    Player.objects.filter(pk=players["Viktor"].pk).update(**profile)
    category_cup(users["otto"], tallinn, "seniors", **category)
    before = snapshot()
    viktor = {"player_id": players["Viktor"].pk}
    answer = api(users["otto"], "tournaments/seniors/entries/new", viktor)
    assert answer.status_code == 409  # one status too, whatever the profile holds
    assert UNIFORM.match(message(answer)), message(answer)
    assert "55" not in message(answer) and "1971" not in message(answer)
    assert snapshot() == before
    # Riga's organizer, who keeps Viktor's record, is told why.
    category_cup(users["olga"], riga, "riga-seniors", **category)
    precise = api(users["olga"], "tournaments/riga-seniors/entries/new", viktor)
    assert precise.status_code in (403, 409) and not UNIFORM.match(message(precise))


def test_the_refusal_to_enter_viktor_in_sixty_or_more_tells_his_club_his_age(clubs):
    users, riga, _tallinn, players = clubs
    category_cup(users["olga"], riga, "riga-seniors", min_age=60)
    viktor = {"player_id": players["Viktor"].pk}
    answer = api(users["olga"], "tournaments/riga-seniors/entries/new", viktor)
    assert answer.status_code == 403
    assert message(answer).endswith("Viktor is 55 in 2026.")


def test_a_pairs_sign_up_naming_a_partner_learns_nothing_of_the_partner(clubs):
    users, _riga, tallinn, players = clubs
    pairs_cup(users["otto"], tallinn, "women-pairs", category="women", self_signup=True)
    vera_account = User.objects.create_user("vera")
    Player.objects.create(display_name="Vera", user=vera_account, gender="female")
    Player.objects.filter(pk=players["Viktor"].pk).update(user=User.objects.create_user("viktor"))
    before = snapshot()
    answer = sign_up(vera_account, "women-pairs", partner="Viktor")
    assert answer.status_code == 409
    text = html.unescape(answer.content.decode())
    assert "Viktor does not meet this tournament's category, or their profile does not say" in text
    assert "for women only" not in text
    assert snapshot() == before


# --- 3. The CSV import is no oracle --------------------------------------------------------------


def upload(user: User, slug: str, text: str):
    file = SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
    return client_of(user).post(
        reverse("tournament-players", args=[slug]), {"action": "import", "file": file}
    )


def test_a_csv_import_answers_the_same_whatever_the_stored_profile(clubs):
    users, _riga, tallinn, players = clubs
    Player.objects.filter(pk=players["Viktor"].pk).update(user=User.objects.create_user("vik71"))
    category_cup(users["otto"], tallinn, "open-evening")
    answers = set()
    # The right and the wrong birth year, gender and account: one message, nothing stored.
    for guess in ("1971", "1972"):
        answers.add(upload(users["otto"], "open-evening", f"name;birth_year\nViktor;{guess}\nX;\n"))
    for guess in ("male", "female"):
        answers.add(upload(users["otto"], "open-evening", f"name;gender\nViktor;{guess}\n"))
    for guess in ("vik71", "someone"):
        answers.add(upload(users["otto"], "open-evening", f"name,username\nViktor,{guess}\n"))
    texts = set()
    for response in answers:
        assert response.status_code == 400
        text = response.content.decode()
        found = re.search(r"Line 2: ([^<]*)", text)
        assert found is not None, text
        texts.add(found.group(1))
        assert "vik71" not in text and "1971" not in text
    assert texts == {
        "Viktor is already a player on the site: leave the gender, the birth year and the "
        "username empty for them (their profile and account are theirs)."
    }
    assert not Tournament.objects.get(slug="open-evening").entries.exists()
    assert not Player.objects.filter(display_name="X").exists()


def test_the_players_club_still_gets_the_precise_csv_reason(clubs):
    users, riga, _tallinn, _players = clubs
    category_cup(users["olga"], riga, "riga-evening")
    wrong = upload(users["olga"], "riga-evening", "name;birth_year\nViktor;1972\n")
    assert wrong.status_code == 400
    assert "whose profile says otherwise" in wrong.content.decode()
    right = upload(users["olga"], "riga-evening", "name;birth_year\nViktor;1971\n")
    assert right.status_code == 302


# --- 4. A play accepted as made waits for the opponent -------------------------------------------

INCOMPLETE = {"dice": "61", "play": "24/18", "accepted": True}


def live(user: User, match: Match, ply: int, action: dict):
    return api(user, f"matches/{match.pk}/live", {"ply": ply, "action": action})


def long_match():
    site = make_site(variant="long", match_length=1, rated=False)
    return site, site.match("Anna", "Boris")


def test_a_players_own_accepted_play_waits_for_the_opponents_word():
    site, match = long_match()
    anna, boris = match.home.player.user, match.away.player.user
    assert live(anna, match, 0, {"first": 1}).status_code == 200  # Anna (home) plays White
    assert live(anna, match, 1, INCOMPLETE).status_code == 200  # her own play, "accepted"
    # Boris resigns, entered by Boris himself: the result still waits for his word on the play.
    assert live(boris, match, 2, {"resign": "black", "value": 1}).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.confirm_side == 2
    detail = client_of(None).get(f"/api/v1/matches/{match.pk}/").json()
    assert (detail["status"], detail["confirm_side"]) == ("reported", 2)
    # Anna may not confirm it, though Boris reported it; Boris sees the play and confirms.
    before = snapshot()
    assert api(anna, f"matches/{match.pk}/confirm", {}).status_code == 403
    assert snapshot() == before
    page = client_of(boris).get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-role="accepted-plays"' in page and "24/18" in page
    assert (
        'data-role="accepted-plays"'
        not in client_of(None).get(reverse("match", args=[match.pk])).content.decode()
    )
    assert api(boris, f"matches/{match.pk}/confirm", {}).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_an_accepted_play_entered_by_the_opponent_or_the_organizer_stands():
    site, match = long_match()
    anna, boris = match.home.player.user, match.away.player.user
    live(boris, match, 0, {"first": 1})
    assert live(boris, match, 1, INCOMPLETE).status_code == 200  # Boris accepts Anna's play
    live(boris, match, 2, {"resign": "black", "value": 1})
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.confirm_side is None
    assert api(boris, f"matches/{match.pk}/confirm", {}).status_code == 403  # the reporter
    assert api(anna, f"matches/{match.pk}/confirm", {}).status_code == 200
    # The organizer, who plays in neither side, enters one: the result is final as today.
    other = site.match("Carl", "Dina")
    live(site.organizer, other, 0, {"first": 1})
    live(site.organizer, other, 1, INCOMPLETE)
    live(site.organizer, other, 2, {"resign": "black", "value": 1})
    other.refresh_from_db()
    assert other.status == Match.Status.FINAL


def test_an_organizer_finishing_a_match_with_a_players_own_accepted_play_waits_too():
    site, match = long_match()
    anna = match.home.player.user
    live(anna, match, 0, {"first": 1})
    live(anna, match, 1, INCOMPLETE)
    live(site.organizer, match, 2, {"resign": "black", "value": 1})
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.confirm_side == 2
    assert api(site.organizer, f"matches/{match.pk}/confirm", {}).status_code == 200


def test_taking_the_accepted_play_back_takes_its_wait_with_it():
    site, match = long_match()
    anna = match.home.player.user
    live(anna, match, 0, {"first": 1})
    live(anna, match, 1, INCOMPLETE)
    assert api(anna, f"matches/{match.pk}/live/undo", {"ply": 2}).status_code == 200
    live(anna, match, 1, {"dice": "61", "play": "24/18 18/17"})
    live(anna, match, 2, {"resign": "black", "value": 1})
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.confirm_side is None


# --- 5. Expensive work is counted for both games ------------------------------------------------


@pytest.fixture
def long_analyses(monkeypatch, analysis_on):
    """Long Nardy analysed in this process at 0 plies; each run of the engine is counted."""
    runs = []
    real = analysis_services._analysed

    def counted(variant, text, plies, progress):
        runs.append(variant)
        return real(variant, text, plies, progress)

    monkeypatch.setattr(analysis_services, "_analysed", counted)
    with override_settings(LONG_ANALYSIS_PLIES=0):  # tasks run in this process: eager_tasks
        yield runs


def test_a_resign_and_undo_loop_queues_no_new_analysis(
    long_analyses, eager_tasks, django_capture_on_commit_callbacks
):
    site, match = long_match()
    olga = site.organizer  # her result is final at once: decided, so analysed
    with django_capture_on_commit_callbacks(execute=True):
        live(olga, match, 0, {"first": 1})
        live(olga, match, 1, {"dice": "61", "play": "24/18 18/17"})
    for _loop in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            assert live(olga, match, 2, {"resign": "black", "value": 1}).status_code == 200
        assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.DONE
        with django_capture_on_commit_callbacks(execute=True):
            assert api(olga, f"matches/{match.pk}/live/undo", {"ply": 3}).status_code == 200
        assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.KEPT
    assert long_analyses == ["long"]  # the same record, analysed once
    page = client_of(None).get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-role="analysis"' not in page  # a kept analysis is never shown meanwhile


@override_settings(ANALYSES_PER_USER="3/h")
def test_taking_a_decided_result_back_counts_against_the_analysis_limit():
    site, match = long_match()
    anna = match.home.player.user
    live(anna, match, 0, {"first": 1})
    live(anna, match, 1, {"dice": "61", "play": "24/18 18/17"})
    for _loop in range(3):
        live(anna, match, 2, {"resign": "black", "value": 1})
        assert api(anna, f"matches/{match.pk}/live/undo", {"ply": 3}).status_code == 200
    live(anna, match, 2, {"resign": "black", "value": 1})
    before = snapshot()
    refused = api(anna, f"matches/{match.pk}/live/undo", {"ply": 3})
    assert refused.status_code == 429 and refused.json()["error"]["details"]["limit"] == "analyses"
    assert snapshot() == before
    # An undo that takes no result back (the match goes on) is not counted.
    other = site.match("Carl", "Dina")
    carl = other.home.player.user
    live(carl, other, 0, {"first": 1})
    assert api(carl, f"matches/{other.pk}/live/undo", {"ply": 1}).status_code == 200


@override_settings(ANALYSES_PER_USER="1/h")
def test_a_long_nardy_record_counts_against_the_analysis_limit():
    site = make_site(variant="long", match_length=1, rated=False)
    first, second = site.match("Anna", "Boris"), site.match("Carl", "Dina")
    game = MatchGame(
        1,
        (
            action_from_json({"dice": "61", "play": "24/18 18/17"}),
            action_from_json({"resign": "black", "value": 1}),
        ),
    )
    variant = site.tournament.game_variant()
    mat = write_match(match_record(variant, ("Anna", "Boris"), [game], length=1))
    answer = api(site.organizer, f"matches/{first.pk}/result", {"mat": mat})
    assert answer.status_code == 200, answer.content
    refused = api(site.organizer, f"matches/{second.pk}/result", {"mat": mat})
    assert refused.status_code == 429 and refused.json()["error"]["details"]["limit"] == "analyses"


def test_entries_are_untouched_by_a_refused_pair(clubs, riga_duo):
    """A refused entry leaves no entry, pair or player behind (the review's 'nothing stored')."""
    users, _riga, tallinn, players = clubs
    pairs_cup(users["otto"], tallinn, "tallinn-pairs")
    count = Entry.objects.count(), Pair.objects.count(), Player.objects.count()
    body = {"player_id": players["Anna"].pk, "partner_id": players["Boris"].pk, "name": "Y"}
    api(users["otto"], "tournaments/tallinn-pairs/entries/new", body)
    assert (Entry.objects.count(), Pair.objects.count(), Player.objects.count()) == count


def test_a_name_changed_in_the_admin_is_a_rename_in_the_trail(clubs, riga_duo):
    users, *_ = clubs
    pair, _cup = riga_duo
    User.objects.filter(pk=users["sam"].pk).update(is_superuser=True)
    admin = client_of(User.objects.get(pk=users["sam"].pk))
    url = reverse("admin:tournaments_player_change", args=[pair.player_id])
    form = admin.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data["display_name"] = "Admin Duo"
    data["home_club"] = pair.player.home_club_id
    answer = admin.post(url, data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    pair.player.refresh_from_db()
    assert pair.player.display_name == "Admin Duo"
    row = IdentityAudit.objects.get(action="renamed")
    assert row.actor_id == users["sam"].pk and row.note == "Riga Duo → Admin Duo"
