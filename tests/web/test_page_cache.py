"""Public pages shared among visitors who are not logged in (nardy_site.page_cache): one render
per version of what a page shows, each visitor with a CSRF token of their own, logged-in users
and unusual URLs never served a shared copy, a refresh delay that bounds renders, and the
previous copy while another request renders."""

import re
from types import SimpleNamespace

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from nardy_site import page_cache
from tournaments import versions
from tournaments.matches import results
from tournaments.ratings import ledger
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import RatingChange
from tournaments.web import public

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def renders(monkeypatch):
    """The templates the page views really rendered (a shared copy renders none)."""
    rendered: list[str] = []
    real = public.render

    def counting(request, template, *args, **kwargs):
        rendered.append(template)
        return real(request, template, *args, **kwargs)

    monkeypatch.setattr(public, "render", counting)
    return rendered


@pytest.fixture
def now(monkeypatch) -> list[float]:
    """page_cache's clock, moved on by hand: ``now[0] += 2``."""
    clock = [1_000_000.0]
    monkeypatch.setattr(page_cache, "time", SimpleNamespace(time=lambda: clock[0]))
    return clock


def test_an_anonymous_page_is_rendered_once_per_version(client, site, django_assert_num_queries):
    url = reverse("tournament-standings", args=[site.tournament.slug])
    first = client.get(url).content.decode()
    with django_assert_num_queries(1):  # the version; the page comes from the store
        again = client.get(url).content.decode()

    results.match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1))
    after = client.get(url).content.decode()

    assert TOKEN.sub("", first) == TOKEN.sub("", again)
    assert "<strong>1</strong>" not in first and "<strong>1</strong>" in after


def test_every_page_kind_is_shared_and_follows_its_version(client, site):
    match = site.match("Anna", "Boris")
    anna = match.home.player if match.home.player.display_name == "Anna" else match.away.player
    urls = {
        "match": reverse("match", args=[match.pk]),
        "player": reverse("player", args=[anna.pk]),
        "home": reverse("home"),
        "ratings": reverse("rating-list", args=["short"]),
        "overview": reverse("tournament", args=[site.tournament.slug]),
        "rounds": reverse("tournament-rounds", args=[site.tournament.slug]),
    }
    before = {name: client.get(url).content.decode() for name, url in urls.items()}
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    recorded = {name: client.get(url).content.decode() for name, url in urls.items()}
    ledger.ratings_apply(match.pk)  # the worker's turn: ratings change, the pending box goes
    rated = {name: client.get(url).content.decode() for name, url in urls.items()}

    score = re.compile(r"3\s*–\s*1")
    for name in ("match", "player", "rounds"):
        assert not score.search(before[name]) and score.search(recorded[name]), name
    assert 'data-role="ratings-progress"' in recorded["match"]
    assert 'data-role="ratings-progress"' not in rated["match"]
    assert "1517" not in recorded["ratings"] and "1517" in rated["ratings"]
    assert "1517" not in recorded["overview"] and "1517" in rated["overview"]
    assert TOKEN.sub("", rated["player"]) != TOKEN.sub("", recorded["player"])  # its history
    site.tournament.refresh_from_db()
    assert site.tournament.revision > 0


def test_each_visitor_gets_a_token_of_their_own_that_works(site):
    url = reverse("tournament", args=[site.tournament.slug])
    one, other = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    one.get(url)  # renders and stores
    page_one, page_other = one.get(url), other.get(url)  # both from the store

    token_one = TOKEN.search(page_one.content.decode()).group(1)
    token_other = TOKEN.search(page_other.content.decode()).group(1)
    assert token_one != token_other
    assert "csrftoken" in page_other.cookies  # the shared copy still sets the visitor's cookie
    switched = other.post(
        reverse("set_language"), {"language": "ru", "next": url, "csrfmiddlewaretoken": token_other}
    )
    assert switched.status_code == 302
    assert other.get(url).content.decode().count('lang="ru"') >= 1
    forged = Client(enforce_csrf_checks=True).post(
        reverse("set_language"), {"language": "ru", "next": url, "csrfmiddlewaretoken": token_one}
    )
    assert forged.status_code == 403  # a token from someone else's page is no use


