"""Entering players: one by one, by name (making the players that are new), from a CSV file,
from a pasted list of names after its preview, and withdrawing them."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club
from tournaments.errors import Conflict, InvalidInput
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.names import pasted_names, search_words
from tournaments.officials.services import require_may_play
from tournaments.players.ownership import home_club_of_new
from tournaments.players.pairs import pair_of
from tournaments.policy import may, require
from tournaments.services.checks import Format, Status, User, locked_tournament
from tournaments.services.pairs import require_pairs_entry
from tournaments.signups.services import (
    entry_withdrawn,
    promote_waiting,
    signup_entered,
)


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    player: Player,
    by: User,
    seed: int | None = None,
    profile_given: bool = False,
) -> Entry:
    """Enter a player: before the start, or late into a running Swiss tournament. A tournament
    of a category refuses a player who does not fit it, or whose profile does not say, as a
    sign-up does: an organizer cannot enter a player the category leaves out. Why is said to
    who may read the player's profile, and with ``profile_given`` (``by`` made the player with
    its profile in this very request); anyone else is told only that the player does not fit."""
    tournament = locked_tournament(tournament)
    require(by, "tournament.run", tournament)
    late = tournament.status == Status.RUNNING
    if late and tournament.format != Format.SWISS:
        raise Conflict(_("Late entries join Swiss tournaments only: the draw is made."))
    if tournament.status == Status.FINISHED:
        raise Conflict(_("The tournament is finished."))
    if tournament.entries.filter(player=player).exists():
        raise Conflict(_("%(player)s is already entered.") % {"player": player})
    require_may_play(tournament, player)  # an official event: no official, nobody disqualified
    # A pair in a pairs tournament only, and the category of a player (or of a pair's two).
    require_pairs_entry(tournament, player, by, profile_given=profile_given)
    if seed is not None and (too_large := _seed_too_large(seed)):
        raise InvalidInput(too_large)  # the column would overflow: a 500 otherwise
    entry = Entry.objects.create(tournament=tournament, player=player, seed=seed, late_entry=late)
    signup_entered(entry)  # a player waiting on the sign-up list is in now
    return entry


@transaction.atomic
def pair_register(
    *,
    tournament: Tournament,
    first: Player,
    second: Player,
    by: User,
    name: str = "",
    seed: int | None = None,
) -> Entry:
    """An organizer enters two players as a pair (``pairs.pair_of``: made when new, named
    ``name`` or after them, with the home club a new player of the tournament gets; an
    existing pair is entered under its own name, never renamed) in a tournament of the pairs
    discipline."""
    tournament = locked_tournament(tournament)
    require(by, "tournament.run", tournament)
    if not tournament.pairs:
        raise Conflict(_("This tournament is not of the pairs discipline: enter players."))
    pair = pair_of(first, second, name, home=home_club_of_new(by=by, tournament=tournament))
    return entry_register(tournament=tournament, player=pair.player, by=by, seed=seed)


@transaction.atomic
def pair_register_named(
    *,
    tournament: Tournament,
    players: tuple[Player | str, Player | str],
    by: User,
    name: str = "",
    seed: int | None = None,
) -> Entry:
    """``pair_register`` where either player may be a name: a player of that name, else a new
    one (with the tournament's club as its home club, as ``entries_register`` makes them)."""
    require(by, "tournament.run", locked_tournament(tournament))
    home = home_club_of_new(by=by, tournament=tournament)
    found = []
    for player in players:
        if isinstance(player, str):
            if not player:
                raise InvalidInput(_("The name is empty."))
            known = Player.objects.filter(display_name=player).first()
            player = known or Player.objects.create(display_name=player, home_club=home)
        found.append(player)
    first, second = found
    return pair_register(
        tournament=tournament, first=first, second=second, by=by, name=name, seed=seed
    )


@transaction.atomic
def entry_withdraw(*, entry: Entry, by: User, forfeit_remaining: bool = False) -> Entry:
    """Before the start the entry is removed; later the player is not paired again and, with
    ``forfeit_remaining``, loses by forfeit every match of theirs still to play whose opponent
    is known (a round robin's later rounds, a Swiss round's match, their bracket match)."""
    tournament = locked_tournament(entry.tournament)
    require(by, "tournament.run", tournament)
    if tournament.status == Status.FINISHED:
        raise Conflict(_("The tournament is finished."))
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        entry_withdrawn(entry)
        entry.delete()
        promote_waiting(tournament)
        return entry
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    if forfeit_remaining:
        remaining = (
            Match.objects.filter(Q(home=entry) | Q(away=entry), status=Match.Status.SCHEDULED)
            .exclude(home__isnull=True)
            .exclude(away__isnull=True)
            .order_by("pk")
        )
        for match in remaining:
            absent = "home" if match.home_id == entry.pk else "away"
            match_result_record(match=match, by=by, forfeit=absent)
    return entry


#: A players file larger than this is refused before it is read.
ENTRIES_CSV_MAX_BYTES = 1_000_000


ENTRIES_CSV_COLUMNS = ("name", "club", "country", "seed", "username", "gender", "birth_year")


#: The largest seed the database holds (``Entry.seed`` is a positive integer column).
SEED_MAX = 2_147_483_647


def _seed_too_large(seed: int) -> str | None:
    """Django's own message for a seed past ``SEED_MAX``, or None when it fits."""
    try:
        MaxValueValidator(SEED_MAX)(seed)
    except ValidationError as error:
        return " ".join(error.messages)
    return None


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
    #: A new player's profile (a tournament of a category asks for it): "", male or female.
    gender: str = ""
    birth_year: int | None = None


@transaction.atomic
def entries_register(
    *, tournament: Tournament, by: User, entries: Sequence[NewEntry]
) -> list[Entry]:
    """Enter players by name, all or none.

    A name no player has yet makes a new player, linked to the site account ``username`` names
    (so they can report their own results; an account has one player at most), with the
    tournament's club as its home club (``tournaments.players.ownership``), and with the gender and
    birth year given on its profile. A known name enters that player; the club, country,
    account, gender and birth year given, when given, must be the stored ones: an import never
    changes a player behind the organizer's back (the profile is the player's, and the message
    does not say it). A tournament of a category refuses a player who does not fit it, or whose
    profile does not say (``entry_register``).
    """
    tournament = locked_tournament(tournament)
    require(by, "tournament.run", tournament)
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
            _require_same_player(entry, known[entry.name], by)
            continue
        if entry.username and entry.username not in accounts:
            raise _entry_error(
                entry,
                _("No site account is called “%(username)s”.") % {"username": entry.username},
            )
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
                new = player.pk is None
                if new:
                    player.save()
                made.append(
                    entry_register(
                        tournament=tournament,
                        player=player,
                        by=by,
                        seed=entry.seed,
                        profile_given=new,
                    )
                )
    except IntegrityError:
        raise Conflict(
            _("Someone added a player of one of these names just now: try again.")
        ) from None
    return made


#: A pasted list is refused past this many characters, or this many names.
PASTE_MAX_CHARS, PASTE_MAX_NAMES = 20_000, 300
#: What a line of a pasted list may be answered with, besides a player's id.
NEW, SKIP = "new", "skip"


@dataclass(frozen=True)
class NearPlayer:
    """A player whose name is near a pasted one ("did you mean"), and whether they are an
    entrant already (then they are named, not offered)."""

    player: Player
    entered: bool


@dataclass(frozen=True)
class PastedLine:
    """One line of a pasted list as its preview shows it: the player of the same name (case and
    spacing aside) and whether they are entered already, the near names, or the earlier line
    that gave the same name."""

    line: int
    name: str
    player: Player | None = None
    entered: bool = False
    near: tuple[NearPlayer, ...] = ()
    repeats: int | None = None

    @property
    def skipped(self) -> bool:
        """Listed twice, or entered already: nothing to do for it."""
        return self.repeats is not None or self.entered

    @property
    def answers(self) -> tuple[str, ...]:
        """The answers the organizer may give: the player of this name, a near player who is
        not entered, a new player (unless the name is a player's), or to leave the line out."""
        if self.skipped:
            return ()
        if self.player is not None:
            return (str(self.player.pk), SKIP)
        return (*(str(near.player.pk) for near in self.near if not near.entered), NEW, SKIP)

    @property
    def answer(self) -> str:
        """The answer given unless the organizer picks another: the player of this name, a
        new player when no name is near; none when a near name asks them to choose."""
        if self.player is not None:
            return str(self.player.pk)
        return "" if self.skipped or any(not near.entered for near in self.near) else NEW


def entries_paste_preview(*, tournament: Tournament, by: User, text: str) -> list[PastedLine]:
    """Each name of a pasted list (one a line; blank lines skipped) matched to the players of
    the site: the same name, else "did you mean" the near ones (``names.pasted_names``), with
    what is entered already and what is listed twice. Writes nothing."""
    require(by, "tournament.run", tournament)
    if len(text) > PASTE_MAX_CHARS:
        raise InvalidInput(
            _("The list is longer than %(most)s characters.") % {"most": PASTE_MAX_CHARS}
        )
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise InvalidInput(_("The list has no names: paste one name a line."))
    if len(lines) > PASTE_MAX_NAMES:
        raise InvalidInput(
            _("The list has more than %(most)s names: enter them in parts.")
            % {"most": PASTE_MAX_NAMES}
        )
    players = _players_named_like(lines)
    entered = set(
        tournament.entries.filter(player__in=list(players)).values_list("player_id", flat=True)
    )
    names = [(pk, player.display_name) for pk, player in players.items()]
    return [
        PastedLine(
            line=found.line,
            name=found.name,
            player=players[found.same] if found.same is not None else None,
            entered=found.same in entered,
            near=tuple(NearPlayer(players[pk], pk in entered) for pk in found.near),
            repeats=found.repeats,
        )
        for found in pasted_names(text, names)
    ]


#: At most this many players are read as the candidates of one pasted list.
PASTE_MOST_CANDIDATES = 5000


def _players_named_like(lines: Sequence[str]) -> dict[int, Player]:
    """The players who may be the same as, or near, a pasted name: those with a word of their
    name beginning as a word of one of the names does (a name near another shares the start of
    a word with it, in Latin letters)."""
    starts = {word[:3] for line in lines for word in search_words(line) if len(word) >= 2}
    if not starts:
        return {}
    like = Q()
    for start in sorted(starts):
        like |= Q(search_key__startswith=start) | Q(search_key__contains=f" {start}")
    found = Player.objects.filter(like).order_by("pk")[:PASTE_MOST_CANDIDATES]
    return {player.pk: player for player in found}


@transaction.atomic
def entries_paste(
    *, tournament: Tournament, by: User, text: str, answers: Mapping[int, str]
) -> tuple[list[Entry], list[PastedLine]]:
    """Enter the pasted list as its preview was answered (``answers``: a line's number → a
    player's id, ``NEW`` or ``SKIP``; a line not answered takes ``PastedLine.answer``), all or
    none, through ``entries_register``. The lines listed twice or entered already are left out
    and returned with the entries made."""
    lines = entries_paste_preview(tournament=tournament, by=by, text=text)
    chosen: list[NewEntry] = []
    skipped = []
    for line in lines:
        answer = answers.get(line.line) or line.answer
        if line.skipped:
            skipped.append(line)
            continue
        if answer == SKIP:
            continue
        if not answer:
            raise InvalidInput(
                _("Line %(line)s: did you mean a player of the site, or a new player "
                  "“%(name)s”? Choose one.") % {"line": line.line, "name": line.name}
            )  # fmt: skip
        if answer not in line.answers:
            raise InvalidInput(
                _("Line %(line)s: choose one of the answers offered for “%(name)s”.")
                % {"line": line.line, "name": line.name}
            )
        players = [line.player, *(near.player for near in line.near)]
        picked = next((p for p in players if p is not None and str(p.pk) == answer), None)
        name = picked.display_name if picked is not None else line.name
        chosen.append(NewEntry(name=name, line=line.line))
    if not chosen:
        raise InvalidInput(_("Nothing to enter: every name is left out."))
    return entries_register(tournament=tournament, by=by, entries=chosen), skipped


def entries_import_csv(*, tournament: Tournament, by: User, data: bytes) -> list[Entry]:
    """Enter the players of a CSV file, all or none (see ``entries_from_csv`` for the format)."""
    require(by, "tournament.run", tournament)
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

    birth_year_text = cell("birth_year")
    if birth_year_text and not (birth_year_text.isdecimal() and len(birth_year_text) == 4):
        raise InvalidInput(
            _("Line %(line)s: the birth year “%(year)s” is not a year of four digits.")
            % {"line": line, "year": birth_year_text}
        )
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
        gender=cell("gender").lower(),
        birth_year=int(birth_year_text) if birth_year_text else None,
    )


