"""The document read back into a tournament, checked all the way, or refused whole (see
``tournaments.backup``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.models import Game
from games.rules import Colour, NotationError, Outcome, action_from_json
from games.rules.game import Ending
from games.services import RecordedGame, ValidatedGame
from tournaments.backup.document import (
    FORMAT,
    INTEGER_MAX,
    LOTS_SEED_MAX,
    SETTINGS,
    SMALL_MAX,
    VERSION,
)
from tournaments.errors import Conflict, IllegalGameRecord, InvalidInput, TournamentError
from tournaments.matches.results import Result, result_of
from tournaments.models import Entry, Lots, Match, Player, Round, Tournament
from tournaments.players.ownership import home_club_of_new
from tournaments.ratings.services import tournament_arrived
from tournaments.reasons import said_by
from tournaments.scoring import PlayedGame
from tournaments.services import tournament_delete, validate_rules


@dataclass(frozen=True)
class ImportResult:
    """The imported tournament and what the import could not take as the document says."""

    tournament: Tournament
    players_created: list[str] = field(default_factory=list)
    #: Known players whose club, country or account differ in the document (database kept).
    players_differing: list[str] = field(default_factory=list)
    #: Usernames the site does not have: those places were left empty.
    missing_users: list[str] = field(default_factory=list)
    #: Where the rating replay enqueued on commit starts (None: no decided match).
    ratings_replay_from: datetime | None = None


def tournament_import(
    document: Mapping[str, Any],
    *,
    as_slug: str | None = None,
    organizer: AbstractBaseUser | None = None,
    replace: bool = False,
) -> ImportResult:
    """Recreate an exported tournament (as ``as_slug`` when given; organized by ``organizer``
    when given, else by the document's organizer), all or nothing. With ``replace``, a
    tournament that has the slug is deleted first, in the same transaction (so a refused
    document leaves it as it was).

    The rating replay it needs is enqueued when the transaction commits.
    """
    try:
        with transaction.atomic():
            if replace:
                settings = _mapping(document, "the document").get("tournament")
                slug = as_slug or (settings.get("slug") if isinstance(settings, Mapping) else None)
                existing = Tournament.objects.filter(slug=slug).first() if slug else None
                if existing is not None:
                    tournament_delete(existing)
            return _Import(document, as_slug=as_slug, organizer=organizer).run()
    except IntegrityError as error:  # e.g. a player of the same name made meanwhile
        raise Conflict(
            _("The document does not fit the database: %(reason)s") % {"reason": error}
        ) from None
    except DataError as error:  # a value too large or too long for its column
        raise InvalidInput(
            _("The document does not fit the database: %(reason)s") % {"reason": error}
        ) from None


class _Import:
    def __init__(
        self,
        document: Mapping[str, Any],
        *,
        as_slug: str | None,
        organizer: AbstractBaseUser | None,
    ) -> None:
        self.document = _mapping(document, "the document")
        self.as_slug = as_slug
        self.organizer = organizer
        self.users: dict[str, AbstractBaseUser | None] = {}
        self.missing_users: set[str] = set()
        self.players: dict[str, Player] = {}
        self.players_created: list[str] = []
        self.players_differing: list[str] = []
        self.entries: dict[str, Entry] = {}
        self.rounds: dict[int, Round] = {}

    def run(self) -> ImportResult:
        document = self.document
        if document.get("format") != FORMAT:
            raise InvalidInput(
                _("This is not a tournament export (its format is not “%s”).") % FORMAT
            )
        version = document.get("version")
        if version != VERSION:
            raise InvalidInput(
                _("Export version %(version)s cannot be read here (this site reads %(ours)s).")
                % {"version": version, "ours": VERSION}
            )
        self._load_users(document)
        tournament = self._tournament(_mapping(document.get("tournament"), "tournament"))
        self._players(_sequence(document.get("players", []), "players"), tournament)
        self._entries(tournament, _sequence(document.get("entries", []), "entries"))
        self._rounds(tournament, _sequence(document.get("rounds", []), "rounds"))
        matches = _sequence(document.get("matches", []), "matches")
        decided = [self._match(tournament, data, index) for index, data in enumerate(matches)]
        self._lots(tournament, document.get("lots"))
        first = min((moment for moment in decided if moment is not None), default=None)
        if first is not None:
            tournament_arrived(tournament, first)
        return ImportResult(
            tournament=tournament,
            players_created=self.players_created,
            players_differing=self.players_differing,
            missing_users=sorted(self.missing_users),
            ratings_replay_from=first,
        )

    # Users ---------------------------------------------------------------------------------

    def _load_users(self, document: Mapping[str, Any]) -> None:
        """Every username the document names, looked up in one query."""
        names: set[str] = set()
        settings = document.get("tournament")
        if isinstance(settings, Mapping):
            names.add(settings.get("organizer") or "")
            names.update(settings.get("co_organizers") or [])
        for player in document.get("players") or []:
            if isinstance(player, Mapping):
                names.add(player.get("username") or "")
        for match in document.get("matches") or []:
            if isinstance(match, Mapping):
                names.update((match.get("reported_by") or "", match.get("confirmed_by") or ""))
        lots = document.get("lots")
        if isinstance(lots, Mapping):
            names.add(lots.get("drawn_by") or "")
        names = {name for name in names if isinstance(name, str) and name}
        account_model = get_user_model()
        found = account_model._default_manager.filter(
            **{f"{account_model.USERNAME_FIELD}__in": names}
        )
        self.users = {user.get_username(): user for user in found}

    def _user(self, username: Any, where: str) -> AbstractBaseUser | None:
        if username is None or username == "":
            return None
        if not isinstance(username, str):
            raise InvalidInput(_("%(where)s: a username is text.") % {"where": where})
        user = self.users.get(username)
        if user is None:
            self.missing_users.add(username)
        return user

    # The tournament ------------------------------------------------------------------------

    def _tournament(self, data: Mapping[str, Any]) -> Tournament:
        known = {setting.name: setting for setting in SETTINGS}
        unknown = set(data) - set(known) - {"organizer", "co_organizers"}
        if unknown:
            raise InvalidInput(
                _("Unknown tournament settings: %(names)s.") % {"names": ", ".join(sorted(unknown))}
            )
        tournament = Tournament()
        for name, value in data.items():
            if name in known:
                if isinstance(known[name], models.IntegerField) and not _whole_or_none(value):
                    raise InvalidInput(
                        _("tournament.%(name)s: a whole number, not %(value)s.")
                        % {"name": name, "value": json.dumps(value)}
                    )
                try:
                    setattr(tournament, name, known[name].to_python(value))
                except ValidationError as error:
                    raise InvalidInput(f"tournament.{name}: {' '.join(error.messages)}") from None
        if self.as_slug:
            tournament.slug = self.as_slug
        if not tournament.slug:
            raise InvalidInput(_("The document has no slug: give one."))
        if Tournament.objects.filter(slug=tournament.slug).exists():
            raise Conflict(
                _(
                    "A tournament “%(slug)s” exists already: delete it first, or import under "
                    "another slug."
                )
                % {"slug": tournament.slug}
            )
        tournament.organizer = self.organizer or self._user(  # type: ignore[assignment]
            data.get("organizer"), "tournament.organizer"
        )
        validate_rules(tournament)
        created_at = tournament.created_at
        tournament.save()
        if created_at is not None:  # auto_now_add set it to now on save
            Tournament.objects.filter(pk=tournament.pk).update(created_at=created_at)
            tournament.created_at = created_at
        co_organizers = [
            user
            for username in _sequence(data.get("co_organizers", []), "tournament.co_organizers")
            if (user := self._user(username, "tournament.co_organizers")) is not None
        ]
        tournament.co_organizers.set(co_organizers)  # type: ignore[arg-type]
        return tournament

    def _lots(self, tournament: Tournament, data: Any) -> None:
        """The lots drawn for the places its tie-breaks left shared, kept as drawn: their order,
        by player name, becomes the new entries' (the seed drew it from the old entry ids; an
        older document has no lots)."""
        if data is None:
            return
        lots = _mapping(data, "lots")
        seed = _integer(lots, "seed", "lots", required=True, maximum=LOTS_SEED_MAX)
        drawn_at = _moment(lots, "drawn_at", "lots")
        if drawn_at is None:
            raise InvalidInput(_("lots.drawn_at: expected an ISO 8601 time with its offset."))
        entries = dict(
            Entry.objects.filter(tournament=tournament).values_list("player__display_name", "pk")
        )
        order = []
        for name in _sequence(lots.get("order", []), "lots.order"):
            if name not in entries:
                raise InvalidInput(
                    _("lots.order: “%(name)s” is not entered in the tournament.") % {"name": name}
                )
            order.append(entries[name])
        Lots.objects.create(
            tournament=tournament,
            seed=seed,
            order=order,
            drawn_by=self._user(lots.get("drawn_by"), "lots.drawn_by"),
            drawn_at=drawn_at,
        )

    # Players, entries, rounds ----------------------------------------------------------------

    def _players(self, players: Sequence[Any], tournament: Tournament) -> None:
        """The document's players: a known name is the stored player; a new one is made, with
        the home club the importing organizer's records get (``tournaments.players.ownership``)."""
        organizer = tournament.organizer
        home = None if organizer is None else home_club_of_new(by=organizer, tournament=tournament)
        listed = {}
        for index, item in enumerate(players):
            data = _mapping(item, f"players[{index}]")
            name = _text(data, "name", f"players[{index}]", required=True)
            listed[name] = data
        existing = {
            player.display_name: player
            for player in Player.objects.filter(display_name__in=listed).select_related("user")
        }
        for name, data in listed.items():
            where = f"players “{name}”"
            club = _text(data, "club", where)
            country = _text(data, "country", where)
            username = data.get("username") or None
            user = self._user(username, where)
            player = existing.get(name)
            if player is not None:
                account = player.user.get_username() if player.user else None
                if (player.club, player.country, account) != (club, country, username):
                    self.players_differing.append(name)
            else:
                player = Player(display_name=name, club=club, country=country, user=user,
                                home_club=home)  # fmt: skip
                try:
                    player.full_clean()
                except ValidationError as error:
                    raise InvalidInput(f"{where}: {' '.join(error.messages)}") from None
                player.save()
                self.players_created.append(name)
            self.players[name] = player

    def _entries(self, tournament: Tournament, entries: Sequence[Any]) -> None:
        created_at = {}
        for index, item in enumerate(entries):
            where = f"entries[{index}]"
            data = _mapping(item, where)
            name = _text(data, "player", where, required=True)
            player = self.players.get(name)
            if player is None:
                raise InvalidInput(
                    _("%(where)s: %(name)s is not in the document's players.")
                    % {"where": where, "name": name}
                )
            if name in self.entries:
                raise InvalidInput(_("%(name)s is entered twice.") % {"name": name})
            entry = Entry.objects.create(
                tournament=tournament,
                player=player,
                seed=_integer(data, "seed", where, maximum=INTEGER_MAX),
                withdrawn=_flag(data, "withdrawn", where),
                late_entry=_flag(data, "late_entry", where),
            )
            self.entries[name] = entry
            moment = _moment(data, "created_at", where)
            if moment is not None:
                created_at[entry.pk] = moment
        for pk, moment in created_at.items():
            Entry.objects.filter(pk=pk).update(created_at=moment)

    def _rounds(self, tournament: Tournament, rounds: Sequence[Any]) -> None:
        for index, item in enumerate(rounds):
            where = f"rounds[{index}]"
            data = _mapping(item, where)
            number = _integer(data, "number", where, required=True)
            assert number is not None
            if number in self.rounds:
                raise InvalidInput(_("Round %(number)s is given twice.") % {"number": number})
            self.rounds[number] = Round.objects.create(tournament=tournament, number=number)
            moment = _moment(data, "created_at", where)
            if moment is not None:
                Round.objects.filter(pk=self.rounds[number].pk).update(created_at=moment)

    # Matches and games -----------------------------------------------------------------------

    def _match(self, tournament: Tournament, data: Any, index: int) -> datetime | None:
        """Create one match (its games replayed and checked); returns when it was decided."""
        where = f"matches[{index}]"
        data = _mapping(data, where)
        status = _text(data, "status", where, required=True)
        if status not in Match.Status.values:
            raise InvalidInput(
                _("%(where)s: unknown status “%(status)s”.") % {"where": where, "status": status}
            )
        round_number = _integer(data, "round", where)
        round_ = None
        if round_number is not None:
            round_ = self.rounds.get(round_number)
            if round_ is None:
                raise InvalidInput(
                    _("%(where)s: round %(number)s is not in the document's rounds.")
                    % {"where": where, "number": round_number}
                )
        home, away = self._entry(data, "home", where), self._entry(data, "away", where)
        winner = self._entry(data, "winner", where)
        label = _match_label(data, where)
        if winner is not None and winner not in (home, away):
            raise InvalidInput(
                _("%(match)s: the winner does not play the match.") % {"match": label}
            )
        match = Match(
            tournament=tournament,
            round=round_,
            bracket=_text(data, "bracket", where),
            bracket_round=_integer(data, "bracket_round", where),
            slot=_text(data, "slot", where),
            home_source=data.get("home_source"),
            away_source=data.get("away_source"),
            home=home,
            away=away,
            status=status,
            score_home=_score(data, "score_home", where),
            score_away=_score(data, "score_away", where),
            winner=winner,
            forfeit=_text(data, "forfeit", where),
            lost_on_time=_text(data, "lost_on_time", where),
            reported_by=self._user(data.get("reported_by"), f"{where}.reported_by"),
            reported_at=_moment(data, "reported_at", where),
            confirmed_by=self._user(data.get("confirmed_by"), f"{where}.confirmed_by"),
            confirmed_at=_moment(data, "confirmed_at", where),
            dispute_note=_text(data, "dispute_note", where),
            decided_at=_moment(data, "decided_at", where),
        )
        games = self._checked_games(tournament, match, data, label)
        match.save()
        stated = data.get("games") or []
        Game.objects.bulk_create(
            Game(
                match=match,
                number=game.number,
                white=game.white,
                # As written (``13/9 9/5``, not the engine's ``13/5``), now known to be legal.
                actions=list(stated[index].get("actions") or []),
                winner=game.winner,
                ending=game.outcome.ending.value,
                value=game.outcome.value,
                stake=game.outcome.stake,
                points=game.outcome.points,
                times=_times(stated[index], len(game.actions), f"{label}, game {game.number}"),
            )
            for index, game in enumerate(games)
        )
        return match.decided_at

    def _entry(self, data: Mapping[str, Any], side: str, where: str) -> Entry | None:
        name = data.get(side)
        if name is None:
            return None
        entry = self.entries.get(name) if isinstance(name, str) else None
        if entry is None:
            raise InvalidInput(
                _("%(where)s.%(side)s: %(name)s is not entered in the tournament.")
                % {"where": where, "side": side, "name": name}
            )
        return entry

    def _checked_games(
        self, tournament: Tournament, match: Match, data: Mapping[str, Any], label: str
    ) -> list[ValidatedGame]:
        """The match's games replayed as a new result would be; its score, winner and each
        game's outcome must be what the replay gives."""
        games = [
            _mapping(game, f"{label}, game {number}")
            for number, game in enumerate(_sequence(data.get("games", []), label), start=1)
        ]
        has_score = match.score_home is not None or match.score_away is not None
        if match.forfeit:
            _check_forfeit(match, bool(games) or has_score, label)
            return []
        if match.lost_on_time and not any(game.get("actions") for game in games):
            raise InvalidInput(
                _("%(match)s: a match lost on time keeps its recorded games.") % {"match": label}
            )
        if match.status == Match.Status.SCHEDULED and (games or has_score or match.winner_id):
            raise InvalidInput(
                _("%(match)s: a scheduled match has no result, this one has.") % {"match": label}
            )
        if not games and not has_score:
            if match.winner_id is not None and match.away_id is not None:
                raise InvalidInput(
                    _("%(match)s: a winner without a score or games.") % {"match": label}
                )
            return []
        if match.home_id is None or match.away_id is None:
            raise InvalidInput(_("%(match)s: a result needs two players.") % {"match": label})
        if match.score_home is None or match.score_away is None:
            raise InvalidInput(_("%(match)s: the score has one side only.") % {"match": label})
        try:
            if not games:
                result, validated = result_of(
                    tournament, score=(match.score_home, match.score_away), games=None, mat=None
                )
            elif all(not game.get("actions") for game in games):
                outcomes = [_outcome(game, label, number) for number, game in enumerate(games, 1)]
                result, validated = result_of(
                    tournament, score=None, games=None, mat=None, outcomes=outcomes
                )
            else:
                recorded = [_recorded(game, label, number) for number, game in enumerate(games, 1)]
                result, validated = result_of(
                    tournament,
                    score=None,
                    games=recorded,
                    mat=None,
                    lost_on_time=match.lost_on_time,
                )
        except IllegalGameRecord as error:
            located = IllegalGameRecord(f"{label}: {error.message}", **error.details)  # type: ignore[arg-type]
            located.details["match"] = label
            raise located from None
        except TournamentError as error:
            raise type(error)(f"{label}: {error.message}") from None
        for number, (game, replayed) in enumerate(zip(games, validated, strict=True), start=1):
            stated = (
                game.get("white"), game.get("winner"), game.get("ending"), game.get("value"),
                game.get("stake"), game.get("points"),
            )  # fmt: skip
            outcome = replayed.outcome
            found = (
                replayed.white, replayed.winner, outcome.ending.value, outcome.value,
                outcome.stake, outcome.points,
            )  # fmt: skip
            if stated != found or game.get("number", number) != number:
                raise InvalidInput(
                    _("%(match)s, game %(number)s: the document says %(stated)s, the replay gives "
                      "%(found)s (white, winner, ending, value, stake, points).")
                    % {"match": label, "number": number, "stated": stated, "found": found}
                )  # fmt: skip
        stated_result = Result(match.score_home, match.score_away, _side(match, match.winner_id))
        if (result.home, result.away, result.winner) != (
            stated_result.home, stated_result.away, stated_result.winner,
        ):  # fmt: skip
            raise InvalidInput(
                _("%(match)s: the document says %(stated)s, the games give %(found)s.")
                % {
                    "match": label,
                    "stated": _score_text(stated_result),
                    "found": _score_text(result),
                }
            )
        return [] if not games else validated


