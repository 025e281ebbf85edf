"""The recording of a match over HTTP (``/api/v1/matches/<id>/live``): the phone page and any
other client use these same endpoints.

``GET`` is open to everyone who may see the match, answers from the shared state (one
computation per version however many follow) and honours ``If-None-Match``, so a spectator
polling an unchanged match gets a 304. ``POST`` takes one entry at the ply the client saw,
``POST …/undo`` takes back the last (also the entry that decided the match: its players within
``LIVE_UNDO_WINDOW_SECONDS``, an organizer later; the result is taken back with it),
``DELETE`` discards the recording (organizers). ``POST …/sync`` takes the entries a phone
recorded offline, and ``GET …/kit`` is what the phone keeps to record them (``offline``).
"""

from __future__ import annotations

import time
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from nardy_site import throttle
from nardy_site.api_errors import error_responses, plain_error
from tournaments.api.actions import Action
from tournaments.api.live_schema import (
    READ_BY_ANYONE,
    LiveActionField,
    LiveKit,
    LiveState,
    LiveSyncState,
)
from tournaments.api.views import visible_tournaments
from tournaments.errors import NotFound
from tournaments.matches.live import follow, offline, services, state
from tournaments.matches.live.broadcast import SharedState
from tournaments.models import Match
from tournaments.policy import may

ENTRY_HELP = (
    'A game action as games.rules.action_to_json writes it ({"dice": "64", "play": "24/18 13/9"},'
    ' with "accepted": true for a play the opponent accepted as made where the tournament allows'
    ' it, {"double": true}, {"take": true}, {"drop": true}, {"resign": "white", "value": 1}), or a '
    'roll whose play comes next ({"dice": "64"}), who moves first in the game about to start '
    '({"first": 1} or 2), the opening throw where the tournament plays it, one die each '
    '({"opening": {"white": 3, "black": 5}}: the higher moves first with both numbers), or a '
    'flag fall in a timed match ({"flag": "home"} or "away": that '
    "side's time ran out, by the server's clock, and it loses the match)"
)


class LiveIn(serializers.Serializer[Any]):
    ply = serializers.IntegerField(min_value=0, help_text="The ply the client saw")
    action = LiveActionField(help_text=ENTRY_HELP)
    revision = serializers.IntegerField(
        min_value=0, required=False, help_text="The revision the client saw (optional)"
    )


class SyncEntryIn(serializers.Serializer[Any]):
    action = LiveActionField(help_text=ENTRY_HELP)
    at = serializers.DateTimeField(help_text="When the entry was made, by the phone's clock")


class SyncIn(serializers.Serializer[Any]):
    ply = serializers.IntegerField(min_value=0, help_text="The ply the phone last had from here")
    entries = serializers.ListField(
        child=SyncEntryIn(),
        min_length=1,
        max_length=services.MAX_SYNC_ENTRIES,
        help_text="The entries recorded offline, in the order they were made",
    )


class AsideIn(SyncIn):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=2000,
        default="",
        help_text="Why the match did not take them: the answer the phone showed",
    )


class AsideOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    ply = serializers.IntegerField(help_text="The ply the phone went on from")
    entries = serializers.IntegerField(help_text="How many entries were handed over")


def _entries(given: SyncIn) -> list[tuple[Any, Any]]:
    """A sync's entries (or a hand-over's) as the services take them: (action, phone's time)."""
    return [(each["action"], each["at"]) for each in given.validated_data["entries"]]


class UndoIn(serializers.Serializer[Any]):
    ply = serializers.IntegerField(min_value=0, help_text="The ply the client saw")
    to = serializers.IntegerField(
        min_value=0, required=False, help_text="Organizers: the ply to go back to"
    )
    revision = serializers.IntegerField(min_value=0, required=False)


class ClockIn(serializers.Serializer[Any]):
    action = serializers.ChoiceField(
        choices=["pause", "resume", "adjust"],
        help_text="Pause or resume the running clock, or adjust a side's time",
    )
    side = serializers.ChoiceField(
        choices=["home", "away"], required=False, help_text="adjust: whose clock"
    )
    seconds = serializers.IntegerField(
        required=False, default=0, help_text="adjust: seconds given (taken when negative)"
    )
    revision = serializers.IntegerField(min_value=0, required=False)


