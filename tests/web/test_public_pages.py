"""The public pages: anyone can read the tournaments, their standings, brackets, matches, players
and rating lists, in a fixed number of queries, with user data marked as not for translation."""

import json
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models.signals import post_init
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from tournaments import queue, selectors, versions
from tournaments.matches import board, results, tasks
from tournaments.matches.rows import games_of
from tournaments.models import Match, Tournament
from tournaments.ratings import ledger
from tournaments.ratings import selectors as rating_selectors
from tournaments.web import public

pytestmark = pytest.mark.django_db


def test_the_tournament_list_filters_by_status_and_game(client, new_site):
    site = new_site()
    Tournament.objects.create(name="Long Open", slug="long-open", variant="long", organizer=None)

    everything = client.get("/")
    running_short = client.get("/", {"status": "running", "variant": "short"})
    finished = client.get("/", {"status": "finished"})

    assert {t.name for t in everything.context["tournaments"]} == {"Long Open", "Club Cup"}
    assert [t.name for t in running_short.context["tournaments"]] == [site.tournament.name]
    assert "No tournament fits this filter." in finished.content.decode()


def test_the_tournament_page_shows_rules_entrants_and_no_organizer_panel_to_the_public(
    client, site
):
    response = client.get(reverse("tournament", args=[site.tournament.slug]))

    page = response.content.decode()
    assert response.status_code == 200
    rules = dict(response.context["rules"])
    assert rules["Match"] == "to 3 points"
    assert rules["Game"] == "Short Nardy"
    assert rules["Koks (triple game)"] == "no"
    for name in ("Anna", "Boris", "Carl", "Dina"):
        assert f'translate="no">{name}</a>' in page
    assert 'data-role="organizer-panel"' not in page


def test_the_organizer_sees_the_steps_that_fit_the_state(client, site):
    client.force_login(site.organizer)

    page = client.get(reverse("tournament", args=[site.tournament.slug])).content.decode()

    assert 'data-step="finish"' in page
    assert 'data-step="start"' not in page  # running already
    assert 'data-step="pair"' not in page  # a round robin is paired at the start


def test_rounds_show_every_pairing_with_its_result(client, site):
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))

    response = client.get(reverse("tournament-rounds", args=[site.tournament.slug]))

    rounds = response.context["rounds"]()
    assert [r["title"] for r in rounds] == ["Round 1", "Round 2", "Round 3"]
    assert sum(len(r["matches"]()) for r in rounds) == 6
    assert re.search(r"3\s*–\s*1", response.content.decode())


def test_a_new_result_in_the_last_round_reads_again_only_that_rounds_rows(client, site):
    """Old rounds' HTML is kept per round: a Swiss of many rounds must not read every round's
    matches to show a result of the round being played."""
    path = reverse("tournament-rounds", args=[site.tournament.slug])
    client.get(path)
    match = site.tournament.matches.filter(round__number=3).first()
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    read = []

    def count(sender, instance, **kwargs):
        read.append(instance.pk)

    post_init.connect(count, sender=Match)
    try:
        response = client.get(path)
    finally:
        post_init.disconnect(count, sender=Match)

    same_round = set(match.round.matches.values_list("pk", flat=True))
    assert sorted(read) == sorted(same_round) and len(same_round) == 2
    assert re.search(r"3\s*–\s*1", response.content.decode())
    assert response.content.decode().count("data-match=") == 6


def test_a_bracket_read_again_after_a_later_rounds_result_shows_what_a_fresh_render_shows(
    client, new_site
):
    site = new_site(format="single-elimination", third_place=True)
    path = reverse("tournament-rounds", args=[site.tournament.slug])
    for match in site.tournament.matches.filter(bracket_round=1):
        results.match_result_record(match=match, by=site.organizer, score=(3, 0))
    client.get(path)  # every group's HTML is kept
    final = site.tournament.matches.get(slot="M2-1")
    results.match_result_record(match=final, by=site.organizer, score=(0, 3))

    again = client.get(path).content.decode()
    cache.clear()
    fresh = client.get(path).content.decode()

    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    assert token.sub("", again) == token.sub("", fresh)
    assert again.count("data-match=") == 4
    assert re.search(rf'data-match="{final.pk}">(?:(?!</tr>).)*0\s*–\s*3', again, re.S)


