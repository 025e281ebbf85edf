"""Sign-up and check-in writes. Each locks the tournament (raising its revision, so its pages
show the change at once), checks who acts and in which state, and does its whole job or raises a
``TournamentError`` having changed nothing.

The waiting list moves up by itself: whenever a place frees before the start (a withdrawal, a
declined or withdrawn entry, more places), the oldest waiting sign-ups are entered.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.eligibility import Problem, refusal
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.models import Entry, Player, Tournament
from tournaments.officials.services import require_may_play
from tournaments.players.ownership import home_club_of_new
from tournaments.players.pairs import (
    entered_with,
    existing_pair,
    in_pair_with,
    members_of,
    pair_of,
)
from tournaments.policy import may, require
from tournaments.rows import locked
from tournaments.said import SIGNED_UP_ALREADY, SIGNED_UP_HERE_ALREADY
from tournaments.signups.models import SignUp

User = AbstractBaseUser | AnonymousUser
State = SignUp.State
BEFORE_START = (Tournament.Status.REGISTRATION,)


@transaction.atomic
def signup_request(
    *,
    tournament: Tournament,
    by: User,
    display_name: str = "",
    gender: str = "",
    birth_year: int | None = None,
    partner: str = "",
    pair_name: str = "",
) -> SignUp:
    """The signed-in user signs up with their player (a new one named ``display_name``, with
    ``gender`` and ``birth_year`` on its profile, when they have none): entered at once, on the
    waiting list when the places are taken, or waiting for the organizers' approval when the
    tournament asks for it. A tournament of a category refuses a player who does not fit it, or
    whose profile does not say (``category_check``). A pairs tournament takes the ``partner``
    (a player's name) and the ``pair_name``: the sign-up waits for the partner to confirm it
    (``signup_partner_answer``)."""
    require(by, "signup.create")
    tournament = locked(Tournament, tournament.pk)
    if not tournament.self_signup or tournament.status not in BEFORE_START:
        raise Conflict(_("This tournament is not open for sign-up."))
    player = _player_of(by, display_name, tournament, gender=gender, birth_year=birth_year)
    require_may_play(tournament, player)
    category_check(tournament=tournament, player=player, by=by, own=True)
    if tournament.pairs:
        return _signup_with_partner(tournament, player, by, partner, pair_name)
    if partner:
        raise InvalidInput(_("This is not a pairs tournament: sign up without a partner."))
    if tournament.entries.filter(player=player).exists():
        raise Conflict(_("%(player)s is entered already.") % {"player": player})
    if tournament.signups.filter(player=player, state__in=SignUp.ACTIVE).exists():
        raise Conflict(SIGNED_UP_ALREADY.of(player.gender) % {"player": player})
    signup = SignUp(tournament=tournament, player=player, user_id=by.pk)
    return _enter_or_wait_for_approval(tournament, signup)


def _signup_with_partner(
    tournament: Tournament, player: Player, by: User, partner_name: str, pair_name: str
) -> SignUp:
    """A pairs sign-up, waiting for the partner (a player with an account: they confirm)."""
    partner_name = " ".join(partner_name.split())
    if not partner_name:
        raise InvalidInput(_("A pairs tournament: name your partner."))
    partner = Player.objects.filter(display_name=partner_name, pair__isnull=True).first()
    if partner is None:
        raise InvalidInput(
            _("There is no player called %(name)s on the site.") % {"name": partner_name}
        )
    if partner.pk == player.pk:
        raise InvalidInput(_("A pair is two different players."))
    if partner.user_id is None:
        raise InvalidInput(
            _(
                "%(name)s has no account on the site, and the partner confirms the pair from "
                "theirs: ask an organizer to enter the pair."
            )
            % {"name": partner}
        )
    category_check(tournament=tournament, player=partner, by=by)
    require_may_play(tournament, partner)
    existing_pair(player, partner, pair_name)  # a pair is signed up under its own name
    _require_free(tournament, player, partner)
    return SignUp.objects.create(
        tournament=tournament,
        player=player,
        partner=partner,
        pair_name=" ".join(pair_name.split()),
        user_id=by.pk,
        state=State.PARTNER,
    )


def _require_free(tournament: Tournament, *players: Player) -> None:
    """A player plays in one pair of a tournament: refuse one already entered in a pair of it,
    or named in another sign-up that is still active."""
    for player in players:
        in_pair = in_pair_with(player)
        if tournament.entries.filter(in_pair).exists():
            raise Conflict(
                _("%(player)s plays in a pair of this tournament already.") % {"player": player}
            )
        active = tournament.signups.filter(state__in=SignUp.ACTIVE)
        if active.filter(Q(player=player) | Q(partner=player) | in_pair).exists():
            raise Conflict(SIGNED_UP_HERE_ALREADY.of(player.gender) % {"player": player})


@transaction.atomic
def signup_partner_answer(*, signup: SignUp, by: User, accept: bool) -> SignUp:
    """The partner named in a pairs sign-up confirms it (the pair is made, or found, and signs
    up as a player does: entered, on the waiting list or waiting for approval) or declines it."""
    tournament = locked(Tournament, signup.tournament_id)
    signup = SignUp.objects.select_related("player", "partner").get(pk=signup.pk)
    partner = signup.partner
    if signup.state != State.PARTNER or partner is None:
        raise Conflict(_("This sign-up is not waiting for a partner."))
    require(by, "signup.partner", signup)
    if tournament.status not in BEFORE_START:
        raise Conflict(_("The tournament has started: sign-ups are closed."))
    if not accept:
        _close(signup, State.DECLINED)
        return signup
    category_check(tournament=tournament, player=partner, by=by, own=True)
    home = home_club_of_new(by=by, tournament=tournament)
    pair = pair_of(signup.player, partner, signup.pair_name, home=home)
    require_may_play(tournament, pair.player)
    if tournament.entries.filter(player=pair.player).exists():
        raise Conflict(_("%(player)s is entered already.") % {"player": pair.player})
    other = entered_with(tournament, pair)
    if other is not None:
        raise Conflict(
            _("A player plays in one pair of a tournament: %(pair)s is entered already.")
            % {"pair": other.player}
        )
    signup.player = pair.player
    signup.decided_at = None
    return _enter_or_wait_for_approval(tournament, signup)


def _enter_or_wait_for_approval(tournament: Tournament, signup: SignUp) -> SignUp:
    if tournament.signup_approval:
        signup.state = State.PENDING
        signup.save()
        return signup
    return _enter_or_wait(tournament, signup)


@transaction.atomic
def signup_withdraw(*, signup: SignUp, by: User) -> SignUp:
    """The player (or an organizer) takes a sign-up back before the start; a place it held goes
    to the waiting list."""
    tournament = locked(Tournament, signup.tournament_id)
    signup = SignUp.objects.select_related("entry").get(pk=signup.pk)
    require(by, "signup.withdraw", signup)
    if signup.state not in SignUp.ACTIVE:
        raise Conflict(_("This sign-up is no longer active."))
    if tournament.status not in BEFORE_START:
        raise Conflict(_("The tournament has started: an organizer withdraws players now."))
    if signup.entry is not None:
        signup.entry.delete()
    _close(signup, State.WITHDRAWN)
    promote_waiting(tournament)
    return signup


@transaction.atomic
def signup_approve(*, signup: SignUp, by: User) -> SignUp:
    """An organizer approves a pending sign-up: entered, or on the waiting list when full."""
    tournament = _for_organizer(signup, by)
    signup = SignUp.objects.get(pk=signup.pk)
    if signup.state != State.PENDING:
        raise Conflict(_("This sign-up is not waiting for approval."))
    for player in members_of(signup.player):  # their profile may have changed
        category_check(tournament=tournament, player=player, by=by)
    require_may_play(tournament, signup.player)  # named a judge, or disqualified, since
    signup.decided_at = timezone.now()
    return _enter_or_wait(tournament, signup)


@transaction.atomic
def signup_decline(*, signup: SignUp, by: User) -> SignUp:
    """An organizer declines a sign-up that waits for approval or for a place."""
    _for_organizer(signup, by)
    signup = SignUp.objects.get(pk=signup.pk)
    if signup.state not in (State.PENDING, State.WAITING):
        raise Conflict(_("Only a sign-up that waits can be declined; withdraw an entry instead."))
    _close(signup, State.DECLINED)
    return signup


@transaction.atomic
def entry_check_in(*, entry: Entry, by: User, present: bool = True) -> Entry:
    """Check an entrant in (``present`` False: undo it). The player does it in the check-in
    window; an organizer at any time before the start."""
    tournament = locked(Tournament, entry.tournament_id)
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    require(by, "entry.check-in", entry)
    organizer = may(by, "tournament.run", tournament)
    if tournament.status not in BEFORE_START:
        raise Conflict(_("The tournament has started: the check-in is over."))
    opens = tournament.checkin_opens_at()
    if opens is None:
        raise Conflict(_("This tournament has no check-in."))
    if not present:
        require(by, "entry.check-in-undo", entry)
    if not organizer and timezone.now() < opens:
        raise Conflict(
            _("The check-in opens at %(time)s.")
            % {"time": timezone.localtime(opens).strftime("%Y-%m-%d %H:%M")}
        )
    entry.checked_in_at = timezone.now() if present else None
    entry.save(update_fields=["checked_in_at"])
    return entry


# --- Called by the tournament services, inside their transaction -------------------------------


def category_check(
    *, tournament: Tournament, player: Player, by: User, own: bool = False, told: bool = False
) -> None:
    """Refuse a player who may not play in the tournament's category or age group (a minimum
    age, a maximum: ``eligibility``), or whose profile does not say.

    Who may read the player's profile (``own``: the player signs up themselves; the player's
    account, their home club's runners, staff: ``policy``'s ``profile.read``; ``told``: ``by``
    gave the profile in this very request, making the player) is told why: 403
    when they do not fit, 409 when the profile lacks what the tournament asks (set, it may be
    tried again). Anyone else is told only that the player does not meet the category, in one
    message and one status whatever the profile holds: a refusal never tells an organizer of
    another club, or a player naming a partner, anyone's age or gender."""
    found = refusal(
        gender=player.gender,
        birth_year=player.birth_year,
        category=tournament.category,
        min_age=tournament.min_age,
        max_age=tournament.max_age,
        year=tournament.age_year(),
    )
    if found is None:
        return
    if not (own or told or may(by, "profile.read", player)):
        raise Conflict(
            _(
                "%(player)s does not meet this tournament's category, or their profile does "
                "not say: the player (or their club) can see why on their profile."
            )
            % {"player": player.display_name}
        )
    women = tournament.category == Tournament.Category.WOMEN
    given = {
        "player": player.display_name,
        "age": tournament.min_age,
        "year": tournament.age_year(),
        "player_age": found.age,
        "group": tournament.age_group_text(),
    }
    if found.problem in (Problem.GENDER_UNKNOWN, Problem.WRONG_CATEGORY):
        message = _CATEGORY_REFUSALS[found.problem, own, women, tournament.is_youth]
        error = Conflict if found.problem == Problem.GENDER_UNKNOWN else NotAllowed
        raise error(str(message) % given)
    grouped = tournament.max_age is not None  # an age group: said as the group
    if found.problem == Problem.BIRTH_YEAR_UNKNOWN:
        if grouped and own:
            message = _(
                "This tournament is for the age group %(group)s (the age reached in %(year)s): "
                "set your birth year on your profile first."
            )
        elif grouped:
            message = _(
                "This tournament is for the age group %(group)s (the age reached in %(year)s): "
                "the profile of %(player)s does not give their birth year."
            )
        elif own:
            message = _(
                "This tournament is for players aged %(age)s or more in %(year)s: set your birth "
                "year on your profile first."
            )
        else:
            message = _(
                "This tournament is for players aged %(age)s or more in %(year)s: the profile of "
                "%(player)s does not give their birth year."
            )
        raise Conflict(message % given)
    if grouped and own:
        message = _(
            "This tournament is for the age group %(group)s (the age reached in %(year)s): you "
            "are %(player_age)s in %(year)s."
        )
    elif grouped:
        message = _(
            "This tournament is for the age group %(group)s (the age reached in %(year)s): "
            "%(player)s is %(player_age)s in %(year)s."
        )
    elif own:
        message = _(
            "This tournament is for players aged %(age)s or more in %(year)s: you are "
            "%(player_age)s in %(year)s."
        )
    else:
        message = _(
            "This tournament is for players aged %(age)s or more in %(year)s: %(player)s is "
            "%(player_age)s in %(year)s."
        )
    raise NotAllowed(message % given)


