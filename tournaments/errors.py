"""The errors a user can cause in the tournament services, each with a message for that user.

Views and the API map them to one response shape: ``InvalidInput`` → 400, ``NotAllowed`` → 403,
``NotFound`` → 404 (no such thing, or none the user may see), ``Conflict`` → 409 (the action
does not fit the tournament's or the match's state),
``IllegalGameRecord`` → 422 (a play breaks the rules: where and why). Whatever raised one changed
nothing.
"""

from __future__ import annotations

from nardy_site.errors import UserError


class TournamentError(UserError):
    """Base: ``message`` is shown to the user as it is."""


class InvalidInput(TournamentError):
    """Bad input: a form field, a score that cannot be, an illegal game record."""

    status = 400

    @classmethod
    def of_fields(cls, message_dict: dict[str, list[str]]) -> InvalidInput:
        """The field errors of a model's ``full_clean`` (``ValidationError.message_dict``) as
        one message: "name: … ; country: …"."""
        return cls("; ".join(f"{name}: {' '.join(texts)}" for name, texts in message_dict.items()))


class NotAllowed(TournamentError):
    """The user may not do this (not an organizer, not a player of the match)."""

    status = 403
    code = "not_allowed"


class NotFound(TournamentError):
    """No such thing, or none this user may see (a draft tournament's match, to its readers)."""

    status = 404
    code = "not_found"


class Conflict(TournamentError):
    """The action does not fit the current state (a result already reported, a round unfinished)."""

    status = 409
    code = "conflict"


class IllegalGameRecord(InvalidInput):
    """A recorded play breaks the rules; ``details`` name the game, move, player, play, reason."""

    status = 422
    code = "illegal_record"

    def __init__(
        self, message: str, *, game: int, move: int, player: int, play: str, reason: str
    ) -> None:
        super().__init__(message)
        self.details = {
            "game": game, "move": move, "player": player, "play": play, "reason": reason,
        }  # fmt: skip
