"""The rules engine over HTTP, for anyone (no account): check a record, list the legal plays.

``POST /api/v1/records/validate`` takes a .mat text (as the body, a ``file`` upload or JSON
``{"mat": ...}``) or JSON games and answers with the report of ``python -m games.rules check
--json`` for one file; nothing is stored. ``GET /api/v1/positions/<id>/plays`` lists the legal
plays of a roll with their resulting Position IDs.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.action_schema import GameActionField
from games.models import Game
from games.rules import (
    Action,
    Colour,
    Opens,
    Resign,
    RulesError,
    Take,
    Turn,
)
from games.rules.cli import plays_json
from games.rules.game import Double, Drop
from games.rules.matfile import (
    GameRecord,
    MatchFormatError,
    MatchRecord,
    Place,
    RecordError,
    check_match,
    read_match,
)
from games.rules.notation import parse_dice
from games.rules.variants import LongNardy, ShortNardy, Variant
from games.services import IllegalRecordError, game_actions_from_json
from nardy_site import throttle
from nardy_site.api_errors import ApiSchema, error_response, error_responses


class PlainTextParser(JSONParser):
    """A .mat file sent as the whole body (``text/plain``)."""

    media_type = "text/plain"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return {"mat": stream.read().decode("utf-8", errors="replace")}


#: The parsers of an endpoint that takes a .mat file: JSON, the file's text as the whole body, a
#: ``file`` upload; and form fields, which clients that post forms still send (unpublished).
MAT_FILE_PARSERS = [JSONParser, PlainTextParser, MultiPartParser, FormParser]

MatUpload = inline_serializer(
    "MatUpload", {"file": serializers.FileField(help_text="A .mat match file")}
)


def with_mat_file(json_body: Any) -> dict[str, Any]:
    """The request bodies of an endpoint that takes a .mat file, for ``extend_schema(request=)``:
    ``json_body`` as JSON, or the file's text as a ``text/plain`` body, or the file uploaded as
    ``file`` in ``multipart/form-data``."""
    return {
        "application/json": json_body,
        "text/plain": {
            "type": "string",
            "format": "binary",
            "description": "The .mat match file itself, the whole body (UTF-8 text)",
        },
        "multipart/form-data": MatUpload,
    }


class GameRecordIn(serializers.Serializer[Any]):
    """One game's record: who rolled first, and the engine's actions."""

    white = serializers.IntegerField(
        min_value=1,
        max_value=2,
        help_text="The player (1 or 2) playing White: who rolled first, unless the game opens "
        'with {"opens": "black"} (the opening roll)',
    )
    actions = serializers.ListField(
        child=GameActionField(),
        help_text='Engine actions: {"dice": "64", "play": "24/18 13/9"}, {"double": true} …',
    )


class GameReport(serializers.Serializer[Any]):
    """A game replayed (``games.rules.matfile.GameCheck.to_json``)."""

    number = serializers.IntegerField(help_text="1-based")
    winner = serializers.IntegerField(
        allow_null=True, help_text="The player (1 or 2) who won; null: none (a draw, unfinished)"
    )
    points = serializers.IntegerField(help_text="The game's value times its stake")
    ending = serializers.ChoiceField(choices=Game.Ending.choices)
    accepted = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Only when there are some: the moves of the plays the opponent accepted as made",
    )


class RecordErrorOut(serializers.Serializer[Any]):
    """The first illegal action (``games.rules.matfile.RecordError.to_json``)."""

    game = serializers.IntegerField(help_text="The game (1-based)")
    move = serializers.IntegerField(
        help_text="The move's number: a .mat file's numbered line, or the action's number "
        "(1-based) in JSON games"
    )
    player = serializers.IntegerField(help_text="Who made it: 1 (the left column) or 2")
    play = serializers.CharField(
        allow_blank=True, help_text="The entry as written (at most 200 characters of it)"
    )
    reason = serializers.CharField(help_text="Why it is not legal")


ValidateIn = inline_serializer(
    "RecordValidateIn",
    {
        "mat": serializers.CharField(required=False, help_text="A .mat match file's text"),
        "variant": serializers.ChoiceField(choices=["long", "short"], required=False),
        "length": serializers.IntegerField(required=False, min_value=1, allow_null=True),
        "opening_roll": serializers.BooleanField(
            required=False,
            help_text="Long Nardy: the games open with one die each (the sport rules, art. "
            "26.3), so a first roll is never a double and Black may move first",
        ),
        "games": serializers.ListField(child=GameRecordIn(), required=False),
    },
)
ReportOut = inline_serializer(
    "RecordReport",
    {
        "file": serializers.CharField(),
        "valid": serializers.BooleanField(),
        "games": serializers.ListField(child=GameReport(), help_text="The games replayed"),
        "warnings": serializers.ListField(child=serializers.CharField()),
        "error": RecordErrorOut(allow_null=True, help_text="The first illegal action; null: none"),
    },
)


class RecordValidateView(APIView):
    schema = ApiSchema()
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    parser_classes = MAT_FILE_PARSERS

    @extend_schema(
        request=with_mat_file(ValidateIn),
        responses={200: ReportOut, **error_responses(400, 413, 429)},
        summary="Check a game record against the rules (nothing is stored)",
    )
    def post(self, request: Request) -> Response:
        # A body over API_MAX_UPLOAD_BYTES never gets here (nardy_site.body_limit: 413). An
        # upload, counted per client address (nobody signs in here): 429 past the limit.
        throttle.check(request, kinds=[throttle.UPLOADS])
        data = request.data
        name = "request"
        upload = request.FILES.get("file") if hasattr(request, "FILES") else None
        if upload is not None:
            name = upload.name or name
            text = upload.read().decode("utf-8", errors="replace")
        elif isinstance(data, dict) and isinstance(data.get("mat"), str):
            text = data["mat"]
        else:
            text = None
        try:
            record = read_match(text) if text is not None else _record_from_json(data)
        except MatchFormatError as error:
            return error_response(400, "unreadable_record", str(error))
        except RecordError as error:
            return Response(_report(name, [], [], error.to_json()))
        except (RulesError, KeyError, TypeError, ValueError) as error:
            return error_response(400, "invalid", f"the games cannot be read: {error}")
        result = check_match(record)
        return Response(
            _report(
                name,
                [game.to_json() for game in result.games],
                list(result.warnings),
                result.error.to_json() if result.error else None,
            )
        )


def _report(name: str, games: list[Any], warnings: list[str], error: Any) -> dict[str, Any]:
    return {
        "file": name,
        "valid": error is None,
        "games": games,
        "warnings": warnings,
        "error": error,
    }


def _record_from_json(data: Any) -> MatchRecord:
    """JSON games as a match record; ``move`` in a report is the game's action number."""
    if not isinstance(data, dict) or not isinstance(data.get("games"), list):
        raise ValueError('send a .mat text or {"variant": ..., "games": [...]}')
    # Long Nardy's rules let the opponent accept a play as made (seed 001); Short Nardy's don't.
    opening_roll = data.get("opening_roll", False)
    if type(opening_roll) is not bool:
        raise ValueError('"opening_roll" is true or false')
    variant: Variant = (
        LongNardy(accepted_moves=True, opening_roll=opening_roll)
        if data.get("variant") == "long"
        else ShortNardy()
    )
    if data.get("variant") not in ("long", "short"):
        raise ValueError('"variant" is "long" or "short"')
    games = []
    for number, game in enumerate(data["games"], start=1):
        white = game["white"]
        if white not in (1, 2):
            raise ValueError('"white" is 1 or 2')
        actions = _actions_read(number, white, game["actions"])
        opens = actions[0].side if actions and isinstance(actions[0], Opens) else Colour.WHITE
        first = white if opens is Colour.WHITE else 3 - white
        games.append(GameRecord(first, actions, places=_places(white, actions)))
    length = data.get("length")
    if length is not None and (type(length) is not int or length < 1):
        raise ValueError('"length" is a whole number from 1 up, or null')
    return MatchRecord(variant, ("", ""), length, tuple(games))


