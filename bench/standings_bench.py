"""Speed of the standings maths: ``tournaments.standings.compute`` on a large random Swiss.

Builds a Swiss-like tournament (by default 500 entrants, 9 rounds): each round pairs neighbours
in the current order of match points (random among equals), avoiding rematches where the next
entrant down allows it, gives the odd one out a bye, and draws each result at random (won or lost
2–5 to 0–1 in games, a tenth of the matches drawn). Then times ``compute()`` with every
tie-break, best of several runs, and prints it. Then the same through the database: a Swiss
tournament of as many entrants is run by the services (``swiss_round_pair`` each round, results
written straight to the match rows for speed) in a scratch SQLite file, and the standings
selector is timed with its SQL query count (the goal: at most 10, whatever the size). Run:

    .venv/bin/python bench/standings_bench.py [--entrants 500] [--rounds 9] [--seed 7] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.scoring import MatchPoints, written  # noqa: E402
from tournaments.standings import Entrant, Result, Tiebreak, compute  # noqa: E402

DRAW_SHARE = 0.1


def swiss(entrants: int, rounds: int, rng: random.Random) -> list[Result]:
    """A random Swiss-like result set: score groups paired top-down, no rematch where avoidable."""
    points = MatchPoints()
    score: dict[int, Fraction] = defaultdict(Fraction)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    results: list[Result] = []
    for number in range(1, rounds + 1):
        order = sorted(range(1, entrants + 1), key=lambda entrant: (-score[entrant], rng.random()))
        if len(order) % 2:
            # The bye goes to the lowest entrant who has not had one yet.
            bye = next((e for e in reversed(order) if e not in had_bye), order[-1])
            order.remove(bye)
            had_bye.add(bye)
            score[bye] += points.bye
            results.append(Result.bye(number, bye))
        while order:
            a = order.pop(0)
            b = next((e for e in order if frozenset((a, e)) not in met), order[0])
            order.remove(b)
            met.add(frozenset((a, b)))
            results.append(played(number, a, b, rng))
            last = results[-1]
            for side in (a, b):
                won = last.winner == side
                score[side] += points.draw if last.winner is None else points.win if won else 0
    return results


def played(number: int, a: int, b: int, rng: random.Random) -> Result:
    if rng.random() < DRAW_SHARE:
        return Result(number, a, b, None, 2, 2)
    winner = rng.choice((a, b))
    won, lost = rng.randint(2, 5), rng.randint(0, 1)
    game_points = (won, lost) if winner == a else (lost, won)
    return Result(number, a, b, winner, *game_points)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    entrants = [Entrant(number, rng.randint(1200, 2000)) for number in range(1, args.entrants + 1)]
    results = swiss(args.entrants, args.rounds, rng)
    tiebreaks = [tiebreak.value for tiebreak in Tiebreak]

    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        rows = compute(entrants, results, tiebreaks)
        times.append(time.perf_counter() - start)
    best = min(times)
    version = ".".join(map(str, sys.version_info[:3]))
    print(f"Standings of a random Swiss, Python {version}")
    print(f"  {args.entrants:,} entrants, {args.rounds} rounds, {len(results):,} results")
    print(f"  tie-breaks: {', '.join(tiebreaks)}")
    print(f"  compute()  best of {args.runs}: {best * 1000:.1f} ms", end="")
    print(f"  (slowest {max(times) * 1000:.1f} ms)")
    print(f"  leader: entrant {rows[0].entrant.id} with {written(rows[0].match_points)} points")
    through_the_database(args.entrants, args.rounds, args.runs, rng)


def through_the_database(entrants: int, rounds: int, runs: int, rng: random.Random) -> None:
    import os  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    folder = tempfile.mkdtemp(prefix="standings-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")
    import django  # noqa: PLC0415

    django.setup()
    from django.contrib.auth.models import User  # noqa: PLC0415
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    from tournaments.models import Entry, Match, Player  # noqa: PLC0415
    from tournaments.selectors import tournament_standings  # noqa: PLC0415
    from tournaments.services import (  # noqa: PLC0415
        swiss_round_pair,
        tournament_create,
        tournament_open_registration,
        tournament_start,
    )

    call_command("migrate", verbosity=0)
    organizer = User.objects.create_user("bench")
    tournament = tournament_create(
        organizer=organizer,
        name="Bench Swiss",
        variant="short",
        format="swiss",
        swiss_rounds=rounds,
        tiebreaks=[tiebreak.value for tiebreak in Tiebreak],
    )
    tournament = tournament_open_registration(tournament=tournament, by=organizer)
    players = Player.objects.bulk_create(Player(display_name=f"P{n}") for n in range(entrants))
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, seed=n + 1) for n, player in enumerate(players)
    )
    start = time.perf_counter()
    tournament = tournament_start(tournament=tournament, by=organizer)
    for number in range(rounds):
        if number:
            swiss_round_pair(tournament=tournament, by=organizer)
        decided = []
        for match in tournament.matches.filter(status=Match.Status.SCHEDULED):
            home_won = rng.random() < 0.5
            match.score_home, match.score_away = (5, rng.randint(0, 4))[:: 1 if home_won else -1]
            match.winner_id = match.home_id if home_won else match.away_id
            match.status = Match.Status.FINAL
            decided.append(match)
        Match.objects.bulk_update(
            decided, ["score_home", "score_away", "winner", "status"], batch_size=500
        )
    built = time.perf_counter() - start
    times, queries = [], 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            begin = time.perf_counter()
            rows = tournament_standings(tournament=tournament)
            times.append(time.perf_counter() - begin)
        queries = len(captured)
    print(f"Through the database (SQLite), {entrants:,} entrants, {rounds} Swiss rounds")
    print(f"  {rounds} rounds paired by the services and decided in {built:.1f} s")
    print(
        f"  tournament_standings()  best of {runs}: {min(times) * 1000:.1f} ms, "
        f"{queries} SQL queries (goal: at most 10), {len(rows):,} rows"
    )


if __name__ == "__main__":
    main()
