"""The API's writes: each view reads its input, calls one service and shows what it returns.

Who may do what is the services' decision (organizers change a tournament, a player reports its
own matches, the opponent answers, organizers resolve and correct); refusals come back in the one
error shape. A result is given as ``{"score": [home, away]}``, ``{"games": [{"white", "actions"}]}``
or a .mat text (``{"mat": ...}``, a ``file`` upload or a ``text/plain`` body).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.http import QueryDict
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import MAT_FILE_PARSERS, GameRecordIn, with_mat_file
from games.services import IllegalRecordError, recorded_games_from_json
from nardy_site import throttle
from nardy_site.api_errors import ApiSchema, error_responses
from tournaments import selectors, services
from tournaments.api.serializers import (
    EntrySerializer,
    LotsSerializer,
    MatchSerializer,
    PlayerIn,
    PlayerSerializer,
    Points,
    RatingHoldSerializer,
    RoundSerializer,
    TournamentSerializer,
)
from tournaments.api.views import visible_tournaments
from tournaments.errors import InvalidInput, NotFound
from tournaments.matches import results
from tournaments.models import Entry, Match, Player
from tournaments.players.services import player_create
from tournaments.ratings import services as ratings
from tournaments.ratings.models import RatingHold
from tournaments.scoring.events import EVENT_PRESET_NAMES, event_preset

ResultIn = inline_serializer(
    "ResultIn",
    {
        "score": serializers.ListField(
            child=Points(max_digits=6),
            min_length=2,
            max_length=2,
            required=False,
            help_text=(
                "[home, away]: a score the match rules can give. To N points (N is 1 to 64): "
                "the winner has at least N and at most N − 1 plus the most one game brings "
                "(its value, oyn 1, mars 2, koks 3, times the highest stake: the tournament's "
                "max_stake, else 64); the loser has less than N. A fixed number of games G: "
                "a total G games can give."
            ),
        ),
        "games": serializers.ListField(child=GameRecordIn(), required=False),
        "mat": serializers.CharField(required=False, help_text="A .mat file's text"),
        "forfeit": serializers.ChoiceField(
            choices=["home", "away", "both"],
            required=False,
            help_text=(
                "Decided by forfeit (organizers only): the side that did not come. The other "
                "wins; with both, each loses (not in a bracket). No games, never rated."
            ),
        ),
    },
)
RESULT_BODIES = with_mat_file(ResultIn)
NoteIn = inline_serializer("DisputeIn", {"note": serializers.CharField()})


class EntryIn(serializers.Serializer[Any]):
    player_id = serializers.IntegerField()
    seed = serializers.IntegerField(required=False, min_value=1, max_value=services.SEED_MAX)
    partner_id = serializers.IntegerField(
        required=False, help_text="A pairs tournament: the second player of the pair"
    )
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="A pairs tournament: the pair's name (else its players' names)",
    )


CorrectionOut = inline_serializer(
    "CorrectionOut",
    {"match": MatchSerializer(), "reset": MatchSerializer(many=True)},
)


class Action(APIView):
    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    def tournament(self, slug: str) -> Any:
        return get_object_or_404(visible_tournaments(self.request), slug=slug)

    def match(self, pk: int) -> Match:
        return get_object_or_404(
            Match.objects.filter(tournament__in=visible_tournaments(self.request)), pk=pk
        )


class TournamentCreate(Action):
    @extend_schema(request=TournamentSerializer, responses={201: TournamentSerializer})
    def post(self, request: Request) -> Response:
        given = TournamentSerializer(data=with_preset(request.data))
        given.is_valid(raise_exception=True)
        settings = {**given.validated_data}
        settings.pop("preset", None)
        tournament = services.tournament_create(organizer=request.user, **settings)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


def with_preset(data: Any) -> Any:
    """The request's settings, with those it leaves out given by the event preset it names
    (``preset``; an unknown one is left for the serializer to refuse)."""
    name = data.get("preset") if hasattr(data, "get") else None
    if not isinstance(name, str) or name not in EVENT_PRESET_NAMES:
        return data
    missing = event_preset(name).missing_from(data)
    filled = data.copy()
    for setting, value in missing.items():
        if value is not None or not isinstance(filled, QueryDict):  # a form's field: no null
            filled[setting] = value
    return filled


class TournamentLots(Action):
    """The lots drawn for the places a finished tournament's tie-breaks left shared: read by
    anyone who sees the tournament (GET, 404 when none were drawn), drawn by an organizer (POST;
    the finish draws them itself, so this is for a tournament finished before it did)."""

    def get_permissions(self) -> list[Any]:
        return [] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(responses={200: LotsSerializer}, summary="The lots drawn for shared places")
    def get(self, request: Request, slug: str) -> Response:
        lots = selectors.tournament_lots(tournament=self.tournament(slug))
        if lots is None:
            raise NotFound(_("No lots were drawn in this tournament."))
        return Response(LotsSerializer(lots).data)

    @extend_schema(request=None, responses={201: LotsSerializer}, summary="Draw lots")
    def post(self, request: Request, slug: str) -> Response:
        lots = services.tournament_lots_draw(tournament=self.tournament(slug), by=request.user)
        return Response(LotsSerializer(lots).data, status=status.HTTP_201_CREATED)


class RatingApproval(Action):
    """A rating officer approves the tournament as rated (POST) or withdraws it (DELETE); the
    list is replayed from its first result either way."""

    @extend_schema(request=None, responses={200: TournamentSerializer}, summary="Rate the event")
    def post(self, request: Request, slug: str) -> Response:
        tournament = ratings.ratings_approve(tournament=self.tournament(slug), by=request.user)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={200: TournamentSerializer}, summary="Unrate it")
    def delete(self, request: Request, slug: str) -> Response:
        tournament = ratings.ratings_withdraw(tournament=self.tournament(slug), by=request.user)
        return Response(TournamentSerializer(tournament).data)


class RatingHoldConfirm(Action):
    """A rating officer confirms a held change; the list is replayed with it."""

    @extend_schema(request=None, responses={200: RatingHoldSerializer}, summary="Confirm it")
    def post(self, request: Request, pk: int) -> Response:
        hold = get_object_or_404(RatingHold, pk=pk)
        return Response(
            RatingHoldSerializer(ratings.ratings_hold_confirm(hold=hold, by=request.user)).data
        )


class PlayerCreate(Action):
    @extend_schema(request=PlayerIn, responses={201: PlayerSerializer})
    def post(self, request: Request) -> Response:
        given = PlayerIn(data=request.data)
        given.is_valid(raise_exception=True)
        player = player_create(by=request.user, **given.validated_data)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class TournamentStep(Action):
    """A step of the tournament's life that takes no input: open, start, pair, finish."""

    step: str = ""

    @extend_schema(request=None, responses={200: TournamentSerializer})
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        if self.step == "pair":
            round_ = services.swiss_round_pair(tournament=tournament, by=request.user)
            return Response(RoundSerializer(round_).data)
        service = {
            "open": services.tournament_open_registration,
            "start": services.tournament_start,
            "finish": services.tournament_finish,
        }[self.step]
        return Response(TournamentSerializer(service(tournament=tournament, by=request.user)).data)


