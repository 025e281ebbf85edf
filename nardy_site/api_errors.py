"""One error shape for every API error: ``{"error": {"code", "message", "details"}}``.

Every ``nardy_site.errors.UserError`` keeps its status and code: the services' refusals (400,
403, 409), an illegal game record (422, whose details name the game, move, player, play and
reason), too many requests (429 with Retry-After). DRF's own errors (validation,
authentication, not found) are reshaped the same way. Whatever raised the error changed nothing:
services work in one transaction.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.urls import Resolver404, resolve
from django.urls.converters import get_converters
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent, build_choice_description_list
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.exceptions import ErrorDetail
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.rules.errors import QUOTE_LIMIT, clipped
from nardy_site.api_paths import ClosedSet
from nardy_site.errors import UserError


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The one shape of every error, said once for DRF's answers and the plain views'."""
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(status_code: int, code: str, message: str, details: Any = None) -> Response:
    return Response(error_body(code, message, details), status=status_code)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, UserError):
        response = error_response(exc.status, exc.code, exc.message, exc.details)
        if exc.retry_after:  # too many requests (nardy_site.throttle): when to come back
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(str(exc))
    if isinstance(exc, RecursionError):
        # Only input nested deeper than Python recurses gets here: JSON the parser cannot read
        # (or a value too deep to validate or to name in a message). A bad request, not a 500.
        exc = exceptions.ParseError("JSON parse error - the body is nested too deeply.")
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    details: Any = getattr(exc, "details", None)
    if isinstance(exc, exceptions.ValidationError):
        details = {"fields": _quoting_at_most_the_limit(exc.detail)}
        message = "The request is not valid: see details.fields."
    else:
        message = str(_quoting_at_most_the_limit(exc.detail))
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else "invalid"
    response.data = error_body(code, message, details)
    return response


#: A value DRF quotes in its messages: '"xyz" is not a valid choice.', 'Invalid pk "xyz" …',
#: 'Unsupported media type "xyz" in request.'
_QUOTED_VALUE = re.compile(r'"(.*)"', re.DOTALL)


