"""Thin API views: read through selectors, write through services (``tournaments.services`` and
``tournaments.results``); errors take the one shape of ``nardy_site.api_errors``."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game
from tournaments.api.serializers import (
    EntrySerializer,
    GameSerializer,
    MatchSerializer,
    PlayerSerializer,
    RatingChangeSerializer,
    RatingRowSerializer,
    RoundSerializer,
    StandingSerializer,
    TournamentSerializer,
)
from tournaments.models import Entry, Match, Player, RatingChange, Round, Tournament
from tournaments.selectors import player_rating_history, rating_list, tournament_standings


def visible_tournaments(request: Request) -> QuerySet[Tournament]:
    """Everyone sees tournaments past their draft; organizers (and staff) see their drafts."""
    tournaments = Tournament.objects.select_related("organizer")
    user = request.user
    if user.is_authenticated and user.is_staff:
        return tournaments
    if user.is_authenticated:
        mine = Q(organizer=user) | Q(co_organizers=user)
        return tournaments.filter(~Q(status=Tournament.Status.DRAFT) | mine).distinct()
    return tournaments.exclude(status=Tournament.Status.DRAFT)


def with_etag(request: Request, data: Any) -> Response:
    """The response with a strong ETag of its content; 304 when the client has it already."""
    body = json.dumps(data, sort_keys=True, default=str).encode()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = Response(status=304)
    else:
        response = Response(data)
    response["ETag"] = etag
    return response


class PlayerList(generics.ListAPIView[Player]):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    filterset_fields = ["club", "country"]
    ordering_fields = ["display_name", "created_at"]
    ordering = ["display_name"]


class PlayerDetail(generics.RetrieveAPIView[Player]):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer


class TournamentList(generics.ListAPIView[Tournament]):
    serializer_class = TournamentSerializer
    filterset_fields = ["variant", "format", "status"]
    ordering_fields = ["created_at", "name"]
    ordering = ["-created_at"]

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request)


class TournamentDetail(generics.RetrieveAPIView[Tournament]):
    serializer_class = TournamentSerializer
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request)


class TournamentPart(generics.ListAPIView[Any]):
    """A list under ``/tournaments/<slug>/``: only of a tournament the user may see."""

    def tournament(self) -> Tournament | None:
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no URL
            return None
        return get_object_or_404(visible_tournaments(self.request), slug=self.kwargs["slug"])


class EntryList(TournamentPart):
    serializer_class = EntrySerializer
    filterset_fields = ["withdrawn", "late_entry"]
    ordering_fields = ["seed"]
    ordering = ["seed"]

    def get_queryset(self) -> QuerySet[Entry]:
        return Entry.objects.filter(tournament=self.tournament()).select_related("player")


class RoundList(TournamentPart):
    serializer_class = RoundSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Round]:
        return Round.objects.filter(tournament=self.tournament()).order_by("number")


class MatchList(TournamentPart):
    serializer_class = MatchSerializer
    filterset_fields = ["status", "bracket"]
    ordering_fields = ["id", "decided_at"]
    ordering = ["id"]

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.filter(tournament=self.tournament()).select_related(
            "round", "home__player", "away__player"
        )


class MatchDetail(generics.RetrieveAPIView[Match]):
    serializer_class = MatchSerializer

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.filter(
            tournament__in=visible_tournaments(self.request)
        ).select_related("round", "home__player", "away__player")


class GameList(generics.ListAPIView[Game]):
    serializer_class = GameSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Game]:
        if getattr(self, "swagger_fake_view", False):
            return Game.objects.none()
        match = get_object_or_404(
            Match.objects.filter(tournament__in=visible_tournaments(self.request)),
            pk=self.kwargs["pk"],
        )
        return Game.objects.filter(match=match).order_by("number")


class Standings(APIView):
    @extend_schema(responses=StandingSerializer(many=True), summary="Standings, with an ETag")
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(visible_tournaments(request), slug=slug)
        rows = tournament_standings(tournament=tournament)
        return with_etag(request, StandingSerializer(rows, many=True).data)


class RatingList(APIView):
    @extend_schema(responses=RatingRowSerializer(many=True), summary="A rating list, with an ETag")
    def get(self, request: Request, system: str, variant: str) -> Response:
        rows = rating_list(system=system, variant=variant)
        return with_etag(request, RatingRowSerializer(rows, many=True).data)


class RatingHistory(generics.ListAPIView[RatingChange]):
    serializer_class = RatingChangeSerializer

    def get_queryset(self) -> QuerySet[RatingChange]:
        if getattr(self, "swagger_fake_view", False):
            return RatingChange.objects.none()
        player = get_object_or_404(Player, pk=self.kwargs["pk"])
        return player_rating_history(
            player=player, system=self.kwargs["system"], variant=self.kwargs["variant"]
        )
