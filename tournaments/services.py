"""Writes: one function per use case of running a tournament (results are in ``results.py``).

Every function is keyword-only and typed, checks who acts and in which state, and does its whole
job in one transaction, or raises a ``TournamentError`` with a message for the user having changed
nothing. Pairings and brackets come from the pure ``tournaments.formats``.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club
from tournaments.clubs.permissions import require_runs_club
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.formats import elimination, round_robin, swiss
from tournaments.matches.results import (
    Correction,
    match_result_confirm,
    match_result_correct,
    match_result_dispute,
    match_result_record,
    match_result_resolve,
)
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.permissions import is_organizer
from tournaments.players.rights import home_club_of_new
from tournaments.rows import free_slug, locked
from tournaments.selectors import entry_ratings
from tournaments.signups.services import (
    entry_withdrawn,
    no_shows,
    promote_waiting,
    signup_entered,
    signups_at_start,
)

User = AbstractBaseUser | AnonymousUser
Format = Tournament.Format
Status = Tournament.Status
ROUND_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN, Format.SWISS)

__all__ = [
    "Correction",
    "NewEntry",
    "entries_import_csv",
    "entries_register",
    "entry_register",
    "entry_withdraw",
    "match_result_confirm",
    "match_result_correct",
    "match_result_dispute",
    "match_result_record",
    "match_result_resolve",
    "swiss_round_pair",
    "tournament_create",
    "tournament_finish",
    "tournament_open_registration",
    "tournament_start",
    "tournament_update",
]


def tournament_create(*, organizer: User, name: str, variant: str, **settings: Any) -> Tournament:
    """A new tournament in draft, organized by ``organizer``; ``settings`` are model fields
    (format, match rules, format options, standings rules), checked as a form would."""
    if not organizer.is_authenticated:
        raise NotAllowed(_("Sign in to create a tournament."))
    _require_club_rights(organizer, settings)
    name = name.strip()
    tournament = Tournament(name=name, variant=variant, organizer=organizer, **settings)
    tournament.slug = tournament.slug or free_slug(
        Tournament.objects.all(), name, fallback="tournament", limit=180
    )
    return _saved_checked(tournament)


@transaction.atomic
def tournament_open_registration(*, tournament: Tournament, by: User) -> Tournament:
    tournament = _for_organizer(tournament, by, Status.DRAFT)
    tournament.status = Status.REGISTRATION
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def entry_register(
    *, tournament: Tournament, player: Player, by: User, seed: int | None = None
) -> Entry:
    """Enter a player: before the start, or late into a running Swiss tournament."""
    tournament = _locked(tournament)
    _require_organizer(tournament, by)
    late = tournament.status == Status.RUNNING
    if late and tournament.format != Format.SWISS:
        raise Conflict(_("Late entries join Swiss tournaments only: the draw is made."))
    if tournament.status == Status.FINISHED:
        raise Conflict(_("The tournament is finished."))
    if tournament.entries.filter(player=player).exists():
        raise Conflict(_("%(player)s is already entered.") % {"player": player})
    if seed is not None and (too_large := _seed_too_large(seed)):
        raise InvalidInput(too_large)  # the column would overflow: a 500 otherwise
    entry = Entry.objects.create(tournament=tournament, player=player, seed=seed, late_entry=late)
    signup_entered(entry)  # a player waiting on the sign-up list is in now
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry, by: User) -> Entry:
    """Before the start the entry is removed; later the player is not paired again."""
    tournament = _locked(entry.tournament)
    _require_organizer(tournament, by)
    if tournament.status == Status.FINISHED:
        raise Conflict(_("The tournament is finished."))
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        entry_withdrawn(entry)
        entry.delete()
        promote_waiting(tournament)
        return entry
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry


@transaction.atomic
def tournament_start(*, tournament: Tournament, by: User) -> Tournament:
    """Close the entries, number the seeds, and make the matches: every round of a round robin,
    the first Swiss round, or the whole bracket."""
    tournament = _for_organizer(tournament, by, Status.REGISTRATION, Status.DRAFT)
    signups_at_start(tournament)
    entries = _seeded(tournament)
    if len(entries) < 2:
        raise Conflict(_("A tournament needs at least two players."))
    tournament.status = Status.RUNNING
    tournament.save(update_fields=["status"])
    if tournament.first_stage:
        from tournaments.stages.services import first_stage_start  # noqa: PLC0415 (built on these)

        first_stage_start(tournament, entries, by)
    elif tournament.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        double = tournament.format == Format.DOUBLE_ROUND_ROBIN
        for number, pairs in enumerate(round_robin.berger(len(entries), double), start=1):
            round_ = Round.objects.create(tournament=tournament, number=number)
            _create_round_matches(
                round_, [(entries[a - 1], entries[b - 1] if b else None) for a, b in pairs]
            )
    elif tournament.format == Format.SWISS:
        _pair_swiss(tournament)
    else:
        _create_bracket(tournament, entries)
    return tournament


def start_notices(tournament: Tournament) -> list[str]:
    """What the start leaves out, and why: shown to the organizer before the start, and in the
    API's answers about the tournament (after the start, what it left out of the settings)."""
    notices = []
    if tournament.status in (Status.DRAFT, Status.REGISTRATION) and (gone := no_shows(tournament)):
        names = ", ".join(entry.player.display_name for entry in gone)
        notices.append(
            _("Not checked in, so withdrawn at the start: %(names)s.") % {"names": names}
        )
    return notices + _third_place_notices(tournament)


