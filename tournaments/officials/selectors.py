"""Reads of official events: the panel of judges, who counts as an official of an event (may not
play in it), the active disqualifications, and the register staff keep. Each in a fixed number of
queries."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.clubs.models import Membership
from tournaments.matches.live.models import ClockAction
from tournaments.models import Entry, Pair, Player, Tournament
from tournaments.officials.models import Judge, Sanction
from tournaments.policy import RUNS_EVENTS, panel_of, plays_as


def judges(*, tournament: Tournament) -> list[Judge]:
    """The panel of the tournament (a stage's is its event's): the chief judge first, then the
    chief secretary, then the judges, each in the order named. One query."""
    order = {Judge.Role.CHIEF: 0, Judge.Role.SECRETARY: 1, Judge.Role.JUDGE: 2}
    found = list(
        Judge.objects.filter(tournament_id=panel_of(tournament))
        .select_related("user")
        .order_by("added_at", "pk")
    )
    return sorted(found, key=lambda judge: order.get(judge.role, 3))  # type: ignore[call-overload]


def named_judges(*, tournament: Tournament) -> list[tuple[Judge, str]]:
    """The panel (``judges``), each judge with the name the pages give them. Two queries."""
    panel = judges(tournament=tournament)
    names = judge_names(judge.user for judge in panel)
    return [(judge, names[judge.user_id]) for judge in panel]


def judge_name(user: AbstractBaseUser | None) -> str:
    """How a judge (or whoever decided) is named on the pages and in the protocol: their
    player's name when their account has one, else the full name, else the username."""
    return "" if user is None else judge_names([user])[user.pk]


def judge_names(users: Iterable[AbstractBaseUser]) -> dict[int, str]:
    """``judge_name`` of each of ``users``, by account id, in one query."""
    by_id = {user.pk: user for user in users}
    players = dict(
        Player.objects.filter(user_id__in=by_id, pair__isnull=True)
        .order_by("pk")
        .values_list("user_id", "display_name")
    )
    return {
        pk: players.get(pk) or getattr(user, "get_full_name", lambda: "")() or user.get_username()
        for pk, user in by_id.items()
    }


def role_in_sentence(judge: Judge) -> str:
    """A judge's role as it is said inside a sentence, in lower case ("Decided by Gleb (chief
    judge)"); a heading or a label keeps the capital of ``get_role_display``."""
    return str(judge.get_role_display()).lower()


def officials_of(tournament: Tournament) -> dict[int, str]:
    """The accounts that may not play in an official event, each with what they are: its
    organizer, co-organizers, its club's owners and organizers (``"organizer"``), and its
    judges (``"judge"``). Three queries."""
    event = tournament.parent if tournament.parent_id else tournament
    assert event is not None
    found: dict[int, str] = {}
    if event.organizer_id is not None:
        found[event.organizer_id] = "organizer"
    for user_id in event.co_organizers.values_list("pk", flat=True):
        found[user_id] = "organizer"
    if event.club_id is not None:
        runners = Membership.objects.filter(club_id=event.club_id, role__in=RUNS_EVENTS)
        for user_id in runners.values_list("user_id", flat=True):
            found[user_id] = "organizer"
    for user_id in Judge.objects.filter(tournament_id=event.pk).values_list("user_id", flat=True):
        found[user_id] = "judge"
    return found


def members(player: Player) -> list[Player]:
    """The player, or a pair's two players."""
    pair = Pair.objects.filter(player=player).select_related("first", "second").first()
    return [pair.first, pair.second] if pair is not None else [player]


def entries_played_by(tournament: Tournament, user_id: int) -> QuerySet[Entry]:
    """The entries of the event (and of its stages) that the user plays as."""
    event_id = panel_of(tournament)
    return Entry.objects.filter(
        Q(tournament_id=event_id) | Q(tournament__parent_id=event_id), plays_as(user_id)
    )


