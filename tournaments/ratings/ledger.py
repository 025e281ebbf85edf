"""Writes of the rating ledger: apply one decided match, or replay a list from a point on.

Every writer locks the list's ``RatingList`` row first, so replays never interleave and two
workers never rate one match twice. Applying is idempotent: a match already in the ledger with
the same result changes nothing; with another result, or arriving after later matches (out of
order), the list is replayed from its place. A replay reads the matches in bulk, computes in
memory (``tournaments.ratings.history``) and writes in bulk: no query per match.

The anomaly guard: a match that would move a rating by more than ``RATING_REVIEW_THRESHOLD``
is held (a pending ``RatingHold``, no ledger rows: later matches go on without it) until a
rating officer confirms it (``services.ratings_hold_confirm``); a replay decides again, so the
ledger always equals a serial replay with the same confirmations.

Scale: no query carries a parameter per match or per player beyond ``BATCH``. A replay from a
match starts at the list's latest checkpoint before it (every player's place, taken every
``CHECKPOINT_EVERY`` matches) and reads only the ledger rows between the two; the matches are
streamed and rated ``BATCH`` at a time, so a replay's memory is its players', not its matches'.
Work asked for and not done yet is kept in ``RatingBacklog``: the beat's catch-up reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet

from nardy_site.joined import Compiled
from tournaments.models import Match, Tournament
from tournaments.ratings.history import (
    Change,
    Held,
    OrderKey,
    RatedMatch,
    Review,
    Standing,
    Tally,
    next_tally,
    replay,
    tally,
)
from tournaments.ratings.models import (
    CheckpointStanding,
    Rating,
    RatingAudit,
    RatingBacklog,
    RatingChange,
    RatingCheckpoint,
    RatingHold,
    RatingList,
)

#: Rows per query, per insert and per rated chunk: far below any database's parameter limit.
BATCH = 2000
#: Matches between two checkpoints of a list: a replay reads at most this many matches' ledger
#: rows before its key (at 20,000 players a checkpoint is 20,000 rows).
CHECKPOINT_EVERY = 25_000


@dataclass(frozen=True)
class ReplayReport:
    """What a replay did: matches rated and players whose current rating changed."""

    matches: int
    drifted: dict[int, tuple[float, float]]  # player: (cached rating before, rating after)


def rating_list_of(tournament: Tournament) -> RatingList:
    rating_list, _ = RatingList.objects.get_or_create(
        system=tournament.rating_system, discipline=tournament.discipline
    )
    return rating_list


def order_key(match: Match) -> OrderKey | None:
    return None if match.decided_at is None else (match.decided_at, match.pk)


def first_result_key(matches: QuerySet[Match]) -> OrderKey | None:
    """The order key of the earliest decided of ``matches``: where their list is replayed
    from when they enter or leave it."""
    first = (
        matches.filter(decided_at__isnull=False)
        .order_by("decided_at", "pk")
        .values_list("decided_at", "pk")
        .first()
    )
    return None if first is None else (first[0], first[1])


def ratings_apply(match_id: int) -> str:
    """Rate one match; returns what was done ("rated", "unchanged", "replayed", "held",
    "not rated")."""
    with transaction.atomic():
        match = Match.objects.select_related("tournament").filter(pk=match_id).first()
        if match is None:
            return "not rated"
        rating_list = locked_list(rating_list_of(match.tournament).pk)
        _backlog_done(rating_list, order_key(match), only=True)
        rated = _rated_match(match)
        existing = list(
            RatingChange.objects.filter(rating_list=rating_list, match_id=match_id).values_list(
                "player_id", "score"
            )
        )
        if rated is None:
            if existing:  # no longer a rated result: its rows go, the later ones are replayed
                key = min(
                    RatingChange.objects.filter(match_id=match_id).values_list(
                        "finished_at", "match_id"
                    )
                )
                _replay_locked(rating_list, key)
                return "replayed"
            return "not rated"
        if existing:
            if sorted(existing) == sorted(_scores(rated)):
                return "unchanged"
            _replay_locked(rating_list, rated.key)
            return "replayed"
        if (
            _rows_after(rating_list, rated.key).exists()
            or _checkpoints_from(rating_list, rated.key).exists()
        ):  # arrived out of order
            _replay_locked(rating_list, rated.key)
            return "replayed"
        players = (rated.first, rated.second)
        tallies = _tallies_of(rating_list, players)
        start = {player: tallies[player].standing for player in players if player in tallies}
        changes, _, held = replay(rating_list.system, [rated], start, _review(rating_list))  # type: ignore[arg-type]
        if held:
            _hold(rating_list, held)
            return "held"
        _write(rating_list, changes)
        tally(tallies, changes)
        _cache(rating_list, {change.player for change in changes}, tallies)
        _count_towards_checkpoint(rating_list, rated.key, 1)
        return "rated"


def locked_list(pk: int) -> RatingList:
    """Lock a rating list's row: every write to a list's changes and holds takes this lock
    first, so writers of one list never deadlock (one order: the list, then its rows). The
    lock is FOR NO KEY UPDATE: a row that refers to the list (a result's backlog or audit row)
    is checked with a KEY SHARE lock, which FOR UPDATE would make wait out a whole replay."""
    return RatingList.objects.select_for_update(no_key=True).get(pk=pk)


def rating_lists_used() -> list[RatingList]:
    """Every rating list, made first for each (system, discipline) a tournament uses."""
    used = Tournament.objects.values_list("rating_system", "discipline").distinct()
    for system, discipline in used:
        RatingList.objects.get_or_create(system=system, discipline=discipline)
    return list(RatingList.objects.all())


def ratings_replay(
    from_key: OrderKey | None, rating_list: RatingList | None = None
) -> ReplayReport:
    """Replay one list (or every list) from ``from_key`` on (None: from the beginning)."""
    lists = [rating_list] if rating_list is not None else rating_lists_used()
    matches, drifted = 0, {}
    for one in lists:
        with transaction.atomic():
            report = _replay_locked(locked_list(one.pk), from_key)
        matches += report.matches
        drifted.update(report.drifted)
    return ReplayReport(matches, drifted)


# --- Inside ------------------------------------------------------------------------------------


def _scores(match: RatedMatch) -> list[tuple[int, float]]:
    if match.drawn:
        return [(match.first, 0.5), (match.second, 0.5)]
    return [(match.first, 1.0), (match.second, 0.0)]


def _expected_rows(match: RatedMatch, system: str) -> list[tuple[int, float]]:
    """The (player, score) rows the ledger should hold for a rated match, sorted: none for a
    drawn FIBS match (the FIBS formula rates only a won match)."""
    return [] if match.drawn and system == "fibs" else sorted(_scores(match))


def _order(
    key: OrderKey | None, compare: str, moment: str = "finished_at", match: str = "match_id"
) -> Q:
    """The rows whose order key, (``moment``, ``match``), is ``compare`` ("gt", "gte", "lt")
    ``key`` (None: every row): the one comparison of the ledger, its checkpoints, its backlog
    and the matches."""
    if key is None:
        return Q()
    strict = compare[:2]  # "gte" → "gt": at the moment itself, the match id decides
    return Q(**{f"{moment}__{strict}": key[0]}) | Q(
        **{moment: key[0], f"{match}__{compare}": key[1]}
    )


def _rows_after(rating_list: RatingList, key: OrderKey) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(rating_list=rating_list).filter(_order(key, "gt"))


def _rows_from(rating_list: RatingList, key: OrderKey | None) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(rating_list=rating_list).filter(_order(key, "gte"))


def _rated_matches(rating_list: RatingList) -> QuerySet[Match]:
    return Match.objects.filter(
        tournament__rating_system=rating_list.system,
        tournament__discipline=rating_list.discipline,
        tournament__rated=True,
        status__in=Match.DECIDED,
        decided_at__isnull=False,
        home__isnull=False,
        away__isnull=False,
        forfeit="",  # a forfeit is never rated
    )


def _rated_match(match: Match) -> RatedMatch | None:
    """The match as the rating maths takes it, or None when it is not rated."""
    return as_rated(match) if match.tournament.rated else None


def as_rated(match: Match) -> RatedMatch | None:
    """The decided match as the rating maths takes it, whether its tournament is rated or not
    (None: not decided, a bye, or a forfeit, which is never rated)."""
    key = order_key(match)
    if (
        key is None
        or match.status not in Match.DECIDED
        or match.home_id is None
        or not match.away_id
        or match.forfeit
    ):
        return None
    rows = _as_rated(
        [
            (
                match.decided_at,
                match.pk,
                match.home.player_id,
                match.away.player_id,
                match.home_id,
                match.winner_id,
                match.tournament.match_length or match.tournament.match_games,
            )
        ]
    )
    return rows[0] if rows else None


def _as_rated(
    rows: Iterable[tuple[datetime, int, int, int, int, int | None, int]],
) -> list[RatedMatch]:
    rated = []
    for decided_at, match_id, home, away, home_entry, winner, length in rows:
        key = (decided_at, match_id)
        if winner is None:
            rated.append(RatedMatch(key, home, away, length, drawn=True))
        elif winner == home_entry:
            rated.append(RatedMatch(key, home, away, length))
        else:
            rated.append(RatedMatch(key, away, home, length))
    return rated


def _tallies_of(rating_list: RatingList, players: Iterable[int]) -> dict[int, Tally]:
    """The cached places of ``players`` (a few: the two of a match)."""
    cached = Rating.objects.filter(rating_list=rating_list, player_id__in=list(players))
    return {rating.player_id: _tally_of(rating) for rating in cached}


def _tally_of(rating: Rating) -> Tally:
    """A cached rating as the place it holds."""
    return Tally(
        Standing(rating.rating, rating.experience),
        rating.matches,
        rating.last_delta,
        rating.last_match_at,
    )


def _tallies_before(rating_list: RatingList, key: OrderKey | None) -> tuple[dict[int, Tally], int]:
    """Every player's place just before ``key``, and how many matches the ledger holds since
    the list's latest checkpoint before it: the checkpoint's rows, then the ledger's rows between
    it and ``key`` (fewer than ``CHECKPOINT_EVERY`` matches' worth)."""
    tallies: dict[int, Tally] = {}
    if key is None:
        return tallies, 0
    checkpoint = (
        RatingCheckpoint.objects.filter(rating_list=rating_list)
        .filter(_order(key, "lt"))
        .order_by("-finished_at", "-match_id")
        .first()
    )
    rows = RatingChange.objects.filter(rating_list=rating_list).filter(_order(key, "lt"))
    if checkpoint is not None:
        standings = CheckpointStanding.objects.filter(checkpoint=checkpoint).values_list(
            "player_id", "rating", "experience", "matches", "last_delta", "last_match_at"
        )
        for player, rating, experience, matches, delta, last_at in standings.iterator(BATCH):
            tallies[player] = Tally(Standing(rating, experience), matches, delta, last_at)
        rows = rows.filter(_order((checkpoint.finished_at, checkpoint.match_id), "gt"))
    since: set[int] = set()
    ordered = rows.order_by("finished_at", "match_id").values_list(
        "player_id", "match_id", "finished_at", "after", "experience_after", "delta"
    )
    for player, match, finished_at, after, experience, delta in ordered.iterator(BATCH):
        tallies[player] = next_tally(
            tallies.get(player), Standing(after, experience), delta, finished_at
        )
        since.add(match)
    return tallies, len(since)


def _replay_locked(rating_list: RatingList, key: OrderKey | None) -> ReplayReport:
    """Replay the (locked) list from ``key`` on: its ledger rows, checkpoints, holds and cached
    ratings from there are written anew, ``BATCH`` matches at a time."""
    _backlog_done(rating_list, key)  # first: work asked for from now on stays asked
    cached = dict(Rating.objects.filter(rating_list=rating_list).values_list("player_id", "rating"))
    tallies, since = _tallies_before(rating_list, key)
    stale = _rows_from(rating_list, key)
    touched = set(stale.values_list("player_id", flat=True).distinct())
    stale.delete()
    _checkpoints_from(rating_list, key).delete()
    review = _review(rating_list)
    held: list[Held] = []
    replayed = 0
    for chunk in _rated_chunks(rating_list, key):
        players = {player for match in chunk for player in (match.first, match.second)}
        start = {player: tallies[player].standing for player in players if player in tallies}
        changes, _, held_now = replay(rating_list.system, chunk, start, review)  # type: ignore[arg-type]
        _write(rating_list, changes)
        tally(tallies, changes)
        touched |= {change.player for change in changes}
        held += held_now
        replayed += len(chunk)
        since += len(chunk)
        if since >= CHECKPOINT_EVERY:
            _checkpoint(rating_list, chunk[-1].key, tallies)
            since = 0
    _settle_holds(rating_list, key, held)
    _hold(rating_list, held)
    RatingList.objects.filter(pk=rating_list.pk).update(since_checkpoint=since)
    _cache(rating_list, touched, tallies)
    drifted = {}
    for player in touched:
        before = cached.get(player, 0.0)
        after = tallies[player].standing.rating if player in tallies else 0.0
        if abs(before - after) > 1e-9:
            drifted[player] = (before, after)
    return ReplayReport(replayed, drifted)


def _rated_chunks(rating_list: RatingList, key: OrderKey | None) -> Iterator[list[RatedMatch]]:
    """The list's rated matches from ``key`` on, in order, ``BATCH`` at a time (one streamed
    query)."""
    rows = (
        _rated_matches(rating_list)
        .filter(_order(key, "gte", "decided_at", "pk"))
        .order_by("decided_at", "pk")
        .values_list(
            "decided_at",
            "pk",
            "home__player_id",
            "away__player_id",
            "home_id",
            "winner_id",
            "tournament__match_length",
            "tournament__match_games",
        )
    )
    chunk: list[tuple[datetime, int, int, int, int, int | None, int]] = []
    for decided, pk, home, away, entry, winner, length, games in rows.iterator(BATCH):
        chunk.append((decided, pk, home, away, entry, winner, length or games))
        if len(chunk) == BATCH:
            yield _as_rated(chunk)
            chunk = []
    if chunk:
        yield _as_rated(chunk)


def _checkpoints_from(rating_list: RatingList, key: OrderKey | None) -> QuerySet[RatingCheckpoint]:
    """The list's checkpoints that count a match at or after ``key``: stale once it is replayed."""
    return RatingCheckpoint.objects.filter(rating_list=rating_list).filter(_order(key, "gte"))


def _checkpoint(rating_list: RatingList, key: OrderKey, tallies: dict[int, Tally]) -> None:
    """Keep every player's place after the match ``key``."""
    checkpoint = RatingCheckpoint.objects.create(
        rating_list=rating_list, finished_at=key[0], match_id=key[1]
    )
    CheckpointStanding.objects.bulk_create(
        (
            CheckpointStanding(
                checkpoint=checkpoint,
                player_id=player,
                rating=one.standing.rating,
                experience=one.standing.experience,
                matches=one.matches,
                last_delta=one.last_delta,
                last_match_at=one.last_at,
            )
            for player, one in tallies.items()
        ),
        batch_size=BATCH,
    )


def _count_towards_checkpoint(rating_list: RatingList, key: OrderKey, matches: int) -> None:
    """A match rated at the end of the list: once ``CHECKPOINT_EVERY`` have been since the last
    checkpoint, the cached ratings (every player's place after ``key``) become the next one."""
    since = RatingList.objects.filter(pk=rating_list.pk).values_list("since_checkpoint", flat=True)
    now = since.get() + matches
    if now < CHECKPOINT_EVERY:
        RatingList.objects.filter(pk=rating_list.pk).update(since_checkpoint=now)
        return
    cached = Rating.objects.filter(rating_list=rating_list).iterator(BATCH)
    tallies = {rating.player_id: _tally_of(rating) for rating in cached}
    _checkpoint(rating_list, key, tallies)
    RatingList.objects.filter(pk=rating_list.pk).update(since_checkpoint=0)


def _settle_holds(rating_list: RatingList, key: OrderKey | None, held: list[Held]) -> None:
    """The pending holds of the replayed matches are decided again: those not held this time go.
    Pending holds are an officer's short queue: they are read whole and deleted by id."""
    again = {one.match.key[1] for one in held}
    pending = RatingHold.objects.filter(
        rating_list=rating_list, status=RatingHold.Status.PENDING
    ).values_list("pk", "match_id", "match__decided_at")
    gone = [
        pk
        for pk, match_id, decided_at in pending
        if match_id not in again
        and decided_at is not None
        and (key is None or (decided_at, match_id) >= key)
    ]
    for start in range(0, len(gone), BATCH):
        RatingHold.objects.filter(pk__in=gone[start : start + BATCH]).delete()


def _review(rating_list: RatingList) -> Review:
    confirmed = RatingHold.objects.filter(
        rating_list=rating_list, status=RatingHold.Status.CONFIRMED
    ).values_list("match_id", flat=True)
    return Review(float(settings.RATING_REVIEW_THRESHOLD), frozenset(confirmed))


def _hold(rating_list: RatingList, held: list[Held]) -> None:
    """Keep a pending hold for each held match (once: a task run twice holds it once), and put
    each new one in the list's trail."""
    from tournaments.ratings.audit import audit_record  # noqa: PLC0415

    for one in held:
        hold, made = RatingHold.objects.update_or_create(
            rating_list=rating_list,
            match_id=one.match.key[1],
            defaults={"largest": one.largest},
            create_defaults={"largest": one.largest, "status": RatingHold.Status.PENDING},
        )
        if made:
            match = Match.objects.select_related("tournament", "home__player", "away__player")
            audit_record(
                RatingAudit.Action.HOLD,
                rating_list=rating_list,
                by=None,
                match=match.get(pk=hold.match_id),
            )


def pending_holds(match_ids: Iterable[int] | None = None) -> set[int]:
    """Which of these matches (None: of all) wait for a rating officer's review."""
    holds = RatingHold.objects.filter(status=RatingHold.Status.PENDING)
    if match_ids is not None:
        holds = holds.filter(match_id__in=list(match_ids))
    return set(holds.values_list("match_id", flat=True))


def _write(rating_list: RatingList, changes: list[Change]) -> None:
    """Insert the ledger rows of ``changes`` as plain rows (COPY on PostgreSQL, one prepared
    INSERT run for every row elsewhere): the ORM's ``bulk_create`` made a model and prepared each
    field of each row, three quarters of a full replay's time (100,000 matches: 200,000 rows)."""
    fields = [RatingChange._meta.get_field(name) for name in _LEDGER_COLUMNS]
    quote = connection.ops.quote_name
    moment = connection.ops.adapt_datetimefield_value
    rows = [
        (
            rating_list.pk,
            change.player,
            change.key[1],
            moment(change.key[0]),
            change.score,
            change.before.rating,
            change.after.rating,
            change.delta,
            change.before.experience,
            change.after.experience,
        )
        for change in changes
    ]
    table = quote(RatingChange._meta.db_table)
    columns = ", ".join(quote(field.column) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY streams the rows: a fraction of the time of as many INSERTs.
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            values = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({values})", rows)


# The ledger's columns in the order ``_write`` gives them.
_LEDGER_COLUMNS = (
    "rating_list", "player", "match", "finished_at", "score", "before", "after", "delta",
    "experience_before", "experience_after",
)  # fmt: skip


def _cache(rating_list: RatingList, players: set[int], tallies: dict[int, Tally]) -> None:
    """Write the cached current rating of ``players`` from their ``tallies`` (no tally: no
    rated match, no row), and raise the list's revision (pages showing its ratings key their
    cached parts on it)."""
    if not players:
        return
    RatingList.objects.filter(pk=rating_list.pk).update(revision=F("revision") + 1)
    ordered = sorted(players)
    for start in range(0, len(ordered), BATCH):
        some = ordered[start : start + BATCH]
        Rating.objects.filter(rating_list=rating_list, player_id__in=some).delete()
        Rating.objects.bulk_create(
            Rating(
                rating_list=rating_list,
                player_id=player,
                rating=tallies[player].standing.rating,
                experience=tallies[player].standing.experience,
                matches=tallies[player].matches,
                last_delta=tallies[player].last_delta,
                last_match_at=tallies[player].last_at,
            )
            for player in some
            if player in tallies
        )


def ratings_pending(matches: Iterable[Match]) -> int:
    """How many of these matches the ledger does not show with their current result yet: the
    rating work the workers still have to do. A drawn FIBS match is never rated. Give the
    matches with ``home``, ``away`` and ``tournament`` loaded; the ledger is read in one query."""
    expected = {}
    for match in matches:
        rated = _rated_match(match)
        rows = [] if rated is None else _expected_rows(rated, match.tournament.rating_system)
        if rows:
            expected[match.pk] = rows
    if not expected:
        return 0
    found: dict[int, list[tuple[int, float]]] = {pk: [] for pk in expected}
    if len(expected) == 1:  # a match's page: the query compiled once
        rows: Iterable[tuple[int, int, float]] = _MATCH_SCORES.rows(next(iter(expected)))
    else:
        rows = RatingChange.objects.filter(match_id__in=expected).values_list(
            "match_id", "player_id", "score"
        )
    for match_id, player_id, score in rows:
        found[match_id].append((player_id, score))
    behind = {pk for pk, scores in expected.items() if sorted(found[pk]) != scores}
    # A match held for an officer's review waits for them, not for a worker (asked only of the
    # matches behind: most are up to date, and a page is drawn without that query).
    return len(behind - pending_holds(behind)) if behind else 0


_MATCH_SCORES = Compiled(
    lambda pk: RatingChange.objects.filter(match_id=pk).values_list(
        "match_id", "player_id", "score"
    ),
    placeholder=-424_242,
)


#: A rating list by its rating system and discipline.
ListKey = tuple[str, str]


def ratings_behind() -> dict[ListKey, OrderKey | None]:
    """The lists with rating work asked for and not done (``RatingBacklog``), each with where
    its replay should start (None: from the beginning); an empty answer: nothing is behind.

    One read of the backlog, which is empty when every task ran: the beat's check costs
    milliseconds whatever the size of the lists. ``ratings_verify`` compares the whole ledger.
    """
    behind: dict[ListKey, OrderKey | None] = {}
    rows = RatingBacklog.objects.values_list(
        "rating_list__system", "rating_list__discipline", "finished_at", "match_id"
    )
    for system, discipline, finished_at, match_id in rows:
        list_key = (system, discipline)
        key = None if finished_at is None else (finished_at, match_id)
        if list_key not in behind:
            behind[list_key] = key
        else:
            known = behind[list_key]
            behind[list_key] = None if key is None or known is None else min(key, known)
    return behind


def ratings_catch_up() -> int:
    """Replay each list that ``ratings_behind`` finds behind, from where it falls behind (the
    periodic ``tasks.ratings_catch_up``); returns how many matches were rated."""
    rated = 0
    behind = ratings_behind()
    for system, discipline in sorted(behind):
        rating_list = RatingList.objects.get(system=system, discipline=discipline)
        rated += ratings_replay(behind[system, discipline], rating_list).matches
    return rated


def backlog_add(rating_list: RatingList, key: OrderKey | None) -> None:
    """Keep, in the current transaction, that ``rating_list`` is to be replayed from ``key``
    (the enqueuers in ``tournaments.ratings.work`` call it beside their task)."""
    RatingBacklog.objects.create(
        rating_list=rating_list,
        finished_at=None if key is None else key[0],
        match_id=None if key is None else key[1],
    )


def _backlog_done(rating_list: RatingList, key: OrderKey | None, *, only: bool = False) -> None:
    """The work of the (locked) list from ``key`` on is being done: its backlog goes (``only``:
    the work of the one match at ``key``)."""
    rows = RatingBacklog.objects.filter(rating_list=rating_list)
    if not only:
        rows.filter(_order(key, "gte")).delete()
    elif key is not None:
        rows.filter(finished_at=key[0], match_id=key[1]).delete()


def ratings_verify() -> dict[ListKey, OrderKey]:
    """Where the ledger differs from the results, read whole: for each list (``ListKey``) that
    lacks a decided match, shows a match with an older result (another winner, another place in
    the order) or keeps the rows of a match no longer rated, the order key of the earliest such
    match; an empty answer: the ledger is exactly the results.

    Reads every decided match and every ledger row once (two streamed queries): a check for
    tests and operators, not for the beat (``ratings_behind`` reads the backlog).
    """
    expected: dict[int, tuple[ListKey, OrderKey, list[tuple[int, float]]]] = {}
    decided = Match.objects.filter(
        status__in=Match.DECIDED,
        decided_at__isnull=False,
        home__isnull=False,
        away__isnull=False,
        forfeit="",
        tournament__rated=True,
    ).values_list(
        "decided_at",
        "pk",
        "home__player_id",
        "away__player_id",
        "home_id",
        "winner_id",
        "tournament__rating_system",
        "tournament__discipline",
    )
    held = pending_holds()
    for decided_at, pk, home, away, entry, winner, system, discipline in decided.iterator():
        (rated,) = _as_rated([(decided_at, pk, home, away, entry, winner, 0)])
        rows = [] if pk in held else _expected_rows(rated, system)  # held: no rows yet
        expected[pk] = ((system, discipline), rated.key, rows)
    found: dict[int, list[tuple[ListKey, OrderKey, int, float]]] = {}
    ledger = RatingChange.objects.values_list(
        "rating_list__system",
        "rating_list__discipline",
        "finished_at",
        "match_id",
        "player_id",
        "score",
    )
    for system, discipline, finished_at, match_id, player, score in ledger.iterator():
        found.setdefault(match_id, []).append(
            ((system, discipline), (finished_at, match_id), player, score)
        )
    behind: dict[ListKey, OrderKey] = {}

    def since(rating_list: ListKey, key: OrderKey) -> None:
        if rating_list not in behind or key < behind[rating_list]:
            behind[rating_list] = key

    for match_id in expected.keys() | found.keys():
        present = sorted(found.get(match_id, []))
        wanted: list[tuple[ListKey, OrderKey, int, float]] = []
        if match_id in expected:
            rating_list, key, rows = expected[match_id]
            wanted = [(rating_list, key, player, score) for player, score in rows]
        if present == wanted:
            continue
        for rating_list, key, _player, _score in wanted + present:
            since(rating_list, key)
    return behind
