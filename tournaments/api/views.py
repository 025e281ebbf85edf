"""Thin API views: read through selectors, write through services (``tournaments.services`` and
``tournaments.matches.results``); errors take the one shape of ``nardy_site.api_errors``."""

from __future__ import annotations

import csv
import hashlib
import json
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game
from nardy_site import throttle
from nardy_site.api_errors import ApiSchema, error_response, error_responses
from nardy_site.page_cache import changed_lately, fresh_or_stale
from tournaments import disciplines
from tournaments.api.rating_pages import (
    RATING_PAGE_PARAMETERS,
    RATING_PAGE_RESPONSES,
    rating_page,
)
from tournaments.api.serializers import (
    EntrySerializer,
    GameSerializer,
    MatchSerializer,
    PlayerSerializer,
    RatingAuditSerializer,
    RatingChangeSerializer,
    RatingHoldSerializer,
    RoundSerializer,
    StandingSerializer,
    TournamentSerializer,
)
from tournaments.matches.records import match_mat_text
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.players.selectors import SEARCH_ORDER, players_found
from tournaments.policy import RUNS_EVENTS, is_rating_officer, is_staff
from tournaments.ratings.models import RatingAudit, RatingChange, RatingHold
from tournaments.ratings.models import RatingList as RatingListModel
from tournaments.ratings.selectors import (
    audit_trail,
    list_ratings,
    player_rating_history,
)
from tournaments.selectors import bracket_places, tournament_standings
from tournaments.services import start_notices_of
from tournaments.versions import tournament_version
from tournaments.words import spreadsheet_safe


def standing_rows(
    tournament: Tournament, *, refresh: float = 0, latest: bool = False
) -> list[dict[str, Any]]:
    """The serialized standings, computed once per version of the tournament and its ratings
    (a tournament day's many readers share them); ``refresh`` and ``latest`` as in
    ``fresh_or_stale``."""

    def serialized() -> list[dict[str, Any]]:
        rows = tournament_standings(tournament=tournament)
        return list(StandingSerializer(rows, many=True, context={"tournament": tournament}).data)

    def version() -> str:
        return tournament_version(slug=tournament.slug) or ""

    key = f"api-standings:{tournament.pk}"
    return fresh_or_stale(key, version, serialized, refresh=refresh, latest=latest)


def visible_tournaments(request: Request) -> QuerySet[Tournament]:
    """Everyone sees tournaments past their draft; organizers (and staff) see their drafts."""
    tournaments = Tournament.objects.select_related("organizer", "event_status")
    user = request.user
    if is_staff(user):
        return tournaments
    if user.is_authenticated:
        mine = (
            Q(organizer=user)
            | Q(co_organizers=user)
            | Q(club__memberships__user=user, club__memberships__role__in=RUNS_EVENTS)
        )
        return tournaments.filter(Q(status__in=Tournament.PUBLIC) | mine).distinct()
    return tournaments.filter(status__in=Tournament.PUBLIC)


def with_etag(request: Request, data: Any) -> Response:
    """The response with a strong ETag of its content; 304 when the client has it already. Its
    view says so to the schema (``answers_with_etag``)."""
    body = json.dumps(data, sort_keys=True, default=str).encode()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = Response(status=304)
    else:
        response = Response(data)
    response["ETag"] = etag
    return response


@extend_schema_view(
    get=extend_schema(
        responses={200: PlayerSerializer(many=True), **error_responses(429)},
        parameters=[
            OpenApiParameter(
                "search",
                str,
                description="Players whose name has every word of this, in Cyrillic or Latin "
                "letters (a typo apart on PostgreSQL), best match first; counted against the "
                "client's rate of searches (429 past it)",
            )
        ],
    )
)
class PlayerList(generics.ListAPIView[Player]):
    schema = ApiSchema()
    serializer_class = PlayerSerializer
    filterset_fields = ["club", "country", "home_club__slug"]
    ordering_fields = ["display_name", "created_at"]

    def get_queryset(self) -> QuerySet[Player]:
        players = Player.objects.select_related("home_club")
        query = self.request.query_params.get("search", "")
        if not self._searching():
            return players
        throttle.check(self.request, kinds=[throttle.DRAWINGS])
        return players_found(query=query, among=players)

    @property
    def ordering(self) -> tuple[str, ...]:  # type: ignore[override]
        """A search's own order (best match first) unless ``ordering`` asks for another."""
        return SEARCH_ORDER if self._searching() else ("display_name",)

    def _searching(self) -> bool:
        return bool(self.request.query_params.get("search", "").strip())