class LiveAccess(BasePermission):
    """Anyone reads; writers sign in (the service decides who may write)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return AllowAny().has_permission(request, view)
        return IsAuthenticated().has_permission(request, view)


class LiveAction(Action):
    permission_classes = [LiveAccess]

    def visible_match(self, pk: int) -> Match:
        return get_object_or_404(
            Match.objects.filter(tournament__in=visible_tournaments(self.request)), pk=pk
        )


class MatchLive(LiveAction):
    answers_with_etag = True  # its GET: If-None-Match, 304 and the ETag (ApiSchema)

    @extend_schema(
        responses={200: LiveState},
        auth=READ_BY_ANYONE,
        summary="The state of the recording",
    )
    def get(self, request: Request, pk: int) -> Response:
        shared = _readable_shared(request, pk)
        return _shared_response(
            shared, follow.given_etags(request.headers.get("If-None-Match", ""))
        )

    @extend_schema(
        request=LiveIn,
        responses={200: LiveState, **error_responses(422)},
        summary="Record the next entry",
    )
    def post(self, request: Request, pk: int) -> Response:
        given = LiveIn(data=request.data)
        given.is_valid(raise_exception=True)
        state = services.live_act(
            match_id=pk,  # read (and who may see it checked) under the draft's lock
            by=request.user,
            ply=given.validated_data["ply"],
            action=given.validated_data["action"],
            revision=given.validated_data.get("revision"),
        )
        return Response(state)

    @extend_schema(request=None, responses={204: None}, summary="Discard the recording")
    def delete(self, request: Request, pk: int) -> Response:
        services.live_discard(match=self.visible_match(pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchLiveSync(LiveAction):
    @extend_schema(
        request=SyncIn,
        responses={200: LiveSyncState, **error_responses(422)},
        summary="Catch up with entries recorded offline",
        description="The entries a phone recorded while it was offline, taken in order from "
        "`ply` in one transaction: all of them or none. A refused entry refuses the batch, its "
        "error's `details.index` saying which (from 0). A stale `ply` is a 409 whose "
        "`details.entries` are the entries the server has from that ply on (`ply`, `action`, "
        "`at`), for the phone to show beside its own. Each entry takes its phone time `at` when "
        "it lies between the entry before it and the sync's arrival; otherwise the nearest of "
        "the two, listed in `clamped` and marked for the judge: no phone gives a player time "
        "back. The single-entry `POST …/live` stays the way to record online.",
    )
    def post(self, request: Request, pk: int) -> Response:
        given = SyncIn(data=request.data)
        given.is_valid(raise_exception=True)
        state = services.live_sync(
            match_id=pk,
            by=request.user,
            ply=given.validated_data["ply"],
            entries=_entries(given),
        )
        return Response(state)


class MatchLiveAside(LiveAction):
    @extend_schema(
        request=AsideIn,
        responses={201: AsideOut, **error_responses(422)},
        summary="Hand a phone's offline entries to the judge",
        description="Entries a phone recorded offline that the match did not take (a sync "
        "answered 409 with another phone's entries, or refused one of them): kept with the "
        "match for its judge to see, never merged into its record.",
    )
    def post(self, request: Request, pk: int) -> Response:
        given = AsideIn(data=request.data)
        given.is_valid(raise_exception=True)
        answer = services.live_set_aside(
            match=self.visible_match(pk),
            by=request.user,
            ply=given.validated_data["ply"],
            entries=_entries(given),
            reason=given.validated_data["reason"],
        )
        return Response(answer, status=status.HTTP_201_CREATED)


class MatchLiveKit(LiveAction):
    @extend_schema(
        responses={200: LiveKit},
        auth=READ_BY_ANYONE,
        summary="What a phone keeps to record offline",
    )
    def get(self, request: Request, pk: int) -> Response:
        match = self.visible_match(pk)
        return Response(offline.live_kit(match_id=match.pk))


class MatchLiveUndo(LiveAction):
    @extend_schema(
        request=UndoIn,
        responses={200: LiveState, **error_responses(429)},
        summary="Take back entries",
    )
    def post(self, request: Request, pk: int) -> Response:
        given = UndoIn(data=request.data)
        given.is_valid(raise_exception=True)
        _count_take_back(request, pk)
        state = services.live_undo(
            match_id=pk,  # read (and who may see it checked) under the draft's lock
            by=request.user,
            ply=given.validated_data["ply"],
            to=given.validated_data.get("to"),
            revision=given.validated_data.get("revision"),
        )
        return Response(state)


class MatchLiveClock(LiveAction):
    @extend_schema(
        request=ClockIn,
        responses={200: LiveState, **error_responses(422)},
        summary="Pause, resume or adjust the match clocks (organizers)",
    )
    def post(self, request: Request, pk: int) -> Response:
        given = ClockIn(data=request.data)
        given.is_valid(raise_exception=True)
        state = services.live_clock(
            match_id=pk,
            by=request.user,
            action=given.validated_data["action"],
            side=given.validated_data.get("side"),
            seconds=given.validated_data["seconds"],
            revision=given.validated_data.get("revision"),
        )
        return Response(state)


def _count_take_back(request: Request, pk: int) -> None:
    """An undo of a match the recording decided takes its result back, and deciding it again
    queues a new analysis when the record changed: it counts against the analysis limits
    (``throttle.ANALYSES``), for whoever may record the match (the service refuses anyone else,
    who uses up nobody's allowance)."""
    match = (
        Match.objects.select_related("tournament", "home__player", "away__player")
        .exclude(status=Match.Status.SCHEDULED)
        .filter(pk=pk)
        .first()
    )
    if match is not None and may(request.user, "match.record", match):
        throttle.check(request, kinds=[throttle.ANALYSES], tournament_id=match.tournament_id)


def _shared_response(shared: SharedState, given: set[str]) -> HttpResponse:
    if shared.etag in given:
        response = HttpResponse(status=304)
    else:  # the JSON rendered once per version, for every reader
        response = HttpResponse(shared.body_at(time.time()), content_type="application/json")
    response["ETag"] = shared.etag
    response["Cache-Control"] = "no-cache"
    return response


def _readable_shared(request: HttpRequest | Request, pk: int) -> SharedState:
    """The match's shared state, for a reader who may see the match (404 otherwise)."""
    try:
        shared = state.live_shared(match_id=pk)
    except NotFound as missing:
        raise Http404(missing.message) from None
    if not shared.public:
        get_object_or_404(Match.objects.filter(tournament__in=visible_tournaments(request)), pk=pk)  # type: ignore[arg-type]
    return shared


@require_safe
async def live_next(request: HttpRequest, pk: int) -> HttpResponse:
    """``GET …/live/next`` with ``If-None-Match``: the state once it differs from the one the
    spectator has, or 304 after ``LIVE_FOLLOW_WAIT_SECONDS`` (``follow``). A follow server
    answers public matches before Django; here are the others, and servers without one.
    drf-spectacular does not see this view: ``live_schema.add_live_next`` declares it."""
    try:
        shared = await sync_to_async(_readable_shared)(request, pk)
    except Http404:  # in the API's error shape, as GET …/live says it
        return plain_error(404, "not_found", str(exceptions.NotFound.default_detail))
    given = follow.given_etags(request.headers.get("If-None-Match", ""))
    waits = isinstance(request, ASGIRequest) or settings.LIVE_FOLLOW_WAIT_UNDER_WSGI
    if waits and shared.etag in given:
        hub = follow.loop_hub()
        hub.learn(pk, shared)
        found = await follow.follow(
            hub,
            pk,
            given,
            wait=settings.LIVE_FOLLOW_WAIT_SECONDS,
            recheck=follow.RECHECK_SECONDS,
        )
        shared = found or shared
    return _shared_response(shared, given)