def test_each_language_has_its_own_copy(client, site):
    url = reverse("tournament", args=[site.tournament.slug])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="en">' in english and '<html lang="ru">' in russian
    assert '<html lang="en">' in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_logged_in_users_never_get_the_shared_copy(client, site, renders):
    url = reverse("tournament", args=[site.tournament.slug])
    client.get(url)
    client.get(url)
    client.force_login(site.organizer)
    page = client.get(url).content.decode()

    assert renders == ["tournaments/tournament.html"] * 2  # once shared, once for Olga
    assert '<span translate="no">olga</span>' in page


def test_unknown_query_parameters_are_served_the_shared_copy(client, site, renders):
    """A parameter the page does not read, or a value it does not share, is dropped: the
    shared copy is served, and the page never sees it."""
    url = reverse("tournament-standings", args=[site.tournament.slug])
    plain = client.get(url).content
    client.get(url, {"wall": "1"})
    client.get(url, {"wall": "1"})  # shared, its own copy
    for query in ({"utm_source": "x"}, {"wall": "2"}, {"x": "1", "c": "7"}, {"wall": ["1", "1"]}):
        answer = client.get(url, query)
        assert answer.status_code == 200
    assert renders == ["tournaments/standings.html"] * 2
    assert TOKEN.sub("", client.get(url, {"x": "1"}).content.decode()) == TOKEN.sub(
        "", plain.decode()
    )


def test_a_fresh_parameter_is_drawn_alone_and_counted_per_client(client, rf, settings):
    """A search is drawn for its request alone (no copy is kept), within the client's rate."""
    settings.DRAWINGS_PER_CLIENT = "3/m"
    cache.clear()
    drawn: list[str] = []

    @page_cache.shared_page(lambda: "v1", params={"page": page_cache.page_number}, fresh=["q"])
    def search_page(request):
        drawn.append(request.GET.urlencode())
        return HttpResponse("found")

    def ask(query: str):
        request = rf.get("/search/" + query)
        request.user = page_cache.AnonymousUser()
        return search_page(request)

    assert [ask("?q=anna&utm=1").status_code for _ in range(3)] == [200] * 3
    assert drawn == ["q=anna"] * 3  # the search, without the tag
    refused = ask("?q=boris")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many searches" in refused.content.decode()
    assert ask("?page=2").status_code == 200 and ask("?page=2").status_code == 200
    assert ask("?page=0").status_code == 200  # not a page: the first page's copy
    assert drawn[3:] == ["page=2", ""]