def _third_place_notices(tournament: Tournament) -> list[str]:
    if not tournament.third_place or tournament.format != Format.SINGLE_ELIMINATION:
        return []
    entrants = tournament.entries.filter(withdrawn=False).count()
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        played = tournament.plays_third_place(entrants)
    else:
        played = tournament.matches.filter(slot="3P").exists()
    if played:
        return []
    return [
        _(
            "No third-place match: it is played by the two semifinal losers, so it needs at "
            "least %(needed)s players, and there are %(count)s."
        )
        % {"needed": elimination.THIRD_PLACE_ENTRANTS, "count": entrants}
    ]


@transaction.atomic
def swiss_round_pair(*, tournament: Tournament, by: User) -> Round:
    """Pair the next Swiss round once every match of the last one is decided."""
    tournament = _for_organizer(tournament, by, Status.RUNNING)
    if tournament.format != Format.SWISS:
        raise Conflict(_("Only Swiss tournaments are paired round by round."))
    return _pair_swiss(tournament)


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by: User) -> Tournament:
    tournament = _for_organizer(tournament, by, Status.RUNNING)
    if tournament.first_stage:
        from tournaments.stages.services import finish_check  # noqa: PLC0415 (built on these)

        finish_check(tournament)
    open_matches = tournament.matches.exclude(status__in=Match.DECIDED).exclude(
        home__isnull=True, away__isnull=True
    )
    if open_matches.exists():
        raise Conflict(
            _("%(count)s matches have no decided result yet.") % {"count": open_matches.count()}
        )
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status"])
    return tournament


# --- Inside ------------------------------------------------------------------------------------


def _require_club_rights(organizer: User, settings: dict[str, Any]) -> None:
    """A tournament of a club (or of one of its seasons) is made by one who runs the club; a
    season's tournament belongs to the season's club."""
    club, season = settings.get("club"), settings.get("season")
    if season is not None:
        if club is not None and club.pk != season.club_id:
            raise InvalidInput(_("The season is another club's."))
        settings["club"] = club = season.club
    if club is not None:
        require_runs_club(club, organizer)


def _locked(tournament: Tournament) -> Tournament:
    return locked(Tournament, tournament.pk)


def _for_organizer(tournament: Tournament, by: User, *statuses: str) -> Tournament:
    """The locked tournament, once ``by`` is known to organize it and it is in a fit state."""
    tournament = _locked(tournament)
    _require_organizer(tournament, by)
    _require_status(tournament, *statuses)
    return tournament


def _require_organizer(tournament: Tournament, user: User) -> None:
    if not is_organizer(tournament, user):
        raise NotAllowed(_("Only the tournament's organizers may do this."))


def _require_status(tournament: Tournament, *allowed: str) -> None:
    if tournament.status not in allowed:
        raise Conflict(
            _("The tournament is %(status)s: this cannot be done now.")
            % {"status": tournament.get_status_display()}
        )


def _saved_checked(tournament: Tournament) -> Tournament:
    """Save the tournament once its settings pass the checks a form would make."""
    _validate_rules(tournament)
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError:
        raise InvalidInput(_("The tournament's settings do not fit together.")) from None
    return tournament


