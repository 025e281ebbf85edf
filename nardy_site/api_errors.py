"""One error shape for every API error: ``{"error": {"code", "message", "details"}}``.

The services' ``TournamentError``s keep their status (400, 403, 409), an illegal game record is a
422 that names the game, move, player, play and reason, and DRF's own errors (validation,
authentication, not found, throttling) are reshaped the same way. Whatever raised the error
changed nothing: services work in one transaction.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.services import IllegalRecordError
from tournaments.errors import TournamentError


class IllegalRecord(exceptions.APIException):
    """A game record that breaks the rules: 422 with where and why."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "illegal_record"

    def __init__(self, error: IllegalRecordError) -> None:
        super().__init__(str(error))
        self.details = {
            "game": error.game,
            "move": error.move,
            "player": error.side,
            "play": error.play,
            "reason": error.reason,
        }


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"


def error_response(status_code: int, code: str, message: str, details: Any = None) -> Response:
    return Response(
        {"error": {"code": code, "message": message, "details": details or {}}},
        status=status_code,
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, TournamentError):
        return error_response(exc.status, exc.code, exc.message, exc.details)
    if isinstance(exc, IllegalRecordError):
        exc = IllegalRecord(exc)
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(str(exc))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    details: Any = getattr(exc, "details", None)
    if isinstance(exc, exceptions.ValidationError):
        details = {"fields": exc.detail}
        message = "The request is not valid: see details.fields."
    else:
        message = str(exc.detail)
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else "invalid"
    response.data = {"error": {"code": code, "message": message, "details": details or {}}}
    return response
