"""Reads of clubs: the list, a club's page (its events by status, members, seasons, and its own
rating list read from the site's lists) and the version the page is cached by."""

from __future__ import annotations

from django.db.models import Count, Max, Q, QuerySet, Sum

from tournaments.clubs.models import Club, Membership
from tournaments.models import Player, Tournament
from tournaments.policy import RUNS_EVENTS, User, is_staff
from tournaments.ratings.models import RatingList
from tournaments.ratings.selectors import RatingListRow, rating_list

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


def club_tournaments(*, club: Club, drafts: bool = False) -> dict[str, list[Tournament]]:
    """The club's tournaments: ``upcoming`` (in registration, and drafts when asked: for those
    who run the club), ``running`` and ``finished``, each newest first, with ``entry_count``."""
    groups: dict[str, list[Tournament]] = {"upcoming": [], "running": [], "finished": []}
    found = Tournament.objects.filter(club=club, parent__isnull=True)  # stages: on their event
    if not drafts:
        found = found.exclude(status=Status.DRAFT)
    found = (
        found.select_related("season")
        .annotate(entry_count=Count("entries"))
        .order_by("-created_at", "-pk")
    )
    for tournament in found:
        if tournament.status == Status.RUNNING:
            groups["running"].append(tournament)
        elif tournament.status == Status.FINISHED:
            groups["finished"].append(tournament)
        else:
            groups["upcoming"].append(tournament)
    return groups


def club_members(*, club: Club) -> list[Membership]:
    """Owners, then organizers, then members, by name, each with their user."""
    order = {Membership.Role.OWNER: 0, Membership.Role.ORGANIZER: 1, Membership.Role.MEMBER: 2}
    members = list(club.memberships.select_related("user"))
    members.sort(key=lambda m: (order.get(m.role, 3), m.user.get_username().lower()))
    return members


def club_players(*, club: Club) -> QuerySet[Player]:
    """The club's players: the members' player profiles and whoever played in its events."""
    return Player.objects.filter(
        Q(user__club_memberships__club=club) | Q(entries__tournament__club=club)
    ).distinct()


def club_rating_list(*, club: Club, system: str, variant: str) -> list[RatingListRow]:
    """The club's players' ratings in one of the site's lists, ranked within the club."""
    return rating_list(system=system, variant=variant, among=club_players(club=club))