class PlayerDetail(generics.RetrieveAPIView[Player]):
    schema = ApiSchema()
    queryset = Player.objects.select_related("home_club")
    serializer_class = PlayerSerializer


class TournamentList(generics.ListAPIView[Tournament]):
    schema = ApiSchema()
    serializer_class = TournamentSerializer
    filterset_fields = ["variant", "discipline", "format", "status", "club__slug"]
    ordering_fields = ["created_at", "name"]
    ordering = ["-created_at"]

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request).select_related("rated_by", "club", "parent")

    def get_serializer(self, *args: Any, **kwargs: Any) -> TournamentSerializer:
        """A page's notices are read for all its tournaments at once (a fixed number of
        queries, not some for each)."""
        if args and kwargs.get("many"):
            kwargs["context"] = {
                **self.get_serializer_context(),
                "notices": start_notices_of(args[0]),
            }
        return super().get_serializer(*args, **kwargs)  # type: ignore[return-value]


class TournamentDetail(generics.RetrieveAPIView[Tournament]):
    schema = ApiSchema()
    serializer_class = TournamentSerializer
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request)


class TournamentPart(generics.ListAPIView[Any]):
    """A list under ``/tournaments/<slug>/``: only of a tournament the user may see."""

    schema = ApiSchema()

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
        return Entry.objects.filter(tournament=self.tournament()).select_related(
            "player", "tournament"
        )


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
            "round", "home__player", "away__player", "decided_by"
        )


class MatchDetail(generics.RetrieveAPIView[Match]):
    schema = ApiSchema()
    serializer_class = MatchSerializer

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.filter(
            tournament__in=visible_tournaments(self.request)
        ).select_related("round", "home__player", "away__player", "decided_by")


class GameList(generics.ListAPIView[Game]):
    schema = ApiSchema()
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
    schema = ApiSchema()
    answers_with_etag = True

    @extend_schema(responses=StandingSerializer(many=True), summary="Standings, with an ETag")
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(visible_tournaments(request), slug=slug)
        # Anonymous readers share standings up to PUBLIC_PAGE_REFRESH_SECONDS old, as the pages.
        anonymous = not request.user.is_authenticated
        refresh = settings.PUBLIC_PAGE_REFRESH_SECONDS if anonymous else 0
        latest = changed_lately(request.user)  # who changed something sees it
        return with_etag(request, standing_rows(tournament, refresh=refresh, latest=latest))


class RatingList(APIView):
    schema = ApiSchema()
    answers_with_etag = True

    @extend_schema(
        responses=RATING_PAGE_RESPONSES,
        summary="A rating list, a page at a time, with an ETag",
        parameters=[
            OpenApiParameter(
                "pairs",
                bool,
                description="With the discipline short: the pairs' list, as "
                "ratings/<system>/short-pairs/ (its address before the disciplines had lists)",
                deprecated=True,
            ),
            *RATING_PAGE_PARAMETERS,
        ],
    )
    def get(self, request: Request, system: str, discipline: str) -> Response:
        pairs = request.query_params.get("pairs", "").lower() in ("1", "true")
        if pairs and discipline == disciplines.SHORT:
            discipline = disciplines.SHORT_PAIRS
        ratings = list_ratings(system=system, discipline=discipline)
        return with_etag(request, rating_page(request, self, ratings))


class RatingHistory(generics.ListAPIView[RatingChange]):
    schema = ApiSchema()
    serializer_class = RatingChangeSerializer

    def get_queryset(self) -> QuerySet[RatingChange]:
        if getattr(self, "swagger_fake_view", False):
            return RatingChange.objects.none()
        player = get_object_or_404(Player, pk=self.kwargs["pk"])
        return player_rating_history(
            player=player, system=self.kwargs["system"], discipline=self.kwargs["discipline"]
        )


