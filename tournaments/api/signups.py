"""Sign-up and check-in in the API, with the site's rules: a signed-in player signs up, withdraws
and checks in; the organizers approve, decline and check players in (or undo it)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema
from tournaments.api.views import visible_tournaments
from tournaments.eligibility import BIRTH_YEAR_EARLIEST
from tournaments.models import Entry, Player, Tournament
from tournaments.policy import may
from tournaments.signups import selectors, services
from tournaments.signups.models import SignUp


class SignUpSerializer(serializers.ModelSerializer[SignUp]):
    tournament = serializers.CharField(source="tournament.slug", read_only=True)
    player_id = serializers.IntegerField(source="player.pk", read_only=True)
    player = serializers.CharField(source="player.display_name", read_only=True)
    entry_id = serializers.IntegerField(source="entry.pk", read_only=True, allow_null=True)

    class Meta:
        model = SignUp
        fields = ["id", "tournament", "player_id", "player", "state", "entry_id", "created_at",
                  "decided_at"]  # fmt: skip


class EntrantSerializer(serializers.ModelSerializer[Entry]):
    entry_id = serializers.IntegerField(source="pk")
    player_id = serializers.IntegerField(source="player.pk")
    player = serializers.CharField(source="player.display_name")

    class Meta:
        model = Entry
        fields = ["entry_id", "player_id", "player", "checked_in_at"]


SignUpListsOut = inline_serializer(
    "SignUpLists",
    {
        "open": serializers.BooleanField(help_text="Players may sign up now"),
        "capacity": serializers.IntegerField(allow_null=True),
        "starts_at": serializers.DateTimeField(allow_null=True),
        "checkin_opens_at": serializers.DateTimeField(allow_null=True),
        "category": serializers.ChoiceField(
            choices=Tournament.Category.values, help_text='"men", "women" or "" (open)'
        ),
        "min_age": serializers.IntegerField(allow_null=True, help_text="null: any age"),
        "max_age": serializers.IntegerField(
            allow_null=True, help_text="null: any age; under 18, a youth event (boys and girls)"
        ),
        "age_group": serializers.CharField(
            allow_null=True,
            help_text='The ages that may play in words ("9–11, admitted from 7"); null: any',
        ),
        "official": serializers.BooleanField(help_text="An official event"),
        "publishes": serializers.CharField(
            allow_blank=True,
            help_text="An official event's terms of entry: its protocol and its standings by "
            'region publish each player\'s birth year, region and rank ("" for other events)',
        ),
        "age_year": serializers.IntegerField(
            help_text="The calendar year a player's age is counted in: the year of starts_at, "
            "else this year"
        ),
        "entered": EntrantSerializer(many=True),
        "waiting": SignUpSerializer(many=True, help_text="The waiting list, in order"),
        "pending": SignUpSerializer(many=True, help_text="For the organizers only"),
    },
)


class SignUpIn(serializers.Serializer[Any]):
    display_name = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="The name to play under: needed when the user has no player yet (the sign-up "
        "is refused without it), ignored otherwise",
    )
    gender = serializers.ChoiceField(
        choices=["", *Player.Gender.values],
        required=False,
        default="",
        help_text="For a new player's profile, when the user has no player yet (a player the "
        "user has keeps theirs: players/<id>/profile). A tournament for men or for women asks "
        "for it",
    )
    birth_year = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=BIRTH_YEAR_EARLIEST,
        help_text="For a new player's profile, as gender. A tournament with a minimum age asks "
        "for it",
    )


#: What signing up to an official event agrees to (its page says the same).
OFFICIAL_TERMS = gettext_lazy(
    "An official event publishes the birth year, the region and the sport rank of each of its "
    "players in its protocol and its standings by region. Signing up, you agree to have yours "
    "published."
)


class TournamentPart(APIView):
    schema = ApiSchema()

    def tournament(self, slug: str) -> Tournament:
        return get_object_or_404(visible_tournaments(self.request), slug=slug)


class SignUpLists(TournamentPart):
    @extend_schema(responses=SignUpListsOut, summary="Who is in, who waits, the check-in")
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        lists = selectors.signup_lists(tournament=tournament)
        return Response(
            {
                "open": tournament.takes_signups,
                "capacity": tournament.capacity,
                "starts_at": tournament.starts_at,
                "checkin_opens_at": tournament.checkin_opens_at(),
                "category": tournament.category,
                "min_age": tournament.min_age,
                "max_age": tournament.max_age,
                "age_group": tournament.age_group_text(),
                "official": tournament.official,
                "publishes": str(OFFICIAL_TERMS) if tournament.official else "",
                "age_year": tournament.age_year(),
                "entered": EntrantSerializer(lists.entered, many=True).data,
                "waiting": SignUpSerializer(lists.waiting, many=True).data,
                "pending": SignUpSerializer(
                    lists.pending if may(request.user, "tournament.run", tournament) else [],
                    many=True,
                ).data,
            }
        )


class SignUpCreate(TournamentPart):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=SignUpIn, responses={201: SignUpSerializer}, summary="Sign up")
    def post(self, request: Request, slug: str) -> Response:
        given = SignUpIn(data=request.data)
        given.is_valid(raise_exception=True)
        signup = services.signup_request(
            tournament=self.tournament(slug), by=request.user, **given.validated_data
        )
        return Response(SignUpSerializer(signup).data, status=status.HTTP_201_CREATED)


class SignUpPart(TournamentPart):
    permission_classes = [IsAuthenticated]

    def signup(self, slug: str, pk: int) -> SignUp:
        return get_object_or_404(SignUp, tournament=self.tournament(slug), pk=pk)


class SignUpWithdraw(SignUpPart):
    @extend_schema(request=None, responses={200: SignUpSerializer}, summary="Withdraw it")
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        signup = services.signup_withdraw(signup=self.signup(slug, pk), by=request.user)
        return Response(SignUpSerializer(signup).data)


class SignUpApprove(SignUpPart):
    @extend_schema(request=None, responses={200: SignUpSerializer}, summary="Approve it")
    def post(self, request: Request, slug: str, pk: int) -> Response:
        signup = services.signup_approve(signup=self.signup(slug, pk), by=request.user)
        return Response(SignUpSerializer(signup).data)


class SignUpDecline(SignUpPart):
    @extend_schema(request=None, responses={200: SignUpSerializer}, summary="Decline it")
    def post(self, request: Request, slug: str, pk: int) -> Response:
        signup = services.signup_decline(signup=self.signup(slug, pk), by=request.user)
        return Response(SignUpSerializer(signup).data)


class CheckIn(TournamentPart):
    """Check an entrant in (POST: the player in the window, an organizer any time before the
    start), or undo it (DELETE: organizers)."""

    permission_classes = [IsAuthenticated]

    def entry(self, slug: str, pk: int) -> Entry:
        return get_object_or_404(Entry, tournament=self.tournament(slug), pk=pk)

    @extend_schema(request=None, responses={200: EntrantSerializer}, summary="Check in")
    def post(self, request: Request, slug: str, pk: int) -> Response:
        entry = services.entry_check_in(entry=self.entry(slug, pk), by=request.user)
        return Response(EntrantSerializer(entry).data)

    @extend_schema(request=None, responses={200: EntrantSerializer}, summary="Undo it")
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        entry = services.entry_check_in(entry=self.entry(slug, pk), by=request.user, present=False)
        return Response(EntrantSerializer(entry).data)
