"""One limit on every request body: ``API_MAX_UPLOAD_BYTES``.

A request whose ``Content-Length`` is larger is answered 413 before anything reads its body (the
CSRF check, a form, DRF's parsers): under /api/ in the API's one error shape (code
``payload_too_large``), elsewhere with a short page that the site's upload script shows in place
of the form. Django's own ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is set to the same number, so a body
that reached the view some other way is held to it too. A WSGI server passes the view no more of
the body than ``Content-Length`` says (Django's ``LimitedStream``), so no request gets past the
limit by leaving the header out or understating it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

API_PREFIX = "/api/"


class BodyLimitMiddleware:
    """Refuse a body over ``settings.API_MAX_UPLOAD_BYTES`` unread, with 413."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.API_MAX_UPLOAD_BYTES
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:  # as Django reads it: a malformed length is no body at all
            size = 0
        if size <= limit:
            return self.get_response(request)
        message = _(
            "The request is %(size)s bytes: larger than %(limit)s bytes, the most this site "
            "accepts. Nothing was read or changed."
        ) % {"size": size, "limit": limit}
        if request.path_info.startswith(API_PREFIX):
            body = {
                "error": {
                    "code": "payload_too_large",
                    "message": message,
                    "details": {"size": size, "limit": limit},
                }
            }
            return JsonResponse(body, status=413)
        return HttpResponse(render_to_string("413.html", {"message": message}), status=413)