@extend_schema_view(
    get=extend_schema(responses={200: RatingAuditSerializer(many=True), **error_responses(403)})
)
class RatingAuditTrail(generics.ListAPIView[RatingAudit]):
    """A rating list's audit trail, newest first: all of it for its rating officers and staff,
    the rows of their own tournaments for organizers (403 for anyone else)."""

    schema = ApiSchema()
    serializer_class = RatingAuditSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> QuerySet[RatingAudit]:
        if getattr(self, "swagger_fake_view", False):
            return RatingAudit.objects.none()
        rating_list = get_object_or_404(
            RatingListModel, system=self.kwargs["system"], discipline=self.kwargs["discipline"]
        )
        user = self.request.user
        organizes = Tournament.objects.filter(
            Q(organizer=user) | Q(co_organizers=user),
            rating_system=rating_list.system,
            discipline=rating_list.discipline,
        )
        if not is_rating_officer(rating_list, user) and not organizes.exists():
            raise PermissionDenied(
                _("Only the list's rating officers and its tournaments' organizers read its trail.")
            )
        return audit_trail(rating_list, user)


@extend_schema_view(
    get=extend_schema(responses={200: RatingHoldSerializer(many=True), **error_responses(403)})
)
class RatingHolds(generics.ListAPIView[RatingHold]):
    """The changes the anomaly guard held on a list, newest first (its rating officers)."""

    schema = ApiSchema()
    serializer_class = RatingHoldSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> QuerySet[RatingHold]:
        if getattr(self, "swagger_fake_view", False):
            return RatingHold.objects.none()
        rating_list = get_object_or_404(
            RatingListModel, system=self.kwargs["system"], discipline=self.kwargs["discipline"]
        )
        if not is_rating_officer(rating_list, self.request.user):
            raise PermissionDenied(_("Only the list's rating officers review its held changes."))
        return RatingHold.objects.filter(rating_list=rating_list).select_related(
            "match__tournament", "confirmed_by"
        )


class MatchRecordExport(APIView):
    """A match's games as a gnubg .mat file (text/plain), every play as the replay made it."""

    schema = ApiSchema()

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR}, summary="A match as .mat")
    def get(self, request: Request, pk: int) -> HttpResponse:
        match = get_object_or_404(
            Match.objects.filter(tournament__in=visible_tournaments(request)), pk=pk
        )
        text = match_mat_text(match)
        if text is None:
            return error_response(404, "not_found", "This match has no recorded games.")
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.mat"'
        return response


class TournamentRecordsExport(APIView):
    """Every recorded match of a tournament in one .mat text: the matches one after another,
    each with its own header lines (programs that read one match a file take the first)."""

    schema = ApiSchema()

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR}, summary="Games as .mat")
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = get_object_or_404(visible_tournaments(request), slug=slug)
        matches = (
            Match.objects.filter(tournament=tournament, games__isnull=False)
            .distinct()
            .select_related("tournament", "home__player", "away__player")
            .prefetch_related("games")
            .order_by("decided_at", "pk")
        )
        texts = [text for match in matches if (text := match_mat_text(match))]
        response = HttpResponse("\n".join(texts), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.mat"'
        return response


class StandingsCsv(APIView):
    schema = ApiSchema()

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, summary="Standings as CSV")
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = get_object_or_404(visible_tournaments(request), slug=slug)
        rows = standing_rows(tournament)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.csv"'
        writer = csv.writer(response)
        tiebreaks = list(tournament.tiebreaks)
        writer.writerow(
            ["rank", "player", "match_points", "wins", "draws", "losses",
             "game_points_for", "game_points_against", *tiebreaks]
        )  # fmt: skip
        for row in rows:  # the API's decimals as the CSV always wrote them: 2.5, 4.0
            writer.writerow(
                [row["rank"], spreadsheet_safe(row["player"]), _plain(row["match_points"]),
                 row["wins"], row["draws"], row["losses"], _plain(row["game_points_for"]),
                 _plain(row["game_points_against"]),
                 *(_plain(row["tiebreaks"].get(name)) for name in tiebreaks)]
            )  # fmt: skip
        return response


def _plain(number: Any) -> Any:
    """A number of the API (a ``Decimal``) as the CSV always wrote it: 2.5, 4.0."""
    return None if number is None else float(number)


class PlacesCsv(APIView):
    """A bracket's final places as CSV (shared places repeat; empty until it is played out)."""

    schema = ApiSchema()

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, summary="Places as CSV")
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = get_object_or_404(visible_tournaments(request), slug=slug)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-places.csv"'
        writer = csv.writer(response)
        writer.writerow(["place", "player", "seed"])
        for place, entry in bracket_places(tournament=tournament):
            writer.writerow([place, spreadsheet_safe(entry.player.display_name), entry.seed])
        return response
