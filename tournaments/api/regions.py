"""Standings by region and the regional medal table in the API: of an official event
(``tournaments/<slug>/regions/``), and of a season's finished official events
(``clubs/<slug>/seasons/<season>/regions/``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema, error_responses
from tournaments.api.views import visible_tournaments
from tournaments.medals import MedalRow
from tournaments.models import Tournament
from tournaments.seasons.selectors import (
    RegionLine,
    RegionStanding,
    RegionTable,
    event_regions,
    season_regions,
)
from tournaments.web.regions import region_label
from tournaments.web.seasons import season_of

REGION_HELP = 'The region\'s ISO 3166-2:RU code; "" for the players whose profile gives none'


class MedalRowSerializer(serializers.Serializer[MedalRow]):
    rank = serializers.IntegerField(help_text="Shared by regions level on golds, silvers, bronzes")
    region = serializers.CharField(allow_blank=True, help_text=REGION_HELP)
    region_name = serializers.SerializerMethodField(help_text="In the request's language")
    gold = serializers.IntegerField()
    silver = serializers.IntegerField()
    bronze = serializers.IntegerField()
    total = serializers.IntegerField()
    players = serializers.IntegerField(help_text="The region's players who finished")

    def get_region_name(self, row: MedalRow) -> str:
        return region_label(row.region)


class RegionLineSerializer(serializers.Serializer[RegionLine]):
    place = serializers.IntegerField()
    player_id = serializers.IntegerField(source="player.pk")
    player = serializers.CharField(source="player.display_name")


class RegionStandingSerializer(serializers.Serializer[RegionStanding]):
    region = serializers.CharField(allow_blank=True, help_text=REGION_HELP)
    region_name = serializers.SerializerMethodField(help_text="In the request's language")
    players = RegionLineSerializer(many=True, source="lines", help_text="Best place first")

    def get_region_name(self, group: RegionStanding) -> str:
        return region_label(group.region)


RegionTableOut = inline_serializer(
    "RegionTable",
    {
        "final": serializers.BooleanField(
            help_text="The places are final: the event is finished (false: the standings so "
            "far, and no medals yet)"
        ),
        "regions_counted": serializers.IntegerField(help_text='Regions represented ("" aside)'),
        "events": serializers.ListField(
            child=serializers.SlugField(), help_text="The slugs of the events counted"
        ),
        "medals": MedalRowSerializer(
            many=True,
            help_text="The medal table: by golds, then silvers, then bronzes; empty until the "
            "event finishes",
        ),
        "regions": RegionStandingSerializer(
            many=True, help_text="The standings grouped by region (an event; empty for a season)"
        ),
    },
)


def _answer(table: RegionTable) -> dict[str, Any]:
    return {
        "final": table.final,
        "regions_counted": table.regions_counted,
        "events": [event.slug for event in table.events],
        "medals": MedalRowSerializer(table.medals, many=True).data,
        "regions": RegionStandingSerializer(table.regions, many=True).data,
    }


class TournamentRegions(APIView):
    """An official event's standings by region and its medal table (404 for other events):
    they publish its players' regions, which entering an official event consents to."""

    schema = ApiSchema()

    @extend_schema(
        responses={200: RegionTableOut, **error_responses(404)},
        summary="An official event's standings by region and medal table",
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament: Tournament = get_object_or_404(visible_tournaments(request), slug=slug)
        if not tournament.official or tournament.status == Tournament.Status.DRAFT:
            raise Http404
        return Response(_answer(event_regions(tournament=tournament)))


class SeasonRegions(APIView):
    """The medal table of a season's finished official events, summed by region."""

    schema = ApiSchema()

    @extend_schema(
        responses={200: RegionTableOut, **error_responses(404)},
        summary="A season's medal table by region",
    )
    def get(self, request: Request, slug: str, season: str) -> Response:
        return Response(_answer(season_regions(season=season_of(slug, season))))