def test_every_shared_page_declares_the_query_parameters_it_reads():
    """A page that reads a parameter it does not declare would be served the copy drawn without
    it: each shared view's own code names only what it declares."""
    import inspect  # noqa: PLC0415

    from django.urls import get_resolver  # noqa: PLC0415

    def callbacks(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                yield from callbacks(pattern.url_patterns)
            else:
                yield pattern.callback

    shared = {}
    for callback in callbacks(get_resolver().url_patterns):
        while not hasattr(callback, "shared_params") and hasattr(callback, "__wrapped__"):
            callback = callback.__wrapped__
        if hasattr(callback, "shared_params"):
            shared[callback.__name__] = callback
    assert len(shared) >= 10
    for name, page in shared.items():
        source = inspect.getsource(inspect.unwrap(page))
        read = set(re.findall(r"request\.GET\.get\(\s*[\"'](\w+)", source))
        assert read <= page.shared_params, f"{name} reads {read - page.shared_params}"


def with_message(client: Client, text: str) -> None:
    """A message for the client to see (kept in a cookie by the view that redirected them)."""
    stored = HttpResponse()
    CookieStorage(RequestFactory().get("/"))._store([Message(constants.SUCCESS, text)], stored)
    client.cookies["messages"] = stored.cookies["messages"].value


def test_pending_messages_are_the_readers_own_part_of_the_shared_copy(site, renders):
    """A reader's messages are drawn into the shared copy for them alone: never kept in it,
    even when their request is the one that draws it."""
    url = reverse("tournament-standings", args=[site.tournament.slug])
    first, other = Client(), Client()
    with_message(first, "Saved.")
    assert "Saved." in first.get(url).content.decode()  # drawn by this request, and shared
    assert "Saved." not in other.get(url).content.decode()
    assert "Saved." not in first.get(url).content.decode()  # seen once
    with_message(other, "Confirmed.")
    page = other.get(url).content.decode()
    assert "Confirmed." in page and "Saved." not in page
    assert renders == ["tournaments/standings.html"]

    # A page with a view's own part (what a reader may do on a match): a visitor's as stored.
    match = reverse("match", args=[site.match("Anna", "Boris").pk])
    Client().get(match)
    with_message(other, "Logged out.")
    response = other.get(match)
    assert response.status_code == 200 and "Logged out." in response.content.decode()
    assert 'data-role="result-actions"' not in response.content.decode()


def test_missing_things_stay_404(client, site):
    assert client.get(reverse("tournament", args=["no-such-cup"])).status_code == 404
    assert client.get(reverse("match", args=[999999])).status_code == 404
    assert client.get(reverse("player", args=[999999])).status_code == 404
    bracket = reverse("tournament-bracket", args=[site.tournament.slug])
    assert client.get(bracket).status_code == 404  # a round robin has no bracket
    assert client.get(bracket).status_code == 404


def test_a_retired_copy_younger_than_the_refresh_is_served(client, site, now):
    url = reverse("tournament-standings", args=[site.tournament.slug])
    with override_settings(PUBLIC_PAGE_REFRESH_SECONDS=3):
        client.get(url)
        results.match_result_record(
            match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1)
        )
        now[0] += 2
        young = client.get(url).content.decode()
        now[0] += 1.5
        refreshed = client.get(url).content.decode()
    assert "<strong>1</strong>" not in young
    assert "<strong>1</strong>" in refreshed


def test_while_another_request_renders_the_previous_copy_is_served():
    versions = iter(["1", "2", "2", "2"])
    rendered: list[str] = []

    def compute() -> str:
        rendered.append("x")
        return f"page {len(rendered)}"

    def serve() -> str:
        return page_cache.fresh_or_stale("k", lambda: next(versions), compute, refresh=0)

    claim = f"shared:{page_cache._SHAPE}:k:rendering"
    assert serve() == "page 1"
    cache.add(claim, "2")  # another request is rendering version 2
    assert serve() == "page 1"
    cache.delete(claim)  # it is done (or gave up)
    assert serve() == "page 2"
    assert serve() == "page 2"
    assert rendered == ["x", "x"]
    assert cache.get(claim) is None  # the claim is released


def test_a_render_that_fails_releases_its_claim():
    page_cache.fresh_or_stale("k", lambda: "1", lambda: "page 1", refresh=0)

    def broken() -> str:
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        page_cache.fresh_or_stale("k", lambda: "2", broken, refresh=0)
    assert page_cache.fresh_or_stale("k", lambda: "2", lambda: "page 2", refresh=0) == "page 2"


def test_within_the_refresh_the_version_is_not_even_read(client, site, now):
    url = reverse("tournament-standings", args=[site.tournament.slug])
    with override_settings(PUBLIC_PAGE_REFRESH_SECONDS=3):
        client.get(url)
        now[0] += 2
        with CaptureQueriesContext(connection) as young:
            client.get(url)
        now[0] += 2
        with CaptureQueriesContext(connection) as checked:
            client.get(url)  # the version is read again, still current: the copy is served
        now[0] += 2
        with CaptureQueriesContext(connection) as rechecked:
            client.get(url)
    assert len(young) == 0
    assert len(checked) == 1
    assert len(rechecked) == 0  # the check at +4 s counts for the next 3 s


