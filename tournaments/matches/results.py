"""Match results: recorded, confirmed, disputed, resolved and corrected, one match row at a time.

Every function locks the match row first (``select_for_update``), so that two players reporting
or confirming one match at the same moment give one result: the second waits for the first and
then finds the match no longer in the state it expected. A result is a plain score or the games'
records; records are replayed by ``games.rules`` and rejected as a whole, with the first game,
move and reason, when any play is illegal. The score of recorded games is derived, never typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game
from games.rules import Ending, RulesError, action_to_json
from games.services import (
    IllegalRecordError,
    RecordedGame,
    ValidatedGame,
    games_from_mat,
    games_validate,
)
from tournaments.errors import Conflict, IllegalGameRecord, InvalidInput, NotAllowed
from tournaments.matches import board
from tournaments.matches.guards import require_stage_one_open
from tournaments.matches.signals import result_cleared, result_decided
from tournaments.models import Match, Tournament
from tournaments.policy import match_side, may, require
from tournaments.reasons import reason_in_language, said_by
from tournaments.scoring import PlayedGame, match_score, score_from_typed

User = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class Result:
    """What a result says: the score of each side and the winning side (None: a draw, or a
    forfeit neither side came to). A forfeit has no score: ``home`` and ``away`` are None."""

    home: Decimal | None
    away: Decimal | None
    winner: int | None
    forfeit: str = ""
    lost_on_time: str = ""


@dataclass(frozen=True)
class Correction:
    """A corrected match and the later bracket matches reset because they depended on it."""

    match: Match
    reset: list[Match]


def match_result_record(
    *,
    match: Match,
    by: User,
    score: tuple[Decimal | int, Decimal | int] | None = None,
    games: Sequence[RecordedGame] | None = None,
    mat: str | None = None,
    outcomes: Sequence[PlayedGame] | None = None,
    forfeit: str | None = None,
    lost_on_time: str = "",
    confirm_side: int | None = None,
    times: Sequence[Sequence[dict[str, Any]]] | None = None,
) -> Match:
    """Record a match's result: a plain ``score`` (home, away), the ``games``, a .mat text, the
    games' ``outcomes`` without their moves (entered game by game), or a ``forfeit`` (the side
    that did not come: home, away or both; an organizer's only). ``lost_on_time``: the side
    whose flag fell while the ``games`` were recorded (the last may be unfinished).

    A player of the match reports it (the opponent then confirms or disputes); the result of
    who decides for the tournament (``match.resolve``: its judges in an official event, else
    its organizers) is final at once, recorded as theirs (``Match.decided_by``).
    ``confirm_side`` (1 home, 2 away, 0 an official only): the result
    is reported whoever records it, and waits for that side's word (a play accepted as made was
    entered by its own mover's account: its opponent never agreed at the table).
    ``times``: for each of the ``games``, when each of its actions was entered and the clocks
    then (the recorder's), kept as the games' ``times``.
    """
    with transaction.atomic():
        match = _locked(match)
        tournament = match.tournament
        require(by, "match.report", match)
        official = may(by, "match.resolve", match)
        if forfeit is not None:
            require(by, "match.forfeit", match)
        require_playable(match)
        if match.status != Match.Status.SCHEDULED:
            raise Conflict(_("A result of this match was already reported."))
        if match.recording:
            raise Conflict(
                _(
                    "This match is being recorded move by move: an organizer discards the "
                    "recording before another result can be reported."
                )
            )
        result, validated = result_of(
            tournament, score=score, games=games, mat=mat, outcomes=outcomes, forfeit=forfeit,
            bracket=bool(match.slot), lost_on_time=lost_on_time,
        )  # fmt: skip
        _store(match, result, validated, times)
        final = official and confirm_side is None
        match.status = Match.Status.FINAL if final else Match.Status.REPORTED
        match.decided_by = by if final else None  # type: ignore[assignment]
        match.confirm_side = confirm_side
        match.reported_by = by if by.is_authenticated else None  # type: ignore[assignment]
        match.reported_at = timezone.now()
        if match.status in Match.DECIDED:
            _decided(match, by)
            _advance(match)
        else:
            match.save()
        return match


def match_result_confirm(*, match: Match, by: User) -> Match:
    """The opponent of the reporter (or an organizer) confirms a reported result."""
    with transaction.atomic():
        match = _locked(match)
        if match.status != Match.Status.REPORTED:
            raise Conflict(_("There is no reported result of this match to confirm."))
        _require_answerer(match, by)
        match.status = Match.Status.CONFIRMED
        match.confirmed_by = by  # type: ignore[assignment]
        match.confirmed_at = timezone.now()
        if match_side(match, by) is None:  # confirmed as an official, not as the opponent
            match.decided_by = by  # type: ignore[assignment]
        _decided(match, by)
        _advance(match)
        return match


def match_result_dispute(*, match: Match, by: User, note: str) -> Match:
    """The opponent of the reporter disputes a reported result; an organizer resolves it."""
    note = note.strip()
    if not note:
        raise InvalidInput(_("Say what is wrong with the reported result."))
    with transaction.atomic():
        match = _locked(match)
        if match.status != Match.Status.REPORTED:
            raise Conflict(_("There is no reported result of this match to dispute."))
        _require_answerer(match, by)
        match.status = Match.Status.DISPUTED
        match.dispute_note = note
        match.save()
        return match


def match_result_resolve(
    *,
    match: Match,
    by: User,
    score: tuple[Decimal | int, Decimal | int] | None = None,
    games: Sequence[RecordedGame] | None = None,
    mat: str | None = None,
    outcomes: Sequence[PlayedGame] | None = None,
    forfeit: str | None = None,
) -> Match:
    """An organizer settles a disputed (or reported) result: as reported, or with a new one."""
    with transaction.atomic():
        match = _locked(match)
        require(by, "match.resolve", match)
        if match.status not in (Match.Status.DISPUTED, Match.Status.REPORTED):
            raise Conflict(_("Only a reported or disputed result can be resolved."))
        if any(given is not None for given in (score, games, mat, outcomes, forfeit)):
            result, validated = result_of(
                match.tournament, score=score, games=games, mat=mat, outcomes=outcomes,
                forfeit=forfeit, bracket=bool(match.slot),
            )  # fmt: skip
            _store(match, result, validated)
        _finalize(match, by)
        _advance(match)
        return match


def match_result_correct(
    *,
    match: Match,
    by: User,
    score: tuple[Decimal | int, Decimal | int] | None = None,
    games: Sequence[RecordedGame] | None = None,
    mat: str | None = None,
    outcomes: Sequence[PlayedGame] | None = None,
    forfeit: str | None = None,
) -> Correction:
    """An organizer replaces a decided result. Later bracket matches that took this match's
    winner or loser get the new one; those already played are reset (and listed) to be
    played again."""
    with transaction.atomic():
        match = _locked(match)
        require(by, "match.correct", match)
        if match.status not in Match.DECIDED:
            raise Conflict(_("Only a confirmed or final result can be corrected."))
        if match.tournament.status == Tournament.Status.FINISHED:
            raise Conflict(_("The tournament is finished: its results can no longer change."))
        require_stage_one_open(match.tournament)
        result, validated = result_of(
            match.tournament, score=score, games=games, mat=mat, outcomes=outcomes,
            forfeit=forfeit, bracket=bool(match.slot),
        )  # fmt: skip
        _store(match, result, validated)
        _finalize(match, by)
        return Correction(match, _advance(match))


def match_result_take_back(*, match: Match) -> Match:
    """The recording at the table that gave this match its result takes back the entry that
    decided it (``tournaments.matches.live`` says who may, and until when): the result goes as a
    bracket reset clears one (who followed a decided result hears of it) and the match is
    scheduled again. Refused (409) once something was built on the result: a later bracket match
    played (or being recorded) with its winner or loser, or a later Swiss round paired after it;
    a correction is the way then."""
    with transaction.atomic():
        match = _locked(match)
        if match.status == Match.Status.SCHEDULED:
            raise Conflict(_("This match has no result to take back."))
        if match.tournament.status == Tournament.Status.FINISHED:
            raise Conflict(_("The tournament is finished: its results can no longer change."))
        require_stage_one_open(match.tournament)
        _require_nothing_built_on(match)
        _clear_result(match)
        match.save()
        _advance(match)  # the later bracket matches lose its winner and loser again
        return match


# --- Inside ------------------------------------------------------------------------------------


def _require_nothing_built_on(match: Match) -> None:
    """Refuse to take a result back once a later match depends on it: a bracket match fed by it
    that has a result or is being recorded, or a Swiss round paired after it."""
    tournament = match.tournament
    if match.slot:
        fed = [
            later
            for later in Match.objects.filter(tournament_id=match.tournament_id)
            .exclude(pk=match.pk)
            .order_by("pk")
            if match.slot in later.feeder_slots()
        ]
        played = [later.slot for later in fed if _played_or_recorded(later)]
        if played:
            raise Conflict(
                _(
                    "This result was played on: %(slots)s already used its winner or loser. "
                    "An organizer corrects the result instead (those matches are reset)."
                )
                % {"slots": ", ".join(played)}
            )
    if (
        match.round_id is not None
        and tournament.format == Tournament.Format.SWISS
        and tournament.rounds.filter(number__gt=match.round.number).exists()
    ):
        raise Conflict(
            _("The next Swiss round was paired with this result: an organizer corrects it instead.")
        )


def _played_or_recorded(match: Match) -> bool:
    return match.status != Match.Status.SCHEDULED or match.recording


def _locked(match: Match) -> Match:
    """The match as it is now, locked, its tournament's row locked first (and its revision
    raised). Every writer of a tournament takes the tournament row before any match row
    (``_advance`` then locks the bracket's matches): one order for all, so two results can wait
    but never deadlock. The lock is FOR NO KEY UPDATE: the rating worker's rows that refer to
    the match (checked by a KEY SHARE lock when it commits) never wait for a result being written,
    which itself waits for the worker's rating list when its trail row commits."""
    Tournament.lock_for_change(match.tournament_id)
    return (
        Match.objects.select_for_update(of=("self",), no_key=True)
        .select_related("tournament")
        .get(pk=match.pk)
    )


def _finalize(match: Match, by: User) -> None:
    """The official's word (a judge's, or an organizer's): the result is final, and theirs."""
    match.status = Match.Status.FINAL
    match.decided_by = by  # type: ignore[assignment]
    match.confirmed_by = by  # type: ignore[assignment]
    match.confirmed_at = timezone.now()
    _decided(match, by)


def _decided(match: Match, by: User) -> None:
    """Save the decided result, then announce it (``signals.result_decided``): who follows
    results reads the match as it now is. It keeps the moment it was first decided: its place
    in rating history, also when it is corrected."""
    first = match.decided_at is None
    if first:
        match.decided_at = timezone.now()
    match.save()
    result_decided.send(sender=Match, match=match, by=by, first=first)


def require_playable(match: Match) -> None:
    """Refuse a result (or a recorded entry) unless the tournament runs with both players known."""
    if match.tournament.status != Tournament.Status.RUNNING:
        raise Conflict(_("Results are recorded while the tournament is running."))
    if match.home_id is None or match.away_id is None:
        raise Conflict(_("This match has no two players yet."))


def _require_answerer(match: Match, by: User) -> None:
    """Refuse whoever may not answer the report, the reporter's own side with its reason."""
    if may(by, "match.answer", match):
        return
    if match.reported_by_id == by.pk:
        raise NotAllowed(_("The opponent of the reporter answers the report, not the reporter."))
    side = match_side(match, by)
    if side is not None and match.reported_by and match_side(match, match.reported_by) == side:
        raise NotAllowed(_("Your partner reported this result: the other pair answers the report."))
    require(by, "match.answer", match)  # the rule's own refusal


def result_of(
    tournament: Tournament,
    *,
    score: tuple[Decimal | int, Decimal | int] | None,
    games: Sequence[RecordedGame] | None,
    mat: str | None,
    outcomes: Sequence[PlayedGame] | None = None,
    forfeit: str | None = None,
    bracket: bool = False,
    lost_on_time: str = "",
) -> tuple[Result, list[ValidatedGame]]:
    """The result that exactly one of a score, the games' records, a .mat text, the games'
    outcomes or a forfeit gives under the tournament's match rules, with the games replayed
    (none for a score or a forfeit); refused with the first illegal play or impossible score.
    Nothing is stored. ``bracket``: the match is a bracket's, where one side must go on.
    ``lost_on_time``: the side of the ``games`` whose flag fell (``_result_on_time``)."""
    given = [value is not None for value in (score, games, mat, outcomes, forfeit)]
    if sum(given) != 1:
        raise InvalidInput(_("Give the result as a score, as the games, or as a .mat file."))
    if forfeit is not None:
        return _forfeit_result(forfeit, bracket=bracket), []
    if score is not None:
        return _typed_result(tournament, score), []
    if outcomes is not None:
        unrecorded = [
            ValidatedGame(number, game.white, (), game.outcome, game.winner)
            for number, game in enumerate(outcomes, start=1)
        ]
        return _result_of_games(tournament, unrecorded), unrecorded
    variant = tournament.game_variant()
    length = tournament.match_length
    try:
        if mat is not None:
            validated = games_from_mat(
                mat, variant=variant, length=length, crawford=tournament.crawford
            )
        else:
            assert games is not None
            validated = games_validate(
                variant=variant, games=games, length=length, crawford=tournament.crawford
            )
    except IllegalRecordError as error:
        raise illegal_game_record(error) from None
    except RulesError as error:
        message = _("The match file cannot be read: %(reason)s") % {"reason": said_by(error)}
        raise InvalidInput(message) from None
    if lost_on_time:
        return _result_on_time(tournament, validated, lost_on_time), validated
    return _result_of_games(tournament, validated), validated


def illegal_game_record(error: IllegalRecordError) -> IllegalGameRecord:
    """The 422 of a game record that breaks the rules, in the reader's language: where (game,
    move, player, play) and why."""
    reason = reason_in_language(error.reason)
    return IllegalGameRecord(
        _("Game %(game)s, move %(move)s, player %(side)s %(play)s: %(reason)s")
        % {
            "game": error.game,
            "move": error.move,
            "side": error.side,
            "play": repr(error.play) if error.play else "",
            "reason": reason,
        },
        game=error.game,
        move=error.move,
        player=error.side,
        play=error.play,
        reason=reason,
    )


def _result_on_time(
    tournament: Tournament, validated: Sequence[ValidatedGame], lost_on_time: str
) -> Result:
    """A match whose ``lost_on_time`` side's flag fell: the other side wins it, as the
    backgammon federations rule. In a match to N points the winner is given N (the match);
    otherwise the score is the finished games'. The game the flag fell in stays unfinished."""
    if lost_on_time not in ("home", "away"):
        raise InvalidInput(_("The side whose flag fell is home or away."))
    finished = [game for game in validated if game.outcome.ending is not Ending.UNFINISHED]
    rules = tournament.match_rules()
    try:
        scored = match_score(rules, [PlayedGame(game.white, game.outcome) for game in finished])
    except ValueError as error:
        raise InvalidInput(said_by(error)) from None
    if scored.finished:
        raise InvalidInput(_("The games finish the match: no flag fell in it."))
    winner = 1 if lost_on_time == "away" else 2
    points = [_decimal(scored.score1), _decimal(scored.score2)]
    if rules.length is not None:
        points[winner - 1] = max(points[winner - 1], Decimal(rules.length))
    return Result(points[0], points[1], winner, lost_on_time=lost_on_time)


def _forfeit_result(absent: str, *, bracket: bool) -> Result:
    """A match decided by forfeit: ``absent`` (home, away or both) did not come."""
    if absent not in (Match.Forfeit.HOME, Match.Forfeit.AWAY, Match.Forfeit.BOTH):
        raise InvalidInput(_("A forfeit names the side that did not come: home, away or both."))
    if absent == Match.Forfeit.BOTH and bracket:
        raise InvalidInput(
            _("In a bracket one side goes on: record the forfeit of the side that did not come.")
        )
    winner = {Match.Forfeit.HOME: 2, Match.Forfeit.AWAY: 1, Match.Forfeit.BOTH: None}[absent]
    return Result(None, None, winner, forfeit=absent)


def _typed_result(tournament: Tournament, score: tuple[Decimal | int, Decimal | int]) -> Result:
    try:
        checked = score_from_typed(tournament.match_rules(), *score)
    except (ArithmeticError, TypeError, ValueError) as error:
        reason = said_by(error)
        raise InvalidInput(_("This score cannot be: %(reason)s") % {"reason": reason}) from None
    return Result(_decimal(checked.score1), _decimal(checked.score2), checked.winner)


def _result_of_games(tournament: Tournament, validated: Sequence[ValidatedGame]) -> Result:
    rules = tournament.match_rules()
    if not validated:
        raise InvalidInput(_("A match result needs at least one game."))
    try:
        scored = match_score(rules, [PlayedGame(game.white, game.outcome) for game in validated])
    except ValueError as error:
        raise InvalidInput(said_by(error)) from None
    home, away = _decimal(scored.score1), _decimal(scored.score2)
    if not scored.finished:
        if rules.length is not None:
            raise InvalidInput(
                _("The games do not finish the match: %(home)s–%(away)s in a match to %(n)s.")
                % {"home": home, "away": away, "n": rules.length}
            )
        raise InvalidInput(
            _("The match is %(n)s games; %(count)s were recorded.")
            % {"n": rules.games, "count": len(validated)}
        )
    return Result(home, away, scored.winner)


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def _store(
    match: Match,
    result: Result,
    validated: Sequence[ValidatedGame],
    times: Sequence[Sequence[dict[str, Any]]] | None = None,
) -> None:
    """The result on the match and its games as rows, with their move times when given (one
    list a game, a time an action)."""
    if times is not None and [len(t) for t in times] != [len(g.actions) for g in validated]:
        raise ValueError("the move times are one list a game, one time an action")
    match.score_home, match.score_away = result.home, result.away
    match.winner_id = {1: match.home_id, 2: match.away_id, None: None}[result.winner]
    match.forfeit = result.forfeit
    match.lost_on_time = result.lost_on_time
    match.games.all().delete()
    Game.objects.bulk_create(
        Game(
            match=match,
            number=game.number,
            white=game.white,
            actions=[action_to_json(action) for action in game.actions],
            winner=game.winner,
            ending=game.outcome.ending.value,
            value=game.outcome.value,
            stake=game.outcome.stake,
            points=game.outcome.points,
            times=list(times[index]) if times is not None else [],
        )
        for index, game in enumerate(validated)
    )
    if any(game.actions for game in validated) and board.made_ahead():
        from tournaments.matches.tasks import board_frames_prepare  # noqa: PLC0415
        from tournaments.queue import enqueue  # noqa: PLC0415

        enqueue(board_frames_prepare, match.pk)


def _advance(match: Match) -> list[Match]:
    """Give the bracket matches fed by ``match`` its winner and loser (none while undecided).

    A later match whose side changes and that already has a result is reset, to be played
    again, and so are the matches it fed in turn; the reset matches are returned.
    """
    if not match.slot:
        return []
    decided = match.status in Match.DECIDED
    winner = match.winner_id if decided else None
    loser = (match.away_id if winner == match.home_id else match.home_id) if decided else None
    reset: list[Match] = []
    fed = (
        Match.objects.select_for_update(no_key=True)
        .filter(tournament_id=match.tournament_id)
        .order_by("pk")
    )
    for later in fed.exclude(pk=match.pk):
        changed = False
        # A bracket reset is played only when the away side (from the losers bracket) won.
        needed = not (later.home_source or {}).get("if_needed") or winner != match.home_id
        for side in ("home", "away"):
            source = getattr(later, f"{side}_source") or {}
            if source.get("winner_of") == match.slot:
                wanted = winner if needed else None
            elif source.get("loser_of") == match.slot:
                wanted = loser if needed else None
            else:
                continue
            if getattr(later, f"{side}_id") != wanted:
                setattr(later, f"{side}_id", wanted)
                changed = True
        if not changed:
            continue
        if later.status != Match.Status.SCHEDULED:
            _clear_result(later)
            reset.append(later)
        later.save()
        reset += _advance(later)
    return reset


def _clear_result(match: Match) -> None:
    decided_at = match.decided_at
    match.decided_at = None
    match.games.all().delete()
    match.status = Match.Status.SCHEDULED
    match.score_home = match.score_away = None
    match.winner_id = None
    match.forfeit = Match.Forfeit.NONE
    match.lost_on_time = ""
    match.reported_by = match.confirmed_by = match.decided_by = None
    match.reported_at = match.confirmed_at = None
    match.confirm_side = None
    match.dispute_note = ""
    if decided_at is not None:  # who followed its result hears that it is gone
        result_cleared.send(sender=Match, match=match, decided_at=decided_at)