def test_standings_have_the_chosen_tiebreak_columns_and_a_wall_view(client, new_site):
    site = new_site(tiebreaks=["sonneborn-berger", "wins"])
    results.match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 0))

    response = client.get(reverse("tournament-standings", args=[site.tournament.slug]))
    wall = client.get(reverse("tournament-standings", args=[site.tournament.slug]), {"wall": 1})

    page = response.content.decode()
    assert 'data-tiebreak="sonneborn-berger"' in page and 'data-tiebreak="wins"' in page
    first = response.context["standings"]()[0]
    assert first.entry.player.display_name == "Anna"
    assert '<body class="wall">' in wall.content.decode()
    assert '<meta http-equiv="refresh" content="60">' in wall.content.decode()


def test_a_round_robin_has_no_bracket_and_a_bracket_has_no_standings(client, new_site):
    robin = new_site()
    robin_bracket = client.get(reverse("tournament-bracket", args=[robin.tournament.slug]))
    assert robin_bracket.status_code == 404


def test_the_bracket_page_draws_every_match_of_a_double_elimination(client, new_site):
    site = new_site(format="double-elimination", names=["A1", "B2", "C3", "D4", "E5"])

    response = client.get(reverse("tournament-bracket", args=[site.tournament.slug]))
    standings = client.get(reverse("tournament-standings", args=[site.tournament.slug]))

    page = response.content.decode()
    assert response.status_code == 200
    assert standings.status_code == 404
    for slot in site.tournament.matches.values_list("slot", flat=True):
        assert f'data-slot="{slot}"' in page
    assert "<svg" in page


def test_the_match_page_replays_recorded_games(client, site):
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.organizer, games=site.recorded_games())

    response = client.get(reverse("match", args=[match.pk]))

    page = response.content.decode()
    script = re.search(r'<script id="board-frames" type="application/json">(.*?)</script>', page)
    assert script is not None
    frames = json.loads(script.group(1))
    games = response.context["games"]()  # the parts are computed when drawn
    assert len(games) >= 2
    assert len(frames["frames"]) == sum(len(game.actions) + 2 for game in games)
    assert 'id="board-frames"' in page
    assert 'data-step="next"' in page
    assert reverse("api-match-mat", args=[match.pk]) in page


def test_the_match_record_is_drawn_once_per_version_for_every_reader(site, monkeypatch):
    """Every reader of a match page, anonymous or signed in, shares its drawn games, replay,
    analysis and rating changes: they are computed again only when the match page's version
    changes (its ratings applied, its result corrected), and then show the change. What a
    reader may do stays the reader's own, and an anonymous visitor's miss reads the version
    once."""
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.organizer, games=site.recorded_games())
    computed: list[str] = []

    def counted(module, name):
        real = getattr(module, name)

        def spy(*args, **kwargs):
            computed.append(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)

    counted(public, "board_frames")
    counted(public, "match_analysis")
    counted(rating_selectors, "match_rating_effect")
    counted(rating_selectors, "match_ratings_pending")
    counted(versions, "match_version")
    heavy = ["board_frames", "match_analysis", "match_rating_effect", "match_ratings_pending"]
    readers = {"anonymous": Client(), "Boris": Client(), "Olga": Client()}
    readers["Boris"].force_login(site.players["Boris"])
    readers["Olga"].force_login(site.organizer)
    address = reverse("match", args=[match.pk])

    def read(who: str) -> str:
        response = readers[who].get(address)
        assert response.status_code == 200
        return response.content.decode()

    first = read("anonymous")
    assert computed.count("match_version") == 1  # read once, for the stored copy and the parts
    assert sorted(computed) == sorted([*heavy, "match_version"])
    pages = {who: read(who) for who in ("Boris", "Olga")}
    assert sorted(computed) == sorted([*heavy, *["match_version"] * 3])  # drawn once for all
    for page in (first, *pages.values()):
        assert 'id="board-frames"' in page and 'data-role="ratings-progress"' in page
    assert 'data-action="correct"' in pages["Olga"]
    assert 'data-action="correct"' not in pages["Boris"] + first

    ledger.ratings_apply(match.pk)  # a new version: the ratings applied
    computed.clear()
    rated = read("Boris")
    assert 'data-role="ratings-progress"' not in rated and 'data-rated="true"' in rated
    assert 'data-action="correct"' in read("Olga") and "ratings-progress" not in read("anonymous")
    # Only the rating change is drawn again: the games, their analysis and replay stay as drawn.
    assert sorted(name for name in computed if name in heavy) == [
        "match_rating_effect", "match_ratings_pending"]  # fmt: skip

    frames = re.compile(r'<script id="board-frames" type="application/json">(.*?)</script>')
    before = frames.search(rated).group(1)  # type: ignore[union-attr]
    results.match_result_correct(match=match, by=site.organizer, games=site.recorded_games(8))
    computed.clear()
    corrected = read("Boris")
    assert frames.search(corrected).group(1) != before  # type: ignore[union-attr]
    assert frames.search(read("Olga")).group(1) != before  # type: ignore[union-attr]
    assert sorted(name for name in computed if name in heavy) == sorted(heavy)


