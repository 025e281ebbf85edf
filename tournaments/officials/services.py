"""The writes of official events: the panel of judges named and removed by the organizers, an
entry removed with its reason (by the chief judge in an official event), the disqualifications
staff record; and the check every path of entry makes (``require_may_play``): in an official
event no official plays, nor a disqualified player."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournaments.errors import Conflict, InvalidInput
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.officials import selectors
from tournaments.officials.models import Judge, Sanction
from tournaments.policy import User, require
from tournaments.rows import locked
from tournaments.signups.models import SignUp

Status = Tournament.Status


@transaction.atomic
def judge_add(*, tournament: Tournament, username: str, role: str, by: User) -> Judge:
    """Name a site account to the panel of an official event, as its chief judge, its chief
    secretary or a judge. One chief a panel; nobody twice; nobody who plays in the event."""
    tournament = locked(Tournament, tournament.pk)
    require(by, "tournament.judges", tournament)
    _require_panel_open(tournament)
    if role not in Judge.Role.values:
        raise InvalidInput(
            _("A judge's role is one of: %(roles)s.") % {"roles": ", ".join(Judge.Role.values)}
        )
    account_model = get_user_model()
    user = account_model._default_manager.filter(
        **{account_model.USERNAME_FIELD: username.strip()}
    ).first()
    if user is None:
        raise InvalidInput(
            _("No site account is called “%(username)s”.") % {"username": username.strip()}
        )
    name = user.get_username()
    if Judge.objects.filter(tournament=tournament, user=user).exists():
        raise Conflict(_("%(user)s is on the panel already.") % {"user": name})
    if role == Judge.Role.CHIEF:
        chief = Judge.objects.filter(tournament=tournament, role=Judge.Role.CHIEF).first()
        if chief is not None:
            raise Conflict(
                _("%(user)s is the chief judge already: an event has one chief judge.")
                % {"user": chief.user.get_username()}
            )
    entry = selectors.entries_played_by(tournament, user.pk).select_related("player").first()
    if entry is not None:
        raise Conflict(
            _("%(user)s plays in this event (as %(player)s): a player may not be a judge of it.")
            % {"user": name, "player": entry.player.display_name}
        )
    signed_up = SignUp.objects.filter(
        Q(user=user) | Q(player__user=user) | Q(partner__user=user),
        tournament=tournament,
        state__in=SignUp.ACTIVE,
    ).exists()
    if signed_up:
        raise Conflict(
            _("%(user)s is signed up to play in this event: a player may not be a judge of it.")
            % {"user": name}
        )
    try:
        with transaction.atomic():
            return Judge.objects.create(
                tournament=tournament, user=user, role=role, added_by=_author(by)
            )
    except IntegrityError:
        raise Conflict(_("The panel changed just now: try again.")) from None


@transaction.atomic
def judge_remove(*, judge: Judge, by: User) -> None:
    """Take a judge off the panel (before the event is finished)."""
    tournament = locked(Tournament, judge.tournament_id)
    require(by, "tournament.judges", tournament)
    if tournament.status == Status.FINISHED:
        raise Conflict(_("The event is finished: its panel signed its protocol."))
    Judge.objects.filter(pk=judge.pk).delete()


def _require_panel_open(tournament: Tournament) -> None:
    if not tournament.official:
        raise Conflict(
            _("Only an official event has a panel of judges: mark the tournament official first.")
        )
    if tournament.parent_id is not None:
        raise Conflict(_("A stage is judged by its event's panel: name the judges there."))
    if tournament.status == Status.FINISHED:
        raise Conflict(_("The event is finished: its panel signed its protocol."))


# --- Who may play -------------------------------------------------------------------------------


def require_may_play(
    tournament: Tournament, player: Player, officials: dict[int, str] | None = None
) -> None:
    """In an official event, refuse a player (or a pair with a player) whose account is an
    official of it (an organizer or a judge: officials may not play), or who is disqualified
    (``Sanction``) today or on the start's day. Other events take anyone. ``officials``: the
    event's (``selectors.officials_of``), when read already."""
    if not tournament.official:
        return
    if officials is None:
        officials = selectors.officials_of(tournament)
    for member in selectors.members(player):
        what = officials.get(member.user_id) if member.user_id is not None else None
        if what == "judge":
            raise Conflict(
                _("%(player)s is a judge of this event: officials may not play in an official "
                  "event.") % {"player": member.display_name}
            )  # fmt: skip
        if what == "organizer":
            raise Conflict(
                _("%(player)s is an organizer of this event: officials may not play in an "
                  "official event.") % {"player": member.display_name}
            )  # fmt: skip
    found = selectors.active_sanctions(selectors.members(player), selectors.entry_days(tournament))
    if found:
        raise Conflict(disqualified(found[0]))