def test_api_standings_are_shared_but_fresh_for_logged_in_readers(client, site, now):
    url = f"/api/v1/tournaments/{site.tournament.slug}/standings/"
    with override_settings(PUBLIC_PAGE_REFRESH_SECONDS=60):
        before = client.get(url).json()
        results.match_result_record(
            match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1)
        )
        anonymous = client.get(url).json()
        client.force_login(site.organizer)
        organizer = client.get(url).json()
    assert anonymous == before  # up to a minute old for anonymous readers here
    assert organizer != before and max(row["match_points"] for row in organizer) > 0


def test_a_match_page_is_not_drawn_again_for_the_other_results_of_the_day(site):
    """Another match of the tournament decided and rated raises the tournament's revision and
    its rating list's: this match's page keeps its version (its ratings are its own rows)."""
    match, other = site.match("Anna", "Boris"), site.match("Carl", "Dina")
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    ledger.ratings_apply(match.pk)
    version = versions.match_version(pk=match.pk)
    results.match_result_record(match=other, by=site.organizer, score=(3, 0))
    ledger.ratings_apply(other.pk)
    assert versions.match_version(pk=match.pk) == version


def test_an_unrated_match_follows_its_players_ratings(new_site):
    """A match its tournament does not rate shows what it would change from its players'
    current ratings: a new rating of one of them is a new version, anyone else's is not."""
    site = new_site(rated=False)
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    version = versions.match_version(pk=match.pk)
    elsewhere = site.match("Carl", "Dina")

    def rated_elsewhere(player):
        RatingChange.objects.create(
            rating_list=rating_list_of(site.tournament), player=player, match=elsewhere,
            finished_at=timezone.now(), score=1, before=1500, after=1508, delta=8,
            experience_before=0, experience_after=1,
        )  # fmt: skip

    rated_elsewhere(elsewhere.home.player)
    assert versions.match_version(pk=match.pk) == version
    rated_elsewhere(match.away.player)
    assert versions.match_version(pk=match.pk) != version


def test_a_player_page_draws_again_only_the_part_that_changed(client, site, monkeypatch):
    """A report on one of the player's matches draws their matches again, not their rating
    histories; the worker's rating changes draw the histories, and the page shows both."""
    drawn: list[str] = []
    histories, matches = public._rating_histories, public.selectors.player_matches
    monkeypatch.setattr(
        public, "_rating_histories", lambda pk: drawn.append("ratings") or histories(pk)
    )
    monkeypatch.setattr(
        public.selectors,
        "player_matches",
        lambda *, player_id, page, discipline: (
            drawn.append("matches")
            or matches(player_id=player_id, page=page, discipline=discipline)
        ),
    )
    match = site.match("Anna", "Boris")
    anna = match.home.player if match.home.player.display_name == "Anna" else match.away.player
    url = reverse("player", args=[anna.pk])

    client.get(url)
    assert sorted(drawn) == ["matches", "ratings"]
    drawn.clear()
    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    recorded = client.get(url).content.decode()
    assert drawn == ["matches"]
    assert re.search(r"3\s*–\s*1", recorded) and 'data-role="current-rating"' not in recorded
    drawn.clear()
    ledger.ratings_apply(match.pk)
    rated = client.get(url).content.decode()
    assert "ratings" in drawn
    assert re.search(r"3\s*–\s*1", rated) and 'data-role="current-rating"' in rated


def test_a_player_version_reads_back_in_its_parts(site):
    anna = site.match("Anna", "Boris").home.player
    version = versions.player_version(pk=anna.pk)
    parts = versions.PlayerVersion.parse(version)
    assert str(parts) == version
    results.match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1))
    after = versions.PlayerVersion.parse(versions.player_version(pk=anna.pk))
    assert after.matches != parts.matches
    assert (after.details, after.ratings, after.analyses) == (
        parts.details, parts.ratings, parts.analyses)  # fmt: skip