class OpenRegistration(TournamentStep):
    step = "open"


class Start(TournamentStep):
    step = "start"


class PairNextRound(TournamentStep):
    step = "pair"

    @extend_schema(request=None, responses={200: RoundSerializer})
    def post(self, request: Request, slug: str) -> Response:
        return super().post(request, slug)


class Finish(TournamentStep):
    step = "finish"


class EntryRegister(Action):
    @extend_schema(request=EntryIn, responses={201: EntrySerializer})
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        given = EntryIn(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        player = get_object_or_404(Player, pk=data["player_id"])
        if "partner_id" in data:
            entry = services.pair_register(
                tournament=tournament, first=player, by=request.user,
                second=get_object_or_404(Player, pk=data["partner_id"]),
                name=data.get("name", ""), seed=data.get("seed"),
            )  # fmt: skip
        else:
            entry = services.entry_register(
                tournament=tournament, player=player, by=request.user, seed=data.get("seed")
            )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryWithdraw(Action):
    @extend_schema(
        request=None,
        responses={204: None},
        parameters=[
            OpenApiParameter(
                "forfeit_remaining",
                bool,
                description="After the start: the player also loses by forfeit every match of "
                "theirs still to play whose opponent is known.",
            )
        ],
    )
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        entry = get_object_or_404(Entry, pk=pk, tournament=self.tournament(slug))
        forfeit = request.query_params.get("forfeit_remaining", "").lower() in ("1", "true")
        services.entry_withdraw(entry=entry, by=request.user, forfeit_remaining=forfeit)
        return Response(status=status.HTTP_204_NO_CONTENT)


def result_input(request: Request) -> dict[str, Any]:
    """The result in the request as the result services take it (one of score, games, mat,
    forfeit).
    A body over ``API_MAX_UPLOAD_BYTES`` never gets here (``nardy_site.body_limit``: 413)."""
    upload = request.FILES.get("file")
    if upload is not None:
        return {"mat": upload.read().decode("utf-8", errors="replace")}
    data = request.data
    if not isinstance(data, dict):
        raise InvalidInput("Give the result as a score, as the games, or as a .mat file.")
    given: dict[str, Any] = {}
    if "score" in data:
        # A form (urlencoded or multipart) sends the list as repeated fields: score=2&score=1.
        score = data.getlist("score") if isinstance(data, QueryDict) else data["score"]
        if not isinstance(score, list) or len(score) != 2:
            raise InvalidInput("A score is [home, away].")
        if any(_beyond_a_score(value) for value in score):
            raise InvalidInput(f"A score is at most {SCORE_MAX} points.")
        given["score"] = (score[0], score[1])
    if "games" in data:
        try:
            given["games"] = recorded_games_from_json(data["games"])
        except IllegalRecordError as error:  # a malformed play: 422, where and why
            raise results.illegal_game_record(error) from None
        except ValueError as error:  # not games at all: 400
            raise InvalidInput(f"The games cannot be read: {error}") from None
    if "mat" in data:
        given["mat"] = str(data["mat"])
    if "forfeit" in data:
        given["forfeit"] = str(data["forfeit"])
    return given


#: The largest score the database holds (six digits, one after the point), as the form says.
SCORE_MAX = Decimal("99999.9")


def _beyond_a_score(value: Any) -> bool:
    """A number too large for a score's column (a 500 otherwise); what is not a number at all
    is for the services to refuse, with their reason."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return False
    return number.is_infinite() or (number.is_finite() and abs(number) > SCORE_MAX)


class ResultAction(Action):
    parser_classes = MAT_FILE_PARSERS

    def throttle(self, match: Match, given: dict[str, Any], *, correction: bool = False) -> None:
        """Count this write against the limits of its kinds (``nardy_site.throttle``): 429
        when one is over, before anything is changed."""
        kinds = throttle.result_kinds(
            correction=correction,
            record="games" in given or "mat" in given,
        )
        throttle.check(self.request, kinds=kinds, tournament_id=match.tournament_id)


class ResultReport(ResultAction):
    @extend_schema(
        request=with_mat_file(ResultIn),
        responses={200: MatchSerializer, **error_responses(422, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        match, given = self.match(pk), result_input(request)
        self.throttle(match, given)
        match = results.match_result_record(match=match, by=request.user, **given)
        return Response(MatchSerializer(match).data)


class ResultConfirm(Action):
    @extend_schema(request=None, responses={200: MatchSerializer})
    def post(self, request: Request, pk: int) -> Response:
        match = results.match_result_confirm(match=self.match(pk), by=request.user)
        return Response(MatchSerializer(match).data)


class ResultDispute(Action):
    @extend_schema(request=NoteIn, responses={200: MatchSerializer})
    def post(self, request: Request, pk: int) -> Response:
        note = request.data.get("note", "") if isinstance(request.data, dict) else ""
        if not isinstance(note, str):
            raise InvalidInput("The note is text: say what is wrong with the reported result.")
        match = results.match_result_dispute(match=self.match(pk), by=request.user, note=note)
        return Response(MatchSerializer(match).data)


class ResultResolve(ResultAction):
    @extend_schema(
        request=with_mat_file(ResultIn),
        responses={200: MatchSerializer, **error_responses(422, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(pk)
        given = result_input(request) if request.data or request.FILES else {}
        self.throttle(match, given)
        match = results.match_result_resolve(match=match, by=request.user, **given)
        return Response(MatchSerializer(match).data)


class ResultCorrect(ResultAction):
    @extend_schema(
        request=with_mat_file(ResultIn), responses={200: CorrectionOut, **error_responses(422, 429)}
    )
    def post(self, request: Request, pk: int) -> Response:
        match, given = self.match(pk), result_input(request)
        self.throttle(match, given, correction=True)
        correction = results.match_result_correct(match=match, by=request.user, **given)
        return Response(
            {
                "match": MatchSerializer(correction.match).data,
                "reset": MatchSerializer(correction.reset, many=True).data,
            }
        )
