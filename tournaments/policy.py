"""The site's one policy: who may act on what.

Every write on a shared record asks here, whatever path it comes by (a page, the API, the
admin, a CSV import, a management command): the service that makes the change calls
``require(user, action, record)`` before it changes anything, and pages and answers call
``may`` to offer only what the reader may do. Nothing else decides a right.

A rule is a predicate (django-rules) of the user and the record, read from who owns the record:

- a **club** is its owners' and organizers' (``Membership``);
- a **tournament** is its organizer's, its co-organizers' and its club's runners';
- a **match**, its result, its recording and its clocks are its tournament's, and its two
  players report, record and answer it;
- a **player** (a pair too: a pair's record is a player) and their **profile** are the
  player's own account's and their home club's runners'; entering a player in one's own
  tournament, playing or recording a match with them gives no right over them;
- in an **official event** (``Tournament.official``) its panel of judges
  (``tournaments.officials``) decides instead of its organizers: disputes, forfeits, clocks,
  accepted moves, late take-backs, corrections and removals, and its chief judge closes it; an
  organizer who is not on the panel may not (staff still may). Other events are as above;
- a **rating list**'s approvals and held changes are its rating officers';
- **staff** may do everything.

README.md's table "Who may do what" is made from ``RULES`` (``table_markdown``), and
``tests/security/test_permission_matrix.py`` tries every write of the site and the API against
it as each persona.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import rules
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, Membership
from tournaments.errors import NotAllowed
from tournaments.models import Entry, Match, Pair, Player, Tournament
from tournaments.officials.models import Judge
from tournaments.ratings.models import RatingHold, RatingList

User = AbstractBaseUser | AnonymousUser

#: The roles of a club that run its events, seasons, members and players.
RUNS_EVENTS = (Membership.Role.OWNER, Membership.Role.ORGANIZER)


# --- Who the user is ----------------------------------------------------------------------------


def is_staff(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_staff", False))


def club_role(club: Club | int, user: User) -> str | None:
    """The user's role in the club (owner, organizer, member), or None."""
    if not user.is_authenticated:
        return None
    club_id = club if isinstance(club, int) else club.pk
    return (
        Membership.objects.filter(club_id=club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def runs_club(club: Club | int | None, user: User) -> bool:
    """An owner or organizer of the club, or staff: may run its events, seasons, members and
    players."""
    if club is None or not user.is_authenticated:
        return False
    return is_staff(user) or club_role(club, user) in RUNS_EVENTS


def owns_club(club: Club | int, user: User) -> bool:
    """An owner of the club, or staff: may also name its organizers and owners."""
    if not user.is_authenticated:
        return False
    return is_staff(user) or club_role(club, user) == Membership.Role.OWNER


def organizes(tournament: Tournament, user: User) -> bool:
    """The organizer, a co-organizer, an owner or organizer of the tournament's club, or staff."""
    if not user.is_authenticated:
        return False
    if is_staff(user) or tournament.organizer_id == user.pk:
        return True
    if tournament.club_id is not None and runs_club(tournament.club_id, user):
        return True
    return tournament.co_organizers.filter(pk=user.pk).exists()


def plays_as(user_id: int | None, through: str = "") -> Q:
    """An entry (or the entry at ``through``, e.g. ``"home__"``) the user plays as: their own
    player's, or a pair's they are one of (a pair's record has no account of its own)."""
    player = f"{through}player__"
    return (
        Q(**{f"{player}user_id": user_id})
        | Q(**{f"{player}pair__first__user_id": user_id})
        | Q(**{f"{player}pair__second__user_id": user_id})
    )


def match_side(match: Match, user: User) -> int | None:
    """1 when the user plays home in this match (as its player, or one of its pair's two), 2
    away, else None."""
    if not user.is_authenticated:
        return None
    return _side_of(match, user.pk)


def _side_of(match: Match, user_id: int) -> int | None:
    if _players_loaded(match):  # read with the match (select_related): no query for a player
        for side, entry in ((1, match.home), (2, match.away)):
            if entry is not None and entry.player.user_id == user_id:
                return side
        if not _pairs_play(match):
            return None
    entries = {match.home_id: 1, match.away_id: 2}
    found = Entry.objects.filter(plays_as(user_id), pk__in=[e for e in entries if e])
    for entry_id in found.values_list("pk", flat=True):
        return entries[entry_id]
    return None


def _pairs_play(match: Match) -> bool:
    """Whether the match may be a pairs match: its tournament's, when read with it; else maybe."""
    if Match._meta.get_field("tournament").is_cached(match):
        return bool(match.tournament.pairs)
    return True


def _players_loaded(match: Match) -> bool:
    """Whether the match's entries and their players came with it (``select_related``)."""
    for side in ("home", "away"):
        if getattr(match, f"{side}_id") is None:
            continue
        if not Match._meta.get_field(side).is_cached(match):
            return False
        if not Entry._meta.get_field("player").is_cached(getattr(match, side)):
            return False
    return True


def panel_of(tournament: Tournament) -> int:
    """The tournament whose panel judges this one: a stage is judged by its event's."""
    return tournament.parent_id or tournament.pk


def judge_role(tournament: Tournament, user: User) -> str | None:
    """The user's role on the panel of an official tournament (chief, secretary, judge), or
    None (not on it, or the tournament is not official)."""
    if not user.is_authenticated or not tournament.official:
        return None
    return (
        Judge.objects.filter(tournament_id=panel_of(tournament), user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def decides(tournament: Tournament, user: User) -> bool:
    """Who decides a tournament's results as its official: in an official event its judges
    (any role) and staff, in another its organizers (and staff)."""
    if tournament.official:
        return is_staff(user) or judge_role(tournament, user) is not None
    return organizes(tournament, user)


def is_rating_officer(rating_list: RatingList, user: User) -> bool:
    """Staff, or a user named among the list's officers (``RatingList.officers``)."""
    return _officer_of(RatingList.objects.filter(pk=rating_list.pk), user)


def _officer_of(lists: QuerySet[RatingList], user: User) -> bool:
    if not user.is_authenticated:
        return False
    return is_staff(user) or lists.filter(officers=user.pk).exists()


def is_pair(player: Player) -> bool:
    return hasattr(player, "pair")


# --- The predicates, one for each relation of a user to a record --------------------------------
# django-rules calls each with the user and the record the rule is asked about.


@rules.predicate
def signed_in(user: User) -> bool:
    return bool(user.is_authenticated)


@rules.predicate
def staff(user: User) -> bool:
    return is_staff(user)


@rules.predicate
def runs_the_club(user: User, club: Club) -> bool:
    return runs_club(club, user)


@rules.predicate
def owns_the_club(user: User, club: Club) -> bool:
    return owns_club(club, user)


@rules.predicate
def is_the_member(user: User, membership: Membership) -> bool:
    return bool(user.is_authenticated and membership.user_id == user.pk)


@rules.predicate
def organizes_the_tournament(user: User, tournament: Tournament) -> bool:
    return organizes(tournament, user)


@rules.predicate
def organizes_its_tournament(user: User, record: Any) -> bool:
    """For a record of a tournament (a match, an entry, a sign-up): organizes that tournament."""
    return organizes(record.tournament, user)


@rules.predicate
def judges_its_tournament(user: User, record: Any) -> bool:
    """For a record of a tournament: on the panel of that tournament, an official one."""
    return judge_role(record.tournament, user) is not None


@rules.predicate
def decides_for_its_tournament(user: User, record: Any) -> bool:
    """For a record of a tournament: its judges in an official event, else its organizers."""
    return decides(record.tournament, user)


@rules.predicate
def chief_judge_of_the_tournament(user: User, tournament: Tournament) -> bool:
    return judge_role(tournament, user) == Judge.Role.CHIEF


@rules.predicate
def organizes_the_unofficial_tournament(user: User, tournament: Tournament) -> bool:
    return not tournament.official and organizes(tournament, user)


@rules.predicate
def chief_judge_of_its_tournament(user: User, record: Any) -> bool:
    return judge_role(record.tournament, user) == Judge.Role.CHIEF


@rules.predicate
def organizes_its_unofficial_tournament(user: User, record: Any) -> bool:
    return not record.tournament.official and organizes(record.tournament, user)


@rules.predicate
def plays_the_match(user: User, match: Match) -> bool:
    return match_side(match, user) is not None


@rules.predicate
def answers_the_report(user: User, match: Match) -> bool:
    """A player of the match whose word its reported result waits for: the side it names
    (``Match.confirm_side``: the opponent of who entered a play accepted as made, none when
    only an organizer may), else a player of the side that did not report it (a pair's two
    players report and answer as their pair)."""
    side = match_side(match, user)
    if side is None:
        return False
    if match.confirm_side is not None:
        return side == match.confirm_side
    if match.reported_by_id is None:
        return True
    if match.reported_by_id == user.pk:
        return False
    return _side_of(match, match.reported_by_id) != side  # a pair's partner reported for both


@rules.predicate
def is_the_players_account(user: User, player: Player) -> bool:
    return bool(user.is_authenticated and player.user_id is not None and player.user_id == user.pk)


@rules.predicate
def runs_the_home_club(user: User, player: Player) -> bool:
    return runs_club(player.home_club_id, user)


@rules.predicate
def owns_the_pair(user: User, player: Player) -> bool:
    """A pair's record, and the user runs its home club (a pair is owned as a player is)."""
    return is_pair(player) and runs_club(player.home_club_id, user)


def has_a_match(player: Player) -> bool:
    """Whether the player (or the pair) is in a match, decided or not: from then on who they
    are is part of a result, and only staff rename them."""
    return Match.objects.filter(Q(home__player=player) | Q(away__player=player)).exists()


@rules.predicate
def runs_the_home_club_of_a_new_player(user: User, player: Player) -> bool:
    """The user runs the player's home club, and the player is in no match yet: a mistaken new
    player is corrected by the club that made it."""
    return runs_club(player.home_club_id, user) and not has_a_match(player)


class TwoPlayers(NamedTuple):
    """The record of a merge: the player kept and the one merged into it."""

    keep: Player
    drop: Player


@rules.predicate
def runs_the_home_club_of_both(user: User, players: TwoPlayers) -> bool:
    keep, drop = players
    return keep.home_club_id == drop.home_club_id and runs_club(keep.home_club_id, user)


@rules.predicate
def is_the_entrys_player(user: User, entry: Entry) -> bool:
    """The account of the entry's player, or of one of a pair's two."""
    if not user.is_authenticated:
        return False
    player = entry.player
    if player.user_id == user.pk:
        return True
    pair = Pair.objects.filter(player=player).values_list("first__user", "second__user").first()
    return pair is not None and user.pk in pair


@rules.predicate
def signed_up(user: User, signup: Any) -> bool:
    return bool(user.is_authenticated and signup.user_id == user.pk)


@rules.predicate
def is_the_partner(user: User, signup: Any) -> bool:
    return bool(
        user.is_authenticated and signup.partner is not None and signup.partner.user_id == user.pk
    )


@rules.predicate
def officer_of_its_list(user: User, record: Tournament | RatingHold) -> bool:
    """For a tournament or a held change: a rating officer of the list it is rated on (read
    only: no list is made for asking)."""
    if isinstance(record, Tournament):
        lists = RatingList.objects.filter(system=record.rating_system, discipline=record.discipline)
    else:
        lists = RatingList.objects.filter(pk=record.rating_list_id)
    return _officer_of(lists, user)


may_rename = owns_the_pair | runs_the_home_club_of_a_new_player | staff


@rules.predicate
def undoes_what_they_may_do(user: User, change: Any) -> bool:
    """An identity change that is a rename: whoever may rename the player now."""
    player = change.player
    return change.action == "renamed" and player is not None and may_rename(user, player)


# --- The rules ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """Who may do an ``action`` on a ``record``: ``who`` in words (the README's table, in
    English),
    ``predicate`` in code, and the ``refusal`` the user reads otherwise (``%(name)s`` values
    come from ``require``'s keywords)."""

    action: str
    record: str
    who: str
    predicate: rules.Predicate
    refusal: str | Promise


RULES: dict[str, Rule] = {}
_ruleset = rules.RuleSet()


def _rule(
    action: str,
    record: str,
    predicate: rules.Predicate,
    who: str,
    refusal: str | Promise,
) -> None:
    RULES[action] = Rule(action, record, who, predicate, refusal)
    _ruleset.add_rule(action, predicate)


ORGANIZERS = (
    "its tournament's organizers (the organizer, co-organizers, the club's owners and "
    "organizers) and staff"
)
ONLY_ORGANIZERS = _("Only the tournament's organizers may do this.")
DECIDERS = (
    "an official event: its judges (any role) and staff; another: its tournament's organizers "
    "and staff"
)
may_decide = decides_for_its_tournament | staff

# Clubs and seasons
_rule("club.create", "club", signed_in, "anyone signed in", _("Sign in to create a club."))
_rule("club.edit", "club", runs_the_club | staff, "the club's owners and organizers, staff",
      _("Only the club's owners and organizers may do this."))  # fmt: skip
_rule("club.members", "club", runs_the_club | staff,
      "the club's owners and organizers, staff (members only)",
      _("Only the club's owners and organizers may do this."))  # fmt: skip
_rule("club.leave", "membership", is_the_member, "the member themselves (the last owner stays)",
      _("Only the member may leave the club; the club's organizers remove members."))  # fmt: skip
_rule("club.roles", "club", owns_the_club | staff,
      "the club's owners, staff (naming organizers and owners)",
      _("Only the club's owners may name or change organizers and owners."))  # fmt: skip
_rule("club.events", "club", runs_the_club | staff,
      "the club's owners and organizers, staff (its tournaments, seasons and new players)",
      _("You may run events and make players only for a club you organize: %(club)s is not "
        "one."))  # fmt: skip
_rule("club.seasons", "club", runs_the_club | staff,
      "the club's owners and organizers, staff (its seasons, and which events count)",
      _("Only the club's owners and organizers may do this."))  # fmt: skip

# Players, pairs, profiles and the identity trail
_rule("player.create", "player", signed_in, "anyone signed in", _("Sign in to add a player."))
_rule("player.claim", "player", signed_in, "anyone signed in (decided by the owner)",
      _("Sign in to claim a player."))  # fmt: skip
_rule("player.decide", "player", runs_the_home_club | staff,
      "the owners and organizers of the player's home club, staff",
      _("Only staff, or an organizer of the player's home club, may decide who the player "
        "is."))  # fmt: skip
_rule("player.unlink", "player", is_the_players_account | runs_the_home_club | staff,
      "the linked account itself, the owners and organizers of the player's home club, staff",
      _("Only staff, or an organizer of the player's home club, may decide who the player "
        "is."))  # fmt: skip
_rule("player.merge", "two players", runs_the_home_club_of_both | staff,
      "the owners and organizers of the one home club of both players, staff",
      _("Only staff, or an organizer of the home club of both players, may merge them; players "
        "of two clubs are merged by staff."))  # fmt: skip
_rule("player.rename", "player or pair", may_rename,
      "a pair: the owners and organizers of its home club; a player: they too until the "
      "player's first match; staff",
      _("Only the owners and organizers of the player's home club may rename a pair, or a "
        "player who is in no match yet; a player who has a match, or of another club, is "
        "renamed by staff. An organizer enters a pair under its name."))  # fmt: skip
_rule("player.delete", "player or pair", runs_the_home_club | staff,
      "the owners and organizers of the player's home club (while the player is in no match), "
      "staff",
      _("Only the owners and organizers of the player's home club, or staff, may delete a "
        "player."))  # fmt: skip
_rule("identity.undo", "identity change", undoes_what_they_may_do | staff,
      "staff; a rename also who may rename the player",
      _("Only staff may undo a merge; a rename is undone by who may rename."))  # fmt: skip
_rule("profile.read", "profile", is_the_players_account | runs_the_home_club | staff,
      "the player's own account, the owners and organizers of the home club, staff",
      _("Only the player, staff, or an organizer of the player's home club may see or change "
        "the player's profile."))  # fmt: skip
_rule("profile.edit", "profile", is_the_players_account | runs_the_home_club | staff,
      "the player's own account, the owners and organizers of the home club, staff",
      _("Only the player, staff, or an organizer of the player's home club may see or change "
        "the player's profile."))  # fmt: skip

# Tournaments, entries and sign-ups
_rule("tournament.create", "tournament", signed_in, "anyone signed in",
      _("Sign in to create a tournament."))  # fmt: skip
_rule("tournament.run", "tournament", organizes_the_tournament, ORGANIZERS, ONLY_ORGANIZERS)
_rule("tournament.lots", "tournament", organizes_the_tournament, ORGANIZERS,
      _("Only an organizer may draw lots for the places."))  # fmt: skip
_rule("tournament.rate", "tournament", officer_of_its_list,
      "the rating officers of its list, staff",
      _("Only a rating officer of this rating list may approve its events."))  # fmt: skip
_rule("entry.check-in", "entry", is_the_entrys_player | organizes_its_tournament,
      "the entry's player (a pair's two), the organizers, staff",
      _("Only the player, or an organizer, may check in."))  # fmt: skip
_rule("entry.check-in-undo", "entry", organizes_its_tournament, ORGANIZERS,
      _("Only an organizer may undo a check-in."))  # fmt: skip
_rule("signup.create", "sign-up", signed_in, "anyone signed in", _("Sign in to sign up."))
_rule("signup.partner", "sign-up", is_the_partner, "the partner named in the sign-up",
      _("Only the partner named in the sign-up may answer it."))  # fmt: skip
_rule("signup.withdraw", "sign-up", signed_up | organizes_its_tournament,
      "who signed up, the organizers, staff",
      _("Only the player who signed up, or an organizer, may do this."))  # fmt: skip
_rule("signup.decide", "sign-up", organizes_its_tournament, ORGANIZERS, ONLY_ORGANIZERS)

# Matches, results, recordings and clocks
_rule("match.report", "match",
      plays_the_match | organizes_its_tournament | judges_its_tournament,
      "its two players, the organizers, an official event's judges, staff (final at once: who "
        "decides for the tournament)",
      _("Only the players of this match, an organizer or a judge may report it."))  # fmt: skip
_rule("match.forfeit", "match", may_decide, DECIDERS,
      _("Only who decides for this tournament (its judges in an official event, else its "
        "organizers) may decide a match by forfeit."))  # fmt: skip
_rule("match.answer", "result", answers_the_report | may_decide,
      "the player whose word the report waits for (the reporter's opponent, or the opponent "
        "of who entered a play accepted as made); " + DECIDERS,
      _("Only the opponent of the reporter, or who decides for this tournament (its judges in "
        "an official event, else its organizers), may answer."))  # fmt: skip
_rule("match.resolve", "result", may_decide, DECIDERS,
      _("Only who decides for this tournament (its judges in an official event, else its "
        "organizers) may resolve a result."))  # fmt: skip
_rule("match.correct", "result", may_decide, DECIDERS,
      _("Only who decides for this tournament (its judges in an official event, else its "
        "organizers) may correct a result."))  # fmt: skip
_rule("match.record", "recording",
      plays_the_match | organizes_its_tournament | judges_its_tournament,
      "its two players, the organizers, an official event's judges, staff",
      _("Only the players of this match, an organizer or a judge may record it."))  # fmt: skip
_rule("recording.undo-many", "recording", may_decide, DECIDERS,
      _("Only who decides for this tournament (its judges in an official event, else its "
        "organizers) may undo more than the last entry at once."))  # fmt: skip
_rule("recording.judge", "recording", may_decide, DECIDERS,
      _("The match was decided more than %(seconds)s seconds ago: only who decides for this "
        "tournament (its judges in an official event, else its organizers) may take its last "
        "entry back now."))  # fmt: skip
_rule("recording.discard", "recording", organizes_its_tournament | judges_its_tournament,
      ORGANIZERS + "; an official event's judges",
      _("Only an organizer or a judge may discard a recording."))  # fmt: skip
_rule("clock.set", "clock", may_decide, DECIDERS,
      _("Only the judge may stop or set the clocks: in an official event its judges, else its "
        "organizers."))  # fmt: skip

# Official events: the panel, the closing, removals and sanctions
_rule("tournament.judges", "tournament", organizes_the_tournament, ORGANIZERS,
      _("Only the tournament's organizers may name or remove its judges."))  # fmt: skip
_rule("tournament.close", "tournament",
      chief_judge_of_the_tournament | organizes_the_unofficial_tournament | staff,
      "an official event: its chief judge and staff; another: " + ORGANIZERS,
      _("Only the chief judge closes an official event."))  # fmt: skip
_rule("entry.remove", "entry",
      chief_judge_of_its_tournament | organizes_its_unofficial_tournament | staff,
      "an official event: its chief judge and staff; another: " + ORGANIZERS,
      _("Only the chief judge may remove a player from an official event (an organizer "
        "withdraws one)."))  # fmt: skip
_rule("sanction.record", "disqualification", staff, "staff",
      _("Only staff record disqualifications."))  # fmt: skip

# Rating lists
_rule("hold.confirm", "held rating change", officer_of_its_list,
      "the rating officers of its list, staff",
      _("Only a rating officer of this rating list may confirm its changes."))  # fmt: skip


# --- Asking -------------------------------------------------------------------------------------


def may(user: User, action: str, record: Any = None) -> bool:
    """Whether ``user`` may do ``action`` on ``record`` (an unknown action: never)."""
    if action not in RULES:
        raise KeyError(f"no rule for {action!r}: add it to tournaments.policy")
    return bool(_ruleset.test_rule(action, user, record))


def require(user: User, action: str, record: Any = None, **values: Any) -> None:
    """Refuse (``NotAllowed``, 403, with the rule's reason) unless ``user`` may do ``action``
    on ``record``; ``values`` fill the reason's ``%(name)s``."""
    if not may(user, action, record):
        refusal = str(RULES[action].refusal)
        raise NotAllowed(refusal % values if values else refusal)


def table_markdown() -> str:
    """The policy as README.md shows it: one row a rule."""
    lines = ["| action | on | who may |", "| --- | --- | --- |"]
    lines += [f"| `{rule.action}` | {rule.record} | {rule.who} |" for rule in RULES.values()]
    return "\n".join(lines)