#: What a refusal by the category says: by the problem, whether the player signs up themselves,
#: whether the tournament is for women, and whether it is a youth event (boys and girls).
_CATEGORY_REFUSALS = {
    (Problem.GENDER_UNKNOWN, True, True, False): gettext_lazy(
        "This tournament is for women: set your gender on your profile first."
    ),
    (Problem.GENDER_UNKNOWN, True, False, False): gettext_lazy(
        "This tournament is for men: set your gender on your profile first."
    ),
    (Problem.GENDER_UNKNOWN, False, True, False): gettext_lazy(
        "This tournament is for women: the profile of %(player)s does not give their gender."
    ),
    (Problem.GENDER_UNKNOWN, False, False, False): gettext_lazy(
        "This tournament is for men: the profile of %(player)s does not give their gender."
    ),
    (Problem.WRONG_CATEGORY, True, True, False): gettext_lazy("This tournament is for women only."),
    (Problem.WRONG_CATEGORY, True, False, False): gettext_lazy("This tournament is for men only."),
    (Problem.WRONG_CATEGORY, False, True, False): gettext_lazy(
        "%(player)s cannot play: this tournament is for women only."
    ),
    (Problem.WRONG_CATEGORY, False, False, False): gettext_lazy(
        "%(player)s cannot play: this tournament is for men only."
    ),
    (Problem.GENDER_UNKNOWN, True, True, True): gettext_lazy(
        "This tournament is for girls: set your gender on your profile first."
    ),
    (Problem.GENDER_UNKNOWN, True, False, True): gettext_lazy(
        "This tournament is for boys: set your gender on your profile first."
    ),
    (Problem.GENDER_UNKNOWN, False, True, True): gettext_lazy(
        "This tournament is for girls: the profile of %(player)s does not give their gender."
    ),
    (Problem.GENDER_UNKNOWN, False, False, True): gettext_lazy(
        "This tournament is for boys: the profile of %(player)s does not give their gender."
    ),
    (Problem.WRONG_CATEGORY, True, True, True): gettext_lazy("This tournament is for girls only."),
    (Problem.WRONG_CATEGORY, True, False, True): gettext_lazy("This tournament is for boys only."),
    (Problem.WRONG_CATEGORY, False, True, True): gettext_lazy(
        "%(player)s cannot play: this tournament is for girls only."
    ),
    (Problem.WRONG_CATEGORY, False, False, True): gettext_lazy(
        "%(player)s cannot play: this tournament is for boys only."
    ),
}


