"""Reads of the organizer's inbox: what waits for them in the tournaments they organize (as
organizer, co-organizer, or an owner or organizer of the tournament's club) and the claims they
decide. The items and their count in four queries each, however many there are.

Staff decide everywhere (``policy``), but their inbox is the tournaments they run themselves:
the whole site's evening would bury their own. The claims are the claims page's
(``players.selectors.claims_to_decide``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Membership
from tournaments.models import Match, Tournament
from tournaments.players.models import PlayerClaim
from tournaments.players.selectors import claims_to_decide
from tournaments.policy import RUNS_EVENTS, User, decides, judge_role, organizes
from tournaments.signups.models import SignUp


class Kind(enum.StrEnum):
    """What an item waits for; the API says it by its value."""

    REPORTED = "reported"  # a reported result to confirm
    DISPUTED = "disputed"  # a disputed result to resolve
    SIGNUP = "signup"  # a sign-up to approve or decline
    CLAIM = "claim"  # a player claim to approve or decline
    TO_PLAY = "to-play"  # a match of the current round not played yet

    @property
    def label(self) -> str:
        return str(KIND_LABELS[self])

    @property
    def decision(self) -> bool:
        """Whether it waits for the organizer's decision (counted); a match to play waits for
        its players, and is listed so the organizer sees the round's progress."""
        return self is not Kind.TO_PLAY


KIND_LABELS = {
    Kind.REPORTED: _("Results to confirm"),
    Kind.DISPUTED: _("Disputes to resolve"),
    Kind.SIGNUP: _("Sign-ups to approve"),
    Kind.CLAIM: _("Player claims to decide"),
    Kind.TO_PLAY: _("Still to play in the current round"),
}


@dataclass(frozen=True)
class InboxItem:
    """One thing that waits: its kind, its tournament (none for a claim) and the record it is
    about, exactly one of ``match``, ``signup`` and ``claim``."""

    kind: Kind
    tournament: Tournament | None
    match: Match | None = None
    signup: SignUp | None = None
    claim: PlayerClaim | None = None

    @property
    def pk(self) -> int:
        record = self.match or self.signup or self.claim
        assert record is not None
        return record.pk

    @property
    def since(self) -> datetime | None:
        """When it started waiting, as far as the record says."""
        if self.match is not None:
            return self.match.reported_at  # a match to play: None
        if self.signup is not None:
            return self.signup.created_at
        assert self.claim is not None
        return self.claim.created_at


def judged_by(user: User) -> QuerySet[Tournament]:
    """The official tournaments not finished yet whose panel the user is on (a stage: its
    event's): a query to use inside another."""
    on_panel = Q(judges__user=user.pk) | Q(parent__judges__user=user.pk)
    return (
        Tournament.objects.filter(on_panel, official=True)
        .exclude(status=Tournament.Status.FINISHED)
        .values("pk")
    )


def organized_by(user: User) -> QuerySet[Tournament]:
    """The tournaments not finished yet that the user organizes, co-organizes, or runs through
    their club: a query to use inside another (``pk__in``)."""
    runs = Membership.objects.filter(user_id=user.pk, role__in=RUNS_EVENTS).values("club_id")
    mine = Q(organizer_id=user.pk) | Q(co_organizers=user.pk) | Q(club_id__in=runs)
    return Tournament.objects.filter(mine).exclude(status=Tournament.Status.FINISHED).values("pk")


def inbox_items(*, user: User, tournament: Tournament | None = None) -> list[InboxItem]:
    """What waits for the user, oldest first within each kind, in the order of ``Kind``; only
    ``tournament``'s when it is given and they may run it (then no claim). Four queries at
    most: the matches, the sign-ups, the user's clubs and the claims (the organized
    tournaments are a subquery of each)."""
    if not user.is_authenticated:
        return []
    tournaments = _tournaments(user, tournament)
    items: list[InboxItem] = []
    matches = _waiting_matches(tournaments, _deciding(user, tournament)).select_related(
        "tournament", "round", "home__player", "away__player"
    )
    for match in matches.order_by("reported_at", "round__number", "bracket_round", "pk"):
        items.append(InboxItem(_match_kind(match), match.tournament, match=match))
    signups = _pending_signups(tournaments).select_related("tournament", "player", "partner")
    signups = signups.filter(tournament__in=_organizing(user, tournament))  # the organizers' own
    for signup in signups.order_by("created_at", "pk"):
        items.append(InboxItem(Kind.SIGNUP, signup.tournament, signup=signup))
    if tournament is None:
        for claim in claims_to_decide(user=user).order_by("created_at", "pk"):
            items.append(InboxItem(Kind.CLAIM, None, claim=claim))
    order = list(Kind)
    return sorted(items, key=lambda item: order.index(item.kind))  # stable: keeps each's order