def test_the_player_page_lists_matches_and_draws_the_rating_history(client, site):
    anna = site.match("Anna", "Boris").home.player
    for match, score in [
        (site.match("Anna", "Boris"), (3, 1)),
        (site.match("Anna", "Carl"), (0, 3)),
    ]:
        results.match_result_record(match=match, by=site.organizer, score=score)
        ledger.ratings_apply(match.pk)  # the worker's turn

    response = client.get(reverse("player", args=[anna.pk]))

    page = response.content.decode()
    assert response.status_code == 200
    assert len(response.context["matches"]()) == 3  # the parts are computed when drawn
    assert page.count("<tr>") >= 3 and "Carl" in page
    assert 'class="rating-chart' in page
    assert len(response.context["histories"]()) == 1


def test_the_player_record_is_drawn_once_per_version_for_every_reader(client, site):
    """Signed-in readers (who get no shared copy of the page) share its drawn record: the
    matches, charts and rating changes are computed again only when the player's page
    version changes, and then show the change."""
    anna = site.match("Anna", "Boris").home.player
    results.match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1))
    ledger.ratings_apply(site.match("Anna", "Boris").pk)
    client.force_login(site.players["Boris"])
    address = reverse("player", args=[anna.pk])

    with CaptureQueriesContext(connection) as first:
        client.get(address)
    with CaptureQueriesContext(connection) as again:
        page = client.get(address).content.decode()
    assert len(again) < len(first)
    assert "3 – 1" in page and "0 – 3" not in page

    results.match_result_record(match=site.match("Anna", "Carl"), by=site.organizer, score=(0, 3))
    ledger.ratings_apply(site.match("Anna", "Carl").pk)
    page = client.get(address).content.decode()
    assert "0 – 3" in page  # the new result, drawn for the new version
    assert page.count('data-role="current-rating"') == 1


def test_the_rating_list_ranks_the_players_of_a_game(client, site):
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    ledger.ratings_apply(match.pk)  # the worker's turn

    response = client.get(reverse("rating-list", args=["short"]))
    unknown = client.get(reverse("rating-list", args=["chess"]))

    rows = response.context["rows"]
    assert [row.player.display_name for row in rows] == ["Anna", "Boris"]
    assert rows[0].rating > 1500 > rows[1].rating
    assert unknown.status_code == 404


def test_the_print_view_has_standings_and_pairings(client, site):
    response = client.get(reverse("tournament-print", args=[site.tournament.slug]))

    page = response.content.decode()
    assert 'data-role="standings"' in page
    assert page.count('data-role="round"') == 3


def test_list_pages_take_a_fixed_number_of_queries(client, new_site, django_assert_max_num_queries):
    site = new_site(names=[f"P{n}" for n in range(1, 11)])
    for match in site.tournament.matches.filter(away__isnull=False)[:10]:
        results.match_result_record(match=match, by=site.organizer, score=(3, 0))

    for name in ("tournament", "tournament-rounds", "tournament-standings", "tournament-print"):
        with django_assert_max_num_queries(12):
            assert client.get(reverse(name, args=[site.tournament.slug])).status_code == 200