def active_sanctions(players: Iterable[Player], on: Iterable[datetime.date]) -> list[Sanction]:
    """The disqualifications of these players in force on any of the days ``on``."""
    days = sorted(set(on))
    if not days:
        return []
    in_force = Q()
    for day in days:
        in_force |= Q(starts_on__lte=day) & (Q(ends_on__isnull=True) | Q(ends_on__gte=day))
    return list(
        Sanction.objects.filter(in_force, player__in=[player.pk for player in players])
        .select_related("player")
        .order_by("starts_on", "pk")
    )


def entry_days(tournament: Tournament) -> list[datetime.date]:
    """The days a disqualification is checked on at entry: today, and the start's day."""
    days = [timezone.localdate()]
    if tournament.starts_at is not None:
        days.append(timezone.localdate(tournament.starts_at))
    return days


def sanctions(*, player: Player | None = None) -> QuerySet[Sanction]:
    """The register of disqualifications, newest first (a player's alone when given)."""
    found = Sanction.objects.select_related("player", "recorded_by").order_by("-starts_on", "-pk")
    return found.filter(player=player) if player is not None else found


def removal_text(entry: Entry, tournament: Tournament) -> str:
    """What the lists say of a removed entry (empty for one that is not removed)."""
    if entry.removed_at is None:
        return ""
    if tournament.official:
        return _("removed by the chief judge: %(reason)s") % {"reason": entry.removal_reason}
    return _("removed by the organizers: %(reason)s") % {"reason": entry.removal_reason}


def decider(match: Any) -> tuple[str, str] | None:
    """Who decided the match's result as an official, named as the pages name a judge, and
    their role on the panel ("" when not on it: an organizer, or staff); None: nobody did."""
    if match.decided_by_id is None:
        return None
    user = match.decided_by
    tournament = match.tournament
    judge = Judge.objects.filter(tournament_id=panel_of(tournament), user_id=user.pk).first()
    role = role_in_sentence(judge) if judge is not None and tournament.official else ""
    return judge_name(user), role


def clock_actions(*, match: Any) -> list[SafeString]:
    """What the judges did to a recorded match's clocks, in order, each with who did it (as the
    pages name a judge, with their role on the panel). Three queries."""
    actions = list(
        ClockAction.objects.filter(draft__match_id=match.pk)
        .select_related("made_by")
        .order_by("made_at", "pk")
    )
    if not actions:
        return []
    roles = {}
    if match.tournament.official:
        panel = Judge.objects.filter(tournament_id=panel_of(match.tournament))
        roles = {judge.user_id: role_in_sentence(judge) for judge in panel}
    players = {"home": match.home, "away": match.away}
    names = judge_names(action.made_by for action in actions if action.made_by is not None)
    said = []
    for action in actions:
        name = names.get(action.made_by_id, "") if action.made_by_id is not None else ""
        who = format_html('<span translate="no">{}</span>', name) if name else _("someone")
        role = roles.get(action.made_by_id)
        if role:
            who = format_html("{} ({})", who, role)
        side = players.get(action.side)
        player = side.player.display_name if side is not None else ""
        given = {  # the names are the users' own words: not for a page's translator
            "who": who,
            "time": timezone.localtime(action.made_at).strftime("%H:%M:%S"),
            "seconds": abs(action.seconds),
            "player": format_html('<span translate="no">{}</span>', player),
        }
        if action.kind == ClockAction.Kind.PAUSE:
            text = _("%(time)s: %(who)s paused the clocks") % given
        elif action.kind == ClockAction.Kind.RESUME:
            text = _("%(time)s: %(who)s resumed the clocks") % given
        elif action.seconds > 0:
            text = _("%(time)s: %(who)s gave %(player)s %(seconds)s s") % given
        else:
            text = _("%(time)s: %(who)s took %(seconds)s s from %(player)s") % given
        said.append(mark_safe(text))  # noqa: S308 - a catalogue sentence of escaped values
    return said
