"""Seasons in the API: a season with its table, the table as CSV, and the writes of the club's
organizers (create a season, count a tournament in it or take it out)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema, error_responses
from tournaments.api.serializers import Points, SeasonSerializer, TournamentFields
from tournaments.clubs.models import Club
from tournaments.models import Tournament
from tournaments.seasons import services
from tournaments.seasons.selectors import SeasonLine
from tournaments.seasons.table import EventPoints
from tournaments.web import seasons as views


class EventPointsSerializer(serializers.Serializer[EventPoints]):
    tournament = serializers.IntegerField(source="event", help_text="The tournament's id")
    place = serializers.IntegerField()
    wins = Points(help_text="Matches won, a draw counting half")
    points = Points()
    counted = serializers.BooleanField(help_text="False: outside the player's best N events")


class SeasonRowSerializer(serializers.Serializer[SeasonLine]):
    rank = serializers.IntegerField(source="row.rank")
    player_id = serializers.IntegerField(source="player.pk")
    player = serializers.CharField(source="player.display_name")
    points = Points(source="row.points", help_text="The counted points")
    all_points = Points(source="row.all_points")
    events_played = serializers.IntegerField(source="row.played")
    events = serializers.ListField(
        child=EventPointsSerializer(allow_null=True),
        source="row.events",
        help_text="One item per event of the season, in its order; null: not played",
    )
    running = serializers.ListField(
        child=Points(),
        source="row.running",
        help_text="The counted points after each event",
    )


class SeasonEventSerializer(TournamentFields):
    class Meta:
        model = Tournament
        fields = ["id", "slug", "name", "variant", "format", "status"]


SeasonTableOut = inline_serializer(
    "SeasonTable",
    {
        "season": SeasonSerializer(),
        "events": SeasonEventSerializer(many=True),
        "count": serializers.IntegerField(help_text="The table's lines in all"),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "table": SeasonRowSerializer(many=True, help_text="A page of the table's lines"),
    },
)


class TablePages(PageNumberPagination):
    """A season's table: ``SEASON_TABLE_PAGE`` lines a page, as on the site."""

    page_size = views.SEASON_TABLE_PAGE


class SeasonEventIn(serializers.Serializer[Any]):
    tournament = serializers.SlugField(max_length=200, help_text="The tournament's slug")


class SeasonDetail(APIView):
    schema = ApiSchema()

    @extend_schema(
        responses={200: SeasonTableOut, **error_responses(404)},
        summary="A season with its table, a page of lines at a time",
    )
    def get(self, request: Request, slug: str, season: str) -> Response:
        found = views.season_of(slug, season)
        table = views.season_table(found)
        paginator = TablePages()
        lines = paginator.paginate_queryset(table.lines, request, view=self) or []  # type: ignore[arg-type]
        page = paginator.get_paginated_response([]).data
        return Response(
            {
                "season": SeasonSerializer(found).data,
                "events": SeasonEventSerializer(table.events, many=True).data,
                "count": page["count"],
                "next": page["next"],
                "previous": page["previous"],
                "table": SeasonRowSerializer(lines, many=True).data,
            }
        )


class SeasonCsv(APIView):
    schema = ApiSchema()

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, summary="The table as CSV")
    def get(self, request: Request, slug: str, season: str) -> HttpResponse:
        return views.season_csv(request._request, slug, season)


class SeasonCreate(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=SeasonSerializer, responses={201: SeasonSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        given = SeasonSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        season = services.season_create(club=club, by=request.user, **given.validated_data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonEvents(APIView):
    """Count a tournament in the season (POST), or take it out (DELETE)."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=SeasonEventIn, responses={200: SeasonEventSerializer})
    def post(self, request: Request, slug: str, season: str) -> Response:
        found = views.season_of(slug, season)
        given = SeasonEventIn(data=request.data)
        given.is_valid(raise_exception=True)
        tournament = get_object_or_404(Tournament, slug=given.validated_data["tournament"])
        services.season_event_set(tournament=tournament, season=found, by=request.user)
        return Response(SeasonEventSerializer(tournament).data)


class SeasonEventRemove(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, slug: str, season: str, tournament: str) -> Response:
        found = views.season_of(slug, season)
        event = get_object_or_404(Tournament, slug=tournament, season=found)
        services.season_event_set(tournament=event, season=None, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