def _validate_rules(tournament: Tournament) -> None:
    """Field checks as a form makes them, then the rules that fields alone cannot say."""
    try:
        tournament.full_clean(validate_constraints=False)
    except ValidationError as error:
        raise InvalidInput.of_fields(error.message_dict) from None
    if (tournament.match_length is None) == (tournament.match_games is None):
        raise InvalidInput(_("A match is played to a number of points or as a number of games."))
    if tournament.match_length == 0 or tournament.match_games == 0:
        raise InvalidInput(_("A match has at least one point or one game."))
    long_only = tournament.federation_draw
    short_only = tournament.koks or tournament.no_hit_and_hide
    if tournament.variant == Tournament.Variant.SHORT and long_only:
        raise InvalidInput(_("The Federation draw rule is a Long Nardy rule."))
    if tournament.variant == Tournament.Variant.LONG and short_only:
        raise InvalidInput(_("Koks and no hit-and-hide are Short Nardy rules."))
    from tournaments.stages.services import validate  # noqa: PLC0415 (built on these services)

    validate(tournament)
    if tournament.checkin_minutes is not None and tournament.starts_at is None:
        raise InvalidInput(_("A check-in needs the start time: it opens before it."))
    if tournament.format == Format.SWISS and not tournament.swiss_rounds:
        raise InvalidInput(_("Say how many rounds the Swiss tournament has."))
    if not isinstance(tournament.tiebreaks, list):
        raise InvalidInput(_("The tie-breaks are a list of names."))
    unknown = set(tournament.tiebreaks) - set(TIEBREAKS)
    if unknown:
        raise InvalidInput(
            _("Unknown tie-breaks: %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )


TIEBREAKS = (
    "buchholz", "buchholz-cut-1", "median-buchholz", "sonneborn-berger", "direct-encounter",
    "wins", "game-points-difference", "rating",
)  # fmt: skip


def _seeded(tournament: Tournament) -> list[Entry]:
    """The active entries in seed order; entries without a seed follow, by entry time, and all
    are numbered 1..n."""
    entries = list(
        tournament.entries.filter(withdrawn=False)
        .select_related("player")
        .order_by("seed", "created_at", "pk")
    )
    entries.sort(key=lambda entry: (entry.seed is None, entry.seed or 0))
    for number, entry in enumerate(entries, start=1):
        if entry.seed != number:
            entry.seed = number
            entry.save(update_fields=["seed"])
    return entries


def _create_round_matches(round_: Round, pairs: Iterable[tuple[Entry, Entry | None]]) -> None:
    """Matches of a round; a bye is a decided match with no away side."""
    tournament = round_.tournament
    matches = []
    for home, away in pairs:
        if away is None:
            matches.append(
                Match(
                    tournament=tournament,
                    round=round_,
                    home=home,
                    status=Match.Status.FINAL,
                    winner=home,
                )
            )
        else:
            matches.append(Match(tournament=tournament, round=round_, home=home, away=away))
    Match.objects.bulk_create(matches)


def _pair_swiss(tournament: Tournament) -> Round:
    played = tournament.rounds.count()
    if played >= (tournament.swiss_rounds or 0):
        raise Conflict(_("All %(n)s rounds are paired.") % {"n": tournament.swiss_rounds})
    if tournament.matches.exclude(status__in=Match.DECIDED).exists():
        raise Conflict(_("Every match of the round must be decided before the next is paired."))
    entries = {entry.pk: entry for entry in tournament.entries.filter(withdrawn=False)}
    scores: dict[int, Decimal] = defaultdict(Decimal)
    opponents: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    points = {
        "win": tournament.points_win,
        "draw": tournament.points_draw,
        "loss": tournament.points_loss,
    }
    for match in tournament.matches.filter(round__isnull=False):
        if match.away_id is None:
            had_bye.add(match.home_id)
            scores[match.home_id] += tournament.points_bye
            continue
        opponents[match.home_id].add(match.away_id)
        opponents[match.away_id].add(match.home_id)
        for side in (match.home_id, match.away_id):
            if match.winner_id is None:
                scores[side] += points["draw"]
            else:
                scores[side] += points["win"] if match.winner_id == side else points["loss"]
    ratings = entry_ratings(tournament=tournament)
    field = [
        swiss.SwissEntrant(
            id=entry_id,
            score=float(scores[entry_id]),
            # Rated players rank by rating; the unrated by seed, below a rating of 1500.
            rating=round(ratings[entry_id]) if entry_id in ratings else -(entry.seed or 0),
            opponents=frozenset(opponents[entry_id]),
            had_bye=entry_id in had_bye,
        )
        for entry_id, entry in entries.items()
    ]
    try:
        pairs = swiss.pair(field)
    except ValueError as error:
        raise Conflict(str(error)) from None
    round_ = Round.objects.create(tournament=tournament, number=played + 1)
    _create_round_matches(
        round_, [(entries[a], entries[b] if b is not None else None) for a, b in pairs]
    )
    return round_


def _create_bracket(tournament: Tournament, entries: list[Entry]) -> None:
    matches = []
    for planned in tournament.bracket_plan(len(entries)):
        match = Match(
            tournament=tournament,
            bracket=planned.bracket,
            bracket_round=planned.round,
            slot=str(planned.id),
            home_source=_source(planned.home),
            away_source=_source(planned.away),
        )
        if planned.if_needed:  # played only when the away side of the match before won it
            match.home_source = {**(match.home_source or {}), "if_needed": True}
        if isinstance(planned.home, elimination.Seed):
            match.home = entries[planned.home.k - 1]
        if isinstance(planned.away, elimination.Seed):
            match.away = entries[planned.away.k - 1]
        matches.append(match)
    Match.objects.bulk_create(matches)


def _source(side: object) -> dict[str, Any]:
    if isinstance(side, elimination.Seed):
        return {"seed": side.k}
    if isinstance(side, elimination.WinnerOf):
        return {"winner_of": str(side.match_id)}
    if isinstance(side, elimination.LoserOf):
        return {"loser_of": str(side.match_id)}
    raise TypeError(side)


# --- Editing the rules, and entering players by name (the organizer's pages) -------------------

#: While a tournament is in one of these its rules may change; the start locks them.
EDITABLE_STATUSES = (Status.DRAFT, Status.REGISTRATION)
#: What ``tournament_update`` may change: not the slug (links are out), the status or organizers.
EDITABLE_SETTINGS = frozenset(
    {
        "name", "variant", "format", "rating_system", "match_length", "match_games", "koks",
        "no_hit_and_hide", "federation_draw", "draw_counts", "block_check", "dave",
        "dave_progression", "max_stake", "crawford", "swiss_rounds", "third_place",
        "grand_final", "consolation_kind", "last_chance", "tiebreaks", "points_win",
        "points_draw", "points_loss", "points_bye", "self_signup", "capacity", "signup_approval",
        "starts_at", "checkin_minutes", "first_stage", "groups", "advance",
    }
)  # fmt: skip
#: A players file larger than this is refused before it is read.
ENTRIES_CSV_MAX_BYTES = 1_000_000
ENTRIES_CSV_COLUMNS = ("name", "club", "country", "seed", "username")
#: The largest seed the database holds (``Entry.seed`` is a positive integer column).
SEED_MAX = 2_147_483_647


def _seed_too_large(seed: int) -> str | None:
    """Django's own message for a seed past ``SEED_MAX``, or None when it fits."""
    try:
        MaxValueValidator(SEED_MAX)(seed)
    except ValidationError as error:
        return " ".join(error.messages)
    return None


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: User, **settings: Any) -> Tournament:
    """Change a tournament's name and rules before it starts, checked as at creation; once the
    matches are made from the rules, the rules are locked."""
    unknown = set(settings) - EDITABLE_SETTINGS
    if unknown:
        raise TypeError(f"not an editable setting: {', '.join(sorted(unknown))}")
    tournament = _locked(tournament)
    _require_organizer(tournament, by)
    if tournament.status not in EDITABLE_STATUSES:
        raise Conflict(_("The tournament has started: its rules are locked."))
    for name, value in settings.items():
        setattr(tournament, name, value)
    tournament.name = tournament.name.strip()
    tournament = _saved_checked(tournament)
    promote_waiting(tournament)  # there may be more places
    return tournament


@dataclass(frozen=True)
class NewEntry:
    """A player to enter, by name, as an organizer types or uploads it; ``line`` is the line of
    the file it came from, named in messages."""

    name: str
    club: str = ""
    country: str = ""
    seed: int | None = None
    username: str = ""
    line: int | None = None


@transaction.atomic
def entries_register(
    *, tournament: Tournament, by: User, entries: Sequence[NewEntry]
) -> list[Entry]:
    """Enter players by name, all or none.

    A name no player has yet makes a new player, linked to the site account ``username`` names
    (so they can report their own results; an account has one player at most), with the
    tournament's club as its home club (``tournaments.players.rights``). A known name enters
    that player; the club, country and account given, when given, must be the stored ones: an
    import never changes a player behind the organizer's back.
    """
    tournament = _locked(tournament)
    _require_organizer(tournament, by)
    # A player's own name is kept as stored: one made through the API may hold line breaks or
    # double spaces, and its name joined up would make a new player instead of entering it.
    stored = set(
        Player.objects.filter(display_name__in=[entry.name for entry in entries]).values_list(
            "display_name", flat=True
        )
    )
    entries = [_normalized(entry, keep_name=entry.name in stored) for entry in entries]
    names = [entry.name for entry in entries]
    known = {
        player.display_name: player
        for player in Player.objects.filter(display_name__in=names).select_related("user")
    }
    accounts = _accounts([entry.username for entry in entries if entry.username])
    with_player = set(
        Player.objects.filter(user__in=list(accounts.values())).values_list("user_id", flat=True)
    )
    home = home_club_of_new(by=by, tournament=tournament)
    entered = set(
        tournament.entries.filter(player__display_name__in=names).values_list(
            "player__display_name", flat=True
        )
    )
    seeds_taken = dict(
        tournament.entries.filter(seed__isnull=False).values_list("seed", "player__display_name")
    )
    first_line_of_name: dict[str, NewEntry] = {}
    first_line_of_seed: dict[int, NewEntry] = {}
    for entry in entries:
        if not entry.name:
            raise _entry_error(entry, _("The name is empty."))
        earlier = first_line_of_name.setdefault(entry.name, entry)
        if earlier is not entry:
            raise _entry_error(
                entry, _("%(name)s is listed twice.") % {"name": entry.name}, earlier
            )
        if entry.name in entered:
            raise _entry_error(entry, _("%(name)s is already entered.") % {"name": entry.name})
        if entry.username and entry.username not in accounts:
            raise _entry_error(
                entry,
                _("No site account is called “%(username)s”.") % {"username": entry.username},
            )
        if entry.seed is not None:
            if entry.seed < 1:
                raise _entry_error(entry, _("A seed is a whole number from 1 up."))
            if entry.seed in seeds_taken:
                raise _entry_error(
                    entry,
                    _("Seed %(seed)s is already %(name)s's.")
                    % {"seed": entry.seed, "name": seeds_taken[entry.seed]},
                )
            earlier = first_line_of_seed.setdefault(entry.seed, entry)
            if earlier is not entry:
                raise _entry_error(
                    entry, _("Seed %(seed)s is given twice.") % {"seed": entry.seed}, earlier
                )
        if entry.name in known:
            _require_same_player(entry, known[entry.name])
            continue
        account = accounts.get(entry.username)
        if account is not None:
            if account.pk in with_player:
                raise _entry_error(
                    entry,
                    _("The account “%(username)s” has a player already: enter that player.")
                    % {"username": entry.username},
                )
            with_player.add(account.pk)
        known[entry.name] = _player_new(entry, account, home)
    try:
        with transaction.atomic():
            made = []
            for entry in entries:
                player = known[entry.name]
                if player.pk is None:
                    player.save()
                made.append(
                    entry_register(tournament=tournament, player=player, by=by, seed=entry.seed)
                )
    except IntegrityError:
        raise Conflict(
            _("Someone added a player of one of these names just now: try again.")
        ) from None
    return made


def entries_import_csv(*, tournament: Tournament, by: User, data: bytes) -> list[Entry]:
    """Enter the players of a CSV file, all or none (see ``entries_from_csv`` for the format)."""
    _require_organizer(tournament, by)
    return entries_register(tournament=tournament, by=by, entries=entries_from_csv(data))


def entries_from_csv(data: bytes) -> list[NewEntry]:
    """The players of a CSV file: UTF-8 (a byte-order mark is fine), a header row naming the
    columns (``name`` required; ``club``, ``country``, ``seed``, ``username`` optional, in any
    order), cells separated by ``,`` or ``;`` (the header tells which). Empty rows are skipped.
    A problem is reported with its line number."""
    if len(data) > ENTRIES_CSV_MAX_BYTES:
        raise InvalidInput(
            _("The file is larger than %(size)s bytes.") % {"size": ENTRIES_CSV_MAX_BYTES}
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(_("The file is not UTF-8 text: save it as “CSV UTF-8”.")) from None
    header_line = text.split("\n", 1)[0]
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [cell.strip().lower() for cell in next(reader, [])]
        columns = _csv_columns(header)
        entries = []
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            entries.append(_csv_entry(row, columns, reader.line_num))
    except csv.Error as error:
        raise InvalidInput(
            _("Line %(line)s: %(problem)s") % {"line": reader.line_num, "problem": error}
        ) from None
    if not entries:
        raise InvalidInput(_("The file has no players under its header row."))
    return entries


def _csv_columns(header: list[str]) -> dict[str, int]:
    if not any(header):
        raise InvalidInput(
            _("Line 1: the first row names the columns: %(columns)s.")
            % {"columns": ", ".join(ENTRIES_CSV_COLUMNS)}
        )
    columns: dict[str, int] = {}
    for index, column in enumerate(header):
        if column not in ENTRIES_CSV_COLUMNS:
            raise InvalidInput(
                _("Line 1: unknown column “%(column)s”; the columns are %(columns)s.")
                % {"column": column, "columns": ", ".join(ENTRIES_CSV_COLUMNS)}
            )
        if column in columns:
            raise InvalidInput(
                _("Line 1: the column “%(column)s” is named twice.") % {"column": column}
            )
        columns[column] = index
    if "name" not in columns:
        raise InvalidInput(_("Line 1: the file needs a “name” column."))
    return columns


def _csv_entry(row: list[str], columns: dict[str, int], line: int) -> NewEntry:
    if len(row) > len(columns) and any(cell.strip() for cell in row[len(columns) :]):
        raise InvalidInput(_("Line %(line)s: there are more cells than columns.") % {"line": line})

    def cell(column: str) -> str:
        index = columns.get(column)
        return row[index].strip() if index is not None and index < len(row) else ""

    seed_text = cell("seed")
    seed = None
    if seed_text:
        digits = seed_text.lstrip("0")  # int() of thousands of digits is refused: keep 20
        if not seed_text.isdecimal() or (len(digits) <= 20 and int(digits or "0") < 1):
            raise InvalidInput(
                _("Line %(line)s: the seed “%(seed)s” is not a whole number from 1 up.")
                % {"line": line, "seed": seed_text}
            )
        seed = int(digits) if len(digits) <= 20 else SEED_MAX + 1
        if too_large := _seed_too_large(seed):
            raise InvalidInput(
                _("Line %(line)s: %(problem)s") % {"line": line, "problem": too_large}
            )
    return NewEntry(
        name=cell("name"),
        club=cell("club"),
        country=cell("country"),
        seed=seed,
        username=cell("username"),
        line=line,
    )


def _normalized(entry: NewEntry, *, keep_name: bool = False) -> NewEntry:
    return replace(
        entry,
        name=entry.name if keep_name else " ".join(entry.name.split()),
        club=entry.club.strip(),
        country=entry.country.strip().upper(),
        username=entry.username.strip(),
    )


def _accounts(usernames: list[str]) -> dict[str, AbstractBaseUser]:
    """The site accounts of these usernames, by username."""
    account_model = get_user_model()
    field = account_model.USERNAME_FIELD
    return {
        account.get_username(): account
        for account in account_model._default_manager.filter(**{f"{field}__in": usernames})
    }


def _entry_error(entry: NewEntry, problem: str, earlier: NewEntry | None = None) -> InvalidInput:
    """The problem, naming the file's line (and the earlier line it clashes with) when known."""
    if entry.line is None:
        return InvalidInput(problem)
    if earlier is not None and earlier.line is not None:
        return InvalidInput(
            _("Line %(line)s: %(problem)s It was first given on line %(earlier)s.")
            % {"line": entry.line, "problem": problem, "earlier": earlier.line}
        )
    return InvalidInput(_("Line %(line)s: %(problem)s") % {"line": entry.line, "problem": problem})


def _require_same_player(entry: NewEntry, player: Player) -> None:
    account = player.user.get_username() if player.user else ""
    if (
        (entry.club and entry.club != player.club)
        or (entry.country and entry.country != player.country)
        or (entry.username and entry.username != account)
    ):
        raise _entry_error(
            entry,
            _(
                "%(name)s is already a player (club “%(club)s”, country “%(country)s”, account "
                "“%(account)s”): leave those empty, or give them as they are."
            )
            % {
                "name": player.display_name,
                "club": player.club,
                "country": player.country,
                "account": account,
            },
        )


def _player_new(entry: NewEntry, account: AbstractBaseUser | None, home: Club | None) -> Player:
    """A new player for the entry, checked as a form would, not saved yet."""
    player = Player(
        display_name=entry.name,
        club=entry.club,
        country=entry.country,
        user=account,
        home_club=home,
    )
    try:
        player.full_clean()
    except ValidationError as error:
        problem = "; ".join(
            f"{Player._meta.get_field(name).verbose_name}: {' '.join(messages)}"
            for name, messages in error.message_dict.items()
        )
        raise _entry_error(entry, problem) from None
    return player
