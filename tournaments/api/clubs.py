"""The clubs in the API: read a club (members, seasons, tournaments), create one, and manage
its members. Who may do what is the services' decision, as on the site."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema
from tournaments.api.rating_pages import (
    RATING_PAGE_PARAMETERS,
    RATING_PAGE_RESPONSES,
    rating_page,
)
from tournaments.api.serializers import SeasonSerializer, TournamentFields
from tournaments.clubs import selectors, services
from tournaments.clubs.models import Club, Membership
from tournaments.clubs.selectors import (
    CLUB_MEMBERS_PAGE,
    CLUB_MEMBERS_SHOWN,
    CLUB_RECENT_FINISHED,
)
from tournaments.models import Tournament
from tournaments.policy import may
from tournaments.ratings.selectors import list_ratings


class MembershipSerializer(serializers.ModelSerializer[Membership]):
    user_id = serializers.IntegerField(source="user.pk", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["user_id", "username", "role", "joined_at"]


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "country", "description", "created_at"]
        read_only_fields = ["id", "slug", "created_at"]
        # The service checks the unique name and says so in the one error shape.
        extra_kwargs = {"name": {"validators": []}}


class ClubTournamentSerializer(TournamentFields):
    season = serializers.IntegerField(source="season_id", allow_null=True)
    entry_count = serializers.IntegerField()

    class Meta:
        model = Tournament
        fields = [
            "id", "slug", "name", "variant", "discipline", "format", "status", "season",
            "entry_count",
        ]  # fmt: skip


class ClubTournamentsSerializer(serializers.Serializer[Any]):
    upcoming = ClubTournamentSerializer(many=True, help_text="Not started yet")
    running = ClubTournamentSerializer(many=True)
    finished = ClubTournamentSerializer(
        many=True, help_text=f"The newest, at most {CLUB_RECENT_FINISHED}"
    )


class ClubDetailSerializer(ClubSerializer):
    members = MembershipSerializer(
        many=True,
        read_only=True,
        help_text=f"owners, then organizers, then members, by name: the first "
        f"{CLUB_MEMBERS_SHOWN} (every one: clubs/<slug>/members/, a page at a time)",
    )
    member_count = serializers.IntegerField(read_only=True)
    seasons = SeasonSerializer(many=True, read_only=True)
    tournaments = ClubTournamentsSerializer(
        read_only=True,
        help_text="Each group newest first (every one of the club's tournaments: "
        "tournaments/?club__slug=<slug>)",
    )

    class Meta(ClubSerializer.Meta):
        fields = [*ClubSerializer.Meta.fields, "members", "member_count", "seasons", "tournaments"]


class MemberIn(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices, default="member")


class ClubList(generics.ListAPIView[Club]):
    schema = ApiSchema()
    serializer_class = ClubSerializer
    queryset = Club.objects.all()


class ClubDetail(APIView):
    schema = ApiSchema()

    @extend_schema(responses=ClubDetailSerializer, summary="A club: members, seasons, events")
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        data: dict[str, Any] = dict(ClubSerializer(club).data)
        members = selectors.club_members(club=club)[:CLUB_MEMBERS_SHOWN]
        data["members"] = MembershipSerializer(members, many=True).data
        data["member_count"] = club.memberships.count()
        data["seasons"] = SeasonSerializer(club.seasons.all(), many=True).data
        groups = selectors.club_tournaments(
            club=club, drafts=may(request.user, "club.events", club)
        )
        data["tournaments"] = {
            name: ClubTournamentSerializer(rows, many=True).data
            for name, rows in (
                ("upcoming", groups.upcoming),
                ("running", groups.running),
                ("finished", groups.finished),
            )
        }
        return Response(data)


class MemberPages(PageNumberPagination):
    page_size = CLUB_MEMBERS_PAGE


class ClubMembers(generics.ListAPIView[Membership]):
    """A club's members, owners first, a page at a time."""

    schema = ApiSchema()
    serializer_class = MembershipSerializer
    pagination_class = MemberPages
    queryset = Membership.objects.none()  # the schema's model; a request's club: get_queryset

    def get_queryset(self) -> QuerySet[Membership]:
        club = get_object_or_404(Club, slug=self.kwargs["slug"])
        return selectors.club_members(club=club)


class ClubRatings(APIView):
    schema = ApiSchema()

    @extend_schema(
        responses=RATING_PAGE_RESPONSES,
        parameters=RATING_PAGE_PARAMETERS,
        summary="The club's players in a rating list, ranked within the club, a page at a time",
    )
    def get(self, request: Request, slug: str, system: str, discipline: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        among = selectors.club_players(club=club)
        ratings = list_ratings(system=system, discipline=discipline, among=among)
        return Response(rating_page(request, self, ratings))


class ClubCreate(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ClubSerializer, responses={201: ClubSerializer})
    def post(self, request: Request) -> Response:
        given = ClubSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        club = services.club_create(by=request.user, **given.validated_data)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class MemberAdd(APIView):
    """Add a member or change a member's role: organizers add members, owners any role."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=MemberIn, responses={201: MembershipSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        given = MemberIn(data=request.data)
        given.is_valid(raise_exception=True)
        membership = services.member_add(club=club, by=request.user, **given.validated_data)
        return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)


class MemberRemove(APIView):
    """Remove a member (a member may leave; the last owner stays)."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, slug: str, user_id: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        services.member_remove(club=club, by=request.user, user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
