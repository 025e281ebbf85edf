"""Reads of sign-ups: the lists of a tournament's sign-up page, and a user's own sign-ups."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from tournaments.models import Entry, Player, Tournament
from tournaments.players.pairs import in_pair_with
from tournaments.signups.models import SignUp

State = SignUp.State


@dataclass(frozen=True)
class SignUpLists:
    """Who is in (with the check-in), who waits for a place (in order), who waits for approval."""

    entered: list[Entry]
    waiting: list[SignUp]
    pending: list[SignUp]

    @property
    def checked_in(self) -> int:
        return sum(1 for entry in self.entered if entry.checked_in_at is not None)


def signup_lists(*, tournament: Tournament) -> SignUpLists:
    """Two queries: the entries with their players, and the sign-ups that wait."""
    entered = list(
        tournament.entries.filter(withdrawn=False)
        .select_related("player")
        .order_by("player__display_name")
    )
    waiting = tournament.signups.filter(state__in=(State.WAITING, State.PENDING))
    waiting = waiting.select_related("player").order_by("created_at", "pk")
    return SignUpLists(
        entered,
        [signup for signup in waiting if signup.state == State.WAITING],
        [signup for signup in waiting if signup.state == State.PENDING],
    )


@dataclass(frozen=True)
class Mine:
    """The signed-in user's place in a tournament: their player (None: they have none yet), its
    active sign-up and its entry (an organizer may have entered them without a sign-up)."""

    player: Player | None
    signup: SignUp | None
    entry: Entry | None
    #: A pairs tournament: the sign-ups that name this player as the partner, to confirm.
    asked: list[SignUp] = field(default_factory=list)


def mine(*, tournament: Tournament, user: AbstractBaseUser | AnonymousUser) -> Mine | None:
    if not user.is_authenticated:
        return None
    player = Player.objects.filter(user_id=user.pk).order_by("pk").first()
    if player is None:
        return Mine(None, None, None)
    # In a pairs tournament the player signs up with a partner, then plays in the pair's record.
    in_pair = in_pair_with(player)
    active = tournament.signups.filter(state__in=SignUp.ACTIVE)
    signup = (
        active.filter(Q(player=player) | in_pair)
        .select_related("entry", "player", "partner")
        .first()
    )
    entry = tournament.entries.filter(Q(player=player) | in_pair).select_related("player").first()
    asked = list(
        active.filter(partner=player, state=State.PARTNER).select_related("player").order_by("pk")
    )
    return Mine(player, signup, entry, asked)


def user_signups(*, user: AbstractBaseUser | AnonymousUser) -> list[SignUp]:
    """The user's sign-ups for tournaments that have not started yet, and those entered in
    running ones, soonest first, each with its tournament and entry; one query."""
    if not user.is_authenticated:
        return []
    before_start = Q(tournament__status=Tournament.Status.REGISTRATION)
    running = Q(tournament__status=Tournament.Status.RUNNING, state=State.ENTERED)
    return list(
        SignUp.objects.filter(Q(user_id=user.pk) & (before_start | running))
        .exclude(state=State.WITHDRAWN)
        .select_related("tournament", "player", "entry")
        .order_by("tournament__starts_at", "tournament__created_at", "pk")
    )