def test_a_new_version_of_a_part_is_drawn_into_the_stored_page(client, site, renders):
    """A report draws the player's matches into the stored copy, without drawing the page
    around them: what a visitor gets equals the page drawn whole for that version."""
    match = site.match("Anna", "Boris")
    anna = match.home.player if match.home.player.display_name == "Anna" else match.away.player
    url = reverse("player", args=[anna.pk])
    client.get(url)
    assert renders == ["tournaments/player.html"]

    results.match_result_record(match=match, by=site.organizer, score=(3, 1))
    composed = client.get(url).content.decode()
    ledger.ratings_apply(match.pk)
    rated = client.get(url).content.decode()
    assert renders == ["tournaments/player.html"]  # the page around the parts: never again
    assert re.search(r"3\s*–\s*1", composed) and 'data-role="current-rating"' in rated

    cache.clear()
    whole = client.get(url).content.decode()
    assert renders == ["tournaments/player.html"] * 2
    assert TOKEN.sub("", whole) == TOKEN.sub("", rated)


def test_a_change_around_the_parts_draws_the_whole_page(client, site, renders):
    match = site.match("Anna", "Boris")
    anna = match.home.player if match.home.player.display_name == "Anna" else match.away.player
    url = reverse("player", args=[anna.pk])
    client.get(url)
    anna.display_name = "Anna K."
    anna.save()
    page = client.get(url).content.decode()
    assert renders == ["tournaments/player.html"] * 2
    assert "Anna K." in page


def test_a_stored_value_is_updated_when_it_can_be_and_computed_when_not():
    computed: list[str] = []

    def compute(version: str):
        return lambda: computed.append(version) or f"whole {version}"

    def serve(version: str, update) -> str:
        return page_cache.fresh_or_stale(
            "k", lambda: version, compute(version), refresh=0, update=update
        )

    assert serve("1", lambda stored: "never asked: nothing is stored") == "whole 1"
    assert serve("2", lambda stored: f"{stored} updated to 2") == "whole 1 updated to 2"
    assert serve("2", lambda stored: "never asked: it is current") == "whole 1 updated to 2"
    assert serve("3", lambda stored: None) == "whole 3"
    assert computed == ["1", "3"]


def test_a_match_page_draws_its_changed_parts_into_the_stored_page(
    client, site, renders, monkeypatch
):
    """A match's report, confirmation and rating draw their parts (the score and status, the
    games, the live view gone, the rating change) into the stored copy, never the page around
    them, and the replay only once: what a visitor gets equals the page drawn whole."""
    replays: list[int] = []  # the number of games of each drawing of the replay
    real = public.board_frames
    monkeypatch.setattr(public, "board_frames", lambda *a: replays.append(len(a[1])) or real(*a))
    match = site.match("Anna", "Boris")
    boris = site.players["Boris"]
    url = reverse("match", args=[match.pk])
    assert 'data-role="live-follow"' in client.get(url).content.decode()
    results.match_result_record(match=match, by=boris, games=site.recorded_games())
    reported = client.get(url).content.decode()
    assert renders == ["tournaments/match.html"]  # its parts: the games, no longer followed live
    assert 'id="board-frames"' in reported and 'data-role="live-follow"' not in reported

    match.refresh_from_db()
    anna = site.players["Anna"]
    results.match_result_confirm(match=match, by=anna)
    confirmed = client.get(url).content.decode()
    ledger.ratings_apply(match.pk)
    rated = client.get(url).content.decode()
    assert renders == ["tournaments/match.html"]  # the parts alone
    assert [games for games in replays if games] == [3]  # the replay: drawn at the report only
    assert 'data-role="ratings-progress"' in confirmed and 'data-rated="true"' in rated
    assert 'data-role="ratings-progress"' not in rated

    cache.clear()
    whole = client.get(url).content.decode()
    assert renders == ["tournaments/match.html"] * 2
    assert TOKEN.sub("", whole) == TOKEN.sub("", rated)