def _match_label(data: Mapping[str, Any], where: str) -> str:
    """How messages name a match: its slot or round, and its players."""
    place = data.get("slot") or (f"round {data['round']}" if data.get("round") else where)
    players = " – ".join(str(data.get(side) or "?") for side in ("home", "away"))
    return _("Match %(place)s (%(players)s)") % {"place": place, "players": players}


def _side(match: Match, winner_id: int | None) -> int | None:
    return {match.home_id: 1, match.away_id: 2}.get(winner_id) if winner_id else None


def _score_text(result: Any) -> str:
    winner = {1: _("home wins"), 2: _("away wins"), None: _("a draw")}[result.winner]
    return f"{result.home}–{result.away}, {winner}"


def _recorded(game: Mapping[str, Any], label: str, number: int) -> RecordedGame:
    white = game.get("white")
    if white not in (1, 2):
        raise InvalidInput(_("%(match)s, game %(n)s: White is side 1 or 2.") % _at(label, number))
    actions = []
    turns = 0
    for action in _sequence(game.get("actions", []), f"{label}, game {number}"):
        turns += isinstance(action, Mapping) and "dice" in action
        try:
            actions.append(action_from_json(action))
        except NotationError as error:
            side = white if turns % 2 == 1 else 3 - white
            reason = said_by(error)  # in the reader's language, as the results' reasons
            raise IllegalGameRecord(
                _("%(match)s, game %(n)s, move %(move)s: %(reason)s")
                % {**_at(label, number), "move": turns, "reason": reason},
                game=number,
                move=turns,
                player=side,
                play=str(action),
                reason=reason,
            ) from None
    return RecordedGame(white, tuple(actions))


