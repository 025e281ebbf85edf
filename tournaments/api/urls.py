from django.urls import path, re_path, register_converter

from games.api import PositionPlaysView, RecordValidateView
from nardy_site.accounts.api import TokenList, TokenRevoke
from nardy_site.api_errors import not_found
from nardy_site.api_paths import ClosedSet
from tournaments.api import (
    actions,
    analysis,
    clubs,
    inbox,
    officials,
    players,
    regions,
    seasons,
    signups,
    stages,
    views,
)
from tournaments.api.live import (
    MatchLive,
    MatchLiveAside,
    MatchLiveClock,
    MatchLiveKit,
    MatchLiveSync,
    MatchLiveUndo,
    live_next,
)
from tournaments.models import Tournament


class RatingSystemPath(ClosedSet):
    choices = Tournament.RatingSystem.choices
    component = "RatingSystemEnum"


class DisciplinePath(ClosedSet):
    """A discipline: "long" and "short", the games' lists before the disciplines had lists of
    their own, are the disciplines of the same names, so the old addresses keep answering."""

    choices = Tournament.Discipline.choices
    component = "DisciplineEnum"


register_converter(RatingSystemPath, "rating_system")
register_converter(DisciplinePath, "discipline")

#: A rating list's path: an unknown system or discipline matches no route (404).
SYSTEM_AND_DISCIPLINE = "<rating_system:system>/<discipline:discipline>"