def promote_waiting(tournament: Tournament) -> list[SignUp]:
    """Enter the oldest waiting sign-ups while places are free (before the start only)."""
    if tournament.status not in (Tournament.Status.DRAFT, *BEFORE_START):
        return []
    promoted = []
    for signup in tournament.signups.filter(state=State.WAITING).order_by("created_at", "pk"):
        if _is_full(tournament):
            break
        _enter(tournament, signup)
        promoted.append(signup)
    return promoted


def signup_entered(entry: Entry) -> None:
    """An organizer entered a player whose sign-up waits: the sign-up is entered with it."""
    SignUp.objects.filter(
        tournament_id=entry.tournament_id,
        player_id=entry.player_id,
        state__in=(State.PENDING, State.WAITING),
    ).update(state=State.ENTERED, entry=entry, decided_at=timezone.now())


def entry_withdrawn(entry: Entry) -> None:
    """An entry left before the start: its sign-up, if any, is withdrawn too."""
    SignUp.objects.filter(entry=entry).update(
        state=State.WITHDRAWN, decided_at=timezone.now(), entry=None
    )


def no_shows(tournament: Tournament) -> list[Entry]:
    """The entries the start will withdraw: not checked in, when the tournament has a check-in."""
    if tournament.checkin_opens_at() is None:
        return []
    return list(
        tournament.entries.filter(checked_in_at__isnull=True, withdrawn=False)
        .select_related("player")
        .order_by("player__display_name")
    )


