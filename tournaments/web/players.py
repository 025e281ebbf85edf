"""The pages of who players are: a user claims a player on its page; the runners of its home club
decide claims at ``/claims/``, merge a duplicate into a player at ``/p/<id>/merge/`` after a
preview, rename a pair (or a player not in a match yet) at ``/p/<id>/rename/``, delete a
mistaken player not in a match at ``/p/<id>/delete/``, and remove an account link;
``/identity/`` is the trail of these changes, where a merge (staff) or a rename is undone;
``/p/<id>/profile/`` is the player's profile (gender, birth year). Who may is
``tournaments.policy``'s. Each post calls one service; a refusal is shown under its 4xx
status, with nothing changed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.errors import InvalidInput, TournamentError
from tournaments.models import Player
from tournaments.players import selectors, services
from tournaments.players.audit import identity_trail
from tournaments.players.models import IdentityAudit, PlayerClaim
from tournaments.policy import RULES, may
from tournaments.web.common import posted_next, posts, refused, safe_next
from tournaments.web.player_forms import PlayerProfileForm, PlayerRenameForm


@login_required
@require_POST
def player_claim(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    try:
        services.claim_request(player=player, by=request.user)
    except TournamentError as error:
        return refused(request, "players/refused.html", {"player": player}, error)
    messages.success(request, _("Claimed: an organizer of the player's home club will decide."))
    return redirect(reverse("player", args=[player.pk]))


@posts("decision", "approve", "decline")
@login_required
def claims_page(request: HttpRequest) -> HttpResponse:
    """The claims waiting for the user's decision, with approve and decline buttons."""
    context = {"claims": selectors.claims_to_decide(user=request.user)}
    if request.method != "POST":
        return render(request, "players/claims.html", context)
    given = request.POST.get("claim", "")
    claim = PlayerClaim.objects.filter(pk=int(given)).first() if given.isdigit() else None
    try:
        if claim is None:
            raise InvalidInput(_("There is no such claim."))
        decision = request.POST.get("decision")
        if decision == "approve":
            services.claim_approve(claim=claim, by=request.user)
            messages.success(request, _("%(player)s is linked to %(user)s.") % {
                "player": claim.player, "user": claim.user.get_username()})  # fmt: skip
        elif decision == "decline":
            services.claim_decline(claim=claim, by=request.user)
            messages.success(request, _("The claim is declined."))
        else:
            raise InvalidInput(_("Approve or decline the claim."))
    except TournamentError as error:
        return refused(request, "players/claims.html", context, error)
    return redirect(reverse("player-claims"))


@login_required
def merge_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the duplicate, see what the merge moves, confirm."""
    keep = get_object_or_404(Player, pk=pk)
    if not may(request.user, "player.decide", keep):
        raise PermissionDenied(RULES["player.merge"].refusal)
    candidates = selectors.merge_candidates(keep=keep, user=request.user)
    given = request.POST.get("drop") or request.GET.get("drop") or ""
    drop = candidates.filter(pk=int(given)).first() if given.isdigit() else None
    context = {
        "keep": keep,
        "candidates": candidates,
        "drop": drop,
        "preview": selectors.merge_preview(keep=keep, drop=drop) if drop else None,
    }
    if request.method != "POST":
        return render(request, "players/merge.html", context)
    try:
        if drop is None:
            raise InvalidInput(_("Choose the duplicate to merge into this player."))
        services.players_merge(keep=keep, drop=drop, by=request.user)
    except TournamentError as error:
        return refused(request, "players/merge.html", context, error)
    messages.success(request, _("%(drop)s is merged into %(keep)s; the ratings are replayed.")
                     % {"drop": drop.display_name, "keep": keep.display_name})  # fmt: skip
    return redirect(reverse("player", args=[keep.pk]))


@login_required
def profile_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's profile (gender, birth year, region, sport rank): for the player and for
    those who decide who they are (``policy``'s ``profile.read``); ``?next=`` a page of this
    site to go back to (the sign-up page that asked for it)."""
    player = get_object_or_404(Player, pk=pk)
    if not may(request.user, "profile.read", player):
        raise PermissionDenied(RULES["profile.read"].refusal)
    given_next = safe_next(request, request.POST.get("next") or request.GET.get("next") or "")
    back = given_next or reverse("player", args=[player.pk])
    context = {"player": player, "back": back, "next": given_next or ""}
    if request.method != "POST":
        return render(
            request, PROFILE_TEMPLATE, {**context, "form": PlayerProfileForm(instance=player)}
        )
    form = PlayerProfileForm(request.POST, instance=Player(pk=player.pk))
    context["form"] = form
    if not form.is_valid():
        return render(request, PROFILE_TEMPLATE, context, status=400)
    try:
        services.player_profile_update(player=player, by=request.user, **form.profile_fields())
    except TournamentError as error:
        return refused(request, PROFILE_TEMPLATE, context, error)
    messages.success(request, _("The profile is saved."))
    return redirect(back)