def _normalized(entry: NewEntry, *, keep_name: bool = False) -> NewEntry:
    return replace(
        entry,
        name=entry.name if keep_name else " ".join(entry.name.split()),
        club=entry.club.strip(),
        country=entry.country.strip().upper(),
        username=entry.username.strip(),
        gender=entry.gender.strip(),
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


def _require_same_player(entry: NewEntry, player: Player, by: User) -> None:
    """A line naming a player already on the site gives nothing that differs from them. Its
    profile columns (gender, birth year) and account are compared only for an importer who may
    read the player's profile (``policy``'s ``profile.read``); anyone else gets one message,
    the same whatever is stored, when the line gives them at all: an import is no way to test
    a guess of someone's birth year, gender or account. Club and country are public."""
    reads = may(by, "profile.read", player)
    gives_profile = bool(entry.gender) or entry.birth_year is not None or bool(entry.username)
    if gives_profile and not reads:
        raise _entry_error(
            entry,
            _(
                "%(name)s is already a player on the site: leave the gender, the birth year and "
                "the username empty for them (their profile and account are theirs)."
            )
            % {"name": player.display_name},
        )
    if (entry.gender and entry.gender != player.gender) or (
        entry.birth_year is not None and entry.birth_year != player.birth_year
    ):
        raise _entry_error(
            entry,
            _(
                "%(name)s is already a player, whose profile says otherwise: leave the gender "
                "and the birth year empty for a player already on the site."
            )
            % {"name": player.display_name},
        )
    account = player.user.get_username() if player.user else ""
    if entry.username and entry.username != account:
        raise _entry_error(
            entry,
            _(
                "%(name)s is already a player, linked to another account (“%(account)s”): "
                "leave the username empty, or give it as it is."
            )
            % {"name": player.display_name, "account": account},
        )
    if (entry.club and entry.club != player.club) or (
        entry.country and entry.country != player.country
    ):
        raise _entry_error(
            entry,
            _(
                "%(name)s is already a player (club “%(club)s”, country “%(country)s”): leave "
                "those empty, or give them as they are."
            )
            % {"name": player.display_name, "club": player.club, "country": player.country},
        )


def _player_new(entry: NewEntry, account: AbstractBaseUser | None, home: Club | None) -> Player:
    """A new player for the entry, checked as a form would, not saved yet."""
    player = Player(
        display_name=entry.name,
        club=entry.club,
        country=entry.country,
        user=account,
        home_club=home,
        gender=entry.gender,
        birth_year=entry.birth_year,
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