def test_a_played_out_bracket_shows_the_final_places(client, new_site):
    site = new_site(format="single-elimination", third_place=True)
    url = reverse("tournament-bracket", args=[site.tournament.slug])
    semi_finals = list(site.tournament.matches.filter(bracket_round=1))
    for match in semi_finals:
        results.match_result_record(match=match, by=site.organizer, score=(3, 0))
    while_playing = client.get(url).context["places"]()
    for match in site.tournament.matches.filter(bracket_round=2):
        results.match_result_record(match=match, by=site.organizer, score=(0, 3))

    response = client.get(url)

    assert while_playing == []
    places = [(place, entry.player.display_name) for place, entry in response.context["places"]()]
    winners = [m.home.player.display_name for m in semi_finals]
    losers = [m.away.player.display_name for m in semi_finals]
    final = site.tournament.matches.get(slot="M2-1")
    third = site.tournament.matches.get(slot="3P")
    assert places == [
        (1, final.away.player.display_name),
        (2, final.home.player.display_name),
        (3, third.away.player.display_name),
        (4, third.home.player.display_name),
    ]
    assert {name for _, name in places} == set(winners + losers)
    assert 'data-role="places"' in response.content.decode()


def test_a_name_that_looks_like_a_formula_is_not_one_in_the_standings_csv(client, new_site):
    site = new_site(names=["=HYPERLINK(1)", "+1", "Anna", "@SUM(A1)"])

    response = client.get(f"/api/v1/tournaments/{site.tournament.slug}/standings.csv")

    names = [line.split(",")[1] for line in response.content.decode().splitlines()[1:]]
    assert sorted(names) == sorted(["'=HYPERLINK(1)", "'+1", "Anna", "'@SUM(A1)"])


def test_cached_page_parts_change_as_soon_as_a_result_or_a_rating_does(client, site, monkeypatch):
    standings = reverse("tournament-standings", args=[site.tournament.slug])
    rounds = reverse("tournament-rounds", args=[site.tournament.slug])
    overview = reverse("tournament", args=[site.tournament.slug])
    computed = []
    real = selectors.tournament_standings
    monkeypatch.setattr(
        selectors, "tournament_standings", lambda **kw: computed.append(1) or real(**kw)
    )
    client.get(standings)
    client.get(standings)
    before_rounds = client.get(rounds).content.decode()
    match = site.match("Anna", "Boris")

    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    after_standings = client.get(standings).content.decode()
    after_rounds = client.get(rounds).content.decode()
    unrated = client.get(overview).content.decode()
    ledger.ratings_apply(match.pk)
    rated = client.get(overview).content.decode()

    assert len(computed) == 2  # the second view came from the cache; the result made a third
    assert not re.search(r"3\s*–\s*1", before_rounds) and re.search(r"3\s*–\s*1", after_rounds)
    assert "<strong>1</strong>" in after_standings
    assert "1517" not in unrated and "1517" in rated


def test_a_result_renders_again_only_its_own_round(client, site):
    """The other rounds' HTML is reused from the cache: a Swiss changes one round at a time."""
    url = reverse("tournament-rounds", args=[site.tournament.slug])
    client.get(url)
    stored = set(cache._cache)  # the test's own in-process cache (tests/conftest.py)
    results.match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1))

    page = client.get(url).content.decode()

    added = {key for key in set(cache._cache) - stored if "template.cache.tournament-round." in key}
    assert re.search(r"3\s*–\s*1", page)
    assert len(added) == 1  # round 1 only; rounds 2 and 3 came from the cache


def test_a_stored_record_is_replayed_for_the_board_by_the_worker_not_by_its_first_view(
    client, site, monkeypatch
):
    sent = []
    monkeypatch.setattr(queue, "enqueue", lambda task, *args: sent.append((task.name, args)))
    match, other = site.match("Anna", "Boris"), site.match("Carl", "Dina")
    results.match_result_record(match=match, by=site.organizer, games=site.recorded_games())
    results.match_result_record(match=other, by=site.organizer, score=(3, 1))
    prepared = [args for name, args in sent if name == tasks.board_frames_prepare.name]
    assert prepared == [(match.pk,)]  # not for a bare score

    assert tasks.board_frames_prepare.run(match.pk) is True  # as the worker runs it
    replays = []
    monkeypatch.setattr(board, "match_frames", lambda *args, **kwargs: replays.append(args))
    page = client.get(reverse("match", args=[match.pk])).content.decode()

    assert replays == [] and '<script id="board-frames" type="application/json">' in page
    assert tasks.board_frames_prepare.run(999999) is False


