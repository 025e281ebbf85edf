"""The errors a user can cause in the tournament services, each with a message for that user.

Views and the API map them to one response shape: ``InvalidInput`` → 400, ``NotAllowed`` → 403,
``Conflict`` → 409 (the action does not fit the tournament's or the match's state). Whatever
raised one changed nothing.
"""

from __future__ import annotations


class TournamentError(Exception):
    """Base: ``message`` is shown to the user as it is."""

    status = 400

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class InvalidInput(TournamentError):
    """Bad input: a form field, a score that cannot be, an illegal game record."""

    status = 400


class NotAllowed(TournamentError):
    """The user may not do this (not an organizer, not a player of the match)."""

    status = 403


class Conflict(TournamentError):
    """The action does not fit the current state (a result already reported, a round unfinished)."""

    status = 409