PROFILE_TEMPLATE = "players/profile.html"


@login_required
@require_POST
def player_unlink(request: HttpRequest, pk: int) -> HttpResponse:
    """Remove the player's account link (its home club's runners, staff, or the account)."""
    player = get_object_or_404(Player, pk=pk)
    try:
        services.player_unlink(player=player, by=request.user)
    except TournamentError as error:
        return refused(request, "players/refused.html", {"player": player}, error)
    messages.success(request, _("%(player)s is no longer linked to an account.")
                     % {"player": player.display_name})  # fmt: skip
    return redirect(reverse("player", args=[player.pk]))


@login_required
def rename_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename a pair, or a player not in a match yet (its home club's runners), any player
    (staff): written to the identity trail, where it can be undone."""
    player = get_object_or_404(Player.objects.select_related("pair"), pk=pk)
    if not may(request.user, "player.rename", player):
        raise PermissionDenied(RULES["player.rename"].refusal)
    context = {"player": player}
    if request.method != "POST":
        form = PlayerRenameForm(initial={"name": player.display_name})
        return render(request, RENAME_TEMPLATE, {**context, "form": form})
    form = PlayerRenameForm(request.POST)
    context["form"] = form
    if not form.is_valid():
        return render(request, RENAME_TEMPLATE, context, status=400)
    was = player.display_name
    try:
        services.player_rename(player=player, by=request.user, name=form.cleaned_data["name"])
    except TournamentError as error:
        return refused(request, RENAME_TEMPLATE, context, error)
    player.refresh_from_db(fields=["display_name"])
    messages.success(request, _("%(was)s is renamed %(name)s.")
                     % {"was": was, "name": player.display_name})  # fmt: skip
    return redirect(reverse("player", args=[player.pk]))


RENAME_TEMPLATE = "players/rename.html"


@login_required
def delete_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a mistaken player (its home club's runners, staff) while they are in no match:
    the page says what goes with them (their entries, none with a match), the post deletes it
    and writes the identity trail."""
    player = get_object_or_404(Player.objects.select_related("home_club"), pk=pk)
    if not may(request.user, "player.delete", player):
        raise PermissionDenied(RULES["player.delete"].refusal)
    context = {"player": player, "entries": selectors.player_entries(player=player)}
    if request.method != "POST":
        return render(request, DELETE_TEMPLATE, context)
    try:
        services.player_delete(player=player, by=request.user)
    except TournamentError as error:
        return refused(request, DELETE_TEMPLATE, context, error)
    messages.success(request, _("%(player)s is deleted.") % {"player": player.display_name})
    return redirect(posted_next(request) or reverse("player-search"))


DELETE_TEMPLATE = "players/delete.html"


@login_required
def identity_page(request: HttpRequest) -> HttpResponse:
    """The identity trail the user may read (of one player with ``?player=``); a merge (staff)
    or a rename (who may rename the player) is undone from its row."""
    given = request.GET.get("player", "")
    player = Player.objects.filter(pk=int(given)).first() if given.isdigit() else None
    rows = list(identity_trail(user=request.user, player=player)[:200])
    undoable = (IdentityAudit.Action.MERGED, IdentityAudit.Action.RENAMED)
    context = {
        "rows": rows,
        "player": player,
        "may_undo": {
            row.pk
            for row in rows
            if row.action in undoable
            and row.undone_by_id is None
            and may(request.user, "identity.undo", row)
        },
    }
    if request.method != "POST":
        return render(request, "players/identity.html", context)
    given = request.POST.get("change") or request.POST.get("merge", "")
    change = IdentityAudit.objects.filter(pk=int(given)).first() if given.isdigit() else None
    try:
        if change is None:
            raise InvalidInput(_("There is no such change."))
        restored = services.identity_undo(change=change, by=request.user)
    except TournamentError as error:
        return refused(request, "players/identity.html", context, error)
    if change.action == IdentityAudit.Action.RENAMED:
        messages.success(request, _("The rename is undone: %(player)s has its name back.")
                         % {"player": restored.display_name})  # fmt: skip
    else:
        messages.success(request, _("The merge is undone: %(player)s is back; the ratings are "
                                    "replayed.") % {"player": restored.display_name})  # fmt: skip
    return redirect(reverse("player", args=[restored.pk]))