urlpatterns = [
    path("tokens/", TokenList.as_view(), name="api-tokens"),
    path("me/inbox", inbox.MyInbox.as_view(), name="api-my-inbox"),
    path("tokens/<int:pk>/", TokenRevoke.as_view(), name="api-token"),
    path("players/new", actions.PlayerCreate.as_view(), name="api-player-create"),
    path("tournaments/new", actions.TournamentCreate.as_view(), name="api-tournament-create"),
    path("tournaments/<slug:slug>/open-registration", actions.OpenRegistration.as_view()),
    path("tournaments/<slug:slug>/start", actions.Start.as_view(), name="api-start"),
    path("tournaments/<slug:slug>/pair", actions.PairNextRound.as_view(), name="api-pair"),
    path("tournaments/<slug:slug>/finish", actions.Finish.as_view(), name="api-finish"),
    path("tournaments/<slug:slug>/lots", actions.TournamentLots.as_view(), name="api-lots"),
    path("tournaments/<slug:slug>/stages/", stages.EventStages.as_view(), name="api-stages"),
    path("tournaments/<slug:slug>/stage-2", stages.StageTwo.as_view(), name="api-stage-two"),
    path(
        "tournaments/<slug:slug>/rating-approval",
        actions.RatingApproval.as_view(),
        name="api-rating-approval",
    ),
    path("tournaments/<slug:slug>/entries/new", actions.EntryRegister.as_view()),
    path("tournaments/<slug:slug>/entries/<int:pk>/", actions.EntryWithdraw.as_view()),
    path(
        "tournaments/<slug:slug>/entries/<int:pk>/remove",
        officials.EntryRemove.as_view(),
        name="api-entry-remove",
    ),
    path("tournaments/<slug:slug>/judges/", officials.JudgeList.as_view(), name="api-judges"),
    path("tournaments/<slug:slug>/judges/new", officials.JudgeAdd.as_view(), name="api-judge-add"),
    path(
        "tournaments/<slug:slug>/judges/<int:pk>/remove",
        officials.JudgeRemove.as_view(),
        name="api-judge-remove",
    ),
    path("sanctions/", officials.SanctionList.as_view(), name="api-sanctions"),
    path("sanctions/new", officials.SanctionCreate.as_view(), name="api-sanction-create"),
    path(
        "tournaments/<slug:slug>/entries/<int:pk>/check-in",
        signups.CheckIn.as_view(),
        name="api-check-in",
    ),
    path("tournaments/<slug:slug>/signups/", signups.SignUpLists.as_view(), name="api-signups"),
    path("tournaments/<slug:slug>/signups/new", signups.SignUpCreate.as_view()),
    path("tournaments/<slug:slug>/signups/<int:pk>/", signups.SignUpWithdraw.as_view()),
    path(
        "tournaments/<slug:slug>/signups/<int:pk>/approve",
        signups.SignUpApprove.as_view(),
        name="api-signup-approve",
    ),
    path("tournaments/<slug:slug>/signups/<int:pk>/decline", signups.SignUpDecline.as_view()),
    path("matches/<int:pk>/result", actions.ResultReport.as_view(), name="api-result"),
    path("matches/<int:pk>/live", MatchLive.as_view(), name="api-live"),
    path("matches/<int:pk>/live/undo", MatchLiveUndo.as_view(), name="api-live-undo"),
    path("matches/<int:pk>/live/sync", MatchLiveSync.as_view(), name="api-live-sync"),
    path("matches/<int:pk>/live/kit", MatchLiveKit.as_view(), name="api-live-kit"),
    path("matches/<int:pk>/live/aside", MatchLiveAside.as_view(), name="api-live-aside"),
    path("matches/<int:pk>/live/clock", MatchLiveClock.as_view(), name="api-live-clock"),
    path("matches/<int:pk>/live/next", live_next, name="api-live-next"),
    path("matches/<int:pk>/confirm", actions.ResultConfirm.as_view(), name="api-confirm"),
    path("matches/<int:pk>/dispute", actions.ResultDispute.as_view(), name="api-dispute"),
    path("matches/<int:pk>/resolve", actions.ResultResolve.as_view(), name="api-resolve"),
    path("matches/<int:pk>/correct", actions.ResultCorrect.as_view(), name="api-correct"),
    path("players/", views.PlayerList.as_view(), name="api-players"),
    path("players/<int:pk>/", views.PlayerDetail.as_view(), name="api-player"),
    path("players/<int:pk>/claim", players.ClaimCreate.as_view(), name="api-player-claim"),
    path("players/<int:pk>/merge", players.PlayerMerge.as_view(), name="api-player-merge"),
    path("players/<int:pk>/unlink", players.PlayerUnlink.as_view(), name="api-player-unlink"),
    path("players/<int:pk>/rename", players.PlayerRename.as_view(), name="api-player-rename"),
    path("players/<int:pk>/delete", players.PlayerDelete.as_view(), name="api-player-delete"),
    path("players/<int:pk>/profile", players.PlayerProfile.as_view(), name="api-player-profile"),
    path("identity/", players.IdentityTrail.as_view(), name="api-identity"),
    path("identity/<int:pk>/undo", players.MergeUndo.as_view(), name="api-identity-undo"),
    path("claims/", players.ClaimList.as_view(), name="api-claims"),
    path(
        "claims/<int:pk>/approve",
        players.ClaimDecision.as_view(decision="approve"),
        name="api-claim-approve",
    ),
    path("claims/<int:pk>/decline", players.ClaimDecision.as_view(decision="decline")),
    path(
        f"players/<int:pk>/ratings/{SYSTEM_AND_DISCIPLINE}/",
        views.RatingHistory.as_view(),
        name="api-rating-history",
    ),
    path("tournaments/", views.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", views.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/entries/", views.EntryList.as_view(), name="api-entries"),
    path("tournaments/<slug:slug>/rounds/", views.RoundList.as_view(), name="api-rounds"),
    path("tournaments/<slug:slug>/matches/", views.MatchList.as_view(), name="api-matches"),
    path("tournaments/<slug:slug>/standings/", views.Standings.as_view(), name="api-standings"),
    path(
        "tournaments/<slug:slug>/regions/",
        regions.TournamentRegions.as_view(),
        name="api-tournament-regions",
    ),
    path("tournaments/<slug:slug>/pr-table/", analysis.PrTable.as_view(), name="api-pr-table"),
    path(
        "tournaments/<slug:slug>/games.mat",
        views.TournamentRecordsExport.as_view(),
        name="api-games-mat",
    ),
    path(
        "tournaments/<slug:slug>/standings.csv",
        views.StandingsCsv.as_view(),
        name="api-standings-csv",
    ),
    path("tournaments/<slug:slug>/places.csv", views.PlacesCsv.as_view(), name="api-places-csv"),
    path("matches/<int:pk>/record.mat", views.MatchRecordExport.as_view(), name="api-match-mat"),
    path("matches/<int:pk>/", views.MatchDetail.as_view(), name="api-match"),
    path("matches/<int:pk>/games/", views.GameList.as_view(), name="api-games"),
    path("matches/<int:pk>/analysis", analysis.MatchAnalysisView.as_view(), name="api-analysis"),
    path(f"ratings/{SYSTEM_AND_DISCIPLINE}/", views.RatingList.as_view(), name="api-ratings"),
    path(f"ratings/{SYSTEM_AND_DISCIPLINE}/holds/", views.RatingHolds.as_view(), name="api-holds"),
    path("ratings/holds/<int:pk>/confirm", actions.RatingHoldConfirm.as_view(), name="api-hold"),
    path(
        f"ratings/{SYSTEM_AND_DISCIPLINE}/audit/",
        views.RatingAuditTrail.as_view(),
        name="api-rating-audit",
    ),
    path("clubs/", clubs.ClubList.as_view(), name="api-clubs"),
    path("clubs/new", clubs.ClubCreate.as_view(), name="api-club-create"),
    path("clubs/<slug:slug>/", clubs.ClubDetail.as_view(), name="api-club"),
    path(
        f"clubs/<slug:slug>/ratings/{SYSTEM_AND_DISCIPLINE}/",
        clubs.ClubRatings.as_view(),
        name="api-club-ratings",
    ),
    path("clubs/<slug:slug>/members/", clubs.ClubMembers.as_view(), name="api-club-members"),
    path("clubs/<slug:slug>/members/new", clubs.MemberAdd.as_view(), name="api-member-add"),
    path(
        "clubs/<slug:slug>/members/<int:user_id>/",
        clubs.MemberRemove.as_view(),
        name="api-member",
    ),
    path("clubs/<slug:slug>/seasons/new", seasons.SeasonCreate.as_view(), name="api-season-create"),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/",
        seasons.SeasonDetail.as_view(),
        name="api-season",
    ),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/regions/",
        regions.SeasonRegions.as_view(),
        name="api-season-regions",
    ),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/table.csv",
        seasons.SeasonCsv.as_view(),
        name="api-season-csv",
    ),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/events/new",
        seasons.SeasonEvents.as_view(),
        name="api-season-events",
    ),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/events/<slug:tournament>/",
        seasons.SeasonEventRemove.as_view(),
        name="api-season-event",
    ),
    path("records/validate", RecordValidateView.as_view(), name="api-records-validate"),
    path(
        "positions/<path:position_id>/plays",
        PositionPlaysView.as_view(),
        name="api-position-plays",
    ),
    # Last: any other path here is a 404 in the API's error shape, not Django's HTML page.
    re_path(r"", not_found),
]
