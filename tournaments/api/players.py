"""Who players are, in the API, with the site's rules (``tournaments.policy``): claims, merges, a
pair renamed, the account link removed, the identity trail and a merge (staff) or a rename
undone; and a player's profile (gender, birth year)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema, error_responses
from tournaments.api.serializers import PlayerProfileSerializer, PlayerSerializer
from tournaments.models import Player
from tournaments.players import selectors, services
from tournaments.players.audit import identity_trail
from tournaments.players.models import IdentityAudit, PlayerClaim
from tournaments.players.services import PROFILE_FIELDS
from tournaments.policy import require


class ClaimSerializer(serializers.ModelSerializer[PlayerClaim]):
    player_id = serializers.IntegerField(source="player.pk", read_only=True)
    player = serializers.CharField(source="player.display_name", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = PlayerClaim
        fields = ["id", "player_id", "player", "username", "state", "created_at", "decided_at"]


class PlayerSnapshot(serializers.Serializer[Any]):
    """A player as it was (``tournaments.players.audit.player_snapshot``)."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    country = serializers.CharField(allow_blank=True)
    gender = serializers.CharField(
        allow_blank=True, required=False, help_text="Absent from rows older than the profile"
    )
    birth_year = serializers.IntegerField(
        allow_null=True, required=False, help_text="Absent from rows older than the profile"
    )
    region = serializers.CharField(
        allow_blank=True, required=False, help_text="Absent from rows older than the region"
    )
    sport_rank = serializers.CharField(
        allow_blank=True, required=False, help_text="Absent from rows older than the rank"
    )
    sport_rank_since = serializers.DateField(
        allow_null=True, required=False, help_text="Absent from rows older than the rank"
    )
    home_club = serializers.IntegerField(allow_null=True, help_text="The home club's id")
    home_club_name = serializers.CharField(allow_null=True)
    user = serializers.IntegerField(allow_null=True, help_text="The linked account's id")
    username = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)


class MergeMoved(serializers.Serializer[Any]):
    """What a merge moved from the duplicate to the player kept (ids)."""

    entries = serializers.ListField(child=serializers.IntegerField())
    signups = serializers.ListField(child=serializers.IntegerField())
    claims = serializers.ListField(child=serializers.IntegerField())


@extend_schema_field(
    {
        "type": "array",
        "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        "minItems": 2,
        "maxItems": 2,
        "description": "[id, tournament slug]",
    }
)
class RemovedEntryField(serializers.ListField):
    """An entry a deletion removed: its id and its tournament's slug (a tuple of mixed types)."""


class DeletionRemoved(serializers.Serializer[Any]):
    entries = serializers.ListField(
        child=RemovedEntryField(), help_text="The entries removed with the player"
    )


class IdentityBefore(serializers.Serializer[Any]):
    """``IdentityAudit.before`` (``tournaments.players.services``): the players as they were and
    what the change needs to be undone; which keys are there depends on the action."""

    player = PlayerSnapshot(help_text="The player changed; in a merge, the one kept")
    other = PlayerSnapshot(required=False, help_text="A merge's duplicate, as it was")
    moved = MergeMoved(required=False, help_text="A merge: what moved from the duplicate")
    name = serializers.CharField(
        required=False,
        help_text="A rename: the new name; its undoing: the name it had before the rename",
    )
    removed = DeletionRemoved(required=False, help_text="A deletion: what went with the player")


@extend_schema_field(IdentityBefore)
class IdentityBeforeField(serializers.JSONField):
    """``IdentityAudit.before`` as stored, passed on as it is."""


