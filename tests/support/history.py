"""A rated history made quickly through the models: finished FIBS-rated tournaments and their
decided matches, bulk-created (the rating list's scale tests and benchmarks)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import User

from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.names import search_key

START = datetime(2021, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class History:
    organizer: User
    tournaments: list[Tournament]
    players: list[Player]
    #: The matches' ids in their rating order (each decided one second after the last).
    match_ids: list[int]


def rated_history(
    *,
    matches: int,
    players: int,
    tournaments: int = 4,
    seed: int = 7,
    status: str = Tournament.Status.FINISHED,
) -> History:
    """``matches`` decided matches among ``players`` players, in ``tournaments`` rated Short
    Nardy round-robins (finished unless ``status`` says otherwise; every player entered in each,
    each playing at most once a round)."""
    rng = random.Random(seed)
    organizer = User.objects.create_user(f"history-organizer-{seed}")
    names = [f"Player {seed}-{n}" for n in range(players)]
    made = Player.objects.bulk_create(
        (Player(display_name=name, search_key=search_key(name)) for name in names),
        batch_size=2000,
    )  # (bulk_create does not call save, which keeps the search key)
    events = []
    for number in range(tournaments):
        tournament = Tournament.objects.create(
            name=f"History {seed}-{number}",
            slug=f"history-{seed}-{number}",
            variant="short",
            status=status,
            match_length=rng.choice([3, 5, 7]),
            organizer=organizer,
            rated=True,  # approved by a rating officer: its results count
        )
        entries = Entry.objects.bulk_create(
            (Entry(tournament=tournament, player=player) for player in made), batch_size=2000
        )
        events.append((tournament, entries))
    # Each match in its tournament's first round where neither player has played yet (the
    # standings take one result a round per entrant).
    rounds: dict[tuple[int, int], Round] = {}
    busy: dict[int, list[set[int]]] = {tournament.pk: [] for tournament, _ in events}
    rows = []
    for number in range(matches):
        tournament, entries = events[number % tournaments]
        home, away = rng.sample(entries, 2)
        taken = busy[tournament.pk]
        index = next(
            (i for i, used in enumerate(taken) if home.pk not in used and away.pk not in used),
            len(taken),
        )
        if index == len(taken):
            taken.append(set())
            rounds[tournament.pk, index] = Round(tournament=tournament, number=index + 1)
        taken[index] |= {home.pk, away.pk}
        home_won = rng.random() < 0.5
        rows.append(
            (
                rounds[tournament.pk, index],
                Match(
                    tournament=tournament,
                    home=home,
                    away=away,
                    status=Match.Status.FINAL,
                    score_home=tournament.match_length if home_won else 0,
                    score_away=0 if home_won else tournament.match_length,
                    winner=home if home_won else away,
                    decided_at=START + timedelta(seconds=number),
                ),
            )
        )
    Round.objects.bulk_create(rounds.values(), batch_size=2000)
    for round_, match in rows:
        match.round = round_
    created = Match.objects.bulk_create([match for _, match in rows], batch_size=2000)
    return History(organizer, [one for one, _ in events], list(made), [m.pk for m in created])