def _actions_read(number: int, white: int, given: list[Any]) -> tuple[Action, ...]:
    """A game's JSON actions. One that is not an object: ``ValueError`` (not a record, 400); one
    that does not read (a malformed play): a ``RecordError`` at its move (here the action's
    place, as the report counts), reported as an illegal play is, and as the same play in a .mat
    file is."""
    try:
        return game_actions_from_json(number, white, given)
    except IllegalRecordError as error:
        raise RecordError(
            error.reason, game=error.game, move=error.action, player=error.side, play=error.play
        ) from None


def _places(white: int, actions: tuple[Action, ...]) -> tuple[Place, ...]:
    """Who made each action, counting actions from 1 as the moves of the report."""
    places, roller = [], white
    for number, action in enumerate(actions, start=1):
        if isinstance(action, Turn):
            player, text, roller = roller, str(action.play), 3 - roller
        elif isinstance(action, Take | Drop):
            player, text = 3 - roller, type(action).__name__
        elif isinstance(action, Resign):
            player = white if action.side is Colour.WHITE else 3 - white
            text = "Resign"
        elif isinstance(action, Opens):  # the opening throw: its winner rolls first
            player = roller = white if action.side is Colour.WHITE else 3 - white
            text = "Opens"
        else:
            assert isinstance(action, Double)
            player, text = roller, "Double"
        places.append(Place(number, player, text))
    return tuple(places)


PlaysOut = inline_serializer(
    "LegalPlays",
    {
        "plays": serializers.ListField(
            child=inline_serializer(
                "LegalPlay",
                {"play": serializers.CharField(), "position_id": serializers.CharField()},
            )
        )
    },
)


class PositionPlaysView(APIView):
    schema = ApiSchema()
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        parameters=[
            OpenApiParameter("variant", str, enum=["long", "short"], required=True),
            OpenApiParameter("dice", str, required=True, description="Two dice, e.g. 6,4"),
        ],
        responses={200: PlaysOut, **error_responses(400)},
        summary="The legal plays of a roll, with their resulting Position IDs",
    )
    def get(self, request: Request, position_id: str) -> Response:
        variant_name = request.query_params.get("variant")
        if variant_name not in ("long", "short"):
            return error_response(400, "invalid", 'variant is "long" or "short"')
        variant: Variant = LongNardy() if variant_name == "long" else ShortNardy()
        try:
            dice = parse_dice(request.query_params.get("dice", ""))
            answer = plays_json(variant, position_id, dice)
        except RulesError as error:
            return error_response(400, "invalid", str(error))
        return Response(answer, status=status.HTTP_200_OK)