def signups_at_start(tournament: Tournament) -> list[Entry]:
    """At the start: the entries that did not check in are removed (their sign-ups withdrawn),
    and the sign-ups still waiting are closed: the waiting list does not move up now, its players
    have not checked in. Returns the removed entries."""
    gone = no_shows(tournament)
    for entry in gone:
        entry_withdrawn(entry)
        entry.delete()
    tournament.signups.filter(state__in=(State.WAITING, State.PENDING)).update(
        state=State.DECLINED, decided_at=timezone.now()
    )
    return gone


# --- Inside ------------------------------------------------------------------------------------


def _for_organizer(signup: SignUp, by: User) -> Tournament:
    tournament = locked(Tournament, signup.tournament_id)
    require(by, "signup.decide", signup)
    if tournament.status not in BEFORE_START:
        raise Conflict(_("The tournament has started: sign-ups are closed."))
    return tournament


def _is_full(tournament: Tournament) -> bool:
    if tournament.capacity is None:
        return False
    return tournament.entries.filter(withdrawn=False).count() >= tournament.capacity


def _enter_or_wait(tournament: Tournament, signup: SignUp) -> SignUp:
    if _is_full(tournament):
        signup.state = State.WAITING
        signup.save()
        return signup
    return _enter(tournament, signup)