def _outcome(game: Mapping[str, Any], label: str, number: int) -> PlayedGame:
    """A game entered without its moves: its stated outcome, checked by the match's score."""
    white, winner = game.get("white"), game.get("winner")
    try:
        ending = Ending(game.get("ending"))
        value, stake = int(game.get("value", 0)), int(game.get("stake", 1))
    except (TypeError, ValueError):
        raise InvalidInput(
            _("%(match)s, game %(n)s: the outcome cannot be read.") % _at(label, number)
        ) from None
    if white not in (1, 2) or winner not in (1, 2, None):
        raise InvalidInput(
            _("%(match)s, game %(n)s: White and the winner are side 1 or 2.") % _at(label, number)
        )
    colour = None if winner is None else (Colour.WHITE if winner == white else Colour.BLACK)
    return PlayedGame(white, Outcome(colour, ending, value, stake))


def _at(label: str, number: int) -> dict[str, Any]:
    return {"match": label, "n": number}


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(_("%(where)s: expected a JSON object.") % {"where": where})
    return value


def _sequence(value: Any, where: str) -> Sequence[Any]:
    if not isinstance(value, list | tuple):
        raise InvalidInput(_("%(where)s: expected a JSON list.") % {"where": where})
    return value


def _check_forfeit(match: Match, played: bool, label: str) -> None:
    """A forfeit as the result flow makes one: decided, two players, no games and no score, the
    side that came as its winner (none when neither came, which a bracket does not have)."""
    came = {Match.Forfeit.HOME: match.away_id, Match.Forfeit.AWAY: match.home_id}
    if (
        match.forfeit not in Match.Forfeit.values
        or played
        or match.status not in Match.DECIDED
        or match.home_id is None
        or match.away_id is None
        or match.winner_id != came.get(match.forfeit)
        or (match.forfeit == Match.Forfeit.BOTH and match.slot)
    ):
        raise InvalidInput(
            _("%(match)s: a forfeit is a decided match of two players with no games and no "
              "score, won by the side that came (by neither when both did not, never in a "
              "bracket).") % {"match": label}
        )  # fmt: skip


