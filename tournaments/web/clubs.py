"""The club pages: the list, a club's page (shared by anonymous readers until the club, its
tournaments, seasons or ratings change), and the forms of those who run it. Each form calls one
service; a refusal is shown on the same page under its 4xx status, with nothing changed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from nardy_site.page_cache import shared_page
from nardy_site.paging import pager
from tournaments.clubs import selectors, services
from tournaments.clubs.models import Club
from tournaments.errors import InvalidInput, TournamentError
from tournaments.models import Tournament
from tournaments.policy import club_role, may
from tournaments.web.club_forms import ClubForm, MemberForm
from tournaments.web.common import posts, refused, require_runs_to_view

FORM_TEMPLATE = "clubs/club_form.html"
MEMBERS_TEMPLATE = "clubs/members.html"


def club_of(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _club_version(slug: str) -> str:
    version = selectors.club_version(slug=slug)
    if version is None:
        raise Http404
    return version


@shared_page(selectors.club_list_version)
def club_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/club_list.html", {"clubs": selectors.club_list()})


@shared_page(_club_version, params={"discipline": Tournament.Discipline.values})
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_of(slug)
    discipline = request.GET.get("discipline", "")
    leaders = selectors.CLUB_LEADERS
    ratings = [
        (
            discipline,
            label,
            selectors.club_rating_list(
                club=club, system="fibs", discipline=discipline, size=leaders
            ),
        )
        for discipline, label in Tournament.Discipline.choices
    ]
    runs = may(request.user, "club.events", club)
    return render(
        request,
        "clubs/club.html",
        {
            "club": club,
            "runs": runs,
            "role": club_role(club, request.user),
            "tournaments": selectors.club_tournaments(
                club=club, drafts=runs, discipline=discipline
            ),
            "discipline": discipline,
            "disciplines": Tournament.Discipline.choices,
            "members": selectors.club_members(club=club)[: selectors.CLUB_MEMBERS_SHOWN],
            "member_count": club.memberships.count(),
            "seasons": club.seasons.all(),
            "ratings": ratings,
        },
    )


@login_required
def club_create_page(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return render(request, FORM_TEMPLATE, {"form": ClubForm()})
    form = ClubForm(request.POST)
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, {"form": form}, status=400)
    try:
        club = services.club_create(by=request.user, **form.club_fields())
    except TournamentError as error:
        return refused(request, FORM_TEMPLATE, {"form": form}, error)
    messages.success(request, _("The club is created: you are its owner."))
    return redirect(reverse("club", args=[club.slug]))


@login_required
def club_edit_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_of(slug)
    require_runs_to_view(request, club)
    context: dict[str, Any] = {"club": club}
    if request.method != "POST":
        return render(request, FORM_TEMPLATE, {**context, "form": ClubForm(instance=club)})
    form = ClubForm(request.POST, instance=Club(pk=club.pk, slug=club.slug))
    context["form"] = form
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, context, status=400)
    try:
        services.club_update(club=club, by=request.user, **form.club_fields())
    except TournamentError as error:
        return refused(request, FORM_TEMPLATE, context, error)
    messages.success(request, _("The club's details are saved."))
    return redirect(reverse("club", args=[club.slug]))


@posts("action", "add", "remove")
@login_required
def club_members_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The members, a form to add one or change a role, and a remove button each (the
    ``action`` field says which was posted)."""
    club = club_of(slug)
    action = request.POST.get("action", "add")
    if request.method == "POST" and action == "remove":
        return _member_remove(request, club)  # a member may leave: the service decides
    require_runs_to_view(request, club)
    if request.method != "POST":
        return _members_page(request, club, MemberForm())
    if action != "add":
        error = InvalidInput(_("Unknown action: nothing was changed."))
        return _members_page(request, club, MemberForm(), error=error)
    form = MemberForm(request.POST)
    if not form.is_valid():
        return _members_page(request, club, form, status=400)
    try:
        membership = services.member_add(club=club, by=request.user, **form.cleaned_data)
    except TournamentError as error:
        return _members_page(request, club, form, error=error)
    messages.success(
        request,
        _("%(user)s is now %(role)s of the club.")
        % {"user": membership.user.get_username(), "role": membership.get_role_display()},
    )
    return redirect(reverse("club-members", args=[club.slug]))


def _member_remove(request: HttpRequest, club: Club) -> HttpResponse:
    try:
        user_id = int(request.POST.get("user", ""))
    except ValueError:
        error = InvalidInput(_("Say which member to remove."))
        return _members_page(request, club, MemberForm(), error=error)
    try:
        services.member_remove(club=club, by=request.user, user_id=user_id)
    except TournamentError as error:
        return _members_page(request, club, MemberForm(), error=error)
    messages.success(request, _("The member is removed."))
    if user_id == request.user.pk and not may(request.user, "club.members", club):
        return redirect(reverse("club", args=[club.slug]))
    return redirect(reverse("club-members", args=[club.slug]))


def _members_page(
    request: HttpRequest,
    club: Club,
    form: MemberForm,
    *,
    error: TournamentError | None = None,
    status: int = 200,
) -> HttpResponse:
    page = pager(request.GET, total=club.memberships.count(), size=selectors.CLUB_MEMBERS_PAGE)
    context = {
        "club": club,
        "form": form,
        "members": page.cut(selectors.club_members(club=club)),
        "pager": page,
        "owner": may(request.user, "club.roles", club),
    }
    if error is not None:
        return refused(request, MEMBERS_TEMPLATE, context, error)
    return render(request, MEMBERS_TEMPLATE, context, status=status)
