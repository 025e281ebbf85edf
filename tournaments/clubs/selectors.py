"""Reads of clubs: the list, a club's page (its events by status, members, seasons, and its own
rating list read from the site's lists) and the version the page is cached by."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, IntegerField, Max, Q, QuerySet, Sum, When
from django.db.models.functions import Lower

from tournaments.clubs.models import Club, Membership
from tournaments.models import Player, Tournament
from tournaments.policy import RUNS_EVENTS, User, is_staff
from tournaments.ratings.models import RatingList
from tournaments.ratings.selectors import RatingListRow, rating_list
from tournaments.selectors import with_entry_counts

Status = Tournament.Status


def clubs_run_by(user: User) -> list[Club]:
    """The clubs whose events the user may run (staff: every club)."""
    if not user.is_authenticated:
        return []
    if is_staff(user):
        return list(Club.objects.all())
    return list(
        Club.objects.filter(memberships__user_id=user.pk, memberships__role__in=RUNS_EVENTS)
    )


def club_list() -> QuerySet[Club]:
    """Every club by name, with ``member_count`` and ``tournament_count``."""
    return Club.objects.annotate(
        member_count=Count("memberships", distinct=True),
        tournament_count=Count("tournaments", distinct=True),
    )


def club_list_version() -> str:
    """The clubs' number, newest and revisions summed, and their tournaments' number: a new,
    changed or deleted club, a member or a tournament more changes it."""
    totals = Club.objects.aggregate(count=Count("pk"), newest=Max("pk"), sum=Sum("revision"))
    events = Tournament.objects.filter(club__isnull=False).count()
    return f"{totals['count']}:{totals['newest']}:{totals['sum']}:{events}"


def club_version(*, slug: str) -> str | None:
    """The club's revision (members), its seasons' and tournaments' (number, newest, revisions
    summed) and the rating lists' (its rating list): None, no such club."""
    row = (
        Club.objects.filter(slug=slug)
        .annotate(
            events=Count("tournaments"),
            newest=Max("tournaments__pk"),
            revisions=Sum("tournaments__revision"),
        )
        .values_list("revision", "events", "newest", "revisions", "pk")
        .first()
    )
    if row is None:
        return None
    seasons = Club.objects.filter(pk=row[-1]).aggregate(
        count=Count("seasons"), revisions=Sum("seasons__revision")
    )
    lists = RatingList.objects.aggregate(revisions=Sum("revision"))["revisions"]
    return ":".join(str(part) for part in (*row[:-1], *seasons.values(), lists))


#: The finished tournaments a club's page shows (the newest); the rest are a link away.
CLUB_RECENT_FINISHED = 10
#: The rating leaders a club's page shows in each game.
CLUB_LEADERS = 10
#: The members a club's page names (owners and organizers first).
CLUB_MEMBERS_SHOWN = 50
#: The members of a page of the members' page (``?page=N``) and of the API's list.
CLUB_MEMBERS_PAGE = 50


@dataclass(frozen=True)
class ClubTournaments:
    """A club's tournaments as its page shows them, each newest first, with ``entry_count``:
    ``upcoming`` (in registration, and drafts for those who run the club), ``running``, and the
    newest ``finished`` of ``finished_count``."""

    upcoming: list[Tournament]
    running: list[Tournament]
    finished: list[Tournament]
    finished_count: int


def club_tournaments(*, club: Club, drafts: bool = False, discipline: str = "") -> ClubTournaments:
    """The club's tournaments for its page (``discipline``: of that discipline only): three
    queries however many it has run."""
    found = Tournament.objects.filter(club=club, parent__isnull=True)  # stages: on their event
    if discipline:
        found = found.filter(discipline=discipline)
    if not drafts:
        found = found.filter(status__in=Tournament.PUBLIC)
    found = found.select_related("season").order_by("-created_at", "-pk")
    current = list(with_entry_counts(found.exclude(status=Status.FINISHED)))
    finished = found.filter(status=Status.FINISHED)
    return ClubTournaments(
        upcoming=[t for t in current if t.status != Status.RUNNING],
        running=[t for t in current if t.status == Status.RUNNING],
        finished=list(with_entry_counts(finished)[:CLUB_RECENT_FINISHED]),
        finished_count=finished.count(),
    )


def club_members(*, club: Club) -> QuerySet[Membership]:
    """Owners, then organizers, then members, by name, each with their user: a page of them is
    a slice (``CLUB_MEMBERS_SHOWN`` on the club's page, ``CLUB_MEMBERS_PAGE`` on the others)."""
    order = Case(
        When(role=Membership.Role.OWNER, then=0),
        When(role=Membership.Role.ORGANIZER, then=1),
        default=2,
        output_field=IntegerField(),
    )
    return club.memberships.select_related("user").order_by(order, Lower("user__username"), "pk")


def club_players(*, club: Club) -> QuerySet[Player]:
    """The club's players: the members' player profiles and whoever played in its events."""
    return Player.objects.filter(
        Q(user__club_memberships__club=club) | Q(entries__tournament__club=club)
    ).distinct()


def club_rating_list(
    *, club: Club, system: str, discipline: str, size: int | None = None
) -> list[RatingListRow]:
    """The club's players' ratings in one of the site's lists, ranked within the club (the first
    ``size``; None: all)."""
    return rating_list(
        system=system, discipline=discipline, among=club_players(club=club), size=size
    )
