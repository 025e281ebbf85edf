"""Official events in the API: the panel of judges (named and removed by the organizers), an
entry removed with its reason (the chief judge's in an official event), and the register of
disqualifications (staff's)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema, error_responses
from tournaments.api.serializers import EntrySerializer
from tournaments.api.views import visible_tournaments
from tournaments.models import Entry, Player, Tournament
from tournaments.officials import selectors, services
from tournaments.officials.models import Judge, Sanction
from tournaments.policy import require


class JudgeSerializer(serializers.ModelSerializer[Judge]):
    user = serializers.CharField(source="user.username", help_text="The judge's username")
    name = serializers.SerializerMethodField(
        help_text="How the pages name the judge: their player's name, else their full name or "
        "username"
    )

    class Meta:
        model = Judge
        fields = ["id", "user", "name", "role", "added_at"]
        extra_kwargs = {
            "role": {"help_text": '"chief" (one a panel), "secretary" or "judge"'},
        }

    def get_name(self, judge: Judge) -> str:
        return selectors.judge_name(judge.user)


class JudgeIn(serializers.Serializer[Any]):
    user = serializers.CharField(max_length=150, help_text="The judge's username on the site")
    role = serializers.ChoiceField(choices=Judge.Role.values)


class RemovalIn(serializers.Serializer[Any]):
    reason = serializers.CharField(
        max_length=1000, help_text="Why the player is removed: the lists show it"
    )


class SanctionSerializer(serializers.ModelSerializer[Sanction]):
    player_id = serializers.PrimaryKeyRelatedField(
        source="player", queryset=Player.objects.all(), help_text="The disqualified player"
    )
    player = serializers.CharField(source="player.display_name", read_only=True)
    recorded_by = serializers.CharField(
        source="recorded_by.username", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = Sanction
        fields = ["id", "player_id", "player", "reason", "starts_on", "ends_on", "recorded_by",
                  "recorded_at"]  # fmt: skip
        read_only_fields = ["id", "recorded_at"]
        extra_kwargs = {"ends_on": {"help_text": "The last day; null: without end"}}


class TournamentPart(APIView):
    schema = ApiSchema()

    def tournament(self, slug: str) -> Tournament:
        return get_object_or_404(visible_tournaments(self.request), slug=slug)


class JudgeList(TournamentPart):
    @extend_schema(
        responses=JudgeSerializer(many=True),
        summary="The panel of judges",
        description="An official event's judges, the chief judge first (a stage: its event's).",
    )
    def get(self, request: Request, slug: str) -> Response:
        panel = selectors.judges(tournament=self.tournament(slug))
        return Response(JudgeSerializer(panel, many=True).data)


class JudgeAdd(TournamentPart):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=JudgeIn,
        responses={201: JudgeSerializer},
        summary="Name a judge",
        description="The organizers name a site account to an official event's panel: one "
        "chief judge; nobody who plays in the event.",
    )
    def post(self, request: Request, slug: str) -> Response:
        given = JudgeIn(data=request.data)
        given.is_valid(raise_exception=True)
        judge = services.judge_add(
            tournament=self.tournament(slug),
            username=given.validated_data["user"],
            role=given.validated_data["role"],
            by=request.user,
        )
        return Response(JudgeSerializer(judge).data, status=status.HTTP_201_CREATED)


class JudgeRemove(TournamentPart):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, summary="Take a judge off the panel")
    def post(self, request: Request, slug: str, pk: int) -> Response:
        judge = get_object_or_404(Judge, tournament=self.tournament(slug), pk=pk)
        services.judge_remove(judge=judge, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryRemove(TournamentPart):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=RemovalIn,
        responses={200: EntrySerializer, **error_responses(422)},
        summary="Remove a player, with the reason",
        description="The chief judge of an official event (the organizers of another) removes "
        "a player from the running event: not a withdrawal. The player is not paired again; "
        "their matches still to play are lost by forfeit.",
    )
    def post(self, request: Request, slug: str, pk: int) -> Response:
        given = RemovalIn(data=request.data)
        given.is_valid(raise_exception=True)
        entry = get_object_or_404(Entry, tournament=self.tournament(slug), pk=pk)
        entry = services.entry_remove(
            entry=entry, by=request.user, reason=given.validated_data["reason"]
        )
        return Response(EntrySerializer(entry).data)


class SanctionList(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: SanctionSerializer(many=True), **error_responses(403)},
        summary="The register of disqualifications (staff)",
    )
    def get(self, request: Request) -> Response:
        require(request.user, "sanction.record")  # the register is staff's to read too
        return Response(SanctionSerializer(selectors.sanctions()[:500], many=True).data)


class SanctionCreate(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SanctionSerializer,
        responses={201: SanctionSerializer},
        summary="Record a disqualification (staff)",
        description="The player may not be entered in an official event from starts_on until "
        "ends_on (null: without end).",
    )
    def post(self, request: Request) -> Response:
        given = SanctionSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        sanction = services.sanction_record(
            player=data["player"],
            reason=data["reason"],
            starts_on=data["starts_on"],
            ends_on=data.get("ends_on"),
            by=request.user,
        )
        return Response(SanctionSerializer(sanction).data, status=status.HTTP_201_CREATED)
