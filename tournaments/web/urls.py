"""The site's pages. Public pages read (``read``: a post to them is refused, 405); the
organizer's and players' pages write through the services, which ask ``tournaments.policy``
who may do what."""

from django.urls import path
from django.views.decorators.http import require_safe as read
from django.views.generic import RedirectView

from tournaments.web import (
    analysis,
    clubs,
    inbox,
    officials,
    organize,
    players,
    protocol,
    public,
    regions,
    results,
    seasons,
    signups,
)
from tournaments.web.live import (
    match_record_page,
    offline_code,
    recorder_service_worker,
    web_manifest,
)

urlpatterns = [
    path("", read(public.tournament_list_page), name="home"),
    # The list is the home page; /tournaments/ is where people look for it.
    path(
        "tournaments/",
        RedirectView.as_view(
            pattern_name="home", query_string=True, http_method_names=["get", "head"]
        ),
        name="tournament-list",
    ),  # fmt: skip
    path("tournaments/new/", organize.tournament_create_page, name="tournament-create"),
    path("t/<slug:slug>/", read(public.tournament_page), name="tournament"),
    path("t/<slug:slug>/rounds/", read(public.tournament_rounds_page), name="tournament-rounds"),
    path(
        "t/<slug:slug>/standings/",
        read(public.tournament_standings_page),
        name="tournament-standings",
    ),
    path("t/<slug:slug>/bracket/", read(public.tournament_bracket_page), name="tournament-bracket"),
    path(
        "t/<slug:slug>/regions/",
        read(regions.tournament_regions_page),
        name="tournament-regions",
    ),
    path("t/<slug:slug>/print/", read(public.tournament_print_page), name="tournament-print"),
    path("t/<slug:slug>/protocol/", read(protocol.protocol_page), name="tournament-protocol"),
    path(
        "t/<slug:slug>/protocol.pdf",
        read(protocol.protocol_pdf_file),
        name="tournament-protocol-pdf",
    ),
    path(
        "t/<slug:slug>/protocol.xlsx",
        read(protocol.protocol_xlsx_file),
        name="tournament-protocol-xlsx",
    ),
    path("t/<slug:slug>/norms/", read(protocol.tournament_norms_page), name="tournament-norms"),
    path("norms/", read(protocol.norms_page), name="norms"),
    path("t/<slug:slug>/edit/", organize.tournament_edit_page, name="tournament-edit"),
    path("t/<slug:slug>/players/", organize.tournament_players_page, name="tournament-players"),
    path("t/<slug:slug>/judges/", officials.tournament_judges_page, name="tournament-judges"),
    path("t/<slug:slug>/step/<str:step>/", organize.tournament_step, name="tournament-step"),
    path("t/<slug:slug>/signup/", signups.signup_page, name="tournament-signup"),
    path("t/<slug:slug>/pr/", read(analysis.pr_table_page), name="tournament-pr"),
    path(
        "t/<slug:slug>/ratings-status/",
        read(results.ratings_status),
        name="tournament-ratings-status",
    ),
    path("m/<int:pk>/", read(public.match_page), name="match"),
    path("m/<int:pk>/record/", read(match_record_page), name="match-record"),
    # What the recorder keeps for recording with no network (tournaments.web.live).
    path("offline/board-<str:digest>.zip", offline_code, name="offline-code"),
    path("recorder-sw.js", recorder_service_worker, name="recorder-sw"),
    path("manifest.webmanifest", web_manifest, name="web-manifest"),
    path("m/<int:pk>/report/", results.match_report_page, name="match-report"),
    path("m/<int:pk>/answer/", results.match_answer, name="match-answer"),
    path("m/<int:pk>/resolve/", results.match_resolve_page, name="match-resolve"),
    path("m/<int:pk>/correct/", results.match_correct_page, name="match-correct"),
    path("players/", read(public.player_search_page), name="player-search"),
    path("p/<int:pk>/", read(public.player_page), name="player"),
    path("p/<int:pk>/claim/", players.player_claim, name="player-claim"),
    path("p/<int:pk>/merge/", players.merge_page, name="player-merge"),
    path("p/<int:pk>/unlink/", players.player_unlink, name="player-unlink"),
    path("p/<int:pk>/rename/", players.rename_page, name="player-rename"),
    path("p/<int:pk>/delete/", players.delete_page, name="player-delete"),
    path("p/<int:pk>/profile/", players.profile_page, name="player-profile"),
    path("claims/", players.claims_page, name="player-claims"),
    path("identity/", players.identity_page, name="identity-trail"),
    path("ratings/<str:discipline>/", read(public.rating_list_address), name="rating-list"),
    path("me/matches/", read(organize.my_matches_page), name="my-matches"),
    path("me/inbox/", read(inbox.inbox_page), name="my-inbox"),
    path("clubs/", read(clubs.club_list_page), name="club-list"),
    path("clubs/new/", clubs.club_create_page, name="club-create"),
    path("c/<slug:slug>/", read(clubs.club_page), name="club"),
    path("c/<slug:slug>/edit/", clubs.club_edit_page, name="club-edit"),
    path("c/<slug:slug>/members/", clubs.club_members_page, name="club-members"),
    path("c/<slug:slug>/seasons/new/", seasons.season_create_page, name="season-create"),
    path("c/<slug:slug>/s/<slug:season>/", read(seasons.season_page), name="season"),
    path("c/<slug:slug>/s/<slug:season>/edit/", seasons.season_edit_page, name="season-edit"),
    path(
        "c/<slug:slug>/s/<slug:season>/regions/",
        read(regions.season_regions_page),
        name="season-regions",
    ),
    path("c/<slug:slug>/s/<slug:season>/table.csv", read(seasons.season_csv), name="season-csv"),
]