def _enter(tournament: Tournament, signup: SignUp) -> SignUp:
    signup.entry = Entry.objects.create(tournament=tournament, player=signup.player)
    signup.state = State.ENTERED
    signup.decided_at = signup.decided_at or timezone.now()
    signup.save()
    return signup


def _close(signup: SignUp, state: str) -> None:
    signup.state = state
    signup.entry = None
    signup.decided_at = timezone.now()
    signup.save(update_fields=["state", "entry", "decided_at"])


def _player_of(
    user: User, display_name: str, tournament: Tournament, *, gender: str, birth_year: int | None
) -> Player:
    """The user's player, or a new one named ``display_name`` linked to the user, whose home club
    is the tournament's (``tournaments.players.ownership``), with ``gender`` and ``birth_year`` on
    its profile (a player the user has keeps theirs: they edit it on its page)."""
    player = Player.objects.filter(user_id=user.pk).order_by("pk").first()
    if player is not None:
        return player
    name = " ".join(display_name.split())
    if not name:
        raise InvalidInput(_("Give the name you play under: you have no player yet."))
    if len(name) > Player._meta.get_field("display_name").max_length:  # type: ignore[operator]
        raise InvalidInput(_("The name is too long."))
    if Player.objects.filter(display_name=name).exists():
        raise InvalidInput(
            _(
                "A player named %(name)s is on the site already. If that is you, ask an "
                "organizer to link it to your account; otherwise choose another name."
            )
            % {"name": name}
        )
    player = Player(
        display_name=name,
        user_id=user.pk,
        home_club=home_club_of_new(by=user, tournament=tournament),
        gender=gender,
        birth_year=birth_year,
    )
    try:
        player.clean_fields(exclude=["display_name", "user", "home_club"])
    except ValidationError as error:
        raise InvalidInput.of_fields(error.message_dict) from None
    try:
        with transaction.atomic():
            player.save()
            return player
    except IntegrityError:
        raise Conflict(_("This name was just taken: choose another.")) from None
