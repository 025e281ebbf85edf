"""The one base of every error a user can cause, for every part of the site (the rules engine's
records, the tournament services, the rate limits): a message for that user, the HTTP status
and code the API answers with, and details. Plain Python, so that the pure parts may raise it;
the API maps it to its one error shape (``nardy_site.api_errors``), the pages show ``message``
under ``status``. Whatever raised one changed nothing."""

from __future__ import annotations


class UserError(Exception):
    """Base: ``message`` is shown to the user as it is; ``details`` are for programs."""

    status = 400
    code = "invalid"
    #: Seconds until the same request may succeed (a Retry-After header), when it says.
    retry_after: int | None = None

    def __init__(self, message: str, details: dict[str, object] | None = None) -> None:
        self.message = message
        self.details: dict[str, object] = dict(details or {})
        super().__init__(message)
