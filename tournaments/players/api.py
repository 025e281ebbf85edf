"""Claims and merges in the API, with the site's rules."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema
from tournaments.api.serializers import PlayerSerializer
from tournaments.models import Player
from tournaments.players import selectors, services
from tournaments.players.models import PlayerClaim


class ClaimSerializer(serializers.ModelSerializer[PlayerClaim]):
    player_id = serializers.IntegerField(source="player.pk", read_only=True)
    player = serializers.CharField(source="player.display_name", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = PlayerClaim
        fields = ["id", "player_id", "player", "username", "state", "created_at", "decided_at"]


class MergeIn(serializers.Serializer[Any]):
    duplicate = serializers.IntegerField(help_text="The id of the player folded into this one")


class ClaimList(generics.ListAPIView[PlayerClaim]):
    """The pending claims the user may decide."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]
    serializer_class = ClaimSerializer

    def get_queryset(self) -> Any:
        return selectors.claims_to_decide(user=self.request.user).order_by("created_at", "pk")


class ClaimCreate(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: ClaimSerializer}, summary="This player is me")
    def post(self, request: Request, pk: int) -> Response:
        claim = services.claim_request(player=get_object_or_404(Player, pk=pk), by=request.user)
        return Response(ClaimSerializer(claim).data, status=status.HTTP_201_CREATED)


class ClaimDecision(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]
    decision = ""

    @extend_schema(request=None, responses={200: ClaimSerializer})
    def post(self, request: Request, pk: int) -> Response:
        claim = get_object_or_404(PlayerClaim, pk=pk)
        decide = services.claim_approve if self.decision == "approve" else services.claim_decline
        return Response(ClaimSerializer(decide(claim=claim, by=request.user)).data)


class PlayerMerge(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=MergeIn, responses={200: PlayerSerializer}, summary="Merge a duplicate")
    def post(self, request: Request, pk: int) -> Response:
        keep = get_object_or_404(Player, pk=pk)
        given = MergeIn(data=request.data)
        given.is_valid(raise_exception=True)
        drop = get_object_or_404(Player, pk=given.validated_data["duplicate"])
        kept = services.players_merge(keep=keep, drop=drop, by=request.user)
        return Response(PlayerSerializer(kept).data)