class IdentityAuditSerializer(serializers.ModelSerializer[IdentityAudit]):
    actor = serializers.CharField(source="actor.username", read_only=True, default=None)
    player_id = serializers.IntegerField(read_only=True, allow_null=True)
    claim_id = serializers.IntegerField(read_only=True, allow_null=True)
    undone_by = serializers.IntegerField(source="undone_by_id", read_only=True, allow_null=True)
    before = IdentityBeforeField(
        read_only=True,
        help_text="The players before the change (player; other, for a merge), and what the "
        "change needs to be undone",
    )

    class Meta:
        model = IdentityAudit
        fields = ["id", "action", "actor", "created_at", "player_id", "other_player_id",
                  "claim_id", "before", "note", "undone_by"]  # fmt: skip


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


class PlayerUnlink(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: PlayerSerializer}, summary="Unlink the account")
    def post(self, request: Request, pk: int) -> Response:
        player = services.player_unlink(player=get_object_or_404(Player, pk=pk), by=request.user)
        return Response(PlayerSerializer(player).data)


class PlayerProfile(APIView):
    """The player's profile (gender, birth year), which a tournament of a category asks for:
    personal, so read and changed only by the player, staff and the organizers of the player's
    home club (403 for anyone else)."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: PlayerProfileSerializer, **error_responses(403)},
        summary="A player's profile",
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        require(request.user, "profile.read", player)
        return Response(PlayerProfileSerializer(player).data)

    @extend_schema(
        request=PlayerProfileSerializer,
        responses={200: PlayerProfileSerializer},
        summary="Change a player's profile",
    )
    def patch(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        require(request.user, "profile.edit", player)  # before reading what was sent
        given = PlayerProfileSerializer(player, data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        values = {name: getattr(player, name) for name in PROFILE_FIELDS}
        values.update(given.validated_data)
        player = services.player_profile_update(player=player, by=request.user, **values)
        return Response(PlayerProfileSerializer(player).data)


class IdentityTrail(generics.ListAPIView[IdentityAudit]):
    """The identity changes the user may read, newest first: staff all, a club's owners and
    organizers those of its players (``?player=<id>``: of one player)."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]
    serializer_class = IdentityAuditSerializer

    def get_queryset(self) -> Any:
        given = self.request.query_params.get("player", "")
        player = Player.objects.filter(pk=int(given)).first() if given.isdigit() else None
        if given and player is None:
            return IdentityAudit.objects.none()
        return identity_trail(user=self.request.user, player=player)


class MergeUndo(APIView):
    """Undo a change of the identity trail: a merge (staff: the duplicate comes back) or a
    rename (who may rename the player: the old name comes back)."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: PlayerSerializer},
        summary="Undo a merge (staff) or a rename",
    )
    def post(self, request: Request, pk: int) -> Response:
        change = get_object_or_404(IdentityAudit, pk=pk)
        restored = services.identity_undo(change=change, by=request.user)
        return Response(PlayerSerializer(restored).data)


class RenameSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(
        max_length=Player._meta.get_field("display_name").max_length,
        help_text="The pair's new name: everyone sees it.",
    )


class PlayerRename(APIView):
    """Rename a pair: its owner (the owners and organizers of its home club) or staff; a player
    who is in no match yet: the owners and organizers of its home club too (a slip corrected);
    any player: staff. Written to the identity trail, where it can be undone
    (``identity/<id>/undo``). A tournament's organizer enters a pair under its name and never
    renames it."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=RenameSerializer,
        responses={200: PlayerSerializer, **error_responses(403, 409)},
        summary="Rename a pair, or a player who is in no match yet",
    )
    def post(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        given = RenameSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        player = services.player_rename(
            player=player, by=request.user, name=given.validated_data["name"]
        )
        return Response(PlayerSerializer(player).data)


class PlayerDelete(APIView):
    """Delete a mistaken player (a junk name, a slip): the owners and organizers of its home
    club, or staff, while the player is in no match (decided or not), in no pair and linked to
    no account (409 otherwise). Their entries, none with a match, go with them. Written to the
    identity trail (``identity/``), with the player as they were; a deletion is not undone."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None, **error_responses(403, 409)},
        summary="Delete a player who is in no match yet",
    )
    def post(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        services.player_delete(player=player, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