def test_signed_in_users_read_the_shared_match_page_with_their_own_parts(site, monkeypatch):
    """Every signed-in user gets the copy of a match page that every visitor shares, with
    their own name and links in its header and what they may do on it (an organizer corrects
    a result); the copy itself is drawn as for a visitor, whoever asked first."""
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.organizer, games=site.recorded_games())
    drawn: list[int] = []
    real = public.match_context
    monkeypatch.setattr(public, "match_context", lambda *a, **k: drawn.append(1) or real(*a, **k))
    carl, oscar, boris, olga = Client(), Client(), Client(), Client()
    carl.force_login(site.players["Carl"])
    oscar.force_login(site.outsider)
    boris.force_login(site.players["Boris"])
    olga.force_login(site.organizer)
    address = reverse("match", args=[match.pk])

    def read(client: Client) -> str:
        response = client.get(address)
        assert response.status_code == 200
        return response.content.decode()

    carls, oscars, anonymous = read(carl), read(oscar), read(Client())
    assert len(drawn) == 1  # once, for all three
    carl_name, oscar_name = site.players["Carl"].username, site.outsider.username
    assert f'<span translate="no">{carl_name}</span>' in carls and "My matches" in carls
    assert f'<span translate="no">{oscar_name}</span>' in oscars and carl_name not in oscars
    assert carl_name not in anonymous and "My matches" not in anonymous
    assert "Log in" in anonymous and "Log in" not in carls
    assert 'action="/accounts/logout/"' in carls and "csrfmiddlewaretoken" in carls
    assert 'id="board-frames"' in carls and 'data-action="correct"' not in carls + oscars
    borises, olgas = read(boris), read(olga)
    assert 'data-action="correct"' in olgas and 'data-action="correct"' not in borises
    assert f'<span translate="no">{site.organizer.username}</span>' in olgas
    assert len(drawn) == 1  # a player and an organizer: the same copy, with their own parts


def test_signed_in_readers_of_a_player_page_share_it_and_the_player_gets_their_own(site):
    anna = site.match("Anna", "Boris").home.player
    address = reverse("player", args=[anna.pk])
    boris, own = Client(), Client()
    boris.force_login(site.players["Boris"])
    own.force_login(site.players["Anna"])
    with CaptureQueriesContext(connection) as first:
        page = boris.get(address).content.decode()
    with CaptureQueriesContext(connection) as again:
        assert boris.get(address).status_code == 200
    assert len(again) < len(first)  # the shared copy: no record drawn again
    assert site.players["Boris"].username in page and 'data-role="player-actions"' not in page
    mine = own.get(address).content.decode()
    assert 'data-role="player-actions"' in mine  # Anna may unlink her account
    assert site.players["Anna"].username in mine


def test_the_rating_changes_on_a_player_page_cost_no_query_each(client, site):
    """Every change shows its match, opponent and approver, read with the rows: a player with
    more changes costs no more queries."""
    anna = site.match("Anna", "Boris").home.player
    anna = anna if anna.display_name == "Anna" else site.match("Anna", "Boris").away.player
    url = reverse("player", args=[anna.pk])

    def decide(one: str, other: str) -> int:
        match = site.match(one, other)
        results.match_result_record(match=match, by=site.organizer, score=(3, 1))
        ledger.ratings_apply(match.pk)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url).content.decode()
        table = page[page.index('data-role="rating-changes"') :]
        assert f"Club Cup: {match.home.player.display_name} – " in table
        assert "rita" in table  # the rating officer who approved the event
        return len(queries)

    assert decide("Anna", "Boris") == decide("Anna", "Carl")


def test_a_matchs_games_come_in_their_order_as_the_orm_gives_them(site):
    match = site.match("Anna", "Boris")
    assert games_of(match.pk) == []
    results.match_result_record(match=match, by=site.organizer, games=site.recorded_games())
    expected = list(match.games.order_by("number"))

    found = games_of(match.pk)

    assert len(found) == len(expected) > 1
    columns = [field.attname for field in Game._meta.concrete_fields]
    assert [[getattr(game, name) for name in columns] for game in found] == [
        [getattr(game, name) for name in columns] for game in expected
    ]
    assert isinstance(found[0].actions, list)  # JSON through the field's converter