def decisions_among(items: list[InboxItem]) -> int:
    """How many of ``items`` wait for the organizer's decision (what ``inbox_count`` counts)."""
    return sum(1 for item in items if item.kind.decision)


def inbox_count(*, user: User, tournament: Tournament | None = None) -> int:
    """How many of the user's items wait for their decision (the matches still to play are
    not counted): four queries at most (three counts and the user's clubs), for the menu and
    the tournament pages."""
    if not user.is_authenticated:
        return 0
    tournaments = _tournaments(user, tournament)
    decided_by_organizer = (Match.Status.REPORTED, Match.Status.DISPUTED)
    count = Match.objects.filter(
        tournament__in=_deciding(user, tournament), status__in=decided_by_organizer
    )
    signups = _pending_signups(tournaments).filter(tournament__in=_organizing(user, tournament))
    total = count.count() + signups.count()
    if tournament is None:
        total += claims_to_decide(user=user).count()
    return total


def _tournaments(user: User, tournament: Tournament | None) -> QuerySet[Tournament]:
    """The user's tournaments; or ``tournament`` alone when they may run it (staff too, on
    its own page), none when they may not."""
    if tournament is None:
        return Tournament.objects.filter(
            Q(pk__in=organized_by(user)) | Q(pk__in=judged_by(user))
        ).values("pk")
    unfinished = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    if not organizes(tournament, user) and judge_role(tournament, user) is None:
        return unfinished.none().values("pk")
    return unfinished.filter(pk=tournament.pk).values("pk")


def _deciding(user: User, tournament: Tournament | None) -> QuerySet[Tournament]:
    """The user's tournaments whose results they decide: those they organize that are not
    official, and the official ones whose panel they are on (``tournament`` alone, when given)."""
    if tournament is not None:
        found = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
        if not decides(tournament, user):
            return found.none().values("pk")
        return found.filter(pk=tournament.pk).values("pk")
    mine = Q(pk__in=organized_by(user), official=False) | Q(pk__in=judged_by(user))
    return Tournament.objects.filter(mine).values("pk")


def _organizing(user: User, tournament: Tournament | None) -> QuerySet[Tournament]:
    """The user's tournaments whose sign-ups they decide (``tournament`` alone, when given)."""
    if tournament is None:
        return organized_by(user)
    found = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    if not organizes(tournament, user):
        return found.none().values("pk")
    return found.filter(pk=tournament.pk).values("pk")


def _waiting_matches(
    tournaments: QuerySet[Tournament], deciding: QuerySet[Tournament]
) -> QuerySet[Match]:
    """Reported and disputed results where the user decides them (``deciding``), and the
    playable matches of the current round of ``tournaments``: a round tournament's earliest
    round with a match to play, every playable match of a bracket."""
    playable = Q(
        tournament__status=Tournament.Status.RUNNING,
        status=Match.Status.SCHEDULED,
        home__isnull=False,
        away__isnull=False,
    )
    current_round = (
        Match.objects.filter(playable, tournament=OuterRef("tournament"), round__isnull=False)
        .order_by("round__number")
        .values("round__number")[:1]
    )
    to_play = playable & (Q(round__isnull=True) | Q(round__number=Subquery(current_round)))
    answered = Q(status__in=(Match.Status.REPORTED, Match.Status.DISPUTED))
    return Match.objects.filter(
        (answered & Q(tournament__in=deciding)) | (to_play & Q(tournament__in=tournaments))
    )


def _pending_signups(tournaments: QuerySet[Tournament]) -> QuerySet[SignUp]:
    return SignUp.objects.filter(tournament__in=tournaments, state=SignUp.State.PENDING)


def _match_kind(match: Match) -> Kind:
    if match.status == Match.Status.REPORTED:
        return Kind.REPORTED
    if match.status == Match.Status.DISPUTED:
        return Kind.DISPUTED
    return Kind.TO_PLAY
