from django.urls import path

from games.api import PositionPlaysView, RecordValidateView
from tournaments.api import views

SYSTEM_AND_VARIANT = "<str:system>/<str:variant>"

urlpatterns = [
    path("players/", views.PlayerList.as_view(), name="api-players"),
    path("players/<int:pk>/", views.PlayerDetail.as_view(), name="api-player"),
    path(
        f"players/<int:pk>/ratings/{SYSTEM_AND_VARIANT}/",
        views.RatingHistory.as_view(),
        name="api-rating-history",
    ),
    path("tournaments/", views.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", views.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/entries/", views.EntryList.as_view(), name="api-entries"),
    path("tournaments/<slug:slug>/rounds/", views.RoundList.as_view(), name="api-rounds"),
    path("tournaments/<slug:slug>/matches/", views.MatchList.as_view(), name="api-matches"),
    path("tournaments/<slug:slug>/standings/", views.Standings.as_view(), name="api-standings"),
    path("matches/<int:pk>/", views.MatchDetail.as_view(), name="api-match"),
    path("matches/<int:pk>/games/", views.GameList.as_view(), name="api-games"),
    path(f"ratings/{SYSTEM_AND_VARIANT}/", views.RatingList.as_view(), name="api-ratings"),
    path("records/validate", RecordValidateView.as_view(), name="api-records-validate"),
    path(
        "positions/<path:position_id>/plays",
        PositionPlaysView.as_view(),
        name="api-position-plays",
    ),
]