def _quoting_at_most_the_limit(detail: Any) -> Any:
    """DRF's messages with the value they refuse cut to ``QUOTE_LIMIT`` characters (a 100 kB
    value is not echoed whole): the quoted value when there is one, else the whole message.
    Messages within the limit, DRF's usual ones, stay as they are."""
    if isinstance(detail, dict):
        return {key: _quoting_at_most_the_limit(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_quoting_at_most_the_limit(value) for value in detail]
    text = str(detail)
    if len(text) <= QUOTE_LIMIT:
        return detail
    value = _QUOTED_VALUE.search(text)
    if value is not None and len(value[1]) > QUOTE_LIMIT:
        text = text[: value.start(1)] + clipped(value[1]) + text[value.end(1) :]
    else:
        text = clipped(text)
    return ErrorDetail(text, code=getattr(detail, "code", None))


@csrf_exempt
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """The last route of the API: a path that matches no endpoint (or a key that is not one, as
    ``/matches/abc/``) is a 404 in the error shape, not Django's HTML page. A GET of a path that
    only lacks its final slash is still redirected, as ``APPEND_SLASH`` does."""
    path = request.path_info
    if settings.APPEND_SLASH and request.method in ("GET", "HEAD") and not path.endswith("/"):
        try:
            match = resolve(f"{path}/", getattr(request, "urlconf", None))
        except Resolver404:
            match = None
        if match is not None and match.func is not not_found:
            return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
    return plain_error(404, "not_found", "No API endpoint here.")


def plain_error(status_code: int, code: str, message: str) -> JsonResponse:
    """An error in the one shape from a plain Django view of the API (no DRF to reshape it)."""
    return JsonResponse(error_body(code, message), status=status_code)


class ErrorBodySerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="What went wrong, for programs: not_found, conflict …")
    message = serializers.CharField(help_text="What went wrong, for people")
    details = serializers.DictField(
        help_text="More about it, for programs; its keys depend on the code (an empty object "
        "when there is nothing more). invalid (400): fields, each field's messages (a list, or "
        "an object of nested fields). illegal_record (422): game, move, player (1 or 2), play "
        "(the entry as written, at most 200 characters and an ellipsis) and reason; match too, "
        "where an import names the match. throttled (429): limit (what was limited), per "
        "(user or tournament: whose limit), retry_after (seconds). payload_too_large (413): "
        "size and limit (bytes). conflict (409) of a live entry made on a stale state: ply, "
        "revision and state (the recording's state as GET …/live answers it, LiveState)."
    )


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error of the API: ``{"error": {"code", "message", "details"}}``."""

    error = ErrorBodySerializer()


ERROR_DESCRIPTIONS = {
    400: "The request is not valid (a field, a filter, a score, the games)",
    401: "Not signed in, a token that is not valid, or (making a token) a wrong password",
    403: "Not allowed (not an organizer, not a player of the match), or no CSRF token",
    404: "No such thing here, or not one the user may see; or a page past the last",
    409: "The action does not fit the state of the tournament or the match",
    413: "The body is larger than the API reads",
    415: "A body of a media type the operation does not read",
    422: "A game record that breaks the rules: details say where and why",
    429: (
        "Too many corrections, uploads, analysis requests, searches or failed logins in a short "
        "time: Retry-After says in how many seconds to try again; nothing was changed"
    ),
}


#: What a view that answers with an ETag (``answers_with_etag``) reads and answers besides its
#: body: the client's If-None-Match, and the ETag of the 200 and of its 304.
ETAG_PARAMETERS = [
    OpenApiParameter(
        "If-None-Match",
        str,
        OpenApiParameter.HEADER,
        description="The ETag of the copy the client has: 304, without a body, while it is "
        "still the current one",
    ),
    OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        response=[200, 304],
        description="A strong ETag of the body: send it back as If-None-Match",
    ),
]
#: The header of every 429.
RETRY_AFTER = {
    "schema": {"type": "integer"},
    "description": "In how many seconds the same request may succeed",
}
NOT_MODIFIED = "Not modified: the copy whose ETag the client sent is the current one (no body)"


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """``@extend_schema(responses=...)`` entries for these error statuses, in the error shape."""
    return {code: OpenApiResponse(ErrorSerializer, ERROR_DESCRIPTIONS[code]) for code in codes}


#: A typed parameter of a Django route: ``<converter:name>``.
_PATH_PARAMETER = re.compile(r"<(\w+):(\w+)>")


class ApiSchema(AutoSchema):
    """The schema of an API view: its bodies as JSON, and the error answers it can give
    documented, each in the one error shape: 400 (invalid body or filter), 401 (a view that
    authenticates), 403 and 409 (writes that need a user), 404 (a path with a key, or pages),
    413 and 415 (a body). A view declares the errors of its own (a 422) with
    ``error_responses``; every 4xx it declares is shown in the error shape too."""

    def map_parsers(self) -> list[str]:
        """Every body is published as JSON alone, so that a generated client has one way to
        send it (the parsers still read forms, for the clients that post them). An endpoint
        that also takes a .mat file declares its other bodies (``games.api.with_mat_file``)."""
        return ["application/json"]

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if self._answers_with_etag():
            responses["304"] = {
                "description": NOT_MODIFIED,
                "headers": self._get_response_headers_for_code("304", direction),
            }
        for code in self._error_codes():
            responses.setdefault(str(code), None)
        for code in list(responses):
            if code.isdigit() and 400 <= int(code) < 500:
                error = OpenApiResponse(ErrorSerializer, ERROR_DESCRIPTIONS.get(int(code), ""))
                responses[code] = self._get_response_for_code(
                    error, code, ["application/json"], direction
                )
        if "429" in responses:
            responses["429"].setdefault("headers", {})["Retry-After"] = RETRY_AFTER
        return dict(sorted(responses.items()))

    def _error_codes(self) -> set[int]:
        view = self.view
        write = self.method not in ("GET", "HEAD", "OPTIONS")
        open_to_all = all(issubclass(cls, AllowAny) for cls in view.permission_classes)
        codes: set[int] = set()
        if view.authentication_classes:
            codes.add(401)
        if write and not open_to_all:
            codes |= {400, 403, 409}
        if write and self.get_request_serializer() is not None:
            codes |= {400, 413, 415}
        if not write and (
            getattr(view, "filterset_fields", None) or getattr(view, "filterset_class", None)
        ):
            codes.add(400)
        if "{" in self.path or (not write and self._is_list_view() and self._get_paginator()):
            codes.add(404)
        return codes

    # Beyond the errors: the ETag reads' 304, and the closed sets of path parameters.

    def get_override_parameters(self) -> list[Any]:
        """A view whose GET answers with an ETag (``with_etag``) says so with
        ``answers_with_etag = True``: its GET reads If-None-Match and answers 304, each answer
        with the ETag header (``_get_response_bodies`` adds the 304)."""
        parameters = list(super().get_override_parameters())
        return parameters + ETAG_PARAMETERS if self._answers_with_etag() else parameters

    def _answers_with_etag(self) -> bool:
        return self.method == "GET" and getattr(self.view, "answers_with_etag", False)

    def _resolve_path_parameters(self, variables: list[str]) -> list[dict[str, Any]]:
        """A path parameter of a closed set (``nardy_site.api_paths.ClosedSet``) is an enum."""
        parameters: list[dict[str, Any]] = super()._resolve_path_parameters(variables)
        converters = get_converters()
        closed = {
            name: type(converter)
            for kind, name in _PATH_PARAMETER.findall(self.path_regex)
            if isinstance(converter := converters.get(kind), ClosedSet)
        }
        for parameter in parameters:
            if parameter["name"] in closed:
                parameter["schema"] = self._enum_component(closed[parameter["name"]]).ref
        return parameters

    def _enum_component(self, closed: type[ClosedSet]) -> ResolvedComponent:
        """The set's enum as a component (``VariantEnum``…), as its fields refer to it: one type
        in a generated client, not one per operation."""
        component = ResolvedComponent(
            name=closed.component,
            type=ResolvedComponent.SCHEMA,
            object=closed.component,
            schema={
                "enum": [value for value, _ in closed.choices],
                "type": "string",
                "description": build_choice_description_list(closed.choices),
            },
        )
        self.registry.register_on_missing(component)
        return component