def _times(game: Mapping[str, Any], actions: int, where: str) -> list[Any]:
    """A game's ``times`` (when each action was entered at the table): none, or one object an
    action."""
    times = game.get("times") or []
    if not isinstance(times, list) or (times and len(times) != actions):
        raise InvalidInput(_("%(where)s: times has one entry an action.") % {"where": where})
    if not all(isinstance(time, dict) and isinstance(time.get("at"), str) for time in times):
        raise InvalidInput(_("%(where)s: each time has its moment, at.") % {"where": where})
    return times


def _text(data: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> str:
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value):
        raise InvalidInput(_("%(where)s.%(key)s: expected text.") % {"where": where, "key": key})
    return value


def _integer(
    data: Mapping[str, Any],
    key: str,
    where: str,
    *,
    required: bool = False,
    maximum: int = SMALL_MAX,
) -> int | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if type(value) is not int or not 0 <= value <= maximum:
        raise InvalidInput(
            _("%(where)s.%(key)s: expected a whole number from 0 to %(maximum)s.")
            % {"where": where, "key": key, "maximum": maximum}
        )
    return value


def _flag(data: Mapping[str, Any], key: str, where: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise InvalidInput(
            _("%(where)s.%(key)s: expected true or false.") % {"where": where, "key": key}
        )
    return value


def _moment(data: Mapping[str, Any], key: str, where: str) -> datetime | None:
    value = data.get(key)
    if value is None:
        return None
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None or timezone.is_naive(moment):
        raise InvalidInput(
            _("%(where)s.%(key)s: expected an ISO 8601 time with its offset.")
            % {"where": where, "key": key}
        )
    return moment


def _score(data: Mapping[str, Any], key: str, where: str) -> Decimal | None:
    value = data.get(key)
    if value is None:
        return None
    try:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise InvalidOperation
        return Decimal(value)
    except InvalidOperation:
        raise InvalidInput(
            _('%(where)s.%(key)s: expected a number such as "2.5".') % {"where": where, "key": key}
        ) from None


def _whole_or_none(value: Any) -> bool:
    """A JSON whole number (5, not 5.5, "5" or true), or null."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool))