def disqualified(sanction: Sanction) -> str:
    """The refusal of a disqualified player: who, until when, and why."""
    given = {"player": sanction.player.display_name, "reason": sanction.reason}
    if sanction.ends_on is None:
        return (
            _("%(player)s is disqualified without an end date (%(reason)s): a disqualified "
              "player may not play in an official event.") % given
        )  # fmt: skip
    return (
        _("%(player)s is disqualified until %(date)s (%(reason)s): a disqualified player may "
          "not play in an official event.")
        % {**given, "date": formats.date_format(sanction.ends_on, "DATE_FORMAT")}
    )  # fmt: skip


def require_no_official_entered(tournament: Tournament) -> None:
    """Refuse to make a tournament official, or to start an official one, while one of its
    entrants may not play in an official event: an official of it (named since the entry: a
    co-organizer, a club's organizer), or disqualified (recorded since)."""
    if not tournament.official:
        return
    officials = selectors.officials_of(tournament)
    entries = Entry.objects.filter(tournament=tournament).select_related("player").order_by("pk")
    for entry in entries:
        require_may_play(tournament, entry.player, officials)


# --- Removal ------------------------------------------------------------------------------------


@transaction.atomic
def entry_remove(*, entry: Entry, by: User, reason: str) -> Entry:
    """Remove a player from a running event, with the reason: the chief judge's decision in an
    official event (the organizers' in another). Not a withdrawal: the entry keeps its results,
    is marked removed (who, when, why) and is not paired again (``withdrawn`` too); its matches
    still to play whose opponent is known are lost by forfeit, decided by the remover."""
    tournament = locked(Tournament, entry.tournament_id)
    entry = Entry.objects.select_related("tournament", "player").get(pk=entry.pk)
    require(by, "entry.remove", entry)
    reason = " ".join(reason.split())
    if not reason:
        raise InvalidInput(_("Give the reason for the removal."))
    if tournament.status == Status.FINISHED:
        raise Conflict(_("The tournament is finished."))
    if tournament.status != Status.RUNNING:
        raise Conflict(
            _("A player is removed from a running event; before the start, withdraw them.")
        )
    if entry.removed_at is not None:
        raise Conflict(_("%(player)s is removed already.") % {"player": entry.player})
    entry.withdrawn = True
    entry.removed_at = timezone.now()
    entry.removed_by = _author(by)  # type: ignore[assignment]
    entry.removal_reason = reason
    entry.save(update_fields=["withdrawn", "removed_at", "removed_by", "removal_reason"])
    remaining = (
        Match.objects.filter(Q(home=entry) | Q(away=entry), status=Match.Status.SCHEDULED)
        .exclude(home__isnull=True)
        .exclude(away__isnull=True)
        .exclude(recording=True)
        .order_by("pk")
    )
    for match in remaining:
        absent = "home" if match.home_id == entry.pk else "away"
        match_result_record(match=match, by=by, forfeit=absent)
    return entry


# --- Sanctions ----------------------------------------------------------------------------------


@transaction.atomic
def sanction_record(
    *,
    player: Player,
    reason: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None,
    by: User,
) -> Sanction:
    """Staff record a disqualification: the player may not be entered in an official event
    from ``starts_on`` until ``ends_on`` (None: without end)."""
    require(by, "sanction.record")
    reason = reason.strip()
    if not reason:
        raise InvalidInput(_("Give the reason for the disqualification."))
    if ends_on is not None and ends_on < starts_on:
        raise InvalidInput(_("A disqualification ends on or after the day it starts."))
    return Sanction.objects.create(
        player=player, reason=reason, starts_on=starts_on, ends_on=ends_on, recorded_by=_author(by)
    )


def _author(by: User) -> User | None:
    return by if by.is_authenticated else None
