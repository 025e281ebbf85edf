"""Two-stage events in the API: the stages of an event with who goes on, and the organizer's
build (POST) and reset (DELETE) of stage 2. Each stage is a tournament: its standings, matches,
bracket and CSV are at its own ``tournaments/<slug>/`` endpoints."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema
from tournaments.api.serializers import TournamentFields, TournamentSerializer
from tournaments.api.views import visible_tournaments
from tournaments.models import Tournament
from tournaments.stages import services
from tournaments.stages.selectors import Qualifier, event_stages


class StageSerializer(TournamentFields):
    class Meta:
        model = Tournament
        fields = ["id", "slug", "name", "stage", "group", "format", "status"]


class QualifierSerializer(serializers.Serializer[Qualifier]):
    seed = serializers.IntegerField()
    player_id = serializers.IntegerField(source="player.pk")
    player = serializers.CharField(source="player.display_name")
    group = serializers.CharField(help_text="The stage-1 group (empty after a Swiss)")
    place = serializers.IntegerField(help_text="The place in the group or the Swiss")


StagesOut = inline_serializer(
    "EventStages",
    {
        "stages": StageSerializer(many=True),
        "first_stage_complete": serializers.BooleanField(),
        "qualifiers": QualifierSerializer(many=True, help_text="By bracket seed"),
    },
)


class EventStages(APIView):
    schema = ApiSchema()

    @extend_schema(responses=StagesOut, summary="The stages of a two-stage event")
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(visible_tournaments(request), slug=slug)
        found = event_stages(event=event)
        if found is None:
            return Response({"stages": [], "first_stage_complete": False, "qualifiers": []})
        stages = [stage for stage, _ in found.first] + ([found.second] if found.second else [])
        return Response(
            {
                "stages": StageSerializer(stages, many=True).data,
                "first_stage_complete": found.complete,
                "qualifiers": QualifierSerializer(found.qualifiers, many=True).data,
            }
        )


class StageTwo(APIView):
    """Build stage 2 from stage 1's standings (POST), or reset it (DELETE)."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    def event(self, slug: str) -> Tournament:
        return get_object_or_404(visible_tournaments(self.request), slug=slug)

    @extend_schema(request=None, responses={201: TournamentSerializer}, summary="Build stage 2")
    def post(self, request: Request, slug: str) -> Response:
        stage = services.stage_two_build(event=self.event(slug), by=request.user)
        return Response(TournamentSerializer(stage).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None}, summary="Reset stage 2")
    def delete(self, request: Request, slug: str) -> Response:
        services.stage_two_reset(event=self.event(slug), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
